//! Kubernetes label selectors over ClusterCatalog labels, validated as
//! `metav1.LabelSelectorAsSelector` validates them.

use std::collections::BTreeMap;
use std::fmt;

/// A `metav1.LabelSelector` as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LabelSelector {
    /// matchLabels
    pub match_labels: BTreeMap<String, String>,
    /// matchExpressions
    pub match_expressions: Vec<Requirement>,
}

/// One `matchExpressions` item as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    /// key
    pub key: String,
    /// operator (`In`, `NotIn`, `Exists`, `DoesNotExist`)
    pub operator: String,
    /// values
    pub values: Vec<String>,
}

/// Why a selector is invalid; `Display` is Kubernetes' text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectorError {
    /// An operator that is not one of the four.
    #[error("{} is not a valid label selector operator", olmsat_versions::version::go_quote(.0))]
    Operator(String),
    /// A key that is not a qualified name.
    #[error("key: Invalid value: {}: {}", olmsat_versions::version::go_quote(.key), .reason)]
    Key {
        /// The key.
        key: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A value that is not a label value.
    #[error("values[{index}][{key}]: Invalid value: {}: {}", olmsat_versions::version::go_quote(.value), VALUE_REASON)]
    Value {
        /// Position among the values.
        index: usize,
        /// The key.
        key: String,
        /// The value.
        value: String,
    },
    /// `In`/`NotIn` without values.
    #[error("values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty")]
    NoValues,
    /// `Exists`/`DoesNotExist` with values.
    #[error("values: Invalid value: {0}: values set must be empty for exists and does not exist")]
    ValuesGiven(GoStrings),
}

/// A string list printed as Go's `%#v` of a `[]string`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoStrings(pub Vec<String>);

impl fmt::Display for GoStrings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = self
            .0
            .iter()
            .map(|s| olmsat_versions::version::go_quote(s))
            .collect();
        write!(f, "[]string{{{}}}", items.join(", "))
    }
}

const NAME_REASON: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_REASON: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`
fn is_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// A DNS-1123 subdomain (the optional key prefix).
fn is_subdomain(s: &str) -> bool {
    s.len() <= 253
        && s.split('.').all(|l| {
            let b = l.as_bytes();
            !b.is_empty()
                && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
                && (b[b.len() - 1].is_ascii_lowercase() || b[b.len() - 1].is_ascii_digit())
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        })
}

fn check_key(key: &str) -> Result<(), SelectorError> {
    let bad = |reason: String| SelectorError::Key {
        key: key.to_owned(),
        reason,
    };
    let (prefix, name) = match key.split_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    if let Some(p) = prefix {
        if p.is_empty() {
            return Err(bad("prefix part must be non-empty".into()));
        }
        if !is_subdomain(p) {
            return Err(bad("prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".into()));
        }
    }
    if name.is_empty() {
        return Err(bad(format!("name part must be non-empty; {NAME_REASON}")));
    }
    if name.len() > 63 {
        return Err(bad(
            "name part must be no more than 63 characters".to_owned()
        ));
    }
    if !is_name(name) {
        return Err(bad(NAME_REASON.to_owned()));
    }
    Ok(())
}

fn check_value(index: usize, key: &str, value: &str) -> Result<(), SelectorError> {
    if value.is_empty() || (value.len() <= 63 && is_name(value)) {
        Ok(())
    } else {
        Err(SelectorError::Value {
            index,
            key: key.to_owned(),
            value: value.to_owned(),
        })
    }
}

/// A validated requirement.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Test {
    In(Vec<String>),
    NotIn(Vec<String>),
    Exists,
    DoesNotExist,
}

/// A validated selector, ready to match label sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    tests: Vec<(String, Test)>,
}

impl LabelSelector {
    /// Validate, as `LabelSelectorAsSelector` does (matchLabels first, then
    /// matchExpressions, each in order).
    ///
    /// # Errors
    ///
    /// The first problem found, with Kubernetes' text.
    pub fn compile(&self) -> Result<Selector, SelectorError> {
        let mut tests = Vec::new();
        for (k, v) in &self.match_labels {
            check_key(k)?;
            check_value(0, k, v)?;
            tests.push((k.clone(), Test::In(vec![v.clone()])));
        }
        for r in &self.match_expressions {
            let test = match r.operator.as_str() {
                "In" | "NotIn" => {
                    if r.values.is_empty() {
                        return Err(SelectorError::NoValues);
                    }
                    if r.operator == "In" {
                        Test::In(r.values.clone())
                    } else {
                        Test::NotIn(r.values.clone())
                    }
                }
                "Exists" | "DoesNotExist" => {
                    if !r.values.is_empty() {
                        return Err(SelectorError::ValuesGiven(GoStrings(r.values.clone())));
                    }
                    if r.operator == "Exists" {
                        Test::Exists
                    } else {
                        Test::DoesNotExist
                    }
                }
                other => return Err(SelectorError::Operator(other.to_owned())),
            };
            check_key(&r.key)?;
            for (i, v) in r.values.iter().enumerate() {
                check_value(i, &r.key, v)?;
            }
            tests.push((r.key.clone(), test));
        }
        Ok(Selector { tests })
    }
}

impl Selector {
    /// A selector that matches everything.
    pub fn everything() -> Selector {
        Selector { tests: Vec::new() }
    }

    /// Whether `labels` satisfy every requirement.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.tests.iter().all(|(k, t)| match t {
            Test::In(vs) => labels.get(k).is_some_and(|v| vs.contains(v)),
            Test::NotIn(vs) => labels.get(k).is_none_or(|v| !vs.contains(v)),
            Test::Exists => labels.contains_key(k),
            Test::DoesNotExist => !labels.contains_key(k),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn matches_labels_and_expressions() {
        let sel = LabelSelector {
            match_labels: labels(&[("olm.operatorframework.io/metadata.name", "b")]),
            match_expressions: vec![Requirement {
                key: "tier".into(),
                operator: "NotIn".into(),
                values: vec!["test".into()],
            }],
        }
        .compile()
        .unwrap();
        assert!(sel.matches(&labels(&[("olm.operatorframework.io/metadata.name", "b")])));
        assert!(!sel.matches(&labels(&[
            ("olm.operatorframework.io/metadata.name", "b"),
            ("tier", "test")
        ])));
        assert!(!sel.matches(&labels(&[("olm.operatorframework.io/metadata.name", "a")])));
    }

    #[test]
    fn errors_have_kubernetes_texts() {
        let bad_op = LabelSelector {
            match_labels: BTreeMap::new(),
            match_expressions: vec![Requirement {
                key: "name".into(),
                operator: "bad".into(),
                values: vec!["x".into()],
            }],
        };
        assert_eq!(
            bad_op.compile().unwrap_err().to_string(),
            r#""bad" is not a valid label selector operator"#
        );
        let empty_key = LabelSelector {
            match_labels: labels(&[("", "value")]),
            match_expressions: Vec::new(),
        };
        assert!(empty_key
            .compile()
            .unwrap_err()
            .to_string()
            .starts_with("key: Invalid value:"));
        let bad_value = LabelSelector {
            match_labels: labels(&[("name", "&value")]),
            match_expressions: Vec::new(),
        };
        assert!(bad_value
            .compile()
            .unwrap_err()
            .to_string()
            .starts_with("values[0][name]: Invalid value:"));
    }
}
