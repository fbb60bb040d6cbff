//! Which findings a run reports and which fail it: `--strict`, `--allow RULE`
//! and `--deny RULE`, the same for every command that reports findings.

use std::collections::BTreeSet;

use crate::diagnostic::{Diagnostic, Severity};
use crate::report::rule::{Rule, UnknownRule};

/// A policy that cannot be followed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// A rule name that names no rule.
    #[error(transparent)]
    UnknownRule(#[from] UnknownRule),
    /// `--allow` of a rule whose findings are errors.
    #[error("rule \"{0}\" reports errors, which cannot be allowed (only warning rules can)")]
    AllowedError(Rule),
    /// One rule both allowed and denied.
    #[error("rule \"{0}\" is both allowed and denied")]
    AllowedAndDenied(Rule),
}

/// What to do with findings: drop the warnings of allowed rules, make the
/// findings of denied rules errors, and with `strict` make every warning an
/// error.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    strict: bool,
    allow: BTreeSet<Rule>,
    deny: BTreeSet<Rule>,
}

impl Policy {
    /// A policy; refuses to allow error rules, and a rule both allowed and denied.
    pub fn new(
        strict: bool,
        allow: impl IntoIterator<Item = Rule>,
        deny: impl IntoIterator<Item = Rule>,
    ) -> Result<Policy, PolicyError> {
        let allow: BTreeSet<Rule> = allow.into_iter().collect();
        let deny: BTreeSet<Rule> = deny.into_iter().collect();
        if let Some(r) = allow.iter().find(|r| deny.contains(r)) {
            return Err(PolicyError::AllowedAndDenied(*r));
        }
        if let Some(r) = allow
            .iter()
            .find(|r| r.default_severity() == Severity::Error)
        {
            return Err(PolicyError::AllowedError(*r));
        }
        Ok(Policy {
            strict,
            allow,
            deny,
        })
    }

    /// [`Policy::new`] with rules given by name.
    pub fn from_names<'a>(
        strict: bool,
        allow: impl IntoIterator<Item = &'a str>,
        deny: impl IntoIterator<Item = &'a str>,
    ) -> Result<Policy, PolicyError> {
        let parse = |names: Vec<&str>| -> Result<Vec<Rule>, PolicyError> {
            names
                .into_iter()
                .map(|n| n.parse::<Rule>().map_err(PolicyError::from))
                .collect()
        };
        let allow = parse(allow.into_iter().collect())?;
        let deny = parse(deny.into_iter().collect())?;
        Policy::new(strict, allow, deny)
    }

    /// Whether every warning fails the run.
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// The severity `d` has under this policy; `None` when it is dropped.
    pub fn severity(&self, d: &Diagnostic) -> Option<Severity> {
        if self.deny.contains(&d.rule) {
            return Some(Severity::Error);
        }
        match d.severity {
            Severity::Error => Some(Severity::Error),
            Severity::Warning if self.allow.contains(&d.rule) => None,
            Severity::Warning if self.strict => Some(Severity::Error),
            Severity::Warning => Some(Severity::Warning),
        }
    }

    /// The findings that remain, with their final severities, in the order given.
    pub fn apply(&self, diagnostics: impl IntoIterator<Item = Diagnostic>) -> Findings {
        let mut out = Findings::default();
        for mut d in diagnostics {
            match self.severity(&d) {
                Some(s) => {
                    d.severity = s;
                    out.diagnostics.push(d);
                }
                None => out.suppressed += 1,
            }
        }
        out
    }
}

/// Findings after a [`Policy`]: what to report, and whether the run passed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Findings {
    /// The findings reported, with their final severities.
    pub diagnostics: Vec<Diagnostic>,
    /// How many warnings allowed rules dropped.
    pub suppressed: usize,
}

impl Findings {
    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| !d.is_error())
    }

    /// Whether no error remains.
    pub fn passed(&self) -> bool {
        self.errors().next().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found() -> Vec<Diagnostic> {
        vec![
            Diagnostic::new(Rule::MultipleHeads, "heads"),
            Diagnostic::new(Rule::SkiprangeMatchesNothing, "range"),
            Diagnostic::new(Rule::UnknownField, "field"),
        ]
    }

    fn severities(f: &Findings) -> Vec<(Rule, Severity)> {
        f.diagnostics.iter().map(|d| (d.rule, d.severity)).collect()
    }

    #[test]
    fn the_default_keeps_every_finding_as_it_is() {
        let f = Policy::default().apply(found());
        assert_eq!(f.diagnostics, found());
        assert!(!f.passed());
        let warnings_only = Policy::default().apply(found().split_off(1));
        assert!(warnings_only.passed());
    }

    #[test]
    fn strict_makes_warnings_errors_and_allow_drops_them() {
        let p = Policy::new(true, [Rule::UnknownField], []).unwrap();
        let f = p.apply(found().split_off(1));
        assert_eq!(
            severities(&f),
            [(Rule::SkiprangeMatchesNothing, Severity::Error)]
        );
        assert_eq!(f.suppressed, 1);
        assert!(!f.passed());
    }

    #[test]
    fn deny_makes_one_rule_an_error() {
        let p = Policy::from_names(false, [], ["unknown-field"]).unwrap();
        let f = p.apply(found().split_off(1));
        assert_eq!(
            severities(&f),
            [
                (Rule::SkiprangeMatchesNothing, Severity::Warning),
                (Rule::UnknownField, Severity::Error)
            ]
        );
        assert!(!f.passed());
    }

    #[test]
    fn impossible_policies_are_refused() {
        assert_eq!(
            Policy::from_names(false, ["multiple-heads"], []).unwrap_err().to_string(),
            "rule \"multiple-heads\" reports errors, which cannot be allowed (only warning rules can)"
        );
        assert_eq!(
            Policy::from_names(false, ["unknown-field"], ["unknown-field"])
                .unwrap_err()
                .to_string(),
            "rule \"unknown-field\" is both allowed and denied"
        );
        assert!(matches!(
            Policy::from_names(false, [], ["unknown-feild"]),
            Err(PolicyError::UnknownRule(UnknownRule {
                suggestion: Some(Rule::UnknownField),
                ..
            }))
        ));
    }
}
