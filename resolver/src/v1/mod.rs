//! OLM v1 (operator-controller) bundle selection for `ClusterExtension`s, offline.
//!
//! No SAT and no dependencies: each ClusterExtension picks one bundle of one
//! package from the ClusterCatalogs its selector matches, filtered by channels,
//! a Masterminds version range and (under the `CatalogProvided` policy) the
//! successors of the installed bundle, then ordered by deprecation, version
//! and catalog priority. See [`resolve::resolve`].

pub mod answer;
pub mod catalog;
pub mod cluster;
pub mod conditions;
pub mod errors;
pub mod path;
pub mod reconcile;
pub mod resolve;
pub mod selector;
pub mod simulate;
pub mod stepper;
pub mod successors;

pub use catalog::CatalogContent;
pub use cluster::{ClusterCatalog, ClusterExtension, InstalledBundle, UpgradePolicy};
pub use errors::V1Error;
pub use reconcile::{admit_version, reconcile, AdmissionError};
pub use resolve::{resolve, Catalog, Gates, Outcome, Resolved};
pub use stepper::Stepper;
