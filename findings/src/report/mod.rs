//! Findings as data: the [`Rule`] behind each diagnostic, the [`Policy`] that
//! decides which findings fail a run, and the report formats every command that
//! reports findings shares (text, short, JSON, YAML, SARIF, GitHub annotations).

pub mod rule;

pub use rule::{Rule, UnknownRule};
pub mod config;
pub mod format;
pub mod policy;

pub use config::{ConfigError, Settings};
pub use format::FindingsDocument;
pub use format::Format;
pub use policy::{Allow, Findings, Policy, PolicyError, Verdict};
