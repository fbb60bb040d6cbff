//! `bundle generate`: write `metadata/annotations.yaml` and `bundle.Dockerfile` for
//! a directory of manifests, as `opm alpha bundle generate` does.
//!
//! - The media type is `registry+v1` when the manifests hold a
//!   ClusterServiceVersion, `plain+v0` otherwise.
//! - Without an output directory, `metadata/` is created next to the manifests
//!   directory (in its parent). With one, the manifests are copied to
//!   `<output>/manifests/` and `metadata/` is created in `<output>`.
//! - The default channel is the first channel when none is given.
//! - An existing `annotations.yaml` is never replaced unless `overwrite` is set;
//!   one that already holds exactly the generated annotations is kept as it is.
//! - `bundle.Dockerfile` is written in the bundle root (the directory holding
//!   `metadata/`), with `COPY` paths relative to it; opm writes it in the working
//!   directory instead.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::annotations::{keys, split_channels, Annotations, MANIFESTS_DIR, METADATA_DIR};
use crate::format::MediaType;
use crate::read::{read_manifest_files, ManifestFile, MANIFESTS, METADATA};
use crate::yaml;
use crate::BundleError;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// The name of the annotations file.
pub const ANNOTATIONS_FILE: &str = "annotations.yaml";
/// The name of the Dockerfile `generate` writes.
pub const DOCKERFILE: &str = "bundle.Dockerfile";

/// Arguments of `bundle generate`.
#[derive(Debug, Clone)]
pub struct GenerateOptions {
    /// The directory holding the manifests.
    pub directory: PathBuf,
    /// Package name.
    pub package: String,
    /// Comma-separated channels.
    pub channels: String,
    /// Default channel (the first channel when `None`).
    pub default_channel: Option<String>,
    /// Where to put `manifests/` and `metadata/` (default: next to `directory`).
    pub output_dir: Option<PathBuf>,
    /// Replace an existing `annotations.yaml`.
    pub overwrite: bool,
}

/// What `generate` did.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The media type written.
    pub media_type: MediaType,
    /// The annotations file.
    pub annotations_file: PathBuf,
    /// Whether an identical existing annotations file was kept.
    pub kept_existing: bool,
    /// The Dockerfile written.
    pub dockerfile: PathBuf,
    /// Manifest files copied to the output directory.
    pub copied: Vec<PathBuf>,
    /// Warnings (default channel not among the channels, unreadable manifests...).
    pub warnings: Vec<Diagnostic>,
}

/// The media type of a set of manifest files: registry+v1 when one holds a CSV.
pub fn media_type_of(files: &[ManifestFile]) -> MediaType {
    if files
        .iter()
        .flat_map(|f| f.objects.iter())
        .any(|o| o.kind == crate::csv::CSV_KIND)
    {
        MediaType::RegistryV1
    } else {
        MediaType::PlainV0
    }
}

/// The annotations `generate` writes, by key.
pub fn annotation_values(
    media_type: MediaType,
    package: &str,
    channels: &str,
    default_channel: Option<&str>,
) -> BTreeMap<&'static str, String> {
    let mut m = BTreeMap::new();
    m.insert(keys::MEDIATYPE, media_type.as_str().to_owned());
    m.insert(keys::MANIFESTS, MANIFESTS_DIR.to_owned());
    m.insert(keys::METADATA, METADATA_DIR.to_owned());
    m.insert(keys::PACKAGE, package.to_owned());
    m.insert(keys::CHANNELS, channels.to_owned());
    if let Some(d) = default_channel.filter(|d| !d.is_empty()) {
        m.insert(keys::DEFAULT_CHANNEL, d.to_owned());
    }
    m
}

/// `annotations.yaml` text for these annotations (keys sorted, as opm writes it).
pub fn annotations_yaml(values: &BTreeMap<&'static str, String>) -> String {
    let inner: Map<String, Value> = values
        .iter()
        .map(|(k, v)| ((*k).to_owned(), Value::from(v.as_str())))
        .collect();
    let mut doc = Map::new();
    doc.insert("annotations".to_owned(), Value::Object(inner));
    let mut out = String::new();
    olmsat_encoding::yaml_emit::emit_document(&Value::Object(doc), &mut out);
    out
}

/// Dockerfile text: `FROM scratch`, one `LABEL` per annotation (in opm's order),
/// and `COPY` lines for the manifests and metadata directories.
pub fn dockerfile(
    values: &BTreeMap<&'static str, String>,
    manifests_rel: &str,
    metadata_rel: &str,
) -> String {
    let mut s = String::from("FROM scratch\n\n");
    for key in [
        keys::MEDIATYPE,
        keys::MANIFESTS,
        keys::METADATA,
        keys::PACKAGE,
        keys::CHANNELS,
        keys::DEFAULT_CHANNEL,
    ] {
        if let Some(v) = values.get(key) {
            s.push_str(&format!("LABEL {key}={v}\n"));
        }
    }
    s.push('\n');
    s.push_str(&format!("COPY {manifests_rel} /manifests/\n"));
    s.push_str(&format!("COPY {metadata_rel} /metadata/\n"));
    s
}

/// Run `bundle generate`.
pub fn generate(opts: &GenerateOptions) -> Result<Generated, BundleError> {
    if opts.package.trim().is_empty() {
        return Err(BundleError::Invalid("a package name is required".into()));
    }
    let channels = split_channels(&opts.channels);
    if channels.is_empty() {
        return Err(BundleError::Invalid(
            "at least one channel is required".into(),
        ));
    }
    let meta =
        std::fs::metadata(&opts.directory).map_err(|e| BundleError::io(&opts.directory, e))?;
    if !meta.is_dir() {
        return Err(BundleError::NotADirectory {
            path: opts.directory.clone(),
        });
    }
    let (files, _, diags) = read_manifest_files(&opts.directory);
    let mut warnings: Vec<Diagnostic> = diags;
    if files.is_empty() {
        return Err(BundleError::Invalid(format!(
            "{}: no manifest files found",
            opts.directory.display()
        )));
    }
    let media_type = media_type_of(&files);
    let default_channel = opts
        .default_channel
        .clone()
        .filter(|d| !d.is_empty())
        .or_else(|| channels.first().cloned())
        .unwrap_or_default();
    if !channels.contains(&default_channel) {
        warnings.push(Diagnostic::new(
            Rule::DefaultChannelNotListed,
            format!(
                "default channel {default_channel:?} is not one of the channels ({})",
                channels.join(", ")
            ),
        ));
    }
    let channels_text = channels.join(",");
    let values = annotation_values(
        media_type,
        &opts.package,
        &channels_text,
        Some(&default_channel),
    );
    let content = annotations_yaml(&values);

    let (root, manifests_dir, copy) = match &opts.output_dir {
        None => {
            let parent = opts
                .directory
                .parent()
                .map(Path::to_path_buf)
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or_else(|| PathBuf::from("."));
            (parent, opts.directory.clone(), false)
        }
        Some(out) => (out.clone(), out.join(MANIFESTS), true),
    };
    let metadata_dir = root.join(METADATA);
    let annotations_file = metadata_dir.join(ANNOTATIONS_FILE);

    // Decide everything that could fail before writing anything.
    let mut kept_existing = false;
    if annotations_file.exists() && !opts.overwrite {
        if same_annotations(&annotations_file, &values) {
            kept_existing = true;
        } else {
            return Err(BundleError::WouldOverwrite {
                path: annotations_file,
                hint: " (it holds other annotations; pass --overwrite to replace it)".into(),
            });
        }
    }
    let mut to_copy = Vec::new();
    if copy {
        for f in &files {
            let src = opts.directory.join(&f.name);
            let dst = manifests_dir.join(&f.name);
            if dst.exists() && !opts.overwrite && !same_path(&src, &dst) {
                return Err(BundleError::WouldOverwrite {
                    path: dst,
                    hint: " (pass --overwrite to replace it)".into(),
                });
            }
            to_copy.push((src, dst));
        }
    }

    let mut copied = Vec::new();
    if copy {
        std::fs::create_dir_all(&manifests_dir).map_err(|e| BundleError::io(&manifests_dir, e))?;
        for (src, dst) in to_copy {
            if same_path(&src, &dst) {
                continue;
            }
            std::fs::copy(&src, &dst).map_err(|e| BundleError::io(&dst, e))?;
            copied.push(dst);
        }
    }
    if !kept_existing {
        std::fs::create_dir_all(&metadata_dir).map_err(|e| BundleError::io(&metadata_dir, e))?;
        std::fs::write(&annotations_file, content)
            .map_err(|e| BundleError::io(&annotations_file, e))?;
    }
    let rel = |p: &Path| -> String {
        p.strip_prefix(&root)
            .map(|r| r.display().to_string())
            .unwrap_or_else(|_| p.display().to_string())
    };
    let dockerfile_path = root.join(DOCKERFILE);
    let text = dockerfile(&values, &rel(&manifests_dir), &rel(&metadata_dir));
    std::fs::write(&dockerfile_path, text).map_err(|e| BundleError::io(&dockerfile_path, e))?;
    Ok(Generated {
        media_type,
        annotations_file,
        kept_existing,
        dockerfile: dockerfile_path,
        copied,
        warnings,
    })
}

fn same_path(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Whether an existing annotations file holds exactly these annotations.
fn same_annotations(path: &Path, values: &BTreeMap<&'static str, String>) -> bool {
    let shown: Arc<str> = Arc::from(path.display().to_string());
    let Ok(text) = yaml::read_text(path, &shown) else {
        return false;
    };
    let Ok((m, _)) = yaml::meta_file(&shown, &text) else {
        return false;
    };
    let (a, diags) = Annotations::from_meta(&m);
    diags.is_empty()
        && a.values.len() == values.len()
        && values
            .iter()
            .all(|(k, v)| a.get(k).is_some_and(|got| &got.value == v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    const CSV: &str = "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata: {name: t.v0.1.0}\nspec: {version: 0.1.0}\n";

    fn opts(dir: &Path) -> GenerateOptions {
        GenerateOptions {
            directory: dir.to_path_buf(),
            package: "test-operator".into(),
            channels: "beta,stable".into(),
            default_channel: Some("stable".into()),
            output_dir: None,
            overwrite: false,
        }
    }

    #[test]
    fn annotations_and_dockerfile_text() {
        let v = annotation_values(
            MediaType::RegistryV1,
            "test-operator",
            "beta,stable",
            Some("stable"),
        );
        assert_eq!(
            annotations_yaml(&v),
            "annotations:\n  operators.operatorframework.io.bundle.channel.default.v1: stable\n  operators.operatorframework.io.bundle.channels.v1: beta,stable\n  operators.operatorframework.io.bundle.manifests.v1: manifests/\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.metadata.v1: metadata/\n  operators.operatorframework.io.bundle.package.v1: test-operator\n"
        );
        assert_eq!(
            dockerfile(&v, "manifests", "metadata"),
            "FROM scratch\n\nLABEL operators.operatorframework.io.bundle.mediatype.v1=registry+v1\nLABEL operators.operatorframework.io.bundle.manifests.v1=manifests/\nLABEL operators.operatorframework.io.bundle.metadata.v1=metadata/\nLABEL operators.operatorframework.io.bundle.package.v1=test-operator\nLABEL operators.operatorframework.io.bundle.channels.v1=beta,stable\nLABEL operators.operatorframework.io.bundle.channel.default.v1=stable\n\nCOPY manifests /manifests/\nCOPY metadata /metadata/\n"
        );
    }

    #[test]
    fn writes_next_to_manifests_and_refuses_to_overwrite() {
        let t = tempfile::tempdir().unwrap();
        let m = t.path().join("my-manifests");
        fs::create_dir_all(&m).unwrap();
        fs::write(m.join("csv.yaml"), CSV).unwrap();
        let g = generate(&opts(&m)).unwrap();
        assert_eq!(g.media_type, MediaType::RegistryV1);
        assert!(t.path().join("metadata/annotations.yaml").is_file());
        let df = fs::read_to_string(t.path().join(DOCKERFILE)).unwrap();
        assert!(df.contains("COPY my-manifests /manifests/"), "{df}");
        // Same content again: kept.
        assert!(generate(&opts(&m)).unwrap().kept_existing);
        // Different content: refused, then allowed with overwrite.
        let mut o = opts(&m);
        o.channels = "alpha".into();
        o.default_channel = None;
        assert!(matches!(
            generate(&o),
            Err(BundleError::WouldOverwrite { .. })
        ));
        o.overwrite = true;
        generate(&o).unwrap();
        let text = fs::read_to_string(t.path().join("metadata/annotations.yaml")).unwrap();
        assert!(text.contains("channel.default.v1: alpha"));
    }

    #[test]
    fn output_dir_copies_manifests() {
        let t = tempfile::tempdir().unwrap();
        let m = t.path().join("in");
        fs::create_dir_all(&m).unwrap();
        fs::write(
            m.join("cm.yaml"),
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
        )
        .unwrap();
        let mut o = opts(&m);
        o.output_dir = Some(t.path().join("out"));
        let g = generate(&o).unwrap();
        assert_eq!(g.media_type, MediaType::PlainV0);
        assert_eq!(g.copied.len(), 1);
        assert!(t.path().join("out/manifests/cm.yaml").is_file());
        assert!(t.path().join("out/metadata/annotations.yaml").is_file());
    }

    #[test]
    fn bad_arguments() {
        let t = tempfile::tempdir().unwrap();
        let mut o = opts(t.path());
        o.package = String::new();
        assert!(matches!(generate(&o), Err(BundleError::Invalid(_))));
        let o = opts(&t.path().join("missing"));
        assert!(matches!(generate(&o), Err(BundleError::Io { .. })));
        let o = opts(t.path());
        assert!(matches!(generate(&o), Err(BundleError::Invalid(_))));
    }
}
