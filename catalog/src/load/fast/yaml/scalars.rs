//! Scalars: plain (folded over continuation lines), single- and double-quoted
//! (with every escape), literal and folded block scalars, and the empty flow
//! collections, each following the general parser's scanner rules exactly.

use std::borrow::Cow;

use super::resolve::{push_json_str, write_plain};
use super::Parser;

/// Where a plain scalar's text on one line stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// End of the line.
    Eol,
    /// A comment (`#` after a space).
    Comment,
    /// A `:` followed by a space or the end of the line: the text is a key.
    Colon,
}

/// Where a quoted scalar ends: the line and the column just after the closing quote.
pub(super) struct QuotedEnd {
    pub(super) line: usize,
    pub(super) col: usize,
}

impl<'a> Parser<'a> {
    /// A scalar node at column `col` of line `li`, in a block collection indented
    /// `parent` columns, written into `out` as JSON. Returns the next line.
    pub(super) fn scalar(
        &mut self,
        li: usize,
        col: usize,
        parent: usize,
        out: &mut String,
    ) -> Option<usize> {
        let c = self.at(li, col)?;
        match c {
            b'"' | b'\'' => {
                let (text, end) = self.quoted(li, col, parent as isize)?;
                let c2 = self.skip_spaces(end.line, end.col);
                if self.at(end.line, c2) == Some(b':') || !self.rest_is_comment(end.line, end.col) {
                    return None;
                }
                self.count_scalar(text.len())?;
                push_json_str(out, &text);
                Some(end.line + 1)
            }
            b'|' | b'>' => {
                let (s, _, next) = self.block_scalar(li, col, parent)?;
                self.count_scalar(s.len())?;
                push_json_str(out, &s);
                Some(next)
            }
            b'[' | b'{' => {
                let close = if c == b'[' { b']' } else { b'}' };
                if self.at(li, col + 1) != Some(close) || !self.rest_is_comment(li, col + 2) {
                    return None;
                }
                let c2 = self.skip_spaces(li, col + 2);
                if self.at(li, c2) == Some(b':') {
                    return None;
                }
                self.count_node()?;
                out.push_str(if c == b'[' { "[]" } else { "{}" });
                Some(li + 1)
            }
            _ if !self.starts_plain(li, col) => None,
            _ => {
                let mut s = String::new();
                let (text, next) = self.plain(li, col, parent, &mut s)?;
                let text = match text {
                    Some(t) => t,
                    None => s.as_str(),
                };
                self.count_scalar(text.len())?;
                write_plain(out, text)?;
                Some(next)
            }
        }
    }

    /// Scan the plain-scalar text on line `li` from column `col`: the column where
    /// the text ends (trailing spaces excluded), why it stops, and where the stop
    /// indicator is.
    pub(super) fn plain_line(&self, li: usize, col: usize) -> (usize, Stop, usize) {
        let Some(l) = self.line(li) else {
            return (col, Stop::Eol, col);
        };
        let b = &self.text.as_bytes()[l.start..l.end];
        // The text ends after its last non-space before `to`.
        let trimmed = |to: usize| {
            let mut e = to;
            while e > col && b[e - 1] == b' ' {
                e -= 1;
            }
            e
        };
        // Short texts are scanned directly; longer ones jump between candidates.
        let next_candidate = |from: usize| -> Option<usize> {
            let rest = b.get(from..)?;
            if rest.len() < 32 {
                rest.iter().position(|&c| c == b'#' || c == b':')
            } else {
                memchr::memchr2(b'#', b':', rest)
            }
        };
        let mut i = col;
        while let Some(k) = next_candidate(i) {
            let p = i + k;
            if b[p] == b'#' {
                if p > col && b[p - 1] == b' ' {
                    return (trimmed(p), Stop::Comment, p);
                }
            } else if b.get(p + 1).is_none_or(|&n| n == b' ') {
                return (trimmed(p), Stop::Colon, p);
            }
            i = p + 1;
        }
        (trimmed(b.len()), Stop::Eol, b.len())
    }

    /// A plain scalar starting at column `col` of line `li`, possibly continued on
    /// more-indented lines. Returns the text (borrowed when it is one line; else
    /// built in `buf`, and `None` is returned in its place) and the next line.
    fn plain(
        &self,
        li: usize,
        col: usize,
        parent: usize,
        buf: &mut String,
    ) -> Option<(Option<&'a str>, usize)> {
        let (end, stop, _) = self.plain_line(li, col);
        let first = self.slice(li, col, end)?;
        match stop {
            Stop::Colon => return None,
            Stop::Comment => return Some((Some(first), li + 1)),
            Stop::Eol => {}
        }
        let mut j = li + 1;
        let mut empty = 0usize;
        let mut continued = false;
        while let Some(l) = self.line(j) {
            if l.is_blank() {
                empty += 1;
                j += 1;
                continue;
            }
            if l.indent <= parent || self.at(j, l.indent) == Some(b'#') {
                break;
            }
            let (e, stop, _) = self.plain_line(j, l.indent);
            if stop == Stop::Colon {
                return None;
            }
            if !continued {
                buf.push_str(first);
                continued = true;
            }
            if empty == 0 {
                buf.push(' ');
            } else {
                buf.extend(std::iter::repeat_n('\n', empty));
            }
            empty = 0;
            buf.push_str(self.slice(j, l.indent, e)?);
            j += 1;
            if stop == Stop::Comment {
                break;
            }
        }
        if continued {
            Some((None, j))
        } else {
            Some((Some(first), li + 1))
        }
    }

    /// Where the quoted scalar opening at column `col` of line `li` closes, if it
    /// closes on that line: the column just after its closing quote. (Only a
    /// first look: escapes are skipped, not checked.)
    pub(super) fn closes_on_line(&self, li: usize, col: usize) -> Option<usize> {
        let l = self.line(li)?;
        let b = &self.text.as_bytes()[l.start..l.end];
        let quote = *b.get(col)?;
        let mut i = col + 1;
        while i < b.len() {
            match b[i] {
                b'\\' if quote == b'"' => i += 2,
                b'\'' if quote == b'\'' && b.get(i + 1) == Some(&b'\'') => i += 2,
                c if c == quote => return Some(i + 1),
                _ => i += 1,
            }
        }
        None
    }

    /// A single- or double-quoted scalar whose opening quote is at column `col` of
    /// line `li`: its text, unescaped and folded (borrowed from the document when
    /// it needs neither), and where it ends. `parent` is the indentation of the
    /// enclosing block collection (-1 when any indentation will do, as for keys,
    /// which must fit on one line anyway).
    pub(super) fn quoted(
        &self,
        li: usize,
        col: usize,
        parent: isize,
    ) -> Option<(Cow<'a, str>, QuotedEnd)> {
        let single = self.at(li, col)? == b'\'';
        let text = self.text;
        // The text so far, once it differs from the source.
        let mut out: Option<String> = None;
        let mut li = li;
        let mut i = col + 1;
        loop {
            let l = self.line(li)?;
            let b = &text.as_bytes()[l.start..l.end];
            let raw = |from: usize, to: usize| text.get(l.start + from..l.start + to);
            // Raw blanks not yet known to be content (dropped before a line break).
            let mut ws_start: Option<usize> = None;
            let mut escaped_break = false;
            let mut run = i; // start of the source text not yet copied
            while i < b.len() {
                let c = b[i];
                if c == b' ' {
                    ws_start.get_or_insert(i);
                    i += 1;
                    continue;
                }
                let closing = if single { c == b'\'' } else { c == b'"' };
                if closing && !(single && b.get(i + 1) == Some(&b'\'')) {
                    let end = QuotedEnd {
                        line: li,
                        col: i + 1,
                    };
                    let piece = raw(run, i)?;
                    return Some(match out {
                        None => (Cow::Borrowed(piece), end),
                        Some(mut o) => {
                            o.push_str(piece);
                            (Cow::Owned(o), end)
                        }
                    });
                }
                if closing || (!single && c == b'\\') {
                    let o = out.get_or_insert_with(String::new);
                    o.push_str(raw(run, i)?);
                    ws_start = None;
                    if closing {
                        // A doubled single quote.
                        o.push('\'');
                        i += 2;
                    } else if i + 1 == b.len() {
                        // An escaped line break: nothing is added for it.
                        escaped_break = true;
                        i += 1;
                        run = i;
                        break;
                    } else {
                        let (ch, used) = unescape(&b[i + 1..])?;
                        o.push(ch);
                        i += 1 + used;
                    }
                    run = i;
                    continue;
                }
                ws_start = None;
                i += 1;
            }
            // End of the line inside the scalar: from here on the text is folded.
            let o = out.get_or_insert_with(String::new);
            if !escaped_break {
                // Blanks before a line break are dropped.
                o.push_str(raw(run, ws_start.unwrap_or(b.len()))?);
            }
            if !l.broken {
                return None; // unterminated
            }
            // Skip blank lines, counting them; find the continuation.
            let mut empty = 0usize;
            let mut j = li + 1;
            let cont = loop {
                let lj = self.line(j)?;
                if lj.is_blank() {
                    if !lj.broken {
                        return None;
                    }
                    empty += 1;
                    j += 1;
                    continue;
                }
                break lj;
            };
            let first = self.at(j, cont.indent)?;
            let closing = if single {
                first == b'\''
            } else {
                first == b'"'
            };
            if !escaped_break && !closing && (cont.indent as isize) <= parent {
                return None;
            }
            if !escaped_break && empty == 0 {
                o.push(' ');
            } else {
                o.extend(std::iter::repeat_n('\n', empty));
            }
            li = j;
            i = cont.indent;
        }
    }

    /// A block scalar (`|` or `>`) whose indicator is at column `col` of line
    /// `li`, in a block collection indented `parent` columns: its text, the line
    /// the general parser says it starts on, and the next line. This mirrors the
    /// general parser's scanner step by step.
    pub(super) fn block_scalar(
        &self,
        li: usize,
        col: usize,
        parent: usize,
    ) -> Option<(String, usize, usize)> {
        let literal = self.at(li, col)? == b'|';
        let mut c = col + 1;
        let mut chomp = Chomp::Clip;
        let mut increment = 0usize;
        let chomp_of = |b: u8| if b == b'+' { Chomp::Keep } else { Chomp::Strip };
        match self.at(li, c) {
            Some(b @ (b'+' | b'-')) => {
                chomp = chomp_of(b);
                c += 1;
                if let Some(d @ b'0'..=b'9') = self.at(li, c) {
                    if d == b'0' {
                        return None;
                    }
                    increment = usize::from(d - b'0');
                    c += 1;
                }
            }
            Some(d @ b'0'..=b'9') => {
                if d == b'0' {
                    return None;
                }
                increment = usize::from(d - b'0');
                c += 1;
                if let Some(b @ (b'+' | b'-')) = self.at(li, c) {
                    chomp = chomp_of(b);
                    c += 1;
                }
            }
            _ => {}
        }
        if !self.rest_is_comment(li, c) {
            return None;
        }
        let header = self.line(li)?;
        let nlines = self.lines.len();
        let mut s = String::new();
        // Cursor: line `cl`, `cc` spaces consumed; `eof` when past the text.
        let (mut cl, mut cc) = (li, header.len());
        let chomping_break = header.broken;
        if header.broken {
            cl = li + 1;
            cc = 0;
        }
        let eof = |cl: usize, cc: usize| -> bool {
            match self.lines.get(cl) {
                None => true,
                Some(l) => !l.broken && cc >= l.len(),
            }
        };
        let at_break = |cl: usize, cc: usize| -> bool {
            self.lines
                .get(cl)
                .is_some_and(|l| l.broken && cc >= l.len())
        };
        let mut breaks = 0usize;
        let mut indent = if increment > 0 { parent + increment } else { 0 };
        if indent == 0 {
            let mut max_indent = 0;
            while let Some(l) = self.lines.get(cl) {
                if eof(cl, cc) {
                    break;
                }
                cc = l.indent;
                max_indent = max_indent.max(cc);
                if at_break(cl, cc) {
                    cl += 1;
                    cc = 0;
                    breaks += 1;
                } else {
                    break;
                }
            }
            indent = max_indent.max(parent + 1);
        } else {
            self.skip_block_indent(indent, &mut cl, &mut cc, &mut breaks);
        }
        if eof(cl, cc) {
            let text = match chomp {
                Chomp::Strip => String::new(),
                _ if !chomping_break => String::new(),
                Chomp::Clip => String::new(),
                Chomp::Keep if breaks == 0 && cc > 0 => "\n".to_owned(),
                Chomp::Keep => "\n".repeat(breaks),
            };
            return Some((text, li, nlines));
        }
        let first_line = cl;
        if cc < indent && cc > parent {
            return None;
        }
        let mut leading_break = false;
        let mut leading_blank = false;
        let mut trailing_breaks = breaks;
        while cc == indent && !eof(cl, cc) {
            let l = self.lines.get(cl)?;
            let trailing_blank = self.at(cl, cc) == Some(b' ');
            if !literal && leading_break && !leading_blank && !trailing_blank {
                s.extend(std::iter::repeat_n('\n', trailing_breaks));
                if trailing_breaks == 0 {
                    s.push(' ');
                }
            } else {
                if leading_break {
                    s.push('\n');
                }
                s.extend(std::iter::repeat_n('\n', trailing_breaks));
            }
            leading_break = false;
            trailing_breaks = 0;
            leading_blank = trailing_blank;
            s.push_str(self.slice(cl, cc, l.len())?);
            cc = l.len();
            if !l.broken {
                break;
            }
            cl += 1;
            cc = 0;
            leading_break = true;
            self.skip_block_indent(indent, &mut cl, &mut cc, &mut trailing_breaks);
        }
        let at_eof = eof(cl, cc);
        if chomp != Chomp::Strip {
            if !leading_break && at_eof && cc >= indent.max(1) {
                s.push('\n');
            }
            if leading_break {
                s.push('\n');
            }
        }
        if chomp == Chomp::Keep {
            s.extend(std::iter::repeat_n('\n', trailing_breaks));
        }
        Some((s, first_line, if at_eof { nlines } else { cl }))
    }

    /// Skip up to `indent` spaces and any lines that are empty at that
    /// indentation, counting them in `breaks`.
    fn skip_block_indent(&self, indent: usize, cl: &mut usize, cc: &mut usize, breaks: &mut usize) {
        loop {
            let Some(l) = self.lines.get(*cl) else { return };
            while *cc < indent && *cc < l.len() && self.at(*cl, *cc) == Some(b' ') {
                *cc += 1;
            }
            if l.broken && *cc >= l.len() {
                *cl += 1;
                *cc = 0;
                *breaks += 1;
            } else {
                return;
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chomp {
    Strip,
    Clip,
    Keep,
}

/// Resolve a double-quoted escape whose letter starts `rest`: the character and
/// how many bytes of `rest` it used.
fn unescape(rest: &[u8]) -> Option<(char, usize)> {
    let letter = *rest.first()?;
    let simple = match letter {
        b'0' => '\0',
        b'a' => '\x07',
        b'b' => '\x08',
        b't' => '\t',
        b'n' => '\n',
        b'v' => '\x0b',
        b'f' => '\x0c',
        b'r' => '\r',
        b'e' => '\x1b',
        b' ' => ' ',
        b'"' => '"',
        b'/' => '/',
        b'\\' => '\\',
        b'N' => '\u{85}',
        b'_' => '\u{a0}',
        b'L' => '\u{2028}',
        b'P' => '\u{2029}',
        b'x' => return hex_escape(rest, 2),
        b'u' => return hex_escape(rest, 4),
        b'U' => return hex_escape(rest, 8),
        _ => return None,
    };
    Some((simple, 1))
}

/// `\x`, `\u` or `\U` followed by `n` hex digits (a `\u` high surrogate must be
/// followed by a `\u` low surrogate).
fn hex_escape(rest: &[u8], n: usize) -> Option<(char, usize)> {
    let hex = |digits: &[u8]| -> Option<u32> {
        digits.iter().try_fold(0u32, |acc, &d| {
            let v = char::from(d).to_digit(16)?;
            Some((acc << 4) | v)
        })
    };
    let mut value = hex(rest.get(1..1 + n)?)?;
    let mut used = 1 + n;
    if n == 4 && (0xD800..=0xDBFF).contains(&value) {
        if rest.get(used..used + 2) != Some(b"\\u") {
            return None;
        }
        let low = hex(rest.get(used + 2..used + 6)?)?;
        if !(0xDC00..=0xDFFF).contains(&low) {
            return None;
        }
        value = 0x10000 + (((value - 0xD800) << 10) | (low - 0xDC00));
        used += 6;
    } else if n == 4 && (0xDC00..=0xDFFF).contains(&value) {
        return None;
    }
    Some((char::from_u32(value)?, used))
}
