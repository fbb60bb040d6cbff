//! The JSON documents of an image (index, manifest, config), parsed with
//! errors that name the field at fault and say what is wrong with it: an
//! upper-case digest, a negative size or a media type that is not a string
//! is refused as `field manifests[0].digest: …`, not as a bare parser error.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::ImageError;

/// The longest value shown in a message, in characters.
const SHOWN_CHARS: usize = 80;

/// Parse `bytes` as the document `what` (`index`, `manifest`, `config`)
/// named `name` in messages.
pub(crate) fn parse<T: DeserializeOwned>(
    image: &str,
    what: &'static str,
    name: &str,
    bytes: &[u8],
) -> Result<T, ImageError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let document = |message: String| ImageError::Document {
        image: image.to_owned(),
        what,
        name: name.to_owned(),
        message,
    };
    match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(value) => {
            de.end().map_err(|e| document(e.to_string()))?;
            Ok(value)
        }
        Err(e) => {
            let segments: Vec<serde_path_to_error::Segment> = e.path().iter().cloned().collect();
            let field = e.path().to_string();
            let inner = e.into_inner();
            if inner.is_syntax() || inner.is_eof() || segments.is_empty() {
                return Err(document(inner.to_string()));
            }
            let value = serde_json::from_slice::<Value>(bytes)
                .ok()
                .and_then(|v| at(&v, &segments).cloned());
            let key = match segments.last() {
                Some(serde_path_to_error::Segment::Map { key }) => key.as_str(),
                _ => "",
            };
            let problem = match (key, &value) {
                ("digest", Some(v)) => digest_problem(v),
                ("size", Some(v)) => size_problem(v),
                ("mediaType", Some(v)) => media_type_problem(v),
                _ => None,
            }
            .unwrap_or_else(|| inner.to_string());
            Err(ImageError::Field {
                image: image.to_owned(),
                what,
                name: name.to_owned(),
                field,
                problem,
            })
        }
    }
}

/// The value at `path` in `v`.
fn at<'v>(v: &'v Value, path: &[serde_path_to_error::Segment]) -> Option<&'v Value> {
    let mut v = v;
    for s in path {
        v = match s {
            serde_path_to_error::Segment::Seq { index } => v.get(*index)?,
            serde_path_to_error::Segment::Map { key } => v.get(key)?,
            _ => return None,
        };
    }
    Some(v)
}

/// `s` quoted, cut to [`SHOWN_CHARS`] characters.
fn shown(s: &str) -> String {
    match s.char_indices().nth(SHOWN_CHARS) {
        Some((i, _)) => format!("{:?}", format!("{}…", &s[..i])),
        None => format!("{s:?}"),
    }
}

/// What kind of JSON value `v` is, in words.
fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {}", shown(s)),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// What is wrong with a digest, when it can be said.
fn digest_problem(v: &Value) -> Option<String> {
    const FORM: &str =
        "a digest is written ALGORITHM:HEX in lower case, e.g. sha256: and 64 hex digits";
    let Value::String(s) = v else {
        return Some(format!(
            "{}, where a digest string is expected ({FORM})",
            kind(v)
        ));
    };
    let Some((algorithm, hex)) = s.split_once(':') else {
        return Some(format!("{} is not a digest ({FORM})", shown(s)));
    };
    let digits = match algorithm {
        "sha256" => Some(64),
        "sha384" => Some(96),
        "sha512" => Some(128),
        _ => None,
    };
    if hex.is_empty() {
        return Some(format!("{} has no hex digits ({FORM})", shown(s)));
    }
    if hex.bytes().all(|b| b.is_ascii_hexdigit()) && hex.bytes().any(|b| b.is_ascii_uppercase()) {
        return Some(format!(
            "{} has upper-case hex digits, where digests are written in lower case ({FORM})",
            shown(s)
        ));
    }
    if digits.is_some() && !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Some(format!(
            "{} has characters that are not hex digits ({FORM})",
            shown(s)
        ));
    }
    match digits {
        Some(n) if hex.len() != n => Some(format!(
            "{} has {} hex digits, where a {algorithm} digest has {n}",
            shown(s),
            hex.len()
        )),
        _ => None,
    }
}

/// What is wrong with a size, when it can be said.
fn size_problem(v: &Value) -> Option<String> {
    Some(match v {
        Value::Number(n) if n.as_f64().is_some_and(|f| f < 0.0) => {
            format!("{n} is negative; a size is a count of bytes, 0 or more")
        }
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() != 0.0) => {
            format!("{n} is not a whole number; a size is a count of bytes")
        }
        Value::Number(n) => format!("{n} is too large for a size"),
        Value::String(s) => format!(
            "{} is a string, where a size is a number of bytes (written without quotes)",
            shown(s)
        ),
        other => format!(
            "{}, where a size (a number of bytes) is expected",
            kind(other)
        ),
    })
}

/// What is wrong with a media type, when it can be said.
fn media_type_problem(v: &Value) -> Option<String> {
    (!v.is_string()).then(|| {
        format!(
            "{}, where a media type string is expected (e.g. application/vnd.oci.image.manifest.v1+json)",
            kind(v)
        )
    })
}

#[cfg(test)]
mod tests {
    use oci_spec::image::{ImageConfiguration, ImageIndex, ImageManifest};

    use super::*;

    const DIGEST: &str = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    fn index(descriptor: &str) -> String {
        format!("{{\"schemaVersion\":2,\"manifests\":[{descriptor}]}}")
    }

    fn index_error(descriptor: &str) -> String {
        parse::<ImageIndex>("oci:x", "index", "index.json", index(descriptor).as_bytes())
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn a_good_index_parses() {
        let d = format!(
            "{{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"{DIGEST}\",\"size\":3}}"
        );
        let i: ImageIndex =
            parse("oci:x", "index", "index.json", index(&d).as_bytes()).expect("parses");
        assert_eq!(i.manifests().len(), 1);
    }

    #[test]
    fn an_upper_case_digest_names_its_field() {
        let d = format!(
            "{{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"{}\",\"size\":3}}",
            DIGEST.to_uppercase().replacen("SHA256", "sha256", 1)
        );
        let e = index_error(&d);
        assert!(
            e.starts_with(
                "oci:x: index index.json: field manifests[0].digest: \"sha256:E3B0C44298FC"
            ),
            "{e}"
        );
        assert!(
            e.contains("has upper-case hex digits, where digests are written in lower case"),
            "{e}"
        );
        assert!(!e.contains("serde failed"), "{e}");
    }

    #[test]
    fn a_negative_size_names_its_field() {
        let d = format!(
            "{{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"{DIGEST}\",\"size\":-5}}"
        );
        assert_eq!(
            index_error(&d),
            "oci:x: index index.json: field manifests[0].size: -5 is negative; a size is a count of bytes, 0 or more; save the image again with a tool that follows the OCI image specification"
        );
    }

    #[test]
    fn a_media_type_that_is_no_string_names_its_field() {
        let d = format!("{{\"mediaType\":7,\"digest\":\"{DIGEST}\",\"size\":3}}");
        let e = index_error(&d);
        assert!(
            e.starts_with("oci:x: index index.json: field manifests[0].mediaType: the number 7, where a media type string is expected"),
            "{e}"
        );
    }

    #[test]
    fn other_problems_name_their_field_with_the_parser_s_words() {
        let m = format!(
            "{{\"schemaVersion\":2,\"config\":{{\"mediaType\":\"a\",\"digest\":\"{DIGEST}\",\"size\":1}},\"layers\":[{{\"mediaType\":\"b\",\"digest\":\"sha256:12\",\"size\":1}}]}}"
        );
        let e = parse::<ImageManifest>("oci:x", "manifest", "sha256:1", m.as_bytes())
            .expect_err("refused")
            .to_string();
        assert!(
            e.starts_with("oci:x: manifest sha256:1: field layers[0].digest: \"sha256:12\" has 2 hex digits, where a sha256 digest has 64"),
            "{e}"
        );
        let c = r#"{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[]},"config":{"Labels":{"a":1}}}"#;
        let e = parse::<ImageConfiguration>("oci:x", "config", "sha256:2", c.as_bytes())
            .expect_err("refused")
            .to_string();
        assert!(
            e.starts_with("oci:x: config sha256:2: field config.Labels.a: invalid type: integer `1`, expected a string"),
            "{e}"
        );
        // Not JSON, or missing at the top: the parser's words, with where.
        let e = parse::<ImageIndex>("oci:x", "index", "index.json", b"{\"schemaVersion\":2")
            .expect_err("refused")
            .to_string();
        assert_eq!(
            e,
            "oci:x: index index.json: invalid JSON document: EOF while parsing an object at line 1 column 18"
        );
        let e = parse::<ImageIndex>("oci:x", "index", "index.json", b"{\"schemaVersion\":2}")
            .expect_err("refused")
            .to_string();
        assert!(
            e.starts_with(
                "oci:x: index index.json: invalid JSON document: missing field `manifests`"
            ),
            "{e}"
        );
        let e = parse::<ImageIndex>(
            "oci:x",
            "index",
            "index.json",
            b"{\"schemaVersion\":2,\"manifests\":[]} x",
        )
        .expect_err("refused")
        .to_string();
        assert!(e.contains("trailing characters"), "{e}");
    }

    #[test]
    fn long_values_are_cut() {
        let long = format!("sha256:{}", "A".repeat(500));
        let d = format!("{{\"mediaType\":\"m\",\"digest\":\"{long}\",\"size\":3}}");
        let e = index_error(&d);
        assert!(e.contains("AAAA…\" has upper-case"), "{e}");
        assert!(e.len() < 400, "{e}");
    }
}
