//! Where each constraint comes from, and what each variable stands for: the
//! typed side of the encoding. Explanations and root causes match on these;
//! sentences are rendered from them (`render`), never read back.

use olmsat_catalog::property::Gvk;

use super::UnseenProvider;
use crate::entry::{CatalogKey, EntryId};
use crate::predicate::{Predicate, RequirementProperty};
use crate::problem::{Problem, VarIndex};

/// What a constraint stands for in OLM's model. The constraint's kind says
/// what it demands; together they give OLM's sentence.
#[derive(Debug, Clone)]
pub(super) enum Origin {
    /// A Subscription: it exists (mandatory), and it needs one of its
    /// candidates (a dependency, candidates in preference order).
    Subscription {
        /// The Subscription's name.
        name: String,
    },
    /// A Subscription that selects nothing (prohibited): what it names that
    /// its catalog lacks.
    NoCandidates(Box<NoCandidates>),
    /// An installed CSV that no Subscription references stays (mandatory).
    Unreferenced {
        /// The CSV's name.
        csv: String,
    },
    /// The bundle carries the legacy `olm.deprecated` property (prohibited).
    Deprecated,
    /// A dependency property of a bundle (a dependency on the bundles that
    /// meet it, in preference order).
    Requirement(Box<Requirement>),
    /// An upgrade: a candidate of a Subscription with an installed CSV
    /// conflicts with that CSV, which it would replace.
    Upgrade {
        /// The installed CSV's name.
        installed: String,
    },
    /// At most one bundle provides an API: the anchor (mandatory) and the
    /// limit (at most one of the providers).
    OneProviderPerApi(Gvk),
    /// At most one bundle of a package: the anchor (mandatory) and the limit
    /// (at most one of the package's bundles).
    OneBundlePerPackage(String),
}

/// A Subscription that selects nothing.
#[derive(Debug, Clone)]
pub(super) struct NoCandidates {
    /// The Subscription's name.
    pub(super) subscription: String,
    /// The first thing it names that is not there.
    pub(super) missing: Missing,
    /// What to do about it, when olmsat knows.
    pub(super) hint: Option<String>,
}

/// What a Subscription names that its catalog lacks, as OLM checks it.
#[derive(Debug, Clone)]
pub(super) enum Missing {
    /// The catalog has no operators (or the namespace does not see it).
    Catalog {
        /// `spec.source`.
        source: String,
        /// `spec.sourceNamespace`.
        source_namespace: String,
    },
    /// The catalog has no such package.
    Package {
        /// `spec.name`.
        package: String,
    },
    /// The package has no such channel.
    Channel {
        /// `spec.name`.
        package: String,
        /// `spec.channel`.
        channel: String,
    },
    /// The channel has no such entry.
    StartingCsv {
        /// `spec.name`.
        package: String,
        /// `spec.channel`.
        channel: String,
        /// `spec.startingCSV`.
        csv: String,
    },
}

/// A dependency property of a bundle, with what explanations need beyond it.
#[derive(Debug, Clone)]
pub(super) struct Requirement {
    /// The bundle (CSV name) that carries it.
    pub(super) bundle: String,
    /// The property.
    pub(super) property: RequirementProperty,
    /// What it asks of a candidate.
    pub(super) predicate: Predicate,
    /// Bundles that meet it but that OLM never offers (skipped by another
    /// entry of their channel); found only when nothing else meets it.
    pub(super) skipped: Vec<String>,
    /// Bundles that meet it in catalogs the namespace does not see; found
    /// only when nothing else meets it.
    pub(super) unseen: Vec<UnseenProvider>,
}

/// What a problem variable stands for.
#[derive(Debug, Clone)]
pub(super) enum Subject {
    /// A catalog entry, or an installed CSV (in the `@existing` catalog).
    Bundle(BundleRef),
    /// A Subscription.
    Subscription {
        /// Its name.
        name: String,
        /// The package it subscribes to.
        package: String,
    },
    /// The anchor of an invariant: the one-provider limit of an API, or the
    /// one-bundle limit of a package (its constraints' origins say which).
    Invariant,
}

/// The bundle a variable stands for.
#[derive(Debug, Clone)]
pub(super) struct BundleRef {
    /// The entry in the catalog world.
    pub(super) entry: EntryId,
    /// The bundle (CSV) name.
    pub(super) name: String,
    /// Its catalog (`@existing` and the namespace for an installed CSV).
    pub(super) catalog: CatalogKey,
    /// Its channel (empty for an installed CSV).
    pub(super) channel: String,
}

/// The table from variable index to what the variable stands for, the
/// reverse of the identifiers the encoder builds (`catalog/ns/channel/bundle`,
/// `subscription:name`): nothing reads an identifier to learn what it names.
#[derive(Debug, Clone, Default)]
pub(super) struct Interner {
    subjects: Vec<Subject>,
}

impl Interner {
    /// A table whose variable `i` stands for `subjects[i]`.
    pub(super) fn new(subjects: Vec<Subject>) -> Interner {
        Interner { subjects }
    }

    /// What variable `v` stands for.
    pub(super) fn subject(&self, v: VarIndex) -> Option<&Subject> {
        self.subjects.get(v)
    }

    /// The bundle variable `v` stands for, if it is a bundle's.
    pub(super) fn bundle(&self, v: VarIndex) -> Option<&BundleRef> {
        match self.subject(v)? {
            Subject::Bundle(b) => Some(b),
            _ => None,
        }
    }

    /// The Subscription variable `v` stands for, if it is one's: its name
    /// and package.
    pub(super) fn subscription(&self, v: VarIndex) -> Option<(&str, &str)> {
        match self.subject(v)? {
            Subject::Subscription { name, package } => Some((name, package)),
            _ => None,
        }
    }
}

/// The encoding's result: the solver's problem, each constraint with its
/// origin, and what each variable stands for.
#[derive(Debug, Clone, Default)]
pub(super) struct Encoded {
    /// The problem, variables in identifier order.
    pub(super) problem: Problem<Origin>,
    /// What each of its variables stands for.
    pub(super) interner: Interner,
}

impl Encoded {
    /// The name to show for variable `v`: a bundle's name, a Subscription's
    /// name, else its identifier.
    pub(super) fn name(&self, v: VarIndex) -> &str {
        match self.interner.subject(v) {
            Some(Subject::Bundle(b)) => &b.name,
            Some(Subject::Subscription { name, .. }) => name,
            _ => self.problem.id(v),
        }
    }

    /// The installed CSV that bundle variable `v` would replace, when it is
    /// a candidate of an upgrade (the last Subscription's, as OLM's map of
    /// replacements keeps the last).
    pub(super) fn replaces(&self, v: VarIndex) -> Option<&str> {
        self.problem
            .variables
            .get(v)?
            .constraints
            .iter()
            .rev()
            .find_map(|c| match &c.origin {
                Origin::Upgrade { installed, .. } => Some(installed.as_str()),
                _ => None,
            })
    }
}

/// Small encodings built by hand, for the explanations' unit tests.
#[cfg(test)]
pub(super) mod fixture {
    use olmsat_catalog::property::Gvk;

    use super::{BundleRef, Encoded, Interner, Origin, Requirement, Subject};
    use crate::entry::CatalogKey;
    use crate::predicate::{Predicate, RequirementProperty};
    use crate::problem::{ConstraintKind, Problem};
    use crate::solve::AppliedConstraint;

    /// Bundle `name` in channel `stable` of catalog `c` in namespace `ns`.
    pub(crate) fn bundle(name: &str) -> (String, Subject) {
        (
            format!("c/ns/stable/{name}"),
            Subject::Bundle(BundleRef {
                entry: 0,
                name: name.to_owned(),
                catalog: CatalogKey {
                    name: "c".into(),
                    namespace: "ns".into(),
                },
                channel: "stable".into(),
            }),
        )
    }

    /// Subscription `s` to package `p`.
    pub(crate) fn subscription() -> (String, Subject) {
        (
            "subscription:s".to_owned(),
            Subject::Subscription {
                name: "s".into(),
                package: "p".into(),
            },
        )
    }

    /// `bundle` requires an API `g/v K` (`olm.gvk.required`).
    pub(crate) fn requires_k(bundle: &str) -> Origin {
        Origin::Requirement(Box::new(Requirement {
            bundle: bundle.to_owned(),
            property: RequirementProperty::GvkRequired,
            predicate: Predicate::Gvk(Gvk {
                group: "g".into(),
                version: "v".into(),
                kind: "K".into(),
            }),
            skipped: Vec::new(),
            unseen: Vec::new(),
        }))
    }

    /// An encoding of these variables (indices in the order given) and
    /// constraints; every constraint is in the returned core.
    #[allow(clippy::type_complexity)]
    pub(crate) fn encoded(
        vars: Vec<((String, Subject), Vec<(ConstraintKind, Origin)>)>,
    ) -> (Encoded, Vec<AppliedConstraint>) {
        let mut problem: Problem<Origin> = Problem::default();
        let mut subjects = Vec::new();
        let mut core = Vec::new();
        for ((id, subject), constraints) in vars {
            let v = problem.add(id);
            subjects.push(subject);
            for (ci, (kind, origin)) in constraints.into_iter().enumerate() {
                problem.constrain_with(v, kind, origin);
                core.push(AppliedConstraint {
                    variable: v,
                    constraint: ci,
                });
            }
        }
        let enc = Encoded {
            problem,
            interner: Interner::new(subjects),
        };
        (enc, core)
    }
}
