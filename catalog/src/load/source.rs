//! Sources: the named files loading reads, wherever their bytes come from.
//!
//! Loading never asks where a file came from: a directory walk, one file on
//! disk, standard input, text rendered in memory or a layer of an image all
//! give [`SourceFile`]s, each a name (what locations in diagnostics show) and
//! its [`Content`]. [`load_sources`](super::load_sources) reads a set of them,
//! in parallel, into one config.

use std::borrow::Cow;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use olmsat_findings::diagnostic::Diagnostic;

use olmsat_encoding::limits::MAX_FILE_BYTES;

use super::LoadError;

/// Where a source file's bytes are.
#[derive(Debug, Clone)]
pub enum Content<'a> {
    /// Bytes in memory, borrowed or owned.
    Bytes(Cow<'a, [u8]>),
    /// Bytes in memory shared with others (a file of an image's layers, a
    /// cache): the buffer they were read into, shared, not copied.
    Shared(Arc<Vec<u8>>),
    /// A file on disk, read when it is loaded, on the thread that loads it.
    /// Large files are mapped rather than copied (see
    /// [`load_file`](super::load_file)).
    Path(PathBuf),
}

/// One named file to load.
#[derive(Debug, Clone)]
pub struct SourceFile<'a> {
    /// The name locations in diagnostics show (a path, `<stdin>`, a path
    /// inside an image or a revision, ...).
    pub name: Arc<str>,
    /// The file's bytes, or where to read them.
    pub content: Content<'a>,
}

impl<'a> SourceFile<'a> {
    /// A file whose bytes are in memory.
    pub fn from_bytes(name: impl Into<Arc<str>>, bytes: impl Into<Cow<'a, [u8]>>) -> Self {
        SourceFile {
            name: name.into(),
            content: Content::Bytes(bytes.into()),
        }
    }

    /// A file whose bytes are in memory, shared (the buffer is not copied).
    pub fn from_shared(name: impl Into<Arc<str>>, bytes: Arc<Vec<u8>>) -> Self {
        SourceFile {
            name: name.into(),
            content: Content::Shared(bytes),
        }
    }

    /// A file on disk, named by its path.
    pub fn from_path(path: impl Into<PathBuf>) -> SourceFile<'static> {
        let path = path.into();
        SourceFile {
            name: Arc::from(path.display().to_string()),
            content: Content::Path(path),
        }
    }
}

/// A set of files to load, with the problems met while gathering them (a
/// link that points outside a catalog, a directory that cannot be read):
/// those come first among the diagnostics of what loads.
#[derive(Debug, Clone, Default)]
pub struct Sources<'a> {
    /// The files, in the order their blobs are loaded.
    pub files: Vec<SourceFile<'a>>,
    /// Problems met while gathering the files.
    pub problems: Vec<Diagnostic>,
    /// Notes for the reader about how the files were found (which platform
    /// of a multi-platform image was read).
    pub notes: Vec<String>,
}

/// How catalog paths are read: whether links that leave a directory are
/// followed, and how images are read. Passed by value to every read; there
/// are no process-wide settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Follow symbolic links that leave the directory named (`--follow`);
    /// by default they are skipped and reported.
    pub follow_links: bool,
    /// How images named as catalog paths are read (platform, limits).
    pub image: olmsat_image::Options,
}

impl<'a> Sources<'a> {
    /// No files yet.
    pub fn new() -> Self {
        Sources::default()
    }

    /// Add one file.
    pub fn push(&mut self, file: SourceFile<'a>) {
        self.files.push(file);
    }

    /// Add every file and problem of `other`, after those already here.
    pub fn append(&mut self, other: Sources<'a>) {
        self.files.extend(other.files);
        self.problems.extend(other.problems);
        self.notes.extend(other.notes);
    }
}

impl Sources<'static> {
    /// The files of a catalog path: a directory (walked: every file but
    /// `.indexignore` files and those they exclude, sorted by path), one file,
    /// `-` (standard input, named `<stdin>`), or a catalog image on disk
    /// (`oci:DIR[:REF]`, `oci-archive:FILE[:REF]`, `docker-archive:FILE[:REF]`,
    /// a directory holding an `oci-layout` file; see [`olmsat_image`]), read
    /// as `options` say.
    pub fn from_path(path: &Path, options: &ReadOptions) -> Result<Self, LoadError> {
        if path.as_os_str() == "-" {
            return Self::stdin();
        }
        if let Some(text) = path.to_str() {
            if let Some(image) = olmsat_image::open_arg(text, &options.image)? {
                return Ok(crate::load::image::sources(&image)?);
            }
        }
        let meta = std::fs::metadata(path).map_err(|source| LoadError::Io {
            path: path.display().to_string(),
            source,
        })?;
        if olmsat_io::FileKind::of(meta.file_type()).is_stream() {
            // A pipe named on the command line (`<(…)`): read as a stream.
            let name = path.display().to_string();
            let file = std::fs::File::open(path).map_err(|source| LoadError::Io {
                path: name.clone(),
                source,
            })?;
            let bytes = read_limited(file, &name)?;
            return Ok(Sources {
                files: vec![SourceFile::from_bytes(name, bytes)],
                problems: Vec::new(),
                notes: Vec::new(),
            });
        }
        if !meta.is_dir() {
            return Ok(Sources {
                files: vec![SourceFile::from_path(path)],
                problems: Vec::new(),
                notes: Vec::new(),
            });
        }
        let (paths, problems) = super::walk::walk(path, options.follow_links);
        Ok(Sources {
            files: paths.into_iter().map(SourceFile::from_path).collect(),
            problems,
            notes: Vec::new(),
        })
    }

    /// Standard input, read whole (up to
    /// [`MAX_FILE_BYTES`](olmsat_encoding::limits::MAX_FILE_BYTES)), named `<stdin>`.
    pub fn stdin() -> Result<Self, LoadError> {
        let bytes = read_stdin()?;
        Ok(Sources {
            files: vec![SourceFile::from_bytes(STDIN_NAME, bytes)],
            problems: Vec::new(),
            notes: Vec::new(),
        })
    }
}

/// The name standard input has in locations.
pub const STDIN_NAME: &str = "<stdin>";

impl<'a> FromIterator<SourceFile<'a>> for Sources<'a> {
    fn from_iter<I: IntoIterator<Item = SourceFile<'a>>>(files: I) -> Self {
        Sources {
            files: files.into_iter().collect(),
            problems: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// Read standard input whole, up to [`MAX_FILE_BYTES`] (more is an error).
pub fn read_stdin() -> Result<Vec<u8>, LoadError> {
    read_limited(std::io::stdin().lock(), "-")
}

/// Read `input` whole, up to [`MAX_FILE_BYTES`]; `name` names it in errors.
/// Memory stays within the limit plus a small constant (see
/// [`olmsat_io::read_stream`]).
pub fn read_limited(input: impl Read, name: &str) -> Result<Vec<u8>, LoadError> {
    olmsat_io::read_stream(input, MAX_FILE_BYTES).map_err(|e| match e {
        e if e.is_too_large() => LoadError::TooLarge { path: name.into() },
        olmsat_io::ReadError::Io(source) => LoadError::Io {
            path: name.into(),
            source,
        },
        other => LoadError::Io {
            path: name.into(),
            source: std::io::Error::other(other),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_on_disk_is_named_by_its_path() {
        let f = SourceFile::from_path("a/b/catalog.json");
        assert_eq!(&*f.name, "a/b/catalog.json");
        assert!(matches!(f.content, Content::Path(ref p) if p == Path::new("a/b/catalog.json")));
    }

    #[test]
    fn a_missing_path_is_an_error_naming_it() {
        let e = Sources::from_path(Path::new("no/such/catalog"), &ReadOptions::default())
            .expect_err("missing");
        assert!(e.to_string().starts_with("no/such/catalog: "), "{e}");
    }

    #[test]
    fn sets_keep_their_order_and_problems() {
        let mut s: Sources<'_> = [SourceFile::from_bytes("a", &b"x"[..])]
            .into_iter()
            .collect();
        let mut t = Sources::new();
        t.push(SourceFile::from_shared("b", Arc::new(b"y".to_vec())));
        t.problems.push(Diagnostic::new(
            olmsat_findings::diagnostic::Rule::SymlinkOutsideCatalog,
            "w",
        ));
        s.append(t);
        let names: Vec<&str> = s.files.iter().map(|f| &*f.name).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(s.problems.len(), 1);
    }
}
