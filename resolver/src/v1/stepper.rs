//! One reconcile for many ClusterExtensions that differ only in their
//! installed bundle (`compare-olm` starts from every bundle of a channel),
//! answered from an index of the package's upgrade edges instead of a scan
//! of every bundle of the package each time.
//!
//! [`Stepper::reconcile`] gives what [`reconcile`](super::reconcile) gives
//! for the extension with that installed bundle (the result, not the
//! explanation); the equivalence is tested on random catalogs
//! (`resolver/tests/v1_stepper.rs`). Only the shape the index answers is
//! taken: one ClusterCatalog, available, served and with content; no
//! selector; no version range; the `CatalogProvided` policy. For anything
//! else [`Stepper::new`] gives `None`: use `reconcile`.

use std::collections::HashMap;

use olmsat_versions::range::Range;

use super::catalog::{PackageSlice, V1Bundle};
use super::cluster::{Availability, ClusterExtension, InstalledBundle, Serving, UpgradePolicy};
use super::errors::{NotResolved, V1Error, WalkError};
use super::resolve::{conclude, order, version_of, Catalog, Explanation, Resolved};
use super::successors::installed_version;

/// A version's identity as far as equality goes (build metadata left out).
type VersionKey = (u64, u64, u64, String);

fn key(v: &semver::Version) -> VersionKey {
    (v.major, v.minor, v.patch, v.pre.as_str().to_owned())
}

/// The package's upgrade edges within the extension's channels, indexed.
struct Index<'a> {
    slice: &'a PackageSlice,
    /// Bundle indices by the name their entry replaces.
    replaces: HashMap<&'a str, Vec<usize>>,
    /// Bundle indices by a name their entry skips.
    skips: HashMap<&'a str, Vec<usize>>,
    /// Entries with a skipRange: the bundle index and the range.
    ranged: Vec<(usize, &'a Range)>,
    /// Bundles in the considered channels, by version.
    by_version: HashMap<VersionKey, Vec<usize>>,
}

/// Reconciles of one ClusterExtension from any installed bundle.
pub struct Stepper<'a> {
    catalog: Catalog<'a>,
    ext: &'a ClusterExtension,
    index: Option<Index<'a>>,
}

impl<'a> Stepper<'a> {
    /// Index `catalog` for `ext` (its installed bundle is ignored), or `None`
    /// when the extension or the catalog is not of the shape the index
    /// answers (see the module's documentation).
    pub fn new(catalog: Catalog<'a>, ext: &'a ClusterExtension) -> Option<Stepper<'a>> {
        let content = catalog.content?;
        if catalog.meta.availability != Availability::Available
            || catalog.meta.serving != Serving::Yes
            || ext.selector.is_some()
            || !ext.version.is_empty()
            || ext.policy != UpgradePolicy::CatalogProvided
        {
            return None;
        }
        let index = content.package(&ext.package).map(|slice| {
            let considered: Vec<bool> = slice
                .channels()
                .iter()
                .map(|ch| ext.channels.is_empty() || ext.channels.iter().any(|c| c == ch.name()))
                .collect();
            let position: HashMap<&str, usize> = slice
                .bundles()
                .iter()
                .enumerate()
                .map(|(i, b)| (b.name(), i))
                .collect();
            let mut index = Index {
                slice,
                replaces: HashMap::new(),
                skips: HashMap::new(),
                ranged: Vec::new(),
                by_version: HashMap::new(),
            };
            // Without channels every bundle of the package is a candidate,
            // in a channel or not.
            let mut in_channel = vec![ext.channels.is_empty(); slice.bundles().len()];
            for (ch, _) in slice
                .channels()
                .iter()
                .zip(&considered)
                .filter(|(_, on)| **on)
            {
                for (e, range) in ch.entries() {
                    // An entry without a name, or naming no bundle, leads nowhere.
                    let Some(&b) = position.get(e.name.as_str()).filter(|_| !e.name.is_empty())
                    else {
                        continue;
                    };
                    in_channel[b] = true;
                    index
                        .replaces
                        .entry(e.replaces.as_deref().unwrap_or_default())
                        .or_default()
                        .push(b);
                    for s in &e.skips {
                        index.skips.entry(s.as_str()).or_default().push(b);
                    }
                    if let Some(r) = range {
                        index.ranged.push((b, r));
                    }
                }
            }
            for (b, bundle) in slice.bundles().iter().enumerate() {
                if let (true, Some(v)) = (in_channel[b], version_of(bundle)) {
                    index.by_version.entry(key(&v.version)).or_default().push(b);
                }
            }
            index
        });
        Some(Stepper {
            catalog,
            ext,
            index,
        })
    }

    /// What one reconcile of the extension gives with `installed` installed.
    ///
    /// # Errors
    ///
    /// As [`reconcile`](super::reconcile): no successor, an unreadable
    /// installed version, a chosen bundle with a dependency or an unreadable
    /// version.
    pub fn reconcile(&self, installed: &InstalledBundle) -> Result<Resolved, V1Error> {
        let not_resolved = || {
            V1Error::NotResolved(NotResolved {
                package: self.ext.package.clone(),
                installed_version: Some(installed.version.clone()),
                version: self.ext.version.clone(),
                channels: self.ext.channels.clone(),
                ambiguous: Vec::new(),
            })
        };
        let Some(index) = &self.index else {
            return Err(not_resolved());
        };
        let i = installed_version(installed).map_err(|e| V1Error::Walk(WalkError::Edges(e)))?;
        let mut found: Vec<usize> = Vec::new();
        found.extend(index.replaces.get(i.name.as_str()).into_iter().flatten());
        found.extend(index.skips.get(i.name.as_str()).into_iter().flatten());
        found.extend(
            index
                .ranged
                .iter()
                .filter(|(_, r)| r.matches(&i.semver))
                .map(|(b, _)| *b),
        );
        found.extend(
            index
                .by_version
                .get(&key(&i.version.version))
                .into_iter()
                .flatten()
                .filter(|&&b| {
                    version_of(&index.slice.bundles()[b])
                        .is_some_and(|v| v.compare(&i.version).is_eq())
                }),
        );
        // In the package's order, then as the resolver orders them (stable).
        found.sort_unstable();
        found.dedup();
        let deprecations = index.slice.deprecations();
        let mut successors: Vec<&V1Bundle> =
            found.iter().map(|&b| &index.slice.bundles()[b]).collect();
        successors.sort_by(|a, b| order(a, b, deprecations));
        let Some(first) = successors.first() else {
            return Err(not_resolved());
        };
        conclude(
            first,
            self.catalog.meta,
            deprecations,
            &mut Explanation::default(),
        )
    }
}
