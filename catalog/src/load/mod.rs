//! Loading file-based catalogs from any source: directories, files, standard
//! input, or named files held in memory.
//!
//! Semantics follow opm's `declcfg.LoadFS`:
//! - a directory is walked recursively; every file is parsed whatever its name
//!   (there is no extension filter), except `.indexignore` files, which hold
//!   gitignore-style patterns scoped to their own directory (`walk`);
//! - a file whose first non-space byte is `{` is a stream of JSON objects, anything
//!   else a YAML stream split on `---` lines (see [`split`]);
//! - blobs of the four known schemas are typed, every other schema is kept as is.
//!
//! Unlike opm, loading never stops at the first problem: every unreadable file and
//! bad blob is reported with its file and line, and the rest still loads. Files are
//! parsed in parallel; the result is in a fixed order (files in the order given,
//! a directory's by path, blobs in file order) whatever the thread timing.
//!
//! Every input comes in as [`Sources`]: named files with their bytes or where
//! to read them ([`SourceFile`]). [`load_sources`] loads any set of them;
//! [`load_path`], [`load_bytes`] and the others are that with a directory walk,
//! a file, standard input or bytes in memory as the producer.
//!
//! The layers, each in its own module: [`source`] (what to read), `walk`,
//! `file` (reading or mapping bytes), `text` (UTF-8 and NUL checks, the line
//! table of large texts), `json_stream` and `yaml_stream` (documents of a
//! file), [`doc`] (a document's fields), [`blob`] (fields to typed blobs),
//! `join` (pieces into one config), with [`fast`] holding every fast reader
//! behind the [`Readers`] choice.

pub mod blob;
pub mod doc;
pub mod fast;
mod file;
mod go_json;
pub(crate) mod go_value;
pub mod ignore;
pub mod image;
mod join;
mod json_stream;
mod parse;
pub mod source;
mod text;
mod walk;
mod yaml_stream;

#[cfg(test)]
mod parity_tests;
#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use crate::declcfg::{BundleReading, DeclarativeConfig};
use doc::DocFields;
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::Diagnostic;

pub use fast::Readers;
pub use file::FileError;
pub use json_stream::JsonError;
pub use olmsat_encoding::limits::{MAX_DEPTH, MAX_FILE_BYTES};
pub use olmsat_encoding::stream::split;
pub use source::{read_limited, read_stdin, Content, ReadOptions, SourceFile, Sources, STDIN_NAME};
pub use text::TextError;
pub use walk::{WalkError, IGNORE_FILE};
pub use yaml_stream::YamlError;

/// Input that could not be opened at all (a usage problem, exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The path does not exist or cannot be inspected.
    #[error("{path}: {source}")]
    Io {
        /// The path given.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The input is larger than [`MAX_FILE_BYTES`].
    #[error("{path}: larger than the {MAX_FILE_BYTES}-byte limit olmsat reads")]
    TooLarge {
        /// The path (or name) given.
        path: String,
    },
    /// The input names an image that cannot be read (or a registry).
    #[error(transparent)]
    Image(#[from] olmsat_image::ImageError),
}

/// What loading produced: every blob that could be read, and every problem found.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Loaded {
    /// The blobs.
    pub config: DeclarativeConfig,
    /// Errors (unreadable files, bad documents, bad blobs) and warnings.
    pub diagnostics: Vec<Diagnostic>,
    /// Number of files read.
    pub files: usize,
    /// Notes for the reader about how the input was read (which platform of
    /// a multi-platform image).
    pub notes: Vec<String>,
}

impl Loaded {
    /// Whether any error was found.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Add what `other` loaded after what is here (blobs, problems, file
    /// count, notes).
    pub fn absorb(&mut self, other: Loaded) {
        self.config.merge(other.config);
        self.diagnostics.extend(other.diagnostics);
        self.files += other.files;
        self.notes.extend(other.notes);
    }

    /// Nothing loaded but one problem.
    fn error_only(d: Diagnostic) -> Loaded {
        Loaded {
            diagnostics: vec![d],
            ..Loaded::default()
        }
    }
}

/// Which blobs loading keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Select {
    /// Every blob.
    #[default]
    All,
    /// Only the blobs of one package: its `olm.package` blob and the blobs whose
    /// `package` is its name. Other documents are parsed (their syntax errors are
    /// still reported) but not turned into blobs, so their own problems are not
    /// reported either. For commands about one package, on large catalogs.
    Package(String),
    /// [`Select::Package`], reading that package's bundles only as far as upgrade
    /// graphs need ([`BundleReading::Graph`]): for `path` and `graph`, which
    /// use no bundle image, related image or property but the version and the
    /// legacy deprecation mark.
    PackageGraph(String),
}

impl Select {
    fn keeps(&self, fields: &DocFields<'_>) -> bool {
        match self {
            Select::All => true,
            Select::Package(name) | Select::PackageGraph(name) => {
                blob::package_of(fields).as_deref() == Some(name.as_str())
            }
        }
    }

    /// [`Select::keeps`] for a document whose package is known.
    fn keeps_package(&self, package: &str) -> bool {
        match self {
            Select::All => true,
            Select::Package(name) | Select::PackageGraph(name) => {
                !package.is_empty() && name == package
            }
        }
    }

    fn bundle_reading(&self) -> BundleReading {
        match self {
            Select::PackageGraph(_) => BundleReading::Graph,
            Select::All | Select::Package(_) => BundleReading::Full,
        }
    }
}

/// How to load: which blobs to keep, with which readers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Which blobs to keep.
    pub select: Select,
    /// Which readers to use.
    pub readers: Readers,
}

impl From<Select> for Options {
    fn from(select: Select) -> Self {
        Options {
            select,
            readers: Readers::default(),
        }
    }
}

/// Load a set of named files into one config, in parallel; the result is in
/// the order of `sources.files` (blobs in file order), after the problems met
/// while gathering them. A file that cannot be read is one error at its name;
/// the others still load.
pub fn load_sources(sources: Sources<'_>, options: &Options) -> Loaded {
    let Sources {
        files,
        problems,
        notes,
    } = sources;
    let one = |f: &SourceFile<'_>| -> Loaded {
        match file::with_bytes(f, |bytes| parse::parse_bytes(&f.name, bytes, options)) {
            Ok(loaded) => loaded,
            Err(e) => Loaded::error_only(
                Diagnostic::new(e.rule(), e.to_string()).at(&Location::new(f.name.clone(), 0)),
            ),
        }
    };
    let results: Vec<Loaded> = if files.len() == 1 {
        files.iter().map(one).collect()
    } else {
        files.par_iter().map(one).collect()
    };
    let mut out = Loaded {
        files: files.len(),
        diagnostics: problems,
        notes,
        ..Loaded::default()
    };
    for r in results {
        out.absorb(r);
    }
    out
}

/// Load one or more catalog paths (directories, files, or `-` for standard input)
/// into one config.
pub fn load_paths<P: AsRef<Path>>(paths: &[P]) -> Result<Loaded, LoadError> {
    load_paths_with(paths, &Select::All, &ReadOptions::default())
}

/// [`load_paths`], keeping only the blobs `select` names, reading as
/// `options` say.
pub fn load_paths_with<P: AsRef<Path>>(
    paths: &[P],
    select: &Select,
    options: &ReadOptions,
) -> Result<Loaded, LoadError> {
    let mut out = Loaded::default();
    for p in paths {
        out.absorb(load_path_with(p.as_ref(), select, options)?);
    }
    Ok(out)
}

/// Load one catalog path: a directory (walked), a file, or `-` (standard input).
pub fn load_path(path: &Path) -> Result<Loaded, LoadError> {
    load_path_selected(path, &Select::All)
}

/// [`load_path`], keeping only the blobs `select` names.
pub fn load_path_selected(path: &Path, select: &Select) -> Result<Loaded, LoadError> {
    load_path_with(path, select, &ReadOptions::default())
}

/// [`load_path_selected`], reading as `options` say (links, images).
pub fn load_path_with(
    path: &Path,
    select: &Select,
    options: &ReadOptions,
) -> Result<Loaded, LoadError> {
    let sources = Sources::from_path(path, options)?;
    let mut out = load_sources(sources, &Options::from(select.clone()));
    if path.as_os_str() == "-" {
        // Standard input is not counted among the files read.
        out.files = 0;
    }
    Ok(out)
}

/// Load one file; `name` is used in locations. Large files are mapped rather
/// than read (see [`Content::Path`]).
pub fn load_file(path: &Path, name: &str) -> Loaded {
    let file = SourceFile {
        name: Arc::from(name),
        content: Content::Path(path.to_path_buf()),
    };
    let mut out = load_sources(Sources::from_iter([file]), &Options::default());
    out.files = 0;
    out
}

/// Load catalog content held in memory; `name` is used in locations.
pub fn load_bytes(name: &str, bytes: &[u8]) -> Loaded {
    load_bytes_with(name, bytes, &Options::default())
}

/// [`load_bytes`], keeping only the blobs `select` names.
pub fn load_bytes_selected(name: &str, bytes: &[u8], select: &Select) -> Loaded {
    load_bytes_with(name, bytes, &Options::from(select.clone()))
}

/// [`load_bytes`] with the given options. Bytes in memory are not counted as
/// a file read.
pub fn load_bytes_with(name: &str, bytes: &[u8], options: &Options) -> Loaded {
    parse::parse_bytes(&Arc::from(name), bytes, options)
}
