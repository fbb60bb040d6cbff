//! Reading a JSON stream (concatenated JSON values, as opm's decoder reads
//! them) into documents: in one pass, or for a large text in pieces on all
//! threads; each document by the fast reader when the [`Readers`] allow and it
//! can, else by serde_json, checked for what Go refuses.

use std::sync::Arc;

use rayon::prelude::*;

use olmsat_encoding::limits::MAX_DEPTH;
use olmsat_encoding::location::{LineCounter, Location};
use olmsat_encoding::rawjson::JsonItem;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

use super::doc::{self, not_object, DocResult, NotAnObject};
use super::fast::{FastDoc, Readers};
use super::go_json::{self, GoJsonError};
use super::text::{piece_bounds, LineTable, PARALLEL_BYTES};

/// A JSON document the loader refuses (its texts are opm's, or say what
/// olmsat refuses beyond it).
#[derive(Debug, thiserror::Error)]
pub enum JsonError {
    /// Not JSON, in words Go's decoder has no text for (serde_json's).
    #[error("invalid JSON: {}", strip_json_position(.0))]
    Syntax(#[source] serde_json::Error),
    /// Not JSON: Go's `invalid character ...`, with the decoder's byte offset
    /// when apimachinery reports it (the file's first two values, before it
    /// gives up on reading the file as YAML instead).
    #[error("{}{message}", offset.map(|o| format!("json: offset {o}: ")).unwrap_or_default())]
    GoSyntax {
        /// `invalid character 'x' after object key`, ...
        message: String,
        /// Bytes read up to and including the offending one.
        offset: Option<usize>,
    },
    /// The text ends inside a value (Go's `io.ErrUnexpectedEOF`).
    #[error("unexpected EOF")]
    UnexpectedEof,
    /// A number Go's float64 cannot hold.
    #[error("json: cannot unmarshal number {0} into Go value of type float64")]
    NumberOutOfRange(String),
    /// Nested deeper than [`MAX_DEPTH`].
    #[error("JSON nested deeper than {MAX_DEPTH} levels; olmsat refuses it")]
    TooDeep,
}

/// A document as the JSON reader hands it on: read by serde_json into fields
/// (or refused), or read whole by the fast reader.
#[derive(Debug)]
pub(crate) enum JsonRead<'a> {
    Doc(DocResult<'a>),
    Fast(FastDoc<'a>, Location),
}

/// Split a JSON stream into documents, reading each object's members in the same
/// pass (values borrowed from `text`). Fails (for the YAML fallback) when the
/// first or second value cannot be decoded.
#[cfg(test)]
pub(crate) fn json_docs<'a>(
    file: &Arc<str>,
    text: &'a str,
) -> Result<Vec<JsonRead<'a>>, Box<Diagnostic>> {
    json_docs_map::<_, Vec<_>>(file, text, None, Readers::Fast, &Some)
        .map(|pieces| pieces.into_iter().flatten().collect())
}

/// [`json_docs`], passing each document through `map` as soon as it is read;
/// the results come in pieces, in order.
pub(crate) fn json_docs_map<'a, T, C: Default + Extend<T> + Send>(
    file: &Arc<str>,
    text: &'a str,
    lines: Option<&LineTable>,
    readers: Readers,
    map: &(impl Fn(JsonRead<'a>) -> Option<T> + Sync),
) -> Result<Vec<C>, Box<Diagnostic>> {
    if text.len() >= PARALLEL_BYTES {
        if let Some(pieces) = json_docs_parallel(file, text, lines, readers, map) {
            return Ok(pieces);
        }
    }
    let docs = json_docs_in(
        file,
        text,
        0..text.len(),
        LineCounter::new(text),
        false,
        readers,
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
pub(crate) fn json_docs_parallel<'a, T, C: Default + Extend<T> + Send>(
    file: &Arc<str>,
    text: &'a str,
    lines: Option<&LineTable>,
    readers: Readers,
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
            json_docs_in(file, text, r, lines, true, readers, map).ok()
        })
        .collect();
    parts.into_iter().collect()
}

/// Read the JSON documents in `range` of `text`. With `strict`, any invalid
/// JSON is an error; otherwise it ends the stream with an error document,
/// unless it comes in the first two values (then the file may be YAML).
///
/// With [`Readers::Fast`], bundles and channels of the usual shape are read
/// by the fast JSON reader; every other document, and any the fast reader
/// declines, by serde_json.
pub(crate) fn json_docs_in<'a, T, C: Default + Extend<T>>(
    file: &Arc<str>,
    text: &'a str,
    range: std::ops::Range<usize>,
    mut lines: LineCounter<'a>,
    strict: bool,
    readers: Readers,
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
        if bytes[pos] == b'{' {
            if let Some((doc, end)) = readers.json(piece, pos, base, &mut lines) {
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
                let raw = &rest[..stream.byte_offset()];
                pos += stream.byte_offset();
                read += 1;
                out.extend(map(JsonRead::Doc(json_item(
                    item, raw, text, &mut lines, loc,
                ))));
            }
            Some(Err(e)) => {
                // serde_json counts from `rest`, which starts at `line`, `col`.
                let mut err_line = match e.line() {
                    0 => 0,
                    l => line as usize + l - 1,
                };
                let mut err_col = if e.line() <= 1 {
                    e.column() + (col as usize).saturating_sub(1)
                } else {
                    e.column()
                };
                // Go's words for it, at the byte where Go stops.
                let error = match go_json::first_error(rest.as_bytes()) {
                    Some(GoJsonError::Syntax { message, at }) => {
                        let (l, c) = lines.line_col(base + pos + at);
                        (err_line, err_col) = (l as usize, c as usize);
                        JsonError::GoSyntax {
                            message,
                            offset: (read <= 1).then_some(base + pos + at + 1),
                        }
                    }
                    Some(GoJsonError::UnexpectedEof) => JsonError::UnexpectedEof,
                    // serde_json refuses what Go reads (e.g. a lone surrogate).
                    None => JsonError::Syntax(e),
                };
                let d = Diagnostic::new(Rule::ParseError, error.to_string()).at(&Location::new(
                    file.clone(),
                    to_u32_line(err_line),
                )
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

/// A document serde_json read (`raw` is its text), checked for numbers Go
/// refuses and for depth, made into fields.
pub(crate) fn json_item<'a>(
    item: JsonItem<'a>,
    raw: &str,
    text: &str,
    lines: &mut LineCounter<'_>,
    loc: Location,
) -> DocResult<'a> {
    let members = match item {
        JsonItem::Object(m) => m,
        // opm's decoder hands `null` to its blob type, which keeps it as the
        // blob `null` (re-encoded with a newline) with no schema.
        JsonItem::Other("null") => {
            let e = super::blob::BlobError::MissingSchema("null\n".to_owned());
            return Err(Box::new(Diagnostic::new(e.rule(), e.to_string()).at(&loc)));
        }
        JsonItem::Other(kind) => {
            let e = NotAnObject {
                kind,
                data: raw.to_owned(),
                from_yaml: false,
            };
            return Err(not_object(e, &loc));
        }
    };
    let mut depth = 1;
    let mut out_of_range = None;
    for (_, v) in &members {
        let found = olmsat_encoding::rawjson::scan(v.get());
        depth = depth.max(1 + found.depth);
        out_of_range = out_of_range.or(found.out_of_range);
    }
    let refused = match out_of_range {
        // opm decodes every blob into Go values first; this is its error.
        Some(n) => Some(JsonError::NumberOutOfRange(n.to_owned())),
        None => (depth > MAX_DEPTH).then_some(JsonError::TooDeep),
    };
    if let Some(error) = refused {
        return Err(Box::new(
            Diagnostic::new(Rule::ParseError, error.to_string()).at(&loc),
        ));
    }
    Ok((doc::json_doc(members, text, lines), loc, None))
}

fn to_u32_line(n: usize) -> u32 {
    olmsat_encoding::location::to_u32(n)
}

/// serde_json's message without the position it appends (locations carry it).
fn strip_json_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_owned(),
        None => s,
    }
}
