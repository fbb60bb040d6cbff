//! The file-based catalog as written: one value per blob (`olm.package`, `olm.channel`,
//! `olm.bundle`, `olm.deprecations`, and every other schema kept unchanged), each with
//! the place it came from.
//!
//! Field names and emptiness follow opm's `declcfg` types: an absent or `null` string
//! is empty, `replaces`/`skipRange` are `None` when empty.

use olmsat_encoding::location::Location;
use olmsat_encoding::rawjson::RawJson;

/// The schema names opm knows.
pub mod schema {
    /// `olm.package`
    pub const PACKAGE: &str = "olm.package";
    /// `olm.channel`
    pub const CHANNEL: &str = "olm.channel";
    /// `olm.bundle`
    pub const BUNDLE: &str = "olm.bundle";
    /// `olm.deprecations`
    pub const DEPRECATIONS: &str = "olm.deprecations";
}

/// Every blob of one or more catalogs, in load order (files sorted by path, blobs in
/// file order).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct DeclarativeConfig {
    /// `olm.package` blobs.
    pub packages: Vec<Package>,
    /// `olm.channel` blobs.
    pub channels: Vec<Channel>,
    /// `olm.bundle` blobs.
    pub bundles: Vec<Bundle>,
    /// `olm.deprecations` blobs.
    pub deprecations: Vec<Deprecation>,
    /// Blobs of any other schema, kept as they were.
    pub others: Vec<Meta>,
}

impl DeclarativeConfig {
    /// Append another config's blobs.
    pub fn merge(&mut self, other: DeclarativeConfig) {
        /// `to` followed by `from`; an empty `to` takes `from`'s list as it
        /// is (no copy: the first file's lists can be large).
        fn append<T>(to: &mut Vec<T>, mut from: Vec<T>) {
            if to.is_empty() {
                std::mem::swap(to, &mut from);
            }
            to.append(&mut from);
        }
        append(&mut self.packages, other.packages);
        append(&mut self.channels, other.channels);
        append(&mut self.bundles, other.bundles);
        append(&mut self.deprecations, other.deprecations);
        append(&mut self.others, other.others);
    }

    /// Number of blobs of all kinds.
    pub fn len(&self) -> usize {
        self.packages.len()
            + self.channels.len()
            + self.bundles.len()
            + self.deprecations.len()
            + self.others.len()
    }

    /// Whether there are no blobs at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An `olm.package` blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// Package name.
    pub name: String,
    /// Name of the default channel (empty when unset).
    pub default_channel: String,
    /// Optional icon.
    pub icon: Option<Icon>,
    /// Description (empty when unset).
    pub description: String,
    /// Package-level properties.
    pub properties: Vec<Property>,
    /// Where the blob starts.
    pub location: Location,
}

/// A package icon: base64 data (kept as text) and its media type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Icon {
    /// Base64-encoded image data, as written.
    pub base64data: String,
    /// Media type, e.g. `image/svg+xml`.
    pub mediatype: String,
}

/// An `olm.channel` blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    /// Channel name.
    pub name: String,
    /// Package the channel belongs to.
    pub package: String,
    /// Upgrade-graph entries, in input order.
    pub entries: Vec<ChannelEntry>,
    /// Channel properties (internal to opm, kept for round trips).
    pub properties: Vec<Property>,
    /// Where the blob starts.
    pub location: Location,
}

/// One entry of a channel: a bundle name and the edges it declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelEntry {
    /// Bundle name.
    pub name: String,
    /// The bundle this one replaces.
    pub replaces: Option<String>,
    /// Bundles this one skips.
    pub skips: Vec<String>,
    /// A blang semver range of versions this one can be installed over.
    pub skip_range: Option<String>,
    /// Where the entry starts (the blob's location when unknown).
    pub location: Location,
}

/// An `olm.bundle` blob.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bundle {
    /// Bundle name.
    pub name: String,
    /// Package the bundle belongs to.
    pub package: String,
    /// Bundle image pull spec (may be empty).
    pub image: String,
    /// Properties in input order.
    pub properties: Vec<Property>,
    /// Related images.
    pub related_images: Vec<RelatedImage>,
    /// Where the blob starts.
    pub location: Location,
}

/// How much of an `olm.bundle` blob loading reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BundleReading {
    /// Every member, checked as opm checks it.
    #[default]
    Full,
    /// Only what upgrade graphs use: `name`, `package` and the properties, of
    /// which every item's `type` and `value` are checked but only `olm.package`
    /// (the version) and `olm.deprecated` are kept. `image` and
    /// `relatedImages` are neither read nor kept (the bundle's image is empty).
    /// [`Model::build_reading`](crate::model::Model::build_reading) then keeps
    /// the version but drops the `olm.package` property.
    Graph,
}

/// A related image of a bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelatedImage {
    /// Optional name.
    pub name: String,
    /// Image pull spec.
    pub image: String,
}

/// A property: a type and a raw JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Property {
    /// The property type, e.g. `olm.gvk`.
    pub type_: String,
    /// The value, as raw JSON.
    pub value: RawJson,
}

/// An `olm.deprecations` blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deprecation {
    /// Package the deprecations apply to.
    pub package: String,
    /// Deprecation entries.
    pub entries: Vec<DeprecationEntry>,
    /// Where the blob starts.
    pub location: Location,
}

/// One deprecated object and the message shown for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeprecationEntry {
    /// Schema of the deprecated object: `olm.package`, `olm.channel` or `olm.bundle`.
    pub schema: String,
    /// Name of the deprecated channel or bundle (empty for the package).
    pub name: String,
    /// Message shown to users.
    pub message: String,
}

/// A blob of any schema other than the four opm knows, kept as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    /// The blob's schema.
    pub schema: String,
    /// The blob's `package` field, if any.
    pub package: String,
    /// The blob's `name` field, if any.
    pub name: String,
    /// The whole blob.
    pub blob: RawJson,
    /// Where the blob starts.
    pub location: Location,
}
