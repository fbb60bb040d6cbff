//! # olmsat-diff
//!
//! A semantic diff of two catalogs: what a change does to the users of each
//! package's upgrade graphs.
//!
//! [`diff`] validates both catalogs (OLD must be valid; NEW's errors become
//! `new-invalid` findings), then, per package, lists the structural
//! [`Change`]s and the [`Finding`]s R0–R9: bundles left with no way to the
//! head, channels and packages removed, heads moving backwards, edges lost,
//! and OLM v0's real path (candidates on the head's replaces chain only, never
//! a skipped entry) stopping short of the head or growing longer.
//!
//! - [`finding`]: rules, codes, severities and findings.
//! - [`change`]: structural changes.
//! - [`mod@report`]: JSON, YAML, text and one-line renderings.

#![deny(missing_docs)]
#![allow(unreachable_pub)] // until the findings rework lands

mod bundle;
pub mod change;
mod channel;
pub mod finding;
mod package;
pub mod report;

use rayon::prelude::*;

use olmsat_catalog::load::Loaded;
use olmsat_catalog::model::Model;
use olmsat_catalog::validate::validate;
use olmsat_findings::diagnostic::Diagnostic;

pub use change::{Change, ChangeKind};
pub use finding::{Finding, Level, Rule};

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
    pub findings: Vec<Finding>,
}

/// The whole diff.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diff {
    /// Packages with at least one change or finding, sorted by name.
    pub packages: Vec<PackageDiff>,
    /// `new-invalid` findings about no single package.
    pub findings: Vec<Finding>,
}

impl Diff {
    /// Every finding: the catalog-wide ones, then per package.
    pub fn all_findings(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .chain(self.packages.iter().flat_map(|p| &p.findings))
    }

    /// Number of findings at `level`.
    pub fn count(&self, level: Level) -> usize {
        self.all_findings().filter(|f| f.level() == level).count()
    }

    /// Whether nothing changed and nothing was found.
    pub fn is_empty(&self) -> bool {
        self.packages.is_empty() && self.findings.is_empty()
    }

    /// `--allow` and `--deny`: findings of an allowed rule are dropped,
    /// findings of a denied rule become errors.
    pub fn apply_policy(&mut self, allow: &[Rule], deny: &[Rule]) {
        let keep = |f: &Finding| !allow.contains(&f.rule);
        let mark = |f: &mut Finding| f.denied = deny.contains(&f.rule);
        self.findings.retain(keep);
        self.findings.iter_mut().for_each(mark);
        for p in &mut self.packages {
            p.findings.retain(keep);
            p.findings.iter_mut().for_each(mark);
        }
        self.packages
            .retain(|p| !p.changes.is_empty() || !p.findings.is_empty());
    }

    /// Whether the diff fails: an error finding, or with `strict` a warning.
    pub fn fails(&self, strict: bool) -> bool {
        self.count(Level::Error) > 0 || (strict && self.count(Level::Warning) > 0)
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
    let mut r0: std::collections::BTreeMap<String, Vec<Finding>> = Default::default();
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
fn new_invalid(d: &Diagnostic) -> Finding {
    Finding {
        rule: Rule::NewInvalid,
        package: d.package.clone(),
        channel: d.channel.clone(),
        bundle: d.bundle.clone(),
        detail: d.message.clone(),
        old: None,
        new: d.location.clone(),
        denied: false,
    }
}

/// Compare two models (both already validated).
fn compare_models(
    old: &Model,
    new: &Model,
    only: Option<&str>,
    mut r0: std::collections::BTreeMap<String, Vec<Finding>>,
    mut global: Vec<Finding>,
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
    let work: Vec<(String, Vec<Finding>)> = names
        .into_iter()
        .map(|n| {
            let f = r0.remove(&n).unwrap_or_default();
            (n, f)
        })
        .collect();
    let packages: Vec<PackageDiff> = work
        .into_par_iter()
        .map(|(name, r0)| package::compare(&name, old.package(&name), new.package(&name), r0))
        .filter(|p| !p.changes.is_empty() || !p.findings.is_empty())
        .collect();
    global.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    Diff {
        packages,
        findings: global,
    }
}
