//! The substitutes template (`schema: olm.template.substitutes`): complete
//! catalog blobs, and substitutions that let a rebuilt bundle (same version,
//! higher release) take over the graph position of its base bundle.

use serde_json::Value;

use crate::basic::entries_of;
use crate::doc::{member, TemplateDoc};
use crate::entries::{entry_location, load_entries};
use crate::error::{Failure, SubstitutionError, TemplateError};
use crate::source::{BundleSources, LookupOptions};
use crate::Rendered;
use olmsat_catalog::declcfg::{Bundle, ChannelEntry, DeclarativeConfig};
use olmsat_catalog::load::Loaded;
use olmsat_catalog::property::{self, types, PropertyValue};
use olmsat_encoding::location::Location;
use olmsat_versions::version::{self, VersionRelease};

/// The schema of substitutes templates.
pub const SCHEMA: &str = "olm.template.substitutes";

/// One `{name, base}` of `substitutions`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Substitution {
    /// The substitute's bundle image.
    pub name: String,
    /// The name of the bundle it takes over from.
    pub base: String,
    /// Where it is in the template.
    pub location: Location,
}

/// A copy of a config (its blobs are cloneable one by one).
pub fn clone_config(c: &DeclarativeConfig) -> DeclarativeConfig {
    DeclarativeConfig {
        packages: c.packages.clone(),
        channels: c.channels.clone(),
        bundles: c.bundles.clone(),
        deprecations: c.deprecations.clone(),
        others: c.others.clone(),
    }
}

/// The first validation error of a config, if any (opm's model validation).
fn first_invalidity(cfg: &DeclarativeConfig) -> Option<String> {
    let (_, report) = olmsat_catalog::validate::validate(Loaded {
        config: clone_config(cfg),
        diagnostics: Vec::new(),
        files: 0,
        notes: Vec::new(),
    });
    report.errors.first().map(|d| d.message.clone())
}

fn substitutions_of(doc: &TemplateDoc) -> Result<Vec<Substitution>, Failure> {
    let parse = |m: String| Failure::at(TemplateError::SubstitutesParse(m), &doc.location);
    let Value::Object(obj) = &doc.value else {
        return Ok(Vec::new());
    };
    let list = match member(obj, "substitutions") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(a)) => a,
        Some(_) => return Err(parse("substitutions must be a list of {name, base}".into())),
    };
    let mut out = Vec::new();
    for (i, s) in list.iter().enumerate() {
        let text = |k: &str| match s
            .get(k)
            .or_else(|| s.as_object().and_then(|o| member(o, k)))
        {
            Some(Value::String(t)) => Ok(t.clone()),
            None | Some(Value::Null) => Ok(String::new()),
            Some(_) => Err(parse(format!("substitution {k} must be a string"))),
        };
        if !(s.is_object() || s.is_null()) {
            return Err(parse("substitutions must be a list of {name, base}".into()));
        }
        out.push(Substitution {
            name: text("name")?,
            base: text("base")?,
            location: entry_location(doc, &["substitutions"], i),
        });
    }
    Ok(out)
}

fn version_release(b: &Bundle) -> Option<VersionRelease> {
    b.properties
        .iter()
        .filter(|p| p.type_ == types::PACKAGE)
        .find_map(|p| match property::parse(p) {
            Ok(PropertyValue::Package {
                version, release, ..
            }) => Some(VersionRelease {
                version: version::parse_strict(&version).ok()?,
                release: version::parse_release(&release).ok()?,
            }),
            _ => None,
        })
}

/// Apply one substitution to `cfg`.
fn substitute(
    cfg: &mut DeclarativeConfig,
    s: &Substitution,
    sources: &BundleSources,
    opts: LookupOptions,
    warnings: &mut Vec<crate::Diagnostic>,
) -> Result<(), SubstitutionError> {
    if s.name.is_empty() {
        return Err(SubstitutionError::EmptyName);
    }
    if s.base.is_empty() {
        return Err(SubstitutionError::EmptyBase);
    }
    if s.name == s.base {
        return Err(SubstitutionError::Same);
    }
    let (mut rendered, w) = sources
        .render(&s.name, opts, &s.location)
        .map_err(|e| SubstitutionError::Render(s.name.clone(), e.to_string()))?;
    warnings.extend(w);
    if rendered.is_empty() {
        return Err(SubstitutionError::NoBundles(s.name.clone()));
    }
    let sub = rendered.remove(0);
    let Some(base) = cfg.bundles.iter().find(|b| b.name == s.base) else {
        return Err(SubstitutionError::NoBase(s.base.clone()));
    };
    let less = match (version_release(base), version_release(&sub)) {
        (Some(a), Some(b)) => a.compare(&b) == std::cmp::Ordering::Less,
        _ => false,
    };
    if !less {
        return Err(SubstitutionError::NotLess(s.base.clone(), s.name.clone()));
    }
    let sname = sub.name.clone();
    for ch in &mut cfg.channels {
        let Some(bi) = ch.entries.iter().position(|e| e.name == s.base) else {
            continue;
        };
        let base_entry = &mut ch.entries[bi];
        let mut skips = std::mem::take(&mut base_entry.skips);
        skips.push(s.base.clone());
        let new_entry = ChannelEntry {
            name: sname.clone(),
            replaces: base_entry.replaces.take(),
            skips,
            skip_range: base_entry.skip_range.take(),
            location: s.location.clone(),
        };
        for (i, e) in ch.entries.iter_mut().enumerate() {
            if i == bi {
                continue;
            }
            if e.replaces.as_deref() == Some(s.base.as_str()) {
                e.replaces = Some(sname.clone());
                if !e.skips.contains(&s.base) {
                    e.skips.push(s.base.clone());
                }
            } else {
                for sk in &mut e.skips {
                    if *sk == s.base {
                        sk.clone_from(&sname);
                    }
                }
            }
        }
        ch.entries.push(new_entry);
    }
    if !cfg.bundles.iter().any(|b| b.name == sname) {
        cfg.bundles.push(sub);
    }
    if let Some(e) = first_invalidity(cfg) {
        return Err(SubstitutionError::Invalid(e));
    }
    Ok(())
}

/// Render a substitutes template.
pub fn render(
    doc: &TemplateDoc,
    sources: &BundleSources,
    opts: LookupOptions,
) -> Result<Rendered, Failure> {
    let (schema, entries) = entries_of(doc, TemplateError::SubstitutesParse)?;
    if schema != SCHEMA {
        return Err(Failure::at(
            TemplateError::SubstitutesParse(format!(
                "template has unknown schema ({schema:?}), should be {SCHEMA:?}"
            )),
            &doc.location,
        ));
    }
    let substitutions = substitutions_of(doc)?;
    let (mut cfg, mut warnings) =
        load_entries(doc, entries, "entries", TemplateError::SubstitutesEntries)?;
    if let Some(e) = first_invalidity(&cfg) {
        return Err(Failure::at(
            TemplateError::SubstitutesInvalid(e),
            &doc.location,
        ));
    }
    let mut bases: Vec<(&str, &str)> = Vec::new();
    for s in &substitutions {
        if bases.iter().any(|(_, b)| *b == s.base) {
            return Err(Failure::at(
                TemplateError::ReusedBase(s.base.clone()),
                &s.location,
            ));
        }
        if let Some((_, other)) = bases.iter().find(|(n, _)| *n == s.name) {
            return Err(Failure::at(
                TemplateError::ReusedName(s.name.clone(), (*other).to_owned(), s.base.clone()),
                &s.location,
            ));
        }
        bases.push((&s.name, &s.base));
        substitute(&mut cfg, s, sources, opts, &mut warnings).map_err(|error| {
            Failure::at(
                TemplateError::Substitution {
                    base: s.base.clone(),
                    name: s.name.clone(),
                    error,
                },
                &s.location,
            )
        })?;
    }
    Ok(Rendered {
        config: cfg,
        warnings,
    })
}
