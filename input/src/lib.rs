//! # olmsat-input
//!
//! The one input layer: a catalog argument, parsed once into an [`Input`], and
//! read with [`Options`] passed by value. Every kind works wherever a catalog
//! is read, with the same answer:
//!
//! - a directory (walked; links that leave it are skipped and reported unless
//!   [`ReadOptions::follow_links`]) or a file;
//! - `-`, standard input;
//! - `git:REV:PATH`, a path in a revision of the repository around
//!   [`Options::repository`] (feature `git`);
//! - a catalog image on disk: `oci:DIR[:REF]`, `oci-archive:FILE[:REF]`,
//!   `docker-archive:FILE[:REF]`, or a directory holding an `oci-layout` file,
//!   read for [`olmsat_image::Options::platform`];
//! - a template file (`olm.template.basic`, `olm.semver`,
//!   `olm.template.substitutes`), rendered in memory with bundles from
//!   [`Options::bundles_from`].
//!
//! ```
//! use olmsat_input::{Input, Options};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(
//!     dir.path().join("catalog.yaml"),
//!     "schema: olm.package\nname: foo\ndefaultChannel: stable\n",
//! )?;
//! let input = Input::parse(&dir.path().display().to_string())?;
//! let files = input.read(&Options::default())?;
//! assert_eq!(files.config().packages[0].name, "foo");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub mod catalogs;
#[cfg(feature = "git")]
pub mod git;
pub mod render;

use std::fmt;
use std::path::{Path, PathBuf};

use olmsat_catalog::load::{self, LoadError, Loaded, Select};
use olmsat_catalog::CatalogFiles;
use olmsat_template::error::Failure;
use olmsat_template::source::BundleSources;

pub use olmsat_catalog::load::ReadOptions;

/// How inputs are read: the same for every input of a command.
#[derive(Debug, Clone)]
pub struct Options {
    /// Links, images.
    pub read: ReadOptions,
    /// Where the bundles of a template named as a catalog are found
    /// (`--bundles-from`), in order.
    pub bundles_from: Vec<PathBuf>,
    /// How such a template is rendered (by default its bundles are migrated
    /// to `olm.csv.metadata`: upgrade graphs do not depend on the format).
    pub template: olmsat_template::Options,
    /// A directory of the repository `git:` inputs are read from.
    pub repository: PathBuf,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            read: ReadOptions::default(),
            bundles_from: Vec::new(),
            template: olmsat_template::Options {
                lookup: olmsat_template::source::LookupOptions { csv_metadata: true },
                ..olmsat_template::Options::default()
            },
            repository: PathBuf::from("."),
        }
    }
}

/// A catalog input as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A directory (walked) or a file.
    Path(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// A path in the tree of a Git revision of the repository the command runs in.
    Git {
        /// The revision (`HEAD`, `origin/main`, a commit, a tag, `HEAD~1`, ...).
        rev: String,
        /// The path inside the repository (empty: the whole tree).
        path: String,
    },
}

/// Why an input could not be read (exit code 2, but for a template that does
/// not render: see [`InputError::is_unanswerable`]).
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The directory or file could not be read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// `git:` without `REV:PATH`.
    #[error("{text:?}: a Git input is written git:REV:PATH (e.g. git:origin/main:catalogs/v4.20, or git:HEAD: for the whole tree)")]
    MalformedGit {
        /// The argument given.
        text: String,
    },
    /// The Git revision or path could not be read.
    #[cfg(feature = "git")]
    #[error(transparent)]
    Git(#[from] git::GitError),
    /// A template named as a catalog does not render.
    #[error(transparent)]
    Template(#[from] Failure),
    /// This build reads no Git revisions.
    #[cfg(not(feature = "git"))]
    #[error("{text:?}: this olmsat was built without Git support (feature \"git\")")]
    NoGit {
        /// The argument given.
        text: String,
    },
}

impl Input {
    /// Read a command-line argument: `-`, `git:REV:PATH`, or a path.
    pub fn parse(text: &str) -> Result<Input, InputError> {
        if text == "-" {
            return Ok(Input::Stdin);
        }
        if let Some(rest) = text.strip_prefix("git:") {
            let Some((rev, path)) = rest.split_once(':') else {
                return Err(InputError::MalformedGit {
                    text: text.to_owned(),
                });
            };
            if rev.is_empty() {
                return Err(InputError::MalformedGit {
                    text: text.to_owned(),
                });
            }
            let path = path.trim_matches('/');
            let path = if path == "." { "" } else { path };
            return Ok(Input::Git {
                rev: rev.to_owned(),
                path: path.to_owned(),
            });
        }
        Ok(Input::Path(PathBuf::from(text)))
    }

    /// [`Input::parse`] for a path argument (a path that is not UTF-8 text is
    /// a path).
    pub fn from_path(path: &Path) -> Result<Input, InputError> {
        match path.to_str() {
            Some(text) => Input::parse(text),
            None => Ok(Input::Path(path.to_path_buf())),
        }
    }

    /// Read the input into catalog files.
    ///
    /// # Errors
    ///
    /// The input cannot be opened (see [`InputError`]). Problems inside its
    /// files are not errors here but [`CatalogFiles::diagnostics`].
    pub fn read(&self, options: &Options) -> Result<CatalogFiles, InputError> {
        Ok(CatalogFiles::from_loaded(self.load(options)?))
    }

    /// Read what questions about one `package` need (see
    /// [`CatalogFiles::package_from`]): on large catalogs, only that
    /// package's blobs are kept.
    ///
    /// # Errors
    ///
    /// As [`Input::read`].
    pub fn read_package(
        &self,
        options: &Options,
        package: &str,
    ) -> Result<CatalogFiles, InputError> {
        match self.held(options)? {
            Held::Loaded(loaded) => Ok(CatalogFiles::from_loaded(loaded)),
            Held::Bytes(bytes) => CatalogFiles::package_from(package, |select| {
                Ok(load::load_bytes_selected(load::STDIN_NAME, &bytes, select))
            }),
            Held::Path(path) => CatalogFiles::package_from(package, |select| {
                Ok(load::load_path_with(&path, select, &options.read)?)
            }),
        }
    }

    /// Load the whole input.
    ///
    /// # Errors
    ///
    /// As [`Input::read`].
    pub fn load(&self, options: &Options) -> Result<Loaded, InputError> {
        Ok(match self.held(options)? {
            Held::Loaded(loaded) => loaded,
            Held::Bytes(bytes) => {
                let mut loaded = load::load_bytes(load::STDIN_NAME, &bytes);
                loaded.files = 0;
                loaded
            }
            Held::Path(path) => load::load_path_with(&path, &Select::All, &options.read)?,
        })
    }

    /// What the input holds, read as far as needed to know its kind: a
    /// template is rendered, standard input read once, a revision loaded; a
    /// path on disk is left to be read with the blobs wanted.
    fn held(&self, options: &Options) -> Result<Held, InputError> {
        match self {
            Input::Stdin => {
                let bytes = load::read_stdin()?;
                match template_text(&bytes) {
                    Some(text) => Ok(Held::Loaded(render(load::STDIN_NAME, text, options)?)),
                    None => Ok(Held::Bytes(bytes)),
                }
            }
            Input::Path(path) => {
                if let Some(loaded) = read_template(path, options)? {
                    return Ok(Held::Loaded(loaded));
                }
                Ok(Held::Path(path.clone()))
            }
            #[cfg(feature = "git")]
            Input::Git { rev, path } => {
                Ok(Held::Loaded(git::load(&options.repository, rev, path)?))
            }
            #[cfg(not(feature = "git"))]
            Input::Git { .. } => Err(InputError::NoGit {
                text: self.to_string(),
            }),
        }
    }

    /// [`Input::load`], except that a Git input whose path is not in its
    /// revision (a pull request that creates the catalog directory, diffed
    /// against a base that predates it) is an empty catalog, returned with a
    /// note saying so. `diff` reads its inputs this way.
    ///
    /// # Errors
    ///
    /// As [`Input::read`].
    pub fn load_or_empty(&self, options: &Options) -> Result<(Loaded, Option<String>), InputError> {
        match self.load(options) {
            Ok(l) => Ok((l, None)),
            Err(e) if e.is_missing_path() => Ok((
                Loaded::default(),
                Some(format!("{e}; compared as an empty catalog")),
            )),
            Err(e) => Err(e),
        }
    }
}

/// An input read as far as its kind needs.
enum Held {
    /// Read whole (a template rendered, a revision).
    Loaded(Loaded),
    /// Standard input's bytes.
    Bytes(Vec<u8>),
    /// A path to read with the blobs wanted.
    Path(PathBuf),
}

/// The text of `bytes` when it is a template.
fn template_text(bytes: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok()?;
    olmsat_template::is_template(text).then_some(text)
}

/// When `path` is a regular file holding a template: the catalog it renders
/// to. A template inside a catalog directory stays an unknown-schema blob, as
/// in opm.
fn read_template(path: &Path, options: &Options) -> Result<Option<Loaded>, InputError> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(None);
    };
    if !meta.is_file() {
        return Ok(None);
    }
    // Only the start is needed to see the schema; read whole when it is one.
    let Ok(bytes) = olmsat_io::read_file(path, load::MAX_FILE_BYTES) else {
        return Ok(None);
    };
    match template_text(&bytes) {
        Some(text) => Ok(Some(render(&path.display().to_string(), text, options)?)),
        None => Ok(None),
    }
}

/// Render a template in memory with the bundles of `options`. Load problems
/// of a bundle source are notes: its readable bundles are used.
fn render(name: &str, text: &str, options: &Options) -> Result<Loaded, InputError> {
    let (sources, with_errors) =
        BundleSources::open_all(&options.bundles_from, None, &options.read)
            .map_err(Failure::from)?;
    let notes = with_errors
        .iter()
        .flat_map(|(p, errors)| {
            errors.iter().map(move |d| {
                format!(
                    "bundle source {} has load errors; its readable bundles are used: {d}",
                    p.display()
                )
            })
        })
        .collect();
    let rendered = olmsat_template::render_text(name, text, None, &sources, &options.template)?;
    Ok(Loaded {
        config: rendered.config,
        diagnostics: rendered.warnings,
        files: 1,
        notes,
    })
}

impl InputError {
    /// Whether the error is a Git input's path missing from its revision
    /// (the revision itself exists).
    pub fn is_missing_path(&self) -> bool {
        #[cfg(feature = "git")]
        if let InputError::Git(e) = self {
            return e.is_missing_path();
        }
        false
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Input::Path(p) => write!(f, "{}", p.display()),
            Input::Stdin => f.write_str("-"),
            Input::Git { rev, path } => write!(f, "git:{rev}:{path}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_inputs() {
        assert_eq!(Input::parse("-").unwrap(), Input::Stdin);
        assert_eq!(
            Input::parse("catalogs/v4.20").unwrap(),
            Input::Path(PathBuf::from("catalogs/v4.20"))
        );
        assert_eq!(
            Input::parse("git:origin/main:catalogs/v4.20/").unwrap(),
            Input::Git {
                rev: "origin/main".into(),
                path: "catalogs/v4.20".into()
            }
        );
        assert_eq!(
            Input::parse("git:HEAD:").unwrap(),
            Input::Git {
                rev: "HEAD".into(),
                path: String::new()
            }
        );
        assert!(matches!(
            Input::parse("git:HEAD"),
            Err(InputError::MalformedGit { .. })
        ));
        assert!(matches!(
            Input::parse("git::x"),
            Err(InputError::MalformedGit { .. })
        ));
    }

    const BASIC: &str = "schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: foo\n  defaultChannel: stable\n- schema: olm.channel\n  package: foo\n  name: stable\n  entries: []\n";

    #[test]
    fn a_template_file_is_rendered_where_a_catalog_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("template.yaml");
        std::fs::write(&file, BASIC).unwrap();
        let input = Input::Path(file);
        let files = input.read(&Options::default()).unwrap();
        assert_eq!(files.config().packages[0].name, "foo");
        assert_eq!(files.config().channels[0].name, "stable");
        let files = input.read_package(&Options::default(), "foo").unwrap();
        assert_eq!(files.config().packages[0].name, "foo");
    }

    #[test]
    fn a_template_in_a_directory_stays_a_blob() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("template.yaml"), BASIC).unwrap();
        let loaded = Input::Path(dir.path().to_path_buf())
            .load(&Options::default())
            .unwrap();
        assert!(loaded.config.packages.is_empty());
        assert_eq!(loaded.config.others.len(), 1);
    }

    #[test]
    fn a_missing_bundle_source_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("template.yaml");
        std::fs::write(&file, BASIC).unwrap();
        let options = Options {
            bundles_from: vec![dir.path().join("missing")],
            ..Options::default()
        };
        let e = Input::Path(file).read(&options).unwrap_err().to_string();
        assert!(e.contains("bundle source ") && e.contains("missing"), "{e}");
    }
}

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
