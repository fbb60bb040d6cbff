//! Real data: every package of community-operators-prod in both the v4.16 and
//! the v4.20 catalog of the corpus, diffed v4.16 → v4.20, kept as snapshots
//! (the findings were checked by hand; see docs/diff.md). Needs
//! `OLMSAT_CORPUS`; skipped with a note without it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use olmsat_catalog::load::load_path;
use olmsat_diff::{diff, report, Options};

fn corpus() -> Option<PathBuf> {
    support::require_full("the real-catalog diff tests")
}

/// The packages in both catalogs, sorted.
fn common(base: &std::path::Path) -> Vec<String> {
    let names = |v: &str| -> std::collections::BTreeSet<String> {
        std::fs::read_dir(base.join(v))
            .expect("catalog directory")
            .filter_map(Result::ok)
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    };
    names("v4.16")
        .intersection(&names("v4.20"))
        .cloned()
        .collect()
}

/// One package's diff as a snapshot: change counts by kind, then the
/// findings one per line, with corpus-relative file names.
fn summary(base: &std::path::Path, package: &str) -> String {
    let old = load_path(&base.join("v4.16").join(package)).expect("v4.16 loads");
    let new = load_path(&base.join("v4.20").join(package)).expect("v4.20 loads");
    let d = diff(old, new, &Options::default()).expect("v4.16 is valid");
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for c in d.packages.iter().flat_map(|p| &p.changes) {
        *kinds.entry(c.kind.name()).or_default() += 1;
    }
    let mut out = String::new();
    for (k, n) in kinds {
        let _ = writeln!(out, "{k}: {n}");
    }
    let prefix = format!("{}/", base.display());
    out.push_str(&report::short(&d, false).replace(&prefix, ""));
    out
}

#[test]
fn community_v4_16_to_v4_20() {
    let Some(corpus) = corpus() else { return };
    let base = corpus.join("fbc/community-operators-prod/catalogs");
    let packages = common(&base);
    assert!(packages.len() >= 5, "{packages:?}");
    for p in packages {
        insta::assert_snapshot!(format!("community_{p}"), summary(&base, &p));
    }
}

#[path = "../../tests/support/corpus.rs"]
mod support;
