//! The flags every command that reports findings shares: the report format,
//! the warning controls (`--strict`, `--allow`, `--deny`, `--config`) and colour.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::ValueEnum;
use olmsat_findings::report::{Format, Policy, Settings};

/// The level at which findings fail the run.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum FailOn {
    /// Errors fail the run (the default).
    Error,
    /// Warnings fail it too (as --strict).
    Warning,
}

/// When to colour text output.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Report format and warning controls.
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// Report format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub output: Format,
    #[command(flatten)]
    pub controls: PolicyArgs,
    /// Colour text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
}

/// Which findings fail the run: the flags and the settings file.
#[derive(clap::Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Warnings fail the run (exit code 1).
    #[arg(long, visible_alias = "warnings-as-errors")]
    pub strict: bool,
    /// The level that fails the run: `warning` is --strict.
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub fail_on: Option<FailOn>,
    /// Drop the warnings of this rule; `RULE@PACKAGE` or
    /// `RULE@PACKAGE/CHANNEL` shows its findings there as allowed, and an
    /// error rule of `diff` allowed is shown as allowed (repeatable).
    #[arg(long = "allow", value_name = "RULE")]
    pub allow: Vec<String>,
    /// Make the findings of this rule errors (repeatable).
    #[arg(long = "deny", value_name = "RULE")]
    pub deny: Vec<String>,
    /// Settings file with strict, allow and deny (default: `.olmsat.yaml` in
    /// the current directory, when there is one).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

impl PolicyArgs {
    /// The policy: the settings file's, with the flags on top.
    pub fn policy(&self) -> Result<Policy, Box<dyn std::error::Error>> {
        let file = Settings::discover(self.config.as_deref())?;
        let flags = Settings {
            strict: self.strict || self.fail_on == Some(FailOn::Warning),
            allow: self.allow.clone(),
            deny: self.deny.clone(),
        };
        Ok(file.overridden_by(&flags).policy()?)
    }
}

impl ReportArgs {
    /// The policy: the settings file's, with the flags on top.
    pub fn policy(&self) -> Result<Policy, Box<dyn std::error::Error>> {
        self.controls.policy()
    }

    /// The report format.
    pub fn format(&self) -> Format {
        self.output
    }

    /// Whether to colour what goes to standard output.
    pub fn color(&self) -> bool {
        use_color(self.color, std::io::stdout().is_terminal())
    }
}

/// Whether to colour, given the choice and whether the stream is a terminal:
/// `auto` colours terminals unless `NO_COLOR` is set to something.
pub fn use_color(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}
