//! `bundle init`: lay out a bundle directory from a directory (or stream) of
//! manifests, or from generated defaults, as the CSV-less bundle proposal
//! describes `opm bundle init`.
//!
//! - The media type is given, or inferred from the source manifests: a
//!   ClusterServiceVersion means registry+v1, a Deployment registry+v2, other
//!   objects plain+v0. With no source manifests it must be given.
//! - Source files are copied into `manifests/` as they are; a stream read from
//!   standard input is split into one file per object.
//! - With no source manifests, defaults are generated: a CSV (registry+v1) or a
//!   Deployment (registry+v2 and plain+v0).
//! - `metadata/annotations.yaml` is written for every format;
//!   `metadata/dependencies.yaml` (empty) for the registry formats;
//!   `metadata/bundle.yaml` for registry+v2. A `Dockerfile` is written on request.
//! - Nothing is ever overwritten: when any file to be written exists, nothing is
//!   written and an error is returned.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::annotations::{keys, MANIFESTS_DIR, METADATA_DIR};
use crate::csv::CSV_KIND;
use crate::format::MediaType;
use crate::generate::annotations_yaml;
use crate::read::{manifest_file, read_manifest_files, ManifestFile, Object, MANIFESTS, METADATA};
use crate::BundleError;
use olmsat_encoding::yaml_emit::emit_document;
use olmsat_findings::diagnostic::Diagnostic;

/// Where the source manifests come from.
#[derive(Debug, Clone)]
pub enum Source {
    /// No source: generate defaults.
    None,
    /// A directory of manifest files.
    Dir(PathBuf),
    /// A stream of manifests (read from standard input by the caller).
    Stream(String),
}

impl Source {
    /// The source `--from` names: none, `-` (standard input, read now), or a
    /// directory, where an empty directory means "generate defaults".
    ///
    /// # Errors
    ///
    /// Standard input cannot be read, or is not UTF-8 text.
    pub fn from_arg(from: Option<&str>) -> std::io::Result<Source> {
        use std::io::Read;
        Ok(match from {
            None => Source::None,
            Some("-") => {
                let mut text = String::new();
                std::io::stdin().lock().read_to_string(&mut text)?;
                Source::Stream(text)
            }
            Some(p) => {
                let path = std::path::Path::new(p);
                let empty = std::fs::read_dir(path).is_ok_and(|mut e| e.next().is_none());
                if empty {
                    Source::None
                } else {
                    Source::Dir(path.to_path_buf())
                }
            }
        })
    }
}

/// Arguments of `bundle init`.
#[derive(Debug, Clone)]
pub struct InitOptions {
    /// The media type; inferred from the source when `None`.
    pub media_type: Option<MediaType>,
    /// The source manifests.
    pub source: Source,
    /// The bundle directory to lay out (created when missing).
    pub dir: PathBuf,
    /// Package name (default: from the CSV or Deployment name, else the directory name).
    pub package: Option<String>,
    /// Comma-separated channels (default `alpha`).
    pub channels: Option<String>,
    /// Write a `Dockerfile`.
    pub dockerfile: bool,
}

/// What `init` did.
#[derive(Debug, Clone)]
pub struct Initialized {
    /// The media type of the new bundle.
    pub media_type: MediaType,
    /// Whether it was inferred from the source manifests.
    pub inferred: bool,
    /// The package name used.
    pub package: String,
    /// Files written, in order.
    pub written: Vec<PathBuf>,
    /// Problems in the source manifests (they are still copied).
    pub warnings: Vec<Diagnostic>,
}

/// Infer a media type from manifests: CSV → registry+v1, Deployment → registry+v2,
/// any other object → plain+v0; `None` when there are no objects.
pub fn infer_media_type<'a>(objects: impl IntoIterator<Item = &'a Object>) -> Option<MediaType> {
    let mut any = false;
    let mut deployment = false;
    for o in objects {
        any = true;
        if o.kind == CSV_KIND {
            return Some(MediaType::RegistryV1);
        }
        deployment |= o.kind == "Deployment";
    }
    match (any, deployment) {
        (false, _) => None,
        (true, true) => Some(MediaType::RegistryV2),
        (true, false) => Some(MediaType::PlainV0),
    }
}

/// Run `bundle init`.
pub fn init(opts: &InitOptions) -> Result<Initialized, BundleError> {
    // Source manifests: (file name, content) pairs to write, and the objects.
    let mut warnings = Vec::new();
    let mut files: Vec<(String, String)> = Vec::new();
    let mut parsed: Vec<ManifestFile> = Vec::new();
    match &opts.source {
        Source::None => {}
        Source::Dir(src) => {
            let meta = std::fs::metadata(src).map_err(|e| BundleError::io(src, e))?;
            if !meta.is_dir() {
                return Err(BundleError::NotADirectory { path: src.clone() });
            }
            let (mf, _, diags) = read_manifest_files(src);
            warnings.extend(diags);
            for f in mf {
                let path = src.join(&f.name);
                let text = std::fs::read_to_string(&path).map_err(|e| BundleError::io(&path, e))?;
                files.push((f.name.clone(), text));
                parsed.push(f);
            }
        }
        Source::Stream(text) => {
            let shown: Arc<str> = Arc::from("<stdin>");
            let (f, diags) = manifest_file("<stdin>".into(), &shown, text);
            warnings.extend(diags);
            let mut used = std::collections::BTreeSet::new();
            for o in &f.objects {
                let base = format!("{}-{}", slug(&o.kind), slug(&o.name));
                let mut name = format!("{base}.yaml");
                let mut n = 2;
                while !used.insert(name.clone()) {
                    name = format!("{base}-{n}.yaml");
                    n += 1;
                }
                let mut s = String::new();
                emit_document(&o.value, &mut s);
                files.push((name, s));
            }
            parsed.push(f);
        }
    }
    let objects: Vec<&Object> = parsed.iter().flat_map(|f| f.objects.iter()).collect();
    let inferred = infer_media_type(objects.iter().copied());
    let (media_type, was_inferred) = match (opts.media_type, inferred) {
        (Some(m), _) => (m, false),
        (None, Some(m)) => (m, true),
        (None, None) => {
            return Err(BundleError::Invalid(
                "unable to infer mediatype when no manifests are present; pass --mediatype".into(),
            ))
        }
    };
    let package = opts
        .package
        .clone()
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| default_package(&objects, &opts.dir));
    let channels = opts
        .channels
        .clone()
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| "alpha".to_owned());
    let channel_list = crate::annotations::split_channels(&channels);
    let default_channel = channel_list
        .first()
        .cloned()
        .unwrap_or_else(|| "alpha".into());

    if files.is_empty() {
        files = default_manifests(media_type, &package);
    }
    let mut plan: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|(name, text)| (opts.dir.join(MANIFESTS).join(name), text))
        .collect();
    let mut ann = std::collections::BTreeMap::new();
    ann.insert(keys::MEDIATYPE, media_type.as_str().to_owned());
    ann.insert(keys::MANIFESTS, MANIFESTS_DIR.to_owned());
    ann.insert(keys::METADATA, METADATA_DIR.to_owned());
    if media_type != MediaType::PlainV0 {
        ann.insert(keys::PACKAGE, package.clone());
        ann.insert(keys::CHANNELS, channel_list.join(","));
        ann.insert(keys::DEFAULT_CHANNEL, default_channel);
    }
    let meta = opts.dir.join(METADATA);
    plan.push((meta.join("annotations.yaml"), annotations_yaml(&ann)));
    if media_type != MediaType::PlainV0 {
        plan.push((
            meta.join("dependencies.yaml"),
            "dependencies: []\n".to_owned(),
        ));
    }
    if media_type == MediaType::RegistryV2 {
        plan.push((meta.join("bundle.yaml"), bundle_yaml(&package, &objects)));
    }
    if opts.dockerfile {
        plan.push((opts.dir.join("Dockerfile"), dockerfile(&ann)));
    }
    if let Some((existing, _)) = plan.iter().find(|(p, _)| p.exists()) {
        return Err(BundleError::WouldOverwrite {
            path: existing.clone(),
            hint: "; bundle init never overwrites existing content".into(),
        });
    }
    let mut written = Vec::new();
    for (path, text) in plan {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| BundleError::io(parent, e))?;
        }
        std::fs::write(&path, text).map_err(|e| BundleError::io(&path, e))?;
        written.push(path);
    }
    Ok(Initialized {
        media_type,
        inferred: was_inferred,
        package,
        written,
        warnings,
    })
}

/// A lowercase file-name-safe form of `s`.
fn slug(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    out = out.trim_matches(['-', '.']).to_owned();
    if out.is_empty() {
        "object".to_owned()
    } else {
        out
    }
}

/// A DNS-1123 label from free text, or `None` when nothing usable is left.
fn label(s: &str) -> Option<String> {
    let mut out = String::new();
    for c in s.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').chars().take(63).collect::<String>();
    let out = out.trim_end_matches('-').to_owned();
    (!out.is_empty()).then_some(out)
}

/// The package name when none is given: the CSV name without its version suffix,
/// else the first Deployment's name, else the directory name, else `my-operator`.
fn default_package(objects: &[&Object], dir: &Path) -> String {
    if let Some(csv) = objects.iter().find(|o| o.kind == CSV_KIND) {
        let base = match csv.name.find(".v") {
            Some(i) => &csv.name[..i],
            None => csv.name.as_str(),
        };
        if let Some(l) = label(base) {
            return l;
        }
    }
    if let Some(d) = objects.iter().find(|o| o.kind == "Deployment") {
        if let Some(l) = label(&d.name) {
            return l;
        }
    }
    std::fs::canonicalize(dir)
        .ok()
        .or_else(|| Some(dir.to_path_buf()))
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .and_then(|n| label(&n))
        .unwrap_or_else(|| "my-operator".to_owned())
}

fn yaml_text(v: &Value) -> String {
    let mut s = String::new();
    emit_document(v, &mut s);
    s
}

fn deployment(package: &str) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": package},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": package}},
            "template": {
                "metadata": {"labels": {"app": package}},
                "spec": {"containers": [{"name": "manager", "image": format!("quay.io/example/{package}:v0.0.1")}]}
            }
        }
    })
}

/// The manifests generated when there are no source manifests.
fn default_manifests(media_type: MediaType, package: &str) -> Vec<(String, String)> {
    match media_type {
        MediaType::RegistryV1 => {
            let dep_spec = deployment(package)["spec"].clone();
            let csv = json!({
                "apiVersion": "operators.coreos.com/v1alpha1",
                "kind": "ClusterServiceVersion",
                "metadata": {"name": format!("{package}.v0.0.1")},
                "spec": {
                    "displayName": package,
                    "version": "0.0.1",
                    "installModes": [
                        {"type": "OwnNamespace", "supported": true},
                        {"type": "SingleNamespace", "supported": true},
                        {"type": "MultiNamespace", "supported": false},
                        {"type": "AllNamespaces", "supported": true}
                    ],
                    "install": {
                        "strategy": "deployment",
                        "spec": {"deployments": [{"name": package, "spec": dep_spec}]}
                    }
                }
            });
            vec![("csv.yaml".to_owned(), yaml_text(&csv))]
        }
        MediaType::RegistryV2 | MediaType::PlainV0 => {
            vec![(
                "deployment.yaml".to_owned(),
                yaml_text(&deployment(package)),
            )]
        }
    }
}

/// `metadata/bundle.yaml` for a registry+v2 bundle: the media type, name and
/// version (from the Deployment's `version` label when it is a semantic version,
/// else 0.0.1), and a display name.
fn bundle_yaml(package: &str, objects: &[&Object]) -> String {
    let version = objects
        .iter()
        .filter(|o| o.kind == "Deployment")
        .find_map(|o| {
            o.value
                .pointer("/spec/template/metadata/labels/version")
                .and_then(Value::as_str)
                .map(|v| v.trim_start_matches('v').to_owned())
                .filter(|v| olmsat_versions::version::parse_strict(v).is_ok())
        })
        .unwrap_or_else(|| "0.0.1".to_owned());
    let mut m = Map::new();
    m.insert(
        keys::MEDIATYPE_UNVERSIONED.to_owned(),
        Value::from(MediaType::RegistryV2.as_str()),
    );
    m.insert("name".into(), Value::from(format!("{package}.v{version}")));
    m.insert("version".into(), Value::from(version));
    m.insert("displayName".into(), Value::from(package));
    yaml_text(&Value::Object(m))
}

fn dockerfile(ann: &std::collections::BTreeMap<&'static str, String>) -> String {
    let mut s = String::from("FROM scratch\n\n");
    for (k, v) in ann {
        s.push_str(&format!("LABEL {k}={v}\n"));
    }
    s.push_str("\nCOPY manifests /manifests/\nCOPY metadata /metadata/\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::validate_dir;
    use std::fs;

    #[test]
    fn the_source_from_the_argument() {
        assert!(matches!(Source::from_arg(None), Ok(Source::None)));
        let t = tempfile::tempdir().expect("temporary directory");
        let dir = t.path().to_str().expect("UTF-8 path");
        // An empty directory: defaults.
        assert!(matches!(Source::from_arg(Some(dir)), Ok(Source::None)));
        fs::write(t.path().join("csv.yaml"), "kind: x\n").expect("written");
        assert!(matches!(Source::from_arg(Some(dir)), Ok(Source::Dir(_))));
    }

    fn opts(dir: &Path, m: Option<MediaType>, source: Source) -> InitOptions {
        InitOptions {
            media_type: m,
            source,
            dir: dir.to_path_buf(),
            package: Some("demo".into()),
            channels: None,
            dockerfile: false,
        }
    }

    #[test]
    fn defaults_for_every_format_validate() {
        for m in MediaType::ALL {
            let t = tempfile::tempdir().unwrap();
            let mut o = opts(t.path(), Some(m), Source::None);
            o.dockerfile = true;
            let r = init(&o).unwrap();
            assert_eq!(r.media_type, m);
            assert!(t.path().join("Dockerfile").is_file());
            let rep = validate_dir(t.path()).unwrap();
            assert_eq!(rep.detection.media_type, m);
            assert!(rep.passed(), "{m}: {:?}", rep.errors);
        }
    }

    #[test]
    fn empty_source_needs_a_media_type() {
        let t = tempfile::tempdir().unwrap();
        let e = init(&opts(t.path(), None, Source::None)).unwrap_err();
        assert!(e.to_string().contains("unable to infer mediatype"), "{e}");
    }

    #[test]
    fn infers_from_source_and_never_overwrites() {
        let t = tempfile::tempdir().unwrap();
        let src = t.path().join("kiali");
        fs::create_dir_all(&src).unwrap();
        fs::write(src.join("deployment.yaml"), "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: kiali-operator}\nspec:\n  template:\n    metadata:\n      labels: {version: v1.9.1}\n").unwrap();
        fs::write(src.join("crds.yaml"), "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: kialis.kiali.io}\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: k}\n").unwrap();
        let out = t.path().join("bundle");
        let mut o = opts(&out, None, Source::Dir(src));
        o.package = None;
        let r = init(&o).unwrap();
        assert_eq!(r.media_type, MediaType::RegistryV2);
        assert!(r.inferred);
        assert_eq!(r.package, "kiali-operator");
        let by = fs::read_to_string(out.join("metadata/bundle.yaml")).unwrap();
        assert!(by.contains("version: 1.9.1"), "{by}");
        assert!(out.join("manifests/crds.yaml").is_file());
        let rep = validate_dir(&out).unwrap();
        assert!(rep.passed(), "{:?}", rep.errors);
        let e = init(&o).unwrap_err();
        assert!(matches!(e, BundleError::WouldOverwrite { .. }));
    }

    #[test]
    fn stream_is_split_per_object() {
        let t = tempfile::tempdir().unwrap();
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n".to_owned();
        let r = init(&opts(t.path(), None, Source::Stream(text))).unwrap();
        assert_eq!(r.media_type, MediaType::PlainV0);
        assert!(t.path().join("manifests/configmap-a.yaml").is_file());
        assert!(t.path().join("manifests/configmap-a-2.yaml").is_file());
    }

    #[test]
    fn labels_and_slugs() {
        assert_eq!(label("My_Operator!").as_deref(), Some("my-operator"));
        assert_eq!(label("--"), None);
        assert_eq!(slug("Foo Bar"), "foo-bar");
    }
}
