//! The settings file (`.olmsat.yaml`): the same warning controls as the
//! command-line flags, for a repository to keep with its catalogs.
//!
//! ```yaml
//! strict: false
//! allow: [skiprange-matches-nothing]
//! deny: [replaces-not-found]
//! ```

use serde::Deserialize;

use crate::report::policy::{Policy, PolicyError};

/// The default name of the settings file, looked for in the current directory.
pub const DEFAULT_FILE: &str = ".olmsat.yaml";

/// Warning controls, from a settings file or the command line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Every warning fails the run.
    #[serde(default)]
    pub strict: bool,
    /// Allowed rules: `RULE` (its warnings dropped, the errors of a diff's
    /// rule shown as allowed), or `RULE@PACKAGE[/CHANNEL]` (its findings for
    /// that package, or channel, shown as allowed).
    #[serde(default)]
    pub allow: Vec<String>,
    /// Rules whose findings are errors.
    #[serde(default)]
    pub deny: Vec<String>,
}

/// A settings file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("{path}: cannot read settings file: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a settings mapping.
    #[error(
        "{path}: invalid settings file: {message} (expected a mapping with strict, allow and deny)"
    )]
    Parse {
        /// The file.
        path: String,
        /// The parser's message.
        message: String,
    },
    /// The settings name unknown rules, or contradict each other.
    #[error("{path}: {source}")]
    Policy {
        /// The file.
        path: String,
        /// The problem.
        source: PolicyError,
    },
}

impl Settings {
    /// Read settings from YAML text; `path` names the file in errors.
    pub fn from_yaml(path: &str, text: &str) -> Result<Settings, ConfigError> {
        if text.trim().is_empty() {
            return Ok(Settings::default());
        }
        let settings: Settings = serde_saphyr::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        // Unknown rule names are reported against the file that holds them.
        Policy::from_names(
            false,
            settings.allow.iter().map(String::as_str),
            settings.deny.iter().map(String::as_str),
        )
        .map_err(|source| ConfigError::Policy {
            path: path.to_owned(),
            source,
        })?;
        Ok(settings)
    }

    /// Read settings from a file.
    pub fn read(path: &std::path::Path) -> Result<Settings, ConfigError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: shown.clone(),
            source,
        })?;
        Settings::from_yaml(&shown, &text)
    }

    /// The settings of `file` when given, else of [`DEFAULT_FILE`] in the
    /// current directory when there is one, else none.
    pub fn discover(file: Option<&std::path::Path>) -> Result<Settings, ConfigError> {
        match file {
            Some(path) => Settings::read(path),
            None if std::path::Path::new(DEFAULT_FILE).is_file() => {
                Settings::read(std::path::Path::new(DEFAULT_FILE))
            }
            None => Ok(Settings::default()),
        }
    }

    /// These settings with `over` (the command line) applied on top: `strict`
    /// if either says so; a rule `over` allows is no longer denied, and one it
    /// denies no longer allowed.
    pub fn overridden_by(self, over: &Settings) -> Settings {
        // A rule denied on the command line is not allowed by the file, for
        // any package.
        let rule_of = |a: &String| a.split('@').next().unwrap_or_default().to_owned();
        let mut allow: Vec<String> = self
            .allow
            .into_iter()
            .filter(|r| !over.deny.contains(&rule_of(r)))
            .collect();
        let mut deny: Vec<String> = self
            .deny
            .into_iter()
            .filter(|r| !over.allow.contains(r))
            .collect();
        allow.extend(over.allow.iter().cloned());
        deny.extend(over.deny.iter().cloned());
        Settings {
            strict: self.strict || over.strict,
            allow,
            deny,
        }
    }

    /// The policy these settings describe.
    pub fn policy(&self) -> Result<Policy, PolicyError> {
        Policy::from_names(
            self.strict,
            self.allow.iter().map(String::as_str),
            self.deny.iter().map(String::as_str),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Rule;

    #[test]
    fn settings_are_read_and_overridden_by_the_command_line() {
        let file = Settings::from_yaml(
            ".olmsat.yaml",
            "allow: [skiprange-matches-nothing]\ndeny:\n  - unknown-field\n",
        )
        .unwrap();
        assert!(!file.strict);
        let cli = Settings {
            strict: true,
            allow: vec!["unknown-field".to_owned()],
            deny: vec!["skiprange-matches-nothing".to_owned()],
        };
        let merged = file.overridden_by(&cli);
        assert_eq!(merged.allow, ["unknown-field"]);
        assert_eq!(merged.deny, ["skiprange-matches-nothing"]);
        let p = merged.policy().unwrap();
        assert!(p.is_strict());
        let d = crate::Diagnostic::new(Rule::UnknownField, "x");
        assert_eq!(p.severity(&d), None);
        assert_eq!(
            Settings::from_yaml("f", "  \n").unwrap(),
            Settings::default()
        );
    }

    #[test]
    fn bad_settings_say_where_and_what() {
        let e = Settings::from_yaml("ci/.olmsat.yaml", "deny: [multiple-head]").unwrap_err();
        assert_eq!(
            e.to_string(),
            "ci/.olmsat.yaml: unknown rule \"multiple-head\" (did you mean \"multiple-heads\"?)"
        );
        let e = Settings::from_yaml("f.yaml", "strictly: true").unwrap_err();
        assert!(
            e.to_string().starts_with("f.yaml: invalid settings file: "),
            "{e}"
        );
        let e = Settings::from_yaml("f.yaml", "- a\n- b").unwrap_err();
        assert!(matches!(e, ConfigError::Parse { .. }), "{e}");
    }
}
