//! Properties of the diff: a catalog compared with itself gives nothing, and a
//! new head that replaces the old one gives exactly "head changed", "entry
//! added" and "bundle added" with no findings — on generated channels (proptest)
//! and on every package of the real corpus (when `OLMSAT_CORPUS` is set).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use olmsat_catalog::load::{load_bytes, load_path, Loaded};
use olmsat_catalog::model::Model;
use olmsat_diff::{diff, ChangeKind, Diff, Options};
use proptest::prelude::*;

/// A generated channel: per entry, the earlier entries it skips; and whether
/// the head has a skipRange over every earlier version.
#[derive(Debug, Clone)]
struct Spec {
    skips: Vec<Vec<usize>>,
    head_range: bool,
}

fn spec() -> impl Strategy<Value = Spec> {
    (1usize..9)
        .prop_flat_map(|n| {
            let skips = (0..n)
                .map(|i| {
                    proptest::sample::subsequence(
                        (0..i.saturating_sub(1)).collect::<Vec<_>>(),
                        0..=i.saturating_sub(1),
                    )
                })
                .collect::<Vec<_>>();
            (skips, any::<bool>())
        })
        .prop_map(|(skips, head_range)| Spec { skips, head_range })
}

fn name(i: usize) -> String {
    format!("op.v1.{i}.0")
}

fn bundle(name: &str, version: &str) -> String {
    format!(
        "{{\"schema\":\"olm.bundle\",\"package\":\"op\",\"name\":\"{name}\",\"image\":\"quay.io/op/b:{version}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"op\",\"version\":\"{version}\"}}}}]}}\n"
    )
}

/// The catalog of `spec`, made valid: every entry replaces the one before;
/// entries left off the replaces chain by a skip are skipped by the head.
/// With `new_head`, an entry `op.v2.0.0` replacing the head is added.
fn catalog(spec: &Spec, new_head: bool) -> String {
    let n = spec.skips.len();
    let mut skips: Vec<BTreeSet<usize>> = spec
        .skips
        .iter()
        .map(|s| s.iter().copied().collect())
        .collect();
    let skipped: BTreeSet<usize> = skips.iter().flatten().copied().collect();
    // The chain from the head stops above the first skipped entry.
    let mut stop = 0;
    for i in (0..n).rev() {
        if i + 1 < n && skipped.contains(&i) {
            stop = i + 1;
            break;
        }
    }
    let skipped_now: BTreeSet<usize> = skips.iter().flatten().copied().collect();
    for j in 0..stop {
        if !skipped_now.contains(&j) {
            skips[n - 1].insert(j);
        }
    }
    let mut entries = Vec::new();
    for (i, skip) in skips.iter().enumerate() {
        let mut e = format!("{{\"name\":\"{}\"", name(i));
        if i > 0 {
            e.push_str(&format!(",\"replaces\":\"{}\"", name(i - 1)));
        }
        if !skip.is_empty() {
            let list: Vec<String> = skip.iter().map(|&j| format!("\"{}\"", name(j))).collect();
            e.push_str(&format!(",\"skips\":[{}]", list.join(",")));
        }
        if i == n - 1 && spec.head_range {
            e.push_str(&format!(",\"skipRange\":\">=1.0.0 <1.{i}.0\""));
        }
        e.push('}');
        entries.push(e);
    }
    if new_head {
        entries.push(format!(
            "{{\"name\":\"op.v2.0.0\",\"replaces\":\"{}\"}}",
            name(n - 1)
        ));
    }
    let mut out = String::from(
        "{\"schema\":\"olm.package\",\"name\":\"op\",\"defaultChannel\":\"stable\"}\n",
    );
    out.push_str(&format!(
        "{{\"schema\":\"olm.channel\",\"package\":\"op\",\"name\":\"stable\",\"entries\":[{}]}}\n",
        entries.join(",")
    ));
    for i in 0..n {
        out.push_str(&bundle(&name(i), &format!("1.{i}.0")));
    }
    if new_head {
        out.push_str(&bundle("op.v2.0.0", "2.0.0"));
    }
    out
}

fn kinds(d: &Diff) -> Vec<ChangeKind> {
    let mut k: Vec<ChangeKind> = d
        .packages
        .iter()
        .flat_map(|p| &p.changes)
        .map(|c| c.kind)
        .collect();
    k.sort();
    k
}

const NEW_HEAD: [ChangeKind; 3] = [
    ChangeKind::HeadChanged,
    ChangeKind::EntryAdded,
    ChangeKind::BundleAdded,
];

fn sorted(mut k: Vec<ChangeKind>) -> Vec<ChangeKind> {
    k.sort();
    k
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn itself_is_empty(s in spec()) {
        let c = catalog(&s, false);
        let d = diff(load_bytes("a.json", c.as_bytes()), load_bytes("b.json", c.as_bytes()), &Options::default())
            .expect("generated catalogs are valid");
        prop_assert!(d.is_empty(), "{:?}", d);
    }

    #[test]
    fn a_new_head_is_three_changes(s in spec()) {
        let (old, new) = (catalog(&s, false), catalog(&s, true));
        let d = diff(load_bytes("a.json", old.as_bytes()), load_bytes("b.json", new.as_bytes()), &Options::default())
            .expect("generated catalogs are valid");
        prop_assert_eq!(kinds(&d), sorted(NEW_HEAD.to_vec()));
        prop_assert_eq!(d.all_findings().count(), 0, "{:?}", d);
    }
}

/// The corpus, when `OLMSAT_CORPUS` names it.
fn corpus() -> Option<PathBuf> {
    support::require_full("the real-catalog diff tests")
}

/// Every package directory of the community catalogs (one catalog each).
fn package_dirs(corpus: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for v in ["v4.16", "v4.20"] {
        let base = corpus.join("fbc/community-operators-prod/catalogs").join(v);
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(&base)
            .expect("corpus catalog directory")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        out.extend(dirs);
    }
    out
}

fn loaded(p: &Path) -> Loaded {
    load_path(p).expect("corpus path loads")
}

#[test]
fn corpus_catalogs_compared_with_themselves_are_empty() {
    let Some(corpus) = corpus() else { return };
    let dirs = package_dirs(&corpus);
    assert!(dirs.len() >= 40, "{} package directories", dirs.len());
    for dir in dirs {
        let (_, report) = olmsat_catalog::validate::validate(loaded(&dir));
        match diff(loaded(&dir), loaded(&dir), &Options::default()) {
            Ok(d) => {
                // NEW's own validation errors are the only findings there can be.
                assert!(
                    d.packages.iter().all(|p| p.changes.is_empty()),
                    "{}: {:?}",
                    dir.display(),
                    d
                );
                assert!(
                    d.all_findings().all(|f| f.rule.id() == "new-invalid"),
                    "{}",
                    dir.display()
                );
            }
            Err(_) => assert!(!report.passed(), "{}", dir.display()),
        }
    }
}

/// For every package and channel with one head in the corpus: a new bundle
/// replacing the head gives exactly the three changes, and no findings.
#[test]
fn corpus_new_head_is_three_changes() {
    let Some(corpus) = corpus() else { return };
    let mut checked = 0;
    for dir in package_dirs(&corpus) {
        let (model, report) = olmsat_catalog::validate::validate(loaded(&dir));
        if !report.passed() {
            continue;
        }
        let model: Model = model;
        for p in model.packages() {
            let top = p
                .bundles()
                .iter()
                .filter_map(|b| b.version.as_ref())
                .max()
                .cloned();
            let Some(mut v) = top else { continue };
            v = semver::Version::new(v.major + 1000, 0, 0);
            for ch in p.channels() {
                let Some(head) = ch.head() else { continue };
                let mut channel: serde_json::Value = serde_json::json!({
                    "schema": "olm.channel", "package": p.name, "name": ch.name,
                    "entries": [{"name": "diffprop.new", "replaces": head.name}]
                });
                // The new entry joins the existing channel blob: a second blob
                // of the same channel would be a duplicate, so the whole channel
                // is restated with the new entry appended.
                let entries = channel["entries"].as_array_mut().expect("array");
                for e in ch.entries() {
                    let mut o = serde_json::json!({"name": e.name});
                    if let Some(r) = &e.replaces {
                        o["replaces"] = r.clone().into();
                    }
                    if !e.skips.is_empty() {
                        o["skips"] = e.skips.clone().into();
                    }
                    if let Some(r) = &e.skip_range {
                        o["skipRange"] = r.clone().into();
                    }
                    entries.push(o);
                }
                let extra = format!(
                    "{channel}\n{{\"schema\":\"olm.bundle\",\"package\":\"{}\",\"name\":\"diffprop.new\",\"image\":\"example.com/diffprop:new\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"{}\",\"version\":\"{v}\"}}}}]}}\n",
                    p.name, p.name
                );
                let mut new = without_channel(loaded(&dir), &p.name, &ch.name);
                let more = load_bytes("extra.json", extra.as_bytes());
                new.config.merge(more.config);
                let d = diff(loaded(&dir), new, &Options::default()).expect("valid OLD");
                assert_eq!(
                    kinds(&d),
                    sorted(NEW_HEAD.to_vec()),
                    "{} {} {}: {:?}",
                    dir.display(),
                    p.name,
                    ch.name,
                    d
                );
                assert_eq!(
                    d.all_findings().count(),
                    0,
                    "{} {} {}: {:?}",
                    dir.display(),
                    p.name,
                    ch.name,
                    d
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} channels checked");
}

/// `loaded` without the channel blob `channel` of `package`.
fn without_channel(mut l: Loaded, package: &str, channel: &str) -> Loaded {
    l.config
        .channels
        .retain(|c| !(c.package == package && c.name == channel));
    l
}

#[path = "../../tests/support/corpus.rs"]
mod support;
