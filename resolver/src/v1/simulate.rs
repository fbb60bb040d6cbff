//! Reconcile after reconcile: each one moves a ClusterExtension at most one hop,
//! to the highest successor, until nothing changes.

use serde::Serialize;

use super::cluster::{ClusterExtension, InstalledBundle};
use super::errors::V1Error;
use super::reconcile::reconcile;
use super::resolve::{Catalog, Gates};

/// One reconcile that changed the installed bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hop {
    /// 1-based reconcile number.
    pub step: usize,
    /// The bundle before (absent for the first install).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The bundle after.
    pub to: String,
    /// Its version as reported.
    pub version: String,
    /// The catalog it came from.
    pub catalog: String,
}

/// How the reconciles ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// A reconcile chose the installed bundle again.
    Converged,
    /// The step limit was reached.
    Limit,
    /// A reconcile failed; the installed bundle stays.
    Failed(V1Error),
}

/// The reconciles of one ClusterExtension.
#[derive(Debug, Clone)]
pub struct Timeline {
    /// The hops, in order.
    pub hops: Vec<Hop>,
    /// How it ended.
    pub end: End,
    /// The installed bundle at the end.
    pub installed: Option<InstalledBundle>,
}

/// Reconcile `ext` up to `max_steps` times.
pub fn simulate(
    catalogs: &[Catalog<'_>],
    ext: &ClusterExtension,
    gates: Gates,
    max_steps: usize,
) -> Timeline {
    let mut current = ext.clone();
    let mut hops = Vec::new();
    for step in 1..=max_steps {
        let outcome = reconcile(catalogs, &current, gates);
        let r = match outcome.result {
            Ok(r) => r,
            Err(e) => {
                return Timeline {
                    hops,
                    end: End::Failed(e),
                    installed: current.installed,
                }
            }
        };
        let version = r.reported_version(gates);
        if current
            .installed
            .as_ref()
            .is_some_and(|i| i.name == r.bundle && i.version == version)
        {
            return Timeline {
                hops,
                end: End::Converged,
                installed: current.installed,
            };
        }
        hops.push(Hop {
            step,
            from: current.installed.as_ref().map(|i| i.name.clone()),
            to: r.bundle.clone(),
            version: version.clone(),
            catalog: r.catalog.clone(),
        });
        current.installed = Some(InstalledBundle {
            name: r.bundle,
            version,
            release: match (gates.bundle_release_support, r.version.release) {
                (true, Some(rel)) => Some(rel.to_string()),
                _ => None,
            },
        });
    }
    Timeline {
        hops,
        end: End::Limit,
        installed: current.installed,
    }
}
