//! The report of `catalog from-bundles` as data (`-o json|yaml`) and as text.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use olmsat_findings::diagnostic::Diagnostic;
use olmsat_findings::report::format::JsonFinding;
use serde::Serialize;

use crate::from_bundles::CatalogBuild;

/// What `catalog from-bundles` did: the build's findings and those of the
/// catalog it wrote, read back and validated with opm's rules (`None` with
/// `--no-validate`).
#[derive(Debug, Clone, Copy)]
pub struct BuildReport<'a> {
    /// The build.
    pub build: &'a CatalogBuild,
    /// The files written.
    pub files: &'a [PathBuf],
    /// The directory written to.
    pub output: &'a Path,
    /// The written catalog's errors and warnings, when it was validated.
    pub written: Option<(&'a [Diagnostic], &'a [Diagnostic])>,
}

/// [`BuildReport`] as JSON/YAML.
#[derive(Debug, Serialize)]
pub struct BuildDocument<'a> {
    passed: bool,
    errors: Vec<JsonFinding<'a>>,
    warnings: Vec<JsonFinding<'a>>,
    found: usize,
    packages: usize,
    bundles: usize,
    files: Vec<String>,
    skipped: Vec<Skipped<'a>>,
    #[serde(rename = "absentReplaces")]
    absent_replaces: Vec<AbsentReplaces<'a>>,
    #[serde(rename = "defaultChannelDisagreements")]
    default_channel_disagreements: Vec<Disagreement<'a>>,
}

#[derive(Debug, Serialize)]
struct Skipped<'a> {
    path: String,
    reason: &'a str,
}

#[derive(Debug, Serialize)]
struct AbsentReplaces<'a> {
    package: &'a str,
    bundle: &'a str,
    replaces: &'a str,
}

#[derive(Debug, Serialize)]
struct Disagreement<'a> {
    package: &'a str,
    chosen: &'a str,
    #[serde(rename = "namedBy")]
    named_by: &'a BTreeMap<String, Vec<String>>,
}

impl<'a> BuildReport<'a> {
    fn catalog_errors(&self) -> &'a [Diagnostic] {
        self.written.map_or(&[], |(e, _)| e)
    }

    fn catalog_warnings(&self) -> &'a [Diagnostic] {
        self.written.map_or(&[], |(_, w)| w)
    }

    /// Whether the build and the written catalog have no errors.
    pub fn passed(&self) -> bool {
        !self.build.has_errors() && self.catalog_errors().is_empty()
    }

    /// The errors: the build's, then the written catalog's.
    pub fn errors(&self) -> impl Iterator<Item = &'a Diagnostic> + '_ {
        let build: &'a CatalogBuild = self.build;
        build
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .chain(self.catalog_errors())
    }

    /// The warnings: the build's, then the written catalog's.
    pub fn warnings(&self) -> impl Iterator<Item = &'a Diagnostic> + '_ {
        let build: &'a CatalogBuild = self.build;
        build
            .diagnostics
            .iter()
            .filter(|d| !d.is_error())
            .chain(self.catalog_warnings())
    }

    /// The document `-o json|yaml` prints.
    pub fn document(&self) -> BuildDocument<'a> {
        let f = &self.build.findings;
        BuildDocument {
            passed: self.passed(),
            errors: self.errors().map(Into::into).collect(),
            warnings: self.warnings().map(Into::into).collect(),
            found: f.found,
            packages: self.build.config.packages.len(),
            bundles: f.included,
            files: self.files.iter().map(|p| p.display().to_string()).collect(),
            skipped: f
                .skipped
                .iter()
                .map(|(p, r)| Skipped {
                    path: p.display().to_string(),
                    reason: r,
                })
                .collect(),
            absent_replaces: f
                .absent_replaces
                .iter()
                .map(|(p, b, r)| AbsentReplaces {
                    package: p,
                    bundle: b,
                    replaces: r,
                })
                .collect(),
            default_channel_disagreements: f
                .default_disagreements
                .iter()
                .map(|(p, c, m)| Disagreement {
                    package: p,
                    chosen: c,
                    named_by: m,
                })
                .collect(),
        }
    }

    /// The closing line of the text report.
    pub fn summary(&self) -> String {
        let f = &self.build.findings;
        let mut s = String::new();
        let _ = write!(
            s,
            "wrote {} package(s), {} bundle(s) to {} ({} bundle dir(s) found, {} left out); {} error(s), {} warning(s){}",
            self.build.config.packages.len(),
            f.included,
            self.output.display(),
            f.found,
            f.skipped.len(),
            self.errors().count(),
            self.warnings().count(),
            if self.written.is_some() { "" } else { " (not validated)" }
        );
        s
    }
}
