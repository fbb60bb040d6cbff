//! docs/design.md describes the code as it is: every file or folder it names
//! (a backticked path with a `/`) exists in the repository.

use std::path::Path;

/// Backticked words of `text` that name a repository path: a word with a `/`
/// and no spaces, cut at `::` (an item in the file), not a URL or a flag value.
fn named_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 || part.contains(' ') || !part.contains('/') {
            continue;
        }
        let path = part.split("::").next().unwrap_or(part);
        let looks_like_file = [".rs", ".md", ".toml", ".yaml", ".json", "/"]
            .iter()
            .any(|end| path.ends_with(end));
        if path.contains("://") || path.starts_with('-') || !looks_like_file {
            continue;
        }
        out.push(path.to_owned());
    }
    out
}

#[test]
fn every_path_design_md_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("docs/design.md")).expect("design.md");
    let paths = named_paths(&text);
    assert!(paths.len() > 40, "only {} paths found", paths.len());
    let missing: Vec<&String> = paths.iter().filter(|p| !root.join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "docs/design.md names paths that do not exist: {missing:?}"
    );
}

#[test]
fn the_path_finder_finds_paths_and_only_paths() {
    let text = "`a/b.rs::f` and `x/` but not `a b/c.rs`, `https://x/y.md`, `OS/ARCH`";
    assert_eq!(named_paths(text), ["a/b.rs", "x/"]);
}

#[test]
fn the_examples_are_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for example in [
        "graph/examples/upgrade_path.rs",
        "resolver/examples/resolve_cluster.rs",
        "diff/examples/diff_catalogs.rs",
    ] {
        let text = std::fs::read_to_string(root.join(example)).expect("example");
        assert!(text.lines().count() <= 40, "{example} is over 40 lines");
    }
}
