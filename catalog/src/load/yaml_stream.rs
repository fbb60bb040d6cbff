//! Reading a YAML stream into documents: split on `---` lines as opm's decoder
//! splits it, each document read in parallel, by the fast reader when the
//! [`Readers`] allow and it can, else by the general parser (serde-saphyr).

use std::sync::Arc;

use rayon::prelude::*;

use olmsat_encoding::location::{to_u32, Location};
use olmsat_encoding::stream::go_yaml::{go_yaml_error, GoYamlError};
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
    /// Not YAML in go-yaml v2's words, as opm reports it (`yaml: line N: ...`).
    #[error("error converting YAML to JSON: {0}")]
    GoYaml(GoYamlError),
    /// A float JSON cannot hold (`.inf`, `-.Inf`, `.nan`): opm converts the
    /// document to JSON and Go's encoder refuses it (`+Inf`, `-Inf`, `NaN`).
    #[error("error converting YAML to JSON: json: unsupported value: {0}")]
    NonFinite(&'static str),
    /// Not YAML where go-yaml's words for it are not known, or beyond the
    /// parser's budget.
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
        None => {
            let parsed = general_yaml_doc(file, c);
            // go-yaml refuses tabs in places YAML 1.2 allows them (the fast
            // reader declines every tab, so only documents read here hold any).
            if parsed.is_ok() {
                if let Some(g) = go_yaml_error(c.text, c.opened, None) {
                    return Err(Box::new(go_yaml_diagnostic(file, c, g)));
                }
            }
            parsed
        }
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
            if let Some(value) = non_finite(&e) {
                return Err(Box::new(diagnostic(
                    file,
                    position(c, &e),
                    Severity::Error,
                    YamlError::NonFinite(value),
                )));
            }
            if let Some(g) = go_yaml_error(c.text, c.opened, Some(&e)) {
                return Err(Box::new(go_yaml_diagnostic(file, c, g)));
            }
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

/// The diagnostic for go-yaml's error `g` in chunk `c`, at the place it names.
fn go_yaml_diagnostic(file: &Arc<str>, c: &Chunk<'_>, g: GoYamlError) -> Diagnostic {
    let at = (
        c.first_line + to_u32(g.at.0),
        to_u32(g.at.1.saturating_add(1)),
    );
    diagnostic(file, at, Severity::Error, YamlError::GoYaml(g))
}

/// How Go prints the non-finite float the parser refused with `e`, if that
/// is the error.
fn non_finite(e: &serde_saphyr::Error) -> Option<&'static str> {
    match e.without_snippet() {
        serde_saphyr::Error::NonFiniteFloat { value, .. } => {
            Some(if value.to_ascii_lowercase().contains("nan") {
                "NaN"
            } else if value.starts_with('-') {
                "-Inf"
            } else {
                "+Inf"
            })
        }
        serde_saphyr::Error::AliasError { error, .. } => non_finite(error),
        _ => None,
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

#[cfg(test)]
mod tests {
    use crate::load::load_bytes;

    /// Each error of loading `text`, with its place.
    fn errors(text: &str) -> Vec<String> {
        load_bytes("c.yaml", text.as_bytes())
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(ToString::to_string)
            .collect()
    }

    const PKG: &str = "schema: olm.package\nname: foo\n";

    #[test]
    fn tabs_go_yaml_refuses_are_refused_in_its_words() {
        let cannot = "error converting YAML to JSON: yaml: line 4: found character that cannot start any token";
        for (text, place) in [
            // A tab after a sequence dash, counted within the document.
            (
                format!("{PKG}---\nschema: olm.bundle\nname: b\nrelatedImages:\n-\tname: x\n"),
                "c.yaml:7:2",
            ),
            // A tab-only line, and a tab-indented comment, after a quoted value.
            (
                format!("{PKG}---\nschema: olm.bundle\nname: b\npackage: \"foo\"\n\t\n"),
                "c.yaml:7:1",
            ),
            (
                format!("{PKG}---\nschema: olm.bundle\nname: b\npackage: \"foo\"\n\t# x\n"),
                "c.yaml:7:1",
            ),
        ] {
            let e = errors(&text);
            assert_eq!(
                e,
                vec![format!("{place}: error[parse-error]: {cannot}")],
                "{text:?}"
            );
        }
        // A tab-indented comment after a plain value.
        let e = errors(&format!("{PKG}\t# x\n"));
        assert_eq!(
            e,
            vec!["c.yaml:3:1: error[parse-error]: error converting YAML to JSON: yaml: line 3: found a tab character that violates indentation".to_owned()]
        );
        // Tabs go-yaml allows are fine.
        assert!(errors(&format!("{PKG}defaultChannel:\tstable # a\tb\n")).is_empty());
    }

    #[test]
    fn non_finite_floats_are_refused_as_go_encodes_them() {
        for (value, go) in [
            (".inf", "+Inf"),
            ("-.Inf", "-Inf"),
            (".nan", "NaN"),
            ("[1, .NaN]", "NaN"),
        ] {
            let e = errors(&format!("{PKG}x: {value}\n"));
            assert_eq!(
                e,
                vec![format!("c.yaml:3:4: error[parse-error]: error converting YAML to JSON: json: unsupported value: {go}")]
                    .into_iter()
                    .map(|s| if value.starts_with('[') { s.replace(":3:4:", ":3:8:") } else { s })
                    .collect::<Vec<_>>(),
                "{value}"
            );
        }
        // Quoted, it is a string.
        let e = errors(&format!("{PKG}x: \".nan\"\n"));
        assert!(e.is_empty(), "{e:?}");
    }

    #[test]
    fn yaml_that_looks_like_json_reports_yamls_verdicts() {
        // The first document reads as YAML: the later ones are judged as YAML.
        let text = "{schema: olm.package, name: foo}\n---\n---\n";
        let e = errors(text);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].contains("object '' is missing root schema field"),
            "{e:?}"
        );
        let text = "{schema: olm.package, name: foo}\n---\nschema: olm.bundle\nname: b: c\n";
        assert_eq!(
            errors(text),
            vec!["c.yaml:4:8: error[parse-error]: error converting YAML to JSON: yaml: line 2: mapping values are not allowed in this context".to_owned()]
        );
        // The first fails as YAML too: the JSON error, as opm's decoder gives it.
        let e = errors("{schema: olm.package, name: [}\n");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].contains("json: offset 2: invalid character 's'"),
            "{e:?}"
        );
    }
}
