//! One file's bytes to blobs: checked as text, read as a JSON or a YAML
//! stream, each document made a blob as soon as it is read (while its text is
//! still in the cache), the pieces joined in input order.

use std::sync::Arc;

use rayon::prelude::*;

use crate::diagnostic::Diagnostic;
use crate::stream::split;

use super::blob;
use super::doc::{Converted, DocResult};
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
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let (text, line_table) = match checked_text(bytes) {
        Some(t) => (t.text, t.lines),
        None => return Loaded::error_only(not_text(file, bytes)),
    };
    let mut out = Loaded::default();
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
    // A file that looks like JSON but is not is read as YAML when every
    // document then reads.
    let all_yaml = |text: &str| -> Option<Vec<PieceBlobs>> {
        let docs = yaml_docs(&file, text, readers).ok()?;
        if docs.iter().any(|r| r.is_err()) {
            return None;
        }
        let converted: Vec<Converted> = docs.into_par_iter().filter_map(convert).collect();
        Some(vec![PieceBlobs::from_iter(converted)])
    };
    let convert_json = |d: JsonRead<'_>| -> Option<Converted> {
        match d {
            JsonRead::Doc(d) => convert(d),
            JsonRead::Fast(doc, _) if !select.keeps_package(doc.package) => None,
            JsonRead::Fast(doc, loc) => Some((Ok(doc.into_blob(&loc, reading)), Vec::new())),
        }
    };
    // In pieces, as read, each sorted into its lists at once.
    let pieces: Vec<PieceBlobs> = if split::looks_like_json(text) {
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
