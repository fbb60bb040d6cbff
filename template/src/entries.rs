//! Loading a template's `entries` (ordinary catalog blobs) with the catalog
//! loader, each blob placed at its line in the template.

use serde_json::Value;

use crate::doc::TemplateDoc;
use crate::error::{Failure, TemplateError};
use olmsat_catalog::declcfg::DeclarativeConfig;
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::Diagnostic;

/// Every location in `cfg` moved to `loc` (the entry's line in the template).
fn relocate(cfg: &mut DeclarativeConfig, loc: &Location) {
    for p in &mut cfg.packages {
        p.location = loc.clone();
    }
    for c in &mut cfg.channels {
        c.location = loc.clone();
        for e in &mut c.entries {
            e.location = loc.clone();
        }
    }
    for b in &mut cfg.bundles {
        b.location = loc.clone();
    }
    for d in &mut cfg.deprecations {
        d.location = loc.clone();
    }
    for m in &mut cfg.others {
        m.location = loc.clone();
    }
}

/// The entries of a template's list `key`, loaded in order; the first entry
/// that does not load fails the whole template, with its location. Loader
/// warnings are returned.
pub(crate) fn load_entries(
    doc: &TemplateDoc,
    entries: &[Value],
    key: &str,
    wrap: fn(String) -> TemplateError,
) -> Result<(DeclarativeConfig, Vec<Diagnostic>), Failure> {
    let mut out = DeclarativeConfig::default();
    let mut warnings = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let loc = entry_location(doc, &[key], i);
        let json = serde_json::to_vec(e).unwrap_or_default();
        let mut loaded = olmsat_catalog::load::load_bytes(&doc.location.file, &json);
        if let Some(err) = loaded.diagnostics.iter().find(|d| d.is_error()) {
            return Err(Failure::at(wrap(err.message.clone()), &loc));
        }
        relocate(&mut loaded.config, &loc);
        warnings.extend(loaded.diagnostics.into_iter().map(|mut d| {
            d.location = Some(loc.clone());
            d
        }));
        out.merge(loaded.config);
    }
    Ok((out, warnings))
}

/// The location of item `i` of the list at `path` (the document's start when
/// its line is unknown).
pub(crate) fn entry_location(doc: &TemplateDoc, path: &[&str], i: usize) -> Location {
    match doc.lines.item_line(path, i) {
        0 => doc.location.clone(),
        line => doc.location.at(line, 0),
    }
}
