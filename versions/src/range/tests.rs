//! Tests of ranges: blang's grammar, texts and quirks, and the hints.
use super::parse::{go_atoi, go_is_digit, misread_by_blang, ND_ZEROS};
use super::*;

fn ver(s: &str) -> semver::Version {
    match version::parse_strict(s) {
        Ok(v) => v,
        Err(e) => panic!("{s}: {e}"),
    }
}

fn range(s: &str) -> Range {
    match Range::parse(s) {
        Ok(r) => r,
        Err(e) => panic!("{s:?}: {e}"),
    }
}

fn parse_err(s: &str) -> String {
    match Range::parse(s) {
        Ok(r) => panic!("{s:?} parsed as {}", r.expanded()),
        Err(e) => e.to_string(),
    }
}

/// Same comparators, up to build metadata.
fn same_groups(a: &Range, b: &Range) -> bool {
    a.groups().len() == b.groups().len()
        && a.groups().iter().zip(b.groups()).all(|(x, y)| {
            x.len() == y.len()
                && x.iter().zip(y).all(|(c, d)| {
                    c.op == d.op && version::compare(&c.version, &d.version) == Ordering::Equal
                })
        })
}

/// (range, expanded form, versions that match, versions that do not)
type Case = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const CASES: &[Case] = &[
    // every operator
    (
        "1.2.3",
        "=1.2.3",
        &["1.2.3", "1.2.3+b"],
        &["1.2.4", "1.2.3-rc.1"],
    ),
    ("=1.2.3", "=1.2.3", &["1.2.3"], &["1.2.2"]),
    ("==1.2.3", "=1.2.3", &["1.2.3"], &["1.2.2"]),
    (
        "!1.2.3",
        "!=1.2.3",
        &["1.2.2", "1.2.3-rc.1"],
        &["1.2.3", "1.2.3+b"],
    ),
    ("!=1.2.3", "!=1.2.3", &["1.2.4"], &["1.2.3"]),
    (
        ">1.2.3",
        ">1.2.3",
        &["1.2.4", "1.2.4-0"],
        &["1.2.3", "1.2.3+b", "1.2.3-rc"],
    ),
    (
        ">=1.2.3",
        ">=1.2.3",
        &["1.2.3", "2.0.0"],
        &["1.2.3-rc.1", "1.2.2"],
    ),
    ("<1.2.3", "<1.2.3", &["1.2.2", "1.2.3-rc.1"], &["1.2.3"]),
    (
        "<=1.2.3",
        "<=1.2.3",
        &["1.2.3", "1.2.3+z", "0.0.0"],
        &["1.2.4-0"],
    ),
    // wildcards
    (
        "1.2.x",
        ">=1.2.0 <1.3.0",
        &["1.2.0", "1.2.9", "1.3.0-rc"],
        &["1.1.9", "1.3.0", "1.2.0-rc"],
    ),
    ("=1.2.x", ">=1.2.0 <1.3.0", &["1.2.5"], &["1.3.0"]),
    ("==1.2.x", ">=1.2.0 <1.3.0", &["1.2.5"], &["1.3.0"]),
    (">1.2.x", ">=1.3.0", &["1.3.0"], &["1.2.9"]),
    (">=1.2.x", ">=1.2.0", &["1.2.0"], &["1.1.9"]),
    ("<1.2.x", "<1.2.0", &["1.1.9"], &["1.2.0"]),
    ("<=1.2.x", "<1.3.0", &["1.2.9"], &["1.3.0"]),
    (
        "!=1.2.x",
        "<1.2.0 >=1.3.0",
        &[],
        &["1.1.0", "1.2.0", "1.3.0"],
    ),
    ("!1.2.x", "<1.2.0 >=1.3.0", &[], &["1.1.0", "1.3.0"]),
    (
        "1.x",
        ">=1.0.0 <2.0.0",
        &["1.0.0", "1.99.0"],
        &["2.0.0", "0.9.0"],
    ),
    (">1.x", ">=2.0.0", &["2.0.0"], &["1.9.9"]),
    (">=1.x", ">=1.0.0", &["1.0.0"], &["0.9.9"]),
    ("<1.x", "<1.0.0", &["0.9.9"], &["1.0.0"]),
    ("<=1.x", "<2.0.0", &["1.9.9"], &["2.0.0"]),
    ("!=1.x", "<1.0.0 >=2.0.0", &[], &["0.1.0", "2.0.0"]),
    ("1.x.x", ">=1.0.0 <1.1.0", &["1.0.5"], &["1.1.0", "1.5.0"]),
    ("1.1.x", ">=1.1.0 <1.2.0", &["1.1.0"], &["1.1.0-beta.1"]),
    (">1.01.x", ">=1.2.0", &["1.2.0"], &["1.1.9"]),
    (">1.+1.x", ">=1.2.0", &["1.2.0"], &["1.1.9"]),
    ("~1.x", "=1.0.0", &["1.0.0"], &["1.5.0"]),
    ("^1.2.x", "=1.2.0", &["1.2.0"], &["1.2.1"]),
    ("x1.0.0", "=1.0.0", &["1.0.0"], &["1.0.1"]),
    (">=1.0.0-a.x", ">=1.0.0-a.0", &["1.0.0-a.0"], &["1.0.0-a"]),
    // x in a prerelease or build
    (
        ">=1.0.0-fix",
        ">=1.0.0-fix",
        &["1.0.0-fix", "1.0.0"],
        &["1.0.0-ab"],
    ),
    ("<1.0.0-fix", "<1.0.0-fix", &["1.0.0-ab"], &["1.0.0-fix"]),
    (">=1.0.0+x", ">=1.0.0", &["1.0.0"], &["0.9.0"]),
    // spaces after operators
    (
        ">= 1.2.3 < 1.3.0",
        ">=1.2.3 <1.3.0",
        &["1.2.3", "1.2.9"],
        &["1.3.0", "1.2.2"],
    ),
    (
        ">=  1.2.3   <   1.3.0 ",
        ">=1.2.3 <1.3.0",
        &["1.2.5"],
        &["1.3.0"],
    ),
    ("> = 1.2.3", ">=1.2.3", &["1.2.3"], &["1.2.2"]),
    ("= 1.2.3", "=1.2.3", &["1.2.3"], &["1.2.2"]),
    (
        "< 1.0.0 !0.0.0",
        "<1.0.0 !=0.0.0",
        &["0.5.0", "0.0.0-1"],
        &["0.0.0", "1.0.0"],
    ),
    ("\t>=1.0.0", ">=1.0.0", &["1.0.0"], &["0.1.0"]),
    // OR
    (
        ">1.0.0 <2.0.0 || >3.0.0 !4.2.1",
        ">1.0.0 <2.0.0 || >3.0.0 !=4.2.1",
        &["1.2.3", "1.9.9", "3.1.1"],
        &["4.2.1", "2.1.1", "1.0.0", "3.0.0"],
    ),
    (
        "<2.0.0 || >=3.0.0",
        "<2.0.0 || >=3.0.0",
        &["1.0.0", "3.0.0"],
        &["2.5.0"],
    ),
    (
        "1.2.x || 1.4.x",
        ">=1.2.0 <1.3.0 || >=1.4.0 <1.5.0",
        &["1.2.1", "1.4.0"],
        &["1.3.0"],
    ),
    // prerelease bounds
    (
        ">=1.2.3-0 <1.3.0",
        ">=1.2.3-0 <1.3.0",
        &["1.2.3-0", "1.2.3-alpha", "1.2.3", "1.3.0-rc"],
        &["1.2.2", "1.3.0"],
    ),
    (
        "<1.2.3-0",
        "<1.2.3-0",
        &["1.2.2", "1.2.2-rc"],
        &["1.2.3-0", "1.2.3"],
    ),
    ("<1.0.0", "<1.0.0", &["1.0.0-rc.1", "0.9.0"], &["1.0.0"]),
    (
        ">=1.0.0 <2.0.0",
        ">=1.0.0 <2.0.0",
        &["1.5.0-rc.1", "1.0.0"],
        &["2.0.0", "1.0.0-rc.1"],
    ),
    (
        ">=1.2.3 <1.3.0 !1.2.3-alpha1",
        ">=1.2.3 <1.3.0 !=1.2.3-alpha1",
        &["1.2.3", "1.2.4"],
        &["1.2.3-alpha1", "1.3.0"],
    ),
    // build metadata ignored
    (
        "=1.2.3+build.1",
        "=1.2.3",
        &["1.2.3", "1.2.3+other"],
        &["1.2.4"],
    ),
    (">1.2.3+b", ">1.2.3", &["1.2.4"], &["1.2.3+c"]),
    // one-byte tokens are dropped by blang
    (
        "1.0.0 - 2.0.0",
        "=1.0.0 =2.0.0",
        &[],
        &["1.0.0", "1.5.0", "2.0.0"],
    ),
    ("1.0.0 | 2.0.0", "=1.0.0 =2.0.0", &[], &["1.0.0"]),
    (">=1.0.0 <", ">=1.0.0", &["5.0.0"], &["0.1.0"]),
    // real skipRanges seen in catalogs
    (">=1.2.3 <1.3.0", ">=1.2.3 <1.3.0", &["1.2.3"], &["1.3.0"]),
    (">=1.2.x <1.3.0", ">=1.2.0 <1.3.0", &["1.2.0"], &["1.3.0"]),
    (
        ">=4.1.0-cee.1 <4.2.0",
        ">=4.1.0-cee.1 <4.2.0",
        &["4.1.0-cee.1", "4.1.5"],
        &["4.1.0-cee.0", "4.2.0"],
    ),
    (
        ">=0.0.0-nightly-2021 <1.0.0",
        ">=0.0.0-nightly-2021 <1.0.0",
        &["0.0.0-nightly-2021", "0.5.0"],
        &["0.0.0-nightly-2020", "1.0.0"],
    ),
];

#[test]
fn table() {
    for &(text, expanded, yes, no) in CASES {
        let r = range(text);
        assert_eq!(r.expanded(), expanded, "expanded form of {text:?}");
        assert_eq!(r.to_string(), text);
        assert_eq!(r.as_str(), text);
        for v in yes {
            assert!(r.matches(&ver(v)), "{text:?} should match {v}");
        }
        for v in no {
            assert!(!r.matches(&ver(v)), "{text:?} should not match {v}");
        }
        // The normalized form parses back to the same comparators.
        assert!(same_groups(&range(&r.expanded()), &r), "{text:?}");
    }
}

#[test]
fn real_skip_ranges() {
    for s in [
        ">=1.2.3 <1.3.0",
        "<1.2.3",
        ">=1.2.x <1.3.0",
        ">= 1.2.3 < 1.3.0",
        "=1.2.3",
        ">=4.1.0-cee.1 <4.2.0",
        ">=0.0.0-nightly-2021 <1.0.0",
    ] {
        assert!(Range::parse(s).is_ok(), "{s}");
    }
    assert!(Range::parse(">=v1.2.3 <v1.3.0").is_err());
}

#[test]
fn error_texts() {
    let cases = [
        ("", "Last element in range is '||'"),
        ("   ", "Last element in range is '||'"),
        ("||", "First element in range is '||'"),
        ("1.0.0 ||", "Last element in range is '||'"),
        ("|| 1.0.0", "First element in range is '||'"),
        ("1.0.0 || || 2.0.0", "empty range"),
        ("1.0.0 || a || 2.0.0", "empty range"),
        (
            "1.0.0 || || ~2.0.0",
            "Could not parse Range \"~2.0.0\": Could not parse comparator \"~\" in \"~2.0.0\"",
        ),
        (
            ">=v1.2.3",
            "Could not parse Range \">=v1.2.3\": Could not parse comparator \">=v\" in \">=v1.2.3\"",
        ),
        (
            "~1.2",
            "Could not parse Range \"~1.2\": Could not parse comparator \"~\" in \"~1.2\"",
        ),
        (
            "~1.2.3",
            "Could not parse Range \"~1.2.3\": Could not parse comparator \"~\" in \"~1.2.3\"",
        ),
        (
            "^1",
            "Could not parse Range \"^1\": Could not parse comparator \"^\" in \"^1\"",
        ),
        (
            "=>1.0.0",
            "Could not parse Range \"=>1.0.0\": Could not parse comparator \"=>\" in \"=>1.0.0\"",
        ),
        (
            "1.2",
            "Could not parse Range \"1.2\": Could not parse version \"1.2\" in \"1.2\": No Major.Minor.Patch elements found",
        ),
        // one-byte tokens are dropped before anything else
        ("*", "Last element in range is '||'"),
        ("x", "Last element in range is '||'"),
        ("1 || 2.0.0", "First element in range is '||'"),
        (">=*", "Could not get version from string: \">=*\""),
        (
            "1.*",
            "Could not parse Range \"1.*\": Could not parse version \"1.*\" in \"1.*\": No Major.Minor.Patch elements found",
        ),
        ("abc", "Could not get version from string: \"abc\""),
        (
            "1.X",
            "Could not parse Range \"1.X\": Could not parse version \"1.X\" in \"1.X\": No Major.Minor.Patch elements found",
        ),
        (
            "1.2.X",
            "Could not parse Range \"1.2.X\": Could not parse version \"1.2.X\" in \"1.2.X\": Invalid character(s) found in patch number \"X\"",
        ),
        (
            ">=1.0.0,<2.0.0",
            "Could not parse Range \">=1.0.0,<2.0.0\": Could not parse version \"1.0.0,<2.0.0\" in \">=1.0.0,<2.0.0\": Invalid character(s) found in patch number \"0,<2.0.0\"",
        ),
        (
            ">=1.0.0, <2.0.0",
            "Could not parse Range \">=1.0.0,\": Could not parse version \"1.0.0,\" in \">=1.0.0,\": Invalid character(s) found in patch number \"0,\"",
        ),
        (
            ">=01.0.0",
            "Could not parse Range \">=01.0.0\": Could not parse version \"01.0.0\" in \">=01.0.0\": Major number must not contain leading zeroes \"01\"",
        ),
        (
            "<99999999999999999999.0.0",
            "Could not parse Range \"<99999999999999999999.0.0\": Could not parse version \"99999999999999999999.0.0\" in \"<99999999999999999999.0.0\": strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
        ),
        // x anywhere triggers wildcard expansion
        ("1.0.0-fix", "Could not get version from string: \"<\""),
        ("=1.0.0-fix", "Could not get version from string: \"<\""),
        (">1.0.0-fix", "Could not get version from string: \">=\""),
        ("<=1.0.0-fix", "Could not get version from string: \"<\""),
        ("!=1.0.0-fix", "Could not get version from string: \">=\""),
        ("1.0.0+x", "Could not get version from string: \"<\""),
        ("1.2.x.x", "Could not get version from string: \"<\""),
        ("xyz", "Could not get version from string: \"xyz\""),
        (
            "1.x-rc",
            "Could not parse Range \">=1.0-rc.0\": Could not parse version \"1.0-rc.0\" in \">=1.0-rc.0\": Invalid character(s) found in minor number \"0-rc\"",
        ),
        (
            ">1.9223372036854775807.x",
            "Could not parse Range \">=1.-9223372036854775808.0\": Could not parse version \"1.-9223372036854775808.0\" in \">=1.-9223372036854775808.0\": Invalid character(s) found in minor number \"-9223372036854775808\"",
        ),
        (
            ">9223372036854775807.x",
            "Could not parse Range \">=-9223372036854775808.0.0\": Could not parse comparator \">=-\" in \">=-9223372036854775808.0.0\"",
        ),
        (
            ">1.9223372036854775808.x",
            "Could not get version from string: \">=\"",
        ),
        (
            "1.-1.x",
            "Could not parse Range \">=1.-1.0\": Could not parse version \"1.-1.0\" in \">=1.-1.0\": Invalid character(s) found in minor number \"-1\"",
        ),
        // first failing token wins, in blang's order
        (
            ">=1.0.0 <2.0.0 || ~3.0.0",
            "Could not parse Range \"~3.0.0\": Could not parse comparator \"~\" in \"~3.0.0\"",
        ),
        (
            "~1.0.0 || 1.0.0-fix",
            "Could not parse Range \"~1.0.0\": Could not parse comparator \"~\" in \"~1.0.0\"",
        ),
        // wildcard expansion runs over all tokens before any is parsed
        (
            "~1.0.0 || xyz",
            "Could not get version from string: \"xyz\"",
        ),
        // non-ASCII
        (
            ">=1.0.0\t<2.0.0",
            "Could not parse Range \">=1.0.0\\t<2.0.0\": Could not parse version \"1.0.0\\t<2.0.0\" in \">=1.0.0\\t<2.0.0\": Invalid character(s) found in patch number \"0\\t<2.0.0\"",
        ),
        (
            "≥1.0.0",
            "Could not parse Range \"≥1.0.0\": Could not parse comparator \"≥\" in \"≥1.0.0\"",
        ),
        (
            ">=١.0.0",
            "Could not parse Range \">=١.0.0\": Could not parse version \"١.0.0\" in \">=١.0.0\": Invalid character(s) found in major number \"١\"",
        ),
        (
            "²1.0.0",
            "Could not parse Range \"²1.0.0\": Could not parse comparator \"²\" in \"²1.0.0\"",
        ),
    ];
    for (input, want) in cases {
        assert_eq!(parse_err(input), want, "input {input:?}");
    }
}

#[test]
fn nd_table_is_numeric() {
    for &z in ND_ZEROS {
        for u in z..z + 10 {
            let c = char::from_u32(u).map(|c| c.is_numeric());
            assert_eq!(c, Some(true), "U+{u:04X}");
        }
    }
    assert!(!go_is_digit('²'));
    assert!(!go_is_digit('Ⅷ'));
    assert!(go_is_digit('٣'));
}

#[test]
fn atoi() {
    assert_eq!(go_atoi("01"), Some(1));
    assert_eq!(go_atoi("+1"), Some(1));
    assert_eq!(go_atoi("-1"), Some(-1));
    assert_eq!(go_atoi("-9223372036854775808"), Some(i64::MIN));
    assert_eq!(go_atoi("9223372036854775808"), None);
    assert_eq!(go_atoi(""), None);
    assert_eq!(go_atoi("+"), None);
    assert_eq!(go_atoi("1_0"), None);
    assert_eq!(go_atoi("0y"), None);
}

#[test]
fn hints() {
    let cases = [
        (">=v1.2.3 <v1.3.0", ">=1.2.3 <1.3.0"),
        ("v1.2.3", "1.2.3"),
        ("1.2", "1.2.x"),
        ("1", "1.x"),
        (">=1.2", ">=1.2.0"),
        ("<1.2", "<1.2.0"),
        (">1.2", ">=1.3.0"),
        ("<=1.2", "<1.3.0"),
        ("~1.2.3", ">=1.2.3 <1.3.0"),
        ("~1.2", ">=1.2.0 <1.3.0"),
        ("~1", ">=1.0.0 <2.0.0"),
        ("^1.2.3", ">=1.2.3 <2.0.0"),
        ("^0.2.3", ">=0.2.3 <0.3.0"),
        ("^0.0.3", ">=0.0.3 <0.0.4"),
        ("^1", ">=1.0.0 <2.0.0"),
        ("^1.2.3-rc.1", ">=1.2.3-rc.1 <2.0.0"),
        ("~1.x", ">=1.0.0 <2.0.0"),
        (">=1.0.0, <2.0.0", ">=1.0.0 <2.0.0"),
        (">=1.0.0,<2.0.0", ">=1.0.0 <2.0.0"),
        ("1.0.0 - 2.0.0", ">=1.0.0 <=2.0.0"),
        ("1.0 - 2", ">=1.0.0 <3.0.0"),
        ("*", ">=0.0.0"),
        ("1.X", "1.x"),
        ("1.2.*", "1.2.x"),
        ("=>1.0.0", ">=1.0.0"),
        ("=<1.0.0", "<=1.0.0"),
        (">=01.02.03", ">=1.2.3"),
        ("=1.0.0-fix", ">=1.0.0-fix <1.0.0-fix.0"),
        (">1.0.0-fix", ">=1.0.0-fix.0"),
        ("<=1.0.0-fix", "<1.0.0-fix.0"),
        ("v1.2.3+build", "1.2.3"),
        (">=1.0.0 <2.0.0 || ~3.1", ">=1.0.0 <2.0.0 || >=3.1.0 <3.2.0"),
        (">=1.0.0 ||", ">=1.0.0"),
        ("~1.x || 1.0.0 - 1.2.0", ">=1.0.0 <2.0.0 || >=1.0.0 <=1.2.0"),
        ("1.x.x", "1.x"),
        (">=1.0.0 <=1.x.x", ">=1.0.0 <2.0.0"),
        ("V1.2.3", "1.2.3"),
        (">= 1.2 < 2", ">=1.2.0 <2.0.0"),
        ("<= v2", "<3.0.0"),
        (">=1.0.0 && <2.0.0", ">=1.0.0 <2.0.0"),
    ];
    for (input, want) in cases {
        assert_eq!(hint(input).as_deref(), Some(want), "hint for {input:?}");
        assert!(Range::parse(want).is_ok(), "{want}");
    }
    for input in [
        "",
        "||",
        ">=1.0.0 <2.0.0",
        ">= 1.2.3 < 1.3.0",
        "1.2.x",
        "foo",
        "!=1.0.0-fix",
        "!=1.2.x",
        "!1.x",
        "1.x || !=2.x",
        "~>1.2",
        "1.2.3.4",
        ">=1.0.0 <2.0.0 || bar",
    ] {
        assert_eq!(hint(input), None, "hint for {input:?}");
    }
}

#[test]
fn hint_semantics() {
    // The suggestion for `1.0.0 - 2.0.0` includes both ends.
    let r = range(&hint("1.0.0 - 2.0.0").unwrap_or_default());
    assert!(r.matches(&ver("1.0.0")) && r.matches(&ver("2.0.0")));
    assert!(!r.matches(&ver("2.0.1")));
    // `=1.0.0-fix` rewritten still means exactly that version.
    let r = range(&hint("=1.0.0-fix").unwrap_or_default());
    for (v, want) in [
        ("1.0.0-fix", true),
        ("1.0.0-fix+b", true),
        ("1.0.0-fix.0", false),
        ("1.0.0-fiw", false),
        ("1.0.0-fix-", false),
        ("1.0.0", false),
    ] {
        assert_eq!(r.matches(&ver(v)), want, "{v}");
    }
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    /// A generated version spec: full version or a wildcard.
    #[derive(Debug, Clone)]
    enum Spec {
        Full(semver::Version, Option<&'static str>),
        PatchWild(u64, u64), // M.m.x
        MinorWild(u64),      // M.x
        DoubleWild(u64),     // M.x.x (blang: M.0.x)
    }

    const OPS: &[&str] = &["", "=", "==", "!", "!=", ">", ">=", "<", "<="];
    const PRES: &[&str] = &["", "alpha", "alpha.1", "beta", "rc.1", "0", "1", "beta.11"];

    fn small_version() -> impl Strategy<Value = semver::Version> {
        (0u64..3, 0u64..3, 0u64..3, proptest::sample::select(PRES)).prop_map(|(a, b, c, p)| {
            let s = if p.is_empty() {
                format!("{a}.{b}.{c}")
            } else {
                format!("{a}.{b}.{c}-{p}")
            };
            ver(&s)
        })
    }

    fn spec() -> impl Strategy<Value = Spec> {
        prop_oneof![
            6 => (small_version(), proptest::option::of(proptest::sample::select(&["b1", "build.7"][..])))
                .prop_map(|(v, b)| Spec::Full(v, b)),
            1 => (0u64..3, 0u64..3).prop_map(|(a, b)| Spec::PatchWild(a, b)),
            1 => (0u64..3).prop_map(Spec::MinorWild),
            1 => (0u64..3).prop_map(Spec::DoubleWild),
        ]
    }

    type Comp = (&'static str, bool, Spec);

    fn comp() -> impl Strategy<Value = Comp> {
        (proptest::sample::select(OPS), any::<bool>(), spec())
    }

    fn ranges() -> impl Strategy<Value = Vec<Vec<Comp>>> {
        proptest::collection::vec(proptest::collection::vec(comp(), 1..=3), 1..=3)
    }

    fn render(groups: &[Vec<Comp>]) -> String {
        groups
            .iter()
            .map(|g| {
                g.iter()
                    .map(|(op, space, s)| {
                        let v = match s {
                            Spec::Full(v, None) => v.to_string(),
                            Spec::Full(v, Some(b)) => format!("{v}+{b}"),
                            Spec::PatchWild(a, b) => format!("{a}.{b}.x"),
                            Spec::MinorWild(a) => format!("{a}.x"),
                            Spec::DoubleWild(a) => format!("{a}.x.x"),
                        };
                        // A space after an operator is allowed only after <, >, =.
                        let sep = if *space && op.ends_with(['<', '>', '=']) {
                            " "
                        } else {
                            ""
                        };
                        format!("{op}{sep}{v}")
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join(" || ")
    }

    fn cmp(a: &semver::Version, b: &semver::Version) -> Ordering {
        a.cmp_precedence(b)
    }

    /// Direct evaluation of one comparator, independent of the parser.
    fn oracle_comp(op: &str, s: &Spec, v: &semver::Version) -> bool {
        let interval = |lo: semver::Version, hi: semver::Version| -> bool {
            let ge_lo = cmp(v, &lo) != Ordering::Less;
            let lt_hi = cmp(v, &hi) == Ordering::Less;
            match op {
                "" | "=" | "==" => ge_lo && lt_hi,
                // blang ANDs `<lo` and `>=hi`: never true.
                "!" | "!=" => false,
                ">" => !lt_hi,
                ">=" => ge_lo,
                "<" => !ge_lo,
                "<=" => lt_hi,
                _ => unreachable!(),
            }
        };
        match s {
            Spec::Full(w, _) => {
                let o = cmp(v, w);
                match op {
                    "" | "=" | "==" => o == Ordering::Equal,
                    "!" | "!=" => o != Ordering::Equal,
                    ">" => o == Ordering::Greater,
                    ">=" => o != Ordering::Less,
                    "<" => o == Ordering::Less,
                    "<=" => o != Ordering::Greater,
                    _ => unreachable!(),
                }
            }
            Spec::PatchWild(a, b) => interval(
                semver::Version::new(*a, *b, 0),
                semver::Version::new(*a, b + 1, 0),
            ),
            Spec::MinorWild(a) => interval(
                semver::Version::new(*a, 0, 0),
                semver::Version::new(a + 1, 0, 0),
            ),
            Spec::DoubleWild(a) => interval(
                semver::Version::new(*a, 0, 0),
                semver::Version::new(*a, 1, 0),
            ),
        }
    }

    fn oracle(groups: &[Vec<Comp>], v: &semver::Version) -> bool {
        groups
            .iter()
            .any(|g| g.iter().all(|(op, _, s)| oracle_comp(op, s, v)))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn matches_oracle(groups in ranges(), vs in proptest::collection::vec(small_version(), 8)) {
            let text = render(&groups);
            let r = Range::parse(&text);
            prop_assert!(r.is_ok(), "{} -> {:?}", text, r);
            let r = r.unwrap();
            for v in &vs {
                prop_assert_eq!(r.matches(v), oracle(&groups, v), "{} on {}", text, v);
            }
            // Display round-trips.
            prop_assert_eq!(Range::parse(&r.to_string()), Ok(r.clone()));
            // The expanded form means the same.
            let e = Range::parse(&r.expanded());
            prop_assert!(e.is_ok(), "{}", r.expanded());
            prop_assert!(same_groups(&e.unwrap(), &r), "{}", r.expanded());
        }

        #[test]
        fn parse_and_hint_never_panic(s in "[0-9xX.<>=!|~^v+*, a-z-]{0,24}") {
            let _ = Range::parse(&s);
            if let Some(h) = hint(&s) {
                prop_assert!(Range::parse(&h).is_ok(), "{} -> {}", s, h);
            }
        }

        #[test]
        fn arbitrary_text_never_panics(s in "\\PC{0,24}") {
            let _ = Range::parse(&s);
            let _ = hint(&s);
        }

        #[test]
        fn npm_style_hints_parse(
            parts in proptest::collection::vec(
                (
                    proptest::sample::select(&["", "=", ">", ">=", "<", "<=", "~", "^", "=>", "!="][..]),
                    proptest::sample::select(&["", "v", " "][..]),
                    proptest::sample::select(&["1", "0.2", "1.2.3", "0.0.3", "1.x", "1.2.*", "*", "1.2.3-rc.1", "1.0.0-fix", "01.2"][..]),
                ),
                1..4,
            ),
            sep in proptest::sample::select(&[" ", ", ", " || ", " - "][..]),
        ) {
            let text = parts
                .iter()
                .map(|(op, v, n)| format!("{op}{v}{n}"))
                .collect::<Vec<_>>()
                .join(sep);
            if let Some(h) = hint(&text) {
                prop_assert!(Range::parse(&h).is_ok(), "{} -> {}", text, h);
                prop_assert!(!misread_by_blang(&h), "{} -> {}", text, h);
            }
        }
    }
}
