//! The rows of `opm alpha list packages|channels|bundles`.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::chain::ChainError;
use crate::model::{Bundle, Model, Package};
use crate::property::{decode_bundle_object, PropertyValue};

/// A row of `list packages`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PackageRow {
    /// Package name.
    pub name: String,
    /// Display name from the CSV of the default channel's head.
    #[serde(rename = "displayName")]
    pub display_name: String,
    /// Default channel.
    #[serde(rename = "defaultChannel")]
    pub default_channel: String,
}

/// A row of `list channels`. As JSON/YAML: `package`, `channel`, and `head`
/// or `error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelRow {
    /// Package name.
    pub package: String,
    /// Channel name.
    pub channel: String,
    /// Head bundle name, or the error that prevents finding one.
    pub head: Result<String, HeadError>,
}

/// Why a channel has no head, in opm's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeadError {
    /// The channel's graph is broken.
    #[error("{0}")]
    Chain(ChainError),
    /// The channel has no entries.
    #[error("channel must contain at least one bundle")]
    Empty,
}

impl Serialize for ChannelRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut row = s.serialize_struct("ChannelRow", 3)?;
        row.serialize_field("package", &self.package)?;
        row.serialize_field("channel", &self.channel)?;
        match &self.head {
            Ok(head) => row.serialize_field("head", head)?,
            Err(e) => row.serialize_field("error", &e.to_string())?,
        }
        row.end()
    }
}

/// A row of `list bundles` (one per channel membership).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BundleRow {
    /// Package name.
    pub package: String,
    /// Channel name.
    pub channel: String,
    /// Bundle name.
    pub bundle: String,
    /// Replaced bundle (empty when none).
    pub replaces: String,
    /// Skipped bundles.
    pub skips: Vec<String>,
    /// Skip range (empty when none).
    #[serde(rename = "skipRange")]
    pub skip_range: String,
    /// Bundle image.
    pub image: String,
}

fn selected<'m>(model: &'m Model, package: Option<&str>) -> Vec<&'m Package> {
    model
        .packages()
        .iter()
        .filter(|p| package.is_none_or(|want| p.name == want))
        .collect()
}

/// The display name of a bundle's CSV: from `olm.csv.metadata`, else from the
/// ClusterServiceVersion among its `olm.bundle.object`s.
pub fn display_name(b: &Bundle) -> Option<String> {
    for (v, p) in b.typed() {
        match v {
            PropertyValue::CsvMetadata => {
                let meta: serde_json::Value = serde_json::from_str(p.value.get()).ok()?;
                if let Some(n) = meta.get("displayName").and_then(|n| n.as_str()) {
                    return Some(n.to_owned());
                }
            }
            PropertyValue::BundleObject(data) => {
                let bytes = decode_bundle_object(data)?;
                let obj: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
                if obj.get("kind").and_then(|k| k.as_str()) == Some("ClusterServiceVersion") {
                    if let Some(n) = obj.pointer("/spec/displayName").and_then(|n| n.as_str()) {
                        return Some(n.to_owned());
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// Rows of `list packages`, sorted by name.
pub fn packages(model: &Model, package: Option<&str>) -> Vec<PackageRow> {
    selected(model, package)
        .into_iter()
        .map(|p| PackageRow {
            name: p.name.clone(),
            display_name: p
                .default_channel()
                .and_then(|c| c.head())
                .and_then(|h| p.bundle(&h.name))
                .and_then(display_name)
                .unwrap_or_default(),
            default_channel: p.default_channel.clone(),
        })
        .collect()
}

/// Rows of `list channels`, sorted by package and channel.
pub fn channels(model: &Model, package: Option<&str>) -> Vec<ChannelRow> {
    let mut rows = Vec::new();
    for p in selected(model, package) {
        for c in p.channels() {
            let head = match (&c.chain().error, c.head()) {
                (_, Some(h)) => Ok(h.name.clone()),
                (Some(e), None) => Err(HeadError::Chain(e.clone())),
                (None, None) => Err(HeadError::Empty),
            };
            rows.push(ChannelRow {
                package: p.name.clone(),
                channel: c.name.clone(),
                head,
            });
        }
    }
    rows
}

/// Rows of `list bundles`, sorted by package, channel and bundle.
pub fn bundles(model: &Model, package: Option<&str>) -> Vec<BundleRow> {
    let mut rows = Vec::new();
    for p in selected(model, package) {
        for c in p.channels() {
            let mut entries: Vec<_> = c.entries().iter().collect();
            entries.sort_by(|a, b| a.name.cmp(&b.name));
            for e in entries {
                rows.push(BundleRow {
                    package: p.name.clone(),
                    channel: c.name.clone(),
                    bundle: e.name.clone(),
                    replaces: e.replaces.clone().unwrap_or_default(),
                    skips: e.skips.clone(),
                    skip_range: e.skip_range.clone().unwrap_or_default(),
                    image: p
                        .bundle(&e.name)
                        .map(|b| b.image.clone())
                        .unwrap_or_default(),
                });
            }
        }
    }
    rows
}

/// `list packages` as opm prints it: a table.
pub fn packages_text(rows: &[PackageRow]) -> String {
    let mut t = vec![["NAME", "DISPLAY NAME", "DEFAULT CHANNEL"]
        .map(String::from)
        .to_vec()];
    t.extend(rows.iter().map(|r| {
        vec![
            r.name.clone(),
            r.display_name.clone(),
            r.default_channel.clone(),
        ]
    }));
    align(&t)
}

/// `list channels` as opm prints it: a table, `ERROR: …` for a channel without
/// a head.
pub fn channels_text(rows: &[ChannelRow]) -> String {
    let mut t = vec![["PACKAGE", "CHANNEL", "HEAD"].map(String::from).to_vec()];
    t.extend(rows.iter().map(|r| {
        let head = match &r.head {
            Ok(h) => h.clone(),
            Err(e) => format!("ERROR: {e}"),
        };
        vec![r.package.clone(), r.channel.clone(), head]
    }));
    align(&t)
}

/// `list bundles` as opm prints it: a table.
pub fn bundles_text(rows: &[BundleRow]) -> String {
    let mut t = vec![[
        "PACKAGE",
        "CHANNEL",
        "BUNDLE",
        "REPLACES",
        "SKIPS",
        "SKIP RANGE",
        "IMAGE",
    ]
    .map(String::from)
    .to_vec()];
    t.extend(rows.iter().map(|r| {
        vec![
            r.package.clone(),
            r.channel.clone(),
            r.bundle.clone(),
            r.replaces.clone(),
            r.skips.join(","),
            r.skip_range.clone(),
            r.image.clone(),
        ]
    }));
    align(&t)
}

/// What `list` lists (with the `clap` feature, the command line's values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum What {
    /// Packages with display name and default channel.
    Packages,
    /// Channels with their heads.
    Channels,
    /// Bundles, one row per channel membership.
    Bundles,
}

/// One listing: its rows, serialized as the list of rows (`-o json|yaml`),
/// with [`Listing::text`] for `opm alpha list`'s columns.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Listing {
    /// [`packages`]'s rows.
    Packages(Vec<PackageRow>),
    /// [`channels`]'s rows.
    Channels(Vec<ChannelRow>),
    /// [`bundles`]'s rows.
    Bundles(Vec<BundleRow>),
}

impl Listing {
    /// List `what` of `model` (only `package`, when given).
    pub fn new(model: &Model, what: What, package: Option<&str>) -> Listing {
        match what {
            What::Packages => Listing::Packages(packages(model, package)),
            What::Channels => Listing::Channels(channels(model, package)),
            What::Bundles => Listing::Bundles(bundles(model, package)),
        }
    }

    /// The listing as `opm alpha list` prints it.
    pub fn text(&self) -> String {
        match self {
            Listing::Packages(rows) => packages_text(rows),
            Listing::Channels(rows) => channels_text(rows),
            Listing::Bundles(rows) => bundles_text(rows),
        }
    }
}

/// Lay out rows as Go's `tabwriter` (min width 0, padding 2, spaces) does: every
/// cell but the last of a line padded to its column's widest cell plus two.
pub fn align(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0usize; cols];
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if i + 1 < r.len() {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
    }
    let mut out = String::new();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            out.push_str(c);
            if i + 1 < r.len() {
                for _ in c.chars().count()..widths[i] + 2 {
                    out.push(' ');
                }
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn align_pads_all_but_last() {
        let rows = vec![
            vec!["NAME".to_owned(), "X".to_owned()],
            vec!["a".to_owned(), "long".to_owned()],
        ];
        assert_eq!(align(&rows), "NAME  X\na     long\n");
    }

    #[test]
    fn a_channel_row_gives_its_head_or_its_error() {
        let ok = ChannelRow {
            package: "p".into(),
            channel: "c".into(),
            head: Ok("p.v1".into()),
        };
        let empty = ChannelRow {
            head: Err(HeadError::Empty),
            ..ok.clone()
        };
        assert_eq!(
            serde_json::to_string(&ok).unwrap(),
            r#"{"package":"p","channel":"c","head":"p.v1"}"#
        );
        assert_eq!(
            serde_json::to_string(&empty).unwrap(),
            r#"{"package":"p","channel":"c","error":"channel must contain at least one bundle"}"#
        );
        assert_eq!(
            channels_text(&[ok.clone(), empty.clone()]),
            "PACKAGE  CHANNEL  HEAD\np        c        p.v1\np        c        ERROR: channel must contain at least one bundle\n"
        );
        // A listing is its rows, as a document and as text.
        let rows = vec![ok, empty];
        let listing = Listing::Channels(rows.clone());
        assert_eq!(
            serde_json::to_string(&listing).unwrap(),
            serde_json::to_string(&rows).unwrap()
        );
        assert_eq!(listing.text(), channels_text(&rows));
    }

    #[test]
    fn listings_of_a_model() {
        let model = Model::default();
        for what in [What::Packages, What::Channels, What::Bundles] {
            let listing = Listing::new(&model, what, None);
            assert_eq!(serde_json::to_string(&listing).unwrap(), "[]");
        }
        assert!(Listing::new(&model, What::Packages, None)
            .text()
            .starts_with("NAME"));
    }
}
