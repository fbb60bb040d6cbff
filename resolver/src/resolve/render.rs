//! Sentences, rendered from constraints' origins: OLM's own (`Olm`, byte for
//! byte what OLM's `PrettyConstraint`s and constraint kinds print), and the
//! readable variant olmsat's root-cause summaries use (`Readable`). Nothing
//! decides anything from a sentence: explanations match on origins, and a
//! renderer only words them.

use olmsat_catalog::property::Gvk;

use super::origin::{Encoded, Missing, Origin};
use crate::problem::{ConstraintKind, VarIndex};
use crate::solve::AppliedConstraint;

/// Words constraints.
pub(super) trait Render {
    /// The sentence of constraint `at` of `enc`'s problem.
    fn sentence(&self, enc: &Encoded, at: AppliedConstraint) -> String;
}

/// OLM's sentences.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Olm;

/// OLM's sentences, with bundles named by their CSV names where OLM names
/// them by identifier (deprecation), for olmsat's own summaries.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Readable;

/// `A`, `A and B`, `A, B and C`.
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// An API as OLM names it in its invariants: `Kind (group/version)`.
fn api(g: &Gvk) -> String {
    format!("{} ({}/{})", g.kind, g.group, g.version)
}

impl Render for Olm {
    fn sentence(&self, enc: &Encoded, at: AppliedConstraint) -> String {
        let p = &enc.problem;
        let Some(c) = p
            .variables
            .get(at.variable)
            .and_then(|v| v.constraints.get(at.constraint))
        else {
            return String::new();
        };
        let subject = p.id(at.variable);
        let ids = |vs: &[VarIndex]| vs.iter().map(|&v| p.id(v)).collect::<Vec<_>>();
        match (&c.origin, &c.kind) {
            (Origin::Subscription { name }, ConstraintKind::Mandatory) => {
                format!("subscription {name} exists")
            }
            (Origin::Subscription { name }, ConstraintKind::Dependency(ds)) => {
                match ids(ds).as_slice() {
                    [] => {
                        format!("no operators found matching the criteria of subscription {name}")
                    }
                    [one] => format!("subscription {name} requires {one}"),
                    [rest @ .., last] => format!(
                        "subscription {name} requires at least one of {} or {last}",
                        rest.join(", ")
                    ),
                }
            }
            (Origin::NoCandidates(n), ConstraintKind::Prohibited) => {
                let s = &n.subscription;
                match &n.missing {
                    Missing::Catalog {
                        source,
                        source_namespace,
                    } => format!(
                        "no operators found from catalog {source} in namespace {source_namespace} referenced by subscription {s}"
                    ),
                    Missing::Package { package } => format!(
                        "no operators found in package {package} in the catalog referenced by subscription {s}"
                    ),
                    Missing::Channel { package, channel } => format!(
                        "no operators found in channel {channel} of package {package} in the catalog referenced by subscription {s}"
                    ),
                    Missing::StartingCsv {
                        package,
                        channel,
                        csv,
                    } => format!(
                        "no operators found with name {csv} in channel {channel} of package {package} in the catalog referenced by subscription {s}"
                    ),
                }
            }
            (Origin::Unreferenced { csv }, ConstraintKind::Mandatory) => {
                format!(
                    "clusterserviceversion {csv} exists and is not referenced by a subscription"
                )
            }
            (Origin::Deprecated, ConstraintKind::Prohibited) => {
                format!("bundle {subject} is deprecated")
            }
            (Origin::Requirement(r), ConstraintKind::Dependency(_)) => {
                format!("bundle {} requires an operator {}", r.bundle, r.predicate)
            }
            (Origin::Upgrade { .. }, ConstraintKind::Conflict(o)) => {
                format!("{subject} conflicts with {}", p.id(*o))
            }
            (Origin::OneProviderPerApi(g), ConstraintKind::Mandatory) => {
                format!("there can be only one provider of {}", api(g))
            }
            (Origin::OneProviderPerApi(g), ConstraintKind::AtMost(_, vs)) => {
                format!("{} provide {}", and_list(&ids(vs)), api(g))
            }
            (Origin::OneBundlePerPackage(package), ConstraintKind::Mandatory) => {
                format!("there can be only one operator from package {package}")
            }
            (Origin::OneBundlePerPackage(package), ConstraintKind::AtMost(_, vs)) => {
                format!("{} originate from package {package}", and_list(&ids(vs)))
            }
            // The encoder makes no other pairs; OLM words a constraint of no
            // origin of its own by its kind.
            (_, kind) => p.default_message(at.variable, kind),
        }
    }
}

impl Render for Readable {
    fn sentence(&self, enc: &Encoded, at: AppliedConstraint) -> String {
        let c = enc
            .problem
            .variables
            .get(at.variable)
            .and_then(|v| v.constraints.get(at.constraint));
        match (c.map(|c| &c.origin), enc.interner.bundle(at.variable)) {
            (Some(Origin::Deprecated), Some(b)) => format!("bundle {} is deprecated", b.name),
            _ => Olm.sentence(enc, at),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::CatalogKey;
    use crate::problem::ConstraintKind::{AtMost, Conflict, Dependency, Mandatory, Prohibited};
    use crate::resolve::origin::fixture::{bundle, encoded, requires_k, subscription};
    use crate::resolve::origin::{BundleRef, Subject};

    fn at(variable: VarIndex, constraint: usize) -> AppliedConstraint {
        AppliedConstraint {
            variable,
            constraint,
        }
    }

    #[test]
    fn olm_names_a_deprecated_bundle_by_its_identifier() {
        let installed = (
            "@existing/operators//foo.v1.0.0".to_owned(),
            Subject::Bundle(BundleRef {
                entry: 1,
                name: "foo.v1.0.0".into(),
                catalog: CatalogKey {
                    name: CatalogKey::EXISTING.into(),
                    namespace: "operators".into(),
                },
                channel: String::new(),
            }),
        );
        let (enc, _) = encoded(vec![
            (bundle("foo.v1.0.0"), vec![(Prohibited, Origin::Deprecated)]),
            (
                installed,
                vec![
                    (
                        Mandatory,
                        Origin::Unreferenced {
                            csv: "foo.v1.0.0".into(),
                        },
                    ),
                    (Prohibited, Origin::Deprecated),
                ],
            ),
        ]);
        assert_eq!(
            Olm.sentence(&enc, at(0, 0)),
            "bundle c/ns/stable/foo.v1.0.0 is deprecated"
        );
        assert_eq!(
            Olm.sentence(&enc, at(1, 1)),
            "bundle @existing/operators//foo.v1.0.0 is deprecated"
        );
        assert_eq!(
            Olm.sentence(&enc, at(1, 0)),
            "clusterserviceversion foo.v1.0.0 exists and is not referenced by a subscription"
        );
        // olmsat's summaries name it by its CSV name.
        assert_eq!(
            Readable.sentence(&enc, at(0, 0)),
            "bundle foo.v1.0.0 is deprecated"
        );
        assert_eq!(
            Readable.sentence(&enc, at(1, 1)),
            "bundle foo.v1.0.0 is deprecated"
        );
    }

    #[test]
    fn subscriptions_requirements_upgrades_and_invariants_in_olms_words() {
        let exists = || Origin::Subscription { name: "s".into() };
        let upgrade = || Origin::Upgrade {
            installed: "p.v0".into(),
        };
        let api = Gvk {
            group: "g".into(),
            version: "v".into(),
            kind: "K".into(),
        };
        let (enc, _) = encoded(vec![
            (
                subscription(),
                vec![
                    (Mandatory, exists()),
                    (Dependency(vec![]), exists()),
                    (Dependency(vec![1]), exists()),
                    (Dependency(vec![1, 2, 3]), exists()),
                ],
            ),
            (
                bundle("p.v2"),
                vec![
                    (Dependency(vec![]), requires_k("p.v2")),
                    (Conflict(3), upgrade()),
                ],
            ),
            (bundle("p.v1"), vec![]),
            (bundle("p.v0"), vec![]),
            (
                ("K (g/v)".to_owned(), Subject::Invariant),
                vec![
                    (Mandatory, Origin::OneProviderPerApi(api.clone())),
                    (AtMost(1, vec![1, 2, 3]), Origin::OneProviderPerApi(api)),
                ],
            ),
            (
                ("p".to_owned(), Subject::Invariant),
                vec![
                    (Mandatory, Origin::OneBundlePerPackage("p".into())),
                    (
                        AtMost(1, vec![1, 2]),
                        Origin::OneBundlePerPackage("p".into()),
                    ),
                ],
            ),
        ]);
        let words = |v, c| Olm.sentence(&enc, at(v, c));
        assert_eq!(words(0, 0), "subscription s exists");
        assert_eq!(
            words(0, 1),
            "no operators found matching the criteria of subscription s"
        );
        assert_eq!(words(0, 2), "subscription s requires c/ns/stable/p.v2");
        assert_eq!(
            words(0, 3),
            "subscription s requires at least one of c/ns/stable/p.v2, c/ns/stable/p.v1 or c/ns/stable/p.v0"
        );
        assert_eq!(
            words(1, 0),
            "bundle p.v2 requires an operator providing an API with group: g, version: v, kind: K"
        );
        assert_eq!(
            words(1, 1),
            "c/ns/stable/p.v2 conflicts with c/ns/stable/p.v0"
        );
        assert_eq!(words(4, 0), "there can be only one provider of K (g/v)");
        assert_eq!(
            words(4, 1),
            "c/ns/stable/p.v2, c/ns/stable/p.v1 and c/ns/stable/p.v0 provide K (g/v)"
        );
        assert_eq!(words(5, 0), "there can be only one operator from package p");
        assert_eq!(
            words(5, 1),
            "c/ns/stable/p.v2 and c/ns/stable/p.v1 originate from package p"
        );
        assert_eq!(enc.replaces(1), Some("p.v0"));
        assert_eq!(enc.replaces(2), None);
    }
}
