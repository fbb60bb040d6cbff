//! Splitting a file into documents exactly as opm's decoder does.
//!
//! opm uses apimachinery's `NewYAMLOrJSONDecoder`: a file whose first non-space byte
//! is `{` is a stream of concatenated JSON values; anything else is YAML split by
//! Kubernetes' `YAMLReader`: a line beginning with `---` ends a document, only
//! spaces or a comment may follow the marker on that line, and empty chunks are
//! skipped.

/// One YAML document's text and the 1-based line its first line has in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The document text (without the separator line).
    pub text: &'a str,
    /// Line number of `text`'s first line in the file.
    pub first_line: u32,
    /// Byte offset of `text` in the file.
    pub offset: usize,
    /// Whether a `---` line opened the document (it came when no document
    /// was open, so opm's reader kept it as the document's first line,
    /// an explicit start) rather than ending the one before.
    pub opened: bool,
}

/// Whether the text is a JSON stream by opm's rule (first non-whitespace byte `{`).
pub fn looks_like_json(text: &str) -> bool {
    text.bytes()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| b == b'{')
}

/// A bad separator line: `---` followed by something other than spaces or a comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSeparator {
    /// 1-based line of the separator.
    pub line: u32,
    /// What followed the marker.
    pub trailing: String,
}

/// Split YAML text into documents the way Kubernetes' `YAMLReader` does,
/// leaving out documents with no text at all.
pub fn split_yaml(text: &str) -> Result<Vec<Chunk<'_>>, BadSeparator> {
    split(text, false)
}

/// [`split_yaml`], keeping the documents opm's catalog decoder reads that
/// are nothing but one `---` line (two `---` lines in a row at the start of a
/// file, or a `---` line at its end after another): each is a chunk with
/// empty text, [`Chunk::opened`], at the line of that `---`. Such a document
/// decodes as `null`, which opm refuses.
pub fn split_yaml_docs(text: &str) -> Result<Vec<Chunk<'_>>, BadSeparator> {
    split(text, true)
}

fn split(text: &str, keep_empty: bool) -> Result<Vec<Chunk<'_>>, BadSeparator> {
    let mut chunks = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u32;
    // A `---` line met while no document was open: opm's reader keeps it as
    // the next document's first line (its line, when that is so).
    let mut opened: Option<u32> = None;
    let b = text.as_bytes();
    // Only lines beginning with `---` matter: find them directly (the first line,
    // and every line break followed by `---`), counting line breaks on the way.
    let first = b.starts_with(b"---").then_some(0);
    let later = memchr::memmem::find_iter(b, b"\n---").map(|p| p + 1);
    let mut counted = 0usize;
    let mut line_no = 1u32;
    for pos in first.into_iter().chain(later) {
        line_no += crate::location::to_u32(memchr::memchr_iter(b'\n', &b[counted..pos]).count());
        counted = pos;
        let end = match memchr::memchr(b'\n', &b[pos..]) {
            Some(i) => pos + i + 1,
            None => text.len(),
        };
        let rest = &text[pos + 3..end];
        let trimmed = rest.trim();
        if !trimmed.is_empty() && !trimmed.starts_with('#') {
            return Err(BadSeparator {
                line: line_no,
                trailing: trimmed.to_owned(),
            });
        }
        if pos > start {
            chunks.push(Chunk {
                text: &text[start..pos],
                first_line: start_line,
                offset: start,
                opened: opened.take().is_some(),
            });
        } else if let Some(at) = opened.take() {
            // The document holds the earlier `---` line only; this one ends it.
            if keep_empty {
                chunks.push(Chunk {
                    text: &text[start..start],
                    first_line: at,
                    offset: start,
                    opened: true,
                });
            }
        } else {
            opened = Some(line_no);
        }
        start = end;
        start_line = line_no + 1;
    }
    if text.len() > start {
        chunks.push(Chunk {
            text: &text[start..],
            first_line: start_line,
            offset: start,
            opened: opened.is_some(),
        });
    } else if let (Some(at), true) = (opened, keep_empty) {
        chunks.push(Chunk {
            text: &text[start..start],
            first_line: at,
            offset: start,
            opened: true,
        });
    }
    Ok(chunks)
}

/// Where a YAML document's first content line (not blank, not a comment) is
/// a document end marker (`...`): its 0-based line in the document. go-yaml
/// then finds no node in an implicit document and refuses it.
pub fn leading_end_marker(text: &str) -> Option<usize> {
    for (i, l) in text.lines().enumerate() {
        let t = l.trim_start_matches([' ', '\t']).trim_end_matches('\r');
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let marker = l
            .strip_prefix("...")
            .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', '\r']));
        return marker.then_some(i);
    }
    None
}

/// What a non-empty YAML chunk holds when it has no content: only comments, or only
/// blank lines. opm skips neither; both decode to an empty object that has no schema.
pub fn is_blank_or_comments(text: &str) -> bool {
    text.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    })
}

/// The 1-based line of the first line holding content (not blank, not a comment).
pub fn first_content_line(chunk: &Chunk<'_>) -> u32 {
    for (i, l) in chunk.text.lines().enumerate() {
        let t = l.trim();
        if !t.is_empty() && !t.starts_with('#') {
            return chunk.first_line + crate::location::to_u32(i);
        }
    }
    chunk.first_line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_separator_lines() {
        let t = "---\na: 1\n---\nb: 2\n--- # c\nc: 3\n---\n";
        let c = split_yaml(t).unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].text, "a: 1\n");
        assert_eq!(c[0].first_line, 2);
        assert_eq!(c[1].text, "b: 2\n");
        assert_eq!(c[1].first_line, 4);
        assert_eq!(c[2].text, "c: 3\n");
        assert_eq!(c[2].first_line, 6);
    }

    #[test]
    fn no_separator_is_one_document() {
        let c = split_yaml("a: 1\nb: 2").unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].first_line, 1);
    }

    #[test]
    fn content_after_separator_is_an_error() {
        let e = split_yaml("a: 1\n--- {b: 2}\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.trailing, "{b: 2}");
        assert!(split_yaml("----\n").is_err());
    }

    /// Kubernetes' `YAMLReader`, line by line: a `---` line ends the
    /// document when one is open, and is its first line otherwise. Each
    /// document as (opened by a `---` line, its other lines), every line
    /// ending in `\n` as the reader writes them.
    fn opm_reader(text: &str) -> Result<Vec<(bool, String)>, BadSeparator> {
        let mut docs = Vec::new();
        let mut buffer: Vec<&str> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if let Some(rest) = line.strip_prefix("---") {
                let trimmed = rest.trim();
                if !trimmed.is_empty() && !trimmed.starts_with('#') {
                    return Err(BadSeparator {
                        line: crate::location::to_u32(i + 1),
                        trailing: trimmed.to_owned(),
                    });
                }
                if !buffer.is_empty() {
                    docs.push(std::mem::take(&mut buffer));
                    continue;
                }
            }
            buffer.push(line);
        }
        if !buffer.is_empty() {
            docs.push(buffer);
        }
        Ok(docs
            .into_iter()
            .map(|lines| {
                let opened = lines[0].starts_with("---");
                let body = lines[usize::from(opened)..]
                    .iter()
                    .map(|l| format!("{l}\n"))
                    .collect();
                (opened, body)
            })
            .collect())
    }

    /// A chunk as [`opm_reader`] gives it.
    fn as_read(c: &Chunk<'_>) -> (bool, String) {
        let body = c.text.lines().map(|l| format!("{l}\n")).collect();
        (c.opened, body)
    }

    #[test]
    fn agrees_with_opms_reader() {
        use proptest::prelude::*;
        let line = proptest::sample::select(
            &[
                "---", "--- ", "--- # c", "---x", "----", " ---", "a: 1", "", "# c", "--", "--- a",
                "-", "---\r", "ü: ---", "...",
            ][..],
        );
        let config = proptest::test_runner::Config {
            cases: 512,
            rng_seed: proptest::test_runner::RngSeed::Fixed(19),
            failure_persistence: None,
            ..Default::default()
        };
        let mut runner = proptest::test_runner::TestRunner::new(config);
        runner
            .run(
                &(proptest::collection::vec(line, 0..12), any::<bool>()),
                |(lines, final_break)| {
                    let mut text = lines.join("\n");
                    if final_break {
                        text.push('\n');
                    }
                    let ours = split_yaml_docs(&text).map(|c| c.iter().map(as_read).collect());
                    prop_assert_eq!(ours, opm_reader(&text), "{:?}", text);
                    // Without the empty documents, the same but those.
                    let kept = split_yaml(&text).map(|c| c.iter().map(as_read).collect::<Vec<_>>());
                    let want = opm_reader(&text).map(|d| {
                        d.into_iter()
                            .filter(|(o, b)| !(*o && b.is_empty()))
                            .collect::<Vec<_>>()
                    });
                    prop_assert_eq!(kept, want);
                    Ok(())
                },
            )
            .unwrap();
    }

    #[test]
    fn lone_separators_are_empty_documents() {
        let c = split_yaml_docs("---\n").unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!((c[0].text, c[0].first_line, c[0].opened), ("", 1, true));
        let c = split_yaml_docs("---\n---\na: 1\n").unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].text, c[0].first_line), ("", 1));
        assert_eq!((c[1].text, c[1].opened), ("a: 1\n", false));
        let c = split_yaml_docs("a: 1\n---\n---\n").unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!((c[1].text, c[1].first_line, c[1].opened), ("", 3, true));
        // A trailing `---` after a document, and one before it, add nothing.
        assert_eq!(split_yaml_docs("---\na: 1\n---\n").unwrap().len(), 1);
        assert!(split_yaml("---\n---\n").unwrap().is_empty());
    }

    #[test]
    fn end_markers_before_content() {
        assert_eq!(leading_end_marker("...\n"), Some(0));
        assert_eq!(leading_end_marker("# c\n\n... # x\n"), Some(2));
        assert_eq!(leading_end_marker("a: 1\n...\n"), None);
        assert_eq!(leading_end_marker("....\n"), None);
        assert_eq!(leading_end_marker(""), None);
    }

    #[test]
    fn json_detection() {
        assert!(looks_like_json("  \n{\"a\":1}"));
        assert!(!looks_like_json("[1]"));
        assert!(!looks_like_json("a: 1"));
        assert!(!looks_like_json(""));
    }

    #[test]
    fn comment_only_chunks_are_detected() {
        assert!(is_blank_or_comments("# hi\n\n"));
        assert!(!is_blank_or_comments("# hi\na: 1"));
    }
}
