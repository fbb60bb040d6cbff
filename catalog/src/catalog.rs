//! The crate's front door: open a catalog, look at its problems, validate it.
//!
//! Opening is two steps, so a caller can time or inspect each:
//!
//! 1. [`CatalogFiles::read`] (or [`CatalogFiles::read_package`]) reads the files
//!    and parses every blob; problems are kept as [`Diagnostic`]s, and only a
//!    path that cannot be opened at all is an error ([`LoadError`]).
//! 2. [`CatalogFiles::build`] turns the blobs into the package/channel/bundle
//!    [`Model`] — or [`CatalogFiles::validate`] checks them with opm's rules.
//!
//! [`Catalog::open`] does both at once.
//!
//! ```
//! use olmsat_catalog::Catalog;
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/catalogs/etcd-example");
//! let catalog = Catalog::open(&[dir]).expect("the catalog reads without errors");
//! let etcd = catalog.model().packages().iter().find(|p| p.name == "etcd").expect("etcd");
//! assert_eq!(etcd.default_channel, "stable");
//! ```

use std::path::Path;

use crate::declcfg::DeclarativeConfig;
use crate::load::blob::BundleReading;
use crate::load::{self, LoadError, Loaded, ReadOptions, Select};
use crate::model::Model;
use crate::validate::Report;
use olmsat_findings::diagnostic::Diagnostic;

/// A catalog read from its files but not yet built into a [`Model`]: the blobs,
/// the problems found reading them, and how many files were read.
#[derive(Debug)]
pub struct CatalogFiles {
    loaded: Loaded,
    reading: BundleReading,
}

impl CatalogFiles {
    /// Read catalog paths (directories, files, or `-` for standard input) into
    /// one catalog.
    ///
    /// # Errors
    ///
    /// A path that does not exist or cannot be inspected. Problems inside the
    /// files are not errors here: they are the [`CatalogFiles::diagnostics`].
    pub fn read<P: AsRef<Path>>(paths: &[P]) -> Result<Self, LoadError> {
        Ok(CatalogFiles {
            loaded: load::load_paths(paths)?,
            reading: BundleReading::Full,
        })
    }

    /// Read only what questions about one package need from the catalog at
    /// `path`: that package's blobs, its bundles only as far as upgrade graphs
    /// need (no images, no properties but the version and the deprecation
    /// mark). Problems elsewhere in the catalog are not reported. When the
    /// catalog has no such package, everything is read instead, so that the
    /// packages there are can be named.
    ///
    /// # Errors
    ///
    /// As [`CatalogFiles::read`].
    pub fn read_package(path: &Path, package: &str) -> Result<Self, LoadError> {
        Self::read_package_with(path, package, &ReadOptions::default())
    }

    /// [`CatalogFiles::read`], reading as `options` say (links, images).
    ///
    /// # Errors
    ///
    /// As [`CatalogFiles::read`].
    pub fn read_with<P: AsRef<Path>>(
        paths: &[P],
        options: &ReadOptions,
    ) -> Result<Self, LoadError> {
        Ok(CatalogFiles::from_loaded(load::load_paths_with(
            paths,
            &Select::All,
            options,
        )?))
    }

    /// [`CatalogFiles::read_package`], reading as `options` say.
    ///
    /// # Errors
    ///
    /// As [`CatalogFiles::read`].
    pub fn read_package_with(
        path: &Path,
        package: &str,
        options: &ReadOptions,
    ) -> Result<Self, LoadError> {
        // Standard input can be read only once: keep it for a second, full read.
        let stdin = if path.as_os_str() == "-" {
            Some(load::read_stdin()?)
        } else {
            None
        };
        Self::package_from(package, |select| match &stdin {
            Some(text) => Ok(load::load_bytes_selected("<stdin>", text, select)),
            None => load::load_path_with(path, select, options),
        })
    }

    /// Read what questions about one package need, from wherever `load`
    /// reads (called with the blobs to keep): that package's blobs, its
    /// bundles only as far as upgrade graphs need; everything, when the
    /// first read has no such package, so that the packages there are can be
    /// named. `load` may be called twice.
    ///
    /// # Errors
    ///
    /// What `load` gives.
    pub fn package_from<E>(
        package: &str,
        mut load: impl FnMut(&Select) -> Result<Loaded, E>,
    ) -> Result<Self, E> {
        let only = load(&Select::PackageGraph(package.to_owned()))?;
        if only.config.packages.iter().any(|p| p.name == package) {
            return Ok(CatalogFiles {
                loaded: only,
                reading: BundleReading::Graph,
            });
        }
        Ok(CatalogFiles::from_loaded(load(&Select::All)?))
    }

    /// A catalog from what loading gave (every blob read in full).
    pub fn from_loaded(loaded: Loaded) -> Self {
        CatalogFiles {
            loaded,
            reading: BundleReading::Full,
        }
    }

    /// A catalog held in memory: `bytes` are the contents of one file, called
    /// `name` in diagnostics.
    pub fn from_bytes(name: &str, bytes: &[u8]) -> Self {
        CatalogFiles {
            loaded: load::load_bytes(name, bytes),
            reading: BundleReading::Full,
        }
    }

    /// A catalog made in memory (a rendered template, say), with the problems
    /// found making it; counted as one file.
    pub fn from_rendered(config: DeclarativeConfig, diagnostics: Vec<Diagnostic>) -> Self {
        CatalogFiles {
            loaded: load::Loaded {
                config,
                diagnostics,
                files: 1,
                notes: Vec::new(),
            },
            reading: BundleReading::Full,
        }
    }

    /// Notes for the reader about how the input was read (which platform of
    /// a multi-platform image).
    pub fn notes(&self) -> &[String] {
        &self.loaded.notes
    }

    /// Every problem found reading the files: errors and warnings.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.loaded.diagnostics
    }

    /// The entries passed over while reading (links out of the directory,
    /// special files): said even by commands that print no other warning.
    pub fn skipped(&self) -> impl Iterator<Item = &Diagnostic> {
        use olmsat_findings::diagnostic::Rule;
        self.loaded.diagnostics.iter().filter(|d| {
            matches!(
                d.rule,
                Rule::SymlinkOutsideCatalog | Rule::SpecialFileSkipped
            )
        })
    }

    /// Whether any of the [`CatalogFiles::diagnostics`] is an error.
    pub fn has_errors(&self) -> bool {
        self.loaded.has_errors()
    }

    /// The number of files read (standard input counts none).
    pub fn file_count(&self) -> usize {
        self.loaded.files
    }

    /// The blobs read, as written in the files.
    pub fn config(&self) -> &DeclarativeConfig {
        &self.loaded.config
    }

    /// The blobs and the problems found reading them.
    pub fn into_parts(self) -> (DeclarativeConfig, Vec<Diagnostic>) {
        (self.loaded.config, self.loaded.diagnostics)
    }

    /// Build the [`Model`]: packages with their channels and bundles.
    ///
    /// # Errors
    ///
    /// The errors found reading the files, when there are any (a model built
    /// from a part of the catalog would answer questions wrongly).
    pub fn build(self) -> Result<Catalog, Unreadable> {
        if self.has_errors() {
            let errors = self
                .loaded
                .diagnostics
                .into_iter()
                .filter(Diagnostic::is_error)
                .collect();
            return Err(Unreadable { errors });
        }
        let files = self.loaded.files;
        let mut diagnostics = self.loaded.diagnostics;
        let (model, built) = Model::build_reading(self.loaded.config, self.reading);
        diagnostics.extend(built);
        Ok(Catalog {
            model,
            diagnostics,
            files,
        })
    }

    /// Validate with opm's rules: every problem of reading, of building the
    /// model and of the model itself, errors and warnings sorted by file and
    /// line.
    pub fn validate(self) -> Validation {
        let files = self.loaded.files;
        let (model, report) = crate::validate::validate(self.loaded);
        Validation {
            model,
            report,
            files,
        }
    }
}

/// A catalog whose files have errors, so that no model is built from it.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the catalog cannot be read: {} error(s)", errors.len())]
pub struct Unreadable {
    /// The errors, in the order they were found.
    pub errors: Vec<Diagnostic>,
}

/// Why [`Catalog::open`] gave no catalog.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// A path could not be opened at all.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The files have errors.
    #[error(transparent)]
    Unreadable(#[from] Unreadable),
}

/// The outcome of [`CatalogFiles::validate`].
#[derive(Debug)]
pub struct Validation {
    model: Model,
    report: Report,
    files: usize,
}

impl Validation {
    /// Whether the catalog passed (no errors).
    pub fn passed(&self) -> bool {
        self.report.passed()
    }

    /// The errors and warnings.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The model, built from every blob that could be read.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The number of files read.
    pub fn file_count(&self) -> usize {
        self.files
    }

    /// `validate`'s last line: the verdict of `findings` (this catalog's,
    /// after the policy), what was read (files, and standard input when
    /// `stdin`), and the counts.
    pub fn summary(&self, findings: &olmsat_findings::report::Findings, stdin: bool) -> String {
        let verdict = if findings.passed() {
            "valid"
        } else {
            "invalid"
        };
        let read = match (self.files, stdin) {
            (0, true) => "standard input".to_owned(),
            (n, true) => format!("{n} file(s) and standard input"),
            (n, false) => format!("{n} file(s)"),
        };
        format!(
            "{verdict}: {} package(s), {} bundle(s) in {read}; {} error(s), {} warning(s)",
            self.model.packages().len(),
            self.model.bundle_count(),
            findings.errors().count(),
            findings.warnings().count()
        )
    }
}

/// A catalog built into its [`Model`], with the problems found reading and
/// building it (warnings only: a catalog with errors is not built).
#[derive(Debug)]
pub struct Catalog {
    model: Model,
    diagnostics: Vec<Diagnostic>,
    files: usize,
}

impl Catalog {
    /// Read and build the catalogs at `paths` (directories, files, or `-` for
    /// standard input): [`CatalogFiles::read`] then [`CatalogFiles::build`].
    ///
    /// # Errors
    ///
    /// A path that cannot be opened, or files with errors.
    pub fn open<P: AsRef<Path>>(paths: &[P]) -> Result<Self, OpenError> {
        Ok(CatalogFiles::read(paths)?.build()?)
    }

    /// Read and build one package of the catalog at `path` (everything, when
    /// the catalog has no such package): [`CatalogFiles::read_package`] then
    /// [`CatalogFiles::build`]. Enough for upgrade graphs and paths.
    ///
    /// # Errors
    ///
    /// As [`Catalog::open`].
    pub fn open_package(path: &Path, package: &str) -> Result<Self, OpenError> {
        Ok(CatalogFiles::read_package(path, package)?.build()?)
    }

    /// The packages, channels and bundles.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The model, giving up the diagnostics.
    pub fn into_model(self) -> Model {
        self.model
    }

    /// Warnings found reading the files and building the model.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The number of files read.
    pub fn file_count(&self) -> usize {
        self.files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ETCD: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/catalogs/etcd-example"
    );

    #[test]
    fn the_summary_names_what_was_read_and_the_counts() {
        let validation = CatalogFiles::read(&[ETCD]).unwrap().validate();
        let policy = olmsat_findings::report::Policy::default();
        let report = validation.report();
        let findings = policy.apply(report.errors.iter().chain(&report.warnings).cloned());
        let files = validation.file_count();
        let counts = format!(
            "{} package(s), {} bundle(s)",
            validation.model().packages().len(),
            validation.model().bundle_count()
        );
        let line = validation.summary(&findings, false);
        assert!(
            line.starts_with(&format!("valid: {counts} in {files} file(s); ")),
            "{line}"
        );
        let (e, w) = (findings.errors().count(), findings.warnings().count());
        assert!(
            line.ends_with(&format!("; {e} error(s), {w} warning(s)")),
            "{line}"
        );
        let line = validation.summary(&findings, true);
        assert!(
            line.contains(&format!(" in {files} file(s) and standard input; ")),
            "{line}"
        );
        let empty = CatalogFiles::from_loaded(crate::load::Loaded::default()).validate();
        assert!(empty
            .summary(&findings, true)
            .contains(" in standard input; "));
    }

    #[test]
    fn reading_one_package_falls_back_to_everything_for_an_unknown_package() {
        let one = CatalogFiles::read_package(Path::new(ETCD), "etcd").expect("readable");
        assert!(one.config().packages.iter().all(|p| p.name == "etcd"));
        let all = CatalogFiles::read_package(Path::new(ETCD), "no-such-package").expect("readable");
        assert_eq!(
            all.config().packages.len(),
            CatalogFiles::read(&[ETCD])
                .expect("readable")
                .config()
                .packages
                .len()
        );
    }

    #[test]
    fn a_catalog_with_errors_is_not_built() {
        let files = CatalogFiles::from_bytes("bad.json", b"{\"schema\": \"olm.package\"");
        assert!(files.has_errors());
        let err = files.build().expect_err("errors");
        assert!(!err.errors.is_empty());
        assert!(err.errors.iter().all(Diagnostic::is_error));
    }
}
