//! Reading a YAML stream into documents: split on `---` lines as opm's decoder
//! splits it, each document read in parallel, by the fast reader when the
//! [`Readers`] allow and it can, else by the general parser (serde-saphyr).

use std::sync::Arc;

use rayon::prelude::*;

use olmsat_encoding::location::{to_u32, Location};
use olmsat_encoding::stream::split::{self, Chunk};
use olmsat_encoding::stream::yaml::{is_duplicate_key, options, DuplicateKeys};
use olmsat_findings::diagnostic::{Diagnostic, Rule, Severity};

use super::doc::{not_object, DocResult, YamlDoc};
use super::fast::Readers;

/// A YAML document (or stream) the loader refuses, or a warning about one.
#[derive(Debug, thiserror::Error)]
pub enum YamlError {
    /// A `---` line followed by something other than spaces or a comment.
    #[error("invalid Yaml document separator: {0}")]
    Separator(String),
    /// A document of comments and blank lines only.
    #[error("object '' is missing root schema field (this YAML document holds only comments or blank lines; opm rejects it)")]
    CommentsOnly,
    /// A document that is only a `---` line (two in a row, or one ending
    /// the file after another).
    #[error("object '' is missing root schema field (an empty YAML document: a `---` line with nothing after it before the next `---` or the end of the file; opm rejects it)")]
    Empty,
    /// A document that is `null` (`null`, `~`, or a `---` line and `...`).
    #[error("object '' is missing root schema field")]
    Null,
    /// A document whose first content is the end marker `...`, go-yaml's
    /// error (with the 0-based line it counts, when not the first).
    #[error("error converting YAML to JSON: yaml: {}did not find expected node content", line_prefix(.0))]
    EndMarker(usize),
    /// Not YAML, or beyond the parser's budget.
    #[error("invalid YAML: {}", without_position(.0))]
    Syntax(#[source] serde_saphyr::Error),
    /// A mapping repeats a key (a warning).
    #[error("duplicate mapping key; the last value is used, as opm does")]
    DuplicateKey,
}

fn line_prefix(line: &usize) -> String {
    if *line == 0 {
        String::new()
    } else {
        format!("line {line}: ")
    }
}

/// The parser's message without the position it appends (locations carry it).
fn without_position(e: &serde_saphyr::Error) -> String {
    let mut msg = e.to_string();
    if let Some(i) = msg.find(" at line ") {
        msg.truncate(i);
    }
    msg
}

/// Split a YAML stream and parse its documents in parallel.
pub(crate) fn yaml_docs(
    file: &Arc<str>,
    text: &str,
    readers: Readers,
) -> Result<Vec<DocResult<'static>>, Box<Diagnostic>> {
    let chunks = split::split_yaml_docs(text).map_err(|b| {
        Box::new(
            Diagnostic::new(
                Rule::ParseError,
                YamlError::Separator(b.trailing).to_string(),
            )
            .at(&Location::new(file.clone(), b.line)),
        )
    })?;
    Ok(chunks
        .par_iter()
        .map(|c| yaml_doc(file, c, readers))
        .collect())
}

fn yaml_doc(file: &Arc<str>, c: &Chunk<'_>, readers: Readers) -> DocResult<'static> {
    let loc = Location::new(file.clone(), split::first_content_line(c));
    let missing =
        |e: YamlError| Box::new(Diagnostic::new(Rule::MissingSchema, e.to_string()).at(&loc));
    // What opm's decoder reads as `null`: an empty object with no schema.
    if c.text.is_empty() && c.opened {
        return Err(missing(YamlError::Empty));
    }
    if split::is_blank_or_comments(c.text) {
        return Err(missing(YamlError::CommentsOnly));
    }
    if let Some(line) = split::leading_end_marker(c.text) {
        // After a `---` line the `...` ends an empty explicit document;
        // without one, go-yaml finds no node at all.
        if c.opened {
            return Err(missing(YamlError::Null));
        }
        let at = c.first_line + olmsat_encoding::location::to_u32(line);
        return Err(Box::new(diagnostic(
            file,
            (at, 1),
            Severity::Error,
            YamlError::EndMarker(line),
        )));
    }
    // Catalog YAML almost always stays within the subset the fast reader handles;
    // anything else (and every error) goes to the general parser.
    let parsed = match readers.yaml(c.text) {
        Some(d) => Ok((d, None)),
        None => general_yaml_doc(file, c),
    };
    match parsed {
        Ok((d, warn)) => {
            let warn = warn.map(Box::new);
            let fields = d
                .into_fields(c.first_line)
                .map_err(|k| not_object(k, &loc))?;
            let Some(fields) = fields else {
                return Err(missing(YamlError::Null));
            };
            Ok((fields, loc, warn))
        }
        Err(e) => {
            let at = position(c, &e);
            Err(Box::new(diagnostic(
                file,
                at,
                Severity::Error,
                YamlError::Syntax(e),
            )))
        }
    }
}

/// Parse a document with the general YAML parser; a duplicate key is a warning
/// (the last value wins, as with opm).
fn general_yaml_doc(
    file: &Arc<str>,
    c: &Chunk<'_>,
) -> Result<(YamlDoc, Option<Diagnostic>), serde_saphyr::Error> {
    match serde_saphyr::from_str_with_options::<YamlDoc>(c.text, options(DuplicateKeys::Refuse)) {
        Ok(d) => Ok((d, None)),
        Err(e) if is_duplicate_key(&e) => {
            let warn = diagnostic(
                file,
                position(c, &e),
                Severity::Warning,
                YamlError::DuplicateKey,
            );
            serde_saphyr::from_str_with_options::<YamlDoc>(c.text, options(DuplicateKeys::LastWins))
                .map(|d| (d, Some(warn)))
        }
        Err(e) => Err(e),
    }
}

/// The file line and column the parser's error `e` points at in chunk `c`.
fn position(c: &Chunk<'_>, e: &serde_saphyr::Error) -> (u32, u32) {
    match e.location() {
        Some(l) if l.line() > 0 => (
            c.first_line + to_u32(l.line() as usize) - 1,
            to_u32(l.column() as usize),
        ),
        _ => (c.first_line, 0),
    }
}

/// The diagnostic for `error` at `(line, col)` of `file`.
fn diagnostic(
    file: &Arc<str>,
    (line, col): (u32, u32),
    severity: Severity,
    error: YamlError,
) -> Diagnostic {
    // A duplicate key go-yaml lets through is the one warning read here.
    let rule = match severity {
        Severity::Warning | Severity::Info => Rule::YamlDuplicateKey,
        Severity::Error => Rule::ParseError,
    };
    let mut d = Diagnostic::new(rule, error.to_string())
        .at(&Location::new(file.clone(), line).at(line, col));
    d.severity = severity;
    d
}
