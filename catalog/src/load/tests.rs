//! Tests across the loader's layers: the parallel readers (text checks,
//! JSON pieces, joining) against their sequential counterparts.

use std::sync::Arc;

use super::fast::Readers;
use super::join::{concat, PARALLEL_JOIN_ITEMS};
use super::json_stream::{json_docs, json_docs_in, json_docs_parallel, JsonRead};
use super::load_bytes;
use super::text::{checked_text, CHECK_BLOCK_BYTES, PARALLEL_BYTES};
use olmsat_encoding::location::{to_u32, LineCounter};
use olmsat_findings::diagnostic::Diagnostic;

/// Joining keeps every item, in order, on the sequential and the parallel
/// path alike (items that own memory, so a lost or doubled one would show).
#[test]
fn concat_keeps_every_item_in_order() {
    for sizes in [
        vec![],
        vec![0, 0],
        vec![3, 0, 5],
        vec![PARALLEL_JOIN_ITEMS, 1, 0, 77],
        vec![0, 2 * PARALLEL_JOIN_ITEMS + 3, 5],
    ] {
        let mut next = 0;
        let lists: Vec<Vec<String>> = sizes
            .iter()
            .map(|&n| {
                (0..n)
                    .map(|_| {
                        next += 1;
                        format!("item {next}")
                    })
                    .collect()
            })
            .collect();
        let expected: Vec<String> = lists.iter().flatten().cloned().collect();
        let joined = concat(lists);
        assert_eq!(joined, expected, "{sizes:?}");
        assert_eq!(joined.capacity(), expected.len(), "{sizes:?}");
    }
}

/// A JSON stream of `n` pretty-printed documents, some holding an object that
/// starts a line (the case the parallel reader must not split at).
fn stream(n: usize, nested_at_line_start: bool) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "{{\n    \"schema\": \"olm.channel\",\n    \"name\": \"c{i}\",\n    \"package\": \"p\",\n    \"entries\": [\n        {{\"name\": \"b{i}\"}},\n        {{\"name\": \"x{i}\", \"replaces\": \"b{i}\"}}\n    ]\n}}\n"
        ));
        if nested_at_line_start && i % 1000 == 500 {
            s.push_str(&format!(
                "{{\"schema\": \"x\", \"name\": \"n{i}\", \"v\":\n{{\"a\": 1}}}}\n"
            ));
        }
    }
    s
}

/// The whole of `text` read by the sequential reader.
fn sequential<'a>(file: &Arc<str>, text: &'a str) -> Result<Vec<JsonRead<'a>>, Box<Diagnostic>> {
    json_docs_in(
        file,
        text,
        0..text.len(),
        LineCounter::new(text),
        false,
        Readers::Fast,
        &Some,
    )
}

fn summary(docs: &[JsonRead<'_>]) -> Vec<(String, Vec<u32>, Vec<String>)> {
    docs.iter()
        .map(|d| match d {
            JsonRead::Fast(doc, loc) => (loc.to_string(), Vec::new(), vec![format!("{doc:?}")]),
            JsonRead::Doc(Ok((f, loc, _))) => (
                loc.to_string(),
                f.entry_lines.clone(),
                f.fields
                    .iter()
                    .map(|(k, v)| format!("{k}={}", v.text()))
                    .collect(),
            ),
            JsonRead::Doc(Err(e)) => (e.to_string(), Vec::new(), Vec::new()),
        })
        .collect()
}

#[test]
fn parallel_json_reading_matches_the_sequential_reader() {
    let file: Arc<str> = Arc::from("big.json");
    for nested in [false, true] {
        let text = stream(40_000, nested);
        assert!(text.len() >= PARALLEL_BYTES, "big enough to go parallel");
        let seq = sequential(&file, &text).expect("valid");
        let par = json_docs_parallel::<_, Vec<_>>(&file, &text, None, Readers::Fast, &Some)
            .map(|pieces| pieces.into_iter().flatten().collect::<Vec<_>>());
        if nested {
            // A piece boundary may fall on the nested object: then the
            // parallel reader gives up and the sequential one is used.
            if let Some(par) = &par {
                assert_eq!(summary(par), summary(&seq));
            }
        } else {
            let par = par.expect("clean boundaries are read in parallel");
            assert_eq!(summary(&par), summary(&seq));
        }
        let all = json_docs(&file, &text).expect("valid");
        assert_eq!(summary(&all), summary(&seq));
    }
}

#[test]
fn large_inputs_are_checked_for_text_in_pieces() {
    let text = stream(40_000, false);
    assert!(text.len() >= PARALLEL_BYTES);
    assert!(checked_text(text.as_bytes()).is_some());
    let at = text.len() / 3 * 2;
    let at = at + text[at..].find("\"name\"").expect("a name");
    let line = text[..at].matches('\n').count() + 1;
    for (bad, message) in [
        (&b"\xff"[..], format!("invalid UTF-8 at byte {at}")),
        (
            &b"\0"[..],
            "not a text file (NUL byte); exclude it with an .indexignore file".to_owned(),
        ),
        (&b"\xe2\x82"[..], format!("invalid UTF-8 at byte {at}")),
    ] {
        let mut bytes = text.as_bytes().to_vec();
        bytes.splice(at..at, bad.iter().copied());
        assert!(checked_text(&bytes).is_none());
        let l = load_bytes("big.json", &bytes);
        assert_eq!(l.diagnostics.len(), 1, "{:?}", l.diagnostics);
        let d = &l.diagnostics[0];
        assert_eq!(d.message, message);
        assert_eq!(d.location.as_ref().map(|l| l.line), Some(to_u32(line)));
    }
}

#[test]
fn large_texts_count_their_lines_while_checked() {
    // Characters of two, three and four bytes fall across every block
    // boundary somewhere.
    let mut text = String::new();
    let mut k = 0usize;
    while text.len() < PARALLEL_BYTES + 3 * CHECK_BLOCK_BYTES {
        text.push_str(["é", "€", "😀", "a", "\n"][k % 5]);
        if k.is_multiple_of(7) {
            text.push('\n');
        }
        k += 1;
    }
    let bytes = text.as_bytes();
    let checked = checked_text(bytes).expect("text");
    let table = checked.lines.expect("a large text is counted");
    assert!(table.starts.len() > PARALLEL_BYTES / CHECK_BLOCK_BYTES);
    for offset in (0..bytes.len()).step_by(4099).chain([0, 1, bytes.len()]) {
        let expected = bytes[..offset].iter().filter(|&&b| b == b'\n').count();
        assert_eq!(
            table.newlines_before(bytes, offset),
            expected,
            "at {offset}"
        );
    }
    for start in &table.starts {
        assert!(text.is_char_boundary(*start));
    }
    // A character cut short anywhere is refused.
    for at in [CHECK_BLOCK_BYTES - 1, PARALLEL_BYTES + 5] {
        let mut bad = bytes.to_vec();
        let at = (at..).find(|&i| bad[i] >= 0xc0).expect("a character");
        bad[at + 1] = b'x';
        assert!(checked_text(&bad).is_none(), "at {at}");
    }
}

#[test]
fn a_split_inside_a_document_falls_back() {
    let file: Arc<str> = Arc::from("big.json");
    // One huge document whose members start lines with `{`.
    let mut text = String::from("{\"schema\": \"x\", \"items\": [\n");
    while text.len() < PARALLEL_BYTES + 1000 {
        text.push_str("{\"a\": \"some value to fill the line\"},\n");
    }
    text.push_str("{\"a\": 0}]}\n{\"schema\": \"y\"}\n");
    assert!(json_docs_parallel::<_, Vec<_>>(&file, &text, None, Readers::Fast, &Some).is_none());
    let docs = json_docs(&file, &text).expect("valid");
    assert_eq!(docs.len(), 2);
    assert!(docs.iter().all(|d| !matches!(d, JsonRead::Doc(Err(_)))));
}

#[test]
fn invalid_json_in_a_large_file_is_reported_as_sequential_reading_does() {
    let file: Arc<str> = Arc::from("big.json");
    let mut text = stream(40_000, false);
    let cut = text.len() / 2;
    let at = cut + text[cut..].find("\"name\"").expect("a name");
    text.insert_str(at, "oops ");
    let l = load_bytes("big.json", text.as_bytes());
    let seq = sequential(&file, &text).expect("two values read");
    let errors: Vec<String> = l
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(ToString::to_string)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let Some(JsonRead::Doc(Err(last))) = seq.last() else {
        panic!("an error ends the stream")
    };
    assert_eq!(errors[0], last.to_string());
}
