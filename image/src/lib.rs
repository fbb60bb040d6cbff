//! # olmsat-image
//!
//! Catalog and bundle images read from disk, offline: OCI image layouts
//! (`oci:DIR[:REF]`, or a directory holding an `oci-layout` file), archives of
//! them (`oci-archive:FILE[:REF]`) and `docker save` archives
//! (`docker-archive:FILE[:REF|:@N]`). Nothing is pulled and nothing is written
//! to disk: the layers are read in memory.
//!
//! - [`reference`](mod@reference): the arguments (transports, registry references refused,
//!   platforms).
//! - [`store`](self): the layout or archive's files and blobs, each checked
//!   against its digest and size before use.
//! - [`select`](self): which image of a layout, archive or multi-platform
//!   index is read.
//! - [`layer`]: decompression, tar entries checked for safety, whiteouts.
//! - [`Image::tree`]: the files of the directories olmsat reads; the catalog
//!   loader (`olmsat_catalog::load::image`) and the bundle reader
//!   (`olmsat_bundle::image`) read them from there. Nothing here knows what a
//!   catalog or a bundle is beyond the labels naming their directories.
//! - [`Limits`]: what reading one image may cost.
//! - [`memory`]: images built and read in memory, for tests and fuzzing.

#![deny(missing_docs)]

mod digest;
mod document;
mod error;
pub mod layer;
mod limits;
pub mod memory;
pub mod reference;
mod select;
mod store;

use std::collections::BTreeMap;
use std::fmt;

pub use error::ImageError;
pub use layer::{FileTree, LinkProblem, Node};
pub use limits::{Limits, MAX_LINK_HOPS};
pub use reference::{ImageSpec, Platform, Selector, Transport};

/// The label naming a catalog image's catalog directory.
pub const CONFIGS_LABEL: &str = "operators.operatorframework.io.index.configs.v1";
/// The catalog directory when the label is absent.
pub const DEFAULT_CONFIGS: &str = "/configs";
/// The prefix of the bundle image labels.
pub const BUNDLE_LABEL_PREFIX: &str = "operators.operatorframework.io.bundle.";
/// The bundle label naming the manifests directory.
pub const MANIFESTS_LABEL: &str = "operators.operatorframework.io.bundle.manifests.v1";
/// The bundle label naming the metadata directory.
pub const METADATA_LABEL: &str = "operators.operatorframework.io.bundle.metadata.v1";
/// The OCI annotation naming an image of a layout.
pub const REF_NAME: &str = "org.opencontainers.image.ref.name";

/// How to read images: the platform picked from multi-platform indexes, and
/// the limits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The platform read from a multi-platform index (default linux/amd64).
    pub platform: Platform,
    /// The bounds on reading.
    pub limits: Limits,
}

/// What an image holds, by its labels (or, without them, its directories).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A catalog image: the catalog directory (no leading `/`).
    Catalog {
        /// The directory, relative to the image's root.
        dir: String,
        /// Whether the configs label named it (else the default).
        labelled: bool,
    },
    /// A bundle image: its manifests and metadata directories.
    Bundle {
        /// The manifests directory, relative to the root.
        manifests: String,
        /// The metadata directory, relative to the root.
        metadata: String,
    },
}

impl Kind {
    /// `catalog` or `bundle`.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Catalog { .. } => "catalog",
            Kind::Bundle { .. } => "bundle",
        }
    }
}

/// A directory named by a label, relative to the image's root.
fn label_dir(value: &str) -> String {
    value.trim_matches('/').to_owned()
}

/// An image read from disk: its labels, which image and platform it is, and
/// the files of the directories olmsat reads.
#[derive(Debug, Clone)]
pub struct Image {
    /// The image as named on the command line (normalised), e.g.
    /// `oci:catalog:v4.20`; locations are `NAME!/path`.
    pub name: String,
    /// The config's labels.
    pub labels: BTreeMap<String, String>,
    /// The digest of the image's manifest (docker-archive: of its config).
    pub digest: String,
    /// The name it was saved under (`org.opencontainers.image.ref.name`, or
    /// the docker-archive RepoTag), when it has one.
    pub saved_name: Option<String>,
    /// The platform read, when it was chosen from a multi-platform index.
    pub platform: Option<Platform>,
    /// What it holds.
    pub kind: Kind,
    /// The files of its catalog or bundle directories (other files are
    /// listed without content).
    pub tree: FileTree,
    /// Entries skipped while reading the layers (path, why).
    pub skipped: Vec<(String, String)>,
    /// Notes for the reader about how it was read (which platform of a
    /// multi-platform index), each starting with the image's name.
    pub notes: Vec<String>,
}

impl fmt::Display for Image {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl Image {
    /// Read the image `spec` names.
    ///
    /// # Errors
    ///
    /// The image cannot be found, read or trusted (see [`ImageError`]).
    pub fn open(spec: &ImageSpec, options: &Options) -> Result<Image, ImageError> {
        let name = spec.to_string();
        let store = match spec.transport {
            Transport::Oci => store::Store::dir(name.clone(), &spec.path)?,
            Transport::OciArchive | Transport::DockerArchive => {
                store::Store::archive(name.clone(), &spec.path, &options.limits)?
            }
        };
        Image::from_store(
            name,
            &store,
            spec.transport,
            spec.selector.as_ref(),
            options,
        )
    }

    /// Read the image `selector` names from `store`.
    fn from_store(
        name: String,
        store: &store::Store,
        transport: Transport,
        selector: Option<&Selector>,
        options: &Options,
    ) -> Result<Image, ImageError> {
        let chosen = match transport {
            Transport::Oci | Transport::OciArchive => select::oci(store, selector, options)?,
            Transport::DockerArchive => select::docker(store, selector, &options.limits)?,
        };
        let notes: Vec<String> = chosen
            .note
            .iter()
            .map(|text| format!("{name}: {text}"))
            .collect();
        let labels = chosen.labels.clone();
        // The directories whose files are kept: those the labels name, and the
        // defaults for images without labels.
        let mut wanted: Vec<String> = vec![
            label_dir(DEFAULT_CONFIGS),
            "manifests".into(),
            "metadata".into(),
        ];
        for key in [CONFIGS_LABEL, MANIFESTS_LABEL, METADATA_LABEL] {
            if let Some(v) = labels.get(key) {
                wanted.push(label_dir(v));
            }
        }
        let (mut tree, mut skipped) = read_layers(&name, store, &chosen, options, &wanted)?;
        // A catalog directory that is a symbolic link to another directory
        // of the image: that directory's files were not kept; read the
        // layers again, keeping them.
        let configs = labels
            .get(CONFIGS_LABEL)
            .map_or_else(|| label_dir(DEFAULT_CONFIGS), |v| label_dir(v));
        if let Ok(real) = tree.resolve(&configs) {
            if !kept(&wanted, &format!("{real}/x")) {
                wanted.push(real);
                (tree, skipped) = read_layers(&name, store, &chosen, options, &wanted)?;
            }
        }
        let kind = kind_of(&name, &labels, &tree)?;
        Ok(Image {
            name,
            labels,
            digest: chosen.digest,
            saved_name: chosen.saved_name,
            platform: chosen.platform,
            kind,
            tree,
            skipped,
            notes,
        })
    }

    /// The name of a file of the image in locations: `NAME!/path`.
    pub fn location_name(&self, rel: &str) -> String {
        format!("{}!/{}", self.name, rel)
    }

    /// The reference a bundle rendered from this image gets: the name it was
    /// saved under when that is a full reference, else `NAME@DIGEST` after
    /// the saved name (or the layout's or archive's file name).
    pub fn reference(&self) -> String {
        if let Some(n) = &self.saved_name {
            if reference::registry_reference(n).is_some() {
                return n.clone();
            }
        }
        let base = match &self.saved_name {
            Some(n) => n.clone(),
            None => {
                let path = self
                    .name
                    .split_once(':')
                    .map_or(self.name.as_str(), |(_, p)| p);
                let path = path.split(':').next().unwrap_or(path);
                std::path::Path::new(path)
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default()
            }
        };
        format!("{base}@{}", self.digest)
    }
}

/// Whether the file `rel` lies in one of the `wanted` directories.
fn kept(wanted: &[String], rel: &str) -> bool {
    wanted.iter().any(|w| {
        w.is_empty()
            || rel
                .strip_prefix(w.as_str())
                .is_some_and(|r| r.starts_with('/'))
    })
}

/// The layers of `chosen` applied in order, keeping the files of the
/// `wanted` directories; with the entries skipped.
#[allow(clippy::type_complexity)]
fn read_layers(
    name: &str,
    store: &store::Store,
    chosen: &select::Chosen,
    options: &Options,
    wanted: &[String],
) -> Result<(FileTree, Vec<(String, String)>), ImageError> {
    let keep = |rel: &str| kept(wanted, rel);
    let mut reader = layer::LayerReader {
        image: name,
        limits: &options.limits,
        keep: &keep,
        totals: Default::default(),
        skipped: Vec::new(),
    };
    let mut tree = FileTree::default();
    for l in &chosen.layers {
        let blob = match &l.path {
            Some(path) => store.required(path, options.limits.layer_bytes, "")?,
            None => store.blob(&l.digest, l.size, options.limits.layer_bytes)?,
        };
        reader.apply(&mut tree, &l.digest, &blob, l.diff_id.as_deref())?;
    }
    Ok((tree, reader.skipped))
}

/// What the image holds: by its labels, else by its directories.
fn kind_of(
    name: &str,
    labels: &BTreeMap<String, String>,
    tree: &FileTree,
) -> Result<Kind, ImageError> {
    if let Some(dir) = labels.get(CONFIGS_LABEL) {
        let dir = label_dir(dir);
        let real = tree.resolve(&dir).map_err(|why| ImageError::ConfigsLink {
            image: name.to_owned(),
            dir: format!("/{dir}"),
            label: CONFIGS_LABEL.to_owned(),
            why: why.to_string(),
        })?;
        if !tree.is_dir(&real) {
            return Err(ImageError::NoConfigs {
                image: name.to_owned(),
                dir: format!("/{dir}"),
                label: CONFIGS_LABEL.to_owned(),
            });
        }
        return Ok(Kind::Catalog {
            dir,
            labelled: true,
        });
    }
    let bundle_labels = labels.keys().any(|k| k.starts_with(BUNDLE_LABEL_PREFIX));
    let dir_of = |key: &str, default: &str| {
        labels
            .get(key)
            .map(|v| label_dir(v))
            .unwrap_or_else(|| default.to_owned())
    };
    let manifests = dir_of(MANIFESTS_LABEL, "manifests");
    let metadata = dir_of(METADATA_LABEL, "metadata");
    let configs = label_dir(DEFAULT_CONFIGS);
    if !bundle_labels && tree.resolve(&configs).is_ok_and(|real| tree.is_dir(&real)) {
        return Ok(Kind::Catalog {
            dir: configs,
            labelled: false,
        });
    }
    if bundle_labels || (tree.is_dir(&manifests) && tree.is_dir(&metadata)) {
        return Ok(Kind::Bundle {
            manifests,
            metadata,
        });
    }
    Err(ImageError::UnknownKind {
        image: name.to_owned(),
        configs_label: CONFIGS_LABEL,
        labels: if labels.is_empty() {
            "none".into()
        } else {
            labels
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        },
    })
}

/// Read the image an argument names, with `options`, when it names one:
/// `Ok(None)` for a plain path.
///
/// # Errors
///
/// As [`ImageSpec::parse`] and [`Image::open`].
pub fn open_arg(text: &str, options: &Options) -> Result<Option<Image>, ImageError> {
    match ImageSpec::parse(text)? {
        None => Ok(None),
        Some(spec) => Image::open(&spec, options).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::memory::{layout, open_files, tar_of};
    use super::*;

    fn open(files: BTreeMap<String, Vec<u8>>) -> Result<Image, ImageError> {
        open_files(files, Transport::Oci, None, &Options::default())
    }

    const PACKAGE: &str = r#"{"schema":"olm.package","name":"p"}"#;

    #[test]
    fn a_catalog_directory_link_that_loops_is_an_error() {
        let l = tar_of(
            &[("configs", Some("->other")), ("other", Some("->configs"))],
            true,
        );
        let e = open(layout(&[l], &[(CONFIGS_LABEL, "/configs")]))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!("oci:fuzz: the catalog directory /configs (label {CONFIGS_LABEL}) is reached through more than 40 symbolic links")),
            "{e}"
        );
    }

    #[test]
    fn a_bad_field_of_the_index_is_named() {
        let l = tar_of(&[("configs/p/catalog.json", Some(PACKAGE))], true);
        let mut files = layout(&[l], &[]);
        let index = String::from_utf8(files["index.json"].clone()).unwrap();
        let (before, after) = index.split_once("sha256:").unwrap();
        let upper = format!(
            "{before}sha256:{}{}",
            after[..64].to_uppercase(),
            &after[64..]
        );
        files.insert("index.json".into(), upper.into_bytes());
        let e = open(files).unwrap_err().to_string();
        assert!(
            e.starts_with("oci:fuzz: index index.json: field manifests[0].digest: \"sha256:"),
            "{e}"
        );
        assert!(e.contains("has upper-case hex digits"), "{e}");
    }
}

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
