//! Which findings a run reports and which fail it: `--strict`, `--allow RULE`
//! (or `RULE@PACKAGE`, `RULE@PACKAGE/CHANNEL`) and `--deny RULE`, the same
//! for every command that reports findings.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

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
    /// `RULE@` without a package.
    #[error("{0:?}: an allow for one package is written RULE@PACKAGE or RULE@PACKAGE/CHANNEL")]
    MalformedScope(String),
}

/// An allowed rule: everywhere, or for one package (and optionally one of
/// its channels) only — `channel-removed@clusterpulse/alpha` allows the
/// removal of that one channel and no other.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Allow {
    /// The rule.
    pub rule: Rule,
    /// The package it is allowed for (every package when `None`).
    pub package: Option<String>,
    /// The channel of the package it is allowed for (every channel when `None`).
    pub channel: Option<String>,
}

impl Allow {
    /// The rule, everywhere.
    pub fn rule(rule: Rule) -> Allow {
        Allow {
            rule,
            package: None,
            channel: None,
        }
    }

    /// Whether it allows a finding of `rule` about `package` and `channel`.
    pub fn covers(&self, rule: Rule, package: Option<&str>, channel: Option<&str>) -> bool {
        self.rule == rule
            && self.package.as_deref().is_none_or(|p| Some(p) == package)
            && self.channel.as_deref().is_none_or(|c| Some(c) == channel)
    }

    /// Whether it names a package.
    pub fn is_scoped(&self) -> bool {
        self.package.is_some()
    }
}

impl FromStr for Allow {
    type Err = PolicyError;

    /// `RULE`, `RULE@PACKAGE` or `RULE@PACKAGE/CHANNEL`.
    fn from_str(text: &str) -> Result<Allow, PolicyError> {
        let (rule, scope) = match text.split_once('@') {
            Some((r, s)) => (r, Some(s)),
            None => (text, None),
        };
        let rule: Rule = rule.parse()?;
        let (package, channel) = match scope {
            None => (None, None),
            Some(s) => {
                let (p, c) = match s.split_once('/') {
                    Some((p, c)) => (p, Some(c)),
                    None => (s, None),
                };
                if p.is_empty() || c.is_some_and(str::is_empty) {
                    return Err(PolicyError::MalformedScope(text.to_owned()));
                }
                (Some(p.to_owned()), c.map(str::to_owned))
            }
        };
        Ok(Allow {
            rule,
            package,
            channel,
        })
    }
}

impl fmt::Display for Allow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rule.id())?;
        if let Some(p) = &self.package {
            write!(f, "@{p}")?;
            if let Some(c) = &self.channel {
                write!(f, "/{c}")?;
            }
        }
        Ok(())
    }
}

/// What a policy does with one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Not reported: a warning (or information) of a rule allowed everywhere.
    Dropped,
    /// Reported with this severity.
    Report(Severity),
    /// Reported as allowed, by this allow: it fails nothing, and the output
    /// says so, so that an exception for one package hides nothing else.
    Allowed(Allow),
}

/// What to do with findings: drop the warnings of allowed rules, show the
/// findings an allow for one package covers (or errors a rule allowed
/// everywhere covers) as allowed, make the findings of denied rules errors,
/// and with `strict` make every warning an error.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    strict: bool,
    allow: Vec<Allow>,
    deny: BTreeSet<Rule>,
}

impl Policy {
    /// A policy; refuses to allow the errors of rules that cannot be
    /// allowed ([`Rule::allows_errors`]), and a rule both allowed everywhere
    /// and denied.
    pub fn new(
        strict: bool,
        allow: impl IntoIterator<Item = Allow>,
        deny: impl IntoIterator<Item = Rule>,
    ) -> Result<Policy, PolicyError> {
        let mut allow: Vec<Allow> = allow.into_iter().collect();
        allow.sort();
        allow.dedup();
        let deny: BTreeSet<Rule> = deny.into_iter().collect();
        if let Some(a) = allow
            .iter()
            .find(|a| !a.is_scoped() && deny.contains(&a.rule))
        {
            return Err(PolicyError::AllowedAndDenied(a.rule));
        }
        if let Some(a) = allow
            .iter()
            .find(|a| a.rule.default_severity() == Severity::Error && !a.rule.allows_errors())
        {
            return Err(PolicyError::AllowedError(a.rule));
        }
        Ok(Policy {
            strict,
            allow,
            deny,
        })
    }

    /// [`Policy::new`] with rules given by name (`RULE`, `RULE@PACKAGE`,
    /// `RULE@PACKAGE/CHANNEL` for allows).
    pub fn from_names<'a>(
        strict: bool,
        allow: impl IntoIterator<Item = &'a str>,
        deny: impl IntoIterator<Item = &'a str>,
    ) -> Result<Policy, PolicyError> {
        let allow = allow
            .into_iter()
            .map(str::parse)
            .collect::<Result<Vec<Allow>, PolicyError>>()?;
        let deny = deny
            .into_iter()
            .map(|n| n.parse::<Rule>().map_err(PolicyError::from))
            .collect::<Result<Vec<Rule>, PolicyError>>()?;
        Policy::new(strict, allow, deny)
    }

    /// Whether every warning fails the run.
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// What the policy does with a finding of `rule` at `severity` about
    /// `package` and `channel`.
    pub fn verdict(
        &self,
        rule: Rule,
        severity: Severity,
        package: Option<&str>,
        channel: Option<&str>,
    ) -> Verdict {
        if self.deny.contains(&rule) {
            return Verdict::Report(Severity::Error);
        }
        // An allow for the package first: it says most about why.
        let allowed = self
            .allow
            .iter()
            .filter(|a| a.covers(rule, package, channel))
            .max_by_key(|a| (a.package.is_some(), a.channel.is_some()));
        if let Some(a) = allowed {
            if severity == Severity::Error && !rule.allows_errors() {
                return Verdict::Report(Severity::Error);
            }
            return if a.is_scoped() || severity == Severity::Error {
                Verdict::Allowed(a.clone())
            } else {
                Verdict::Dropped
            };
        }
        match severity {
            Severity::Warning if self.strict => Verdict::Report(Severity::Error),
            s => Verdict::Report(s),
        }
    }

    /// The severity `d` has under this policy; `None` when it is dropped or
    /// allowed.
    pub fn severity(&self, d: &Diagnostic) -> Option<Severity> {
        match self.verdict(
            d.rule,
            d.severity,
            d.package.as_deref(),
            d.channel.as_deref(),
        ) {
            Verdict::Report(s) => Some(s),
            Verdict::Dropped | Verdict::Allowed(_) => None,
        }
    }

    /// The findings that remain, with their final severities, in the order given.
    pub fn apply(&self, diagnostics: impl IntoIterator<Item = Diagnostic>) -> Findings {
        let mut out = Findings::default();
        for mut d in diagnostics {
            match self.verdict(
                d.rule,
                d.severity,
                d.package.as_deref(),
                d.channel.as_deref(),
            ) {
                Verdict::Report(s) => {
                    d.severity = s;
                    out.diagnostics.push(d);
                }
                Verdict::Dropped => out.suppressed += 1,
                Verdict::Allowed(a) => out.allowed.push((d, a)),
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
    /// The findings reported as allowed, each with the allow that covers it.
    pub allowed: Vec<(Diagnostic, Allow)>,
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

    /// The errors, then the warnings.
    pub fn reported(&self) -> impl Iterator<Item = &Diagnostic> {
        self.errors().chain(self.warnings())
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

    #[test]
    fn the_document_holds_errors_then_warnings() {
        let f = Policy::default().apply(found());
        let doc = serde_json::to_value(crate::report::FindingsDocument::new(&f)).unwrap();
        assert_eq!(doc["passed"], false);
        assert_eq!(doc["errors"].as_array().unwrap().len(), f.errors().count());
        assert_eq!(
            doc["warnings"].as_array().unwrap().len(),
            f.warnings().count()
        );
        assert_eq!(f.reported().count(), f.diagnostics.len());
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
        let p = Policy::new(true, [Allow::rule(Rule::UnknownField)], []).unwrap();
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

    #[test]
    fn an_allow_for_one_package_shows_its_findings_as_allowed() {
        let p = Policy::from_names(
            false,
            ["package-removed@foo", "channel-removed@bar/alpha"],
            [],
        )
        .unwrap();
        let removed = |rule, package: &str, channel: Option<&str>| {
            let mut d = Diagnostic::new(rule, "gone").package(package);
            d.channel = channel.map(str::to_owned);
            d
        };
        let f = p.apply([
            removed(Rule::PackageRemoved, "foo", None),
            removed(Rule::PackageRemoved, "baz", None),
            removed(Rule::ChannelRemoved, "bar", Some("alpha")),
            removed(Rule::ChannelRemoved, "bar", Some("beta")),
        ]);
        let allowed: Vec<String> = f.allowed.iter().map(|(_, a)| a.to_string()).collect();
        assert_eq!(
            allowed,
            ["package-removed@foo", "channel-removed@bar/alpha"]
        );
        let left: Vec<(&str, Option<&str>)> = f
            .errors()
            .map(|d| (d.package.as_deref().unwrap_or(""), d.channel.as_deref()))
            .collect();
        assert_eq!(left, [("baz", None), ("bar", Some("beta"))]);
        assert!(!f.passed());
    }

    #[test]
    fn the_errors_of_validation_cannot_be_allowed_even_for_one_package() {
        assert!(matches!(
            Policy::from_names(false, ["multiple-heads@foo"], []),
            Err(PolicyError::AllowedError(Rule::MultipleHeads))
        ));
        assert!(matches!(
            Policy::from_names(false, ["package-removed@"], []),
            Err(PolicyError::MalformedScope(_))
        ));
        // A diff's error rule may be allowed everywhere: shown as allowed.
        let p = Policy::from_names(false, ["olm-stuck"], []).unwrap();
        let f = p.apply([Diagnostic::new(Rule::OlmStuck, "stuck").package("p")]);
        assert!(f.passed());
        assert_eq!(f.allowed.len(), 1);
    }
}
