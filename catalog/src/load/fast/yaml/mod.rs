//! A fast reader for the block-style YAML that catalogs are written in.
//!
//! opm writes YAML through go-yaml v2: block mappings and sequences, plain and
//! quoted scalars folded at column 80, literal block scalars and empty flow
//! collections. This module reads exactly that subset straight into a
//! [`YamlDoc`], with no event stream and no tree, and gives up (returns `None`)
//! on anything else, leaving the document to the general YAML parser. It must
//! produce what the general parser would: the same members in the same order,
//! the same JSON text for every value and the same `entries` item lines. So it
//! follows that parser's rules (its scanner's folding, chomping and indentation
//! rules) and declines wherever they would need more than this subset:
//!
//! - anchors, aliases, tags, directives, explicit (`?`) and complex keys, merge
//!   keys, flow collections other than `[]` and `{}`, tabs and carriage returns
//!   anywhere, characters outside YAML's printable set, document markers;
//! - duplicate keys in any mapping (the general parser reports them);
//! - anything malformed, over-long keys, nesting beyond [`MAX_NESTING`] levels or
//!   documents near the general parser's size budgets;
//! - documents that are not a mapping.
//!
//! Plain scalars that could be read as something other than a string (numbers,
//! booleans, nulls and their look-alikes) are resolved by handing just that
//! scalar to the general parser, so the typing rules are its own.

mod lines;
mod resolve;
mod scalars;

use std::borrow::Cow;
use std::collections::HashSet;

use crate::load::doc::YamlDoc;
use lines::Line;
use olmsat_encoding::rawjson::fold_eq;
use resolve::{needs_resolution, push_json_str, resolve_key};
use scalars::Stop;

/// Deepest nesting of collections accepted (well below the loader's limit, so a
/// document this reader accepts is never one the general parser refuses).
pub(crate) const MAX_NESTING: usize = 90;

/// Most nodes accepted in one document (below the general parser's budget).
const MAX_NODES: usize = 200_000;

/// Most scalar bytes accepted in one document (below the general parser's budget).
const MAX_SCALAR_BYTES: usize = 60 << 20;

/// Longest mapping key accepted, in bytes (YAML limits implicit keys to 1024
/// characters).
const MAX_KEY_BYTES: usize = 1000;

/// Parse one YAML document (the text of one chunk of a YAML stream) if it stays
/// within the supported subset; `None` means "use the general parser".
pub(crate) fn parse_document(text: &str) -> Option<YamlDoc> {
    if !lines::supported_characters(text.as_bytes()) {
        return None;
    }
    let mut p = Parser {
        text,
        lines: lines::split(text)?,
        depth: 0,
        nodes: 0,
        scalar_bytes: 0,
        key_lists: Vec::new(),
    };
    p.document()
}

/// What a node starting at some position is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sequence,
    Mapping,
    Scalar,
}

/// The reader's state over one document.
struct Parser<'a> {
    /// The document text.
    text: &'a str,
    /// Its lines.
    lines: Vec<Line>,
    /// Collections open at the current point.
    depth: usize,
    /// Nodes read so far.
    nodes: usize,
    /// Scalar bytes read so far.
    scalar_bytes: usize,
    /// Emptied key lists of finished mappings, for reuse.
    key_lists: Vec<Vec<Cow<'a, str>>>,
}

impl<'a> Parser<'a> {
    fn line(&self, li: usize) -> Option<Line> {
        self.lines.get(li).copied()
    }

    /// The byte at column `col` of line `li`, if the line is that long.
    fn at(&self, li: usize, col: usize) -> Option<u8> {
        let l = self.line(li)?;
        if col < l.len() {
            self.text.as_bytes().get(l.start + col).copied()
        } else {
            None
        }
    }

    /// Text of line `li` from column `from` to column `to`.
    fn slice(&self, li: usize, from: usize, to: usize) -> Option<&'a str> {
        let l = self.line(li)?;
        self.text.get(l.start + from..l.start + to)
    }

    /// First column at or after `col` on line `li` that is not a space.
    fn skip_spaces(&self, li: usize, mut col: usize) -> usize {
        while self.at(li, col) == Some(b' ') {
            col += 1;
        }
        col
    }

    /// Whether what follows column `col` is a blank or the end of the line.
    fn blank_after(&self, li: usize, col: usize) -> bool {
        matches!(self.at(li, col + 1), None | Some(b' '))
    }

    /// The first line at or after `from` holding content (not blank, not a comment).
    fn next_content(&self, from: usize) -> Option<usize> {
        (from..self.lines.len()).find(|&li| {
            let l = self.lines[li];
            !l.is_blank() && self.at(li, l.indent) != Some(b'#')
        })
    }

    /// Whether a plain scalar starts at column `col` of line `li`.
    fn starts_plain(&self, li: usize, col: usize) -> bool {
        match self.at(li, col) {
            None => false,
            Some(b'-' | b'?' | b':') => !self.blank_after(li, col),
            Some(c) => !olmsat_encoding::stream::go_yaml::is_indicator(c),
        }
    }

    /// Whether line `li` has a sequence entry indicator at column `col`.
    fn is_dash(&self, li: usize, col: usize) -> bool {
        self.at(li, col) == Some(b'-') && self.blank_after(li, col)
    }

    /// After a node that ended at the end of a line, the only thing allowed on the
    /// rest of the line from `col` is a comment.
    fn rest_is_comment(&self, li: usize, col: usize) -> bool {
        let c = self.skip_spaces(li, col);
        match self.at(li, c) {
            None => true,
            Some(b'#') => c > col,
            Some(_) => false,
        }
    }

    fn count_node(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= MAX_NODES).then_some(())
    }

    fn count_scalar(&mut self, len: usize) -> Option<()> {
        self.count_node()?;
        self.scalar_bytes += len;
        (self.scalar_bytes <= MAX_SCALAR_BYTES).then_some(())
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_NESTING).then_some(())
    }

    // ---- document and collections --------------------------------------------

    fn document(&mut self) -> Option<YamlDoc> {
        let first = self.next_content(0)?;
        let col = self.lines[first].indent;
        if self.classify(first, col)? != Kind::Mapping {
            return None;
        }
        self.enter()?;
        self.count_node()?;
        let mut fields: Vec<(String, String)> = Vec::with_capacity(8);
        let mut entry_lines = Vec::new();
        let mut keys = KeySet {
            list: Vec::new(),
            set: None,
        };
        let mut li = first;
        loop {
            let (key, after) = self.key(li, col)?;
            if !keys.insert(key.clone()) {
                return None;
            }
            let mut value = String::with_capacity(self.json_size_hint(li, col));
            let next = if fold_eq(&key, "entries") {
                let mut lines = Vec::new();
                let next = self.value(li, after, col, &mut value, Some(&mut lines))?;
                entry_lines = lines;
                next
            } else {
                self.value(li, after, col, &mut value, None)?
            };
            fields.push((key.into_owned(), value));
            match self.next_entry(next, col)? {
                Some(n) => li = n,
                None => break,
            }
        }
        Some(YamlDoc::Object {
            fields,
            entry_lines,
        })
    }

    /// After a mapping member whose value ended before line `next`: the line of
    /// the next key of the mapping at column `col`, `None` at the mapping's end,
    /// or a failure for anything else.
    fn next_entry(&self, next: usize, col: usize) -> Option<Option<usize>> {
        match self.next_content(next) {
            None => Some(None),
            Some(lj) => {
                let ind = self.lines[lj].indent;
                if ind < col {
                    if self.depth == 1 {
                        // The root mapping must hold the whole document.
                        return None;
                    }
                    Some(None)
                } else if ind == col && !self.is_dash(lj, col) {
                    Some(Some(lj))
                } else {
                    None
                }
            }
        }
    }

    /// What the node starting at column `col` of line `li` is.
    fn classify(&self, li: usize, col: usize) -> Option<Kind> {
        let c = self.at(li, col)?;
        Some(match c {
            b'-' if self.blank_after(li, col) => Kind::Sequence,
            b'"' | b'\'' => match self.closes_on_line(li, col) {
                Some(end) if self.colon_follows(li, end) => Kind::Mapping,
                _ => Kind::Scalar,
            },
            _ if !self.starts_plain(li, col) => Kind::Scalar,
            _ => {
                if self.plain_line(li, col).1 == Stop::Colon {
                    Kind::Mapping
                } else {
                    Kind::Scalar
                }
            }
        })
    }

    /// Whether, after optional spaces from `col`, line `li` has a `:` value
    /// indicator (followed by a space or the line's end).
    fn colon_follows(&self, li: usize, col: usize) -> bool {
        let c = self.skip_spaces(li, col);
        self.at(li, c) == Some(b':') && self.blank_after(li, c)
    }

    /// Parse the block node starting at column `col` of line `li` into `out`;
    /// `parent` is the indentation of the enclosing block collection. Returns the
    /// first line after the node.
    fn node(
        &mut self,
        li: usize,
        col: usize,
        parent: usize,
        out: &mut String,
        lines: Option<&mut Vec<u32>>,
    ) -> Option<usize> {
        match self.classify(li, col)? {
            Kind::Sequence => self.sequence(li, col, out, lines),
            Kind::Mapping => self.mapping(li, col, out),
            Kind::Scalar => self.scalar(li, col, parent, out),
        }
    }

    /// A block mapping whose keys are at column `col`, the first one on line `li`.
    fn mapping(&mut self, mut li: usize, col: usize, out: &mut String) -> Option<usize> {
        self.enter()?;
        self.count_node()?;
        out.push('{');
        let mut keys = KeySet {
            list: self.key_lists.pop().unwrap_or_default(),
            set: None,
        };
        let mut first = true;
        loop {
            let (key, after) = self.key(li, col)?;
            if !first {
                out.push(',');
            }
            first = false;
            push_json_str(out, &key);
            out.push(':');
            if !keys.insert(key) {
                return None;
            }
            let next = self.value(li, after, col, out, None)?;
            match self.next_entry(next, col)? {
                Some(n) => li = n,
                None => {
                    out.push('}');
                    self.depth -= 1;
                    let mut list = keys.list;
                    list.clear();
                    self.key_lists.push(list);
                    return Some(next);
                }
            }
        }
    }

    /// About how many bytes of JSON the value of the mapping member whose key is
    /// on line `li`, in a mapping at column `col`, makes: the size of its YAML.
    fn json_size_hint(&self, li: usize, col: usize) -> usize {
        let start = self.lines.get(li).map_or(0, |l| l.start);
        let end = (li + 1..self.lines.len())
            .find(|&j| {
                let l = self.lines[j];
                l.indent <= col && !l.is_blank() && self.at(j, l.indent) != Some(b'#')
            })
            .map_or(self.text.len(), |j| self.lines[j].start);
        let size = end.saturating_sub(start);
        size + size / 8 + 16
    }

    /// A block sequence whose entry indicators are at column `col`, the first one
    /// on line `li`. With `lines`, the (1-based) line of each item is recorded.
    fn sequence(
        &mut self,
        mut li: usize,
        col: usize,
        out: &mut String,
        mut lines: Option<&mut Vec<u32>>,
    ) -> Option<usize> {
        self.enter()?;
        self.count_node()?;
        out.push('[');
        let mut first = true;
        loop {
            if !first {
                out.push(',');
            }
            first = false;
            let item_col = self.skip_spaces(li, col + 1);
            let next = match self.at(li, item_col) {
                None | Some(b'#') => match self.next_content(li + 1) {
                    Some(lj) if self.lines[lj].indent > col => {
                        if let Some(l) = lines.as_deref_mut() {
                            l.push(line_number(lj)?);
                        }
                        let ind = self.lines[lj].indent;
                        self.node(lj, ind, col, out, None)?
                    }
                    _ => {
                        if lines.is_some() {
                            // Where the general parser places an empty item is
                            // not worth replicating.
                            return None;
                        }
                        self.count_scalar(0)?;
                        out.push_str("null");
                        li + 1
                    }
                },
                Some(b'|' | b'>') => {
                    let (s, first, next) = self.block_scalar(li, item_col, col)?;
                    if let Some(l) = lines.as_deref_mut() {
                        // The general parser places a block scalar at its first
                        // content line.
                        l.push(line_number(first)?);
                    }
                    self.count_scalar(s.len())?;
                    push_json_str(out, &s);
                    next
                }
                Some(_) => {
                    if let Some(l) = lines.as_deref_mut() {
                        l.push(line_number(li)?);
                    }
                    self.node(li, item_col, col, out, None)?
                }
            };
            match self.next_content(next) {
                Some(lj) if self.lines[lj].indent == col && self.is_dash(lj, col) => li = lj,
                Some(lj) if self.lines[lj].indent > col => return None,
                _ => {
                    out.push(']');
                    self.depth -= 1;
                    return Some(next);
                }
            }
        }
    }

    /// The value of a mapping member whose `:` ends before column `after` of
    /// line `li`, in a mapping at column `col`.
    fn value(
        &mut self,
        li: usize,
        after: usize,
        col: usize,
        out: &mut String,
        lines: Option<&mut Vec<u32>>,
    ) -> Option<usize> {
        let vc = self.skip_spaces(li, after);
        match self.at(li, vc) {
            None | Some(b'#') => match self.next_content(li + 1) {
                Some(lj) if self.lines[lj].indent > col => {
                    let ind = self.lines[lj].indent;
                    self.node(lj, ind, col, out, lines)
                }
                Some(lj) if self.lines[lj].indent == col && self.is_dash(lj, col) => {
                    self.sequence(lj, col, out, lines)
                }
                _ => {
                    self.count_scalar(0)?;
                    out.push_str("null");
                    Some(li + 1)
                }
            },
            Some(_) => self.scalar(li, vc, col, out),
        }
    }

    /// A mapping key at column `col` of line `li`: the key as the loader names it
    /// and the column just after its `:`.
    fn key(&mut self, li: usize, col: usize) -> Option<(Cow<'a, str>, usize)> {
        let c = self.at(li, col)?;
        let (key, colon) = match c {
            b'"' | b'\'' => {
                let (key, end) = self.quoted(li, col, -1)?;
                if end.line != li {
                    return None;
                }
                let colon = self.skip_spaces(li, end.col);
                if self.at(li, colon) != Some(b':') || !self.blank_after(li, colon) {
                    return None;
                }
                (key, colon)
            }
            _ if !self.starts_plain(li, col) => return None,
            _ => {
                let (end, stop, colon) = self.plain_line(li, col);
                if stop != Stop::Colon {
                    return None;
                }
                let text = self.slice(li, col, end)?;
                if text == "<<" {
                    return None;
                }
                let key = if needs_resolution(text) {
                    Cow::Owned(resolve_key(text)?)
                } else {
                    Cow::Borrowed(text)
                };
                (key, colon)
            }
        };
        if colon - col > MAX_KEY_BYTES {
            return None;
        }
        self.count_scalar(key.len())?;
        Some((key, colon + 1))
    }

    // ---- scalars -------------------------------------------------------------
}

/// The keys of one mapping, for duplicate detection.
struct KeySet<'a> {
    list: Vec<Cow<'a, str>>,
    set: Option<HashSet<Cow<'a, str>>>,
}

impl<'a> KeySet<'a> {
    /// Add a key; false if it was already there.
    fn insert(&mut self, key: Cow<'a, str>) -> bool {
        if let Some(set) = &mut self.set {
            return set.insert(key);
        }
        if self.list.contains(&key) {
            return false;
        }
        self.list.push(key);
        if self.list.len() > 32 {
            self.set = Some(std::mem::take(&mut self.list).into_iter().collect());
        }
        true
    }
}

/// 1-based line number of line index `li`.
fn line_number(li: usize) -> Option<u32> {
    u32::try_from(li + 1).ok()
}

#[cfg(test)]
mod tests;
