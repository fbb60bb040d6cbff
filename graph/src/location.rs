//! Where a piece of catalog input came from.

use std::fmt;
use std::sync::Arc;

/// A position in an input file: the file as the user named it and a 1-based line
/// (0 when unknown) and column (0 when unknown).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                starts.push(i + 1);
            }
        }
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

/// Saturating conversion used for line and column numbers.
pub(crate) fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
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
    fn display_omits_unknown_parts() {
        let f: Arc<str> = Arc::from("a.yaml");
        assert_eq!(Location::new(f.clone(), 0).to_string(), "a.yaml");
        assert_eq!(Location::new(f.clone(), 3).to_string(), "a.yaml:3");
        assert_eq!(Location::new(f, 3).at(3, 7).to_string(), "a.yaml:3:7");
    }
}
