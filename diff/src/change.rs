//! Structural changes between two versions of a package: what was added,
//! removed or rewritten, reported for information.

use std::fmt;

/// What changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    /// The package is new.
    PackageAdded,
    /// The package is gone.
    PackageRemoved,
    /// `defaultChannel` changed (`old` → `new`).
    DefaultChannelChanged,
    /// A channel is new.
    ChannelAdded,
    /// A channel is gone.
    ChannelRemoved,
    /// The channel's head changed (`old` → `new`, each `name (version)`).
    HeadChanged,
    /// An entry is new in the channel.
    EntryAdded,
    /// An entry is gone from the channel.
    EntryRemoved,
    /// An entry's `replaces` changed.
    ReplacesChanged,
    /// An entry skips a name it did not skip (`new`).
    SkipsAdded,
    /// An entry no longer skips a name (`old`).
    SkipsRemoved,
    /// An entry's `skipRange` changed.
    SkipRangeChanged,
    /// A bundle is new in the package.
    BundleAdded,
    /// A bundle is gone from the package.
    BundleRemoved,
    /// A deprecation entry is new (`new` = its schema, `bundle`/`channel` its name).
    DeprecationAdded,
    /// A deprecation entry is gone.
    DeprecationRemoved,
}

impl ChangeKind {
    /// The kebab-case name (JSON `kind`).
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::PackageAdded => "package-added",
            ChangeKind::PackageRemoved => "package-removed",
            ChangeKind::DefaultChannelChanged => "default-channel-changed",
            ChangeKind::ChannelAdded => "channel-added",
            ChangeKind::ChannelRemoved => "channel-removed",
            ChangeKind::HeadChanged => "head-changed",
            ChangeKind::EntryAdded => "entry-added",
            ChangeKind::EntryRemoved => "entry-removed",
            ChangeKind::ReplacesChanged => "replaces-changed",
            ChangeKind::SkipsAdded => "skips-added",
            ChangeKind::SkipsRemoved => "skips-removed",
            ChangeKind::SkipRangeChanged => "skip-range-changed",
            ChangeKind::BundleAdded => "bundle-added",
            ChangeKind::BundleRemoved => "bundle-removed",
            ChangeKind::DeprecationAdded => "deprecation-added",
            ChangeKind::DeprecationRemoved => "deprecation-removed",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One structural change.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    /// The channel, for channel and entry changes.
    pub channel: Option<String>,
    /// The bundle (or entry) concerned.
    pub bundle: Option<String>,
    /// What changed.
    pub kind: ChangeKind,
    /// The value before, when there was one.
    pub old: Option<String>,
    /// The value after, when there is one.
    pub new: Option<String>,
}

impl Change {
    pub(crate) fn new(kind: ChangeKind) -> Change {
        Change {
            channel: None,
            bundle: None,
            kind,
            old: None,
            new: None,
        }
    }

    pub(crate) fn channel(mut self, c: &str) -> Change {
        self.channel = Some(c.to_owned());
        self
    }

    pub(crate) fn bundle(mut self, b: &str) -> Change {
        self.bundle = Some(b.to_owned());
        self
    }

    pub(crate) fn old(mut self, v: impl Into<String>) -> Change {
        self.old = Some(v.into());
        self
    }

    pub(crate) fn new_value(mut self, v: impl Into<String>) -> Change {
        self.new = Some(v.into());
        self
    }
}

impl fmt::Display for Change {
    /// A compact line, e.g. `channel stable: head-changed op.v1 (1.0.0) -> op.v2 (2.0.0)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = &self.channel {
            write!(f, "channel {c}: ")?;
        }
        f.write_str(self.kind.name())?;
        if let Some(b) = &self.bundle {
            write!(f, " {b}")?;
        }
        match (&self.old, &self.new) {
            (Some(o), Some(n)) => write!(f, ": {o} -> {n}"),
            (Some(o), None) => write!(f, ": {o}"),
            (None, Some(n)) => write!(f, ": {n}"),
            (None, None) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_compact() {
        let c = Change::new(ChangeKind::HeadChanged)
            .channel("stable")
            .old("a (1.0.0)")
            .new_value("b (1.1.0)");
        assert_eq!(
            c.to_string(),
            "channel stable: head-changed: a (1.0.0) -> b (1.1.0)"
        );
        let e = Change::new(ChangeKind::EntryAdded)
            .channel("stable")
            .bundle("b");
        assert_eq!(e.to_string(), "channel stable: entry-added b");
    }
}
