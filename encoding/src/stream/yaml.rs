//! The general YAML parser (serde-saphyr) as every olmsat reader sets it up.

use crate::limits::MAX_DEPTH;

/// How a YAML mapping that repeats a key is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DuplicateKeys {
    /// A repeated key is an error ([`is_duplicate_key`] tells it apart).
    Refuse,
    /// The last value of a repeated key wins, as with opm (go-yaml v2 into
    /// a map).
    LastWins,
}

/// The YAML options every olmsat reader uses: the depth and document budget, no
/// snippets in errors, and the given handling of duplicate keys.
pub fn options(duplicates: DuplicateKeys) -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = MAX_DEPTH;
    budget.max_documents = 1;
    let mut opts = serde_saphyr::Options::default();
    opts.budget = Some(budget);
    opts.with_snippet = false;
    if duplicates == DuplicateKeys::LastWins {
        opts.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::LastWins;
    }
    opts
}

/// Whether a YAML error is a mapping that repeats a key (told by the error's
/// variant, looking through the wrappers that add a snippet or an alias's
/// location).
pub fn is_duplicate_key(e: &serde_saphyr::Error) -> bool {
    match e.without_snippet() {
        serde_saphyr::Error::DuplicateMappingKey { .. } => true,
        serde_saphyr::Error::AliasError { error, .. } => is_duplicate_key(error),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(
        text: &str,
        duplicates: DuplicateKeys,
    ) -> Result<serde_json::Value, serde_saphyr::Error> {
        serde_saphyr::from_str_with_options::<serde_json::Value>(text, options(duplicates))
    }

    #[test]
    fn a_repeated_key_is_told_apart_by_its_variant() {
        let e = parse("a: 1\nb: 2\na: 3\n", DuplicateKeys::Refuse).expect_err("refused");
        assert!(is_duplicate_key(&e), "{e}");
        let nested = parse("x:\n  k: 1\n  k: 2\n", DuplicateKeys::Refuse).expect_err("refused");
        assert!(is_duplicate_key(&nested), "{nested}");
    }

    #[test]
    fn other_errors_are_not_duplicate_keys_even_when_they_say_the_word() {
        for text in ["duplicate: [", "a: b: c", "duplicate:\n- x\n y: 1\n"] {
            if let Err(e) = parse(text, DuplicateKeys::Refuse) {
                assert!(!is_duplicate_key(&e), "{text:?}: {e}");
            }
        }
    }

    #[test]
    fn last_wins_reads_the_last_value() {
        let v = parse("a: 1\na: 3\n", DuplicateKeys::LastWins).expect("read");
        assert_eq!(v, serde_json::json!({"a": 3}));
    }

    #[test]
    fn depth_is_bounded() {
        let deep = format!(
            "{}1{}",
            "[".repeat(MAX_DEPTH + 5),
            "]".repeat(MAX_DEPTH + 5)
        );
        assert!(parse(&deep, DuplicateKeys::Refuse).is_err());
    }
}
