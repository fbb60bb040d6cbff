//! Typed values of the `olm.*` property types, parsed as opm's `property.Parse` does.
//!
//! Parsing never loses anything: the raw value stays on the [`Property`]; this module
//! only interprets it. Types olmsat does not know are [`PropertyValue::Other`].

use std::fmt;

use crate::declcfg::Property;
use base64::Engine as _;
use olmsat_encoding::rawjson::{is_null, json_kind, unmarshal_error, GoJsonError, Object, RawJson};

/// Why a property's value does not decode into opm's Go type for its type:
/// Go's `encoding/json` text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PropertyError {
    /// The value is not of the Go type's shape.
    #[error(transparent)]
    Json(#[from] GoJsonError),
    /// An `olm.bundle.object`'s `data` that is not base64.
    #[error(
        "json: cannot unmarshal string into Go struct field BundleObject.data of type []uint8: {0}"
    )]
    BundleObjectData(#[source] Base64Error),
}

/// Base64 Go's `base64.StdEncoding` refuses, in its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal base64 data at input byte {at}")]
pub struct Base64Error {
    /// The offset of the first byte that is not valid there.
    pub at: usize,
}

/// A property of a list that does not decode: opm's
/// `parse property[i] of type "t": …`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("parse property[{index}] of type {type_:?}: {error}")]
pub struct PropertyAtError {
    /// The property's index in its list.
    pub index: usize,
    /// The property's type.
    pub type_: String,
    /// Why its value does not decode.
    #[source]
    pub error: PropertyError,
}

/// Property type names.
pub mod types {
    /// `olm.package`: the bundle's package, version and optional release.
    pub const PACKAGE: &str = "olm.package";
    /// `olm.package.required`: a dependency on a package version range.
    pub const PACKAGE_REQUIRED: &str = "olm.package.required";
    /// `olm.gvk`: an API the bundle provides.
    pub const GVK: &str = "olm.gvk";
    /// `olm.gvk.required`: an API the bundle requires.
    pub const GVK_REQUIRED: &str = "olm.gvk.required";
    /// `olm.channel`: legacy channel membership.
    pub const CHANNEL: &str = "olm.channel";
    /// `olm.skips`: legacy skips.
    pub const SKIPS: &str = "olm.skips";
    /// `olm.skipRange`: legacy skip range.
    pub const SKIP_RANGE: &str = "olm.skipRange";
    /// `olm.bundle.object`: a base64-encoded manifest.
    pub const BUNDLE_OBJECT: &str = "olm.bundle.object";
    /// `olm.csv.metadata`: the CSV's metadata.
    pub const CSV_METADATA: &str = "olm.csv.metadata";
    /// `olm.constraint`: a generic constraint (kept raw for the resolver).
    pub const CONSTRAINT: &str = "olm.constraint";
    /// `olm.label`: a label the bundle carries.
    pub const LABEL: &str = "olm.label";
    /// `olm.label.required`: a label the bundle requires of a dependency.
    pub const LABEL_REQUIRED: &str = "olm.label.required";
    /// `olm.deprecated`: legacy marker that prohibits a bundle in OLM v0.
    pub const DEPRECATED: &str = "olm.deprecated";
    /// Every type olmsat knows, for typo detection.
    pub const KNOWN: &[&str] = &[
        PACKAGE,
        PACKAGE_REQUIRED,
        GVK,
        GVK_REQUIRED,
        CHANNEL,
        SKIPS,
        SKIP_RANGE,
        BUNDLE_OBJECT,
        CSV_METADATA,
        CONSTRAINT,
        LABEL,
        LABEL_REQUIRED,
        DEPRECATED,
        "olm.maxOpenShiftVersion",
        "olm.substitutesFor",
    ];
}

/// A group/version/kind triple.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Gvk {
    /// API group.
    pub group: String,
    /// API version.
    pub version: String,
    /// Kind.
    pub kind: String,
}

impl fmt::Display for Gvk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.group, self.version, self.kind)
    }
}

/// The interpreted value of one property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PropertyValue {
    /// `olm.package`
    Package {
        /// Package name.
        package_name: String,
        /// Version text (parsed later, so its error can be reported as opm does).
        version: String,
        /// Release text, empty when absent.
        release: String,
    },
    /// `olm.package.required`
    PackageRequired {
        /// Required package.
        package_name: String,
        /// blang range text.
        version_range: String,
    },
    /// `olm.gvk`
    Gvk(Gvk),
    /// `olm.gvk.required`
    GvkRequired(Gvk),
    /// `olm.channel`
    Channel {
        /// Channel name.
        channel_name: String,
    },
    /// `olm.skips`
    Skips(String),
    /// `olm.skipRange`
    SkipRange(String),
    /// `olm.bundle.object` (the base64 text; decode with [`decode_bundle_object`]).
    BundleObject(String),
    /// `olm.csv.metadata` (the value stays raw on the property).
    CsvMetadata,
    /// `olm.constraint` (raw; interpreted by the resolver).
    Constraint,
    /// `olm.label`
    Label(String),
    /// `olm.label.required`
    LabelRequired(String),
    /// `olm.deprecated`
    Deprecated,
    /// Any other type (raw).
    Other,
}

/// The string values of `keys` in `json`, an object (valid JSON), when it has
/// only those keys, spelled exactly and each at most once, and every value is a
/// string without escapes; `None` for anything else, which the general reader
/// then reads (Go's case-insensitive keys, last one wins, `null`, errors).
fn plain_string_members<'v, const N: usize>(
    json: &'v str,
    keys: [&str; N],
) -> Option<[Option<&'v str>; N]> {
    let b = json.as_bytes();
    let mut i = 0;
    let ws = |i: &mut usize| {
        while b
            .get(*i)
            .is_some_and(|c| matches!(c, b' ' | b'\n' | b'\r' | b'\t'))
        {
            *i += 1;
        }
    };
    // A string without escapes starting at `i` (a quote); its text.
    let string = |i: &mut usize| -> Option<&'v str> {
        if b.get(*i) != Some(&b'"') {
            return None;
        }
        let start = *i + 1;
        let end = start + memchr::memchr2(b'"', b'\\', b.get(start..)?)?;
        if b[end] != b'"' {
            return None;
        }
        *i = end + 1;
        json.get(start..end)
    };
    let mut out = [None; N];
    ws(&mut i);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        ws(&mut i);
        let key = string(&mut i)?;
        let slot = keys.iter().position(|k| *k == key)?;
        ws(&mut i);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
        ws(&mut i);
        if out[slot].replace(string(&mut i)?).is_some() {
            return None;
        }
        ws(&mut i);
        match b.get(i) {
            Some(b',') => i += 1,
            Some(b'}') => break,
            _ => return None,
        }
    }
    i += 1;
    ws(&mut i);
    (i == b.len()).then_some(out)
}

/// The members of an `olm.package` value in its usual form, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlainPackage<'v> {
    /// `packageName` (empty when absent).
    pub package_name: &'v str,
    /// `version` (empty when absent).
    pub version: &'v str,
    /// `release` (empty when absent).
    pub release: &'v str,
}

/// What [`parse`] reads from `p`, an `olm.package` property, when its value
/// has only the members `packageName`, `version` and `release`, each a
/// string without escapes; `None` for any other property or form (which
/// [`parse`] reads, or refuses, as opm does).
pub fn plain_package(p: &Property) -> Option<PlainPackage<'_>> {
    if p.type_ != types::PACKAGE {
        return None;
    }
    let [name, version, release] =
        plain_string_members(p.value.get(), ["packageName", "version", "release"])?;
    Some(PlainPackage {
        package_name: name.unwrap_or_default(),
        version: version.unwrap_or_default(),
        release: release.unwrap_or_default(),
    })
}

/// Parse one property the way opm does; the error is the text after
/// `parse property[i] of type "t": `.
pub fn parse(p: &Property) -> Result<PropertyValue, PropertyError> {
    let v = &p.value;
    if v.is_missing() {
        // Go decodes the empty `json.RawMessage` of an absent value.
        return Err(GoJsonError::UnexpectedEnd.into());
    }
    Ok(match p.type_.as_str() {
        types::PACKAGE => {
            // The usual form, read without building the object.
            if let Some(PlainPackage {
                package_name,
                version,
                release,
            }) = plain_package(p)
            {
                return Ok(PropertyValue::Package {
                    package_name: package_name.to_owned(),
                    version: version.to_owned(),
                    release: release.to_owned(),
                });
            }
            let o = Object::parse(v, "property.Package")?;
            PropertyValue::Package {
                package_name: o
                    .string("packageName", "Package.packageName")?
                    .unwrap_or_default(),
                version: o.string("version", "Package.version")?.unwrap_or_default(),
                release: o.string("release", "Package.release")?.unwrap_or_default(),
            }
        }
        types::PACKAGE_REQUIRED => {
            let o = Object::parse(v, "property.PackageRequired")?;
            PropertyValue::PackageRequired {
                package_name: o
                    .string("packageName", "PackageRequired.packageName")?
                    .unwrap_or_default(),
                version_range: o
                    .string("versionRange", "PackageRequired.versionRange")?
                    .unwrap_or_default(),
            }
        }
        types::GVK => PropertyValue::Gvk(parse_gvk(v, "GVK")?),
        types::GVK_REQUIRED => PropertyValue::GvkRequired(parse_gvk(v, "GVKRequired")?),
        types::CHANNEL => {
            let o = Object::parse(v, "property.Channel")?;
            if let Some(raw) = o.get("priority") {
                if !is_null(raw) && json_kind(raw) != "number" {
                    return Err(unmarshal_error(raw, "Channel.priority", "int").into());
                }
            }
            PropertyValue::Channel {
                channel_name: o
                    .string("channelName", "Channel.channelName")?
                    .unwrap_or_default(),
            }
        }
        types::SKIPS => PropertyValue::Skips(plain_string(v, "property.Skips")?),
        types::SKIP_RANGE => PropertyValue::SkipRange(plain_string(v, "property.SkipRange")?),
        types::BUNDLE_OBJECT => {
            let o = Object::parse(v, "property.BundleObject")?;
            let data = match o.get("data") {
                None => String::new(),
                Some(raw) if is_null(raw) => String::new(),
                Some(raw) if json_kind(raw) != "string" => {
                    return Err(unmarshal_error(raw, "BundleObject.data", "[]uint8").into())
                }
                Some(raw) => serde_json::from_str::<String>(raw).map_err(GoJsonError::from)?,
            };
            decode_go_base64(&data).map_err(PropertyError::BundleObjectData)?;
            PropertyValue::BundleObject(data)
        }
        types::CSV_METADATA => {
            Object::check(v, "property.CSVMetadata")?;
            PropertyValue::CsvMetadata
        }
        types::CONSTRAINT => PropertyValue::Constraint,
        types::LABEL => {
            let o = Object::parse(v, "property.Label")?;
            PropertyValue::Label(o.string("label", "Label.label")?.unwrap_or_default())
        }
        types::LABEL_REQUIRED => {
            let o = Object::parse(v, "property.LabelRequired")?;
            PropertyValue::LabelRequired(
                o.string("label", "LabelRequired.label")?
                    .unwrap_or_default(),
            )
        }
        types::DEPRECATED => PropertyValue::Deprecated,
        _ => PropertyValue::Other,
    })
}

fn parse_gvk(v: &RawJson, go: &str) -> Result<Gvk, GoJsonError> {
    let o = Object::parse(v, &format!("property.{go}"))?;
    Ok(Gvk {
        group: o
            .string("group", &format!("{go}.group"))?
            .unwrap_or_default(),
        version: o
            .string("version", &format!("{go}.version"))?
            .unwrap_or_default(),
        kind: o.string("kind", &format!("{go}.kind"))?.unwrap_or_default(),
    })
}

fn plain_string(v: &RawJson, go: &str) -> Result<String, GoJsonError> {
    if is_null(v) {
        return Ok(String::new());
    }
    if json_kind(v) != "string" {
        return Err(GoJsonError::ValueType {
            kind: json_kind(v),
            go_type: go.to_owned(),
        });
    }
    Ok(serde_json::from_str::<String>(v.get())?)
}

/// Decode base64 as Go's `encoding/json` decodes a `[]byte` field
/// (`base64.StdEncoding`): padding required, `\r` and `\n` skipped, non-zero
/// trailing bits accepted. The error is Go's text.
pub fn decode_go_base64(data: &str) -> Result<Vec<u8>, Base64Error> {
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const GO_STD: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
    );
    let cleaned: std::borrow::Cow<'_, str> =
        if memchr::memchr2(b'\r', b'\n', data.as_bytes()).is_some() {
            data.chars()
                .filter(|c| *c != '\r' && *c != '\n')
                .collect::<String>()
                .into()
        } else {
            data.into()
        };
    GO_STD.decode(cleaned.as_bytes()).map_err(|e| {
        let at = match e {
            base64::DecodeError::InvalidByte(at, _)
            | base64::DecodeError::InvalidLastSymbol(at, _)
            | base64::DecodeError::InvalidLength(at) => at,
            base64::DecodeError::InvalidPadding => cleaned.len(),
        };
        Base64Error { at }
    })
}

/// Decode the manifest carried by an `olm.bundle.object` value.
pub fn decode_bundle_object(data: &str) -> Option<Vec<u8>> {
    decode_go_base64(data).ok()
}

/// Parse all properties of a blob; the error is opm's
/// `parse property[i] of type "t": ...`.
pub fn parse_all(props: &[Property]) -> Result<Vec<PropertyValue>, PropertyAtError> {
    // Allocated at its final size: collecting `Result`s would start at four
    // values, and a bundle often has one or two.
    let mut values = Vec::with_capacity(props.len());
    for (i, p) in props.iter().enumerate() {
        values.push(parse(p).map_err(|error| PropertyAtError {
            index: i,
            type_: p.type_.clone(),
            error,
        })?);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use olmsat_encoding::rawjson::raw_from_string;
    use proptest::prelude::*;

    /// The general reading of an `olm.package` value.
    fn general_package(v: &str) -> Result<PropertyValue, PropertyError> {
        let raw = raw_from_string(v.to_owned());
        let o = Object::parse(&raw, "property.Package")?;
        Ok(PropertyValue::Package {
            package_name: o
                .string("packageName", "Package.packageName")?
                .unwrap_or_default(),
            version: o.string("version", "Package.version")?.unwrap_or_default(),
            release: o.string("release", "Package.release")?.unwrap_or_default(),
        })
    }

    proptest! {
        /// Whatever the plain reading of a package value gives, the general
        /// reading gives too.
        #[test]
        fn plain_package_values_read_as_the_general_reader_reads_them(
            members in proptest::collection::vec(
                (
                    prop_oneof![
                        Just("packageName"), Just("version"), Just("release"),
                        Just("Version"), Just("other"),
                    ],
                    prop_oneof![
                        4 => "\"[a-z0-9.+-]{0,8}\"",
                        1 => Just("\"a\\u0062\"".to_owned()),
                        1 => Just("null".to_owned()),
                        1 => Just("1".to_owned()),
                    ],
                ),
                0..5,
            ),
            pretty in any::<bool>(),
        ) {
            let sep = if pretty { ",\n    " } else { "," };
            let inner: Vec<String> = members.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
            let text = format!("{{{}}}", inner.join(sep));
            let p = Property { type_: types::PACKAGE.to_owned(), value: raw_from_string(text.clone()) };
            if plain_string_members(&text, ["packageName", "version", "release"]).is_some() {
                prop_assert_eq!(parse(&p), general_package(&text));
            }
        }
    }

    #[test]
    fn plain_members_decline_the_unusual() {
        let keys = ["packageName", "version", "release"];
        assert_eq!(
            plain_string_members(r#" { "version" : "1.0.0" , "packageName":"p" } "#, keys),
            Some([Some("p"), Some("1.0.0"), None])
        );
        for text in [
            r#"{}"#,
            r#"{"version": "1", "version": "2"}"#,
            r#"{"Version": "1"}"#,
            r#"{"version": "a\u0062"}"#,
            r#"{"version": null}"#,
            r#"{"version": 1}"#,
            r#"{"other": "x"}"#,
        ] {
            assert_eq!(plain_string_members(text, keys), None, "{text}");
        }
    }

    fn prop(t: &str, v: &str) -> Property {
        Property {
            type_: t.to_owned(),
            value: raw_from_string(v.to_owned()),
        }
    }

    #[test]
    fn parses_package_and_gvk() {
        let p = parse(&prop(
            "olm.package",
            r#"{"packageName":"etcd","version":"0.9.4"}"#,
        ))
        .unwrap();
        assert_eq!(
            p,
            PropertyValue::Package {
                package_name: "etcd".into(),
                version: "0.9.4".into(),
                release: String::new()
            }
        );
        let g = parse(&prop(
            "olm.gvk",
            r#"{"group":"g","Kind":"K","version":"v1"}"#,
        ))
        .unwrap();
        assert_eq!(
            g,
            PropertyValue::Gvk(Gvk {
                group: "g".into(),
                version: "v1".into(),
                kind: "K".into()
            })
        );
    }

    #[test]
    fn errors_name_the_index_and_type() {
        let err = parse_all(&[
            prop("olm.gvk", r#"{"group":"g","kind":"K","version":"v1"}"#),
            prop("olm.package", r#"{"packageName":3}"#),
        ])
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "parse property[1] of type \"olm.package\": json: cannot unmarshal number into Go struct field Package.packageName of type string"
        );
    }

    #[test]
    fn bundle_object_must_be_base64() {
        assert!(parse(&prop("olm.bundle.object", r#"{"data":"e30="}"#)).is_ok());
        let e = parse(&prop("olm.bundle.object", r#"{"data":"e30*"}"#)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "json: cannot unmarshal string into Go struct field BundleObject.data of type []uint8: illegal base64 data at input byte 3"
        );
        assert_eq!(decode_bundle_object("e30=").unwrap(), b"{}");
    }

    #[test]
    fn a_missing_value_fails_and_null_is_the_zero_value() {
        let missing = Property {
            type_: "x.y".into(),
            value: RawJson::missing(),
        };
        assert_eq!(
            parse(&missing).unwrap_err().to_string(),
            "unexpected end of JSON input"
        );
        assert_eq!(missing.value.get(), "null");
        assert_eq!(
            parse(&prop("olm.package", "null")).unwrap(),
            PropertyValue::Package {
                package_name: String::new(),
                version: String::new(),
                release: String::new(),
            }
        );
    }

    #[test]
    fn unknown_types_are_other() {
        assert_eq!(
            parse(&prop("x.y", r#"[1,2]"#)).unwrap(),
            PropertyValue::Other
        );
    }
}
