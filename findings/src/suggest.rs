//! "Did you mean" lists: names ordered by edit distance to what the user typed,
//! for error messages about unknown packages, channels and bundles.

/// The Levenshtein distance between `a` and `b`, counted in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = substitute.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// `names` ordered by edit distance to `target`, closest first; equal distances
/// are ordered by name. Duplicates are kept once.
pub fn closest<'a>(target: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut scored: Vec<(usize, &str)> = names
        .into_iter()
        .map(|n| (edit_distance(target, n), n))
        .collect();
    scored.sort_unstable();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().map(|(_, n)| n).collect()
}

/// How many names an error message lists before it summarises the rest.
pub const LISTED: usize = 10;

/// `names` (already ordered) joined with `, `; beyond [`LISTED`] names the rest
/// is summarised as `(and N more)`. An empty list reads `(none)`.
pub fn join_listed(names: &[String]) -> String {
    if names.is_empty() {
        return "(none)".to_owned();
    }
    let shown = names.len().min(LISTED);
    let mut out = names[..shown].join(", ");
    if names.len() > shown {
        out.push_str(&format!(" (and {} more)", names.len() - shown));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("stable", "stabel"), 2);
        assert_eq!(edit_distance("é", "e"), 1);
    }

    #[test]
    fn closest_first_then_by_name() {
        let names = ["stable-v1", "alpha", "stable-v1.1", "beta", "stable"];
        assert_eq!(
            closest("stable-v2", names),
            vec!["stable-v1", "stable", "stable-v1.1", "alpha", "beta"]
        );
    }

    #[test]
    fn long_lists_are_summarised() {
        let names: Vec<String> = (0..12).map(|i| format!("n{i:02}")).collect();
        let text = join_listed(&names);
        assert!(text.starts_with("n00, n01"));
        assert!(text.ends_with("n09 (and 2 more)"));
        assert_eq!(join_listed(&[]), "(none)");
    }
}
