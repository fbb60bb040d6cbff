//! # olmsat-catalog
//!
//! OLM file-based catalogs, read the way `opm` reads them, for everything
//! else in olmsat to build on:
//!
//! - **Open** a catalog: [`Catalog::open`] (or [`Catalog::open_package`] for
//!   questions about one package), or in two steps with [`CatalogFiles`] to
//!   look at the problems first. Every input reaches the loader as
//!   [`load::Sources`]: named files from a directory walk, a file, standard
//!   input, an image's layers ([`load::image`]) or bytes in memory.
//! - **The model** ([`model`]): packages, channels and bundles, each channel
//!   with its head and `replaces` chain computed once, as opm computes them
//!   ([`chain`]).
//! - **Validate** ([`validate`]): opm's rules and texts, every problem with
//!   its file and line, plus olmsat's warnings.
//! - **Write** ([`write`]) as opm writes (JSON, and YAML byte for byte), and
//!   **list** packages, channels and bundles as `opm alpha list` does.
//!
//! ```
//! use olmsat_catalog::CatalogFiles;
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/catalogs/etcd-example");
//! let validation = CatalogFiles::read(&[dir]).expect("a readable path").validate();
//! assert!(validation.passed());
//! assert_eq!(validation.model().packages().len(), 2);
//! ```
#![deny(missing_docs)]

mod catalog;

pub mod cel_limits;
pub mod chain;
pub mod declcfg;
pub mod image_ref;
pub mod list;
pub mod load;
pub mod model;
pub mod name_index;
pub mod property;
pub mod synthetic;
pub mod validate;
pub mod write;

// Opening, validating and asking about a catalog.
pub use catalog::{Catalog, CatalogFiles, OpenError, Unreadable, Validation};
pub use declcfg::{ChannelEntry, DeclarativeConfig};
pub use load::{read_limited, LoadError, MAX_FILE_BYTES};
pub use model::{Bundle, Channel, Model, Package};
pub use olmsat_encoding::Location;
pub use olmsat_findings::{Diagnostic, Rule, Severity};
pub use validate::Report;

// Writing catalogs and listing them.
pub use list::{
    align as align_columns, bundles as list_bundles, bundles_text as list_bundles_text,
    channels as list_channels, channels_text as list_channels_text, packages as list_packages,
    packages_text as list_packages_text, BundleRow, ChannelRow, HeadError, Listing, PackageRow,
    What as ListWhat,
};
pub use write::{write, Format};

// Synthetic catalogs, for benchmarks and experiments.
pub use synthetic::{
    by_package as split_by_package, generate as generate_synthetic,
    write_by_package as write_synthetic, Payload, Spec as SyntheticSpec, UnknownPayload,
};

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
