//! One file's bytes to blobs: checked as text, read as a JSON or a YAML
//! stream, each document made a blob as soon as it is read (while its text is
//! still in the cache), the pieces joined in input order.

use std::sync::Arc;

use rayon::prelude::*;

use olmsat_encoding::location::Location;
use olmsat_encoding::stream::split;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

use super::blob;
use super::blob::Converted;
use super::doc::DocResult;
use super::join::PieceBlobs;
use super::json_stream::{json_docs_map, JsonRead};
use super::text::{checked_text, not_text};
use super::yaml_stream::yaml_docs;
use super::{Loaded, Options};

/// Load the bytes of the file named `name`.
pub(crate) fn parse_bytes(name: &Arc<str>, bytes: &[u8], options: &Options) -> Loaded {
    let select = &options.select;
    let readers = options.readers;
    let file = name.clone();
    let bom = bytes.starts_with(b"\xEF\xBB\xBF");
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let (text, line_table) = match checked_text(bytes) {
        Some(t) => (t.text, t.lines),
        None => return Loaded::error_only(not_text(file, bytes)),
    };
    let mut out = Loaded::default();
    // A JSON stream behind a byte-order mark or comment lines is YAML to
    // opm's decoder, and go-yaml keeps the first object of it.
    let behind = json_behind_prelude(text, bom);
    if let Some(b) = &behind {
        if let Some(rest_at) = b.rest {
            let line = olmsat_encoding::location::LineIndex::new(text)
                .line_col(rest_at)
                .0;
            out.diagnostics.push(
                Diagnostic::new(
                    Rule::JsonReadAsYaml,
                    format!(
                        "this JSON stream starts behind {}: opm's decoder looks for a '{{' first and does not see it, so it reads the file as YAML, which keeps only the first object; the rest of the file, from here, is ignored (as opm ignores it)",
                        b.prelude
                    ),
                )
                .at(&Location::new(file.clone(), line)),
            );
        }
    }
    let text = behind.as_ref().map_or(text, |b| &text[..b.first_end]);
    let reading = select.bundle_reading();
    let convert = |d: DocResult<'_>| -> Option<Converted> {
        match d {
            Err(e) => Some((Err(*e), Vec::new())),
            Ok((fields, _, _)) if !select.keeps(&fields) => None,
            Ok((fields, loc, warn)) => {
                let mut warnings: Vec<Diagnostic> = warn.into_iter().map(|w| *w).collect();
                let r = blob::to_blob_reading(fields, &loc, &mut warnings, reading)
                    .map_err(|e| Diagnostic::new(e.rule(), e.to_string()).at(&loc));
                Some((r, warnings))
            }
        }
    };
    // A file that looks like JSON but is not is read as YAML, as opm's
    // decoder reads it: when the first YAML document does not decode either,
    // the JSON error is the one reported; past it, YAML's own verdicts are
    // (an empty document, an error in a later one).
    let all_yaml = |text: &str| -> Option<Vec<PieceBlobs>> {
        let docs = yaml_docs(&file, text, readers).ok()?;
        let undecodable =
            |r: &DocResult<'_>| r.as_ref().is_err_and(|e| e.rule != Rule::MissingSchema);
        if docs.first().is_some_and(undecodable) {
            return None;
        }
        let converted: Vec<Converted> = docs.into_par_iter().filter_map(convert).collect();
        Some(vec![PieceBlobs::from_iter(converted)])
    };
    let convert_json = |d: JsonRead<'_>| -> Option<Converted> {
        match d {
            JsonRead::Doc(d) => convert(d),
            JsonRead::Fast(doc, _) if !select.keeps_package(doc.package) => None,
            JsonRead::Fast(doc, loc) => {
                let blob = blob::read_bundle_objects(doc.into_blob(&loc, reading))
                    .map_err(|e| Diagnostic::new(e.rule(), e.to_string()).at(&loc));
                Some((blob, Vec::new()))
            }
        }
    };
    // In pieces, as read, each sorted into its lists at once.
    let pieces: Vec<PieceBlobs> = if behind.is_none() && split::looks_like_json(text) {
        match json_docs_map(&file, text, line_table.as_ref(), readers, &convert_json) {
            Ok(c) => c,
            Err(json_err) => all_yaml(text)
                .unwrap_or_else(|| vec![PieceBlobs::from_iter([(Err(*json_err), Vec::new())])]),
        }
    } else {
        match yaml_docs(&file, text, readers) {
            Ok(d) => {
                let converted: Vec<Converted> = d.into_par_iter().filter_map(convert).collect();
                vec![PieceBlobs::from_iter(converted)]
            }
            Err(e) => vec![PieceBlobs::from_iter([(Err(*e), Vec::new())])],
        }
    };
    PieceBlobs::join(pieces, &mut out);
    out
}

/// A JSON stream that opm's decoder reads as YAML because something other
/// than white space comes before its first `{`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct JsonBehindPrelude {
    /// What comes first, in words.
    prelude: &'static str,
    /// Where the first JSON value ends (the text opm's YAML reading keeps).
    first_end: usize,
    /// Where the next value starts, when anything follows the first.
    rest: Option<usize>,
}

/// Whether `text` (after any byte-order mark, `bom`) is a JSON stream behind
/// a byte-order mark or comment lines: Go's decoder sniffs for `{` after
/// white space only, so it reads such a file as YAML, one document, of which
/// go-yaml decodes the first node and drops the rest unread.
fn json_behind_prelude(text: &str, bom: bool) -> Option<JsonBehindPrelude> {
    let mut at = 0usize;
    let mut comments = false;
    loop {
        let rest = &text[at..];
        let trimmed = rest.trim_start_matches([' ', '\t', '\r', '\n']);
        at += rest.len() - trimmed.len();
        if trimmed.starts_with('#') {
            comments = true;
            at += trimmed.find('\n').map_or(trimmed.len(), |i| i + 1);
            continue;
        }
        break;
    }
    if !text[at..].starts_with('{') || !(bom || comments) {
        return None;
    }
    let mut values =
        serde_json::Deserializer::from_str(&text[at..]).into_iter::<serde::de::IgnoredAny>();
    values.next()?.ok()?;
    let first_end = at + values.byte_offset();
    let after = &text[first_end..];
    let gap = after.len() - after.trim_start().len();
    let rest = (!after.trim().is_empty()).then_some(first_end + gap);
    Some(JsonBehindPrelude {
        prelude: if bom {
            "a byte-order mark"
        } else {
            "a comment line"
        },
        first_end,
        rest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_behind_a_mark_or_a_comment_is_found() {
        let t = "{\"a\": 1}\n{\"b\": 2}\n";
        let b = json_behind_prelude(t, true).expect("behind a BOM");
        assert_eq!((b.first_end, b.rest), (8, Some(9)));
        assert_eq!(json_behind_prelude(t, false), None);
        let t = "# c\n{\"a\": 1}\n";
        let b = json_behind_prelude(t, false).expect("behind a comment");
        assert_eq!(
            (b.first_end, b.rest, b.prelude),
            (12, None, "a comment line")
        );
        assert_eq!(json_behind_prelude("# c\na: 1\n", false), None);
    }
}
