//! Catalog templates: every scenario of the reference table (basic, semver,
//! substitutes, type detection), property tests of the semver template, and
//! real community-operators-prod templates rendered against their catalogs.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use olmsat_catalog::declcfg::{Channel, DeclarativeConfig};
use olmsat_catalog::load::{load_bytes, load_path, Loaded};
use olmsat_template::error::Failure;
use olmsat_template::source::{BundleSources, CatalogSource, LookupOptions};
use olmsat_template::{render_text, Linking, Options, Rendered, TemplateKind};
use proptest::prelude::*;

#[path = "../../tests/support/corpus.rs"]
mod corpus;

/// An `olm.bundle` blob of package `pkg`, version `v` (and release), image `quay.io/<pkg>:<name suffix>`.
fn bundle_json(pkg: &str, v: &str, release: Option<&str>, extra: &str) -> String {
    let name = match release {
        Some(r) => format!("{pkg}-v{v}-{r}"),
        None => format!("{pkg}.v{v}"),
    };
    let rel = release
        .map(|r| format!(",\"release\":\"{r}\""))
        .unwrap_or_default();
    format!(
        "{{\"schema\":\"olm.bundle\",\"name\":\"{name}\",\"package\":\"{pkg}\",\"image\":\"{}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"{pkg}\",\"version\":\"{v}\"{rel}}}}}{extra}]}}\n",
        image(&name)
    )
}

fn image(name: &str) -> String {
    format!("quay.io/img/{name}")
}

fn img(v: &str) -> String {
    image(&format!("op.v{v}"))
}

fn sources_of(text: &str) -> BundleSources {
    let loaded = load_bytes("catalog.json", text.as_bytes());
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let mut s = BundleSources::new();
    s.push(Box::new(CatalogSource::new("catalog.json", loaded.config)));
    s
}

/// Sources holding `op.v<v>` for every version given.
fn op_sources(versions: &[&str]) -> BundleSources {
    sources_of(
        &versions
            .iter()
            .map(|v| bundle_json("op", v, None, ""))
            .collect::<String>(),
    )
}

fn semver_doc(head: &str, lists: &[(&str, &[&str])]) -> String {
    let mut t = format!("schema: olm.semver\n{head}");
    for (arch, versions) in lists {
        t.push_str(&format!("{arch}:\n  bundles:\n"));
        for v in *versions {
            t.push_str(&format!("  - image: {}\n", img(v)));
        }
    }
    t
}

fn render(text: &str, sources: &BundleSources) -> Result<Rendered, Failure> {
    render_text("t.yaml", text, None, sources, &Options::default())
}

fn semver(head: &str, lists: &[(&str, &[&str])]) -> Rendered {
    let mut all: Vec<&str> = lists.iter().flat_map(|(_, v)| v.iter().copied()).collect();
    all.sort_unstable();
    all.dedup();
    render(&semver_doc(head, lists), &op_sources(&all)).unwrap()
}

fn semver_err(head: &str, lists: &[(&str, &[&str])], sources: &BundleSources) -> String {
    render(&semver_doc(head, lists), sources)
        .unwrap_err()
        .error
        .to_string()
}

/// `name(r=..., s=[...])` for each entry of channel `name`.
fn entries(r: &Rendered, name: &str) -> Vec<String> {
    let ch: &Channel = r
        .config
        .channels
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no channel {name}; have {:?}", names(r)));
    ch.entries
        .iter()
        .map(|e| {
            let mut s = e.name.trim_start_matches("op.v").to_owned();
            let mut edges = Vec::new();
            if let Some(rep) = &e.replaces {
                edges.push(format!("r={}", rep.trim_start_matches("op.v")));
            }
            if !e.skips.is_empty() {
                let sk: Vec<&str> = e
                    .skips
                    .iter()
                    .map(|s| s.trim_start_matches("op.v"))
                    .collect();
                edges.push(format!("s=[{}]", sk.join(", ")));
            }
            if !edges.is_empty() {
                s.push_str(&format!("({})", edges.join(", ")));
            }
            s
        })
        .collect()
}

fn names(r: &Rendered) -> Vec<&str> {
    r.config.channels.iter().map(|c| c.name.as_str()).collect()
}

fn default_channel(r: &Rendered) -> &str {
    &r.config.packages[0].default_channel
}

fn validate(cfg: DeclarativeConfig) -> olmsat_catalog::validate::Report {
    olmsat_catalog::validate::validate(Loaded {
        config: cfg,
        diagnostics: Vec::new(),
        files: 0,
        notes: Vec::new(),
    })
    .1
}

// ---------------------------------------------------------------- dispatch

#[test]
fn t1_detects_semver() {
    let r = semver("", &[("stable", &["1.0.0"])]);
    assert_eq!(names(&r), ["stable-v1.0"]);
}

#[test]
fn t2_missing_schema() {
    let e = render("entries: []\n", &op_sources(&[])).unwrap_err();
    assert_eq!(
        e.error.to_string(),
        "auto-detecting template type: template input missing required 'schema' field"
    );
    assert_eq!(e.location.unwrap().line, 1);
}

#[test]
fn t3_unknown_schema() {
    let e = render("schema: olm.foo\n", &op_sources(&[])).unwrap_err();
    assert_eq!(
        e.error.to_string(),
        "auto-detecting template type: unknown template schema: olm.foo"
    );
}

#[test]
fn t4_unknown_type() {
    assert_eq!(
        TemplateKind::parse("composite").unwrap_err().to_string(),
        "invalid template type \"composite\", must be one of: [basic semver substitutes]"
    );
    assert_eq!(TemplateKind::parse("semver").unwrap(), TemplateKind::Semver);
}

// ---------------------------------------------------------------- basic

fn basic_doc(extra_bundle_fields: &str) -> String {
    format!(
        "schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: op\n  defaultChannel: alpha\n- schema: olm.channel\n  package: op\n  name: alpha\n  entries:\n  - name: op.v1.0.0\n  - name: op.v2.0.0\n    replaces: op.v1.0.0\n- schema: olm.bundle\n  image: {}\n- schema: olm.bundle\n  image: {}\n{extra_bundle_fields}",
        img("1.0.0"),
        img("2.0.0")
    )
}

#[test]
fn b1_references_become_bundles() {
    let r = render(&basic_doc(""), &op_sources(&["1.0.0", "2.0.0"])).unwrap();
    assert_eq!(r.config.packages[0].default_channel, "alpha");
    assert_eq!(entries(&r, "alpha"), ["1.0.0", "2.0.0(r=1.0.0)"]);
    let b: Vec<&str> = r.config.bundles.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(b, ["op.v1.0.0", "op.v2.0.0"]);
    assert_eq!(r.config.bundles[1].package, "op");
    assert_eq!(r.config.bundles[1].properties.len(), 1);
    assert!(validate(r.config).passed());
}

#[test]
fn b2_full_bundles_are_refused_at_their_line() {
    for extra in [
        "  package: op\n",
        "  properties: [{type: olm.label, value: {label: x}}]\n",
    ] {
        let text = format!(
            "{}- schema: olm.bundle\n  image: {}\n{extra}",
            basic_doc(""),
            img("3.0.0")
        );
        let e = render(&text, &op_sources(&["1.0.0", "2.0.0", "3.0.0"])).unwrap_err();
        assert_eq!(
            e.error.to_string(),
            "unexpected fields present in basic template bundle"
        );
        assert_eq!(e.location.unwrap().line, 17, "{extra}");
    }
}

#[test]
fn b3_a_name_is_ignored() {
    let text = format!("{}  name: x\n", basic_doc(""));
    let r = render(&text, &op_sources(&["1.0.0", "2.0.0"])).unwrap();
    assert_eq!(r.config.bundles[1].name, "op.v2.0.0");
}

#[test]
fn b4_basic_forced_on_a_semver_doc() {
    let e = render_text(
        "t.yaml",
        &semver_doc("", &[("stable", &["1.0.0"])]),
        Some(TemplateKind::Basic),
        &op_sources(&["1.0.0"]),
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.error.to_string(),
        "template has unknown schema (\"olm.semver\"), should be \"olm.template.basic\""
    );
}

#[test]
fn b5_missing_bundles_render_but_do_not_validate() {
    let text = basic_doc("").replace(
        "    replaces: op.v1.0.0\n",
        "    replaces: op.v1.0.0\n  - name: op.v3.0.0\n    replaces: op.v2.0.0\n",
    );
    let r = render(&text, &op_sources(&["1.0.0", "2.0.0"])).unwrap();
    assert_eq!(entries(&r, "alpha").len(), 3);
    let report = validate(r.config);
    assert!(!report.passed());
}

#[test]
fn basic_unavailable_image_names_image_line_and_sources() {
    let e = render(&basic_doc(""), &op_sources(&["1.0.0"])).unwrap_err();
    assert_eq!(
        e.error.to_string(),
        format!(
            "bundle image \"{}\" not available offline (searched: catalog.json)",
            img("2.0.0")
        )
    );
    assert_eq!(e.location.unwrap().to_string(), "t.yaml:15");
    assert!(e.error.hint().unwrap().contains("--bundles-from"));
}

// ---------------------------------------------------------------- semver

#[test]
fn s1_minor_channel_default() {
    let r = semver("", &[("stable", &["1.0.0", "1.0.1", "1.0.2"])]);
    assert_eq!(
        entries(&r, "stable-v1.0"),
        ["1.0.0", "1.0.1", "1.0.2(s=[1.0.0, 1.0.1])"]
    );
    assert_eq!(default_channel(&r), "stable-v1.0");
    assert!(validate(r.config).passed());
}

#[test]
fn s2_replaces_across_minor_channels() {
    let r = semver(
        "generateMinorChannels: true\n",
        &[("stable", &["1.1.0", "1.2.1", "1.3.1"])],
    );
    assert_eq!(entries(&r, "stable-v1.1"), ["1.1.0"]);
    assert_eq!(entries(&r, "stable-v1.2"), ["1.2.1(r=1.1.0)"]);
    assert_eq!(entries(&r, "stable-v1.3"), ["1.3.1(r=1.2.1, s=[1.1.0])"]);
    assert_eq!(default_channel(&r), "stable-v1.3");
}

#[test]
fn s3_major_channel() {
    let r = semver(
        "generateMajorChannels: true\ngenerateMinorChannels: false\n",
        &[("stable", &["2.1.0", "2.1.1", "2.3.1", "2.3.2"])],
    );
    assert_eq!(
        entries(&r, "stable-v2"),
        [
            "2.1.0",
            "2.1.1(s=[2.1.0])",
            "2.3.1",
            "2.3.2(r=2.1.1, s=[2.1.0, 2.3.1])"
        ]
    );
}

#[test]
fn s4_never_across_majors() {
    let r = semver(
        "generateMajorChannels: true\ngenerateMinorChannels: false\n",
        &[("stable", &["0.1.0", "0.1.1", "1.1.0"])],
    );
    assert_eq!(entries(&r, "stable-v0"), ["0.1.0", "0.1.1(s=[0.1.0])"]);
    assert_eq!(entries(&r, "stable-v1"), ["1.1.0"]);
}

#[test]
fn s5_prereleases_order_before_release() {
    let r = semver(
        "generateMajorChannels: true\ngenerateMinorChannels: false\n",
        &[(
            "stable",
            &["1.3.1-alpha", "1.3.1-beta", "1.2.1", "1.3.1", "1.1.0"],
        )],
    );
    assert_eq!(
        entries(&r, "stable-v1"),
        [
            "1.1.0",
            "1.2.1(r=1.1.0)",
            "1.3.1-alpha",
            "1.3.1-beta",
            "1.3.1(r=1.2.1, s=[1.1.0, 1.3.1-alpha, 1.3.1-beta])"
        ]
    );
}

#[test]
fn s6_skips_sort_as_strings() {
    let r = semver("", &[("stable", &["1.9.0", "1.10.0", "1.10.1", "1.11.0"])]);
    assert_eq!(
        entries(&r, "stable-v1.11"),
        ["1.11.0(r=1.10.1, s=[1.10.0, 1.9.0])"]
    );
}

#[test]
fn s7_archetypes_are_independent() {
    let r = semver(
        "generateMajorChannels: true\ngenerateMinorChannels: false\n",
        &[("candidate", &["1.0.0", "1.1.0"]), ("stable", &["1.0.0"])],
    );
    assert_eq!(entries(&r, "candidate-v1"), ["1.0.0", "1.1.0(r=1.0.0)"]);
    assert_eq!(entries(&r, "stable-v1"), ["1.0.0"]);
    assert_eq!(default_channel(&r), "stable-v1");
}

#[test]
fn s8_archetype_rank_beats_version() {
    let r = semver("", &[("fast", &["1.0.0"]), ("stable", &["0.9.0"])]);
    assert_eq!(default_channel(&r), "stable-v0.9");
}

const BOTH: &str = "generateMajorChannels: true\ngenerateMinorChannels: true\n";

#[test]
fn s9_both_kinds_prefer_minor() {
    let r = semver(
        &format!("{BOTH}defaultChannelTypePreference: minor\n"),
        &[("stable", &["3.1.0", "3.1.1"])],
    );
    assert_eq!(names(&r), ["stable-v3", "stable-v3.1"]);
    assert_eq!(entries(&r, "stable-v3"), entries(&r, "stable-v3.1"));
    assert_eq!(entries(&r, "stable-v3"), ["3.1.0", "3.1.1(s=[3.1.0])"]);
    assert_eq!(default_channel(&r), "stable-v3.1");
}

#[test]
fn s10_both_kinds_prefer_major() {
    let r = semver(
        &format!("{BOTH}defaultChannelTypePreference: major\n"),
        &[("stable", &["3.1.0", "3.1.1"])],
    );
    assert_eq!(default_channel(&r), "stable-v3");
}

#[test]
fn s11_newer_channel_beats_preference() {
    let r = semver(
        &format!("{BOTH}defaultChannelTypePreference: major\n"),
        &[("stable", &["3.1.0", "3.2.0"])],
    );
    assert_eq!(default_channel(&r), "stable-v3.2");
}

#[test]
fn s12_preference_mismatch() {
    let e = semver_err(
        "generateMajorChannels: true\ngenerateMinorChannels: false\ndefaultChannelTypePreference: minor\n",
        &[("stable", &["1.0.0"])],
        &op_sources(&["1.0.0"]),
    );
    assert_eq!(e, "render: unable to read file: schema attribute mismatch: DefaultChannelTypePreference set to 'minor' doesn't make sense if not generating minor-version channels");
    let e = semver_err(
        "defaultChannelTypePreference: major\n",
        &[("stable", &["1.0.0"])],
        &op_sources(&["1.0.0"]),
    );
    assert!(
        e.ends_with("set to 'major' doesn't make sense if not generating major-version channels")
    );
}

#[test]
fn s13_unknown_preference() {
    let e = semver_err("defaultChannelTypePreference: foo\n", &[], &op_sources(&[]));
    assert_eq!(
        e,
        "render: unable to read file: unknown DefaultChannelTypePreference: \"foo\"\nValid values are 'major' or 'minor'"
    );
}

#[test]
fn s14_unknown_field() {
    let e = semver_err(
        "invalid: 1\n",
        &[("stable", &["1.0.0"])],
        &op_sources(&["1.0.0"]),
    );
    assert_eq!(
        e,
        "render: unable to read file: error unmarshaling JSON: while decoding JSON: json: unknown field \"invalid\""
    );
    let text = format!(
        "{}    extra: 1\n",
        semver_doc("", &[("stable", &["1.0.0"])])
    );
    let e = render(&text, &op_sources(&["1.0.0"])).unwrap_err();
    assert!(e
        .error
        .to_string()
        .ends_with("json: unknown field \"extra\""));
}

#[test]
fn s15_semver_forced_on_a_basic_doc() {
    let e = render_text(
        "t.yaml",
        "schema: olm.template.basic\n",
        Some(TemplateKind::Semver),
        &op_sources(&[]),
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.error.to_string(),
        "render: unable to read file: readFile: input file has unknown schema, should be \"olm.semver\""
    );
}

#[test]
fn s16_build_metadata_only() {
    let vs = ["1.3.1-alpha+2001Jan21", "1.3.1-alpha+2003May06"];
    let e = semver_err("", &[("stable", &vs)], &op_sources(&vs));
    assert!(e.contains("differ only by build metadata"), "{e}");
    assert!(e.contains("cannot be compared to \"1.3.1-alpha\""), "{e}");
    assert!(
        e.contains("bundle version \"1.3.1-alpha+2003May06\""),
        "{e}"
    );
}

#[test]
fn s17_duplicate_in_one_archetype() {
    let e = semver_err(
        "",
        &[("stable", &["1.0.0", "1.0.0"])],
        &op_sources(&["1.0.0"]),
    );
    assert_eq!(
        e,
        "render: unable to post-process bundle info: duplicate bundle name \"op.v1.0.0\""
    );
}

#[test]
fn s18_other_package() {
    let mut cat = bundle_json("op", "1.0.0", None, "");
    cat.push_str(&bundle_json("other", "2.0.0", None, ""));
    let text = format!(
        "schema: olm.semver\nstable:\n  bundles:\n  - image: {}\n  - image: {}\n",
        img("1.0.0"),
        image("other.v2.0.0")
    );
    let e = render(&text, &sources_of(&cat)).unwrap_err();
    assert_eq!(
        e.error.to_string(),
        "render: unable to post-process bundle info: bundle \"other\" does not belong to this package: \"op\""
    );
    assert_eq!(e.location.unwrap().line, 5);
}

#[test]
fn s19_no_bundles() {
    let e = semver_err("", &[("stable", &[])], &op_sources(&[]));
    assert_eq!(
        e,
        "render: no bundles specified or no bundles could be rendered"
    );
}

#[test]
fn s20_image_of_two_bundles() {
    let mut cat = bundle_json("op", "1.0.0", None, "");
    cat.push_str(&bundle_json("op", "1.0.0", None, "").replace("\"op.v1.0.0\"", "\"op.twin\""));
    let e = semver_err("", &[("stable", &["1.0.0"])], &sources_of(&cat));
    assert_eq!(
        e,
        format!(
            "bundle reference \"{}\" resulted in 2 bundles, expected 1",
            img("1.0.0")
        )
    );
}

#[test]
fn s21_go_style_key_case() {
    let text = format!(
        "Schema: olm.semver\nGenerateMajorChannels: true\nGenerateMinorChannels: false\nCandidate:\n  Bundles:\n  - Image: {}\n",
        img("2.0.1")
    );
    let r = render(&text, &op_sources(&["2.0.1"])).unwrap();
    assert_eq!(names(&r), ["candidate-v2"]);
}

fn csv_object(description: &str, icons: &str) -> String {
    let csv = format!(
        "{{\"apiVersion\":\"operators.coreos.com/v1alpha1\",\"kind\":\"ClusterServiceVersion\",\"metadata\":{{\"name\":\"x\"}},\"spec\":{{\"description\":\"{description}\",\"icon\":{icons}}}}}"
    );
    let data = base64::engine::general_purpose::STANDARD.encode(csv);
    format!(",{{\"type\":\"olm.bundle.object\",\"value\":{{\"data\":\"{data}\"}}}}")
}

#[test]
fn s22_package_description_and_first_icon() {
    let icons = "[{\"base64data\":\"AAA\",\"mediatype\":\"image/png\"},{\"base64data\":\"BBB\",\"mediatype\":\"image/svg+xml\"}]";
    let mut cat = bundle_json("op", "1.0.0", None, &csv_object("old", "[]"));
    cat.push_str(&bundle_json(
        "op",
        "1.1.0",
        None,
        &csv_object("Newest", icons),
    ));
    let r = render(
        &semver_doc("", &[("stable", &["1.0.0", "1.1.0"])]),
        &sources_of(&cat),
    )
    .unwrap();
    let p = &r.config.packages[0];
    assert_eq!(p.default_channel, "stable-v1.1");
    assert_eq!(p.description, "Newest");
    assert_eq!(p.icon.as_ref().unwrap().base64data, "AAA");
    // No CSV: neither.
    let r = semver("", &[("stable", &["1.0.0"])]);
    assert!(r.config.packages[0].description.is_empty() && r.config.packages[0].icon.is_none());
    // Empty icon list: no icon.
    let cat = bundle_json("op", "1.0.0", None, &csv_object("d", "[]"));
    let r = render(
        &semver_doc("", &[("stable", &["1.0.0"])]),
        &sources_of(&cat),
    )
    .unwrap();
    assert!(r.config.packages[0].icon.is_none());
    assert_eq!(r.config.packages[0].description, "d");
}

#[test]
fn semver_upstream_archetype_change_closes_the_group() {
    // A trailing candidate entry does not keep the stable run's last group open.
    let r = semver(
        "generateMajorChannels: true\ngenerateMinorChannels: false\n",
        &[
            ("candidate", &["3.0.0"]),
            ("stable", &["2.1.0", "2.1.1", "2.3.1"]),
        ],
    );
    assert_eq!(
        entries(&r, "stable-v2"),
        ["2.1.0", "2.1.1(s=[2.1.0])", "2.3.1(r=2.1.1, s=[2.1.0])"]
    );
}

#[test]
fn semver_invalid_version_and_wrong_types() {
    let cat = bundle_json("op", "v1.0.0", None, "");
    let e = semver_err("", &[("stable", &["v1.0.0"])], &sources_of(&cat));
    assert!(
        e.starts_with("render: unable to post-process bundle info: bundle \"op.vv1.0.0\" has invalid version \"v1.0.0\": "),
        "{e}"
    );
    let e = semver_err("generateMajorChannels: \"yes\"\n", &[], &op_sources(&[]));
    assert_eq!(e, "render: unable to read file: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go struct field SemverTemplateData.generateMajorChannels of type bool");
}

#[test]
fn csv_metadata_sources_need_the_migration() {
    let meta = ",{\"type\":\"olm.csv.metadata\",\"value\":{\"description\":\"d\"}}";
    let cat = bundle_json("op", "1.0.0", None, meta);
    let text = semver_doc("", &[("stable", &["1.0.0"])]);
    let e = render(&text, &sources_of(&cat)).unwrap_err();
    assert!(e
        .error
        .to_string()
        .contains("cannot be turned back into olm.bundle.object"));
    let opts = Options {
        lookup: LookupOptions { csv_metadata: true },
        ..Options::default()
    };
    let r = render_text("t.yaml", &text, None, &sources_of(&cat), &opts).unwrap();
    assert_eq!(r.config.packages[0].description, "d");
    assert_eq!(
        r.warnings.len(),
        1,
        "no icon without a CSV: {:?}",
        r.warnings
    );
}

// ---------------------------------------------------------------- substitutes

/// a = 1.0.0, b = 1.1.0, c = 1.1.0 release 1 (its image is `img c`).
fn subst_sources() -> BundleSources {
    let mut cat = bundle_json("op", "1.1.0", Some("1"), "");
    cat.push_str(&bundle_json("op", "0.5.0", None, ""));
    sources_of(&cat)
}

fn subst_doc(channels: &str, versions: &[&str], substitutions: &str) -> String {
    let bundle = |v: &str| {
        format!(
            "- schema: olm.bundle\n  name: op.v{v}\n  package: op\n  image: {}\n  properties:\n  - type: olm.package\n    value: {{packageName: op, version: {v}}}\n",
            img(v)
        )
    };
    let bundles: String = versions.iter().map(|v| bundle(v)).collect();
    format!(
        "schema: olm.template.substitutes\nentries:\n- schema: olm.package\n  name: op\n  defaultChannel: stable\n{channels}{bundles}substitutions:\n{substitutions}"
    )
}

/// stable [a, b(r=a)]
const U1: &str = "- schema: olm.channel\n  package: op\n  name: stable\n  entries:\n  - name: op.v1.0.0\n  - name: op.v1.1.0\n    replaces: op.v1.0.0\n";

/// stable [a, b(r=a), d(r=b)], fast [b, e(s=[b])]
const U2: &str = "- schema: olm.channel\n  package: op\n  name: stable\n  entries:\n  - name: op.v1.0.0\n  - name: op.v1.1.0\n    replaces: op.v1.0.0\n  - name: op.v1.2.0\n    replaces: op.v1.1.0\n- schema: olm.channel\n  package: op\n  name: fast\n  entries:\n  - name: op.v1.1.0\n  - name: op.v1.3.0\n    skips: [op.v1.1.0]\n";

fn c_image() -> String {
    image("op-v1.1.0-1")
}

#[test]
fn u1_substitution_takes_over_the_position() {
    let text = subst_doc(
        U1,
        &["1.0.0", "1.1.0"],
        &format!("- name: {}\n  base: op.v1.1.0\n", c_image()),
    );
    let r = render(&text, &subst_sources()).unwrap();
    assert_eq!(
        entries(&r, "stable"),
        ["1.0.0", "1.1.0", "op-v1.1.0-1(r=1.0.0, s=[1.1.0])"]
    );
    assert_eq!(r.config.bundles.last().unwrap().name, "op-v1.1.0-1");
    assert!(validate(r.config).passed());
}

#[test]
fn u2_references_to_the_base_are_rewritten() {
    let text = subst_doc(
        U2,
        &["1.0.0", "1.1.0", "1.2.0", "1.3.0"],
        &format!("- name: {}\n  base: op.v1.1.0\n", c_image()),
    );
    let r = render(&text, &subst_sources()).unwrap();
    assert_eq!(
        entries(&r, "stable"),
        [
            "1.0.0",
            "1.1.0",
            "1.2.0(r=op-v1.1.0-1, s=[1.1.0])",
            "op-v1.1.0-1(r=1.0.0, s=[1.1.0])"
        ]
    );
    assert_eq!(
        entries(&r, "fast"),
        ["1.1.0", "1.3.0(s=[op-v1.1.0-1])", "op-v1.1.0-1(s=[1.1.0])"]
    );
    assert_eq!(
        r.config
            .bundles
            .iter()
            .filter(|b| b.name == "op-v1.1.0-1")
            .count(),
        1
    );
    assert!(validate(r.config).passed());
}

#[test]
fn u3_bad_substitutions() {
    let cases = [
        (
            format!("- name: {}\n  base: op.v9.9.9\n", c_image()),
            format!("render: error processing substitution \"op.v9.9.9\" -> \"{}\": base bundle \"op.v9.9.9\" does not exist in catalog", c_image()),
        ),
        (
            "- name: op.v1.1.0\n  base: op.v1.1.0\n".to_owned(),
            "render: error processing substitution \"op.v1.1.0\" -> \"op.v1.1.0\": substitution name and base cannot be the same".to_owned(),
        ),
        (
            "- name: \"\"\n  base: op.v1.1.0\n".to_owned(),
            "render: error processing substitution \"op.v1.1.0\" -> \"\": substitution name cannot be empty".to_owned(),
        ),
        (
            "- name: x\n  base: \"\"\n".to_owned(),
            "render: error processing substitution \"\" -> \"x\": substitution base cannot be empty".to_owned(),
        ),
        (
            format!("- name: {c}\n  base: op.v1.1.0\n- name: {c}\n  base: op.v1.0.0\n", c = c_image()),
            format!("render: cannot reuse the same substitution \"{}\" for different bases (\"op.v1.1.0\" and \"op.v1.0.0\")", c_image()),
        ),
    ];
    for (subs, want) in cases {
        let e = render(&subst_doc(U1, &["1.0.0", "1.1.0"], &subs), &subst_sources()).unwrap_err();
        assert_eq!(e.error.to_string(), want);
        assert!(e.location.unwrap().line > 20);
    }
}

#[test]
fn u4_substitute_must_be_newer() {
    let old = image("op.v0.5.0");
    let e = render(
        &subst_doc(
            U1,
            &["1.0.0", "1.1.0"],
            &format!("- name: {old}\n  base: op.v1.1.0\n"),
        ),
        &subst_sources(),
    )
    .unwrap_err();
    assert_eq!(
        e.error.to_string(),
        format!("render: error processing substitution \"op.v1.1.0\" -> \"{old}\": base bundle \"op.v1.1.0\" is not less than substitute bundle \"{old}\"")
    );
}

// ---------------------------------------------------------------- properties

/// Versions `X.Y.Z[-pre]`, distinct once build metadata is dropped.
fn versions() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::btree_set(
        (0u64..3, 0u64..4, 0u64..4, proptest::option::of(0u8..2)),
        1..12,
    )
    .prop_map(|s| {
        s.into_iter()
            .map(|(x, y, z, pre)| match pre {
                Some(p) => format!("{x}.{y}.{z}-rc.{p}"),
                None => format!("{x}.{y}.{z}"),
            })
            .collect()
    })
}

fn version_of(name: &str) -> semver::Version {
    semver::Version::parse(name.trim_start_matches("op.v")).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn semver_output_validates_and_keeps_order(
        all in versions(),
        picks in proptest::collection::vec(0u8..8, 12),
        flags in 1u8..4,
    ) {
        let (major, minor) = (flags & 1 != 0, flags & 2 != 0);
        let mut lists: [Vec<&str>; 3] = Default::default();
        for (i, v) in all.iter().enumerate() {
            let p = picks[i % picks.len()];
            for (a, list) in lists.iter_mut().enumerate() {
                if p & (1 << a) != 0 || (p == 0 && a == 2) {
                    list.push(v);
                }
            }
        }
        let head = format!("generateMajorChannels: {major}\ngenerateMinorChannels: {minor}\n");
        let arch = ["candidate", "fast", "stable"];
        let spec: Vec<(&str, &[&str])> = arch.iter().zip(&lists).map(|(a, l)| (*a, l.as_slice())).collect();
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let r = render(&semver_doc(&head, &spec), &op_sources(&refs)).unwrap();
        // Every version listed is in its archetype's channel(s).
        for (a, list) in arch.iter().zip(&lists) {
            for v in list {
                let want = format!("op.v{v}");
                let sv = version_of(&want);
                let mut chans = Vec::new();
                if major { chans.push(format!("{a}-v{}", sv.major)); }
                if minor { chans.push(format!("{a}-v{}.{}", sv.major, sv.minor)); }
                for c in chans {
                    let ch = r.config.channels.iter().find(|ch| ch.name == c);
                    prop_assert!(ch.is_some_and(|ch| ch.entries.iter().any(|e| e.name == want)), "{want} not in {c}");
                }
            }
        }
        // No edge goes from a higher to a lower version... i.e. every edge
        // points at a lower version.
        for ch in &r.config.channels {
            for e in &ch.entries {
                let from = version_of(&e.name);
                for to in e.replaces.iter().chain(&e.skips) {
                    prop_assert!(version_of(to).cmp_precedence(&from).is_lt(), "{} -> {to}", e.name);
                }
            }
        }
        let report = validate(r.config);
        prop_assert!(report.passed(), "{:?}", report.errors);
    }
}

// ---------------------------------------------------------------- real templates

fn corpus_templates() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/templates")
}

/// The channels of a catalog restricted to the bundles of `rendered`:
/// `(name, [(entry, replaces, skips, skipRange)])`, sorted by name.
type Shape = Vec<(
    String,
    Vec<(String, Option<String>, Vec<String>, Option<String>)>,
)>;

fn shape(cfg: &DeclarativeConfig, package: &str, only: Option<&[String]>) -> Shape {
    let mut out: Shape = cfg
        .channels
        .iter()
        .filter(|c| c.package == package)
        .map(|c| {
            (
                c.name.clone(),
                c.entries
                    .iter()
                    .filter(|e| only.is_none_or(|o| o.contains(&e.name)))
                    .map(|e| {
                        (
                            e.name.clone(),
                            e.replaces.clone(),
                            e.skips.clone(),
                            e.skip_range.clone(),
                        )
                    })
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, e)| !e.is_empty())
        .collect();
    out.sort();
    out
}

/// Render `template` against `catalog` and compare channels and default channel.
/// `behind`: the stored template lists fewer bundles than the catalog (compare
/// the catalog's entries for the template's bundles only).
fn reproduce(template: &Path, catalog: &Path, package: &str, migrate: bool, behind: bool) {
    reproduce_with(
        template,
        catalog,
        package,
        migrate,
        behind,
        Linking::EdgeScoped,
    );
}

fn reproduce_with(
    template: &Path,
    catalog: &Path,
    package: &str,
    migrate: bool,
    behind: bool,
    linking: Linking,
) {
    let mut sources = BundleSources::new();
    sources
        .open(catalog, None, &olmsat_catalog::load::ReadOptions::default())
        .unwrap();
    let text = std::fs::read_to_string(template).unwrap();
    let opts = Options {
        lookup: LookupOptions {
            csv_metadata: migrate,
        },
        linking,
    };
    let r = render_text(
        &template.display().to_string(),
        &text,
        None,
        &sources,
        &opts,
    )
    .unwrap_or_else(|e| panic!("{}: {e}", template.display()));
    let cat = load_path(catalog).unwrap().config;
    let rendered_names: Vec<String> = r.config.bundles.iter().map(|b| b.name.clone()).collect();
    let only = behind.then_some(rendered_names.as_slice());
    assert_eq!(
        shape(&r.config, package, None),
        shape(&cat, package, only),
        "{}",
        template.display()
    );
    let pkg = |c: &DeclarativeConfig| {
        c.packages
            .iter()
            .find(|p| p.name == package)
            .map(|p| p.default_channel.clone())
    };
    if !behind {
        assert_eq!(pkg(&r.config), pkg(&cat), "{}", template.display());
    }
    assert!(validate(r.config).passed(), "{}", template.display());
}

#[test]
fn real_basic_templates_reproduce_their_catalogs() {
    let t = corpus_templates();
    for (pkg, file) in [
        ("nfs-provisioner-operator", "basic-template.yaml"),
        ("libredb-studio-operator", "basic.yaml"),
    ] {
        reproduce(
            &t.join(pkg).join(file),
            &t.join(pkg).join("catalog"),
            pkg,
            true,
            false,
        );
    }
}

#[test]
fn real_semver_template_reproduces_its_catalog() {
    // kairos-operator's template and catalog at the same commit.
    let t = corpus_templates().join("kairos-operator");
    reproduce(
        &t.join("semver.yaml"),
        &t.join("catalog"),
        "kairos-operator",
        true,
        false,
    );
    let mut sources = BundleSources::new();
    sources
        .open(
            &t.join("catalog"),
            None,
            &olmsat_catalog::load::ReadOptions::default(),
        )
        .unwrap();
    let text = std::fs::read_to_string(t.join("semver.yaml")).unwrap();
    let opts = Options {
        lookup: LookupOptions { csv_metadata: true },
        ..Options::default()
    };
    let r = render_text("semver.yaml", &text, None, &sources, &opts).unwrap();
    assert_eq!(r.config.packages[0].default_channel, "candidate-v2");
    let e = &r.config.channels[0].entries[2];
    assert_eq!(e.replaces.as_deref(), Some("kairos-operator.v2.0.1"));
    assert_eq!(e.skips, ["kairos-operator.v2.1.0"]);
    let e = &r.config.channels[0].entries[3];
    assert_eq!(e.replaces.as_deref(), Some("kairos-operator.v2.1.1"));
    assert_eq!(
        e.skips,
        ["kairos-operator.v2.0.1", "kairos-operator.v2.1.0"]
    );
}

#[test]
fn legacy_linking_reproduces_a_catalog_rendered_before_opm_1_57() {
    let t = corpus_templates().join("clusterpulse");
    let mut sources = BundleSources::new();
    sources
        .open(
            &t.join("catalog"),
            None,
            &olmsat_catalog::load::ReadOptions::default(),
        )
        .unwrap();
    let text = std::fs::read_to_string(t.join("semver.yaml")).unwrap();
    let render = |linking| {
        let opts = Options {
            lookup: LookupOptions { csv_metadata: true },
            linking,
        };
        render_text("semver.yaml", &text, None, &sources, &opts).unwrap()
    };
    let cat = load_path(&t.join("catalog")).unwrap().config;
    let legacy = render(Linking::Legacy);
    assert_eq!(
        shape(&legacy.config, "clusterpulse", None),
        shape(&cat, "clusterpulse", None)
    );
    let fast_v0 = |r: &Rendered| entries(r, "fast-v0");
    // The replaced entry is also skipped, and skips stay inside the channel,
    // in ascending order.
    assert_eq!(
        fast_v0(&legacy),
        [
            "clusterpulse.v0.1.1",
            "clusterpulse.v0.2.0",
            "clusterpulse.v0.2.1",
            "clusterpulse.v0.2.2",
            "clusterpulse.v0.2.3(r=clusterpulse.v0.1.1, s=[clusterpulse.v0.1.1, clusterpulse.v0.2.0, clusterpulse.v0.2.1, clusterpulse.v0.2.2])",
            "clusterpulse.v0.3.0(r=clusterpulse.v0.2.3, s=[clusterpulse.v0.2.3])",
        ]
    );
    // Current opm links the same template differently.
    let edge = render(Linking::EdgeScoped);
    assert_ne!(fast_v0(&edge), fast_v0(&legacy));
    assert_eq!(
        edge.config.packages[0].default_channel,
        legacy.config.packages[0].default_channel
    );
}

/// Every community template its `ci.yaml` maps to v4.20, rendered against the
/// package's v4.20 catalog at the same commit (the full corpus).
#[test]
fn community_templates_reproduce_their_v4_20_catalogs() {
    let Some(full) = corpus::require_full("the community v4.20 template reproduction test") else {
        return;
    };
    let catalogs = full.join("fbc/community-operators-prod/catalogs/v4.20");
    let dir = corpus_templates().join("community-v4.20");
    let mut packages: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    packages.sort();
    assert_eq!(packages.len(), 37);
    let mut exact = 0;
    for pkg in &packages {
        let mut files: Vec<_> = std::fs::read_dir(dir.join(pkg)).unwrap().collect();
        assert_eq!(files.len(), 1, "{pkg}");
        let template = files.pop().unwrap().unwrap().path();
        let catalog = catalogs.join(pkg);
        match pkg.as_str() {
            // Ahead of the catalog at that commit: an image it does not have yet.
            "kubernaut-operator" => {
                let mut sources = BundleSources::new();
                sources
                    .open(
                        &catalog,
                        None,
                        &olmsat_catalog::load::ReadOptions::default(),
                    )
                    .unwrap();
                let text = std::fs::read_to_string(&template).unwrap();
                let opts = Options {
                    lookup: LookupOptions { csv_metadata: true },
                    ..Options::default()
                };
                let e = render_text("semver.yaml", &text, None, &sources, &opts).unwrap_err();
                assert!(e.error.to_string().starts_with(
                    "bundle image \"quay.io/community-operator-pipeline-prod/kubernaut-operator:1.5.1\" not available offline"
                ), "{}", e.error);
            }
            // Ahead of the catalog: channel entries whose bundles it does not
            // list, so the rendered catalog does not validate.
            "ecr-secret-operator" => {
                let mut sources = BundleSources::new();
                sources
                    .open(
                        &catalog,
                        None,
                        &olmsat_catalog::load::ReadOptions::default(),
                    )
                    .unwrap();
                let text = std::fs::read_to_string(&template).unwrap();
                let opts = Options {
                    lookup: LookupOptions { csv_metadata: true },
                    ..Options::default()
                };
                let r = render_text("basic.yaml", &text, None, &sources, &opts).unwrap();
                assert!(!validate(r.config).passed());
            }
            // Rendered by opm before v1.57.
            "clusterpulse" | "openshift-integration-operator" => {
                reproduce_with(&template, &catalog, pkg, true, false, Linking::Legacy);
                exact += 1;
            }
            _ => {
                reproduce(&template, &catalog, pkg, true, false);
                exact += 1;
            }
        }
    }
    assert_eq!(exact, 35);
}

#[test]
fn real_template_ahead_of_its_catalog_names_the_missing_image() {
    let t = corpus_templates().join("dotvirt-operator");
    let mut sources = BundleSources::new();
    sources
        .open(
            &t.join("catalog"),
            None,
            &olmsat_catalog::load::ReadOptions::default(),
        )
        .unwrap();
    let text = std::fs::read_to_string(t.join("semver.yaml")).unwrap();
    let opts = Options {
        lookup: LookupOptions { csv_metadata: true },
        ..Options::default()
    };
    let e = render_text("semver.yaml", &text, None, &sources, &opts).unwrap_err();
    assert!(e
        .error
        .to_string()
        .starts_with("bundle image \"quay.io/community-operator-pipeline-prod/dotvirt-operator:0.0.35\" not available offline"));
    assert_eq!(e.location.unwrap().line, 11);
}

#[test]
fn real_semver_template_against_the_bundle_object_catalog() {
    let Some(corpus) =
        corpus::require_full("the kairos-operator template against the v4.16 catalog")
    else {
        return;
    };
    let catalog =
        Path::new(&corpus).join("fbc/community-operators-prod/catalogs/v4.16/kairos-operator");
    let t = corpus_templates().join("kairos-operator/semver.yaml");
    // v4.16 catalogs keep olm.bundle.object: no migration, and the package
    // gets the CSV's description and icon as opm gives them.
    reproduce(&t, &catalog, "kairos-operator", false, true);
    let mut sources = BundleSources::new();
    sources
        .open(
            &catalog,
            None,
            &olmsat_catalog::load::ReadOptions::default(),
        )
        .unwrap();
    let r = render_text(
        "semver.yaml",
        &std::fs::read_to_string(&t).unwrap(),
        None,
        &sources,
        &Options::default(),
    )
    .unwrap();
    assert!(r.config.packages[0].icon.is_some());
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    for (pkg, file) in [
        ("nfs-provisioner-operator", "basic-template.yaml"),
        ("libredb-studio-operator", "basic.yaml"),
    ] {
        let catalog = Path::new(&corpus)
            .join("fbc/community-operators-prod/catalogs/v4.20")
            .join(pkg);
        reproduce(
            &corpus_templates().join(pkg).join(file),
            &catalog,
            pkg,
            true,
            false,
        );
    }
}
