//! Errors and warnings found in catalog input, each with its place and context.

use std::fmt;

pub use crate::report::rule::Rule;
use olmsat_encoding::location::Location;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The catalog is invalid (opm would reject it, or it cannot be read).
    Error,
    /// Legal, but likely a mistake; fails validation only when a policy says so.
    Warning,
    /// For the record (a change a diff reports that hurts nobody); never fails.
    Info,
}

impl Severity {
    /// `error` or `warning`, as reports print it.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding, with the file and line it points at and the package, channel and
/// bundle it concerns.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Diagnostic {
    /// Where the problem is; `None` only when no input position applies.
    pub location: Option<Location>,
    /// Where the same thing was before a change: a diff's evidence in OLD
    /// (SARIF's related location); `None` for every other command.
    pub old_location: Option<Location>,
    /// Error or warning.
    pub severity: Severity,
    /// Package concerned, if any.
    pub package: Option<String>,
    /// Channel concerned, if any.
    pub channel: Option<String>,
    /// Bundle concerned, if any.
    pub bundle: Option<String>,
    /// The message; for rules opm has, opm's exact text.
    pub message: String,
    /// The rule that made the finding (last, so that sorting goes by place first).
    pub rule: Rule,
}

impl Diagnostic {
    /// A finding of `rule`, with the rule's default severity.
    pub fn new(rule: Rule, message: impl Into<String>) -> Self {
        Diagnostic {
            location: None,
            old_location: None,
            severity: rule.default_severity(),
            package: None,
            channel: None,
            bundle: None,
            message: message.into(),
            rule,
        }
    }

    /// Attach a location.
    pub fn at(mut self, location: &Location) -> Self {
        self.location = Some(location.clone());
        self
    }

    /// Attach the place of the evidence before a change (a diff's OLD).
    pub fn was_at(mut self, location: &Location) -> Self {
        self.old_location = Some(location.clone());
        self
    }

    /// The place a reader looks first: [`Diagnostic::location`], or the
    /// evidence before the change when the finding has no other.
    pub fn place(&self) -> Option<&Location> {
        self.location.as_ref().or(self.old_location.as_ref())
    }

    /// Attach a package.
    pub fn package(mut self, name: &str) -> Self {
        self.package = Some(name.to_owned());
        self
    }

    /// Attach a channel.
    pub fn channel(mut self, name: &str) -> Self {
        self.channel = Some(name.to_owned());
        self
    }

    /// Attach a bundle.
    pub fn bundle(mut self, name: &str) -> Self {
        self.bundle = Some(name.to_owned());
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        write!(f, "{}[{}]: ", self.severity.as_str(), self.rule)?;
        if let Some(ctx) = self.context() {
            write!(f, "[{ctx}] ")?;
        }
        f.write_str(&self.message)
    }
}

impl Diagnostic {
    /// The package, channel and bundle concerned, as text reports print them
    /// (`package "foo", channel "stable"`), or `None` when none applies.
    pub fn context(&self) -> Option<String> {
        let mut ctx = Vec::new();
        if let Some(p) = &self.package {
            ctx.push(format!("package {p:?}"));
        }
        if let Some(c) = &self.channel {
            ctx.push(format!("channel {c:?}"));
        }
        if let Some(b) = &self.bundle {
            ctx.push(format!("bundle {b:?}"));
        }
        (!ctx.is_empty()).then(|| ctx.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_rule_and_the_context() {
        let d = Diagnostic::new(
            Rule::MultipleHeads,
            "multiple channel heads found in graph: a, b",
        )
        .at(&Location::new(std::sync::Arc::from("c.yaml"), 4))
        .package("p")
        .channel("stable");
        assert_eq!(
            d.to_string(),
            "c.yaml:4: error[multiple-heads]: [package \"p\", channel \"stable\"] multiple channel heads found in graph: a, b"
        );
        let w = Diagnostic::new(Rule::UnknownField, "unknown field");
        assert_eq!(w.severity, Severity::Warning);
        assert_eq!(w.to_string(), "warning[unknown-field]: unknown field");
    }
}
