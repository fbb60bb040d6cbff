//! Errors and warnings found in catalog input, each with its place and context.

use std::fmt;

use crate::location::Location;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The catalog is invalid (opm would reject it, or it cannot be read).
    Error,
    /// Legal, but likely a mistake; never fails validation.
    Warning,
}

/// One finding, with the file and line it points at and the package, channel and
/// bundle it concerns.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Diagnostic {
    /// Where the problem is; `None` only when no input position applies.
    pub location: Option<Location>,
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
}

impl Diagnostic {
    /// An error with a message.
    pub fn error(message: impl Into<String>) -> Self {
        Diagnostic {
            location: None,
            severity: Severity::Error,
            package: None,
            channel: None,
            bundle: None,
            message: message.into(),
        }
    }

    /// A warning with a message.
    pub fn warning(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message)
        }
    }

    /// Attach a location.
    pub fn at(mut self, location: &Location) -> Self {
        self.location = Some(location.clone());
        self
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
        f.write_str(match self.severity {
            Severity::Error => "error: ",
            Severity::Warning => "warning: ",
        })?;
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
        if !ctx.is_empty() {
            write!(f, "[{}] ", ctx.join(", "))?;
        }
        f.write_str(&self.message)
    }
}
