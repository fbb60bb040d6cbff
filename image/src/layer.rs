//! Layers: decompression (tar, gzip, zstd, told apart by their first bytes),
//! tar entries checked for safety, and whiteouts applied across layers, into
//! an in-memory [`FileTree`]. Nothing is written to disk.
//!
//! (Over 800 lines with its unit tests: about 610 of code; the tests build
//! hostile layers byte by byte beside the checks they exercise.)

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::Arc;

use sha2::{Digest as _, Sha256};

use super::{ImageError, Limits};

/// A node of the image's file system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A directory.
    Dir,
    /// A regular file whose content was kept: the one copy of its bytes,
    /// shared (not copied) with whoever reads them.
    File(Arc<Vec<u8>>),
    /// A regular file outside the directories read (its content was not kept).
    Unkept,
    /// A symbolic link and its target (never followed).
    Symlink(String),
}

/// The file system the layers of an image make, by path relative to the
/// image's root (`/`-separated, no leading `/`).
#[derive(Debug, Clone, Default)]
pub struct FileTree {
    nodes: BTreeMap<String, Node>,
}

/// The end of the key range of the paths below `dir` (`/` + 1 is `0`).
fn below(dir: &str) -> (String, String) {
    (format!("{dir}/"), format!("{dir}0"))
}

impl FileTree {
    /// The node at `rel`, when there is one.
    pub fn get(&self, rel: &str) -> Option<&Node> {
        self.nodes.get(rel)
    }

    /// Whether `rel` is a directory (named, or holding entries).
    pub fn is_dir(&self, rel: &str) -> bool {
        if rel.is_empty() {
            return true;
        }
        match self.nodes.get(rel) {
            Some(Node::Dir) => true,
            Some(_) => false,
            None => {
                let (from, to) = below(rel);
                self.nodes.range(from..to).next().is_some()
            }
        }
    }

    /// Every node below `dir` (recursively), by path relative to `dir`, sorted.
    pub fn below<'a>(&'a self, dir: &str) -> impl Iterator<Item = (&'a str, &'a Node)> + 'a {
        let (from, to, skip) = if dir.is_empty() {
            (String::new(), String::from("\u{10FFFF}"), 0)
        } else {
            let (f, t) = below(dir);
            (f, t, dir.len() + 1)
        };
        self.nodes
            .range(from..to)
            .map(move |(k, v)| (&k[skip..], v))
    }

    /// The entries directly in `dir`: name and whether each is a directory.
    pub fn children(&self, dir: &str) -> Vec<(String, bool)> {
        let mut out: BTreeMap<String, bool> = BTreeMap::new();
        for (rel, node) in self.below(dir) {
            match rel.split_once('/') {
                Some((first, _)) => {
                    out.insert(first.to_owned(), true);
                }
                None => {
                    let is_dir = matches!(node, Node::Dir);
                    out.entry(rel.to_owned()).or_insert(is_dir);
                }
            }
        }
        out.into_iter().collect()
    }

    /// The path `rel` leads to once the symbolic links along it are
    /// followed, inside the tree: a link's target is read as the image's
    /// root would be (an absolute target from the root, `..` never above the
    /// root), at most [`MAX_LINK_HOPS`](super::limits::MAX_LINK_HOPS) links
    /// in all.
    ///
    /// # Errors
    ///
    /// [`LinkProblem`]: a link leads outside the root, or too many links.
    pub fn resolve(&self, rel: &str) -> Result<String, LinkProblem> {
        let mut path: Vec<String> = rel.split('/').map(str::to_owned).collect();
        let mut hops = 0;
        'restart: loop {
            let mut done: Vec<&str> = Vec::new();
            for (i, c) in path.iter().enumerate() {
                match c.as_str() {
                    "" | "." => continue,
                    ".." => {
                        done.pop();
                        continue;
                    }
                    c => done.push(c),
                }
                let here = done.join("/");
                if let Some(Node::Symlink(target)) = self.nodes.get(&here) {
                    hops += 1;
                    if hops > super::limits::MAX_LINK_HOPS {
                        return Err(LinkProblem::TooMany {
                            link: here,
                            hops: super::limits::MAX_LINK_HOPS,
                        });
                    }
                    let Some(to) = link_target(&here, target) else {
                        return Err(LinkProblem::Outside {
                            link: here,
                            target: target.clone(),
                        });
                    };
                    let mut next: Vec<String> = to.split('/').map(str::to_owned).collect();
                    next.extend(path[i + 1..].iter().cloned());
                    path = next;
                    continue 'restart;
                }
            }
            return Ok(done.join("/"));
        }
    }

    /// Every path of the tree, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.nodes.keys().map(String::as_str)
    }

    fn remove_all(&mut self, rel: &str) {
        self.nodes.remove(rel);
        self.remove_below(rel);
    }

    fn remove_below(&mut self, rel: &str) {
        if rel.is_empty() {
            // The root: everything.
            self.nodes.clear();
            return;
        }
        let (from, to) = below(rel);
        let doomed: Vec<String> = self.nodes.range(from..to).map(|(k, _)| k.clone()).collect();
        for k in doomed {
            self.nodes.remove(&k);
        }
    }

    fn insert(&mut self, rel: String, node: Node) {
        // A non-directory where a directory is needed is replaced.
        let mut end = 0;
        while let Some(i) = rel[end..].find('/') {
            let parent = &rel[..end + i];
            if matches!(self.nodes.get(parent), Some(n) if *n != Node::Dir) {
                self.nodes.remove(parent);
            }
            end += i + 1;
        }
        if node != Node::Dir {
            self.remove_below(&rel);
        }
        self.nodes.insert(rel, node);
    }
}

/// Why a path of a [`FileTree`] cannot be followed through its links.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkProblem {
    /// A link whose target leads outside the image's root.
    #[error("is reached through the symbolic link /{link} to {target:?}, which leads outside the image's root")]
    Outside {
        /// The link.
        link: String,
        /// Its target.
        target: String,
    },
    /// More links than are followed (a loop, most likely).
    #[error("is reached through more than {hops} symbolic links (the last /{link}); is there a link loop?")]
    TooMany {
        /// The last link met.
        link: String,
        /// The links followed.
        hops: usize,
    },
}

/// Running totals over the layers of one image, against the [`Limits`].
#[derive(Debug, Default)]
pub(crate) struct Totals {
    bytes: u64,
    entries: u64,
    kept: u64,
}

/// What one layer changes: applied to the tree once the layer is read, as
/// whiteouts apply only to lower layers.
#[derive(Default)]
struct Changes {
    added: Vec<(String, Node)>,
    deleted: Vec<String>,
    opaque: Vec<String>,
}

/// A reader that counts what passes through it against the limits, and
/// hashes it when asked (a docker-archive's `diff_ids`).
struct Metered<'a, R> {
    inner: R,
    layer: u64,
    totals: &'a mut Totals,
    limits: &'a Limits,
    hash: Option<Sha256>,
}

impl<R: Read> Read for Metered<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.layer += n as u64;
        self.totals.bytes += n as u64;
        if self.layer > self.limits.layer_bytes {
            return Err(io::Error::other(LimitHit::Layer));
        }
        if self.totals.bytes > self.limits.image_bytes {
            return Err(io::Error::other(LimitHit::Image));
        }
        if let Some(h) = &mut self.hash {
            h.update(&buf[..n]);
        }
        Ok(n)
    }
}

#[derive(Debug, thiserror::Error)]
enum LimitHit {
    #[error("layer")]
    Layer,
    #[error("image")]
    Image,
}

/// zstd frames one after another (skippable frames skipped), as one stream.
struct ZstdFrames<'a> {
    input: &'a [u8],
    frame: Option<ruzstd::decoding::StreamingDecoder<&'a [u8], ruzstd::decoding::FrameDecoder>>,
}

impl Read for ZstdFrames<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(f) = &mut self.frame {
                let n = f.read(buf)?;
                if n > 0 || buf.is_empty() {
                    return Ok(n);
                }
                self.input = f.get_ref();
                self.frame = None;
            }
            // Skippable frames: magic 0x184D2A5?, then a 4-byte length.
            while self.input.len() >= 8
                && self.input[1..4] == [0x2A, 0x4D, 0x18]
                && self.input[0] & 0xF0 == 0x50
            {
                let len = u32::from_le_bytes([
                    self.input[4],
                    self.input[5],
                    self.input[6],
                    self.input[7],
                ]) as usize;
                self.input = self.input.get(8 + len..).unwrap_or(&[]);
            }
            if self.input.is_empty() {
                return Ok(0);
            }
            let decoder = ruzstd::decoding::StreamingDecoder::new(self.input)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
            self.frame = Some(decoder);
        }
    }
}

/// A tar stream that may end without its last entry's padding and the
/// end-of-archive blocks (umoci 0.4.7's `insert` writes such layers): past
/// the end of the stream, zeros up to the next block and two zero blocks
/// follow. Where the real stream ended is kept, so that an entry whose
/// content runs past it (a truncated layer) is still an error.
struct Padded<R> {
    inner: R,
    read: u64,
    end: std::rc::Rc<std::cell::Cell<Option<u64>>>,
    zeros: u64,
}

impl<R: Read> Read for Padded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.end.get().is_none() {
            let n = self.inner.read(buf)?;
            if n > 0 || buf.is_empty() {
                self.read += n as u64;
                return Ok(n);
            }
            self.end.set(Some(self.read));
            self.zeros = (512 - self.read % 512) % 512 + 1024;
        }
        let n = buf
            .len()
            .min(usize::try_from(self.zeros).unwrap_or(usize::MAX));
        buf[..n].fill(0);
        self.zeros -= n as u64;
        Ok(n)
    }
}

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// A layer's decompressed bytes as a stream: gzip and zstd are told by their
/// magic numbers (a docker-archive names no media types), anything else is
/// read as tar.
fn decompressed<'a>(blob: &'a [u8]) -> Box<dyn Read + 'a> {
    if blob.starts_with(&GZIP_MAGIC) {
        Box::new(flate2::read::MultiGzDecoder::new(blob))
    } else if blob.starts_with(&ZSTD_MAGIC) {
        Box::new(ZstdFrames {
            input: blob,
            frame: None,
        })
    } else {
        Box::new(blob)
    }
}

/// Reads layers into a tree.
pub(crate) struct LayerReader<'a> {
    /// The image, for messages.
    pub image: &'a str,
    /// The bounds.
    pub limits: &'a Limits,
    /// Whether a file's content is kept (by path relative to the root).
    pub keep: &'a dyn Fn(&str) -> bool,
    /// Running totals.
    pub totals: Totals,
    /// Entries skipped, with why (shown as warnings).
    pub skipped: Vec<(String, String)>,
}

impl LayerReader<'_> {
    /// Apply the layer `blob` (digest `digest`) to `tree`; with `diff_id`, the
    /// digest its decompressed tar must have.
    pub(crate) fn apply(
        &mut self,
        tree: &mut FileTree,
        digest: &str,
        blob: &[u8],
        diff_id: Option<&str>,
    ) -> Result<(), ImageError> {
        let layer_err = |message: String| ImageError::Layer {
            image: self.image.to_owned(),
            digest: digest.to_owned(),
            message,
        };
        let stream = decompressed(blob);
        let limits = self.limits;
        let mut entries = self.totals.entries;
        let mut kept = self.totals.kept;
        let mut metered = Metered {
            inner: stream,
            layer: 0,
            totals: &mut self.totals,
            limits,
            hash: diff_id.map(|_| Sha256::new()),
        };
        let mut changes = Changes::default();
        let result = read_entries(
            &mut metered,
            tree,
            &mut changes,
            &mut Ctx {
                image: self.image,
                digest,
                limits,
                keep: self.keep,
                skipped: &mut self.skipped,
                entries: &mut entries,
                kept: &mut kept,
            },
        );
        let result = result.and_then(|()| {
            // Read what follows the last entry too (padding, end blocks), so
            // the whole stream is checked and counted.
            io::copy(&mut metered, &mut io::sink())
                .map(|_| ())
                .map_err(Failure::Io)
        });
        let image = self.image;
        metered.totals.entries = entries;
        metered.totals.kept = kept;
        if let Err(f) = result {
            return Err(match f {
                Failure::Image(e) => e,
                Failure::Io(e) => match e.get_ref().and_then(|i| i.downcast_ref::<LimitHit>()) {
                    Some(LimitHit::Layer) => ImageError::Limit {
                        image: image.to_owned(),
                        what: format!("layer {digest} decompressed"),
                        limit: limits.layer_bytes,
                        unit: "bytes",
                    },
                    Some(LimitHit::Image) => ImageError::Limit {
                        image: image.to_owned(),
                        what: "the image's layers decompressed".into(),
                        limit: limits.image_bytes,
                        unit: "bytes",
                    },
                    None => layer_err(format!("cannot read the layer: {e}; is it truncated?")),
                },
            });
        }
        if let (Some(want), Some(h)) = (diff_id, metered.hash.take()) {
            let got = format!("sha256:{}", crate::digest::hex(&h.finalize()));
            if got != want {
                return Err(ImageError::BlobMismatch {
                    image: image.to_owned(),
                    digest: digest.to_owned(),
                    what: format!(
                        "its tar has digest {got}, where the config's diff_ids say {want}"
                    ),
                });
            }
        }
        for d in changes.deleted {
            tree.remove_all(&d);
        }
        for d in changes.opaque {
            tree.remove_below(&d);
        }
        for (rel, node) in changes.added {
            tree.insert(rel, node);
        }
        Ok(())
    }
}

struct Ctx<'a, 'b> {
    image: &'a str,
    digest: &'a str,
    limits: &'a Limits,
    keep: &'a dyn Fn(&str) -> bool,
    skipped: &'b mut Vec<(String, String)>,
    /// Entries read so far from the image's layers.
    entries: &'b mut u64,
    /// Bytes of content kept so far.
    kept: &'b mut u64,
}

enum Failure {
    Image(ImageError),
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

impl Ctx<'_, '_> {
    fn unsafe_entry(&self, entry: &str, why: impl Into<String>) -> Failure {
        Failure::Image(ImageError::UnsafeEntry {
            image: self.image.to_owned(),
            digest: self.digest.to_owned(),
            entry: entry.to_owned(),
            why: why.into(),
        })
    }
}

/// The path of an entry relative to the root: `None` for the root itself;
/// an error for absolute paths and `..` components.
fn entry_path(raw: &str) -> Result<Option<String>, &'static str> {
    if raw.starts_with('/') {
        return Err("an absolute path");
    }
    let mut parts = Vec::new();
    for c in raw.split('/') {
        match c {
            "" | "." => {}
            ".." => return Err("a path with a \"..\" component"),
            c => parts.push(c),
        }
    }
    Ok((!parts.is_empty()).then(|| parts.join("/")))
}

/// Where a symbolic link at `rel` pointing at `target` leads, relative to the
/// root; `None` when it leads outside the root.
pub(crate) fn link_target(rel: &str, target: &str) -> Option<String> {
    let mut parts: Vec<&str> = if target.starts_with('/') {
        Vec::new()
    } else {
        let mut p: Vec<&str> = rel.split('/').collect();
        p.pop();
        p
    };
    for c in target.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c),
        }
    }
    Some(parts.join("/"))
}

fn read_entries<R: Read>(
    stream: R,
    tree: &FileTree,
    changes: &mut Changes,
    ctx: &mut Ctx<'_, '_>,
) -> Result<(), Failure> {
    let end = std::rc::Rc::new(std::cell::Cell::new(None));
    let mut archive = tar::Archive::new(Padded {
        inner: stream,
        read: 0,
        end: end.clone(),
        zeros: 0,
    });
    // Where the content of the entries read so far ends.
    let mut content_end = 0u64;
    let mut layer_files: BTreeMap<String, Node> = BTreeMap::new();
    for entry in archive.entries()? {
        let mut entry = entry?;
        *ctx.entries += 1;
        if *ctx.entries > ctx.limits.entries {
            return Err(Failure::Image(ImageError::Limit {
                image: ctx.image.to_owned(),
                what: "the entry count of the image's layers".into(),
                limit: ctx.limits.entries,
                unit: "entries",
            }));
        }
        let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        content_end = content_end.max(entry.raw_file_position() + entry.size());
        let rel = match entry_path(&raw) {
            Ok(Some(r)) => r,
            Ok(None) => continue,
            Err(why) => return Err(ctx.unsafe_entry(&raw, why)),
        };
        let (parent, base) = match rel.rsplit_once('/') {
            Some((p, b)) => (p, b),
            None => ("", rel.as_str()),
        };
        let join = |name: &str| {
            if parent.is_empty() {
                name.to_owned()
            } else {
                format!("{parent}/{name}")
            }
        };
        if base == ".wh..wh..opq" {
            changes.opaque.push(parent.to_owned());
            continue;
        }
        if let Some(name) = base.strip_prefix(".wh.") {
            changes.deleted.push(join(name));
            continue;
        }
        let kind = entry.header().entry_type();
        let node = if kind.is_file() || kind.is_contiguous() {
            if (ctx.keep)(&rel) {
                let size = entry.size();
                if size > ctx.limits.file_bytes {
                    return Err(Failure::Image(ImageError::Limit {
                        image: ctx.image.to_owned(),
                        what: format!("layer {} entry {raw:?}", ctx.digest),
                        limit: ctx.limits.file_bytes,
                        unit: "bytes",
                    }));
                }
                *ctx.kept = ctx.kept.saturating_add(size);
                if *ctx.kept > ctx.limits.kept_bytes {
                    return Err(Failure::Image(ImageError::Limit {
                        image: ctx.image.to_owned(),
                        what: "the files read from the image".into(),
                        limit: ctx.limits.kept_bytes,
                        unit: "bytes",
                    }));
                }
                // The limits above were checked before any memory is taken,
                // and memory that cannot be had is an error, not an abort.
                let mut bytes = Vec::new();
                if usize::try_from(size)
                    .ok()
                    .and_then(|n| bytes.try_reserve_exact(n).ok())
                    .is_none()
                {
                    return Err(Failure::Image(ImageError::OutOfMemory {
                        image: ctx.image.to_owned(),
                        what: format!("layer {} entry {raw:?}", ctx.digest),
                        bytes: size,
                    }));
                }
                (&mut entry).take(size).read_to_end(&mut bytes)?;
                if bytes.len() as u64 != size {
                    return Err(Failure::Io(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        format!("entry {raw:?} ends early"),
                    )));
                }
                // Kept as read: shared from here on, never copied.
                Node::File(Arc::new(bytes))
            } else {
                Node::Unkept
            }
        } else if kind.is_dir() {
            Node::Dir
        } else if kind.is_symlink() {
            let target = entry
                .link_name_bytes()
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            if link_target(&rel, &target).is_none() {
                return Err(ctx.unsafe_entry(
                    &raw,
                    format!("a symbolic link to {target:?}, outside the image's root"),
                ));
            }
            Node::Symlink(target)
        } else if kind.is_hard_link() {
            let target = entry
                .link_name_bytes()
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            let to = match entry_path(&target) {
                Ok(Some(t)) => t,
                _ => {
                    return Err(ctx.unsafe_entry(
                        &raw,
                        format!("a hard link to {target:?}, outside the image's root"),
                    ))
                }
            };
            match layer_files.get(&to).or_else(|| tree.get(&to)) {
                Some(n @ (Node::File(_) | Node::Unkept)) => {
                    if (ctx.keep)(&rel) {
                        n.clone()
                    } else {
                        Node::Unkept
                    }
                }
                _ => {
                    return Err(ctx.unsafe_entry(
                        &raw,
                        format!("a hard link to {target:?}, which is no file of the image"),
                    ))
                }
            }
        } else if kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
            continue;
        } else {
            let what = if kind.is_character_special() {
                "a character device"
            } else if kind.is_block_special() {
                "a block device"
            } else if kind.is_fifo() {
                "a named pipe"
            } else {
                "an entry of an unsupported type"
            };
            ctx.skipped.push((rel, format!("{what} is not read")));
            continue;
        };
        if matches!(node, Node::File(_) | Node::Unkept) {
            layer_files.insert(rel.clone(), node.clone());
        }
        changes.added.push((rel, node));
    }
    if let Some(end) = end.get() {
        if content_end > end {
            return Err(Failure::Io(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "the last entry's content ends {} bytes past the end of the layer",
                    content_end - end
                ),
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A tar layer built in memory: `(path, content)`; content `None` is a
    /// directory, `Some("->target")` a symbolic link.
    pub(crate) fn tar_of(entries: &[(&str, Option<&str>)], end_blocks: bool) -> Vec<u8> {
        let mut out = Vec::new();
        for (path, content) in entries {
            let mut h = tar::Header::new_gnu();
            let name = path.as_bytes();
            h.as_old_mut().name[..name.len()].copy_from_slice(name);
            h.set_mode(0o644);
            let body: &[u8] = match content {
                None => {
                    h.set_entry_type(tar::EntryType::Directory);
                    h.set_size(0);
                    &[]
                }
                Some(c) if c.starts_with("->") => {
                    h.set_entry_type(tar::EntryType::Symlink);
                    h.set_link_name_literal(&c[2..]).unwrap();
                    h.set_size(0);
                    &[]
                }
                Some(c) => {
                    h.set_entry_type(tar::EntryType::Regular);
                    h.set_size(c.len() as u64);
                    c.as_bytes()
                }
            };
            h.set_cksum();
            out.extend_from_slice(h.as_bytes());
            out.extend_from_slice(body);
            out.resize(out.len().div_ceil(512) * 512, 0);
        }
        if end_blocks {
            out.resize(out.len() + 1024, 0);
        }
        out
    }

    fn read(layers: &[Vec<u8>], limits: &Limits) -> Result<FileTree, ImageError> {
        let keep = |_: &str| true;
        let mut r = LayerReader {
            image: "oci:t",
            limits,
            keep: &keep,
            totals: Totals::default(),
            skipped: Vec::new(),
        };
        let mut tree = FileTree::default();
        for (i, l) in layers.iter().enumerate() {
            r.apply(&mut tree, &format!("sha256:{i}"), l, None)?;
        }
        Ok(tree)
    }

    fn files(t: &FileTree) -> Vec<String> {
        t.paths().map(str::to_owned).collect()
    }

    #[test]
    fn whiteouts_apply_to_lower_layers() {
        let one = tar_of(
            &[
                ("configs/", None),
                ("configs/a/catalog.json", Some("a")),
                ("configs/b/catalog.json", Some("b")),
                ("configs/c/x.json", Some("c")),
                ("other/keep", Some("k")),
            ],
            true,
        );
        let two = tar_of(
            &[
                ("configs/a/.wh.catalog.json", Some("")),
                ("configs/a/catalog.yaml", Some("new")),
                ("configs/c/.wh..wh..opq", Some("")),
                ("configs/c/y.json", Some("y")),
                ("configs/.wh.b", Some("")),
            ],
            false,
        );
        let t = read(&[one, two], &Limits::default()).unwrap();
        assert_eq!(
            files(&t),
            [
                "configs",
                "configs/a/catalog.yaml",
                "configs/c/y.json",
                "other/keep"
            ]
        );
        assert!(t.is_dir("configs/a"));
        assert_eq!(
            t.children("configs"),
            [("a".into(), true), ("c".into(), true)]
        );
    }

    #[test]
    fn a_file_replaces_a_directory_and_back() {
        let one = tar_of(&[("x/y", Some("1"))], true);
        let two = tar_of(&[("x", Some("file"))], true);
        let t = read(&[one.clone(), two.clone()], &Limits::default()).unwrap();
        assert_eq!(files(&t), ["x"]);
        let t = read(&[two, one], &Limits::default()).unwrap();
        assert_eq!(files(&t), ["x/y"]);
    }

    #[test]
    fn compressed_layers_read_alike() {
        use std::io::Write;
        let plain = tar_of(&[("configs/p/catalog.json", Some("{}"))], true);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&plain).unwrap();
        let gz = gz.finish().unwrap();
        let zst = ruzstd::encoding::compress_to_vec(
            &plain[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        for layer in [plain, gz, zst] {
            let t = read(&[layer], &Limits::default()).unwrap();
            assert_eq!(
                t.get("configs/p/catalog.json"),
                Some(&Node::File(Arc::new(b"{}".to_vec())))
            );
        }
    }

    #[test]
    fn hostile_entries_are_refused() {
        for (entries, needle) in [
            (vec![("../etc/passwd", Some("x"))], "\"..\" component"),
            (vec![("a/../../x", Some("x"))], "\"..\" component"),
            (
                vec![("a/link", Some("->../../etc/passwd"))],
                "outside the image's root",
            ),
        ] {
            let e = read(&[tar_of(&entries, true)], &Limits::default())
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle) && e.contains("entry"), "{e}");
        }
        // Absolute symbolic links stay inside the image's root.
        read(
            &[tar_of(&[("a/l", Some("->/etc/x"))], true)],
            &Limits::default(),
        )
        .unwrap();
    }

    #[test]
    fn limits_stop_reading() {
        use std::io::Write;
        let big = "0".repeat(100_000);
        let plain = tar_of(&[("a", Some(&big))], true);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&plain).unwrap();
        let gz = gz.finish().unwrap();
        let small = Limits {
            layer_bytes: 50_000,
            ..Limits::default()
        };
        let e = read(&[gz], &small).unwrap_err().to_string();
        assert!(
            e.contains("decompressed passes the limit of 50000 bytes"),
            "{e}"
        );
        let few = Limits {
            entries: 1,
            ..Limits::default()
        };
        let e = read(&[tar_of(&[("a", Some("")), ("b", Some(""))], true)], &few)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("entry count of the image's layers passes the limit of 1 entries"),
            "{e}"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// Whatever an entry's path or a link's target, what is kept stays
        /// inside the root: no `..`, no empty or `.` component, no leading `/`.
        #[test]
        fn paths_and_links_never_leave_the_root(
            parts in proptest::collection::vec(
                proptest::sample::select(vec!["a", "b", "..", ".", ""]), 0..8),
            target in proptest::collection::vec(
                proptest::sample::select(vec!["x", "..", ".", ""]), 0..8),
        ) {
            let raw = parts.join("/");
            let inside = |p: &str| p.split('/').all(|c| !c.is_empty() && c != "." && c != "..");
            if let Ok(Some(rel)) = entry_path(&raw) {
                proptest::prop_assert!(inside(&rel), "{raw:?} -> {rel:?}");
                let t = target.join("/");
                if let Some(to) = link_target(&rel, &t) {
                    proptest::prop_assert!(to.is_empty() || inside(&to), "{rel:?} -> {t:?} = {to:?}");
                }
            }
        }
    }

    #[test]
    fn a_layer_without_end_blocks_or_padding_reads() {
        let mut l = tar_of(&[("a", Some("12345"))], false);
        l.truncate(512 + 5);
        let t = read(&[l], &Limits::default()).unwrap();
        assert_eq!(t.get("a"), Some(&Node::File(Arc::new(b"12345".to_vec()))));
    }

    /// A tar header for a regular file `path` claiming `size` bytes, with
    /// no content after it.
    fn header_only(path: &str, size: u64) -> Vec<u8> {
        let mut h = tar::Header::new_gnu();
        h.as_old_mut().name[..path.len()].copy_from_slice(path.as_bytes());
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        h.set_size(size);
        h.set_cksum();
        h.as_bytes().to_vec()
    }

    #[test]
    fn a_root_opaque_whiteout_hides_every_lower_layer() {
        let lower = tar_of(
            &[
                ("configs/a/catalog.json", Some("a")),
                ("other/x", Some("x")),
                ("top", Some("t")),
            ],
            true,
        );
        for opaque in [".wh..wh..opq", "./.wh..wh..opq"] {
            let upper = tar_of(
                &[(opaque, Some("")), ("configs/b/catalog.json", Some("b"))],
                true,
            );
            let t = read(&[lower.clone(), upper], &Limits::default()).unwrap();
            assert_eq!(files(&t), ["configs/b/catalog.json"], "{opaque}");
        }
        // In the same layer as what it hides, it hides nothing of that layer.
        let one = tar_of(&[("a", Some("a")), (".wh..wh..opq", Some(""))], true);
        assert_eq!(files(&read(&[one], &Limits::default()).unwrap()), ["a"]);
    }

    #[test]
    fn kept_files_are_bounded_before_memory_is_taken() {
        // A header claiming 3 GiB, and nothing after it: refused by the
        // header alone (the layer is 512 bytes).
        let e = read(&[header_only("configs/big", 3 << 30)], &Limits::default())
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "oci:t: layer sha256:0 entry \"configs/big\" passes the limit of 1073741824 bytes olmsat reads (see docs/images.md)"
        );
        // The total kept, before the second file's content is read.
        let small = Limits {
            kept_bytes: 1000,
            ..Limits::default()
        };
        let mut layer = tar_of(&[("configs/a", Some(&"a".repeat(600)))], false);
        layer.extend(header_only("configs/b", 600));
        let e = read(&[layer], &small).unwrap_err().to_string();
        assert_eq!(
            e,
            "oci:t: the files read from the image passes the limit of 1000 bytes olmsat reads (see docs/images.md)"
        );
    }

    #[test]
    fn memory_that_cannot_be_had_is_an_error_not_an_abort() {
        // With the limits lifted, a header claiming 4 EiB asks for memory no
        // machine has: an error naming the entry.
        let open = Limits {
            file_bytes: u64::MAX,
            kept_bytes: u64::MAX,
            ..Limits::default()
        };
        let e = read(&[header_only("configs/huge", 1 << 62)], &open)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "oci:t: not enough memory to read layer sha256:0 entry \"configs/huge\" (4611686018427387904 bytes); free memory, or lower the limits (see docs/images.md)"
        );
    }

    #[test]
    fn kept_files_are_held_once() {
        let t = read(
            &[tar_of(
                &[("configs/a", Some("abc")), ("configs/h", None)],
                true,
            )],
            &Limits::default(),
        )
        .unwrap();
        let Some(Node::File(bytes)) = t.get("configs/a") else {
            panic!("a kept file");
        };
        // The buffer the entry was read into, sized exactly.
        assert_eq!(bytes.capacity(), 3);
    }

    #[test]
    fn links_resolve_inside_the_tree() {
        let t = read(
            &[tar_of(
                &[
                    ("data/catalog/p/catalog.json", Some("{}")),
                    ("configs", Some("->data/catalog")),
                    ("abs", Some("->/data")),
                    ("via", Some("->abs/catalog")),
                    ("loop1", Some("->loop2")),
                    ("loop2", Some("->loop1")),
                ],
                true,
            )],
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(t.resolve("configs").unwrap(), "data/catalog");
        assert_eq!(t.resolve("/configs/").unwrap(), "data/catalog");
        assert_eq!(t.resolve("configs/p").unwrap(), "data/catalog/p");
        assert_eq!(t.resolve("via").unwrap(), "data/catalog");
        assert_eq!(t.resolve("configs/../..").unwrap(), "");
        assert_eq!(t.resolve("plain/dir").unwrap(), "plain/dir");
        let e = t.resolve("loop1").unwrap_err();
        assert!(matches!(e, LinkProblem::TooMany { hops: 40, .. }), "{e}");
        assert!(e.to_string().contains("is there a link loop?"), "{e}");
        // Links leading outside are refused when the layer is read; a tree
        // holding one anyway does not resolve through it.
        let mut tree = FileTree::default();
        tree.insert("out".into(), Node::Symlink("../../etc".into()));
        assert_eq!(
            tree.resolve("out/passwd").unwrap_err().to_string(),
            "is reached through the symbolic link /out to \"../../etc\", which leads outside the image's root"
        );
    }

    #[test]
    fn a_truncated_layer_is_an_error() {
        let mut l = tar_of(&[("a", Some(&"x".repeat(2000)))], true);
        l.truncate(700);
        let e = read(&[l], &Limits::default()).unwrap_err().to_string();
        assert!(e.contains("is it truncated?"), "{e}");
    }
}
