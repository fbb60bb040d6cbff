//! The diff scenarios of the specification (B.5, D1–D12) and OLM-path
//! scenarios (R8, R9), each with its exact changes and findings.

use olmsat_catalog::load::{load_bytes, Loaded};
use olmsat_diff::{diff, report, ChangeKind, Diff, Options};

/// Versions of the fixture bundles.
fn version(name: &str) -> &'static str {
    match name {
        "a" => "1.0.0",
        "b" => "1.1.0",
        "c" => "1.2.0",
        "d" => "0.9.0",
        "x" => "1.0.1",
        "e" => "1.3.0",
        "f" => "1.4.0",
        "g" => "1.5.0",
        "h" => "2.0.0",
        "d1" => "1.0.1-1",
        "v0" => "1.0.1",
        other => panic!("no version for {other}"),
    }
}

/// A catalog of package `op` from channel specs: entries separated by `;`,
/// each `name [r=X] [s=X,Y] [sr=RANGE...]`. Every entry gets a bundle;
/// `images` overrides a bundle's image.
fn fbc_with(default: &str, channels: &[(&str, &str)], images: &[(&str, &str)]) -> String {
    let mut out = format!(
        "{{\"schema\":\"olm.package\",\"name\":\"op\",\"defaultChannel\":\"{default}\"}}\n"
    );
    let mut bundles = std::collections::BTreeSet::new();
    for (name, spec) in channels {
        let mut entries = Vec::new();
        for e in spec.split(';').map(str::trim).filter(|e| !e.is_empty()) {
            let mut toks = e.split_whitespace();
            let n = toks.next().unwrap();
            bundles.insert(n.to_owned());
            let mut fields = vec![format!("\"name\":\"{n}\"")];
            let rest: Vec<&str> = toks.collect();
            let mut i = 0;
            while i < rest.len() {
                let t = rest[i];
                if let Some(r) = t.strip_prefix("r=") {
                    fields.push(format!("\"replaces\":\"{r}\""));
                } else if let Some(s) = t.strip_prefix("s=") {
                    let list: Vec<String> = s.split(',').map(|x| format!("\"{x}\"")).collect();
                    fields.push(format!("\"skips\":[{}]", list.join(",")));
                } else if let Some(sr) = t.strip_prefix("sr=") {
                    let range = std::iter::once(sr)
                        .chain(rest[i + 1..].iter().copied())
                        .collect::<Vec<_>>()
                        .join(" ");
                    fields.push(format!("\"skipRange\":\"{range}\""));
                    i = rest.len();
                    continue;
                } else {
                    panic!("bad token {t}");
                }
                i += 1;
            }
            entries.push(format!("{{{}}}", fields.join(",")));
        }
        out.push_str(&format!(
            "{{\"schema\":\"olm.channel\",\"package\":\"op\",\"name\":\"{name}\",\"entries\":[{}]}}\n",
            entries.join(",")
        ));
    }
    for b in bundles {
        let image = images
            .iter()
            .find(|(n, _)| *n == b)
            .map_or(format!("quay.io/op/bundle:{b}"), |(_, i)| (*i).to_owned());
        out.push_str(&format!(
            "{{\"schema\":\"olm.bundle\",\"package\":\"op\",\"name\":\"{b}\",\"image\":\"{image}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"op\",\"version\":\"{}\"}}}}]}}\n",
            version(&b)
        ));
    }
    out
}

fn fbc(default: &str, channels: &[(&str, &str)]) -> String {
    fbc_with(default, channels, &[])
}

fn load(name: &str, text: &str) -> Loaded {
    load_bytes(name, text.as_bytes())
}

fn run(old: &str, new: &str) -> Diff {
    diff(
        load("old.json", old),
        load("new.json", new),
        &Options::default(),
    )
    .expect("OLD is valid")
}

fn stable(old: &str, new: &str) -> Diff {
    run(
        &fbc("stable", &[("stable", old)]),
        &fbc("stable", &[("stable", new)]),
    )
}

/// Findings as `rule channel/bundle`, in report order.
fn findings(d: &Diff) -> Vec<String> {
    d.all_findings()
        .map(|f| {
            format!(
                "{} {}/{}",
                f.rule.id(),
                f.channel.as_deref().unwrap_or("-"),
                f.bundle.as_deref().unwrap_or("-")
            )
        })
        .collect()
}

/// Changes as `kind channel/bundle old->new`.
fn changes(d: &Diff) -> Vec<String> {
    d.packages
        .iter()
        .flat_map(|p| &p.changes)
        .map(|c| {
            format!(
                "{} {}/{} {}->{}",
                c.kind.name(),
                c.channel.as_deref().unwrap_or("-"),
                c.bundle.as_deref().unwrap_or("-"),
                c.old.as_deref().unwrap_or("-"),
                c.new.as_deref().unwrap_or("-")
            )
        })
        .collect()
}

/// Whether the diff fails with `--strict` (an error or a warning).
fn fails_strict(d: &Diff) -> bool {
    use olmsat_findings::Severity;
    d.count(Severity::Error) + d.count(Severity::Warning) > 0
}

fn detail(d: &Diff, rule: &str) -> String {
    d.all_findings()
        .find(|f| f.rule.id() == rule)
        .map(|f| f.message.clone())
        .unwrap_or_else(|| panic!("no {rule} finding"))
}

#[test]
fn d1_new_head() {
    let d = stable("a; b r=a", "a; b r=a; c r=b");
    assert_eq!(
        changes(&d),
        [
            "bundle-added -/c -->-",
            "head-changed stable/- b (1.1.0)->c (1.2.0)",
            "entry-added stable/c -->-",
        ]
    );
    assert!(findings(&d).is_empty(), "{:?}", findings(&d));
    assert!(!fails_strict(&d));
}

#[test]
fn d2_middle_deleted() {
    let d = stable("a; b r=a; c r=b", "a; c r=b");
    assert_eq!(
        findings(&d),
        [
            "new-invalid stable/-",
            "new-dead-end stable/a",
            "stranded stable/a",
            "removed-covered stable/b",
        ]
    );
    assert!(detail(&d, "new-invalid").contains("multiple channel heads found in graph: a, c"));
    assert!(d.fails());
}

#[test]
fn d3_tail_deleted_edge_kept() {
    let d = stable("a; b r=a", "b r=a");
    assert_eq!(findings(&d), ["removed-covered stable/a"]);
    assert!(detail(&d, "removed-covered").contains("upgrade to b (replaces a)"));
    assert!(!fails_strict(&d));
}

#[test]
fn d4_tail_deleted_edge_dropped() {
    let d = stable("a; b r=a", "b");
    assert_eq!(findings(&d), ["removed-uncovered stable/a"]);
    assert!(d.fails());
    let f = d.all_findings().next().unwrap();
    assert_eq!(f.old_location.as_ref().map(|l| &*l.file), Some("old.json"));
}

#[test]
fn d5_new_unlinked_entry() {
    let d = stable("a; b r=a", "a; b r=a; x");
    assert_eq!(
        findings(&d),
        ["new-invalid stable/-", "new-dead-end stable/x"]
    );
    assert!(detail(&d, "new-invalid").contains("multiple channel heads found in graph: b, x"));
    assert!(d.fails());
}

#[test]
fn d6_tail_deleted_but_skipped() {
    let d = stable("a; b r=a; c r=b s=a", "b; c r=b s=a");
    assert_eq!(findings(&d), ["removed-covered stable/a"]);
    assert!(detail(&d, "removed-covered").contains("upgrade to c (skips a)"));
    assert!(!fails_strict(&d));
}

#[test]
fn d7_skip_range_only_head() {
    let d = stable("a; b r=a", "a; b r=a; c sr=>=1.0.0 <1.2.0");
    assert_eq!(findings(&d), ["new-invalid stable/-"]);
    assert!(detail(&d, "new-invalid").contains("multiple channel heads found in graph: b, c"));
}

#[test]
fn d8_channel_removed() {
    let old = fbc("stable", &[("fast", "a; b r=a"), ("stable", "a; b r=a")]);
    let d = run(&old, &fbc("fast", &[("fast", "a; b r=a")]));
    assert_eq!(
        findings(&d),
        ["default-channel-changed fast/-", "channel-retired stable/-"]
    );
    // Every entry of stable is in fast, which takes it to its head: no user
    // is stranded, the channel is retired (issue 35.1), a warning.
    assert!(!d.fails());
    let same_default = run(
        &fbc("fast", &[("fast", "a; b r=a"), ("stable", "a; b r=a")]),
        &fbc("fast", &[("fast", "a; b r=a")]),
    );
    assert_eq!(findings(&same_default), ["channel-retired stable/-"]);
    assert_eq!(changes(&same_default), ["channel-removed stable/- -->-"]);
}

#[test]
fn d9_default_channel_changed() {
    let chans = [("stable-v1", "a; b r=a"), ("stable-v2", "c")];
    let d = run(&fbc("stable-v1", &chans), &fbc("stable-v2", &chans));
    assert_eq!(findings(&d), ["default-channel-changed stable-v2/-"]);
    assert_eq!(
        changes(&d),
        ["default-channel-changed -/- stable-v1->stable-v2"]
    );
    assert!(!d.fails());
    assert!(fails_strict(&d));
}

#[test]
fn d10_head_regression() {
    let d = stable("a; b r=a", "a; b r=a; d r=b");
    assert_eq!(findings(&d), ["head-regression stable/d"]);
    assert!(detail(&d, "head-regression").contains("from b (1.1.0) to d (0.9.0)"));
    assert!(changes(&d).contains(&"head-changed stable/- b (1.1.0)->d (0.9.0)".to_owned()));
    // d replaces b: OLM v0 moves b's users down to d, an error (issue 35.2).
    assert!(d.fails());
}

#[test]
fn d11_bundle_image_changed() {
    let chans = [("stable", "a; b r=a")];
    let d = run(
        &fbc("stable", &chans),
        &fbc_with("stable", &chans, &[("b", "quay.io/op/bundle@sha256:1111111111111111111111111111111111111111111111111111111111111111")]),
    );
    assert_eq!(findings(&d), ["bundle-changed -/b"]);
    assert!(detail(&d, "bundle-changed").contains("image quay.io/op/bundle:b -> quay.io/op/bundle@sha256:1111111111111111111111111111111111111111111111111111111111111111"));
    assert!(changes(&d).is_empty());
    assert!(!fails_strict(&d));
}

#[test]
fn d12_channel_added() {
    let d = run(
        &fbc("stable", &[("stable", "a; b r=a")]),
        &fbc("stable", &[("fast", "b; c r=b"), ("stable", "a; b r=a")]),
    );
    assert!(findings(&d).is_empty(), "{:?}", findings(&d));
    assert_eq!(
        changes(&d),
        ["bundle-added -/c -->-", "channel-added fast/- -->-"]
    );
}

#[test]
fn r8_valid_catalog_but_olm_stuck() {
    // OLD: a -> b -> c along replaces. NEW (valid: a is skipped, so not
    // stranded): b no longer replaces a; e skips a but is itself skipped by
    // the head f. The graph still leads a -> e -> f, but OLM never offers e.
    let d = stable("a; b r=a; c r=b", "a; b; c r=b; e s=a; f r=c s=e");
    assert_eq!(findings(&d), ["edge-shrink stable/a", "olm-stuck stable/a"]);
    let text = detail(&d, "olm-stuck");
    assert!(text.contains("in OLD (a -> b -> c)"), "{text}");
    assert!(text.contains("stops short of f in NEW (a)"), "{text}");
    assert!(
        text.contains("e (skips a) is never offered: skipped by f"),
        "{text}"
    );
    assert!(d.fails());
}

#[test]
fn r8_with_new_invalid() {
    // e skips b: the chain from e stops at c, a is stranded for opm (R0),
    // reaches the head along edges (no R1) but OLM never offers b.
    let d = stable("a; b r=a; c r=b", "a; b r=a; c r=b; e r=c s=b");
    let got = findings(&d);
    assert!(got.contains(&"olm-stuck stable/a".to_owned()), "{got:?}");
    assert!(
        got.iter().any(|f| f.starts_with("new-invalid stable/")),
        "{got:?}"
    );
    assert!(detail(&d, "olm-stuck").contains("b (replaces a) is never offered: skipped by e"));
}

#[test]
fn r8_deleted_bundle_upgrades_by_name() {
    // a is deleted from the channel but installed somewhere: in NEW only
    // d-less entry c skips it... here nothing offered on the chain takes it.
    // OLD [a, b(r=a), c(r=b)] -> NEW [b, c(r=b), e(r=c, s=[a])] keeps an edge
    // from a (e skips a): a is covered and OLM takes a -> e directly.
    let d = stable("a; b r=a; c r=b", "b; c r=b; e r=c s=a");
    assert_eq!(findings(&d), ["removed-covered stable/a"]);
    // With the edge to a on an entry OLM never offers (f skips e), the
    // deleted a is stuck under OLM although the graph still has an edge.
    let d = stable("a; b r=a; c r=b", "b; c r=b; e s=a; f r=c s=e");
    assert!(
        findings(&d).contains(&"olm-stuck stable/a".to_owned()),
        "{:?}",
        findings(&d)
    );
    assert!(findings(&d).contains(&"removed-covered stable/a".to_owned()));
}

#[test]
fn r8_not_evaluated_with_several_heads() {
    let d = stable("a; b r=a; c r=b", "a; b r=a; c r=b; e r=c s=b; x");
    assert!(
        !findings(&d).iter().any(|f| f.starts_with("olm-stuck")),
        "{:?}",
        findings(&d)
    );
}

#[test]
fn r9_path_longer() {
    // OLD: c skips a, so OLM takes a -> c in one step. NEW drops the skip:
    // a -> b -> c, two steps.
    let d = stable("a; b r=a; c r=b s=a", "a; b r=a; c r=b");
    assert_eq!(
        findings(&d),
        ["edge-shrink stable/a", "path-longer stable/a"]
    );
    let text = detail(&d, "path-longer");
    assert!(
        text.contains("2 step(s) from a to the head in NEW (a -> b -> c), 1 in OLD (a -> c)"),
        "{text}"
    );
    assert!(
        changes(&d).contains(&"skips-removed stable/c a->-".to_owned()),
        "{:?}",
        changes(&d)
    );
    assert!(!fails_strict(&d));
}

#[test]
fn identical_catalogs_give_an_empty_diff() {
    let c = fbc(
        "stable",
        &[("fast", "b; c r=b"), ("stable", "a; b r=a; c r=b s=a")],
    );
    let d = run(&c, &c);
    assert!(d.is_empty(), "{d:?}");
}

#[test]
fn old_invalid_is_refused() {
    let old = fbc("stable", &[("stable", "a; b")]);
    let err = diff(
        load("old.json", &old),
        load("new.json", &old),
        &Options::default(),
    )
    .expect_err("OLD has two heads");
    assert!(
        err.to_string()
            .starts_with("OLD catalog is invalid (1 error(s)"),
        "{err}"
    );
}

#[test]
fn package_added_and_removed() {
    let old = fbc("stable", &[("stable", "a; b r=a")]);
    let empty = "";
    let d = run(&old, empty);
    assert_eq!(findings(&d), ["package-removed -/-"]);
    assert_eq!(changes(&d), ["package-removed -/- -->-"]);
    let d = run(empty, &old);
    assert!(findings(&d).is_empty());
    assert_eq!(d.packages[0].changes[0].kind, ChangeKind::PackageAdded);
}

#[test]
fn unknown_package_is_named() {
    let c = fbc("stable", &[("stable", "a")]);
    let err = diff(
        load("o.json", &c),
        load("n.json", &c),
        &Options {
            package: Some("opp".into()),
        },
    )
    .expect_err("no such package");
    assert_eq!(
        err.to_string(),
        "package \"opp\" is in neither catalog; packages: op"
    );
}

#[test]
fn renderings_are_deterministic_and_complete() {
    let d = stable("a; b r=a; c r=b", "a; c r=b");
    let json = serde_json::to_string_pretty(&report::json(&d)).unwrap();
    assert_eq!(
        json,
        serde_json::to_string_pretty(&report::json(&d)).unwrap()
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let f = &v["packages"][0]["findings"][0];
    assert_eq!(f["rule"], "new-invalid");
    assert_eq!(f["code"], "R0");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["file"], "new.json");
    let text = report::text(&d, false);
    assert!(text.starts_with("package op\n  changes:\n"), "{text}");
    assert!(
        text.ends_with("1 package(s) changed; 3 error(s), 0 warning(s), 1 info\n"),
        "{text}"
    );
    // Errors come before information in the text.
    let err = text.find("error[stranded R1]").unwrap();
    let info = text.find("info[removed-covered R2]").unwrap();
    assert!(err < info);
    let short = report::short(&d, false);
    assert_eq!(short.lines().count(), 4);
    assert!(
        short
            .lines()
            .all(|l| l.starts_with("new.json:") || l.starts_with("old.json:")),
        "{short}"
    );
    let yaml = report::yaml(&d);
    assert!(yaml.contains("rule: new-invalid"), "{yaml}");
    // One call renders every format of the findings system.
    use olmsat_findings::report::Format;
    let render = |f| report::render(&d, f, false, "0.0.0").unwrap();
    assert_eq!(render(Format::Text), text);
    assert_eq!(render(Format::Short), short);
    assert_eq!(render(Format::Yaml), yaml);
    assert_eq!(render(Format::Json), json + "\n");
    assert_eq!(render(Format::Github), report::github(&d));
    assert!(render(Format::Sarif).contains("\"version\": \"2.1.0\""));
}

#[test]
fn d13_pruned_predecessor_loses_its_edge() {
    // a is pruned: no bundle a anywhere, but b replaces it, so clusters run it.
    let old = "{\"schema\":\"olm.package\",\"name\":\"op\",\"defaultChannel\":\"stable\"}\n{\"schema\":\"olm.channel\",\"package\":\"op\",\"name\":\"stable\",\"entries\":[{\"name\":\"b\",\"replaces\":\"a\"}]}\n{\"schema\":\"olm.bundle\",\"package\":\"op\",\"name\":\"b\",\"image\":\"quay.io/op/bundle:b\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"op\",\"version\":\"1.1.0\"}}]}\n";
    let new = old.replace(",\"replaces\":\"a\"", "");
    let d = run(old, &new);
    assert_eq!(findings(&d), ["olm-stuck stable/a"]);
    assert!(d.fails());
    let detail = detail(&d, "olm-stuck");
    assert!(
        detail
            .starts_with("a is a pruned predecessor (no bundle of the package, but b replaces it"),
        "{detail}"
    );
    // The finding points into NEW (the entry b), OLD's entry beside it.
    let f = d.all_findings().next().unwrap();
    assert_eq!(f.location.as_ref().map(|l| &*l.file), Some("new.json"));
    assert_eq!(f.old_location.as_ref().map(|l| &*l.file), Some("old.json"));
}

#[test]
fn d14_channel_switchers() {
    let d = run(
        &fbc(
            "1.x",
            &[("1.x", "a; b r=a"), ("2.x", "h sr=>=1.0.0 <2.0.0")],
        ),
        &fbc(
            "1.x",
            &[("1.x", "a; b r=a"), ("2.x", "h sr=>=1.1.1 <2.0.0")],
        ),
    );
    assert_eq!(findings(&d), ["switch-lost 2.x/a", "olm-stuck 2.x/b"]);
    assert!(d.fails());
    assert!(detail(&d, "olm-stuck")
        .starts_with("b (1.1.0), the head of channel 1.x, moves on only by switching to 2.x"));
    assert!(detail(&d, "switch-lost")
        .contains("users on a (1.0.0) in channel 1.x could switch to 2.x in OLD"));
    let lost = d
        .all_findings()
        .find(|f| f.rule.id() == "switch-lost")
        .unwrap();
    assert_eq!(lost.severity, olmsat_findings::Severity::Warning);
}

#[test]
fn removed_channel_is_retired_when_every_entry_switches() {
    // fast's entries are all in stable, which takes them to its head.
    let d = run(
        &fbc(
            "stable",
            &[("stable", "a; b r=a; c r=b"), ("fast", "a; b r=a")],
        ),
        &fbc("stable", &[("stable", "a; b r=a; c r=b")]),
    );
    assert_eq!(findings(&d), ["channel-retired fast/-"]);
    assert!(!d.fails());
    assert!(
        detail(&d, "channel-retired").contains("(a, b -> stable)"),
        "{}",
        detail(&d, "channel-retired")
    );
    // e is nowhere else: the removal strands its users.
    let d = run(
        &fbc("stable", &[("stable", "a; b r=a"), ("fast", "a; e r=a")]),
        &fbc("stable", &[("stable", "a; b r=a")]),
    );
    assert_eq!(findings(&d), ["channel-removed fast/-"]);
    assert!(detail(&d, "channel-removed").ends_with("no remaining channel takes e to a head"));
    let f = d.all_findings().next().unwrap();
    assert_eq!(
        f.location.as_ref().map(|l| &*l.file),
        Some("new.json"),
        "the package in NEW"
    );
}

#[test]
fn head_regression_is_an_error_when_olm_downgrades() {
    // The lower head replaces the old one: OLM v0 moves its users down.
    let d = stable("a; v0 r=a", "a; v0 r=a; d1 r=v0");
    assert_eq!(findings(&d), ["head-regression stable/d1"]);
    let f = d.all_findings().next().unwrap();
    assert_eq!(f.severity, olmsat_findings::Severity::Error);
    assert!(
        f.message
            .contains("so OLM v0 moves every user on v0 down to 1.0.1-1"),
        "{}",
        f.message
    );
    assert!(
        f.message.contains("(1.0.1-1 is a prerelease of 1.0.1 in semver, so it sorts below 1.0.1; 1.0.1+1 or 1.0.2 is probably meant)"),
        "{}",
        f.message
    );
    // A lower head that does not upgrade from the old one stays a warning.
    let d = stable("a; b r=a", "a; d r=a");
    let f = d
        .all_findings()
        .find(|f| f.rule.id() == "head-regression")
        .unwrap();
    assert_eq!(f.severity, olmsat_findings::Severity::Warning);
}
