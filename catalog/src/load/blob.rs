//! Turning a document's fields into a typed blob, with opm's checks and texts.
//!
//! (A little over 800 lines with its unit tests: the four schemas' decoding
//! and its error types belong together, one per blob kind.)

use std::collections::BTreeMap;

use crate::declcfg::{
    schema, Bundle, Channel, ChannelEntry, Deprecation, DeprecationEntry, Icon, Meta, Package,
    Property, RelatedImage,
};
use olmsat_encoding::location::Location;
use olmsat_encoding::rawjson::{
    fold_eq, is_null, items_of, json_kind, kind_of, property_items, to_raw, unmarshal_error,
    GoJsonError, Key, Object,
};
use olmsat_findings::diagnostic::{Diagnostic, Rule};

use super::doc::{DocFields, FieldValue};

/// A document made a blob (or the error that stopped it), with its warnings.
pub(crate) type Converted = (Result<Blob, Diagnostic>, Vec<Diagnostic>);

/// A typed blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blob {
    /// `olm.package`
    Package(Package),
    /// `olm.channel`
    Channel(Channel),
    /// `olm.bundle`
    Bundle(Bundle),
    /// `olm.deprecations`
    Deprecation(Deprecation),
    /// Any other schema.
    Other(Meta),
}

pub use crate::declcfg::BundleReading;

/// A document that does not make a blob. The texts are opm's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlobError {
    /// No `schema` member, or an empty one.
    #[error("object '{0}' is missing root schema field")]
    MissingSchema(String),
    /// An error of decoding a document read as YAML, which opm's decoder
    /// reports through `sigs.k8s.io/yaml`'s wrapping.
    #[error("error unmarshaling JSON: while decoding JSON: {0}")]
    Yaml(Box<BlobError>),
    /// Keys that differ only in case (`name` and `Name`), by folded key.
    #[error("{}", show_duplicates(.0))]
    DuplicateKeys(Vec<FoldedKeys>),
    /// A `schema`, `package` or `name` member that is not a string.
    #[error("expected value for key {key:?} to be a string, got {shown}: {plain}")]
    NotAString {
        /// The key as written.
        key: String,
        /// The value as Go's `%t` verb shows it.
        shown: String,
        /// The value as Go's `%v` verb shows it (`<nil>` for null).
        plain: String,
    },
    /// A member that is not JSON (serde_json's text).
    #[error("{0}")]
    Json(String),
    /// An `olm.package` blob's members.
    #[error("parse package: {0}")]
    Package(FieldError),
    /// An `olm.channel` blob's members.
    #[error("parse channel: {0}")]
    Channel(FieldError),
    /// An `olm.bundle` blob's members.
    #[error("parse bundle: {0}")]
    Bundle(FieldError),
    /// An `olm.deprecations` blob's members.
    #[error("parse deprecation: {0}")]
    Deprecation(FieldError),
    /// An `olm.bundle.object` property that does not decode.
    #[error("read bundle objects: {0}")]
    BundleObjects(String),
}

impl BlobError {
    /// The rule a blob that fails this way breaks: [`Rule::MissingSchema`] for a
    /// missing or non-string `schema`, [`Rule::DuplicateKey`] for keys that fold
    /// to the same name, [`Rule::InvalidBlob`] for anything else.
    pub fn rule(&self) -> Rule {
        match self {
            BlobError::Yaml(inner) => inner.rule(),
            BlobError::MissingSchema(_) => Rule::MissingSchema,
            BlobError::NotAString { key, .. } if key.eq_ignore_ascii_case("schema") => {
                Rule::MissingSchema
            }
            BlobError::DuplicateKeys(_) => Rule::DuplicateKey,
            _ => Rule::InvalidBlob,
        }
    }
}

impl From<serde_json::Error> for BlobError {
    fn from(e: serde_json::Error) -> Self {
        BlobError::Json(e.to_string())
    }
}

/// Keys of one blob that fold to the same key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoldedKeys {
    /// The key, lower-cased.
    pub folded: String,
    /// The keys as written, sorted.
    pub keys: Vec<String>,
}

fn show_duplicates(groups: &[FoldedKeys]) -> String {
    let each: Vec<String> = groups
        .iter()
        .map(|g| {
            format!(
                "duplicate keys for key {:?}: [{}]",
                g.folded,
                g.keys.join(" ")
            )
        })
        .collect();
    match each.as_slice() {
        [one] => one.clone(),
        _ => format!("[{}]", each.join(", ")),
    }
}

/// A member of a known blob that does not decode into opm's Go type. The
/// texts are Go's (`encoding/json`) or opm's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    /// A value of the wrong JSON type or shape, in Go's words.
    #[error(transparent)]
    Decode(#[from] GoJsonError),
    /// Base64 data that does not decode, in Go's words.
    #[error(transparent)]
    Base64(#[from] crate::property::Base64Error),
    /// `properties` that is not an array.
    #[error("json: cannot unmarshal {kind} into Go struct field {go_struct}.properties of type []property.Property")]
    PropertiesNotArray {
        /// The JSON type found.
        kind: &'static str,
        /// The Go struct holding the member.
        go_struct: String,
    },
    /// A property that is not an object.
    #[error("json: cannot unmarshal {0} into Go value of type property.Property")]
    PropertyNotObject(&'static str),
    /// An icon whose data is not a string.
    #[error("json: cannot unmarshal into Go struct field Icon.icon.base64data of type []uint8")]
    IconData,
}

/// Convert a document into a blob. Errors are opm's texts; warnings report fields
/// opm silently ignores.
pub fn to_blob(
    doc: DocFields,
    loc: &Location,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Blob, BlobError> {
    to_blob_reading(doc, loc, warnings, BundleReading::Full)
}

/// [`to_blob`], reading bundles as far as `reading` says.
pub fn to_blob_reading(
    doc: DocFields,
    loc: &Location,
    warnings: &mut Vec<Diagnostic>,
    reading: BundleReading,
) -> Result<Blob, BlobError> {
    let decoded = (|| {
        check_folded_duplicates(&doc.fields)?;
        Ok((
            meta_string(&doc.fields, "schema")?,
            meta_string(&doc.fields, "package")?,
            meta_string(&doc.fields, "name")?,
        ))
    })();
    let (schema, package, name) = match decoded {
        Ok(meta) => meta,
        Err(e) if doc.from_yaml => return Err(BlobError::Yaml(Box::new(e))),
        Err(e) => return Err(e),
    };
    if schema.is_empty() {
        // opm quotes the object as its encoder re-encoded it, newline and all.
        let mut quoted = super::go_value::encode(&canonical_object(&doc.fields));
        quoted.push('\n');
        return Err(BlobError::MissingSchema(quoted));
    }
    let known: &[&str] = match schema.as_ref() {
        schema::PACKAGE => &[
            "schema",
            "name",
            "defaultChannel",
            "icon",
            "description",
            "properties",
        ],
        schema::CHANNEL => &["schema", "name", "package", "entries", "properties"],
        schema::BUNDLE => &[
            "schema",
            "name",
            "package",
            "image",
            "properties",
            "relatedImages",
        ],
        schema::DEPRECATIONS => &["schema", "package", "entries"],
        _ => &[],
    };
    if !known.is_empty() {
        for (k, _) in &doc.fields {
            if !known.contains(&k.as_ref()) && !known.iter().any(|f| fold_eq(f, k)) {
                warnings.push(
                    Diagnostic::new(
                        Rule::UnknownField,
                        format!(
                        "unknown field {k:?} in {schema} blob; opm ignores it and render drops it"
                    ),
                    )
                    .at(loc),
                );
            }
        }
    }
    if known.is_empty() {
        return Ok(Blob::Other(Meta {
            schema: schema.into_owned(),
            package: package.into_owned(),
            name: name.into_owned(),
            blob: to_raw(&canonical_object(&doc.fields)),
            location: loc.clone(),
        }));
    }
    // `properties` (matched as Go matches struct fields: case-insensitively, the
    // last one winning) holds the largest values: it is read straight from its
    // text, in one pass; the other members are checked as raw JSON.
    let is_properties = |k: &str| fold_eq(k, "properties");
    let props = doc.fields.iter().rev().find(|(k, _)| is_properties(k));
    let props = props.map(|(_, v)| v);
    let mut fields = Vec::with_capacity(doc.fields.len());
    for (k, v) in &doc.fields {
        if !is_properties(k) {
            fields.push((Key::Borrowed(k.as_ref()), v.raw()?.get()));
        }
    }
    let obj = Object { fields };
    let blob = match schema.as_ref() {
        schema::PACKAGE => parse_package(&obj, props, loc)
            .map(Blob::Package)
            .map_err(BlobError::Package),
        schema::CHANNEL => parse_channel(&obj, props, &doc, loc, warnings)
            .map(Blob::Channel)
            .map_err(BlobError::Channel),
        schema::BUNDLE => parse_bundle(&obj, props, loc, reading)
            .map(Blob::Bundle)
            .map_err(BlobError::Bundle),
        schema::DEPRECATIONS => parse_deprecation(&obj, loc)
            .map(Blob::Deprecation)
            .map_err(BlobError::Deprecation),
        _ => Ok(Blob::Other(Meta {
            schema: schema.into_owned(),
            package: package.into_owned(),
            name: name.into_owned(),
            blob: to_raw(&canonical_object(&doc.fields)),
            location: loc.clone(),
        })),
    }?;
    incomplete_properties(&blob, loc, warnings);
    read_bundle_objects(blob)
}

/// opm's last step in loading a bundle (`readBundleObjects`): every
/// `olm.bundle.object` property must decode, its `data` as base64. The
/// other blobs pass as they are.
pub(crate) fn read_bundle_objects(blob: Blob) -> Result<Blob, BlobError> {
    let Blob::Bundle(b) = &blob else {
        return Ok(blob);
    };
    for (i, p) in b.properties.iter().enumerate() {
        if p.type_ != crate::property::types::BUNDLE_OBJECT {
            continue;
        }
        if let Err(e) = crate::property::parse(p) {
            return Err(BlobError::BundleObjects(format!(
                "package {:?}, bundle {:?}: parse property at index {i} as bundle object: {e}",
                b.package, b.name
            )));
        }
    }
    Ok(blob)
}

/// Warnings (olmsat's own) for properties without a type or a value, which
/// opm's loading lets through.
fn incomplete_properties(blob: &Blob, loc: &Location, warnings: &mut Vec<Diagnostic>) {
    let props = match blob {
        Blob::Package(p) => &p.properties,
        Blob::Channel(c) => &c.properties,
        Blob::Bundle(b) => &b.properties,
        _ => return,
    };
    let context = |d: Diagnostic| match blob {
        Blob::Package(p) if !p.name.is_empty() => d.package(&p.name),
        Blob::Channel(c) => d.package(&c.package).channel(&c.name),
        Blob::Bundle(b) => d.package(&b.package).bundle(&b.name),
        _ => d,
    };
    for (i, p) in props.iter().enumerate() {
        let message = if p.type_.is_empty() {
            format!(
                "properties[{i}]: type must be set; opm loads a property without a type (only bundle validation checks it)"
            )
        } else if p.value.is_missing() {
            let then = if matches!(blob, Blob::Bundle(_)) {
                "; opm loads it, then fails the bundle with unexpected end of JSON input"
            } else {
                "; opm loads it and writes it as null"
            };
            format!(
                "properties[{i}] of type {:?}: value must be set{then}",
                p.type_
            )
        } else {
            continue;
        };
        warnings.push(context(
            Diagnostic::new(Rule::IncompleteProperty, message).at(loc),
        ));
    }
}

/// The package a document belongs to, read as the blob would read it: the name
/// of an `olm.package` blob, the `package` member of any other. `None` when that
/// member is absent, empty or not a string.
pub(crate) fn package_of<'d>(fields: &'d DocFields<'_>) -> Option<std::borrow::Cow<'d, str>> {
    let schema = member_str(fields, "schema")?;
    let key = if schema == schema::PACKAGE {
        "name"
    } else {
        "package"
    };
    member_str(fields, key).filter(|p| !p.is_empty())
}

/// A string member as Go reads it (last case-insensitive match), borrowed from
/// the JSON text when it has no escapes; `None` when absent or not a string.
fn member_str<'d>(fields: &'d DocFields<'_>, key: &str) -> Option<std::borrow::Cow<'d, str>> {
    let (_, v) = fields.fields.iter().rev().find(|(k, _)| fold_eq(k, key))?;
    let text = v.text();
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(std::borrow::Cow::Borrowed(inner));
    }
    serde_json::from_str::<String>(text)
        .ok()
        .map(std::borrow::Cow::Owned)
}

/// opm rejects a blob whose keys differ only in case (`name` and `Name`).
fn check_folded_duplicates<V>(fields: &[(Key<'_>, V)]) -> Result<(), BlobError> {
    let mut groups: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let ascii = fields.iter().all(|(k, _)| k.is_ascii());
    let clash = |i: usize, a: &str| {
        fields[..i]
            .iter()
            .any(|(b, _)| a != b.as_ref() && a.eq_ignore_ascii_case(b))
    };
    if ascii && !fields.iter().enumerate().any(|(i, (a, _))| clash(i, a)) {
        // The common case: no two ASCII keys differ only in case.
        return Ok(());
    }
    for (k, _) in fields {
        let g = groups.entry(k.to_lowercase()).or_default();
        if !g.contains(&k.as_ref()) {
            g.push(k);
        }
    }
    let groups: Vec<FoldedKeys> = groups
        .into_iter()
        .filter(|(_, ks)| ks.len() > 1)
        .map(|(folded, mut ks)| {
            ks.sort_unstable();
            FoldedKeys {
                folded,
                keys: ks.into_iter().map(str::to_owned).collect(),
            }
        })
        .collect();
    if groups.is_empty() {
        Ok(())
    } else {
        Err(BlobError::DuplicateKeys(groups))
    }
}

fn meta_string<'d>(
    fields: &'d [(Key<'_>, FieldValue)],
    key: &str,
) -> Result<std::borrow::Cow<'d, str>, BlobError> {
    let Some((k, v)) = fields.iter().rev().find(|(k, _)| fold_eq(k, key)) else {
        return Ok(std::borrow::Cow::Borrowed(""));
    };
    let v = v.raw()?;
    if json_kind(v) == "string" {
        if let Some(s) = olmsat_encoding::validjson::string(v.get()) {
            return Ok(s);
        }
        return Ok(std::borrow::Cow::Owned(serde_json::from_str::<String>(
            v.get(),
        )?));
    }
    use super::go_value::{format, Verb};
    let value: serde_json::Value = serde_json::from_str(v.get())?;
    let shown = format(&value, Verb::T);
    let plain = format(&value, Verb::V);
    Err(BlobError::NotAString {
        key: k.to_string(),
        shown,
        plain,
    })
}

/// The object with keys sorted, as opm re-encodes every blob.
fn canonical_object(fields: &[(Key<'_>, FieldValue)]) -> serde_json::Value {
    let mut map = serde_json::Map::new();
    for (k, v) in fields {
        // Depth was checked when the document was read, so this cannot fail.
        // (serde_json's Value keeps maps sorted by key in this build.)
        let value = serde_json::from_str(v.text()).unwrap_or(serde_json::Value::Null);
        map.insert(k.to_string(), value);
    }
    serde_json::Value::Object(map)
}

fn str_field(o: &Object<'_>, key: &str, go: &str) -> Result<String, FieldError> {
    Ok(o.string(key, go)?.unwrap_or_default())
}

fn parse_properties(
    props: Option<&FieldValue>,
    go_struct: &str,
) -> Result<Vec<Property>, FieldError> {
    parse_properties_keeping(props, go_struct, |_| true)
}

/// [`parse_properties`], checking every item but keeping only those whose type
/// `keep` accepts (the others' values are not copied).
fn parse_properties_keeping(
    props: Option<&FieldValue>,
    go_struct: &str,
    keep: impl Fn(&str) -> bool,
) -> Result<Vec<Property>, FieldError> {
    let Some(text) = props.map(FieldValue::text) else {
        return Ok(Vec::new());
    };
    let kind = kind_of(text);
    if kind == "null" {
        return Ok(Vec::new());
    }
    if kind != "array" {
        return Err(FieldError::PropertiesNotArray {
            kind,
            go_struct: go_struct.to_owned(),
        });
    }
    // Properties hold the largest values of a catalog: read them in one pass.
    let mut out = Vec::new();
    for item in property_items(text)? {
        // opm's loading does not check a property's type or value (only
        // bundle validation does): an empty type and a missing value load,
        // and olmsat warns about them (see `incomplete_properties`).
        let po = match item {
            Ok(po) => po,
            // Go decodes `null` into a struct as its zero value.
            Err("null") => olmsat_encoding::rawjson::PropertyItem {
                type_: None,
                value: None,
            },
            Err(kind) => return Err(FieldError::PropertyNotObject(kind)),
        };
        let type_ = po.type_name()?;
        if keep(&type_) {
            out.push(Property {
                type_,
                value: po
                    .value
                    .map_or_else(olmsat_encoding::rawjson::RawJson::missing, |v| {
                        v.to_owned().into()
                    }),
            });
        }
    }
    Ok(out)
}

/// [`list_of`], with the items already found (when `known` is not empty: the
/// document reader walked `raw`'s items to count their lines).
fn list_of_known<'a, T>(
    raw: &'a str,
    known: &[&'a str],
    field: &str,
    go_type: &str,
    each: impl FnMut(&'a str) -> Result<T, FieldError>,
) -> Result<Vec<T>, FieldError> {
    if known.is_empty() {
        return list_of(raw, field, go_type, each);
    }
    known.iter().copied().map(each).collect()
}

fn list_of<'a, T>(
    raw: &'a str,
    field: &str,
    go_type: &str,
    mut each: impl FnMut(&'a str) -> Result<T, FieldError>,
) -> Result<Vec<T>, FieldError> {
    if is_null(raw) {
        return Ok(Vec::new());
    }
    let items = items_of(raw).map_err(|_| unmarshal_error(raw, field, go_type))?;
    items.into_iter().map(&mut each).collect()
}

fn parse_package(
    o: &Object<'_>,
    props: Option<&FieldValue>,
    loc: &Location,
) -> Result<Package, FieldError> {
    let icon = match o.get("icon") {
        None => None,
        Some(raw) if is_null(raw) => None,
        Some(raw) => {
            let io = Object::parse(raw, "declcfg.Icon")
                .map_err(|_| unmarshal_error(raw, "Package.icon", "declcfg.Icon"))?;
            let data = str_field(&io, "base64data", "Icon.base64data")
                .map_err(|_| FieldError::IconData)?;
            base64_check(&data)?;
            Some(Icon {
                base64data: data,
                mediatype: str_field(&io, "mediatype", "Icon.mediatype")?,
            })
        }
    };
    Ok(Package {
        name: str_field(o, "name", "Package.name")?,
        default_channel: str_field(o, "defaultChannel", "Package.defaultChannel")?,
        icon,
        description: str_field(o, "description", "Package.description")?,
        properties: parse_properties(props, "Package")?,
        location: loc.clone(),
    })
}

fn base64_check(data: &str) -> Result<(), FieldError> {
    crate::property::decode_go_base64(data)
        .map(|_| ())
        .map_err(FieldError::Base64)
}

fn parse_channel(
    o: &Object<'_>,
    props: Option<&FieldValue>,
    doc: &DocFields<'_>,
    loc: &Location,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Channel, FieldError> {
    let entry_lines = &doc.entry_lines;
    let name = str_field(o, "name", "Channel.name")?;
    let package = str_field(o, "package", "Channel.package")?;
    let mut index = 0usize;
    let entries = match o.get("entries") {
        None => Vec::new(),
        Some(raw) => list_of_known(
            raw,
            &doc.entry_items,
            "Channel.entries",
            "[]declcfg.ChannelEntry",
            |item| {
                let line = entry_lines.get(index).copied().unwrap_or(0);
                index += 1;
                let eloc = if line > 0 {
                    loc.at(line, 0)
                } else {
                    loc.clone()
                };
                if is_null(item) {
                    return Ok(ChannelEntry {
                        name: String::new(),
                        replaces: None,
                        skips: Vec::new(),
                        skip_range: None,
                        location: eloc,
                    });
                }
                let eo = Object::parse(item, "declcfg.ChannelEntry").map_err(|_| {
                    unmarshal_error(item, "Channel.entries", "declcfg.ChannelEntry")
                })?;
                for (k, _) in &eo.fields {
                    if !["name", "replaces", "skips", "skipRange"]
                        .iter()
                        .any(|f| fold_eq(f, k))
                    {
                        warnings.push(
                        Diagnostic::new(Rule::UnknownField, format!(
                            "unknown field {k:?} in channel entry; opm ignores it (did you mean one of name, replaces, skips, skipRange?)"
                        ))
                        .at(&eloc)
                        .package(&package)
                        .channel(&name),
                    );
                    }
                }
                let non_empty = |s: String| (!s.is_empty()).then_some(s);
                Ok(ChannelEntry {
                    name: str_field(&eo, "name", "ChannelEntry.entries.name")?,
                    replaces: non_empty(str_field(
                        &eo,
                        "replaces",
                        "ChannelEntry.entries.replaces",
                    )?),
                    skips: eo.string_list("skips", "ChannelEntry.entries.skips")?,
                    skip_range: non_empty(str_field(
                        &eo,
                        "skipRange",
                        "ChannelEntry.entries.skipRange",
                    )?),
                    location: eloc,
                })
            },
        )?,
    };
    Ok(Channel {
        properties: parse_properties(props, "Channel")?,
        name,
        package,
        entries,
        location: loc.clone(),
    })
}

fn parse_bundle(
    o: &Object<'_>,
    props: Option<&FieldValue>,
    loc: &Location,
    reading: BundleReading,
) -> Result<Bundle, FieldError> {
    if reading == BundleReading::Graph {
        use crate::property::types;
        return Ok(Bundle {
            name: str_field(o, "name", "Bundle.name")?,
            package: str_field(o, "package", "Bundle.package")?,
            image: String::new(),
            properties: parse_properties_keeping(props, "Bundle", |t| {
                t == types::PACKAGE || t == types::DEPRECATED
            })?,
            related_images: Vec::new(),
            location: loc.clone(),
        });
    }
    let related_images = match o.get("relatedImages") {
        None => Vec::new(),
        Some(raw) => list_of(
            raw,
            "Bundle.relatedImages",
            "[]declcfg.RelatedImage",
            |item| {
                if is_null(item) {
                    return Ok(RelatedImage {
                        name: String::new(),
                        image: String::new(),
                    });
                }
                let ro = Object::parse(item, "declcfg.RelatedImage").map_err(|_| {
                    unmarshal_error(item, "Bundle.relatedImages", "declcfg.RelatedImage")
                })?;
                Ok(RelatedImage {
                    name: str_field(&ro, "name", "Bundle.relatedImages.name")?,
                    image: str_field(&ro, "image", "Bundle.relatedImages.image")?,
                })
            },
        )?,
    };
    Ok(Bundle {
        name: str_field(o, "name", "Bundle.name")?,
        package: str_field(o, "package", "Bundle.package")?,
        image: str_field(o, "image", "Bundle.image")?,
        properties: parse_properties(props, "Bundle")?,
        related_images,
        location: loc.clone(),
    })
}

fn parse_deprecation(o: &Object<'_>, loc: &Location) -> Result<Deprecation, FieldError> {
    let entries = match o.get("entries") {
        None => Vec::new(),
        Some(raw) => list_of(
            raw,
            "Deprecation.entries",
            "[]declcfg.DeprecationEntry",
            |item| {
                if is_null(item) {
                    return Ok(DeprecationEntry {
                        schema: String::new(),
                        name: String::new(),
                        message: String::new(),
                    });
                }
                let eo = Object::parse(item, "declcfg.DeprecationEntry").map_err(|_| {
                    unmarshal_error(item, "Deprecation.entries", "declcfg.DeprecationEntry")
                })?;
                let (schema, name) = match eo.get("reference") {
                    None => (String::new(), String::new()),
                    Some(r) if is_null(r) => (String::new(), String::new()),
                    Some(r) => {
                        let ro =
                            Object::parse(r, "declcfg.PackageScopedReference").map_err(|_| {
                                unmarshal_error(
                                    r,
                                    "Deprecation.entries.reference",
                                    "declcfg.PackageScopedReference",
                                )
                            })?;
                        (
                            str_field(&ro, "schema", "Deprecation.entries.reference.schema")?,
                            str_field(&ro, "name", "Deprecation.entries.reference.name")?,
                        )
                    }
                };
                Ok(DeprecationEntry {
                    schema,
                    name,
                    message: str_field(&eo, "message", "Deprecation.entries.message")?,
                })
            },
        )?,
    };
    Ok(Deprecation {
        package: str_field(o, "package", "Deprecation.package")?,
        entries,
        location: loc.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn doc(pairs: &[(&str, &str)]) -> DocFields<'static> {
        DocFields {
            fields: pairs
                .iter()
                .map(|(k, v)| (Key::Owned(k.to_string()), FieldValue::Text(v.to_string())))
                .collect(),
            entry_lines: Vec::new(),
            entry_items: Vec::new(),
            from_yaml: false,
        }
    }

    fn loc() -> Location {
        Location::new(Arc::from("f.yaml"), 1)
    }

    #[test]
    fn case_insensitive_fields() {
        let mut w = Vec::new();
        let b = to_blob(
            doc(&[
                ("Schema", "\"olm.bundle\""),
                ("NAME", "\"b\""),
                ("package", "\"p\""),
            ]),
            &loc(),
            &mut w,
        )
        .unwrap();
        match b {
            Blob::Bundle(b) => {
                assert_eq!(b.name, "b");
                assert_eq!(b.package, "p");
            }
            other => panic!("{other:?}"),
        }
        assert!(w.is_empty());
    }

    #[test]
    fn folded_duplicates_are_rejected() {
        let e = to_blob(
            doc(&[("schema", "\"x\""), ("name", "\"a\""), ("Name", "\"b\"")]),
            &loc(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(
            e,
            BlobError::DuplicateKeys(vec![FoldedKeys {
                folded: "name".into(),
                keys: vec!["Name".into(), "name".into()]
            }])
        );
        assert_eq!(
            e.to_string(),
            "duplicate keys for key \"name\": [Name name]"
        );
        let two = to_blob(
            doc(&[
                ("A", "1"),
                ("a", "2"),
                ("b", "3"),
                ("B", "4"),
                ("schema", "\"x\""),
            ]),
            &loc(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(
            two.to_string(),
            "[duplicate keys for key \"a\": [A a], duplicate keys for key \"b\": [B b]]"
        );
    }

    #[test]
    fn missing_schema() {
        let e = to_blob(doc(&[("name", "\"a\"")]), &loc(), &mut Vec::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "object '{\"name\":\"a\"}\n' is missing root schema field"
        );
        let e = to_blob(doc(&[]), &loc(), &mut Vec::new()).unwrap_err();
        assert_eq!(e, BlobError::MissingSchema("{}\n".to_owned()));
        assert_eq!(e.to_string(), "object '{}\n' is missing root schema field");
        // Re-encoded as Go's encoder writes it: keys sorted, numbers as float64,
        // no HTML escaping.
        let e = to_blob(
            doc(&[("z", "1.0"), ("a", "[1e21, \"<&>\"]"), ("schema", "\"\"")]),
            &loc(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "object '{\"a\":[1e+21,\"<&>\"],\"schema\":\"\",\"z\":1}\n' is missing root schema field"
        );
    }

    #[test]
    fn non_string_schema() {
        let e = to_blob(doc(&[("schema", "1")]), &loc(), &mut Vec::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected value for key \"schema\" to be a string, got %!t(float64=1): 1"
        );
        let e = to_blob(doc(&[("schema", "{}")]), &loc(), &mut Vec::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected value for key \"schema\" to be a string, got map[]: map[]"
        );
        let e = to_blob(doc(&[("name", "[1, \"a\"]")]), &loc(), &mut Vec::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected value for key \"name\" to be a string, got [%!t(float64=1) %!t(string=a)]: [1 a]"
        );
        // Read as YAML, the error has sigs.k8s.io/yaml's wrapping.
        let mut yaml = doc(&[("schema", "null")]);
        yaml.from_yaml = true;
        let e = to_blob(yaml, &loc(), &mut Vec::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "error unmarshaling JSON: while decoding JSON: expected value for key \"schema\" to be a string, got %!t(<nil>): <nil>"
        );
        assert_eq!(e.rule(), Rule::MissingSchema);
    }

    #[test]
    fn properties_without_type_or_value_load_with_a_warning() {
        let mut w = Vec::new();
        let b = to_blob(
            doc(&[
                ("schema", "\"olm.bundle\""),
                ("name", "\"b\""),
                ("package", "\"p\""),
                (
                    "properties",
                    r#"[{"value":1}, {"type":"x"}, null, {"type":"y","value":null}]"#,
                ),
            ]),
            &loc(),
            &mut w,
        )
        .unwrap();
        let Blob::Bundle(b) = b else {
            panic!("a bundle")
        };
        assert_eq!(b.properties.len(), 4);
        assert!(b.properties[1].value.is_missing());
        assert!(!b.properties[3].value.is_missing());
        let texts: Vec<&str> = w.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            texts,
            [
                "properties[0]: type must be set; opm loads a property without a type (only bundle validation checks it)",
                "properties[1] of type \"x\": value must be set; opm loads it, then fails the bundle with unexpected end of JSON input",
                "properties[2]: type must be set; opm loads a property without a type (only bundle validation checks it)",
            ]
        );
        assert!(w
            .iter()
            .all(|d| d.rule == Rule::IncompleteProperty && !d.is_error()));
    }

    #[test]
    fn bundle_objects_are_read_when_loading() {
        let e = to_blob(
            doc(&[
                ("schema", "\"olm.bundle\""),
                ("name", "\"b\""),
                ("package", "\"p\""),
                ("properties", r#"[{"type":"olm.gvk","value":{}},{"type":"olm.bundle.object","value":{"data":"e30*"}}]"#),
            ]),
            &loc(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "read bundle objects: package \"p\", bundle \"b\": parse property at index 1 as bundle object: json: cannot unmarshal string into Go struct field BundleObject.data of type []uint8: illegal base64 data at input byte 3"
        );
        assert_eq!(e.rule(), Rule::InvalidBlob);
    }

    #[test]
    fn others_keep_everything_sorted() {
        let b = to_blob(
            doc(&[
                ("schema", "\"my.thing\""),
                ("z", "1"),
                ("a", r#"{"y":1,"b":2}"#),
            ]),
            &loc(),
            &mut Vec::new(),
        )
        .unwrap();
        match b {
            Blob::Other(m) => assert_eq!(
                m.blob.get(),
                r#"{"a":{"b":2,"y":1},"schema":"my.thing","z":1}"#
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unknown_fields_warn() {
        let mut w = Vec::new();
        to_blob(
            doc(&[
                ("schema", "\"olm.package\""),
                ("name", "\"p\""),
                ("defaultChanel", "\"x\""),
            ]),
            &loc(),
            &mut w,
        )
        .unwrap();
        assert_eq!(w.len(), 1);
        assert!(w[0].message.contains("defaultChanel"));
    }
}
