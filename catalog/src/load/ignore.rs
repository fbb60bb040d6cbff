//! `.indexignore` files applied to a list of files held in memory (a Git tree,
//! the layers of an image), as the directory walk applies them on disk: each
//! ignore file's gitignore patterns apply to its own directory and below, the
//! nearest one decides, and the ignore files themselves are not catalog files.

use std::path::Path;
use std::sync::Arc;

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

use crate::load::IGNORE_FILE;
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// A file of an in-memory tree: its path relative to the catalog root
/// (`/`-separated, no leading `/`) and its bytes.
pub trait TreeFile {
    /// The path relative to the catalog root.
    fn rel(&self) -> &str;
    /// The file's bytes.
    fn data(&self) -> &[u8];
}

/// Drop the files that `.indexignore` files exclude, and the ignore files
/// themselves; unreadable patterns are reported at `name(rel)` of their file.
pub fn apply<F: TreeFile>(
    files: Vec<F>,
    diagnostics: &mut Vec<Diagnostic>,
    name: &dyn Fn(&str) -> String,
) -> Vec<F> {
    let mut matchers: Vec<(String, Gitignore)> = Vec::new();
    for f in files.iter().filter(|f| is_ignore_file(f.rel())) {
        let rel = f.rel();
        let dir = rel.rsplit_once('/').map_or("", |(d, _)| d).to_owned();
        let mut b = GitignoreBuilder::new(Path::new("/").join(&dir));
        for line in String::from_utf8_lossy(f.data()).lines() {
            if let Err(e) = b.add_line(None, line) {
                diagnostics.push(
                    Diagnostic::new(Rule::InvalidIgnoreFile, format!("bad ignore pattern: {e}"))
                        .at(&Location::new(Arc::from(name(rel)), 0)),
                );
            }
        }
        match b.build() {
            Ok(g) => matchers.push((dir, g)),
            Err(e) => diagnostics.push(
                Diagnostic::new(Rule::InvalidIgnoreFile, format!("bad ignore file: {e}"))
                    .at(&Location::new(Arc::from(name(rel)), 0)),
            ),
        }
    }
    // Deepest directories first: the nearest ignore file decides.
    matchers.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
    files
        .into_iter()
        .filter(|f| !is_ignore_file(f.rel()))
        .filter(|f| {
            let rel = f.rel();
            let full = Path::new("/").join(rel);
            for (dir, g) in &matchers {
                let inside = dir.is_empty() || rel.starts_with(&format!("{dir}/"));
                if !inside {
                    continue;
                }
                match g.matched_path_or_any_parents(&full, false) {
                    Match::Ignore(_) => return false,
                    Match::Whitelist(_) => return true,
                    Match::None => {}
                }
            }
            true
        })
        .collect()
}

fn is_ignore_file(rel: &str) -> bool {
    rel.rsplit('/').next() == Some(IGNORE_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct F(&'static str, &'static [u8]);
    impl TreeFile for F {
        fn rel(&self) -> &str {
            self.0
        }
        fn data(&self) -> &[u8] {
            self.1
        }
    }

    #[test]
    fn ignore_files_apply_to_their_directory() {
        let files = vec![
            F(".indexignore", b"*.md\n"),
            F("a/README.md", b""),
            F("a/catalog.json", b""),
            F("b/.indexignore", b"skip.json\n"),
            F("b/skip.json", b""),
            F("skip.json", b""),
        ];
        let mut d = Vec::new();
        let kept = apply(files, &mut d, &|r| r.to_owned());
        let names: Vec<&str> = kept.iter().map(|f| f.0).collect();
        assert_eq!(names, ["a/catalog.json", "skip.json"]);
        assert!(d.is_empty());
    }
}
