//! A bundle image as a bundle directory: its manifests and metadata
//! directories (named by its labels) read in memory, and its bundle labels
//! checked against `metadata/annotations.yaml`, which OLM reads.

use std::path::PathBuf;
use std::sync::Arc;

use crate::read::{read_bundle_files, BundleDir, BundleFiles, MANIFESTS, METADATA};
use crate::yaml;
use olmsat_encoding::limits::MAX_FILE_BYTES;
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

use olmsat_image::{
    Image, ImageError, Kind, Node, BUNDLE_LABEL_PREFIX, MANIFESTS_LABEL, METADATA_LABEL,
};

/// The bundle directories of a bundle image, as [`BundleFiles`].
struct ImageFiles<'a> {
    image: &'a Image,
    manifests: &'a str,
    metadata: &'a str,
}

impl ImageFiles<'_> {
    /// The path in the image of `rel` (relative to the bundle directory).
    fn path(&self, rel: &str) -> String {
        let (first, rest) = rel.split_once('/').unwrap_or((rel, ""));
        let dir = match first {
            MANIFESTS => self.manifests,
            METADATA => self.metadata,
            other => other,
        };
        match (dir.is_empty(), rest.is_empty()) {
            (true, _) => rest.to_owned(),
            (false, true) => dir.to_owned(),
            (false, false) => format!("{dir}/{rest}"),
        }
    }
}

impl BundleFiles for ImageFiles<'_> {
    fn is_dir(&self, rel: &str) -> bool {
        self.image.tree.is_dir(&self.path(rel))
    }
    fn is_file(&self, rel: &str) -> bool {
        matches!(self.image.tree.get(&self.path(rel)), Some(Node::File(_)))
    }
    fn entries(&self, rel: &str) -> std::io::Result<Vec<(String, bool)>> {
        let path = self.path(rel);
        Ok(self
            .image
            .tree
            .children(&path)
            .into_iter()
            .filter(|(name, _)| {
                let full = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}/{name}")
                };
                // Links are not followed; they are reported once, below.
                !matches!(self.image.tree.get(&full), Some(Node::Symlink(_)))
            })
            .collect())
    }
    fn read_text(&self, rel: &str, shown: &Arc<str>) -> Result<String, Box<Diagnostic>> {
        match self.image.tree.get(&self.path(rel)) {
            Some(Node::File(bytes)) if bytes.len() as u64 > MAX_FILE_BYTES => Err(Box::new(
                Diagnostic::new(
                    Rule::FileTooLarge,
                    format!(
                        "file is {} bytes, larger than the {MAX_FILE_BYTES}-byte limit olmsat reads",
                        bytes.len()
                    ),
                )
                .at(&Location::new(shown.clone(), 0)),
            )),
            Some(Node::File(bytes)) => yaml::text_of(bytes, shown),
            _ => Err(Box::new(
                Diagnostic::new(Rule::Unreadable, "cannot read file: not a file of the image")
                    .at(&Location::new(shown.clone(), 0)),
            )),
        }
    }
}

/// The bundle directory of a bundle image, named `IMAGE!/` (its files
/// `IMAGE!/manifests/...`), with the entries not read among its problems.
/// Labels are checked by [`label_mismatches`] (validation, not rendering:
/// opm's render reads labels only to tell the image's kind).
///
/// # Errors
///
/// [`ImageError::WrongKind`] for a catalog image.
pub fn read(image: &Image) -> Result<BundleDir, ImageError> {
    let Kind::Bundle {
        manifests,
        metadata,
    } = &image.kind
    else {
        return Err(ImageError::WrongKind {
            image: image.name.clone(),
            found: image.kind.name(),
            wanted: "bundle",
        });
    };
    let files = ImageFiles {
        image,
        manifests,
        metadata,
    };
    let mut dir = read_bundle_files(PathBuf::from(format!("{}!/", image.name)), &files);
    let mut problems = Vec::new();
    let inside = |rel: &str| {
        [manifests, metadata].iter().any(|d| {
            rel.strip_prefix(d.as_str())
                .is_some_and(|r| r.starts_with('/'))
        })
    };
    let skipped = |rel: &str, why: &str| {
        Diagnostic::new(Rule::ImageEntrySkipped, format!("skipped: {why}"))
            .at(&Location::new(Arc::from(image.location_name(rel)), 0))
    };
    for (rel, why) in &image.skipped {
        if inside(rel) {
            problems.push(skipped(rel, why));
        }
    }
    for rel in image.tree.paths() {
        if let (true, Some(Node::Symlink(target))) = (inside(rel), image.tree.get(rel)) {
            problems.push(skipped(
                rel,
                &format!("a symbolic link (to {target}) in an image is not followed"),
            ));
        }
    }
    problems.append(&mut dir.diagnostics);
    dir.diagnostics = problems;
    Ok(dir)
}

/// The bundle labels of the image that `metadata/annotations.yaml` lacks or
/// gives another value (errors, as opm's bundle validation reports them).
pub fn label_mismatches(image: &Image, dir: &BundleDir) -> Vec<Diagnostic> {
    let Some(annotations) = &dir.annotations else {
        return Vec::new();
    };
    let is_dir_key = |k: &str| k == MANIFESTS_LABEL || k == METADATA_LABEL;
    let same = |k: &str, a: &str, b: &str| {
        if is_dir_key(k) {
            a.trim().trim_matches('/') == b.trim().trim_matches('/')
        } else {
            a.trim() == b.trim()
        }
    };
    let mut out = Vec::new();
    for (key, label) in &image.labels {
        if !key.starts_with(BUNDLE_LABEL_PREFIX) {
            continue;
        }
        match annotations.get(key) {
            Some(a) if same(key, &a.value, label) => {}
            Some(a) => out.push(
                Diagnostic::new(
                    Rule::ImageLabelMismatch,
                    format!(
                        "image label {key}={label:?} disagrees with annotations.yaml ({:?}); OLM reads annotations.yaml",
                        a.value
                    ),
                )
                .at(&a.location),
            ),
            None => out.push(
                Diagnostic::new(
                    Rule::ImageLabelMismatch,
                    format!("image label {key}={label:?} is not in annotations.yaml"),
                )
                .at(&annotations.location),
            ),
        }
    }
    out
}
