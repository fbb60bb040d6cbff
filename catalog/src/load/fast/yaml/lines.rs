//! The fast reader's view of a document: a check that every character is one it
//! handles, and the document cut into lines.

/// Whether every character is one this reader handles: no tabs, no carriage
/// returns, no other control characters, no byte-order marks or non-characters,
/// and none of the C1 range (which holds YAML's `NEL` line break).
pub(super) fn supported_characters(b: &[u8]) -> bool {
    const CHUNK: usize = 64;
    let mut start = 0;
    while start < b.len() {
        let end = (start + CHUNK).min(b.len());
        // A branch-free test of the chunk first: printable ASCII and line breaks
        // need no closer look.
        let usual = |c: u8| (c.wrapping_sub(0x20) < 0x5f) | (c == b'\n');
        let unusual = match <&[u8; CHUNK]>::try_from(&b[start..end]) {
            Ok(chunk) => chunk.iter().fold(false, |any, &c| any | !usual(c)),
            Err(_) => b[start..end].iter().any(|&c| !usual(c)),
        };
        if unusual && !supported_bytes(b, start, end) {
            return false;
        }
        start = end;
    }
    true
}

/// The byte-by-byte check of `b[start..end]` (looking past `end` as needed).
fn supported_bytes(b: &[u8], start: usize, end: usize) -> bool {
    for i in start..end {
        match b[i] {
            b'\n' | 0x20..=0x7e => {}
            0x00..=0x1f | 0x7f => return false,
            0xc2 if b.get(i + 1).is_some_and(|&n| n < 0xa0) => return false,
            0xef => match (b.get(i + 1), b.get(i + 2)) {
                (Some(0xbb), Some(0xbf)) | (Some(0xbf), Some(0xbe | 0xbf)) => return false,
                _ => {}
            },
            _ => {}
        }
    }
    true
}

/// One line of the document: byte range (without the line break) and the number
/// of leading spaces.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) indent: usize,
    /// Whether a line break ends this line (false only for a last line without one).
    pub(super) broken: bool,
}

impl Line {
    pub(super) fn len(&self) -> usize {
        self.end - self.start
    }
    /// Only spaces.
    pub(super) fn is_blank(&self) -> bool {
        self.indent == self.len()
    }
}

/// Cut the text into lines; `None` when a line is a document marker or a
/// directive (the general parser's business).
pub(super) fn split(text: &str) -> Option<Vec<Line>> {
    let b = text.as_bytes();
    let mut lines = Vec::with_capacity(b.len() / 40 + 1);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', b) {
        lines.push(line(b, start, end, true)?);
        start = end + 1;
    }
    if start < b.len() {
        lines.push(line(b, start, b.len(), false)?);
    }
    Some(lines)
}

/// The line `b[start..end]`, unless it is a document marker or a directive.
fn line(b: &[u8], start: usize, end: usize, broken: bool) -> Option<Line> {
    let text = &b[start..end];
    if text.first() == Some(&b'%')
        || ((text.starts_with(b"...") || text.starts_with(b"---"))
            && text.get(3).is_none_or(|&c| c == b' '))
    {
        return None;
    }
    Some(Line {
        start,
        end,
        indent: text.iter().take_while(|&&c| c == b' ').count(),
        broken,
    })
}
