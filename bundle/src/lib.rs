//! # olmsat-bundle
//!
//! Operator bundles on disk: reading, format detection, validation, rendering to
//! `olm.bundle` blobs, generating and initialising bundle directories, and building
//! a file-based catalog from a tree of bundles.
//!
//! Three formats are understood:
//!
//! - **registry+v1**: `manifests/` holds one ClusterServiceVersion, its CRDs and a
//!   few other object kinds; `metadata/annotations.yaml` names the package and
//!   channels; `metadata/dependencies.yaml` and `metadata/properties.yaml` are
//!   optional.
//! - **registry+v2** (CSV-less): `manifests/` holds plain Kubernetes objects with at
//!   least one Deployment; `metadata/bundle.yaml` carries the name, version and UI
//!   data a CSV would have held; `metadata/annotations.yaml` says `registry+v2`.
//! - **plain+v0**: a flat `manifests/` directory of arbitrary Kubernetes objects.
//!
//! [`read::read_bundle`] reads a directory into a [`read::BundleDir`] (every object
//! with its file and line, every unreadable file or invalid YAML document as a
//! diagnostic). [`format::detect`] says which format it is and why.
//! [`validate::validate_bundle`] applies the rules of the format;
//! [`render::render`] turns a registry+v1 bundle into an `olm.bundle` blob as
//! `opm render` does; [`from_bundles::build_catalog`] assembles a whole catalog.

#![deny(missing_docs)]

pub mod annotations;
pub mod build_report;
pub mod csv;
pub mod csvmeta;
pub mod format;
pub mod from_bundles;
pub mod generate;
pub mod image;
pub mod init;
pub mod metadata;
pub mod read;
pub mod render;
pub mod validate;
pub mod yaml;

use std::path::PathBuf;

pub use format::MediaType;

/// Problems that stop a bundle command before it looks at any content: a path
/// that does not exist or cannot be read, or output that would overwrite files.
/// Problems *inside* a bundle are [`crate::Diagnostic`]s instead.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// A path could not be read or inspected.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path concerned.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A path that must be a directory is something else.
    #[error("{}: not a directory", path.display())]
    NotADirectory {
        /// The path concerned.
        path: PathBuf,
    },
    /// Writing would replace a file that already exists.
    #[error("{}: already exists; refusing to overwrite it{hint}", path.display())]
    WouldOverwrite {
        /// The existing file.
        path: PathBuf,
        /// How to go ahead anyway, if there is a way.
        hint: String,
    },
    /// An argument is unusable (empty package name, no channels, unknown template field...).
    #[error("{0}")]
    Invalid(String),
}

impl BundleError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        BundleError::Io {
            path: path.into(),
            source,
        }
    }
}

pub use format::{Detection, Source as DetectedBy};
pub use from_bundles::{
    build_catalog as build_catalog_from_bundles, write_catalog as write_catalog_dir, CatalogBuild,
    Findings, FromBundlesOptions, GraphMode,
};
pub use generate::{generate as generate_bundle, GenerateOptions, Generated};
pub use init::{init as init_bundle, InitOptions, Initialized, Source as InitSource};
pub use read::{find_bundles, is_bundle_dir, BundleDir, FoundBundles, MANIFESTS};
pub use render::{
    migrate_to_csv_metadata, render as render_bundle, render_dir as render_bundle_dir,
    ImageTemplate, RenderOptions, RenderOutcome,
};
pub use validate::{validate_bundle, validate_dirs as validate_bundle_dirs, BundleReport};

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
