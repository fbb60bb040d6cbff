//! The basic template (`schema: olm.template.basic`): catalog blobs passed
//! through, and bundle image references replaced by the bundles rendered from
//! them.

use serde_json::Value;

use crate::doc::{go_type, member, TemplateDoc};
use crate::entries::{entry_location, load_entries};
use crate::error::{Failure, TemplateError};
use crate::source::{BundleSources, LookupOptions};
use crate::Rendered;
use olmsat_catalog::declcfg::{Bundle, DeclarativeConfig};

/// The schema of basic templates.
pub const SCHEMA: &str = "olm.template.basic";

/// The `entries` of a basic (or substitutes) template document, checked as
/// opm's lenient decoding does.
pub fn entries_of(
    doc: &TemplateDoc,
    wrap: fn(String) -> TemplateError,
) -> Result<(&str, &[Value]), Failure> {
    let at = |e| Failure::at(e, &doc.location);
    let obj = match &doc.value {
        Value::Object(o) => o,
        Value::Null => return Ok(("", &[])),
        other => {
            return Err(at(wrap(format!(
                "json: cannot unmarshal {} into Go value of type struct",
                go_type(other)
            ))))
        }
    };
    let schema = match member(obj, "schema") {
        None | Some(Value::Null) => "",
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            return Err(at(wrap(format!(
                "json: cannot unmarshal {} into Go struct field .schema of type string",
                go_type(other)
            ))))
        }
    };
    let entries: &[Value] = match member(obj, "entries") {
        None | Some(Value::Null) => &[],
        Some(Value::Array(a)) => a,
        Some(other) => {
            return Err(at(wrap(format!(
                "json: cannot unmarshal {} into Go struct field .entries of type []*declcfg.Meta",
                go_type(other)
            ))))
        }
    };
    for (i, e) in entries.iter().enumerate() {
        if !(e.is_object() || e.is_null()) {
            return Err(Failure::at(
                wrap(format!(
                    "json: cannot unmarshal {} into Go value of type declcfg.Meta",
                    go_type(e)
                )),
                &entry_location(doc, &["entries"], i),
            ));
        }
    }
    Ok((schema, entries))
}

/// Whether a bundle entry is a plain reference: an image, and no package,
/// properties or related images (a name is not checked).
fn is_reference(b: &Bundle) -> bool {
    !b.image.is_empty()
        && b.package.is_empty()
        && b.properties.is_empty()
        && b.related_images.is_empty()
}

/// Render a basic template.
pub fn render(
    doc: &TemplateDoc,
    sources: &BundleSources,
    opts: LookupOptions,
) -> Result<Rendered, Failure> {
    let (schema, entries) = entries_of(doc, TemplateError::BasicUnmarshal)?;
    if schema != SCHEMA {
        return Err(Failure::at(
            TemplateError::BasicSchema(schema.to_owned()),
            &doc.location,
        ));
    }
    let (mut cfg, mut warnings) = load_entries(doc, entries, "entries", TemplateError::Entry)?;
    let refs = std::mem::take(&mut cfg.bundles);
    for r in &refs {
        if !is_reference(r) {
            return Err(Failure::at(TemplateError::BasicBundleFields, &r.location));
        }
    }
    for r in &refs {
        let (bundles, w) = sources
            .render(&r.image, opts, &r.location)
            .map_err(|e| Failure::at(e, &r.location))?;
        warnings.extend(w);
        cfg.bundles.extend(bundles);
    }
    Ok(Rendered {
        config: cfg,
        warnings,
    })
}

/// `convert-template basic`: a catalog back into a basic template, every
/// bundle reduced to `{schema: olm.bundle, image}`; other blobs unchanged. The
/// result is one JSON value (`{"schema","entries"}`) in the catalog's blob order
/// as the writer orders blobs.
pub fn from_catalog(cfg: &DeclarativeConfig) -> Result<Value, std::io::Error> {
    let mut text = Vec::new();
    olmsat_catalog::write::write(cfg, olmsat_catalog::write::Format::Json, &mut text)?;
    let mut entries = Vec::new();
    for v in serde_json::Deserializer::from_slice(&text).into_iter::<Value>() {
        let v = v.map_err(std::io::Error::other)?;
        if v.get("schema").and_then(Value::as_str) == Some(olmsat_catalog::declcfg::schema::BUNDLE)
        {
            let mut m = serde_json::Map::new();
            m.insert(
                "image".into(),
                v.get("image")
                    .cloned()
                    .unwrap_or(Value::String(String::new())),
            );
            m.insert(
                "schema".into(),
                Value::String(olmsat_catalog::declcfg::schema::BUNDLE.into()),
            );
            entries.push(Value::Object(m));
        } else {
            entries.push(v);
        }
    }
    let mut top = serde_json::Map::new();
    top.insert("entries".into(), Value::Array(entries));
    top.insert("schema".into(), Value::String(SCHEMA.into()));
    Ok(Value::Object(top))
}
