//! Checking that a file is text (UTF-8 without NUL bytes) and, for a large
//! one, counting its newlines block by block in the same pass: the line table
//! the JSON stream reader starts its pieces from.

use rayon::prelude::*;

use olmsat_encoding::location::{LineIndex, Location};
use olmsat_findings::diagnostic::{Diagnostic, Rule};
use std::sync::Arc;

/// Texts at least this large are checked, and JSON streams read, in pieces in
/// parallel.
pub(crate) const PARALLEL_BYTES: usize = 4 << 20;

/// Why bytes are not text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Invalid UTF-8 in bytes that hold a NUL byte: most likely a binary file.
    #[error("not a text file (binary content); exclude it with an .indexignore file")]
    Binary,
    /// Invalid UTF-8 at this byte.
    #[error("invalid UTF-8 at byte {0}")]
    InvalidUtf8(usize),
    /// A NUL byte in otherwise valid UTF-8.
    #[error("not a text file (NUL byte); exclude it with an .indexignore file")]
    Nul,
}

/// Text checked by [`checked_text`], with, for a large text, its newlines
/// counted on the way.
pub(crate) struct CheckedText<'a> {
    pub(crate) text: &'a str,
    pub(crate) lines: Option<LineTable>,
}

/// The newlines of a text counted block by block, so that the line of any
/// offset is found without counting from the start.
#[derive(Debug)]
pub(crate) struct LineTable {
    /// Where each block starts (the first at 0), ascending.
    pub(crate) starts: Vec<usize>,
    /// How many newlines come before each block.
    pub(crate) before: Vec<usize>,
}

impl LineTable {
    /// How many newlines of `text` (the text the table was made for) come
    /// before `offset`.
    pub(crate) fn newlines_before(&self, text: &[u8], offset: usize) -> usize {
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
pub(crate) const CHECK_BLOCK_BYTES: usize = 64 << 10;

/// `bytes` as text, when they are UTF-8 without NUL bytes. Large inputs are
/// checked in pieces on all threads (the first pass over a mapped file also
/// maps its pages in), and their newlines counted in the same pass.
pub(crate) fn checked_text(bytes: &[u8]) -> Option<CheckedText<'_>> {
    if bytes.len() < PARALLEL_BYTES {
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
pub(crate) fn piece_bounds(bytes: &[u8], pieces: usize, separator: &[u8]) -> Vec<usize> {
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
pub(crate) fn not_text(file: Arc<str>, bytes: &[u8]) -> Diagnostic {
    let (error, line, col) = match std::str::from_utf8(bytes) {
        Ok(text) => {
            let pos = memchr::memchr(0, text.as_bytes()).unwrap_or(text.len());
            let (line, col) = LineIndex::new(text).line_col(pos);
            (TextError::Nul, line, col)
        }
        Err(e) => {
            let valid = &bytes[..e.valid_up_to()];
            let idx = LineIndex::new(std::str::from_utf8(valid).unwrap_or(""));
            let (line, col) = idx.line_col(valid.len());
            let error = if bytes.contains(&0) {
                TextError::Binary
            } else {
                TextError::InvalidUtf8(e.valid_up_to())
            };
            (error, line, col)
        }
    };
    Diagnostic::new(Rule::NotText, error.to_string()).at(&Location::new(file, line).at(line, col))
}
