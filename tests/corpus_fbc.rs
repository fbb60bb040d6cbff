//! Validation and rendering over every catalog of the corpus of real
//! file-based catalogs (the repository's `corpus/real`, and the full corpus when
//! `OLMSAT_CORPUS` names it), with the outcomes checked by hand.

mod common;

use std::collections::BTreeMap;

use olmsat_catalog::load::{load_bytes, load_path};
use olmsat_catalog::validate::validate;
use olmsat_catalog::write::{write, Format};

fn render(path: &std::path::Path, format: Format) -> Vec<u8> {
    let loaded = load_path(path).expect("load");
    assert!(
        !loaded.has_errors(),
        "{}: {:?}",
        path.display(),
        loaded.diagnostics
    );
    let mut out = Vec::new();
    write(&loaded.config, format, &mut out).expect("write");
    out
}

/// Every real catalog is valid; of the fixtures, only the prometheus test config
/// is invalid (its default channel names a channel that does not exist, and its
/// bundle is in no channel), as opm also says.
#[test]
fn validate_every_corpus_catalog() {
    let mut outcomes = BTreeMap::new();
    for cat in common::corpus_catalogs("validate_every_corpus_catalog") {
        let loaded = load_path(&cat).expect("load");
        let (model, report) = validate(loaded);
        assert!(!model.packages().is_empty(), "{}", cat.display());
        let errors: Vec<String> = report.errors.iter().map(|d| d.message.clone()).collect();
        outcomes.insert(cat.display().to_string(), errors);
    }
    for (cat, errors) in &outcomes {
        if cat.ends_with("test/e2e/testdata/test-configs") {
            assert_eq!(
                errors,
                &vec![
                    "channel must contain at least one bundle (the package's defaultChannel names a channel that has no olm.channel blob)".to_owned(),
                    "package \"prometheus\", bundle \"prometheusoperator.0.14.0\" not found in any channel entries".to_owned(),
                ],
                "{cat}"
            );
        } else {
            assert!(errors.is_empty(), "{cat}: {errors:#?}");
        }
    }
}

/// Counts checked by hand against the corpus statistics.
#[test]
fn corpus_sizes() {
    let Some(corpus) = common::support::require_full("corpus_sizes") else {
        return;
    };
    let base = corpus.join("fbc");
    for (dir, packages, bundles) in [
        ("community-operators-prod/catalogs/v4.20", 37, 803),
        ("certified-operators/catalogs/v4.20", 59, 676),
        ("community-operators-prod/catalogs/v4.16", 14, 149),
    ] {
        let (model, report) = validate(load_path(&base.join(dir)).expect("load"));
        assert!(report.passed(), "{dir}");
        assert_eq!(model.packages().len(), packages, "{dir}");
        assert_eq!(model.bundle_count(), bundles, "{dir}");
    }
}

/// The YAML catalogs that opm rendered are reproduced byte for byte.
#[test]
fn yaml_render_matches_opm_byte_for_byte() {
    let Some(corpus) = common::support::require_full("yaml_render_matches_opm_byte_for_byte")
    else {
        return;
    };
    let base = corpus.join("fbc");
    let mut checked = 0;
    for dir in [
        "community-operators-prod/catalogs/v4.20",
        "community-operators-prod/catalogs/v4.16",
        "certified-operators/catalogs/v4.20",
    ] {
        let mut files: Vec<_> = std::fs::read_dir(base.join(dir))
            .expect("read dir")
            .map(|e| e.expect("entry").path().join("catalog.yaml"))
            .collect();
        files.sort();
        for f in files {
            // linstor-operator's file was not written by opm (field order differs).
            if f.to_string_lossy().contains("/linstor-operator/") {
                continue;
            }
            let original = std::fs::read(&f).expect("read");
            let rendered = render(&f, Format::Yaml);
            if original != rendered {
                let o = String::from_utf8_lossy(&original);
                let r = String::from_utf8_lossy(&rendered);
                let line = o
                    .lines()
                    .zip(r.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                panic!(
                    "{}: first difference at line {}:\n opm:    {:?}\n olmsat: {:?}",
                    f.display(),
                    line + 1,
                    o.lines().nth(line),
                    r.lines().nth(line)
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 37 + 14 + 58);
}

/// render(load(x)) is a fixed point, in both formats, and converting between JSON
/// and YAML loses nothing.
#[test]
fn render_round_trips() {
    for cat in common::corpus_catalogs("render_round_trips") {
        let loaded = load_path(&cat).expect("load");
        if loaded.has_errors() {
            continue;
        }
        let blobs = loaded.config.len();
        for format in [Format::Json, Format::Yaml] {
            let once = render(&cat, format);
            let reloaded = load_bytes("rendered", &once);
            assert!(
                !reloaded.has_errors(),
                "{}: {:?}",
                cat.display(),
                reloaded.diagnostics
            );
            assert_eq!(reloaded.config.len(), blobs, "{}", cat.display());
            let mut twice = Vec::new();
            write(&reloaded.config, format, &mut twice).expect("write");
            assert!(
                once == twice,
                "{} ({format:?}) is not a fixed point",
                cat.display()
            );
        }
        // JSON -> YAML -> JSON gives the same JSON.
        let json = render(&cat, Format::Json);
        let mut yaml = Vec::new();
        write(&load_bytes("j", &json).config, Format::Yaml, &mut yaml).expect("write");
        let mut json2 = Vec::new();
        write(&load_bytes("y", &yaml).config, Format::Json, &mut json2).expect("write");
        assert!(
            json == json2,
            "{}: JSON/YAML conversion changed the catalog",
            cat.display()
        );
    }
}

/// The verdict and messages do not depend on the input format.
#[test]
fn verdict_is_stable_under_format_conversion() {
    for cat in common::corpus_catalogs("verdict_is_stable_under_format_conversion")
        .into_iter()
        .take(12)
    {
        let original = validate(load_path(&cat).expect("load")).1;
        for format in [Format::Json, Format::Yaml] {
            let text = render(&cat, format);
            let converted = validate(load_bytes("converted", &text)).1;
            let msgs = |r: &olmsat_catalog::validate::Report| {
                let mut m: Vec<String> = r.errors.iter().map(|d| d.message.clone()).collect();
                m.sort();
                m
            };
            assert_eq!(
                msgs(&original),
                msgs(&converted),
                "{} {format:?}",
                cat.display()
            );
        }
    }
}

/// At the head of community v4.20 OLM v0 leaves users behind in two channels
/// (a new version that both replaces and skips its predecessor): `validate`
/// warns at each entry left behind, in `path`'s words, and `path` agrees.
#[test]
fn never_reaches_head_on_community_v4_20() {
    let Some(full) = common::support::require_full("never_reaches_head_on_community_v4_20") else {
        return;
    };
    let v420 = full.join("fbc/community-operators-prod/catalogs/v4.20");
    for (package, channel, left) in [
        (
            "clusterpulse",
            "fast-v0",
            vec![
                "clusterpulse.v0.1.1",
                "clusterpulse.v0.2.0",
                "clusterpulse.v0.2.1",
                "clusterpulse.v0.2.2",
            ],
        ),
        // 1.5.0 replaces and skips 1.4.1, which skips 1.3.4, which skips
        // 1.3.2 and 1.3.3: none of the three is ever offered an upgrade.
        (
            "kubernaut-operator",
            "candidate-v1",
            vec![
                "kubernaut-operator.v1.3.2",
                "kubernaut-operator.v1.3.3",
                "kubernaut-operator.v1.3.4",
            ],
        ),
    ] {
        let o = common::olmsat(&["validate", &v420.join(package).display().to_string()]);
        let out = common::stdout(&o);
        let found: Vec<&str> = out
            .lines()
            .filter(|l| {
                l.contains("warning[never-reaches-head]")
                    && l.contains(&format!("channel \"{channel}\""))
            })
            .collect();
        for bundle in &left {
            assert!(
                found
                    .iter()
                    .any(|l| l.contains(&format!("users of {bundle} to the head"))),
                "{package}/{channel}: {bundle} not warned about:\n{out}"
            );
            // `path` says the same: OLM v0 does not reach the head.
            let p = common::olmsat(&[
                "path",
                &v420.display().to_string(),
                "--package",
                package,
                "--channel",
                channel,
                "--from",
                bundle,
            ]);
            assert_eq!(p.status.code(), Some(1), "{}", common::stdout(&p));
        }
        assert_eq!(found.len(), left.len(), "{out}");
        assert_eq!(o.status.code(), Some(0), "warnings do not fail: {out}");
    }
}
