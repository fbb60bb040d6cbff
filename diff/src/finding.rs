//! What a catalog change does to its users: the findings R0–R9, each with a
//! rule name, a code, a severity and the evidence (entries and file:line in OLD
//! and NEW).

use std::fmt;

use olmsat_encoding::location::Location;

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Users are hurt: the diff fails (exit code 1).
    Error,
    /// Possibly unintended: fails only with `--strict` / `--fail-on warning`.
    Warning,
    /// For the record; never fails.
    Info,
}

impl Level {
    /// `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Info => "info",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The diff rules. Their names are unique across olmsat (validate's rule IDs
/// never reuse them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// R0: NEW fails opm validation.
    NewInvalid,
    /// R1: an entry that reached the head in OLD no longer does in NEW.
    Stranded,
    /// R2: an entry removed from a channel with nothing upgrading from it.
    RemovedUncovered,
    /// R2 (info): an entry removed from a channel that still has an edge from it.
    RemovedCovered,
    /// R3: a channel with entries is gone.
    ChannelRemoved,
    /// R3: the package is gone.
    PackageRemoved,
    /// R4: an entry of NEW with no edge to any entry and not the head.
    NewDeadEnd,
    /// R5: the head's version went down.
    HeadRegression,
    /// R6: the default channel changed.
    DefaultChannelChanged,
    /// R7: an edge was removed while its source still reaches the head.
    EdgeShrink,
    /// R8: OLM v0's path from an entry reached the head in OLD and stops short in NEW.
    OlmStuck,
    /// R9: OLM v0 reaches the same head in more steps.
    PathLonger,
    /// A bundle kept its name but changed image, version or properties.
    BundleChanged,
}

impl Rule {
    /// Every rule, in code order.
    pub const ALL: [Rule; 13] = [
        Rule::NewInvalid,
        Rule::Stranded,
        Rule::RemovedUncovered,
        Rule::RemovedCovered,
        Rule::ChannelRemoved,
        Rule::PackageRemoved,
        Rule::NewDeadEnd,
        Rule::HeadRegression,
        Rule::DefaultChannelChanged,
        Rule::EdgeShrink,
        Rule::OlmStuck,
        Rule::PathLonger,
        Rule::BundleChanged,
    ];

    /// The kebab-case rule name (JSON `rule`).
    pub fn name(self) -> &'static str {
        match self {
            Rule::NewInvalid => "new-invalid",
            Rule::Stranded => "stranded",
            Rule::RemovedUncovered => "removed-uncovered",
            Rule::RemovedCovered => "removed-covered",
            Rule::ChannelRemoved => "channel-removed",
            Rule::PackageRemoved => "package-removed",
            Rule::NewDeadEnd => "new-dead-end",
            Rule::HeadRegression => "head-regression",
            Rule::DefaultChannelChanged => "default-channel-changed",
            Rule::EdgeShrink => "edge-shrink",
            Rule::OlmStuck => "olm-stuck",
            Rule::PathLonger => "path-longer",
            Rule::BundleChanged => "bundle-changed",
        }
    }

    /// The code, `R0` to `R9` (`bundle-changed`, a structural change reported
    /// as a finding, has none).
    pub fn code(self) -> Option<&'static str> {
        Some(match self {
            Rule::NewInvalid => "R0",
            Rule::Stranded => "R1",
            Rule::RemovedUncovered | Rule::RemovedCovered => "R2",
            Rule::ChannelRemoved | Rule::PackageRemoved => "R3",
            Rule::NewDeadEnd => "R4",
            Rule::HeadRegression => "R5",
            Rule::DefaultChannelChanged => "R6",
            Rule::EdgeShrink => "R7",
            Rule::OlmStuck => "R8",
            Rule::PathLonger => "R9",
            Rule::BundleChanged => return None,
        })
    }

    /// How much findings of this rule matter.
    pub fn level(self) -> Level {
        match self {
            Rule::NewInvalid
            | Rule::Stranded
            | Rule::RemovedUncovered
            | Rule::ChannelRemoved
            | Rule::PackageRemoved
            | Rule::NewDeadEnd
            | Rule::OlmStuck => Level::Error,
            Rule::HeadRegression | Rule::DefaultChannelChanged => Level::Warning,
            Rule::RemovedCovered | Rule::EdgeShrink | Rule::PathLonger | Rule::BundleChanged => {
                Level::Info
            }
        }
    }

    /// The rule called `name`.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }

    /// What the rule finds, in one sentence (SARIF's rule description).
    pub fn summary(self) -> &'static str {
        match self {
            Rule::NewInvalid => "NEW fails opm's validation.",
            Rule::Stranded => {
                "An entry that reached the channel head in OLD no longer does in NEW."
            }
            Rule::RemovedUncovered => {
                "An entry was removed from a channel and nothing in NEW upgrades from it."
            }
            Rule::RemovedCovered => {
                "An entry was removed from a channel; an edge in NEW still upgrades from it."
            }
            Rule::ChannelRemoved => "A channel that had entries is gone.",
            Rule::PackageRemoved => "A package is gone.",
            Rule::NewDeadEnd => "An entry of NEW has no edge to any entry and is not the head.",
            Rule::HeadRegression => "The channel head's version went down.",
            Rule::DefaultChannelChanged => "The package's default channel changed.",
            Rule::EdgeShrink => "An edge was removed while its source still reaches the head.",
            Rule::OlmStuck => {
                "OLM v0's path from an entry reached the head in OLD and stops short in NEW."
            }
            Rule::PathLonger => "OLM v0 reaches the same head from an entry in more steps.",
            Rule::BundleChanged => {
                "A bundle kept its name but changed its image, version or properties."
            }
        }
    }

    /// How to fix what the rule finds.
    pub fn help(self) -> &'static str {
        match self {
            Rule::NewInvalid => "Fix the validation errors of NEW (olmsat validate NEW).",
            Rule::Stranded | Rule::OlmStuck => {
                "Add a replaces, skips or skipRange edge from the entry towards the head."
            }
            Rule::RemovedUncovered => {
                "Keep the entry, or make a remaining entry skip or skipRange-match it so installed users can upgrade."
            }
            Rule::RemovedCovered | Rule::EdgeShrink | Rule::PathLonger => {
                "Nothing to fix unless the change was unintended."
            }
            Rule::ChannelRemoved | Rule::PackageRemoved => {
                "Restore it, or deprecate it first (olm.deprecations) so subscribers are warned."
            }
            Rule::NewDeadEnd => "Give the entry an edge to a newer entry, or remove it.",
            Rule::HeadRegression => {
                "Check the head: a lower version at the head can downgrade nobody, but new installs get it."
            }
            Rule::DefaultChannelChanged => {
                "Check that new subscriptions without a channel should get the new default."
            }
            Rule::BundleChanged => {
                "A published bundle should not change; publish a new version instead."
            }
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One finding about a package (or, for a catalog-wide R0, about none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule.
    pub rule: Rule,
    /// The package, when the finding concerns one.
    pub package: Option<String>,
    /// The channel, where one applies.
    pub channel: Option<String>,
    /// The bundle, where one applies.
    pub bundle: Option<String>,
    /// What happened, with the entries concerned.
    pub detail: String,
    /// The evidence in OLD (the removed or earlier entry), if any.
    pub old: Option<Location>,
    /// The evidence in NEW (the entry as it is now), if any.
    pub new: Option<Location>,
    /// Whether `--deny` made this finding an error.
    pub denied: bool,
}

impl Finding {
    /// A finding of `rule` about `package` with `detail`.
    pub(crate) fn new(rule: Rule, package: &str, detail: String) -> Finding {
        Finding {
            rule,
            package: Some(package.to_owned()),
            channel: None,
            bundle: None,
            detail,
            old: None,
            new: None,
            denied: false,
        }
    }

    pub(crate) fn channel(mut self, c: &str) -> Finding {
        self.channel = Some(c.to_owned());
        self
    }

    pub(crate) fn bundle(mut self, b: &str) -> Finding {
        self.bundle = Some(b.to_owned());
        self
    }

    pub(crate) fn old_at(mut self, l: &Location) -> Finding {
        self.old = Some(l.clone());
        self
    }

    pub(crate) fn new_at(mut self, l: &Location) -> Finding {
        self.new = Some(l.clone());
        self
    }

    /// The severity of the finding's rule, or `error` when its rule was denied.
    pub fn level(&self) -> Level {
        if self.denied {
            Level::Error
        } else {
            self.rule.level()
        }
    }

    /// The place a reader looks first: the entry in NEW, or in OLD for what
    /// was removed.
    pub fn location(&self) -> Option<&Location> {
        self.new.as_ref().or(self.old.as_ref())
    }

    /// Order of findings: channel, bundle, rule name (then detail).
    pub(crate) fn sort_key(&self) -> (&Option<String>, &Option<String>, &'static str, &str) {
        (&self.channel, &self.bundle, self.rule.name(), &self.detail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut names: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
        for r in Rule::ALL {
            assert_eq!(Rule::from_name(r.name()), Some(r));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Rule::ALL.len());
    }

    #[test]
    fn codes_and_levels_follow_the_spec() {
        assert_eq!(Rule::OlmStuck.code(), Some("R8"));
        assert_eq!(Rule::PathLonger.level(), Level::Info);
        assert_eq!(Rule::HeadRegression.level(), Level::Warning);
        assert_eq!(Rule::RemovedCovered.code(), Some("R2"));
        assert_eq!(Rule::RemovedCovered.level(), Level::Info);
        assert_eq!(Rule::BundleChanged.code(), None);
    }
}
