//! # olmsat-resolver
//!
//! OLM v0's dependency resolution as SAT, offline: given catalogs and a cluster
//! state (Subscriptions, installed ClusterServiceVersions, CatalogSources),
//! what OLM would install or upgrade and why, or exactly why nothing fits.
//!
//! Everything a program needs is named at the crate root:
//!
//! - **Cluster state**: [`ClusterState::read_all`] (YAML files, directory
//!   trees, standard input) or [`ClusterState::from_yaml`]; copied CSVs are
//!   set apart as OLM does, and [`dangling::check`] finds references that lead
//!   nowhere.
//! - **Catalogs**: a [`CatalogInput`] names a built catalog model
//!   ([`olmsat_catalog::Catalog::open`], [`olmsat_catalog::Catalog::into_model`]).
//! - **Resolve**: [`resolve`](fn@resolve) one namespace of an [`Input`] (see [`namespaces`])
//!   into a [`Resolution`]; [`simulate`](fn@simulate) applies each resolution and resolves
//!   again, as OLM does one upgrade at a time, into a [`Timeline`].
//!
//! ```
//! use olmsat_catalog::Catalog;
//! use olmsat_resolver::{namespaces, resolve, CatalogInput, ClusterState, Input, Options, Outcome};
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/catalogs/etcd-example");
//! let model = Catalog::open(&[dir]).expect("valid").into_model();
//! let cluster = ClusterState::from_yaml(
//!     "cluster.yaml",
//!     "kind: Subscription\nmetadata: {name: etcd, namespace: ops}\nspec: {name: etcd, source: example, channel: stable}\n",
//! )
//! .expect("a cluster state");
//! let input = Input {
//!     catalogs: vec![CatalogInput { name: "example".into(), model }],
//!     cluster,
//!     global_namespace: "olm".into(),
//!     allow_missing_catalogs: false,
//! };
//! let namespace = &namespaces(&input.cluster)[0];
//! let resolution = resolve(&input, namespace, Options::default()).expect("no solver failure");
//! let Outcome::Resolved { operators, .. } = resolution.outcome else { panic!("resolved") };
//! assert_eq!(operators[0].name, "etcdoperator.v0.9.5");
//! ```
//!
//! The solver core ([`problem`], [`solve`](mod@solve)) works on interned
//! variables and knows nothing of OLM; the SAT backend sits behind the small
//! [`sat::SatBackend`] trait. The modules are public for this workspace's
//! tests and benchmarks; the names at the crate root are the API. OLM v1's
//! ClusterExtension selection, which is not SAT, is in [`v1`].
#![warn(missing_docs)]

mod behind;
mod cluster_error;
mod cluster_file;
mod skipped;

pub mod answer;
pub mod cluster;
pub mod compare;
pub mod dangling;
pub mod entry;
pub mod predicate;
pub mod problem;
pub mod resolve;
pub mod sat;
pub mod simulate;
pub mod solve;
pub mod v1;

pub use behind::{behind, Behind};
pub use cluster::{
    CatalogSource, ClusterError, ClusterState, CopiedCsv, InstalledCsv, OperatorGroup, Subscription,
};
pub use cluster_file::{ClusterFileError, SkipCause, SkippedFile, STDIN_NAME};
pub use dangling::Dangling;
pub use resolve::{
    join_messages, missing_catalogs, namespaces, resolve, CandidateNode, CatalogInput, Cause,
    ChannelOrderError, Input, Operator, Options, Outcome, PassedOver, Reason, RequirementNode,
    Resolution, ResolveError, Stay, SubscriptionNode, UnseenProvider,
};
pub use simulate::{simulate, End, Installed, NamespaceEnd, Step as SimulationStep, Timeline};

/// Saturating conversion of an index to `u32`.
pub(crate) fn index_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
