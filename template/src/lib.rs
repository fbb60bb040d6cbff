//! # olmsat-template
//!
//! Catalog templates, rendered offline as `opm alpha render-template` renders
//! them: [`basic`] (`olm.template.basic`), [`semver`] (`olm.semver`) and
//! [`substitutes`] (`olm.template.substitutes`).
//!
//! Templates name bundle *images*, which opm pulls. olmsat never pulls: each
//! image is looked up in an ordered list of [`source::BundleSources`]
//! (catalogs, bundle directories). The result is a [`DeclarativeConfig`], to be
//! written with [`olmsat_catalog::write`] like any catalog.
//!
//! Errors carry opm's texts ([`error::TemplateError`]) and the template file and
//! line of the entry at fault ([`error::Failure`]).
//!
//! ```
//! use olmsat_template::{render_text, source::{BundleSources, CatalogSource}, Options};
//! let catalog = olmsat_catalog::load::load_bytes("cat.yaml", br#"
//! schema: olm.bundle
//! name: op.v1.0.0
//! package: op
//! image: quay.io/x/op:1.0.0
//! properties:
//! - type: olm.package
//!   value: {packageName: op, version: 1.0.0}
//! "#);
//! let mut sources = BundleSources::new();
//! sources.push(Box::new(CatalogSource::new("cat.yaml", catalog.config)));
//! let template = "schema: olm.semver\nstable:\n  bundles:\n  - image: quay.io/x/op:1.0.0\n";
//! let out = render_text("t.yaml", template, None, &sources, &Options::default()).unwrap();
//! assert_eq!(out.config.packages[0].default_channel, "stable-v1.0");
//! ```

#![deny(missing_docs)]

pub mod basic;
pub mod doc;
mod entries;
pub mod error;
pub mod request;
pub mod semver;
pub use semver::Linking;
pub mod source;
pub mod substitutes;

use serde_json::Value;

use doc::{first_document, member, TemplateDoc};
use error::{DetectError, Failure, TemplateError};
use olmsat_catalog::declcfg::DeclarativeConfig;
use olmsat_findings::diagnostic::Diagnostic;
use source::{BundleSources, LookupOptions};

/// The template types, by their `render-template` TYPE name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TemplateKind {
    /// `basic` (`olm.template.basic`)
    Basic,
    /// `semver` (`olm.semver`)
    Semver,
    /// `substitutes` (`olm.template.substitutes`)
    Substitutes,
}

impl TemplateKind {
    /// All, sorted by name.
    pub const ALL: [TemplateKind; 3] = [
        TemplateKind::Basic,
        TemplateKind::Semver,
        TemplateKind::Substitutes,
    ];

    /// The TYPE name: the text after the schema's last `.`.
    pub fn name(self) -> &'static str {
        match self {
            TemplateKind::Basic => "basic",
            TemplateKind::Semver => "semver",
            TemplateKind::Substitutes => "substitutes",
        }
    }

    /// The schema of the template's document.
    pub fn schema(self) -> &'static str {
        match self {
            TemplateKind::Basic => basic::SCHEMA,
            TemplateKind::Semver => semver::SCHEMA,
            TemplateKind::Substitutes => substitutes::SCHEMA,
        }
    }

    /// The type named `name`, if registered.
    pub fn from_name(name: &str) -> Option<TemplateKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The type whose schema is `schema`, if registered.
    pub fn from_schema(schema: &str) -> Option<TemplateKind> {
        Self::ALL.into_iter().find(|k| k.schema() == schema)
    }

    /// Parse a TYPE argument (opm's `invalid template type` error otherwise).
    pub fn parse(name: &str) -> Result<TemplateKind, TemplateError> {
        Self::from_name(name).ok_or_else(|| TemplateError::InvalidType(name.to_owned()))
    }
}

/// How to render.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// How bundles are taken from the sources.
    pub lookup: LookupOptions,
    /// How the semver template links its entries.
    pub linking: semver::Linking,
}

/// A rendered template: the catalog and the warnings met on the way.
#[derive(Debug, Default)]
pub struct Rendered {
    /// The catalog.
    pub config: DeclarativeConfig,
    /// Warnings (several sources holding an image, a package without icon...).
    pub warnings: Vec<Diagnostic>,
}

/// The template type of a first document, from its `schema` (opm's detection).
pub fn detect(doc: &TemplateDoc) -> Result<TemplateKind, DetectError> {
    let obj = match &doc.value {
        Value::Object(o) => o,
        Value::Null => return Err(DetectError::MissingSchema),
        other => {
            return Err(DetectError::Unmarshal(format!(
                "json: cannot unmarshal {} into Go value of type struct {{ Schema string \"json:\\\"schema\\\"\" }}",
                doc::go_type(other)
            )))
        }
    };
    let schema = match member(obj, "schema") {
        None | Some(Value::Null) => "",
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            return Err(DetectError::Unmarshal(format!(
                "json: cannot unmarshal {} into Go struct field .schema of type string",
                doc::go_type(other)
            )))
        }
    };
    if schema.is_empty() {
        return Err(DetectError::MissingSchema);
    }
    TemplateKind::from_schema(schema).ok_or_else(|| DetectError::UnknownSchema(schema.to_owned()))
}

/// Whether `text` is a template: its first document has a template schema.
pub fn is_template(text: &str) -> bool {
    first_document("", text).is_ok_and(|d| detect(&d).is_ok())
}

/// Render a template document of type `kind`.
pub fn render(
    kind: TemplateKind,
    doc: &TemplateDoc,
    sources: &BundleSources,
    opts: &Options,
) -> Result<Rendered, Failure> {
    match kind {
        TemplateKind::Basic => basic::render(doc, sources, opts.lookup),
        TemplateKind::Semver => semver::render(doc, sources, opts),
        TemplateKind::Substitutes => substitutes::render(doc, sources, opts.lookup),
    }
}

/// Read the template text `text` (named `file` in locations), detect its type
/// unless `kind` is given, and render it.
pub fn render_text(
    file: &str,
    text: &str,
    kind: Option<TemplateKind>,
    sources: &BundleSources,
    opts: &Options,
) -> Result<Rendered, Failure> {
    let doc = first_document(file, text);
    let kind = match kind {
        Some(k) => k,
        None => {
            let d = doc.as_ref().map_err(|e| {
                Failure::from(TemplateError::Detect(DetectError::Decode(e.0.clone())))
            })?;
            detect(d).map_err(|e| Failure::at(TemplateError::Detect(e), &d.location))?
        }
    };
    let doc = doc.map_err(|e| {
        Failure::from(match kind {
            TemplateKind::Basic => TemplateError::BasicDecode(e.0),
            TemplateKind::Semver => TemplateError::SemverRead(error::SemverReadError::Decode(e.0)),
            TemplateKind::Substitutes => TemplateError::SubstitutesParse(e.0),
        })
    })?;
    render(kind, &doc, sources, opts)
}

// The README's example, run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
