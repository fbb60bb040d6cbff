//! `olm.constraint` values built to hurt: deep nesting and oversized values end in
//! an error with OLM's prefix, quickly, never a stack overflow.

use olmsat_resolver::predicate::parse_constraint;

/// `depth` levels of `not`, around a gvk constraint.
fn nested(depth: usize) -> String {
    let mut s = String::from(r#"{"gvk":{"group":"g","version":"v1","kind":"K"}}"#);
    for _ in 0..depth {
        s = format!(r#"{{"not":{{"constraints":[{s}]}}}}"#);
    }
    s
}

#[test]
fn ten_thousand_levels_are_refused_without_recursion() {
    // 10,000 levels do not fit OLM's size limit (26 bytes a level); 4,000 do.
    let err = parse_constraint(&nested(10_000)).expect_err("refused");
    assert!(err.to_string().contains("max constraint size"), "{err}");
    let v = nested(4_000);
    assert!(v.len() < 2 << 16, "under the size limit, so depth decides");
    let err = parse_constraint(&v).expect_err("refused");
    assert_eq!(
        err.to_string(),
        "parse olm.constraint: value nested 12002 levels deep; olmsat accepts at most 120 (about 38 levels of all, any and not)"
    );
}

#[test]
fn the_nesting_limit_is_38_levels_of_all_any_and_not() {
    // 3 JSON levels per `not`, 2 for the gvk constraint: 38 levels are 116.
    assert!(parse_constraint(&nested(38)).is_ok());
    let err = parse_constraint(&nested(40)).expect_err("refused");
    assert!(
        err.to_string()
            .starts_with("parse olm.constraint: value nested 122 levels deep"),
        "{err}"
    );
}

#[test]
fn values_over_olms_size_limit_are_refused() {
    let big = format!(
        r#"{{"failureMessage":"{}","gvk":{{"group":"g","version":"v1","kind":"K"}}}}"#,
        "x".repeat(2 << 16)
    );
    let err = parse_constraint(&big).expect_err("refused");
    assert_eq!(
        err.to_string(),
        "parse olm.constraint: olm.constraint value is greater than max constraint size 131072 bytes"
    );
}
