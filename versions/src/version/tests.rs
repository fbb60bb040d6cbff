//! Tests of versions: parsing, comparing, releases.
use super::*;

fn v(s: &str) -> semver::Version {
    match parse_strict(s) {
        Ok(v) => v,
        Err(e) => panic!("{s}: {e}"),
    }
}

fn err(s: &str) -> String {
    match parse_strict(s) {
        Ok(v) => panic!("{s} parsed as {v}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn strict_accepts() {
    for s in [
        "0.0.0",
        "1.2.3",
        "10.20.30",
        "1.2.3-alpha",
        "1.2.3-alpha.1",
        "1.2.3-0",
        "1.2.3-0a",
        "1.2.3-a-b.c--",
        "1.2.3--",
        "1.2.3+build",
        "1.2.3+001",
        "1.2.3-rc.1+build.5",
        "1.2.3+a-b",
        "18446744073709551615.0.0",
        "1.0.0-18446744073709551615",
    ] {
        assert_eq!(v(s).to_string(), s);
    }
    let x = v("1.2.3-rc.1+b.2");
    assert_eq!((x.major, x.minor, x.patch), (1, 2, 3));
    assert_eq!(x.pre.as_str(), "rc.1");
    assert_eq!(x.build.as_str(), "b.2");
}

#[test]
fn strict_error_texts() {
    let cases = [
        ("", "Version string empty"),
        ("1", "No Major.Minor.Patch elements found"),
        ("1.2", "No Major.Minor.Patch elements found"),
        (
            "v1.2.3",
            "Invalid character(s) found in major number \"v1\"",
        ),
        (
            "01a.2.3",
            "Invalid character(s) found in major number \"01a\"",
        ),
        (
            "01.2.3",
            "Major number must not contain leading zeroes \"01\"",
        ),
        (
            "1.02.3",
            "Minor number must not contain leading zeroes \"02\"",
        ),
        (
            "1.2.03",
            "Patch number must not contain leading zeroes \"03\"",
        ),
        ("1.x.3", "Invalid character(s) found in minor number \"x\""),
        ("1.2.x", "Invalid character(s) found in patch number \"x\""),
        (
            "1.2.3.4",
            "Invalid character(s) found in patch number \"3.4\"",
        ),
        (
            "1.2.3 ",
            "Invalid character(s) found in patch number \"3 \"",
        ),
        (
            "1.2.3\t",
            "Invalid character(s) found in patch number \"3\\t\"",
        ),
        ("1..3", "strconv.ParseUint: parsing \"\": invalid syntax"),
        (".1.2", "strconv.ParseUint: parsing \"\": invalid syntax"),
        ("1.2.", "strconv.ParseUint: parsing \"\": invalid syntax"),
        ("1.2.-rc", "strconv.ParseUint: parsing \"\": invalid syntax"),
        (
            "18446744073709551616.0.0",
            "strconv.ParseUint: parsing \"18446744073709551616\": value out of range",
        ),
        (
            "1.99999999999999999999.0",
            "strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
        ),
        ("1.2.3-", "Prerelease is empty"),
        ("1.2.3-a..b", "Prerelease is empty"),
        (
            "1.2.3-01",
            "Numeric PreRelease version must not contain leading zeroes \"01\"",
        ),
        (
            "1.2.3-a_b",
            "Invalid character(s) found in prerelease \"a_b\"",
        ),
        (
            "1.0.0-99999999999999999999",
            "strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
        ),
        ("1.2.3+", "Build meta data is empty"),
        ("1.2.3+a..b", "Build meta data is empty"),
        (
            "1.2.3+a+b",
            "Invalid character(s) found in build meta data \"a+b\"",
        ),
        ("1.2.3-é", "Invalid character(s) found in prerelease \"é\""),
        (
            "1.2.3-a\u{200b}",
            "Invalid character(s) found in prerelease \"a\\u200b\"",
        ),
        (
            "1.2.3-\"\\",
            "Invalid character(s) found in prerelease \"\\\"\\\\\"",
        ),
        // Patch is checked before the prerelease.
        (
            "1.2.x-01",
            "Invalid character(s) found in patch number \"x\"",
        ),
    ];
    for (input, want) in cases {
        assert_eq!(err(input), want, "input {input:?}");
    }
}

#[test]
fn tolerant() {
    let ok = [
        ("1", "1.0.0"),
        ("1.2", "1.2.0"),
        ("v1.2.3", "1.2.3"),
        (" v1.2.3\n", "1.2.3"),
        ("01.02.03", "1.2.3"),
        ("00.00.00", "0.0.0"),
        ("1.2.03-rc.1", "1.2.3-rc.1"),
        ("1.2.0-rc", "1.2.0-rc"),
        ("1.2.00-rc", "1.2.0-rc"),
    ];
    for (input, want) in ok {
        match parse_tolerant(input) {
            Ok(got) => assert_eq!(got.to_string(), want, "input {input:?}"),
            Err(e) => panic!("{input:?}: {e}"),
        }
    }
    let bad = [
        (
            "1.2-rc",
            "Short version cannot contain PreRelease/Build meta data",
        ),
        (
            "1+b",
            "Short version cannot contain PreRelease/Build meta data",
        ),
        ("", "strconv.ParseUint: parsing \"\": invalid syntax"),
        (
            "vv1.2.3",
            "Invalid character(s) found in major number \"0v1\"",
        ),
        (
            "1.2.3-01",
            "Numeric PreRelease version must not contain leading zeroes \"01\"",
        ),
        ("a.b", "Invalid character(s) found in major number \"a\""),
        (
            "0a.1.2",
            "Invalid character(s) found in major number \"0a\"",
        ),
    ];
    for (input, want) in bad {
        match parse_tolerant(input) {
            Ok(got) => panic!("{input:?} parsed as {got}"),
            Err(e) => assert_eq!(e.to_string(), want, "input {input:?}"),
        }
    }
}

#[test]
fn compare_ignores_build() {
    use Ordering::*;
    let cases = [
        ("1.0.0", "1.0.0+build", Equal),
        ("1.0.0+a", "1.0.0+b", Equal),
        ("1.0.0-rc.1", "1.0.0", Less),
        ("1.0.0-alpha", "1.0.0-alpha.1", Less),
        ("1.0.0-alpha.1", "1.0.0-alpha.beta", Less),
        ("1.0.0-beta.2", "1.0.0-beta.11", Less),
        ("1.0.0-rc.1", "1.0.0-beta.11", Greater),
        ("1.0.0-1", "1.0.0-a", Less),
        ("1.0.0-B", "1.0.0-a", Less),
        ("2.0.0", "10.0.0", Less),
        ("1.10.0", "1.9.0", Greater),
    ];
    for (a, b, want) in cases {
        assert_eq!(compare(&v(a), &v(b)), want, "{a} vs {b}");
        assert_eq!(compare(&v(b), &v(a)), want.reverse(), "{b} vs {a}");
    }
}

#[test]
fn release_parse() {
    assert_eq!(parse_release(""), Ok(None));
    let r = match parse_release("1.rc-2.0") {
        Ok(Some(r)) => r,
        other => panic!("{other:?}"),
    };
    assert_eq!(r.to_string(), "1.rc-2.0");
    assert_eq!(
        r.identifiers(),
        &[
            ReleaseIdentifier::Numeric(1),
            ReleaseIdentifier::AlphaNumeric("rc-2".into()),
            ReleaseIdentifier::Numeric(0)
        ]
    );
    assert!(matches!(parse_release("12345678901234567890"), Ok(Some(_))));
    let bad = [
        (
            "123456789012345678901",
            "invalid release \"123456789012345678901\": exceeds maximum length of 20 characters",
        ),
        (
            "01",
            "invalid release \"01\": segment 0: Numeric PreRelease version must not contain leading zeroes \"01\"",
        ),
        (
            "a..b_c",
            "invalid release \"a..b_c\": segment 1: Prerelease is empty\nsegment 2: Invalid character(s) found in prerelease \"b_c\"",
        ),
        (
            ".",
            "invalid release \".\": segment 0: Prerelease is empty\nsegment 1: Prerelease is empty",
        ),
        (
            "99999999999999999999",
            "invalid release \"99999999999999999999\": segment 0: strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
        ),
        (
            "1+2",
            "invalid release \"1+2\": segment 0: Invalid character(s) found in prerelease \"1+2\"",
        ),
    ];
    for (input, want) in bad {
        match parse_release(input) {
            Ok(r) => panic!("{input:?} parsed as {r:?}"),
            Err(e) => assert_eq!(e.to_string(), want, "input {input:?}"),
        }
    }
}

fn rel(s: &str) -> Release {
    match parse_release(s) {
        Ok(Some(r)) => r,
        other => panic!("{s}: {other:?}"),
    }
}

#[test]
fn release_compare() {
    use Ordering::*;
    let cases = [
        ("1", "2", Less),
        ("2", "10", Less),
        ("1", "a", Less),
        ("1", "1.0", Less),
        ("alpha", "beta", Less),
        ("1.a", "1.a", Equal),
        ("B", "a", Less),
    ];
    for (a, b, want) in cases {
        assert_eq!(rel(a).compare(&rel(b)), want, "{a} vs {b}");
        assert_eq!(rel(b).compare(&rel(a)), want.reverse(), "{b} vs {a}");
        assert_eq!(rel(a).cmp(&rel(b)), want);
    }
}

#[test]
fn version_release() {
    let a = VersionRelease {
        version: v("1.0.0"),
        release: None,
    };
    let b = VersionRelease {
        version: v("1.0.0+build"),
        release: Some(rel("1")),
    };
    let c = VersionRelease {
        version: v("1.0.0"),
        release: Some(rel("2")),
    };
    let d = VersionRelease {
        version: v("1.0.1-rc.1"),
        release: None,
    };
    assert_eq!(a.compare(&b), Ordering::Less);
    assert_eq!(b.compare(&c), Ordering::Less);
    assert_eq!(c.compare(&d), Ordering::Less);
    assert_eq!(a.compare(&a.clone()), Ordering::Equal);
    assert_eq!(a.to_string(), "1.0.0");
    assert_eq!(b.to_string(), "1.0.0+build-1");
    assert_eq!(c.to_string(), "1.0.0-2");
}

#[test]
fn quote() {
    assert_eq!(go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
    assert_eq!(go_quote("\u{0}\u{1b}\u{7f}"), "\"\\x00\\x1b\\x7f\"");
    assert_eq!(
        go_quote("\u{7}\u{8}\u{c}\n\r\t\u{b}"),
        "\"\\a\\b\\f\\n\\r\\t\\v\""
    );
    assert_eq!(go_quote("é☃"), "\"é☃\"");
    assert_eq!(go_quote("\u{a0}\u{feff}"), "\"\\u00a0\\ufeff\"");
    assert_eq!(go_quote("\u{e0001}"), "\"\\U000e0001\"");
    assert_eq!(go_quote("\u{10ffff}\u{fdd0}"), "\"\\U0010ffff\\ufdd0\"");
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn strict_never_panics_and_roundtrips(s in "[0-9a-zA-Z.+\\-]{0,16}") {
            if let Ok(v) = parse_strict(&s) {
                prop_assert_eq!(v.to_string(), s);
            }
        }

        #[test]
        fn strict_agrees_with_semver_crate_on_valid(
            maj in 0u64..1000, min in 0u64..1000, pat in 0u64..1000,
            pre in proptest::option::of("[0-9A-Za-z-]{1,4}(\\.[1-9A-Za-z-][0-9A-Za-z-]{0,3}){0,2}"),
        ) {
            let mut s = format!("{maj}.{min}.{pat}");
            if let Some(p) = &pre { s.push('-'); s.push_str(p); }
            let ours = parse_strict(&s);
            let theirs = semver::Version::parse(&s);
            prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{}", s);
            if let (Ok(a), Ok(b)) = (ours, theirs) { prop_assert_eq!(a, b); }
        }

        /// The one-pass reading of plain versions gives what the
        /// general reading gives (versions and errors alike), including
        /// leading zeroes, empty parts and numbers past `u64`.
        #[test]
        fn plain_versions_read_as_the_general_reader_reads_them(
            s in "[0-9]{0,21}(\\.[0-9]{0,21}){0,3}[.a+-]?[0-9]{0,2}",
        ) {
            let general = parse_strict_general(&s);
            if let Some(v) = plain_version(&s) {
                prop_assert_eq!(Ok(v), general.clone(), "{}", s);
            }
            prop_assert_eq!(parse_strict(&s), general, "{}", s);
        }

        #[test]
        fn tolerant_never_panics(s in "\\PC{0,16}") {
            let _ = parse_tolerant(&s);
            let _ = parse_release(&s);
        }
    }
}
