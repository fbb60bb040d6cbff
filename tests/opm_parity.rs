//! Catalogs on which olmsat must reach opm's verdict with opm's texts (the
//! classes of `docs/validation.md`, "What opm does, and what olmsat adds"),
//! read from standard input and reported in the short form.

mod common;

use common::{olmsat_stdin, stdout};

/// `validate -o short -` on `input`: the exit code and the output.
fn validate(input: &[u8]) -> (Option<i32>, String) {
    let o = olmsat_stdin(&["validate", "-o", "short", "-"], input);
    (o.status.code(), stdout(&o))
}

#[test]
fn a_file_of_only_a_separator_is_an_empty_document() {
    let (code, out) = validate(b"---\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:1: error[missing-schema]: object '' is missing root schema field (an empty YAML document: a `---` line with nothing after it before the next `---` or the end of the file; opm rejects it)\n"
    );
}

#[test]
fn a_null_yaml_document_has_no_schema() {
    let (code, out) = validate(b"schema: olm.package\nname: foo\n---\nnull\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:4: error[missing-schema]: object '' is missing root schema field\nwarning[model-checks-skipped]: model checks skipped for this package: some of its catalog files could not be read completely (see the errors above)\n"
    );
}

#[test]
fn an_end_marker_before_any_content_is_go_yamls_error() {
    let (code, out) = validate(b"...\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:1:1: error[parse-error]: error converting YAML to JSON: yaml: did not find expected node content\n"
    );
}

#[test]
fn an_end_marker_after_a_comment_names_go_yamls_line() {
    let (code, out) = validate(b"# c\n...\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:2:1: error[parse-error]: error converting YAML to JSON: yaml: line 1: did not find expected node content\n"
    );
}

#[test]
fn upper_case_before_the_first_slash_is_a_path_not_a_host() {
    let (code, out) = validate(b"{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"stable\"}\n{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"stable\",\"entries\":[{\"name\":\"foo.v1.0.0\"}]}\n{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v1.0.0\",\"image\":\"UPPER/case:1\",\"relatedImages\":[{\"name\":\"r\",\"image\":\"Upper/x\"},{\"name\":\"ok\",\"image\":\"Upper.io/x/y:1\"}],\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"foo\",\"version\":\"1.0.0\"}}]}\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:3:1: error[invalid-image]: package \"foo\" bundle \"foo.v1.0.0\" image: invalid image pull spec \"UPPER/case:1\": invalid reference format: repository name must be lowercase\n<stdin>:3:1: error[invalid-image]: package \"foo\" bundle \"foo.v1.0.0\" relatedImages[0].image: invalid image pull spec \"Upper/x\": invalid reference format: repository name must be lowercase\n"
    );
}

#[test]
fn properties_without_type_or_value_load_with_warnings() {
    let (code, out) = validate(b"{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"stable\",\"properties\":[{\"type\":\"x.y\"}]}\n{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"stable\",\"entries\":[{\"name\":\"foo.v1.0.0\"}]}\n{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v1.0.0\",\"image\":\"quay.io/x/y:1\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"foo\",\"version\":\"1.0.0\"}},{\"value\":{}},{\"type\":\"x.y\"}]}\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:3:1: error[invalid-property]: parse properties for bundle \"foo.v1.0.0\": parse property[2] of type \"x.y\": unexpected end of JSON input\n<stdin>:1:1: warning[incomplete-property]: properties[0] of type \"x.y\": value must be set; opm loads it and writes it as null\n<stdin>:3:1: warning[incomplete-property]: properties[1]: type must be set; opm loads a property without a type (only bundle validation checks it)\n<stdin>:3:1: warning[incomplete-property]: properties[2] of type \"x.y\": value must be set; opm loads it, then fails the bundle with unexpected end of JSON input\n"
    );
}

#[test]
fn a_byte_order_mark_before_json_keeps_the_first_object() {
    let (code, out) = validate(b"\xef\xbb\xbf{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"stable\"}\n{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"stable\",\"entries\":[{\"name\":\"foo.v1.0.0\"}]}\n{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v1.0.0\",\"image\":\"quay.io/x/y:1\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"foo\",\"version\":\"1.0.0\"}}]}\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:1: error[empty-channel]: channel must contain at least one bundle (the package's defaultChannel names a channel that has no olm.channel blob)\n<stdin>:2: warning[json-read-as-yaml]: this JSON stream starts behind a byte-order mark: opm's decoder looks for a '{' first and does not see it, so it reads the file as YAML, which keeps only the first object; the rest of the file, from here, is ignored (as opm ignores it)\n"
    );
}

#[test]
fn a_comment_before_json_keeps_the_first_object() {
    let (code, out) = validate(b"# generated\n{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"stable\"}\n{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"stable\",\"entries\":[{\"name\":\"foo.v1.0.0\"}]}\n{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v1.0.0\",\"image\":\"quay.io/x/y:1\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"foo\",\"version\":\"1.0.0\"}}]}\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:2: error[empty-channel]: channel must contain at least one bundle (the package's defaultChannel names a channel that has no olm.channel blob)\n<stdin>:3: warning[json-read-as-yaml]: this JSON stream starts behind a comment line: opm's decoder looks for a '{' first and does not see it, so it reads the file as YAML, which keeps only the first object; the rest of the file, from here, is ignored (as opm ignores it)\n"
    );
}

#[test]
fn go_prints_an_empty_map_as_map() {
    let (code, out) = validate(b"{\"schema\":{}}\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:1:1: error[missing-schema]: expected value for key \"schema\" to be a string, got map[]: map[]\n"
    );
}

#[test]
fn deprecations_are_named_by_index() {
    let (code, out) = validate(b"{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"s\"}\n{\"schema\":\"olm.deprecations\"}\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:1:1: error[empty-channel]: channel must contain at least one bundle (the package's defaultChannel names a channel that has no olm.channel blob)\n<stdin>:2:1: error[invalid-deprecation]: package name must be set for deprecation item 0\n"
    );
}

#[test]
fn yaml_documents_carry_the_decoders_wrapping() {
    let (code, out) = validate(b"schema: 1\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:1: error[missing-schema]: error unmarshaling JSON: while decoding JSON: expected value for key \"schema\" to be a string, got %!t(float64=1): 1\n"
    );
}

#[test]
fn duplicate_keys_in_yaml_carry_the_decoders_wrapping() {
    let (code, out) = validate(b"schema: x\nName: a\nname: b\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:1: error[duplicate-key]: error unmarshaling JSON: while decoding JSON: duplicate keys for key \"name\": [Name name]\n"
    );
}

#[test]
fn a_yaml_sequence_gets_the_offset_context() {
    let (code, out) = validate(b"- a\n- 1\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:1: error[not-an-object]: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {} at offset 1 (indicated by <==)\n[ <== \n    \"a\",\n    1\n]\n(a catalog file holds objects one after another, not a JSON array)\n"
    );
}

#[test]
fn a_json_array_gets_the_offset_context_without_wrapping() {
    let (code, out) = validate(b"{\"schema\":\"x\",\"name\":\"a\"}\n[1, 2]\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:2:1: error[not-an-object]: json: cannot unmarshal array into Go value of type map[string]interface {} at offset 1 (indicated by <==)\n[ <== \n    1,\n    2\n]\n(a catalog file holds objects one after another, not a JSON array)\n"
    );
}

#[test]
fn an_object_without_schema_is_quoted_with_the_encoders_newline() {
    let (code, out) = validate(b"{\"name\":\"a\"}\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:1:1: error[missing-schema]: object '{\"name\":\"a\"}\n' is missing root schema field\n"
    );
}

#[test]
fn an_empty_object_is_quoted_with_the_encoders_newline() {
    let (code, out) = validate(b"{}\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:1:1: error[missing-schema]: object '{}\n' is missing root schema field\n"
    );
}

#[test]
fn a_null_olm_package_value_is_an_empty_package() {
    let (code, out) = validate(b"{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"stable\"}\n{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"stable\",\"entries\":[{\"name\":\"foo.v1.0.0\"}]}\n{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v1.0.0\",\"image\":\"quay.io/x/y:1\",\"properties\":[{\"type\":\"olm.package\",\"value\":null}]}\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:3:1: error[invalid-version]: error parsing bundle \"foo.v1.0.0\" version \"\": Version string empty\n<stdin>:3:1: error[package-property-mismatch]: package \"foo\" does not match \"olm.package\" property \"\"\n"
    );
}

#[test]
fn dotted_package_names_must_not_contain_dots() {
    let (code, out) = validate(b"{\"schema\":\"olm.package\",\"name\":\"foo.bar\",\"defaultChannel\":\"stable\"}\n{\"schema\":\"olm.channel\",\"package\":\"foo.bar\",\"name\":\"stable\",\"entries\":[{\"name\":\"foo.bar.v1.0.0\"}]}\n{\"schema\":\"olm.bundle\",\"package\":\"foo.bar\",\"name\":\"foo.bar.v1.0.0\",\"image\":\"quay.io/x/y:1\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"foo.bar\",\"version\":\"1.0.0\"}}]}\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:1:1: error[invalid-package-name]: invalid package name \"foo.bar\": [must not contain dots]\n"
    );
}

#[test]
fn invalid_base64_fails_while_reading_bundle_objects() {
    let (code, out) = validate(b"{\"schema\":\"olm.package\",\"name\":\"foo\",\"defaultChannel\":\"stable\"}\n{\"schema\":\"olm.channel\",\"package\":\"foo\",\"name\":\"stable\",\"entries\":[{\"name\":\"foo.v1.0.0\"}]}\n{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v1.0.0\",\"image\":\"quay.io/x/y:1\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"foo\",\"version\":\"1.0.0\"}},{\"type\":\"olm.bundle.object\",\"value\":{\"data\":\"e30*\"}}]}\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:3:1: error[invalid-blob]: read bundle objects: package \"foo\", bundle \"foo.v1.0.0\": parse property at index 1 as bundle object: json: cannot unmarshal string into Go struct field BundleObject.data of type []uint8: illegal base64 data at input byte 3\nwarning[model-checks-skipped]: model checks skipped for this package: some of its catalog files could not be read completely (see the errors above)\n"
    );
}

const SKIPPED: &str = "warning[model-checks-skipped]: model checks skipped for this package: some of its catalog files could not be read completely (see the errors above)\n";

#[test]
fn tabs_go_yaml_refuses_are_its_errors_with_its_lines() {
    // A tab after a sequence dash, in the second document (lines counted
    // within it).
    let (code, out) = validate(
        b"schema: olm.package\nname: foo\n---\nschema: olm.bundle\npackage: foo\nname: foo.v1\nproperties:\n-\ttype: olm.package\n",
    );
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        format!("<stdin>:8:2: error[parse-error]: error converting YAML to JSON: yaml: line 5: found character that cannot start any token\n{SKIPPED}")
    );
    // A tab-indented comment after a plain value.
    let (code, out) = validate(b"schema: olm.package\nname: foo\n\t# c\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:3:1: error[parse-error]: error converting YAML to JSON: yaml: line 3: found a tab character that violates indentation\n"
    );
}

#[test]
fn yaml_syntax_errors_are_go_yamls() {
    for (input, want) in [
        (
            &b"schema: olm.package\nname: a: b\n"[..],
            "<stdin>:2:8: error[parse-error]: error converting YAML to JSON: yaml: line 2: mapping values are not allowed in this context\n",
        ),
        (
            b"schema: olm.package\nname: *x\n",
            "<stdin>:2:7: error[parse-error]: error converting YAML to JSON: yaml: unknown anchor 'x' referenced\n",
        ),
        (
            b"schema: olm.package\nname:\n  a: 1\n b: 2\n",
            "<stdin>:4:2: error[parse-error]: error converting YAML to JSON: yaml: line 3: did not find expected key\n",
        ),
    ] {
        let (code, out) = validate(input);
        assert_eq!(code, Some(1), "{out}");
        assert_eq!(out, want);
    }
}

#[test]
fn non_finite_floats_are_refused_as_gos_encoder_refuses_them() {
    let (code, out) = validate(b"schema: olm.package\nname: foo\nx: -.Inf\n");
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out,
        "<stdin>:3:4: error[parse-error]: error converting YAML to JSON: json: unsupported value: -Inf\n"
    );
}

#[test]
fn yaml_that_starts_like_json_gets_yamls_verdict() {
    let (code, out) = validate(b"{schema: olm.package, name: foo}\n---\n---\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.starts_with("<stdin>:3: error[missing-schema]: object '' is missing root schema field"),
        "{out}"
    );
}
