//! Replays the fuzz targets' seed inputs and crash reproducers (`fuzz/seeds/` and
//! `fuzz/regressions/`) through the same checks the `constraint` and `cluster` fuzz
//! targets run, so `cargo test` guards every fixed finding without libFuzzer.

use std::path::Path;

#[path = "../../fuzz/checks/cluster.rs"]
mod cluster;
#[path = "../../fuzz/checks/constraint.rs"]
mod constraint;

/// Every file under `fuzz/<kind>/<target>/` for both kinds, sorted.
fn inputs(target: &str) -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut out = Vec::new();
    for kind in ["seeds", "regressions"] {
        let Ok(dir) = std::fs::read_dir(root.join(kind).join(target)) else {
            continue;
        };
        out.extend(dir.map(|e| e.expect("directory entry").path()));
    }
    out.sort();
    out
}

fn replay(target: &str, check: fn(&[u8])) {
    let files = inputs(target);
    assert!(!files.is_empty(), "no seeds for fuzz target {target}");
    for f in files {
        let data = std::fs::read(&f).expect("read fuzz input");
        let name = f.display().to_string();
        if std::panic::catch_unwind(|| check(&data)).is_err() {
            panic!("fuzz input {name} fails the {target} check");
        }
    }
}

#[test]
fn constraint_seeds_and_regressions() {
    replay("constraint", constraint::check);
}

#[test]
fn cluster_seeds_and_regressions() {
    replay("cluster", cluster::check);
}
