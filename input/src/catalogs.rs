//! A set of named catalogs, as `resolve` and `simulate` take them:
//! `--catalog NAME=INPUT` (repeatable) and `--catalogs DIR`, whose
//! subdirectories are catalogs named after them.
//!
//! [`CatalogSet::parse`] names the catalogs (reading nothing but the listing
//! of DIR); [`CatalogSet::load`] reads each once, through [`Input`] with
//! [`Options`], and builds its model. What else a caller needs of a catalog's
//! blobs (OLM v1's view of them, say) is derived from the same read, before
//! the model is built, so that no catalog is read twice.
//!
//! ```
//! use olmsat_input::catalogs::CatalogSet;
//! use olmsat_input::Options;
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/catalogs/etcd-example");
//! let set = CatalogSet::parse(None, &[format!("example={dir}")], false)?;
//! let loaded = set.load(&Options::default(), |_, config| config.bundles.len())?;
//! assert_eq!(loaded.catalogs[0].name, "example");
//! assert!(loaded.catalogs[0].model.package("etcd").is_some());
//! assert!(loaded.catalogs[0].derived > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::{Path, PathBuf};

use olmsat_catalog::declcfg::DeclarativeConfig;
use olmsat_catalog::model::Model;
use olmsat_findings::diagnostic::Diagnostic;
use olmsat_template::error::Failure;

use crate::{Input, InputError, Options};

/// One catalog named on the command line, not yet read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedCatalog {
    /// The catalog's name (what a CatalogSource or ClusterCatalog is called).
    pub name: String,
    /// The path as given (for messages).
    pub path: PathBuf,
}

/// The catalogs named, sorted by name, and a note for each entry of
/// `--catalogs DIR` passed over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogSet {
    /// The catalogs, sorted by name.
    pub catalogs: Vec<NamedCatalog>,
    /// One sentence per entry of DIR passed over (a link that leaves DIR, a
    /// named pipe, socket or device).
    pub notes: Vec<String>,
}

/// One catalog read: its model, and what the caller derived from its blobs.
#[derive(Debug)]
pub struct LoadedCatalog<T> {
    /// The catalog's name.
    pub name: String,
    /// The path as given.
    pub path: PathBuf,
    /// The package/channel/bundle model.
    pub model: Model,
    /// What the caller's function made of the blobs.
    pub derived: T,
}

/// Every catalog of a [`CatalogSet`] read.
#[derive(Debug)]
pub struct LoadedSet<T> {
    /// The catalogs, sorted by name.
    pub catalogs: Vec<LoadedCatalog<T>>,
    /// The set's notes (entries of DIR passed over).
    pub notes: Vec<String>,
    /// Notes of the reads (which platform of an image was read, a bundle
    /// source of a template with errors), in the order read.
    pub read_notes: Vec<String>,
}

/// Why a catalog set could not be named or read.
#[derive(Debug, thiserror::Error)]
pub enum CatalogSetError {
    /// `--catalog` without `=`.
    #[error("--catalog {text:?}: expected NAME=PATH")]
    Malformed {
        /// The argument given.
        text: String,
    },
    /// Neither `--catalogs` nor `--catalog` was given.
    #[error("no catalogs: give --catalogs DIR or --catalog NAME=PATH")]
    NoCatalogs,
    /// DIR cannot be listed.
    #[error("{}: {source}", dir.display())]
    Directory {
        /// The directory.
        dir: PathBuf,
        /// What listing it gave.
        source: std::io::Error,
    },
    /// A catalog's input cannot be opened.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A catalog is a template that does not render.
    #[error("catalog {name:?} ({}) cannot be read", path.display())]
    Template {
        /// The catalog's name.
        name: String,
        /// Its path.
        path: PathBuf,
        /// How rendering failed.
        failure: Failure,
    },
    /// A catalog's files have errors.
    #[error("catalog {name:?} ({}) cannot be read: {} error(s)", path.display(), errors.len())]
    Unreadable {
        /// The catalog's name.
        name: String,
        /// Its path.
        path: PathBuf,
        /// The errors.
        errors: Vec<Diagnostic>,
    },
}

impl CatalogSetError {
    /// Whether the error is a usage error (arguments that name nothing
    /// readable) rather than a catalog that does not read: a template whose
    /// error is the user's, a malformed argument, a path that cannot be
    /// opened.
    pub fn is_usage(&self) -> bool {
        match self {
            CatalogSetError::Template { failure, .. } => failure.error.is_unanswerable(),
            CatalogSetError::Unreadable { .. } => false,
            _ => true,
        }
    }
}

impl CatalogSet {
    /// Name the catalogs of `--catalogs DIR` (each subdirectory, named after
    /// it: a link to a directory inside DIR too, and with `follow_links` any
    /// link to a directory) and of each `--catalog NAME=PATH`, sorted by
    /// name.
    ///
    /// # Errors
    ///
    /// A `--catalog` without `=`, DIR that cannot be listed, no catalog at all.
    pub fn parse(
        dir: Option<&Path>,
        specs: &[String],
        follow_links: bool,
    ) -> Result<CatalogSet, CatalogSetError> {
        let mut set = CatalogSet::default();
        if let Some(dir) = dir {
            set = CatalogSet::in_directory(dir, follow_links)?;
        }
        for c in specs {
            let Some((name, path)) = c.split_once('=') else {
                return Err(CatalogSetError::Malformed { text: c.clone() });
            };
            set.catalogs.push(NamedCatalog {
                name: name.to_owned(),
                path: PathBuf::from(path),
            });
        }
        if set.catalogs.is_empty() {
            return Err(CatalogSetError::NoCatalogs);
        }
        set.catalogs
            .sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
        Ok(set)
    }

    /// The catalogs of `--catalogs DIR` alone, with a note for each entry
    /// passed over.
    ///
    /// # Errors
    ///
    /// DIR cannot be listed.
    pub fn in_directory(dir: &Path, follow_links: bool) -> Result<CatalogSet, CatalogSetError> {
        let found = olmsat_io::subdirectories(dir, follow_links).map_err(|source| {
            CatalogSetError::Directory {
                dir: dir.to_path_buf(),
                source,
            }
        })?;
        let catalogs = found
            .dirs
            .into_iter()
            .map(|p| NamedCatalog {
                name: p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                path: p,
            })
            .collect();
        let notes = found
            .skipped
            .iter()
            .map(|s| {
                let path = s.path.display().to_string();
                let text = match &s.reason {
                    olmsat_io::SkipReason::LinkOutside { target } => format!(
                        "skipped {path}: a symbolic link to {}, outside {}; olmsat does not follow links that leave the directory named (give it with --catalog NAME=PATH to read it)",
                        target.display(),
                        dir.display()
                    ),
                    olmsat_io::SkipReason::NotRegular(kind) => {
                        format!("skipped {path}: a {kind}, not a catalog directory")
                    }
                };
                olmsat_io::terminal_line(&text).into_owned()
            })
            .collect();
        Ok(CatalogSet { catalogs, notes })
    }

    /// The names of the catalogs.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.catalogs.iter().map(|c| c.name.as_str())
    }

    /// Read every catalog once and build its model; `derive` is given each
    /// catalog's name and blobs before the model is built.
    ///
    /// # Errors
    ///
    /// The first catalog that cannot be opened, does not render, or whose
    /// files have errors.
    pub fn load<T>(
        self,
        options: &Options,
        mut derive: impl FnMut(&str, &DeclarativeConfig) -> T,
    ) -> Result<LoadedSet<T>, CatalogSetError> {
        let mut out = LoadedSet {
            catalogs: Vec::with_capacity(self.catalogs.len()),
            notes: self.notes,
            read_notes: Vec::new(),
        };
        for NamedCatalog { name, path } in self.catalogs {
            let files = match Input::from_path(&path)?.read(options) {
                Ok(files) => files,
                Err(InputError::Template(failure)) => {
                    return Err(CatalogSetError::Template {
                        name,
                        path,
                        failure,
                    })
                }
                Err(e) => return Err(e.into()),
            };
            out.read_notes.extend(files.notes().iter().cloned());
            let derived = derive(&name, files.config());
            let catalog = match files.build() {
                Ok(catalog) => catalog,
                Err(unreadable) => {
                    return Err(CatalogSetError::Unreadable {
                        name,
                        path,
                        errors: unreadable.errors,
                    })
                }
            };
            out.catalogs.push(LoadedCatalog {
                name,
                path,
                model: catalog.into_model(),
                derived,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(name: &str) -> String {
        format!("{}/../corpus/catalogs/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn names_are_parsed_and_sorted() {
        let set = CatalogSet::parse(None, &["b=/x".into(), "a=/y".into()], false).unwrap();
        let names: Vec<&str> = set.names().collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(set.catalogs[0].path, PathBuf::from("/y"));
    }

    #[test]
    fn a_malformed_or_empty_set_is_a_usage_error() {
        let e = CatalogSet::parse(None, &["nopath".into()], false).unwrap_err();
        assert_eq!(e.to_string(), "--catalog \"nopath\": expected NAME=PATH");
        assert!(e.is_usage());
        let e = CatalogSet::parse(None, &[], false).unwrap_err();
        assert!(matches!(e, CatalogSetError::NoCatalogs));
        assert!(e.is_usage());
    }

    #[test]
    fn a_directory_names_its_subdirectories() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("community")).unwrap();
        std::fs::create_dir(dir.path().join("certified")).unwrap();
        std::fs::write(dir.path().join("README"), "x").unwrap();
        let set = CatalogSet::parse(Some(dir.path()), &[], false).unwrap();
        let names: Vec<&str> = set.names().collect();
        assert_eq!(names, ["certified", "community"]);
        let e = CatalogSet::parse(Some(&dir.path().join("missing")), &[], false).unwrap_err();
        assert!(matches!(e, CatalogSetError::Directory { .. }) && e.is_usage());
    }

    #[test]
    fn each_catalog_is_read_once_with_what_the_caller_derives() {
        let set = CatalogSet::parse(
            None,
            &[format!("example={}", corpus("etcd-example"))],
            false,
        )
        .unwrap();
        let mut seen = Vec::new();
        let loaded = set
            .load(&Options::default(), |name, config| {
                seen.push(name.to_owned());
                config.packages.len()
            })
            .unwrap();
        assert_eq!(seen, ["example"]);
        assert_eq!(loaded.catalogs.len(), 1);
        assert_eq!(loaded.catalogs[0].derived, 2);
        assert!(loaded.catalogs[0].model.package("etcd").is_some());
    }

    #[test]
    fn a_catalog_with_errors_is_unreadable_not_usage() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("bad.yaml"),
            "schema: olm.package\nname: [\n",
        )
        .unwrap();
        let set =
            CatalogSet::parse(None, &[format!("bad={}", dir.path().display())], false).unwrap();
        let e = set.load(&Options::default(), |_, _| ()).unwrap_err();
        assert!(matches!(e, CatalogSetError::Unreadable { .. }), "{e}");
        assert!(!e.is_usage());
        assert!(e.to_string().starts_with("catalog \"bad\" ("), "{e}");
    }

    #[test]
    fn a_missing_path_is_a_usage_error() {
        let set = CatalogSet::parse(None, &["x=/no/such/catalog".into()], false).unwrap();
        let e = set.load(&Options::default(), |_, _| ()).unwrap_err();
        assert!(e.is_usage(), "{e}");
    }
}
