//! What the resolver chooses between: one entry per (catalog, channel, bundle), as
//! OLM's cache has it, plus the installed CSVs in the virtual `@existing` catalog.

use std::fmt;

use olmsat_catalog::declcfg::Property;
use olmsat_catalog::property::{self, PropertyValue};
use olmsat_encoding::location::Location;

/// A catalog as the resolver sees it: name and namespace (`name/namespace`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CatalogKey {
    /// CatalogSource name (`@existing` for installed operators).
    pub name: String,
    /// Namespace.
    pub namespace: String,
}

impl CatalogKey {
    /// The name of the virtual catalog of installed operators.
    pub const EXISTING: &'static str = "@existing";

    /// Whether this is the virtual catalog of installed operators.
    pub fn is_virtual(&self) -> bool {
        self.name == Self::EXISTING
    }
}

impl fmt::Display for CatalogKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.name, self.namespace)
    }
}

/// Index of an entry in the resolver's arena.
pub type EntryId = usize;

/// One bundle in one channel of one catalog (or one installed CSV).
#[derive(Debug, Clone)]
pub struct Entry {
    /// CSV (bundle) name.
    pub name: String,
    /// Package.
    pub package: String,
    /// Channel (empty for installed CSVs).
    pub channel: String,
    /// Index of the catalog in the resolver's catalog list.
    pub catalog: usize,
    /// Whether `channel` is the package's default channel.
    pub default_channel: bool,
    /// Version.
    pub version: Option<semver::Version>,
    /// The bundle it replaces.
    pub replaces: Option<String>,
    /// Bundles it skips.
    pub skips: Vec<String>,
    /// The skip range text.
    pub skip_range: Option<String>,
    /// Properties as written.
    pub properties: Vec<Property>,
    /// Properties as interpreted (parallel to `properties`).
    pub values: Vec<PropertyValue>,
    /// Where the entry was declared.
    pub location: Option<Location>,
}

impl Entry {
    /// Interpret properties (unparseable ones become `Other`).
    pub fn interpret(properties: &[Property]) -> Vec<PropertyValue> {
        properties
            .iter()
            .map(|p| property::parse(p).unwrap_or(PropertyValue::Other))
            .collect()
    }

    /// Whether the bundle carries the legacy `olm.deprecated` property.
    pub fn deprecated(&self) -> bool {
        self.values
            .iter()
            .any(|v| matches!(v, PropertyValue::Deprecated))
    }

    /// Whether the skip range contains `v`.
    pub fn skip_range_includes(&self, v: &semver::Version) -> bool {
        self.skip_range
            .as_deref()
            .and_then(|r| olmsat_versions::range::Range::parse(r).ok())
            .is_some_and(|r| r.matches(v))
    }
}
