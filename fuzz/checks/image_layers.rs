//! The `image_layers` fuzz target's body: the layers of an image (tar, gzip,
//! zstd) read and applied one over another, into the in-memory file tree.
//! Shared with the replay tests (`graph/tests/fuzz_regressions.rs`).
//!
//! The input is up to four layers separated by a line `=====LAYER=====`.
//! A layer is raw bytes (a tar, or anything a decoder must refuse), or,
//! when it starts with a line `tar`, a tar the check builds from the lines
//! that follow: `PATH/` a directory, `PATH=TEXT` a file, `PATH->TARGET` a
//! symbolic link, `PATH=>TARGET` a hard link, a bare `PATH` an empty file
//! (whiteouts are files named `.wh.NAME` and `.wh..wh..opq`). A text layer
//! whose first line is `tar gz` or `tar zst` is compressed after it is built.
//!
//! Beyond "no panic", it checks that the tree holds only clean paths
//! inside the root (no whiteout, no link leading out), that what is kept
//! stays within the limits, that a plain tar read compressed with gzip
//! gives the same tree or the same error, and that the catalog
//! directory resolves through links inside the tree.

use olmsat_image::memory::{self, Applied};
use olmsat_image::{Limits, Node};

const SEPARATOR: &[u8] = b"\n=====LAYER=====\n";

/// Small limits, so that a hostile layer is refused quickly.
fn limits() -> Limits {
    Limits {
        layer_bytes: 4 << 20,
        image_bytes: 8 << 20,
        entries: 10_000,
        kept_bytes: 1 << 20,
        file_bytes: 256 << 10,
        document_bytes: 64 << 10,
        archive_entries: 1_000,
    }
}

/// Whether content under `rel` is kept (the catalog and bundle directories).
fn keep(rel: &str) -> bool {
    ["configs/", "manifests/", "metadata/"]
        .iter()
        .any(|d| rel.starts_with(d))
}

/// Split `data` into at most four layers.
fn layers(data: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut rest = data;
    while out.len() < 3 {
        match find(rest, SEPARATOR) {
            Some(i) => {
                out.push(build(&rest[..i]));
                rest = &rest[i + SEPARATOR.len()..];
            }
            None => break,
        }
    }
    out.push(build(rest));
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// One layer: raw bytes, or a tar built from its text form.
fn build(chunk: &[u8]) -> Vec<u8> {
    let (first, body) = match find(chunk, b"\n") {
        Some(i) => (&chunk[..i], &chunk[i + 1..]),
        None => (chunk, &b""[..]),
    };
    let compress = match first {
        b"tar" => None,
        b"tar gz" => Some(false),
        b"tar zst" => Some(true),
        _ => return chunk.to_vec(),
    };
    let mut entries: Vec<(&[u8], Option<&[u8]>)> = Vec::new();
    for line in body.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let entry = if let Some(i) = find(line, b"->") {
            (&line[..i], Some(&line[i..]))
        } else if let Some(i) = find(line, b"=>") {
            (&line[..i], Some(&line[i..]))
        } else if let Some(i) = line.iter().position(|b| *b == b'=') {
            (&line[..i], Some(&line[i + 1..]))
        } else if line.ends_with(b"/") {
            (line, None)
        } else {
            (line, Some(&b""[..]))
        };
        entries.push(entry);
    }
    let tar = memory::tar(&entries, true);
    match compress {
        None => tar,
        Some(false) => memory::gzip(&tar),
        Some(true) => memory::zstd(&tar),
    }
}

/// A comparable summary of a result: the tree's nodes, or the error's text.
fn summary(r: &Result<Applied, olmsat_image::ImageError>) -> Result<Vec<String>, String> {
    match r {
        Ok(a) => Ok(a
            .tree
            .paths()
            .map(|p| format!("{p} {:?}", a.tree.get(p)))
            .chain(a.skipped.iter().map(|(p, w)| format!("skipped {p}: {w}")))
            .collect()),
        Err(e) => Err(e.to_string()),
    }
}

/// Read the layers of `data`; panics when an invariant breaks.
pub(crate) fn check(data: &[u8]) {
    let layers = layers(data);
    let refs: Vec<&[u8]> = layers.iter().map(Vec::as_slice).collect();
    let limits = limits();
    let result = memory::apply_layers(&refs, &limits, &keep);
    match &result {
        Ok(applied) => tree_is_clean(applied, &limits),
        Err(e) => {
            let text = e.to_string();
            assert!(
                text.starts_with("oci:fuzz: "),
                "error without the image: {text}"
            );
        }
    }
    // Plain tar layers read alike compressed (gzip here; zstd costs the
    // fuzzer too much to compress every input: text layers `tar zst` cover
    // its decoder).
    let plain =
        |l: &[u8]| !(l.starts_with(&[0x1f, 0x8b]) || l.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]));
    if layers.iter().all(|l| plain(l)) {
        let packed: Vec<Vec<u8>> = layers.iter().map(|l| memory::gzip(l)).collect();
        let refs: Vec<&[u8]> = packed.iter().map(Vec::as_slice).collect();
        let again = memory::apply_layers(&refs, &limits, &keep);
        assert_eq!(
            summary(&result),
            summary(&again),
            "a layer reads differently compressed"
        );
    }
}

/// The invariants of a tree read from layers.
fn tree_is_clean(applied: &Applied, limits: &Limits) {
    let tree = &applied.tree;
    let mut kept = 0u64;
    // Hard links share their file's bytes: each buffer counts once.
    let mut seen = std::collections::HashSet::new();
    for path in tree.paths() {
        assert!(
            !path.is_empty()
                && path
                    .split('/')
                    .all(|c| !c.is_empty() && c != "." && c != ".."),
            "a path that is not clean: {path:?}"
        );
        let base = path.rsplit('/').next().unwrap_or(path);
        assert!(
            !base.starts_with(".wh."),
            "a whiteout left in the tree: {path:?}"
        );
        match tree.get(path) {
            Some(Node::Symlink(target)) => assert!(
                memory::link_stays_inside(path, target),
                "a link leading outside the root: {path:?} -> {target:?}"
            ),
            Some(Node::File(bytes)) => {
                assert!(
                    keep(path),
                    "content kept outside the directories read: {path:?}"
                );
                assert!(bytes.len() as u64 <= limits.file_bytes);
                if seen.insert(std::sync::Arc::as_ptr(bytes)) {
                    kept += bytes.len() as u64;
                }
            }
            _ => {}
        }
        // A node's parents are directories (named or implied), never files.
        let mut end = 0;
        while let Some(i) = path[end..].find('/') {
            let parent = &path[..end + i];
            assert!(
                matches!(tree.get(parent), None | Some(Node::Dir)),
                "{path:?} lies below {parent:?}, which is not a directory"
            );
            end += i + 1;
        }
    }
    assert!(kept <= limits.kept_bytes, "kept {kept} bytes");
    // The catalog directory resolves inside the tree, or says why not.
    if let Ok(real) = tree.resolve("configs") {
        assert!(
            real.is_empty()
                || real
                    .split('/')
                    .all(|c| !c.is_empty() && c != "." && c != ".."),
            "configs resolves to {real:?}"
        );
    }
}
