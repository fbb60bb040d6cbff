//! Writing catalogs back out as opm's `WriteJSON` / `WriteYAML` do.
//!
//! Order: for each package name (sorted), the `olm.package` blob, its channels by
//! name, its bundles by name, its other blobs by schema, its deprecations; then the
//! other blobs that belong to no package. Known blobs keep opm's field order; every
//! value inside (property values, unknown blobs) has its object keys sorted, as opm
//! re-encodes them through Go maps.
//!
//! JSON is Go's `json.Encoder` output with a 4-space indent and HTML escaping off
//! ([`gojson`], the Go-compatible JSON writer bundle rendering uses too).
//! YAML is what `sigs.k8s.io/yaml` produces in content: keys sorted, `---` before
//! every document; olmsat never folds long lines (go-yaml wraps plain scalars at
//! 80 columns), so the text can differ from opm's in line breaks only.

pub mod gojson;

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;
use serde_json::Value;

use crate::declcfg::{Bundle, Channel, DeclarativeConfig, Deprecation, Meta, Package, Property};
use olmsat_encoding::rawjson::canonical_value;

/// Output format (with the `clap` feature, the command line's values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    /// Concatenated, indented JSON objects.
    #[cfg_attr(feature = "clap", value(help = "Concatenated JSON objects"))]
    Json,
    /// A `---`-separated YAML stream.
    Yaml,
}

impl Format {
    /// The file name extension of the format: `json` or `yaml`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Yaml => "yaml",
        }
    }
}

#[derive(Serialize)]
struct PropOut<'a> {
    #[serde(rename = "type")]
    type_: &'a str,
    value: Value,
}

fn props(p: &[Property]) -> Vec<PropOut<'_>> {
    p.iter()
        .map(|p| PropOut {
            type_: &p.type_,
            // The loader refuses values nested beyond serde_json's limit.
            value: canonical_value(&p.value).unwrap_or(Value::Null),
        })
        .collect()
}

#[derive(Serialize)]
struct IconOut<'a> {
    base64data: String,
    mediatype: &'a str,
}

#[derive(Serialize)]
struct PackageOut<'a> {
    schema: &'a str,
    name: &'a str,
    #[serde(rename = "defaultChannel")]
    default_channel: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    icon: Option<IconOut<'a>>,
    #[serde(skip_serializing_if = "str::is_empty")]
    description: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    properties: Vec<PropOut<'a>>,
}

#[derive(Serialize)]
struct EntryOut<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    replaces: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    skips: &'a [String],
    #[serde(rename = "skipRange", skip_serializing_if = "Option::is_none")]
    skip_range: Option<&'a str>,
}

#[derive(Serialize)]
struct ChannelOut<'a> {
    schema: &'a str,
    name: &'a str,
    package: &'a str,
    entries: Vec<EntryOut<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    properties: Vec<PropOut<'a>>,
}

#[derive(Serialize)]
struct RelatedOut<'a> {
    name: &'a str,
    image: &'a str,
}

#[derive(Serialize)]
struct BundleOut<'a> {
    schema: &'a str,
    name: &'a str,
    package: &'a str,
    image: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    properties: Vec<PropOut<'a>>,
    #[serde(rename = "relatedImages", skip_serializing_if = "Vec::is_empty")]
    related_images: Vec<RelatedOut<'a>>,
}

#[derive(Serialize)]
struct RefOut<'a> {
    schema: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    name: &'a str,
}

#[derive(Serialize)]
struct DepEntryOut<'a> {
    reference: RefOut<'a>,
    message: &'a str,
}

#[derive(Serialize)]
struct DeprecationOut<'a> {
    schema: &'a str,
    package: &'a str,
    entries: Vec<DepEntryOut<'a>>,
}

/// One blob ready to be written.
enum Out<'a> {
    Package(PackageOut<'a>),
    Channel(ChannelOut<'a>),
    Bundle(BundleOut<'a>),
    Deprecation(DeprecationOut<'a>),
    Other(Value),
}

fn package_out(p: &Package) -> Out<'_> {
    Out::Package(PackageOut {
        schema: crate::declcfg::schema::PACKAGE,
        name: &p.name,
        default_channel: &p.default_channel,
        icon: p.icon.as_ref().map(|i| IconOut {
            base64data: reencode_base64(&i.base64data),
            mediatype: &i.mediatype,
        }),
        description: &p.description,
        properties: props(&p.properties),
    })
}

fn reencode_base64(s: &str) -> String {
    use base64::Engine as _;
    match crate::property::decode_go_base64(s) {
        Ok(bytes) => base64::engine::general_purpose::STANDARD.encode(bytes),
        Err(_) => s.to_owned(),
    }
}

fn channel_out(c: &Channel) -> Out<'_> {
    Out::Channel(ChannelOut {
        schema: crate::declcfg::schema::CHANNEL,
        name: &c.name,
        package: &c.package,
        entries: c
            .entries
            .iter()
            .map(|e| EntryOut {
                name: &e.name,
                replaces: e.replaces.as_deref(),
                skips: &e.skips,
                skip_range: e.skip_range.as_deref(),
            })
            .collect(),
        properties: props(&c.properties),
    })
}

fn bundle_out(b: &Bundle) -> Out<'_> {
    Out::Bundle(BundleOut {
        schema: crate::declcfg::schema::BUNDLE,
        name: &b.name,
        package: &b.package,
        image: &b.image,
        properties: props(&b.properties),
        related_images: b
            .related_images
            .iter()
            .map(|r| RelatedOut {
                name: &r.name,
                image: &r.image,
            })
            .collect(),
    })
}

fn deprecation_out(d: &Deprecation) -> Out<'_> {
    Out::Deprecation(DeprecationOut {
        schema: crate::declcfg::schema::DEPRECATIONS,
        package: &d.package,
        entries: d
            .entries
            .iter()
            .map(|e| DepEntryOut {
                reference: RefOut {
                    schema: &e.schema,
                    name: &e.name,
                },
                message: &e.message,
            })
            .collect(),
    })
}

fn other_out(m: &Meta) -> Out<'_> {
    Out::Other(canonical_value(&m.blob).unwrap_or(Value::Null))
}

#[derive(Default)]
struct Group<'a> {
    packages: Vec<&'a Package>,
    channels: Vec<&'a Channel>,
    bundles: Vec<&'a Bundle>,
    others: Vec<&'a Meta>,
    deprecations: Vec<&'a Deprecation>,
}

/// The blobs in opm's output order.
fn ordered(cfg: &DeclarativeConfig) -> Vec<Out<'_>> {
    let mut groups: BTreeMap<&str, Group<'_>> = BTreeMap::new();
    for p in &cfg.packages {
        groups.entry(&p.name).or_default().packages.push(p);
    }
    for c in &cfg.channels {
        groups.entry(&c.package).or_default().channels.push(c);
    }
    for b in &cfg.bundles {
        groups.entry(&b.package).or_default().bundles.push(b);
    }
    for o in &cfg.others {
        groups.entry(&o.package).or_default().others.push(o);
    }
    for d in &cfg.deprecations {
        groups.entry(&d.package).or_default().deprecations.push(d);
    }
    let mut out = Vec::with_capacity(cfg.len());
    let mut unpackaged: Vec<&Meta> = Vec::new();
    for (name, mut g) in groups {
        if name.is_empty() {
            unpackaged = g.others;
            continue;
        }
        g.channels.sort_by(|a, b| a.name.cmp(&b.name));
        g.bundles.sort_by(|a, b| a.name.cmp(&b.name));
        g.others.sort_by(|a, b| a.schema.cmp(&b.schema));
        out.extend(g.packages.into_iter().map(package_out));
        out.extend(g.channels.into_iter().map(channel_out));
        out.extend(g.bundles.into_iter().map(bundle_out));
        out.extend(g.others.into_iter().map(other_out));
        out.extend(g.deprecations.into_iter().map(deprecation_out));
    }
    unpackaged.sort_by(|a, b| a.schema.cmp(&b.schema));
    out.extend(unpackaged.into_iter().map(other_out));
    out
}

/// Write a config in opm's order and format.
pub fn write<W: Write>(cfg: &DeclarativeConfig, format: Format, w: &mut W) -> io::Result<()> {
    for blob in ordered(cfg) {
        match format {
            Format::Json => {
                match &blob {
                    Out::Package(v) => gojson::write_indented(w, v)?,
                    Out::Channel(v) => gojson::write_indented(w, v)?,
                    Out::Bundle(v) => gojson::write_indented(w, v)?,
                    Out::Deprecation(v) => gojson::write_indented(w, v)?,
                    Out::Other(v) => gojson::write_indented(w, v)?,
                }
                w.write_all(b"\n")?;
            }
            Format::Yaml => {
                let v = match &blob {
                    Out::Package(v) => serde_json::to_value(v),
                    Out::Channel(v) => serde_json::to_value(v),
                    Out::Bundle(v) => serde_json::to_value(v),
                    Out::Deprecation(v) => serde_json::to_value(v),
                    Out::Other(v) => Ok(v.clone()),
                }
                .map_err(io::Error::other)?;
                w.write_all(b"---\n")?;
                let mut s = String::new();
                olmsat_encoding::yaml_emit::emit_document(&v, &mut s);
                w.write_all(s.as_bytes())?;
            }
        }
    }
    Ok(())
}
