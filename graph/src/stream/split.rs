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

/// Split YAML text into documents the way Kubernetes' `YAMLReader` does.
pub fn split_yaml(text: &str) -> Result<Vec<Chunk<'_>>, BadSeparator> {
    let mut chunks = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u32;
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
            });
        }
        start = end;
        start_line = line_no + 1;
    }
    if text.len() > start {
        chunks.push(Chunk {
            text: &text[start..],
            first_line: start_line,
            offset: start,
        });
    }
    Ok(chunks)
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

    /// The line-by-line reading the splitter must agree with.
    fn split_by_lines(text: &str) -> Result<Vec<Chunk<'_>>, BadSeparator> {
        let mut chunks = Vec::new();
        let (mut start, mut start_line, mut line_no, mut pos) = (0usize, 1u32, 0u32, 0usize);
        while pos < text.len() {
            line_no += 1;
            let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
            if let Some(rest) = text[pos..end].strip_prefix("---") {
                let trimmed = rest.trim();
                if !trimmed.is_empty() && !trimmed.starts_with('#') {
                    let trailing = trimmed.to_owned();
                    return Err(BadSeparator {
                        line: line_no,
                        trailing,
                    });
                }
                if pos > start {
                    let (text, first_line, offset) = (&text[start..pos], start_line, start);
                    chunks.push(Chunk {
                        text,
                        first_line,
                        offset,
                    });
                }
                start = end;
                start_line = line_no + 1;
            }
            pos = end;
        }
        if text.len() > start {
            let (text, first_line, offset) = (&text[start..], start_line, start);
            chunks.push(Chunk {
                text,
                first_line,
                offset,
            });
        }
        Ok(chunks)
    }

    #[test]
    fn agrees_with_line_by_line_reading() {
        use proptest::prelude::*;
        let line = proptest::sample::select(
            &[
                "---", "--- ", "--- # c", "---x", "----", " ---", "a: 1", "", "# c", "--", "--- a",
                "-", "---\r", "ü: ---",
            ][..],
        );
        let mut runner = proptest::test_runner::TestRunner::default();
        runner
            .run(
                &(proptest::collection::vec(line, 0..12), any::<bool>()),
                |(lines, final_break)| {
                    let mut text = lines.join("\n");
                    if final_break {
                        text.push('\n');
                    }
                    prop_assert_eq!(split_yaml(&text), split_by_lines(&text));
                    Ok(())
                },
            )
            .unwrap();
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
