//! The arguments of `bundle validate`: bundle images, bundle directories, and
//! directories holding bundle directories below them; and the document the
//! command prints.

use std::path::{Path, PathBuf};

use olmsat_catalog::load::ReadOptions;
use olmsat_findings::report::format::JsonFinding;
use olmsat_findings::report::Findings;
use olmsat_image::{Image, ImageError};
use serde::Serialize;

use super::{validate_bundle, validate_dirs, BundleReport};
use crate::format::Source as DetectedBy;
use crate::read::{find_bundles, MANIFESTS};
use crate::BundleError;

/// What one argument names.
#[derive(Debug)]
pub enum Target {
    /// A bundle image.
    Image(Box<Image>),
    /// Bundle directories: the one named, or those found below it.
    Dirs(Vec<PathBuf>),
}

/// The bundles the arguments name, and notes on what was passed over.
#[derive(Debug, Default)]
pub struct Targets {
    /// One per argument, in order.
    pub targets: Vec<Target>,
    /// Entries passed over: files among several arguments, links that leave a
    /// tree, special files. (An image's own notes are in [`Image::notes`].)
    pub notes: Vec<String>,
}

/// Why the arguments of `bundle validate` cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// An image could not be opened.
    #[error(transparent)]
    Image(#[from] ImageError),
    /// A directory could not be read.
    #[error(transparent)]
    Bundle(#[from] BundleError),
}

impl Targets {
    /// Read `args` as `bundle validate` does: each an image reference or
    /// archive, or a path; a directory without `manifests/` that holds bundles
    /// below it stands for those bundles. A file among several arguments (a
    /// shell glob over a bundle tree) is passed over with a note; a lone file
    /// is validated (and fails as not a bundle directory).
    pub fn read(args: &[PathBuf], options: &ReadOptions) -> Result<Targets, TargetError> {
        let several = args.len() > 1;
        let mut out = Targets::default();
        for arg in args {
            let opened = arg
                .to_str()
                .map(|t| olmsat_image::open_arg(t, &options.image));
            if let Some(image) = opened.transpose()?.flatten() {
                out.targets.push(Target::Image(Box::new(image)));
                continue;
            }
            if several && arg.exists() && !arg.is_dir() {
                out.notes.push(format!(
                    "skipped {}: not a directory (bundle validate takes bundle directories)",
                    arg.display()
                ));
                continue;
            }
            let dirs = out.dirs_of(arg, options.follow_links)?;
            out.targets.push(Target::Dirs(dirs));
        }
        Ok(out)
    }

    fn dirs_of(&mut self, dir: &Path, follow_links: bool) -> Result<Vec<PathBuf>, TargetError> {
        if dir.is_dir() && !dir.join(MANIFESTS).exists() {
            let found = find_bundles(dir, follow_links)?;
            self.notes
                .extend(found.skipped.iter().map(ToString::to_string));
            if !found.dirs.is_empty() {
                return Ok(found.dirs);
            }
        }
        Ok(vec![dir.to_path_buf()])
    }

    /// How many bundles there are to validate.
    pub fn count(&self) -> usize {
        self.targets
            .iter()
            .map(|t| match t {
                Target::Image(_) => 1,
                Target::Dirs(d) => d.len(),
            })
            .sum()
    }

    /// Validate every bundle, in order.
    pub fn validate(&self) -> Result<Vec<BundleReport>, TargetError> {
        let mut reports = Vec::new();
        for t in &self.targets {
            match t {
                Target::Image(image) => reports.push(validate_image(image)?),
                Target::Dirs(paths) => reports.extend(validate_dirs(paths)?),
            }
        }
        Ok(reports)
    }
}

/// Validate a bundle image: its bundle directory, and its labels against its
/// annotations.
pub fn validate_image(image: &Image) -> Result<BundleReport, ImageError> {
    let dir = crate::image::read(image)?;
    let mut report = validate_bundle(&dir);
    let (errors, warnings): (Vec<_>, Vec<_>) = crate::image::label_mismatches(image, &dir)
        .into_iter()
        .partition(|d| d.is_error());
    report.errors.extend(errors);
    report.warnings.extend(warnings);
    Ok(report)
}

/// `bundle validate -o json|yaml`: every finding after the policy, and a line
/// per bundle.
#[derive(Debug, Serialize)]
pub struct ValidationDocument<'a> {
    /// Whether every bundle passed.
    pub passed: bool,
    /// The errors of all bundles.
    pub errors: Vec<JsonFinding<'a>>,
    /// The warnings of all bundles.
    pub warnings: Vec<JsonFinding<'a>>,
    /// One per bundle, in order.
    pub bundles: Vec<BundleLine<'a>>,
}

/// A bundle in a [`ValidationDocument`].
#[derive(Debug, Serialize)]
pub struct BundleLine<'a> {
    /// The bundle directory or image.
    pub path: String,
    /// The detected format.
    pub mediatype: &'static str,
    /// Why that format.
    #[serde(rename = "detectedFrom")]
    pub detected_from: String,
    /// The package, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<&'a str>,
    /// The bundle's name, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bundle: Option<&'a str>,
    /// Whether it passed.
    pub passed: bool,
}

impl<'a> ValidationDocument<'a> {
    /// The document of `reports`, each with its findings after the policy.
    pub fn new(reports: &'a [BundleReport], findings: &'a [Findings]) -> Self {
        ValidationDocument {
            passed: findings.iter().all(Findings::passed),
            errors: findings
                .iter()
                .flat_map(Findings::errors)
                .map(Into::into)
                .collect(),
            warnings: findings
                .iter()
                .flat_map(Findings::warnings)
                .map(Into::into)
                .collect(),
            bundles: reports
                .iter()
                .zip(findings)
                .map(|(r, f)| BundleLine {
                    path: r.path.display().to_string(),
                    mediatype: r.detection.media_type.as_str(),
                    detected_from: match &r.detection.source {
                        DetectedBy::Annotation { key, location } => {
                            format!("annotation {key} at {location}")
                        }
                        DetectedBy::Layout(why) => format!("layout: {why}"),
                    },
                    package: r.package.as_deref(),
                    bundle: r.bundle.as_deref(),
                    passed: f.passed(),
                })
                .collect(),
        }
    }
}

/// `bundle validate`'s text: a line per bundle (valid or invalid, and its
/// format) followed by its findings, then the totals. Names are escaped for a
/// terminal; findings are coloured when `color`.
pub fn text(reports: &[BundleReport], findings: &[Findings], color: bool) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let (mut errors, mut warnings, mut invalid) = (0, 0, 0);
    for (r, f) in reports.iter().zip(findings) {
        let verdict = if f.passed() { "valid" } else { "invalid" };
        let line = format!("{}: {verdict} {}", r.path.display(), r.detection.describe());
        let _ = writeln!(out, "{}", olmsat_io::terminal(&line));
        for d in f.errors().chain(f.warnings()) {
            let _ = writeln!(out, "{}", olmsat_findings::report::format::text(d, color));
        }
        errors += f.errors().count();
        warnings += f.warnings().count();
        invalid += usize::from(!f.passed());
    }
    let passed = findings.iter().all(Findings::passed);
    let _ = writeln!(
        out,
        "{}: {} bundle(s), {} valid, {invalid} invalid; {errors} error(s), {warnings} warning(s)",
        if passed { "valid" } else { "invalid" },
        reports.len(),
        reports.len() - invalid
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle_tree() -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        for name in ["a", "b"] {
            let m = t.path().join(name).join("manifests");
            std::fs::create_dir_all(&m).unwrap();
            std::fs::create_dir_all(t.path().join(name).join("metadata")).unwrap();
        }
        std::fs::write(t.path().join("README.md"), "x").unwrap();
        t
    }

    #[test]
    fn a_tree_stands_for_its_bundles_and_files_among_several_are_noted() {
        let t = bundle_tree();
        let targets = Targets::read(&[t.path().to_path_buf()], &ReadOptions::default()).unwrap();
        assert_eq!(targets.count(), 2);
        let several = [t.path().join("a"), t.path().join("README.md")];
        let targets = Targets::read(&several, &ReadOptions::default()).unwrap();
        assert_eq!(targets.count(), 1);
        assert_eq!(targets.notes.len(), 1, "{:?}", targets.notes);
        assert!(targets.notes[0].contains("README.md: not a directory"));
    }

    #[test]
    fn the_document_names_each_bundle_and_whether_it_passed() {
        let t = bundle_tree();
        let targets = Targets::read(&[t.path().to_path_buf()], &ReadOptions::default()).unwrap();
        let reports = targets.validate().unwrap();
        let policy = olmsat_findings::report::Policy::default();
        let findings: Vec<Findings> = reports
            .iter()
            .map(|r| policy.apply(r.errors.iter().chain(&r.warnings).cloned()))
            .collect();
        let doc = ValidationDocument::new(&reports, &findings);
        assert_eq!(doc.bundles.len(), 2);
        assert_eq!(doc.passed, doc.bundles.iter().all(|b| b.passed));
        assert!(doc.bundles[0].path.ends_with('a'));
        let text = text(&reports, &findings, false);
        let last = text.lines().last().unwrap_or_default();
        assert!(last.contains(": 2 bundle(s), "), "{text}");
        let errors = findings.iter().map(|f| f.errors().count()).sum::<usize>();
        assert!(last.contains(&format!("; {errors} error(s)")), "{text}");
        assert!(
            text.lines().next().unwrap_or_default().contains("/a: "),
            "{text}"
        );
    }
}
