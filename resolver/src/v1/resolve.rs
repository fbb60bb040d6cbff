//! Bundle selection for one ClusterExtension, step by step as operator-controller's
//! `CatalogResolver.Resolve` does it, with the count of candidates each filter
//! leaves (the explanation the reference does not give).

use std::cmp::Ordering;

use olmsat_catalog::property::types;
use olmsat_versions::masterminds::Constraints;
use olmsat_versions::version::VersionRelease;
use serde::Serialize;

use super::catalog::{
    BundleVersion, CatalogContent, Deprecations, PackageSlice, V1Bundle, V1Channel,
};
use super::cluster::{Availability, ClusterCatalog, ClusterExtension, Serving, UpgradePolicy};
use super::errors::{FetchError, NotResolved, V1Error, WalkError};
use super::selector::Selector;
use super::successors::{installed_version, Installed};

/// operator-controller feature gates that change selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Gates {
    /// `BundleReleaseSupport` (default off): read an explicit `release` from
    /// `olm.package` and report version and release apart.
    pub bundle_release_support: bool,
}

/// A ClusterCatalog and its content (`None`: no content was given, so it is
/// treated as not being served).
#[derive(Debug, Clone, Copy)]
pub struct Catalog<'a> {
    /// The ClusterCatalog object.
    pub meta: &'a ClusterCatalog,
    /// Its content.
    pub content: Option<&'a CatalogContent>,
}

/// The bundle chosen for a ClusterExtension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// Bundle name.
    pub bundle: String,
    /// Version and release.
    pub version: VersionRelease,
    /// The catalog it came from.
    pub catalog: String,
    /// The package's `olm.deprecations` entries in that catalog.
    pub deprecations: Option<Deprecations>,
    /// The install-mode check the reference makes after selection, when it
    /// would fail (from `olm.csv.metadata`), with its exact text.
    pub install_problem: Option<String>,
}

impl Resolved {
    /// The version as operator-controller writes `status.install.bundle.version`:
    /// with the release as build metadata (`1.0.0+2`) unless the release gate is on.
    pub fn reported_version(&self, gates: Gates) -> String {
        match (&self.version.release, gates.bundle_release_support) {
            (Some(r), false) => format!("{}+{}", self.version.version, r),
            _ => self.version.version.to_string(),
        }
    }
}

/// A filter of the selection, in the order they apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Filter {
    /// ClusterCatalogs matching the selector and not Unavailable (counts catalogs).
    CatalogsSelected,
    /// Bundles of the package in those catalogs.
    PackagePresent,
    /// Bundles in one of the requested channels.
    Channel,
    /// Bundles inside the version range.
    VersionRange,
    /// Bundles that are successors of the installed bundle (or it itself).
    Successors,
    /// Each catalog's pick, then non-deprecated picks over deprecated ones (counts picks).
    DeprecationOrdering,
    /// The highest-priority pick(s) (counts picks).
    CatalogPriority,
}

impl Filter {
    /// A short human name.
    pub fn describe(self) -> &'static str {
        match self {
            Filter::CatalogsSelected => "catalogs selected",
            Filter::PackagePresent => "package present",
            Filter::Channel => "channel",
            Filter::VersionRange => "version range",
            Filter::Successors => "successors of the installed bundle",
            Filter::DeprecationOrdering => "deprecation ordering",
            Filter::CatalogPriority => "catalog priority",
        }
    }
}

/// One filter's effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The filter.
    pub filter: Filter,
    /// Candidates before it.
    pub before: usize,
    /// Candidates after it.
    pub after: usize,
}

/// What each filter did, and why the set emptied if it did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// The filters that ran, in order.
    pub steps: Vec<Step>,
    /// The filter that emptied the candidate set.
    #[serde(rename = "emptiedBy", skip_serializing_if = "Option::is_none")]
    pub emptied_by: Option<Filter>,
    /// The closest candidate the emptying filter removed, and why.
    #[serde(rename = "nearestMiss", skip_serializing_if = "Option::is_none")]
    pub nearest_miss: Option<String>,
    /// A hint on how to fix the input (e.g. a catalog without content).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// The answer for one ClusterExtension.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The chosen bundle, or why there is none.
    pub result: Result<Resolved, V1Error>,
    /// Filter by filter.
    pub explanation: Explanation,
    /// When the installed bundle was kept because no ClusterCatalog the
    /// extension selects exists (`reconcile`): the
    /// resolution error the reference logs and does not report.
    pub fallback: Option<V1Error>,
}

/// One catalog's candidates after each filter.
struct CatalogPass<'a> {
    catalog: &'a ClusterCatalog,
    slice: &'a PackageSlice,
    considered: Vec<&'a V1Channel>,
    in_channel: Vec<&'a V1Bundle>,
    in_range: Vec<&'a V1Bundle>,
    successors: Vec<&'a V1Bundle>,
}

/// A catalog's pick.
struct Pick<'a> {
    catalog: &'a ClusterCatalog,
    bundle: &'a V1Bundle,
    deprecated: bool,
    deprecations: Option<&'a Deprecations>,
}

pub(super) fn version_of(b: &V1Bundle) -> Option<&VersionRelease> {
    match b.version() {
        BundleVersion::Valid(v) => Some(v),
        BundleVersion::Invalid(_) => None,
    }
}

/// Within a catalog: non-deprecated first, then version-release descending,
/// unreadable versions last (stable).
pub(super) fn order(a: &V1Bundle, b: &V1Bundle, deprecations: Option<&Deprecations>) -> Ordering {
    let dep = |x: &V1Bundle| deprecations.is_some_and(|d| d.bundles.contains_key(x.name()));
    dep(a)
        .cmp(&dep(b))
        .then_with(|| match (version_of(a), version_of(b)) {
            (Some(x), Some(y)) => y.compare(x),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        })
}

/// Resolve one ClusterExtension against the catalogs. Catalogs are walked in
/// name order (the reference's order is its informer cache's, i.e. arbitrary).
///
/// A `spec.source.catalog.version` longer than the CRD's `maxLength`
/// ([`MAX_VERSION_LENGTH`](super::errors::MAX_VERSION_LENGTH)) is refused
/// with the API server's error ([`V1Error::Admission`]) before it is parsed:
/// such an extension cannot exist on a cluster.
pub fn resolve(catalogs: &[Catalog<'_>], ext: &ClusterExtension, _gates: Gates) -> Outcome {
    let mut explanation = Explanation::default();
    let result = run(catalogs, ext, &mut explanation);
    Outcome {
        result,
        explanation,
        fallback: None,
    }
}

fn run(
    catalogs: &[Catalog<'_>],
    ext: &ClusterExtension,
    ex: &mut Explanation,
) -> Result<Resolved, V1Error> {
    let selector = match &ext.selector {
        Some(s) => s.compile().map_err(V1Error::Selector)?,
        None => Selector::everything(),
    };
    // The API server refuses a version over the CRD's maxLength before
    // anything parses it; so does olmsat (a long range would take long to
    // parse, and could never reach operator-controller).
    if ext.version.len() > super::errors::MAX_VERSION_LENGTH {
        return Err(V1Error::Admission(super::errors::AdmissionError::TooLong));
    }
    let range = if ext.version.is_empty() {
        None
    } else {
        Some(
            Constraints::parse(&ext.version).map_err(|source| V1Error::Range {
                range: ext.version.clone(),
                source,
            })?,
        )
    };
    let not_resolved = |ambiguous: Vec<String>| {
        V1Error::NotResolved(NotResolved {
            package: ext.package.clone(),
            installed_version: ext.installed.as_ref().map(|i| i.version.clone()),
            version: ext.version.clone(),
            channels: ext.channels.clone(),
            ambiguous,
        })
    };

    // Catalog walk.
    let mut walk: Vec<&Catalog<'_>> = catalogs
        .iter()
        .filter(|c| selector.matches(&c.meta.labels))
        .filter(|c| c.meta.availability == Availability::Available)
        .collect();
    walk.sort_by(|a, b| a.meta.name.cmp(&b.meta.name));
    ex.steps.push(Step {
        filter: Filter::CatalogsSelected,
        before: catalogs.len(),
        after: walk.len(),
    });
    if walk.is_empty() {
        ex.emptied_by = Some(Filter::CatalogsSelected);
        ex.nearest_miss = Some(if catalogs.is_empty() {
            "there are no ClusterCatalogs".to_owned()
        } else {
            let matching = catalogs
                .iter()
                .filter(|c| selector.matches(&c.meta.labels))
                .count();
            if matching == 0 {
                format!(
                    "none of the {} ClusterCatalog(s) matches the selector",
                    catalogs.len()
                )
            } else {
                format!("all {matching} ClusterCatalog(s) matching the selector are Unavailable")
            }
        });
        return Err(not_resolved(Vec::new()));
    }

    let mut installed: Option<Installed> = None;
    let mut passes: Vec<CatalogPass<'_>> = Vec::new();
    for c in &walk {
        let content = match (c.meta.serving, c.content) {
            (Serving::Yes, Some(content)) => content,
            (serving, content) => {
                ex.hint = Some(if content.is_none() {
                    format!(
                        "no content was given for ClusterCatalog {:?}: add --catalog {}=DIR, or narrow the ClusterExtension's selector",
                        c.meta.name, c.meta.name
                    )
                } else {
                    debug_assert_eq!(serving, Serving::No);
                    format!(
                        "ClusterCatalog {:?} has a Serving condition that is not True: every ClusterExtension selecting it fails; narrow the selector or set spec.availabilityMode: Unavailable",
                        c.meta.name
                    )
                });
                return Err(V1Error::Walk(WalkError::GetPackage {
                    package: ext.package.clone(),
                    catalog: c.meta.name.clone(),
                    cause: FetchError::NotServed(c.meta.name.clone()),
                }));
            }
        };
        let Some(slice) = content.package(&ext.package) else {
            continue;
        };
        let considered_flags: Vec<bool> = slice
            .channels()
            .iter()
            .map(|ch| ext.channels.is_empty() || ext.channels.iter().any(|c| c == ch.name()))
            .collect();
        let considered: Vec<&V1Channel> = slice
            .channels()
            .iter()
            .zip(&considered_flags)
            .filter(|(_, on)| **on)
            .map(|(ch, _)| ch)
            .collect();
        let in_channel: Vec<&V1Bundle> = slice
            .bundles()
            .iter()
            .filter(|b| {
                ext.channels.is_empty() || slice.channels_of(b).any(|ci| considered_flags[ci])
            })
            .collect();
        let in_range: Vec<&V1Bundle> = in_channel
            .iter()
            .copied()
            .filter(|b| match &range {
                None => true,
                Some(r) => version_of(b).is_some_and(|v| r.matches(&v.version)),
            })
            .collect();
        let successors: Vec<&V1Bundle> = match (&ext.installed, ext.policy) {
            (Some(inst), UpgradePolicy::CatalogProvided) => {
                if installed.is_none() {
                    installed = Some(
                        installed_version(inst).map_err(|e| V1Error::Walk(WalkError::Edges(e)))?,
                    );
                }
                let i = installed.as_ref().expect("set above");
                in_range
                    .iter()
                    .copied()
                    .filter(|b| super::successors::is_successor(b, i, slice, &considered_flags))
                    .collect()
            }
            _ => in_range.clone(),
        };
        passes.push(CatalogPass {
            catalog: c.meta,
            slice,
            considered,
            in_channel,
            in_range,
            successors,
        });
    }

    let present: usize = passes.iter().map(|p| p.slice.bundles().len()).sum();
    let in_channel: usize = passes.iter().map(|p| p.in_channel.len()).sum();
    let in_range: usize = passes.iter().map(|p| p.in_range.len()).sum();
    let successors: usize = passes.iter().map(|p| p.successors.len()).sum();
    ex.steps.push(Step {
        filter: Filter::PackagePresent,
        before: walk.len(),
        after: present,
    });
    let counts = [
        (Filter::Channel, !ext.channels.is_empty(), in_channel),
        (Filter::VersionRange, range.is_some(), in_range),
        (
            Filter::Successors,
            ext.installed.is_some() && ext.policy == UpgradePolicy::CatalogProvided,
            successors,
        ),
    ];
    let mut before = present;
    if present == 0 {
        ex.emptied_by = Some(Filter::PackagePresent);
        let names: Vec<&str> = walk.iter().map(|c| c.meta.name.as_str()).collect();
        ex.nearest_miss = Some(format!(
            "package {:?} is in none of the selected catalogs ({})",
            ext.package,
            names.join(", ")
        ));
    }
    for (filter, active, after) in counts {
        if !active {
            continue;
        }
        ex.steps.push(Step {
            filter,
            before,
            after,
        });
        if before > 0 && after == 0 && ex.emptied_by.is_none() {
            ex.emptied_by = Some(filter);
            ex.nearest_miss = nearest_miss(filter, &passes, ext);
        }
        before = after;
    }

    // Each catalog's pick.
    let mut picks: Vec<Pick<'_>> = Vec::new();
    for p in &passes {
        let deprecations = p.slice.deprecations();
        let mut sorted = p.successors.clone();
        sorted.sort_by(|a, b| order(a, b, deprecations));
        if let Some(first) = sorted.first() {
            picks.push(Pick {
                catalog: p.catalog,
                bundle: first,
                deprecated: deprecations.is_some_and(|d| d.bundles.contains_key(first.name())),
                deprecations,
            });
        }
    }
    let pick_count = picks.len();
    let survivors: Vec<Pick<'_>> = if picks.iter().any(|p| !p.deprecated) {
        picks.into_iter().filter(|p| !p.deprecated).collect()
    } else {
        picks
    };
    ex.steps.push(Step {
        filter: Filter::DeprecationOrdering,
        before: pick_count,
        after: survivors.len(),
    });
    let mut survivors = survivors;
    let before_priority = survivors.len();
    if survivors.len() > 1 {
        survivors.sort_by_key(|p| std::cmp::Reverse(p.catalog.priority));
        if survivors[0].catalog.priority != survivors[1].catalog.priority {
            survivors.truncate(1);
        }
    }
    ex.steps.push(Step {
        filter: Filter::CatalogPriority,
        before: before_priority,
        after: survivors.len(),
    });
    if survivors.len() != 1 {
        let mut names: Vec<String> = survivors.iter().map(|p| p.catalog.name.clone()).collect();
        names.sort();
        if names.len() > 1 {
            ex.nearest_miss = Some(format!(
                "the catalogs {} each offer a bundle of equal standing and equal priority; give them different spec.priority or narrow the selector",
                names.join(", ")
            ));
        }
        return Err(not_resolved(names));
    }
    let winner = &survivors[0];
    conclude(winner.bundle, winner.catalog, winner.deprecations, ex)
}

/// The chosen bundle as the answer: refused when it declares a dependency
/// (OLM v1 resolves none) or its version cannot be read; else with the
/// install-mode check the reference makes after selection.
pub(super) fn conclude(
    bundle: &V1Bundle,
    catalog: &ClusterCatalog,
    deprecations: Option<&Deprecations>,
    ex: &mut Explanation,
) -> Result<Resolved, V1Error> {
    for t in bundle.property_types() {
        if matches!(
            t,
            types::PACKAGE_REQUIRED | types::GVK_REQUIRED | types::CONSTRAINT
        ) {
            ex.hint = Some(format!(
                "OLM v1 does not resolve dependencies and does not fall back to another bundle: constrain version or channels so that {:?} is not chosen",
                bundle.name()
            ));
            return Err(V1Error::Dependency {
                bundle: bundle.name().to_owned(),
                property: t.to_owned(),
            });
        }
    }
    let version = match bundle.version() {
        BundleVersion::Valid(v) => v.clone(),
        BundleVersion::Invalid(reason) => {
            return Err(V1Error::BundleVersion {
                bundle: bundle.name().to_owned(),
                reason: reason.clone(),
            })
        }
    };
    Ok(Resolved {
        bundle: bundle.name().to_owned(),
        version,
        catalog: catalog.name.clone(),
        deprecations: deprecations.cloned(),
        install_problem: install_problem(bundle),
    })
}

/// The reference's post-selection install-mode check (default gates: only
/// AllNamespaces installs).
fn install_problem(b: &V1Bundle) -> Option<String> {
    let modes = b.install_modes()?;
    let any = ["AllNamespaces", "SingleNamespace", "OwnNamespace"];
    if !modes.iter().any(|m| any.contains(&m.as_str())) {
        return Some("unsupported bundle: bundle must support at least one of [AllNamespaces SingleNamespace OwnNamespace] install modes".to_owned());
    }
    if !modes.iter().any(|m| m == "AllNamespaces") {
        return Some(
            "unsupported bundle: bundle does not support AllNamespaces install mode".to_owned(),
        );
    }
    None
}

fn highest<'a>(bundles: impl Iterator<Item = &'a V1Bundle>) -> Option<&'a V1Bundle> {
    bundles.filter(|b| version_of(b).is_some()).max_by(|a, b| {
        version_of(a)
            .expect("filtered")
            .compare(version_of(b).expect("filtered"))
    })
}

fn channel_names(channels: &[&V1Channel]) -> String {
    let names: Vec<&str> = channels.iter().map(|c| c.name()).collect();
    format!("[{}]", names.join(" "))
}

/// The closest candidate `filter` removed, and why.
fn nearest_miss(
    filter: Filter,
    passes: &[CatalogPass<'_>],
    ext: &ClusterExtension,
) -> Option<String> {
    match filter {
        Filter::Channel => {
            let p = passes.iter().find(|p| !p.slice.bundles().is_empty())?;
            let all: Vec<&V1Channel> = p.slice.channels().iter().collect();
            if p.considered.is_empty() {
                Some(format!(
                    "package {:?} in catalog {:?} has channels {}, none of the requested [{}]",
                    ext.package,
                    p.catalog.name,
                    channel_names(&all),
                    ext.channels.join(" ")
                ))
            } else {
                Some(format!(
                    "the requested channels {} of package {:?} in catalog {:?} have no bundle entries",
                    channel_names(&p.considered),
                    ext.package,
                    p.catalog.name
                ))
            }
        }
        Filter::VersionRange => {
            let best = highest(passes.iter().flat_map(|p| p.in_channel.iter().copied()))?;
            let where_ = if ext.channels.is_empty() {
                "in the package".to_owned()
            } else {
                format!("in channels [{}]", ext.channels.join(" "))
            };
            Some(format!(
                "the highest bundle {where_} is {} ({}), outside version range {:?}",
                best.name(),
                best.version_text(),
                ext.version
            ))
        }
        Filter::Successors => {
            let inst = ext.installed.as_ref()?;
            let (pass, best) = passes
                .iter()
                .filter_map(|p| highest(p.in_range.iter().copied()).map(|b| (p, b)))
                .max_by(|(_, a), (_, b)| {
                    version_of(a)
                        .expect("highest has a version")
                        .compare(version_of(b).expect("highest has a version"))
                })?;
            let qualifier = if ext.version.is_empty() {
                "a candidate"
            } else {
                "in range"
            };
            Some(format!(
                "{} is {qualifier} but not a successor of the installed {}: nothing replaces, skips or skipRange-matches {} in channel{} {}",
                best.version_text(),
                inst.version,
                inst.name,
                if pass.considered.len() == 1 { "" } else { "s" },
                pass.considered
                    .iter()
                    .map(|c| c.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
        _ => None,
    }
}
