//! Replaying fuzz inputs in `cargo test`: every seed and crash reproducer of a
//! target goes through the target's check (shared by the graph and resolver test
//! files, which include this file).

use std::path::Path;

/// Every file under `fuzz/<kind>/<target>/` for both kinds, sorted.
pub(crate) fn inputs(target: &str) -> Vec<std::path::PathBuf> {
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

/// Run `check` over every input of `target`; a panic names the input.
pub(crate) fn replay(target: &str, check: fn(&[u8])) {
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
