//! Loading file-based catalogs from directories, files and streams.
//!
//! Semantics follow opm's `declcfg.LoadFS`:
//! - a directory is walked recursively; every file is parsed whatever its name
//!   (there is no extension filter), except `.indexignore` files, which hold
//!   gitignore-style patterns scoped to their own directory;
//! - a file whose first non-space byte is `{` is a stream of JSON objects, anything
//!   else a YAML stream split on `---` lines (see [`split`]);
//! - blobs of the four known schemas are typed, every other schema is kept as is.
//!
//! Unlike opm, loading never stops at the first problem: every unreadable file and
//! bad blob is reported with its file and line, and the rest still loads. Files are
//! parsed in parallel; the result is in a fixed order (files by path, blobs in file
//! order) whatever the thread timing.
//!
//! Symbolic links: a root given as a link is followed. Inside a catalog, links to
//! files and directories are followed when their target lies inside the catalog
//! root; links pointing outside it are skipped with a warning, and link loops are
//! reported as errors.

pub mod blob;
pub mod doc;
mod fast_json;
pub mod fast_yaml;
mod scan;
pub mod split;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::declcfg::DeclarativeConfig;
use crate::diagnostic::{Diagnostic, Rule};
use crate::location::{LineCounter, LineIndex, Location};
use crate::rawjson::JsonItem;
use blob::{Blob, BundleReading};
use doc::{DocFields, NotAnObject, YamlDoc};

/// Name of the ignore files.
pub const IGNORE_FILE: &str = ".indexignore";

/// The largest file olmsat reads (1 GiB); larger files are refused with an error
/// rather than read into memory.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// Deepest nesting of arrays and objects accepted, in JSON and YAML (below
/// serde_json's own recursion limit, so every accepted value can be re-read).
pub const MAX_DEPTH: usize = 100;

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
}

/// What loading produced: every blob that could be read, and every problem found.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The blobs.
    pub config: DeclarativeConfig,
    /// Errors (unreadable files, bad documents, bad blobs) and warnings.
    pub diagnostics: Vec<Diagnostic>,
    /// Number of files read.
    pub files: usize,
}

impl Loaded {
    /// Whether any error was found.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    fn absorb(&mut self, other: Loaded) {
        self.config.merge(other.config);
        self.diagnostics.extend(other.diagnostics);
        self.files += other.files;
    }
}

/// Load one or more catalog paths (directories, files, or `-` for standard input)
/// into one config.
pub fn load_paths<P: AsRef<Path>>(paths: &[P]) -> Result<Loaded, LoadError> {
    let mut out = Loaded::default();
    for p in paths {
        out.absorb(load_path(p.as_ref())?);
    }
    Ok(out)
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

/// Load one catalog path: a directory (walked), a file, or `-` (standard input).
pub fn load_path(path: &Path) -> Result<Loaded, LoadError> {
    load_path_selected(path, &Select::All)
}

/// Read standard input whole, up to [`MAX_FILE_BYTES`] (more is an error).
pub fn read_stdin() -> Result<Vec<u8>, LoadError> {
    read_limited(std::io::stdin().lock(), "-")
}

/// Read `input` whole, up to [`MAX_FILE_BYTES`]; `name` names it in errors.
pub fn read_limited(input: impl Read, name: &str) -> Result<Vec<u8>, LoadError> {
    let mut text = Vec::new();
    input
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut text)
        .map_err(|source| LoadError::Io {
            path: name.into(),
            source,
        })?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(LoadError::Io {
            path: name.into(),
            source: std::io::Error::other(format!(
                "larger than the {MAX_FILE_BYTES}-byte limit olmsat reads"
            )),
        });
    }
    Ok(text)
}

/// [`load_path`], keeping only the blobs `select` names.
pub fn load_path_selected(path: &Path, select: &Select) -> Result<Loaded, LoadError> {
    if path.as_os_str() == "-" {
        let text = read_stdin()?;
        return Ok(load_bytes_selected("<stdin>", &text, select));
    }
    let meta = std::fs::metadata(path).map_err(|source| LoadError::Io {
        path: path.display().to_string(),
        source,
    })?;
    if !meta.is_dir() {
        let mut out = load_file_selected(path, &path.display().to_string(), select);
        out.files = 1;
        return Ok(out);
    }
    let (files, mut diagnostics) = walk(path);
    let results: Vec<Loaded> = files
        .par_iter()
        .map(|f| load_file_selected(f, &f.display().to_string(), select))
        .collect();
    let mut out = Loaded {
        files: files.len(),
        ..Loaded::default()
    };
    for r in results {
        out.absorb(r);
    }
    diagnostics.append(&mut out.diagnostics);
    out.diagnostics = diagnostics;
    Ok(out)
}

/// The files of a catalog directory, sorted by path, with problems met on the way.
fn walk(root: &Path) -> (Vec<PathBuf>, Vec<Diagnostic>) {
    let problems: Arc<Mutex<Vec<Diagnostic>>> = Arc::default();
    let canonical_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut wb = ignore::WalkBuilder::new(root);
    wb.standard_filters(false)
        .add_custom_ignore_filename(IGNORE_FILE)
        .follow_links(true)
        .sort_by_file_path(|a, b| a.cmp(b));
    {
        let problems = Arc::clone(&problems);
        let canonical_root = canonical_root.clone();
        wb.filter_entry(move |e| {
            if !e.path_is_symlink() {
                return true;
            }
            match std::fs::canonicalize(e.path()) {
                Ok(target) if target.starts_with(&canonical_root) => true,
                Ok(target) => {
                    if let Ok(mut p) = problems.lock() {
                        p.push(
                            Diagnostic::new(
                                Rule::SymlinkOutsideCatalog,
                                format!(
                                    "skipped: symbolic link points outside the catalog ({})",
                                    target.display()
                                ),
                            )
                            .at(&Location::new(Arc::from(e.path().display().to_string()), 0)),
                        );
                    }
                    false
                }
                Err(err) => {
                    if let Ok(mut p) = problems.lock() {
                        p.push(
                            Diagnostic::new(
                                Rule::Unreadable,
                                format!("cannot follow symbolic link: {err}"),
                            )
                            .at(&Location::new(Arc::from(e.path().display().to_string()), 0)),
                        );
                    }
                    false
                }
            }
        });
    }
    let mut files = Vec::new();
    let mut diags = Vec::new();
    for entry in wb.build() {
        match entry {
            Ok(e) => {
                let is_dir = e.file_type().is_some_and(|t| t.is_dir());
                if is_dir || e.file_name() == IGNORE_FILE {
                    continue;
                }
                files.push(e.into_path());
            }
            Err(err) => diags.push(walk_error(&err)),
        }
    }
    if let Ok(mut p) = problems.lock() {
        diags.append(&mut p);
    }
    (files, diags)
}

fn walk_error(err: &ignore::Error) -> Diagnostic {
    fn inner(err: &ignore::Error) -> (Option<&Path>, String) {
        match err {
            ignore::Error::WithPath { path, err } => (Some(path.as_path()), inner(err).1),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                inner(err)
            }
            ignore::Error::Loop { ancestor, child } => (
                Some(child.as_path()),
                format!("symbolic link loop: points back to {}", ancestor.display()),
            ),
            ignore::Error::Io(e) => (None, e.to_string()),
            other => (None, other.to_string()),
        }
    }
    let (path, msg) = inner(err);
    let d = Diagnostic::new(Rule::Unreadable, msg);
    match path {
        Some(p) => d.at(&Location::new(Arc::from(p.display().to_string()), 0)),
        None => d,
    }
}

/// Files at least this large are mapped into memory instead of copied.
const MAP_FILE_BYTES: u64 = 1 << 20;

/// Mappings at least this large are undone on another thread.
const UNMAP_ASIDE_BYTES: usize = 16 << 20;

/// Load one file.
///
/// Large files are mapped rather than read: the text then lives in the page
/// cache, with no copy and no fresh memory to fill. As with every tool that maps
/// files, a file truncated by another process while olmsat reads it can end the
/// process (SIGBUS); catalogs are not edited while they are validated.
pub fn load_file(path: &Path, name: &str) -> Loaded {
    load_file_selected(path, name, &Select::All)
}

fn load_file_selected(path: &Path, name: &str, select: &Select) -> Loaded {
    let loc = Location::new(Arc::from(name), 0);
    let read_error = |e: std::io::Error| {
        error_only(Diagnostic::new(Rule::Unreadable, format!("cannot read file: {e}")).at(&loc))
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return read_error(e),
    };
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if size > MAX_FILE_BYTES {
        return error_only(
            Diagnostic::new(
                Rule::FileTooLarge,
                format!(
                "file is {size} bytes, larger than the {MAX_FILE_BYTES}-byte limit olmsat reads"
            ),
            )
            .at(&loc),
        );
    }
    if size >= MAP_FILE_BYTES {
        // SAFETY: the mapping is only read, and only while `map` lives; see the
        // note above on files truncated by others meanwhile.
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            let loaded = load_bytes_selected(name, &map, select);
            // Nothing loaded borrows the text. Undoing a large mapping takes
            // milliseconds (each page is unmapped in turn): it is done on
            // another thread while the caller goes on.
            if map.len() >= UNMAP_ASIDE_BYTES {
                rayon::spawn(move || drop(map));
            }
            return loaded;
        }
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    match (&file).take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes) {
        Ok(_) if bytes.len() as u64 <= MAX_FILE_BYTES => load_bytes_selected(name, &bytes, select),
        Ok(_) => error_only(
            Diagnostic::new(
                Rule::FileTooLarge,
                format!("file is larger than the {MAX_FILE_BYTES}-byte limit olmsat reads"),
            )
            .at(&loc),
        ),
        Err(e) => read_error(e),
    }
}

fn error_only(d: Diagnostic) -> Loaded {
    Loaded {
        diagnostics: vec![d],
        ..Loaded::default()
    }
}

/// Load catalog content held in memory; `name` is used in locations.
pub fn load_bytes(name: &str, bytes: &[u8]) -> Loaded {
    load_bytes_selected(name, bytes, &Select::All)
}

/// [`load_bytes`], keeping only the blobs `select` names.
pub fn load_bytes_selected(name: &str, bytes: &[u8], select: &Select) -> Loaded {
    load_bytes_reading(name, bytes, select, true)
}

/// [`load_bytes`] with every JSON document read by the general reader (none by
/// [`fast_json`]): for tests and fuzzing, which compare the two.
#[doc(hidden)]
pub fn load_bytes_general(name: &str, bytes: &[u8]) -> Loaded {
    load_bytes_reading(name, bytes, &Select::All, false)
}

fn load_bytes_reading(name: &str, bytes: &[u8], select: &Select, fast: bool) -> Loaded {
    let file: Arc<str> = Arc::from(name);
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let (text, line_table) = match checked_text(bytes) {
        Some(t) => (t.text, t.lines),
        None => return not_text(file, bytes),
    };
    let mut out = Loaded::default();
    // Each document becomes a blob as soon as it is read, while its text is
    // still in the cache.
    let convert = |d: DocResult<'_>| -> Option<Converted> {
        match d {
            Err(e) => Some((Err(*e), Vec::new())),
            Ok((fields, _, _)) if !select.keeps(&fields) => None,
            Ok((fields, loc, warn)) => {
                let mut warnings: Vec<Diagnostic> = warn.into_iter().map(|w| *w).collect();
                let r = blob::to_blob_ruled(fields, &loc, &mut warnings, select.bundle_reading())
                    .map_err(|(rule, m)| Diagnostic::new(rule, m).at(&loc));
                Some((r, warnings))
            }
        }
    };
    // A file that looks like JSON but is not is read as YAML when every
    // document then reads.
    let all_yaml = |text: &str| -> Option<Vec<PieceBlobs>> {
        let docs = yaml_docs(&file, text).ok()?;
        if docs.iter().any(|r| r.is_err()) {
            return None;
        }
        let converted: Vec<Converted> = docs.into_par_iter().filter_map(convert).collect();
        Some(vec![PieceBlobs::from_iter(converted)])
    };
    let reading = select.bundle_reading();
    let convert_json = |d: JsonRead<'_>| -> Option<Converted> {
        match d {
            JsonRead::Doc(d) => convert(d),
            JsonRead::Fast(doc, _) if !select.keeps_package(doc.package) => None,
            JsonRead::Fast(doc, loc) => Some((
                doc.into_blob(&loc, reading)
                    .map_err(|m| Diagnostic::new(Rule::InvalidBlob, m).at(&loc)),
                Vec::new(),
            )),
        }
    };
    // In pieces, as read, each sorted into its lists at once.
    let pieces: Vec<PieceBlobs> = if split::looks_like_json(text) {
        match json_docs_map(&file, text, line_table.as_ref(), fast, &convert_json) {
            Ok(c) => c,
            Err(json_err) => all_yaml(text)
                .unwrap_or_else(|| vec![PieceBlobs::from_iter([(Err(*json_err), Vec::new())])]),
        }
    } else {
        match yaml_docs(&file, text) {
            Ok(d) => {
                let converted: Vec<Converted> = d.into_par_iter().filter_map(convert).collect();
                vec![PieceBlobs::from_iter(converted)]
            }
            Err(e) => vec![PieceBlobs::from_iter([(Err(*e), Vec::new())])],
        }
    };
    PieceBlobs::join(pieces, &mut out);
    out
}

/// The blobs and diagnostics of one piece of a file, in input order.
#[derive(Default)]
struct PieceBlobs {
    config: DeclarativeConfig,
    diagnostics: Vec<Diagnostic>,
}

impl Extend<Converted> for PieceBlobs {
    fn extend<I: IntoIterator<Item = Converted>>(&mut self, items: I) {
        for (r, mut w) in items {
            self.diagnostics.append(&mut w);
            match r {
                Ok(Blob::Package(p)) => self.config.packages.push(p),
                Ok(Blob::Channel(c)) => self.config.channels.push(c),
                Ok(Blob::Bundle(b)) => self.config.bundles.push(b),
                Ok(Blob::Deprecation(d)) => self.config.deprecations.push(d),
                Ok(Blob::Other(m)) => self.config.others.push(m),
                Err(d) => self.diagnostics.push(d),
            }
        }
    }
}

impl FromIterator<Converted> for PieceBlobs {
    fn from_iter<I: IntoIterator<Item = Converted>>(items: I) -> Self {
        let mut p = PieceBlobs::default();
        p.extend(items);
        p
    }
}

impl PieceBlobs {
    /// Append the pieces, in order, to `out`; each list is made at its final
    /// size (one piece's lists are taken as they are).
    fn join(pieces: Vec<PieceBlobs>, out: &mut Loaded) {
        let config = &mut out.config;
        if pieces.len() == 1 {
            for p in pieces {
                config.merge(p.config);
                out.diagnostics.extend(p.diagnostics);
            }
            return;
        }
        let mut lists: Vec<DeclarativeConfig> = Vec::with_capacity(pieces.len());
        for p in pieces {
            lists.push(p.config);
            out.diagnostics.extend(p.diagnostics);
        }
        /// One list of every piece.
        fn take<T>(
            lists: &mut [DeclarativeConfig],
            list: fn(&mut DeclarativeConfig) -> &mut Vec<T>,
        ) -> Vec<Vec<T>> {
            lists.iter_mut().map(|c| std::mem::take(list(c))).collect()
        }
        let joined = DeclarativeConfig {
            packages: concat(take(&mut lists, |c| &mut c.packages)),
            channels: concat(take(&mut lists, |c| &mut c.channels)),
            bundles: concat(take(&mut lists, |c| &mut c.bundles)),
            deprecations: concat(take(&mut lists, |c| &mut c.deprecations)),
            others: concat(take(&mut lists, |c| &mut c.others)),
        };
        config.merge(joined);
    }
}

/// The lists one after another, in one list made at its final size. Long
/// lists are moved on all threads, each piece into its own stretch: the
/// memory of a large catalog's blobs is then first touched by both cores.
fn concat<T: Send>(lists: Vec<Vec<T>>) -> Vec<T> {
    let total: usize = lists.iter().map(Vec::len).sum();
    let mut out: Vec<T> = Vec::with_capacity(total);
    if total < PARALLEL_JOIN_ITEMS {
        for mut l in lists {
            out.append(&mut l);
        }
        return out;
    }
    let mut rest = &mut out.spare_capacity_mut()[..total];
    let mut stretches = Vec::with_capacity(lists.len());
    for l in &lists {
        let (stretch, tail) = rest.split_at_mut(l.len());
        stretches.push(stretch);
        rest = tail;
    }
    stretches
        .into_par_iter()
        .zip(lists.into_par_iter())
        .for_each(|(stretch, list)| {
            for (slot, item) in stretch.iter_mut().zip(list) {
                slot.write(item);
            }
        });
    // SAFETY: the stretches cover the first `total` slots, one per list, each
    // as long as its list, and every slot of a stretch was written with an
    // item of its list above.
    unsafe { out.set_len(total) };
    out
}

/// Lists joined from pieces are moved on all threads from this many items.
const PARALLEL_JOIN_ITEMS: usize = 4096;

/// Text checked by [`checked_text`], with, for a large text, its newlines
/// counted on the way.
struct CheckedText<'a> {
    text: &'a str,
    lines: Option<LineTable>,
}

/// The newlines of a text counted block by block, so that the line of any
/// offset is found without counting from the start.
#[derive(Debug)]
struct LineTable {
    /// Where each block starts (the first at 0), ascending.
    starts: Vec<usize>,
    /// How many newlines come before each block.
    before: Vec<usize>,
}

impl LineTable {
    /// How many newlines of `text` (the text the table was made for) come
    /// before `offset`.
    fn newlines_before(&self, text: &[u8], offset: usize) -> usize {
        let block = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let (start, before) = match (self.starts.get(block), self.before.get(block)) {
            (Some(&s), Some(&b)) if s <= offset => (s, b),
            _ => (0, 0),
        };
        before + memchr::memchr_iter(b'\n', &text[start..offset.min(text.len())]).count()
    }
}

/// Large texts are checked in blocks about this long: each is read for UTF-8,
/// NUL bytes and newlines while it is in the cache.
const CHECK_BLOCK_BYTES: usize = 64 << 10;

/// `bytes` as text, when they are UTF-8 without NUL bytes. Large inputs are
/// checked in pieces on all threads (the first pass over a mapped file also
/// maps its pages in), and their newlines counted in the same pass.
fn checked_text(bytes: &[u8]) -> Option<CheckedText<'_>> {
    if bytes.len() < PARALLEL_JSON_BYTES {
        return std::str::from_utf8(bytes)
            .ok()
            .filter(|t| memchr::memchr(0, t.as_bytes()).is_none())
            .map(|text| CheckedText { text, lines: None });
    }
    let starts = piece_bounds(bytes, rayon::current_num_threads().max(1) * 4, b"\n");
    // Per piece, its blocks: (start, newlines), or `None` when one is not text.
    let pieces: Vec<Option<Vec<(usize, usize)>>> = starts
        .par_windows(2)
        .map(|w| {
            let mut blocks = Vec::with_capacity((w[1] - w[0]) / CHECK_BLOCK_BYTES + 1);
            let mut start = w[0];
            while start < w[1] {
                let mut end = (start + CHECK_BLOCK_BYTES).min(w[1]);
                // Back to the start of a character (a character is at most
                // four bytes: any longer run of continuation bytes is not
                // UTF-8, and the block as it is fails).
                let cut = end;
                while end < w[1] && end > start && end + 4 > cut && bytes[end] & 0xc0 == 0x80 {
                    end -= 1;
                }
                if end == start || end + 4 <= cut {
                    end = cut;
                }
                let block = &bytes[start..end];
                if std::str::from_utf8(block).is_err() || memchr::memchr(0, block).is_some() {
                    return None;
                }
                blocks.push((start, memchr::memchr_iter(b'\n', block).count()));
                start = end;
            }
            Some(blocks)
        })
        .collect();
    let mut table = LineTable {
        starts: Vec::new(),
        before: Vec::new(),
    };
    let mut newlines = 0usize;
    for (start, count) in pieces
        .into_iter()
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .flatten()
    {
        table.starts.push(start);
        table.before.push(newlines);
        newlines += count;
    }
    // SAFETY: the blocks cover `bytes` and each is valid UTF-8, so every
    // boundary between two is a character boundary (a block that ends inside
    // a character is not valid UTF-8) and the whole is valid UTF-8.
    let text = unsafe { std::str::from_utf8_unchecked(bytes) };
    Some(CheckedText {
        text,
        lines: Some(table),
    })
}

/// Where to cut `bytes` into about `pieces` pieces: 0, then just after the
/// `\n` of the first `separator` (which starts with `\n`) at or after each
/// even share, then the end. Strictly increasing.
fn piece_bounds(bytes: &[u8], pieces: usize, separator: &[u8]) -> Vec<usize> {
    let mut bounds = vec![0usize];
    for i in 1..pieces {
        let from = (bytes.len() / pieces * i).max(bounds[bounds.len() - 1] + 1);
        let Some(at) = bytes
            .get(from..)
            .and_then(|rest| memchr::memmem::find(rest, separator))
        else {
            break;
        };
        bounds.push(from + at + 1);
    }
    bounds.push(bytes.len());
    bounds
}

/// The error for bytes [`checked_text`] refused: invalid UTF-8 (or binary
/// content), or a NUL byte, at its line and column.
fn not_text(file: Arc<str>, bytes: &[u8]) -> Loaded {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let valid = &bytes[..e.valid_up_to()];
            let idx = LineIndex::new(std::str::from_utf8(valid).unwrap_or(""));
            let (line, col) = idx.line_col(valid.len());
            let msg = if bytes.contains(&0) {
                "not a text file (binary content); exclude it with an .indexignore file".to_owned()
            } else {
                format!("invalid UTF-8 at byte {}", e.valid_up_to())
            };
            return error_only(
                Diagnostic::new(Rule::NotText, msg).at(&Location::new(file, line).at(line, col)),
            );
        }
    };
    let pos = memchr::memchr(0, text.as_bytes()).unwrap_or(text.len());
    let (line, col) = LineIndex::new(text).line_col(pos);
    error_only(
        Diagnostic::new(
            Rule::NotText,
            "not a text file (NUL byte); exclude it with an .indexignore file",
        )
        .at(&Location::new(file, line).at(line, col)),
    )
}

type DocResult<'a> = Result<(DocFields<'a>, Location, Option<Box<Diagnostic>>), Box<Diagnostic>>;

/// A document as the JSON reader hands it on: read by serde_json into fields
/// (or refused), or read whole by the fast reader.
#[derive(Debug)]
enum JsonRead<'a> {
    Doc(DocResult<'a>),
    Fast(fast_json::FastDoc<'a>, Location),
}

/// A document made a blob (or the error that stopped it), with its warnings.
type Converted = (Result<Blob, Diagnostic>, Vec<Diagnostic>);

fn not_object(kind: NotAnObject, loc: &Location) -> Box<Diagnostic> {
    let hint = if kind.0 == "array" {
        " (a catalog file holds objects one after another, not a JSON array)"
    } else {
        ""
    };
    Box::new(
        Diagnostic::new(
            Rule::NotAnObject,
            format!(
                "json: cannot unmarshal {} into Go value of type map[string]interface {{}}{hint}",
                kind.0
            ),
        )
        .at(loc),
    )
}

/// JSON files at least this large are read in pieces in parallel.
const PARALLEL_JSON_BYTES: usize = 4 << 20;

/// Split a JSON stream into documents, reading each object's members in the same
/// pass (values borrowed from `text`). Fails (for the YAML fallback) when the
/// first or second value cannot be decoded.
#[cfg(test)]
fn json_docs<'a>(file: &Arc<str>, text: &'a str) -> Result<Vec<JsonRead<'a>>, Box<Diagnostic>> {
    json_docs_map::<_, Vec<_>>(file, text, None, true, &Some)
        .map(|pieces| pieces.into_iter().flatten().collect())
}

/// [`json_docs`], passing each document through `map` as soon as it is read;
/// the results come in pieces, in order.
fn json_docs_map<'a, T, C: Default + Extend<T> + Send>(
    file: &Arc<str>,
    text: &'a str,
    lines: Option<&LineTable>,
    fast: bool,
    map: &(impl Fn(JsonRead<'a>) -> Option<T> + Sync),
) -> Result<Vec<C>, Box<Diagnostic>> {
    if text.len() >= PARALLEL_JSON_BYTES {
        if let Some(pieces) = json_docs_parallel(file, text, lines, fast, map) {
            return Ok(pieces);
        }
    }
    let docs = json_docs_in(
        file,
        text,
        0..text.len(),
        LineCounter::new(text),
        false,
        fast,
        map,
    )?;
    Ok(vec![docs])
}

/// Read a large JSON stream in pieces on all threads.
///
/// Pieces start at a `{` that begins a line. A JSON string cannot hold a raw
/// newline, so such a brace is always structural, but it may open an object
/// nested inside a document rather than a document. Then the piece before it
/// ends inside an unfinished value and fails to parse; any failure sends the
/// whole file to the sequential reader, so the result (documents, lines and
/// errors) is exactly the sequential one.
fn json_docs_parallel<'a, T, C: Default + Extend<T> + Send>(
    file: &Arc<str>,
    text: &'a str,
    lines: Option<&LineTable>,
    fast: bool,
    map: &(impl Fn(JsonRead<'a>) -> Option<T> + Sync),
) -> Option<Vec<C>> {
    let bytes = text.as_bytes();
    let starts = piece_bounds(bytes, rayon::current_num_threads().max(1) * 8, b"\n{");
    let ranges: Vec<std::ops::Range<usize>> = starts.windows(2).map(|w| w[0]..w[1]).collect();
    // Each piece's first line: from the newlines counted when the text was
    // checked, or counted here.
    let first_lines: Vec<usize> = match lines {
        Some(table) => ranges
            .iter()
            .map(|r| table.newlines_before(bytes, r.start))
            .collect(),
        None => {
            let newlines: Vec<usize> = ranges
                .par_iter()
                .map(|r| memchr::memchr_iter(b'\n', &bytes[r.clone()]).count())
                .collect();
            let mut first_lines = Vec::with_capacity(ranges.len());
            let mut line = 0usize;
            for n in &newlines {
                first_lines.push(line);
                line += n;
            }
            first_lines
        }
    };
    let parts: Vec<Option<C>> = ranges
        .into_par_iter()
        .zip(first_lines)
        .map(|(r, line)| {
            let lines = LineCounter::resume(text, r.start, line);
            json_docs_in(file, text, r, lines, true, fast, map).ok()
        })
        .collect();
    parts.into_iter().collect()
}

/// Read the JSON documents in `range` of `text`. With `strict`, any invalid
/// JSON is an error; otherwise it ends the stream with an error document,
/// unless it comes in the first two values (then the file may be YAML).
///
/// With `fast`, bundles and channels of the usual shape are read by
/// [`fast_json`]; every other document, and any the fast reader declines, by
/// serde_json.
fn json_docs_in<'a, T, C: Default + Extend<T>>(
    file: &Arc<str>,
    text: &'a str,
    range: std::ops::Range<usize>,
    mut lines: LineCounter<'a>,
    strict: bool,
    fast: bool,
    map: &impl Fn(JsonRead<'a>) -> Option<T>,
) -> Result<C, Box<Diagnostic>> {
    let base = range.start;
    let piece = &text[range];
    let bytes = piece.as_bytes();
    let mut out = C::default();
    // Documents read (some may be mapped to nothing).
    let mut read = 0usize;
    let mut pos = 0usize;
    loop {
        while bytes
            .get(pos)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            pos += 1;
        }
        if pos >= bytes.len() {
            break;
        }
        let (line, col) = lines.line_col(base + pos);
        let loc = Location::new(file.clone(), line).at(line, col);
        if fast && bytes[pos] == b'{' {
            if let Some((doc, end)) = fast_json::read(piece, pos, base, &mut lines) {
                read += 1;
                pos = end;
                out.extend(map(JsonRead::Fast(doc, loc)));
                continue;
            }
        }
        // One value with serde_json, from where the fast reader stopped.
        let rest = &piece[pos..];
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<JsonItem<'a>>();
        match stream.next() {
            None => break,
            Some(Ok(item)) => {
                pos += stream.byte_offset();
                read += 1;
                out.extend(map(JsonRead::Doc(json_item(item, text, &mut lines, loc))));
            }
            Some(Err(e)) => {
                // serde_json counts from `rest`, which starts at `line`, `col`.
                let err_line = match e.line() {
                    0 => 0,
                    l => line as usize + l - 1,
                };
                let err_col = if e.line() <= 1 {
                    e.column() + (col as usize).saturating_sub(1)
                } else {
                    e.column()
                };
                let d = Diagnostic::new(
                    Rule::ParseError,
                    format!("invalid JSON: {}", strip_json_position(&e)),
                )
                .at(&Location::new(file.clone(), to_u32_line(err_line))
                    .at(to_u32_line(err_line), to_u32_line(err_col)));
                if strict || read <= 1 {
                    return Err(Box::new(d));
                }
                out.extend(map(JsonRead::Doc(Err(Box::new(d)))));
                break;
            }
        }
    }
    Ok(out)
}

/// A document serde_json read, checked for numbers Go refuses and for depth,
/// made into fields.
fn json_item<'a>(
    item: JsonItem<'a>,
    text: &str,
    lines: &mut LineCounter<'_>,
    loc: Location,
) -> DocResult<'a> {
    let members = match item {
        JsonItem::Object(m) => m,
        JsonItem::Other(kind) => return Err(not_object(NotAnObject(kind), &loc)),
    };
    let mut depth = 1;
    let mut out_of_range = None;
    for (_, v) in &members {
        let found = crate::rawjson::scan(v.get());
        depth = depth.max(1 + found.depth);
        out_of_range = out_of_range.or(found.out_of_range);
    }
    let refused = match out_of_range {
        // opm decodes every blob into Go values first; this is its error.
        Some(n) => Some(format!(
            "json: cannot unmarshal number {n} into Go value of type float64"
        )),
        None => (depth > MAX_DEPTH)
            .then(|| format!("JSON nested deeper than {MAX_DEPTH} levels; olmsat refuses it")),
    };
    if let Some(message) = refused {
        return Err(Box::new(
            Diagnostic::new(Rule::ParseError, message).at(&loc),
        ));
    }
    Ok((doc::json_doc(members, text, lines), loc, None))
}

fn to_u32_line(n: usize) -> u32 {
    crate::location::to_u32(n)
}

fn strip_json_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_owned(),
        None => s,
    }
}

/// The YAML options every olmsat reader uses: the depth and document budget, no
/// snippets in errors, and optionally last-wins duplicate keys.
pub(crate) fn yaml_options(duplicates_last_wins: bool) -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = MAX_DEPTH;
    budget.max_documents = 1;
    let mut opts = serde_saphyr::Options::default();
    opts.budget = Some(budget);
    opts.with_snippet = false;
    if duplicates_last_wins {
        opts.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::LastWins;
    }
    opts
}

/// Split a YAML stream and parse its documents in parallel.
fn yaml_docs(file: &Arc<str>, text: &str) -> Result<Vec<DocResult<'static>>, Box<Diagnostic>> {
    let chunks = split::split_yaml(text).map_err(|b| {
        Box::new(
            Diagnostic::new(
                Rule::ParseError,
                format!("invalid Yaml document separator: {}", b.trailing),
            )
            .at(&Location::new(file.clone(), b.line)),
        )
    })?;
    Ok(chunks.par_iter().map(|c| yaml_doc(file, c)).collect())
}

fn yaml_doc(file: &Arc<str>, c: &split::Chunk<'_>) -> DocResult<'static> {
    let loc = Location::new(file.clone(), split::first_content_line(c));
    if split::is_blank_or_comments(c.text) {
        return Err(Box::new(
            Diagnostic::new(Rule::MissingSchema,
                "object '' is missing root schema field (this YAML document holds only comments or blank lines; opm rejects it)",
            )
            .at(&loc),
        ));
    }
    // Catalog YAML almost always stays within the subset the fast reader handles;
    // anything else (and every error) goes to the general parser.
    let parsed = match fast_yaml::parse_document(c.text) {
        Some(d) => Ok((d, None)),
        None => general_yaml_doc(file, c),
    };
    match parsed {
        Ok((d, warn)) => {
            let warn = warn.map(Box::new);
            let fields = d
                .into_fields(c.first_line)
                .map_err(|k| not_object(k, &loc))?;
            Ok((fields, loc, warn))
        }
        Err(e) => Err(Box::new(yaml_error(file, c, &e, Rule::ParseError, ""))),
    }
}

/// Parse a document with the general YAML parser; a duplicate key is a warning
/// (the last value wins, as with opm).
fn general_yaml_doc(
    file: &Arc<str>,
    c: &split::Chunk<'_>,
) -> Result<(YamlDoc, Option<Diagnostic>), serde_saphyr::Error> {
    match serde_saphyr::from_str_with_options::<YamlDoc>(c.text, yaml_options(false)) {
        Ok(d) => Ok((d, None)),
        Err(e) if is_duplicate_key(&e) => {
            let warn = yaml_error(
                file,
                c,
                &e,
                Rule::YamlDuplicateKey,
                "duplicate mapping key; the last value is used, as opm does",
            );
            serde_saphyr::from_str_with_options::<YamlDoc>(c.text, yaml_options(true))
                .map(|d| (d, Some(warn)))
        }
        Err(e) => Err(e),
    }
}

/// Whether a YAML error is a duplicate mapping key.
pub(crate) fn is_duplicate_key(e: &serde_saphyr::Error) -> bool {
    e.to_string().to_lowercase().contains("duplicate")
}

fn yaml_error(
    file: &Arc<str>,
    c: &split::Chunk<'_>,
    e: &serde_saphyr::Error,
    rule: Rule,
    note: &str,
) -> Diagnostic {
    let (line, col) = match e.location() {
        Some(l) if l.line() > 0 => (
            c.first_line + crate::location::to_u32(l.line() as usize) - 1,
            crate::location::to_u32(l.column() as usize),
        ),
        _ => (c.first_line, 0),
    };
    let mut msg = e.to_string();
    if let Some(i) = msg.find(" at line ") {
        msg.truncate(i);
    }
    let msg = if note.is_empty() {
        format!("invalid YAML: {msg}")
    } else {
        note.to_owned()
    };
    Diagnostic::new(rule, msg).at(&Location::new(file.clone(), line).at(line, col))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Joining keeps every item, in order, on the sequential and the parallel
    /// path alike (items that own memory, so a lost or doubled one would show).
    #[test]
    fn concat_keeps_every_item_in_order() {
        for sizes in [
            vec![],
            vec![0, 0],
            vec![3, 0, 5],
            vec![PARALLEL_JOIN_ITEMS, 1, 0, 77],
            vec![0, 2 * PARALLEL_JOIN_ITEMS + 3, 5],
        ] {
            let mut next = 0;
            let lists: Vec<Vec<String>> = sizes
                .iter()
                .map(|&n| {
                    (0..n)
                        .map(|_| {
                            next += 1;
                            format!("item {next}")
                        })
                        .collect()
                })
                .collect();
            let expected: Vec<String> = lists.iter().flatten().cloned().collect();
            let joined = concat(lists);
            assert_eq!(joined, expected, "{sizes:?}");
            assert_eq!(joined.capacity(), expected.len(), "{sizes:?}");
        }
    }

    /// A JSON stream of `n` pretty-printed documents, some holding an object that
    /// starts a line (the case the parallel reader must not split at).
    fn stream(n: usize, nested_at_line_start: bool) -> String {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&format!(
                "{{\n    \"schema\": \"olm.channel\",\n    \"name\": \"c{i}\",\n    \"package\": \"p\",\n    \"entries\": [\n        {{\"name\": \"b{i}\"}},\n        {{\"name\": \"x{i}\", \"replaces\": \"b{i}\"}}\n    ]\n}}\n"
            ));
            if nested_at_line_start && i % 1000 == 500 {
                s.push_str(&format!(
                    "{{\"schema\": \"x\", \"name\": \"n{i}\", \"v\":\n{{\"a\": 1}}}}\n"
                ));
            }
        }
        s
    }

    /// The whole of `text` read by the sequential reader.
    fn sequential<'a>(
        file: &Arc<str>,
        text: &'a str,
    ) -> Result<Vec<JsonRead<'a>>, Box<Diagnostic>> {
        json_docs_in(
            file,
            text,
            0..text.len(),
            LineCounter::new(text),
            false,
            true,
            &Some,
        )
    }

    fn summary(docs: &[JsonRead<'_>]) -> Vec<(String, Vec<u32>, Vec<String>)> {
        docs.iter()
            .map(|d| match d {
                JsonRead::Fast(doc, loc) => (loc.to_string(), Vec::new(), vec![format!("{doc:?}")]),
                JsonRead::Doc(Ok((f, loc, _))) => (
                    loc.to_string(),
                    f.entry_lines.clone(),
                    f.fields
                        .iter()
                        .map(|(k, v)| format!("{k}={}", v.text()))
                        .collect(),
                ),
                JsonRead::Doc(Err(e)) => (e.to_string(), Vec::new(), Vec::new()),
            })
            .collect()
    }

    #[test]
    fn parallel_json_reading_matches_the_sequential_reader() {
        let file: Arc<str> = Arc::from("big.json");
        for nested in [false, true] {
            let text = stream(40_000, nested);
            assert!(
                text.len() >= PARALLEL_JSON_BYTES,
                "big enough to go parallel"
            );
            let seq = sequential(&file, &text).expect("valid");
            let par = json_docs_parallel::<_, Vec<_>>(&file, &text, None, true, &Some)
                .map(|pieces| pieces.into_iter().flatten().collect::<Vec<_>>());
            if nested {
                // A piece boundary may fall on the nested object: then the
                // parallel reader gives up and the sequential one is used.
                if let Some(par) = &par {
                    assert_eq!(summary(par), summary(&seq));
                }
            } else {
                let par = par.expect("clean boundaries are read in parallel");
                assert_eq!(summary(&par), summary(&seq));
            }
            let all = json_docs(&file, &text).expect("valid");
            assert_eq!(summary(&all), summary(&seq));
        }
    }

    #[test]
    fn large_inputs_are_checked_for_text_in_pieces() {
        let text = stream(40_000, false);
        assert!(text.len() >= PARALLEL_JSON_BYTES);
        assert!(checked_text(text.as_bytes()).is_some());
        let at = text.len() / 3 * 2;
        let at = at + text[at..].find("\"name\"").expect("a name");
        let line = text[..at].matches('\n').count() + 1;
        for (bad, message) in [
            (&b"\xff"[..], format!("invalid UTF-8 at byte {at}")),
            (
                &b"\0"[..],
                "not a text file (NUL byte); exclude it with an .indexignore file".to_owned(),
            ),
            (&b"\xe2\x82"[..], format!("invalid UTF-8 at byte {at}")),
        ] {
            let mut bytes = text.as_bytes().to_vec();
            bytes.splice(at..at, bad.iter().copied());
            assert!(checked_text(&bytes).is_none());
            let l = load_bytes("big.json", &bytes);
            assert_eq!(l.diagnostics.len(), 1, "{:?}", l.diagnostics);
            let d = &l.diagnostics[0];
            assert_eq!(d.message, message);
            assert_eq!(d.location.as_ref().map(|l| l.line), Some(to_u32_line(line)));
        }
    }

    #[test]
    fn large_texts_count_their_lines_while_checked() {
        // Characters of two, three and four bytes fall across every block
        // boundary somewhere.
        let mut text = String::new();
        let mut k = 0usize;
        while text.len() < PARALLEL_JSON_BYTES + 3 * CHECK_BLOCK_BYTES {
            text.push_str(["é", "€", "😀", "a", "\n"][k % 5]);
            if k.is_multiple_of(7) {
                text.push('\n');
            }
            k += 1;
        }
        let bytes = text.as_bytes();
        let checked = checked_text(bytes).expect("text");
        let table = checked.lines.expect("a large text is counted");
        assert!(table.starts.len() > PARALLEL_JSON_BYTES / CHECK_BLOCK_BYTES);
        for offset in (0..bytes.len()).step_by(4099).chain([0, 1, bytes.len()]) {
            let expected = bytes[..offset].iter().filter(|&&b| b == b'\n').count();
            assert_eq!(
                table.newlines_before(bytes, offset),
                expected,
                "at {offset}"
            );
        }
        for start in &table.starts {
            assert!(text.is_char_boundary(*start));
        }
        // A character cut short anywhere is refused.
        for at in [CHECK_BLOCK_BYTES - 1, PARALLEL_JSON_BYTES + 5] {
            let mut bad = bytes.to_vec();
            let at = (at..).find(|&i| bad[i] >= 0xc0).expect("a character");
            bad[at + 1] = b'x';
            assert!(checked_text(&bad).is_none(), "at {at}");
        }
    }

    #[test]
    fn a_split_inside_a_document_falls_back() {
        let file: Arc<str> = Arc::from("big.json");
        // One huge document whose members start lines with `{`.
        let mut text = String::from("{\"schema\": \"x\", \"items\": [\n");
        while text.len() < PARALLEL_JSON_BYTES + 1000 {
            text.push_str("{\"a\": \"some value to fill the line\"},\n");
        }
        text.push_str("{\"a\": 0}]}\n{\"schema\": \"y\"}\n");
        assert!(json_docs_parallel::<_, Vec<_>>(&file, &text, None, true, &Some).is_none());
        let docs = json_docs(&file, &text).expect("valid");
        assert_eq!(docs.len(), 2);
        assert!(docs.iter().all(|d| !matches!(d, JsonRead::Doc(Err(_)))));
    }

    #[test]
    fn invalid_json_in_a_large_file_is_reported_as_sequential_reading_does() {
        let file: Arc<str> = Arc::from("big.json");
        let mut text = stream(40_000, false);
        let cut = text.len() / 2;
        let at = cut + text[cut..].find("\"name\"").expect("a name");
        text.insert_str(at, "oops ");
        let l = load_bytes("big.json", text.as_bytes());
        let seq = sequential(&file, &text).expect("two values read");
        let errors: Vec<String> = l
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(ToString::to_string)
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        let Some(JsonRead::Doc(Err(last))) = seq.last() else {
            panic!("an error ends the stream")
        };
        assert_eq!(errors[0], last.to_string());
    }
}
