//! Where a piece of catalog input came from.

use std::fmt;
use std::sync::Arc;

/// A position in an input file: the file as the user named it and a 1-based line
/// (0 when unknown) and column (0 when unknown).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// The file, as given on the command line joined with its path inside a catalog directory.
    pub file: Arc<str>,
    /// 1-based line, 0 when unknown.
    pub line: u32,
    /// 1-based column, 0 when unknown.
    pub column: u32,
}

impl Location {
    /// A location at `line` (1-based) of `file`.
    pub fn new(file: Arc<str>, line: u32) -> Self {
        Location {
            file,
            line,
            column: 0,
        }
    }

    /// The same file, another line and column.
    pub fn at(&self, line: u32, column: u32) -> Self {
        Location {
            file: self.file.clone(),
            line,
            column,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        Ok(())
    }
}

/// Maps byte offsets of a text to 1-based line and column numbers.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Index the line starts of `text`.
    pub fn new(text: &str) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex { starts }
    }

    /// The 1-based (line, column) of byte `offset`; the column counts bytes.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let col = offset - self.starts[line];
        (to_u32(line + 1), to_u32(col + 1))
    }
}

/// Maps byte offsets to 1-based line and column numbers for offsets asked in
/// increasing order, counting newlines as it goes: no index is built, so a
/// reader that walks a file from start to end pays one fast scan in all.
#[derive(Debug, Clone)]
pub struct LineCounter<'a> {
    text: &'a [u8],
    /// Offset up to which newlines have been counted.
    pos: usize,
    /// 0-based line of `pos`.
    line: usize,
    /// Offset at which the line of `pos` starts.
    line_start: usize,
}

impl<'a> LineCounter<'a> {
    /// Start at the beginning of `text`.
    pub fn new(text: &'a str) -> Self {
        LineCounter {
            text: text.as_bytes(),
            pos: 0,
            line: 0,
            line_start: 0,
        }
    }

    /// Start at `pos`, which must be the start of a line, given its 0-based
    /// `line` number (for a reader that begins in the middle of a text).
    pub fn resume(text: &'a str, pos: usize, line: usize) -> Self {
        LineCounter {
            text: text.as_bytes(),
            pos: pos.min(text.len()),
            line,
            line_start: pos.min(text.len()),
        }
    }

    /// The 1-based (line, column) of byte `offset`; the column counts bytes.
    /// Offsets before the previous one are answered too, by counting again from
    /// the start.
    pub fn line_col(&mut self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        if offset < self.pos {
            *self = LineCounter {
                text: self.text,
                pos: 0,
                line: 0,
                line_start: 0,
            };
        }
        let seg = &self.text[self.pos..offset];
        if let Some(last) = memchr::memrchr(b'\n', seg) {
            self.line += memchr::memchr_iter(b'\n', seg).count();
            self.line_start = self.pos + last + 1;
        }
        self.pos = offset;
        (to_u32(self.line + 1), to_u32(offset - self.line_start + 1))
    }
}

/// Saturating conversion used for line and column numbers.
pub fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Byte offset of `part` inside `whole`, when `part` is a sub-slice of it.
pub fn offset_in(whole: &str, part: &str) -> Option<usize> {
    let w = whole.as_ptr() as usize;
    let p = part.as_ptr() as usize;
    (p >= w && p + part.len() <= w + whole.len()).then(|| p - w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_maps_offsets() {
        let idx = LineIndex::new("ab\ncd\n\nx");
        assert_eq!(idx.line_col(0), (1, 1));
        assert_eq!(idx.line_col(1), (1, 2));
        assert_eq!(idx.line_col(3), (2, 1));
        assert_eq!(idx.line_col(6), (3, 1));
        assert_eq!(idx.line_col(7), (4, 1));
    }

    #[test]
    fn line_counter_agrees_with_the_index() {
        let text = "ab\ncd\n\nx\n\n\nlong line here\n";
        let idx = LineIndex::new(text);
        let mut c = LineCounter::new(text);
        for off in 0..=text.len() {
            assert_eq!(c.line_col(off), idx.line_col(off), "offset {off}");
        }
        // Going back restarts the count.
        assert_eq!(c.line_col(4), idx.line_col(4));
        assert_eq!(c.line_col(text.len() + 5), idx.line_col(text.len()));
    }

    #[test]
    fn display_omits_unknown_parts() {
        let f: Arc<str> = Arc::from("a.yaml");
        assert_eq!(Location::new(f.clone(), 0).to_string(), "a.yaml");
        assert_eq!(Location::new(f.clone(), 3).to_string(), "a.yaml:3");
        assert_eq!(Location::new(f, 3).at(3, 7).to_string(), "a.yaml:3:7");
    }
}
