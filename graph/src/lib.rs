//! # olmsat-graph
//!
//! The catalog side of olmsat: reading OLM file-based catalogs the way `opm`
//! does, validating them with opm's rules and texts, the upgrade graph of each
//! channel with the path OLM v0 takes through it, drawing those graphs, writing
//! catalogs back out, and operator bundle directories (validation, rendering,
//! building catalogs from them).
//!
//! Everything a program needs is named at the crate root:
//!
//! - **Open** a catalog: [`Catalog::open`] (or [`Catalog::open_package`] for
//!   questions about one package), or in two steps with [`CatalogFiles`] to
//!   look at the problems first. A [`Catalog`] holds the [`Model`] (packages,
//!   channels, bundles) and its [`Diagnostic`]s.
//! - **Validate**: [`CatalogFiles::validate`] gives a [`Validation`] whose
//!   [`Report`] has every error and warning, in opm's words.
//! - **Upgrade graphs**: [`Catalog::channel_graph`] gives a [`ChannelGraph`];
//!   [`ChannelGraph::resolve_start`] finds where an upgrade starts (a bundle
//!   name, or a version no longer in the catalog) and
//!   [`ChannelGraph::olm_path`] the steps OLM v0 takes from there.
//! - **Render**: [`write`](fn@write) writes a [`DeclarativeConfig`] as opm does (JSON or
//!   YAML, [`Format`]); [`Drawing`] and [`draw`] draw upgrade graphs as DOT,
//!   Mermaid or JSON.
//! - **Bundles**: [`validate_bundle_dirs`], [`render_bundle_dir`],
//!   [`build_catalog_from_bundles`], [`generate_bundle`], [`init_bundle`].
//!
//! ```
//! use olmsat_graph::Catalog;
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/catalogs/etcd-example");
//! let catalog = Catalog::open(&[dir]).expect("the catalog reads without errors");
//! let graph = catalog.channel_graph("etcd", None).expect("its default channel");
//! let start = graph.resolve_start("etcdoperator.v0.9.0").expect("a bundle of the channel");
//! let path = graph.olm_path(&start);
//! let names: Vec<&str> = path.steps.iter().map(|s| graph.node(s.to).name).collect();
//! assert_eq!(names, ["etcdoperator.v0.9.4", "etcdoperator.v0.9.5"]);
//! ```
//!
//! Four feature areas have modules of their own: [`load`] (reading catalogs
//! from any [`source`]), [`template`] (catalog templates), [`diff`] (what a
//! catalog change does to its users), [`image`] (catalog and bundle images on
//! disk), with [`report`] for findings as data; the version grammars are the
//! crate `olmsat-versions`.
//!
//! The modules marked hidden below are not part of the API: they are public
//! only for this workspace's benchmarks, fuzzing and tests, and for the
//! resolver crate, and change without notice.
#![deny(missing_docs)]

mod catalog;
mod draw;

// Not part of the API (see the crate documentation): used by the resolver
// crate, benchmarks, fuzz checks or integration tests.
#[doc(hidden)]
pub mod bundle;
#[doc(hidden)]
pub mod cel_limits;
#[doc(hidden)]
pub mod declcfg;
pub mod diff;
#[doc(hidden)]
pub mod export;
pub mod image;
pub mod load;
#[doc(hidden)]
pub mod model;
pub mod path;
#[doc(hidden)]
pub mod property;
pub mod source;
#[doc(hidden)]
pub mod synthetic;
pub mod template;
#[doc(hidden)]
pub mod upgrade;
#[doc(hidden)]
pub mod validate;
#[doc(hidden)]
pub mod write;

// Internal to this crate.
mod chain;
mod image_ref;
mod list;
mod name_index;

// Opening, validating and asking about a catalog.
pub use catalog::{
    target_node, Catalog, CatalogFiles, ChannelError, OpenError, Unreadable, Validation,
};
pub use declcfg::{ChannelEntry, DeclarativeConfig};
pub use load::{read_limited, LoadError, MAX_FILE_BYTES};
pub use model::{Bundle, Channel, Model, Package};
pub use olmsat_encoding::Location;
pub use olmsat_findings::{Diagnostic, Rule, Severity};
pub use validate::Report;

// Upgrade graphs and paths.
pub use upgrade::{
    select_channel, select_package, version_in_name, AllPaths, Blocked, ChannelGraph, Edge,
    EdgeKind, Node, NodeIndex, NotOffered, OlmEnd, OlmPath, Presence, SelectError, Start,
    StartError, StartMatch, Step, Stuck, TooManyEdges, Unreachable,
};

// Writing catalogs, listing them, and drawing upgrade graphs.
pub use draw::{dot_text, draw, DrawFormat};
pub use export::json::PathStep;
pub use export::{DrawError, DrawOptions, Drawing, DrawingPart, EdgeView, EdgeViewError};
// Suggesting close names for a name that is not there.
pub use olmsat_findings::suggest::{closest, join_listed};

pub use list::{
    align as align_columns, bundles as list_bundles, channels as list_channels,
    packages as list_packages, BundleRow, ChannelRow, PackageRow,
};
pub use write::{write, Format};

// Operator bundle directories.
pub use bundle::format::{Detection, Source as DetectedBy};
pub use bundle::from_bundles::{
    build_catalog as build_catalog_from_bundles, write_catalog as write_catalog_dir, CatalogBuild,
    Findings, FromBundlesOptions, GraphMode,
};
pub use bundle::generate::{generate as generate_bundle, GenerateOptions, Generated};
pub use bundle::init::{init as init_bundle, InitOptions, Initialized, Source as InitSource};
pub use bundle::read::BundleDir;
pub use bundle::read::{find_bundles, is_bundle_dir, FoundBundles, MANIFESTS};
pub use bundle::render::{
    migrate_to_csv_metadata, render as render_bundle, render_dir as render_bundle_dir,
    ImageTemplate, RenderOptions, RenderOutcome,
};
pub use bundle::validate::{validate_bundle, validate_dirs as validate_bundle_dirs, BundleReport};
pub use bundle::{BundleError, MediaType};

// Synthetic catalogs, for benchmarks and experiments.
pub use synthetic::{
    by_package as split_by_package, generate as generate_synthetic, Payload, Spec as SyntheticSpec,
};
