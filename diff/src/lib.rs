//! # olmsat-diff
//!
//! A semantic diff of two catalogs: what a change does to the users of each
//! package's upgrade graphs.
//!
//! [`diff`] validates both catalogs (OLD must be valid; NEW's errors become
//! `new-invalid` findings), then, per package, lists the structural
//! [`Change`]s and the findings R0–R10: bundles left with no way to the
//! head, channels and packages removed, heads moving backwards, edges lost,
//! and OLM v0's real path (candidates on the head's replaces chain only, never
//! a skipped entry) stopping short of the head or growing longer.
//!
//! Findings are [`Diagnostic`]s of the one findings system
//! (`olmsat_findings`): their rules are in its registry, a [`Policy`]
//! (`--strict`, `--allow`, `--deny`, `.olmsat.yaml`) judges them as it judges
//! `validate`'s, and SARIF is assembled by it.
//!
//! - [`change`]: structural changes.
//! - [`mod@report`]: the diff's documents (text, short, GitHub, JSON, YAML, SARIF).

#![deny(missing_docs)]

mod bundle;
pub mod change;
mod channel;
mod package;
pub mod report;

use rayon::prelude::*;

use olmsat_catalog::load::Loaded;
use olmsat_catalog::model::Model;
use olmsat_catalog::validate::validate;
use olmsat_findings::diagnostic::{Diagnostic, Severity};
use olmsat_findings::report::{Allow, Policy, Rule, Verdict};

pub use change::{Change, ChangeKind};

/// A finding of `rule` about `package`, saying `detail`.
pub(crate) fn finding(rule: Rule, package: &str, detail: String) -> Diagnostic {
    Diagnostic::new(rule, detail).package(package)
}

/// The order of a package's findings: channel, bundle, rule (then message).
pub(crate) fn sort_key(d: &Diagnostic) -> (&Option<String>, &Option<String>, &'static str, &str) {
    (&d.channel, &d.bundle, d.rule.id(), &d.message)
}

/// What to compare.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Only this package (its blobs, and NEW's errors about it or about no package).
    pub package: Option<String>,
}

/// Why no diff can be given (exit code 2, or 1 for an unknown package).
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    /// OLD does not pass validation: there is no valid starting point to compare with.
    #[error("OLD catalog is invalid ({} error(s), listed above): a diff needs a valid starting point; fix OLD or compare against another revision", .errors.len())]
    OldInvalid {
        /// OLD's validation errors.
        errors: Vec<Diagnostic>,
    },
    /// `--package` names a package neither catalog has.
    #[error("package {name:?} is in neither catalog; packages: {}", olmsat_findings::suggest::join_listed(.known))]
    UnknownPackage {
        /// The name given.
        name: String,
        /// The packages there are, closest first.
        known: Vec<String>,
    },
}

/// The changes and findings of one package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageDiff {
    /// The package.
    pub name: String,
    /// Structural changes, sorted by channel, bundle and kind.
    pub changes: Vec<Change>,
    /// Findings, sorted by channel, bundle and rule name.
    pub findings: Vec<Diagnostic>,
    /// Findings a policy allowed, each with the allow that covers it.
    pub allowed: Vec<(Diagnostic, Allow)>,
}

impl PackageDiff {
    fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.findings.is_empty() && self.allowed.is_empty()
    }
}

/// The whole diff.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diff {
    /// Packages with at least one change or finding, sorted by name.
    pub packages: Vec<PackageDiff>,
    /// `new-invalid` findings about no single package.
    pub findings: Vec<Diagnostic>,
    /// How many findings a policy dropped (warnings of a rule allowed everywhere).
    pub suppressed: usize,
}

impl Diff {
    /// Every finding: the catalog-wide ones, then per package.
    pub fn all_findings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.findings
            .iter()
            .chain(self.packages.iter().flat_map(|p| &p.findings))
    }

    /// Every allowed finding, with its allow, package by package.
    pub fn all_allowed(&self) -> impl Iterator<Item = &(Diagnostic, Allow)> {
        self.packages.iter().flat_map(|p| &p.allowed)
    }

    /// Number of findings at `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.all_findings()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// Whether nothing changed and nothing was found.
    pub fn is_empty(&self) -> bool {
        self.packages.is_empty() && self.findings.is_empty()
    }

    /// Judge the findings by `policy`, as every command's findings are: the
    /// warnings of a rule allowed everywhere are dropped, findings an allow
    /// covers otherwise are kept as allowed (they fail nothing, and the
    /// reports show them with their allow), denied rules' findings become
    /// errors, and with `--strict` every warning is one.
    pub fn apply_policy(&mut self, policy: &Policy) {
        let mut suppressed = 0;
        let mut judge = |findings: &mut Vec<Diagnostic>, allowed: &mut Vec<(Diagnostic, Allow)>| {
            for mut d in std::mem::take(findings) {
                match policy.verdict(
                    d.rule,
                    d.severity,
                    d.package.as_deref(),
                    d.channel.as_deref(),
                ) {
                    Verdict::Report(s) => {
                        d.severity = s;
                        findings.push(d);
                    }
                    Verdict::Dropped => suppressed += 1,
                    Verdict::Allowed(a) => allowed.push((d, a)),
                }
            }
        };
        // Catalog-wide findings are `new-invalid`, which no policy allows.
        let mut none = Vec::new();
        judge(&mut self.findings, &mut none);
        for p in &mut self.packages {
            judge(&mut p.findings, &mut p.allowed);
        }
        self.packages.retain(|p| !p.is_empty());
        self.suppressed += suppressed;
    }

    /// Whether the diff fails: an error finding remains (after the policy;
    /// with `--strict` warnings are errors by then).
    pub fn fails(&self) -> bool {
        self.count(Severity::Error) > 0
    }
}

/// Compare OLD and NEW.
pub fn diff(old: Loaded, new: Loaded, options: &Options) -> Result<Diff, DiffError> {
    let only = options.package.as_deref();
    let concerns = |d: &Diagnostic| match (only, d.package.as_deref()) {
        (Some(p), Some(q)) => p == q,
        _ => true,
    };
    let ((old_model, old_report), (new_model, new_report)) =
        rayon::join(|| validate(old), || validate(new));
    let old_errors: Vec<Diagnostic> = old_report
        .errors
        .into_iter()
        .filter(|d| concerns(d))
        .collect();
    if !old_errors.is_empty() {
        return Err(DiffError::OldInvalid { errors: old_errors });
    }
    if let Some(p) = only {
        if old_model.package(p).is_none() && new_model.package(p).is_none() {
            let mut known: Vec<String> = old_model
                .packages()
                .iter()
                .chain(new_model.packages())
                .map(|p| p.name.clone())
                .collect();
            known.sort_unstable();
            known.dedup();
            let known = olmsat_findings::suggest::closest(p, known.iter().map(String::as_str))
                .into_iter()
                .map(str::to_owned)
                .collect();
            return Err(DiffError::UnknownPackage {
                name: p.to_owned(),
                known,
            });
        }
    }
    let mut global = Vec::new();
    let mut r0: std::collections::BTreeMap<String, Vec<Diagnostic>> = Default::default();
    for d in new_report.errors.iter().filter(|d| concerns(d)) {
        let f = new_invalid(d);
        match &d.package {
            Some(p) => r0.entry(p.clone()).or_default().push(f),
            None => global.push(f),
        }
    }
    Ok(compare_models(&old_model, &new_model, only, r0, global))
}

/// A `new-invalid` finding quoting a validation error of NEW.
fn new_invalid(d: &Diagnostic) -> Diagnostic {
    Diagnostic {
        rule: Rule::NewInvalid,
        severity: Rule::NewInvalid.default_severity(),
        package: d.package.clone(),
        channel: d.channel.clone(),
        bundle: d.bundle.clone(),
        message: d.message.clone(),
        location: d.location.clone(),
        old_location: None,
    }
}

/// Compare two models (both already validated).
fn compare_models(
    old: &Model,
    new: &Model,
    only: Option<&str>,
    mut r0: std::collections::BTreeMap<String, Vec<Diagnostic>>,
    mut global: Vec<Diagnostic>,
) -> Diff {
    let mut names: Vec<String> = old
        .packages()
        .iter()
        .chain(new.packages())
        .map(|p| p.name.clone())
        .chain(r0.keys().cloned())
        .filter(|n| only.is_none_or(|o| o == n))
        .collect();
    names.sort_unstable();
    names.dedup();
    let work: Vec<(String, Vec<Diagnostic>)> = names
        .into_iter()
        .map(|n| {
            let f = r0.remove(&n).unwrap_or_default();
            (n, f)
        })
        .collect();
    let packages: Vec<PackageDiff> = work
        .into_par_iter()
        .map(|(name, r0)| package::compare(&name, old.package(&name), new.package(&name), r0))
        .filter(|p| !p.is_empty())
        .collect();
    global.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
    Diff {
        packages,
        findings: global,
        suppressed: 0,
    }
}

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
