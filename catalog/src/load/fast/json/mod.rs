//! The fast reader for JSON `olm.bundle` and `olm.channel` documents of the
//! usual shape: it checks the syntax and takes the members out in one pass over
//! the text, where the general reader (serde_json, then the blob conversion)
//! walks a document three or four times.
//!
//! It reads only what it can read exactly as the general reader does, and
//! declines everything else, which then goes to the general reader, so errors,
//! warnings and every unusual case keep their one implementation:
//! - the first member must be `"schema"`, and the schema `olm.bundle` or
//!   `olm.channel`;
//! - members, property items, related images and channel entries may hold only
//!   the fields opm's types have, spelled exactly (Go's case-insensitive
//!   matching and the warning about unknown fields are the general reader's),
//!   each at most once;
//! - the strings it keeps (names, images, property types, ...) must have no
//!   escape sequences, `null` stands nowhere a string or list is expected, and
//!   no property type is empty or value `null`;
//! - numbers with an exponent or longer than 300 characters, and nesting
//!   deeper than [`MAX_DEPTH`], are declined (the general reader decides
//!   whether they fit Go's float64 and reports the depth).
//!
//! Everything it skips (property values) is checked as serde_json checks it:
//! strings without raw control characters and with valid escapes, numbers and
//! literals spelled as JSON spells them. A property test checks that every
//! document it reads gives the same blob as the general reader.

use std::ops::Range;

use olmsat_encoding::rawjson::RawJson;

use crate::declcfg::{Bundle, Channel, ChannelEntry, Property, RelatedImage};
use crate::property::types;
use olmsat_encoding::location::{LineCounter, Location};

use super::scan::{string_stop, whitespace_run};
use crate::declcfg::BundleReading;
use crate::load::blob::Blob;
use olmsat_encoding::limits::MAX_DEPTH;

/// A document the fast reader read, as spans of the file text.
#[derive(Debug)]
pub(crate) struct FastDoc<'a> {
    /// The `package` member (empty when absent).
    pub package: &'a str,
    /// The rest, by schema.
    kind: FastKind<'a>,
}

#[derive(Debug)]
enum FastKind<'a> {
    Bundle(BundleText<'a>),
    Channel(ChannelText<'a>),
}

/// Property items as (type, value) texts.
type Properties<'a> = Vec<(&'a str, &'a str)>;

#[derive(Debug, Default)]
struct BundleText<'a> {
    name: &'a str,
    image: &'a str,
    properties: Properties<'a>,
    related_images: Vec<(&'a str, &'a str)>,
}

#[derive(Debug, Default)]
struct ChannelText<'a> {
    name: &'a str,
    entries: Vec<EntryText<'a>>,
    /// Every entry's skips, one after another.
    skips: Vec<&'a str>,
    properties: Properties<'a>,
}

#[derive(Debug)]
struct EntryText<'a> {
    name: &'a str,
    replaces: &'a str,
    /// Its skips in [`ChannelText::skips`].
    skips: Range<u32>,
    skip_range: &'a str,
    /// Where the entry starts in the piece (files are at most
    /// [`MAX_FILE_BYTES`](olmsat_encoding::limits::MAX_FILE_BYTES) long) until the document is
    /// read, then its 1-based file line.
    at: u32,
}

/// Read the document starting at `start` (a `{`) of `piece`, which begins at
/// byte `base` of the text `lines` counts in. Returns the document and the
/// offset in `piece` just past it, or `None` when the general reader must read
/// it (nothing is consumed then, and `lines` has not been asked past `start`).
pub(crate) fn read<'a>(
    piece: &'a str,
    start: usize,
    base: usize,
    lines: &mut LineCounter<'_>,
) -> Option<(FastDoc<'a>, usize)> {
    let mut r = Reader {
        s: piece,
        b: piece.as_bytes(),
        i: start,
    };
    let doc = r.document()?;
    // Entry lines are counted only once the whole document is known to be read
    // here, so a declined document leaves the counter where it was.
    let doc = match doc {
        Parsed::Bundle(package, b) => FastDoc {
            package,
            kind: FastKind::Bundle(b),
        },
        Parsed::Channel(package, mut c) => {
            for e in &mut c.entries {
                e.at = lines.line_col(base + e.at as usize).0;
            }
            FastDoc {
                package,
                kind: FastKind::Channel(c),
            }
        }
    };
    Some((doc, r.i))
}

impl FastDoc<'_> {
    /// Make the blob, reading a bundle as far as `reading` says.
    pub(crate) fn into_blob(self, loc: &Location, reading: BundleReading) -> Blob {
        match self.kind {
            FastKind::Bundle(b) => {
                let graph = reading == BundleReading::Graph;
                let keep = |t: &str| !graph || t == types::PACKAGE || t == types::DEPRECATED;
                Blob::Bundle(Bundle {
                    name: b.name.to_owned(),
                    package: self.package.to_owned(),
                    image: if graph {
                        String::new()
                    } else {
                        b.image.to_owned()
                    },
                    properties: properties(&b.properties, keep),
                    related_images: if graph {
                        Vec::new()
                    } else {
                        b.related_images
                            .iter()
                            .map(|(name, image)| RelatedImage {
                                name: (*name).to_owned(),
                                image: (*image).to_owned(),
                            })
                            .collect()
                    },
                    location: loc.clone(),
                })
            }
            FastKind::Channel(c) => {
                let non_empty = |s: &str| (!s.is_empty()).then(|| s.to_owned());
                let entries = c
                    .entries
                    .iter()
                    .map(|e| ChannelEntry {
                        name: e.name.to_owned(),
                        replaces: non_empty(e.replaces),
                        skips: c.skips[e.skips.start as usize..e.skips.end as usize]
                            .iter()
                            .map(|s| (*s).to_owned())
                            .collect(),
                        skip_range: non_empty(e.skip_range),
                        location: loc.at(e.at, 0),
                    })
                    .collect();
                Blob::Channel(Channel {
                    name: c.name.to_owned(),
                    package: self.package.to_owned(),
                    entries,
                    properties: properties(&c.properties, |_| true),
                    location: loc.clone(),
                })
            }
        }
    }
}

fn properties(items: &[(&str, &str)], keep: impl Fn(&str) -> bool) -> Vec<Property> {
    // Allocated at its final size (filtering and collecting would start at
    // four properties).
    let mut kept = Vec::with_capacity(items.iter().filter(|(t, _)| keep(t)).count());
    for (t, v) in items.iter().filter(|(t, _)| keep(t)) {
        // The value was read as one JSON value (and its numbers and depth
        // checked) by this reader.
        kept.push(Property {
            type_: (*t).to_owned(),
            value: RawJson::from_checked((*v).to_owned()),
        });
    }
    kept
}

enum Parsed<'a> {
    Bundle(&'a str, BundleText<'a>),
    Channel(&'a str, ChannelText<'a>),
}

/// Bits for the members seen, to refuse repeated ones.
struct Seen(u32);

impl Seen {
    /// Record member `bit`; `None` when it was seen before.
    fn first(&mut self, bit: u32) -> Option<()> {
        let mask = 1 << bit;
        if self.0 & mask != 0 {
            return None;
        }
        self.0 |= mask;
        Some(())
    }
}

struct Reader<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    /// The document (each channel entry with its piece offset).
    fn document(&mut self) -> Option<Parsed<'a>> {
        self.expect(b'{')?;
        if self.key()? != "schema" {
            return None;
        }
        let schema = self.plain()?;
        let mut package = "";
        let mut seen = Seen(0);
        match schema {
            "olm.bundle" => {
                let mut b = BundleText::default();
                while self.more_members()? {
                    match self.key()? {
                        "name" => b.name = self.once(&mut seen, 0, Self::plain)?,
                        "package" => package = self.once(&mut seen, 1, Self::plain)?,
                        "image" => b.image = self.once(&mut seen, 2, Self::plain)?,
                        "properties" => b.properties = self.once(&mut seen, 3, Self::properties)?,
                        "relatedImages" => {
                            b.related_images = self.once(&mut seen, 4, Self::related_images)?
                        }
                        _ => return None,
                    }
                }
                Some(Parsed::Bundle(package, b))
            }
            "olm.channel" => {
                let mut c = ChannelText::default();
                while self.more_members()? {
                    match self.key()? {
                        "name" => c.name = self.once(&mut seen, 0, Self::plain)?,
                        "package" => package = self.once(&mut seen, 1, Self::plain)?,
                        "entries" => {
                            seen.first(2)?;
                            self.entries(&mut c)?;
                        }
                        "properties" => c.properties = self.once(&mut seen, 3, Self::properties)?,
                        _ => return None,
                    }
                }
                Some(Parsed::Channel(package, c))
            }
            _ => None,
        }
    }

    /// Read a member's value with `read`, unless a member of that `bit` came
    /// before (then `None`: repeated members are the general reader's).
    fn once<T>(
        &mut self,
        seen: &mut Seen,
        bit: u32,
        read: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<T> {
        seen.first(bit)?;
        read(self)
    }

    /// After a member: `true` at a `,` (another member follows), `false` at the
    /// closing `}`.
    fn more_members(&mut self) -> Option<bool> {
        self.list_continues(b'}')
    }

    /// After an item or member: `true` past a `,`, `false` past `close`.
    fn list_continues(&mut self, close: u8) -> Option<bool> {
        let c = self.peek()?;
        self.i += 1;
        if c == b',' {
            Some(true)
        } else if c == close {
            Some(false)
        } else {
            None
        }
    }

    /// Whether a list just opened is empty (its closing byte is then consumed).
    fn closes_at_once(&mut self, close: u8) -> Option<bool> {
        if self.peek()? == close {
            self.i += 1;
            Some(true)
        } else {
            Some(false)
        }
    }

    /// A member's key (without escapes) and the `:` after it.
    fn key(&mut self) -> Option<&'a str> {
        let k = self.plain()?;
        self.expect(b':')?;
        Some(k)
    }

    /// `[ {"type": ..., "value": ...}, ... ]`
    fn properties(&mut self) -> Option<Properties<'a>> {
        self.expect(b'[')?;
        let mut out = Vec::new();
        if self.closes_at_once(b']')? {
            return Some(out);
        }
        loop {
            self.expect(b'{')?;
            let (mut type_, mut value) = (None, None);
            loop {
                match self.key()? {
                    "type" if type_.is_none() => type_ = Some(self.plain()?),
                    "value" if value.is_none() => {
                        self.ws();
                        let start = self.i;
                        // property array, item object: the value sits at depth 3.
                        self.value(3)?;
                        value = Some(&self.s[start..self.i]);
                    }
                    _ => return None,
                }
                if !self.more_members()? {
                    break;
                }
            }
            let (t, v) = (type_?, value?);
            if t.is_empty() || v == "null" {
                return None;
            }
            out.push((t, v));
            if !self.list_continues(b']')? {
                return Some(out);
            }
        }
    }

    /// `[ {"name": ..., "image": ...}, ... ]`
    fn related_images(&mut self) -> Option<Vec<(&'a str, &'a str)>> {
        self.expect(b'[')?;
        let mut out = Vec::new();
        if self.closes_at_once(b']')? {
            return Some(out);
        }
        loop {
            self.expect(b'{')?;
            let (mut name, mut image) = (None, None);
            if !self.closes_at_once(b'}')? {
                loop {
                    match self.key()? {
                        "name" if name.is_none() => name = Some(self.plain()?),
                        "image" if image.is_none() => image = Some(self.plain()?),
                        _ => return None,
                    }
                    if !self.more_members()? {
                        break;
                    }
                }
            }
            out.push((name.unwrap_or(""), image.unwrap_or("")));
            if !self.list_continues(b']')? {
                return Some(out);
            }
        }
    }

    /// `[ {"name": ..., "replaces": ..., "skips": [...], "skipRange": ...}, ... ]`
    fn entries(&mut self, c: &mut ChannelText<'a>) -> Option<()> {
        self.expect(b'[')?;
        if self.closes_at_once(b']')? {
            return Some(());
        }
        loop {
            self.expect(b'{')?;
            let skips = u32::try_from(c.skips.len()).ok()?;
            let mut e = EntryText {
                name: "",
                replaces: "",
                skips: skips..skips,
                skip_range: "",
                at: u32::try_from(self.i - 1).ok()?,
            };
            let mut seen = Seen(0);
            if !self.closes_at_once(b'}')? {
                loop {
                    match self.key()? {
                        "name" => e.name = self.once(&mut seen, 0, Self::plain)?,
                        "replaces" => e.replaces = self.once(&mut seen, 1, Self::plain)?,
                        "skips" => {
                            seen.first(2)?;
                            let from = e.skips.start;
                            self.expect(b'[')?;
                            if !self.closes_at_once(b']')? {
                                loop {
                                    c.skips.push(self.plain()?);
                                    if !self.list_continues(b']')? {
                                        break;
                                    }
                                }
                            }
                            e.skips = from..u32::try_from(c.skips.len()).ok()?;
                        }
                        "skipRange" => e.skip_range = self.once(&mut seen, 3, Self::plain)?,
                        _ => return None,
                    }
                    if !self.more_members()? {
                        break;
                    }
                }
            }
            c.entries.push(e);
            if !self.list_continues(b']')? {
                return Some(());
            }
        }
    }

    /// Skip JSON whitespace. Inlined (it runs before every token, and most
    /// tokens follow the one before at once); the scan of a run is not.
    #[inline(always)]
    fn ws(&mut self) {
        match self.b.get(self.i..self.i + 2) {
            Some(&[c, _]) if c > b' ' => return,
            // The single space after a key's colon.
            Some(&[b' ', c]) if c > b' ' => {
                self.i += 1;
                return;
            }
            _ => {}
        }
        self.skip_whitespace_run();
    }

    /// Skip the whitespace run the reader is at.
    #[inline(never)]
    fn skip_whitespace_run(&mut self) {
        self.i += whitespace_run(self.b.get(self.i..).unwrap_or_default());
    }

    /// The next byte after whitespace (not consumed).
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    /// Consume `c` after whitespace.
    #[inline]
    fn expect(&mut self, c: u8) -> Option<()> {
        if self.peek()? == c {
            self.i += 1;
            Some(())
        } else {
            None
        }
    }

    /// A string without escape sequences, borrowed.
    fn plain(&mut self) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.i;
        let end = start + string_stop(&self.b[start..]);
        if self.b.get(end) != Some(&b'"') {
            return None;
        }
        self.i = end + 1;
        // Both ends are at ASCII quotes, so they are character boundaries.
        self.s.get(start..end)
    }

    /// Skip a string (the reader is at its opening quote), checking its escapes
    /// and refusing raw control characters, as serde_json does.
    fn skip_string(&mut self) -> Option<()> {
        let mut i = self.i + 1;
        loop {
            i += string_stop(self.b.get(i..)?);
            match *self.b.get(i)? {
                b'"' => {
                    self.i = i + 1;
                    return Some(());
                }
                b'\\' => {
                    i = match *self.b.get(i + 1)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i + 2,
                        b'u' => {
                            let hex = self.b.get(i + 2..i + 6)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            i + 6
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
    }

    /// Skip and check any value nested inside `depth` arrays and objects.
    fn value(&mut self, depth: usize) -> Option<()> {
        match self.peek()? {
            b'"' => self.skip_string(),
            open @ (b'{' | b'[') => {
                if depth + 1 > MAX_DEPTH {
                    return None;
                }
                self.i += 1;
                let close = if open == b'{' { b'}' } else { b']' };
                if self.closes_at_once(close)? {
                    return Some(());
                }
                loop {
                    if open == b'{' {
                        if self.peek()? != b'"' {
                            return None;
                        }
                        self.skip_string()?;
                        self.expect(b':')?;
                    }
                    self.value(depth + 1)?;
                    if !self.list_continues(close)? {
                        return Some(());
                    }
                }
            }
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        if self.b.get(self.i..self.i + word.len())? == word {
            self.i += word.len();
            Some(())
        } else {
            None
        }
    }

    /// A number without exponent, at most 300 characters (always a finite
    /// float64).
    fn number(&mut self) -> Option<()> {
        let b = self.b;
        let digits = |mut i: usize| {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let mut i = self.i;
        if b[i] == b'-' {
            i += 1;
        }
        i = match *b.get(i)? {
            b'0' => i + 1,
            b'1'..=b'9' => digits(i + 1),
            _ => return None,
        };
        if b.get(i) == Some(&b'.') {
            let after = digits(i + 1);
            if after == i + 1 {
                return None;
            }
            i = after;
        }
        if matches!(b.get(i), Some(b'e' | b'E' | b'0'..=b'9')) || i - self.i > 300 {
            return None;
        }
        self.i = i;
        Some(())
    }
}

#[cfg(test)]
mod tests;
