//! Deprecations: `olm.deprecations` blobs checked as opm checks them and
//! attached to their packages.

use std::collections::{BTreeMap, BTreeSet};

use super::{Bundle, Channel, Deprecations, Package};
use crate::declcfg::{schema, Deprecation};
use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// Check deprecation blob `d` against the packages, channels and bundles
/// and, when it is sound, record its messages in `out`.
pub(super) fn apply_deprecation(
    (item, d): (usize, Deprecation),
    pkgs: &BTreeMap<String, Package>,
    channels: &BTreeMap<String, BTreeMap<String, Channel>>,
    bundles: &BTreeMap<String, Vec<Bundle>>,
    out: &mut BTreeMap<String, Deprecations>,
    diags: &mut Vec<Diagnostic>,
) {
    let err = |m: String| Diagnostic::new(Rule::InvalidDeprecation, m).at(&d.location);
    if d.package.is_empty() {
        diags.push(err(format!(
            "package name must be set for deprecation item {item}"
        )));
        return;
    }
    if !pkgs.contains_key(&d.package) {
        diags.push(
            err(format!(
                "cannot apply deprecations to an unknown package {:?}",
                d.package
            ))
            .package(&d.package),
        );
        return;
    }
    if out.contains_key(&d.package) {
        diags.push(
            err(format!(
                "expected a maximum of one deprecation per package: {:?}",
                d.package
            ))
            .package(&d.package),
        );
        return;
    }
    let mut deps = Deprecations {
        location: Some(d.location.clone()),
        ..Deprecations::default()
    };
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for (i, e) in d.entries.iter().enumerate() {
        let perr = |m: String| err(m).package(&d.package);
        if e.schema.is_empty() {
            diags.push(perr(format!(
                "schema must be set for deprecation entry [{i}] for package {:?}",
                d.package
            )));
            continue;
        }
        if !seen.insert((e.schema.clone(), e.name.clone())) {
            diags.push(perr(format!(
                "duplicate deprecation entry {} for package {:?}",
                go_reference(&e.schema, &e.name),
                d.package
            )));
            continue;
        }
        match e.schema.as_str() {
            schema::BUNDLE => {
                let found = bundles
                    .get(&d.package)
                    .is_some_and(|b| b.binary_search_by(|x| x.name.cmp(&e.name)).is_ok());
                if !found {
                    diags.push(perr(format!(
                        "cannot deprecate bundle {:?} for package {:?}: bundle not found",
                        e.name, d.package
                    )));
                    continue;
                }
                deps.bundles.insert(e.name.clone(), e.message.clone());
            }
            schema::CHANNEL => {
                if !channels
                    .get(&d.package)
                    .is_some_and(|c| c.contains_key(&e.name))
                {
                    diags.push(perr(format!(
                        "cannot deprecate channel {:?} for package {:?}: channel not found",
                        e.name, d.package
                    )));
                    continue;
                }
                deps.channels.insert(e.name.clone(), e.message.clone());
            }
            schema::PACKAGE => {
                if !e.name.is_empty() {
                    diags.push(perr(format!(
                        "package name must be empty for deprecated package {:?} (specified {:?})",
                        d.package, e.name
                    )));
                    continue;
                }
                deps.package = Some(e.message.clone());
            }
            _ => {
                diags.push(perr(format!(
                    "cannot deprecate object {} referenced by entry {} for package {:?}: object schema unknown",
                    go_reference(&e.schema, &e.name),
                    i,
                    d.package
                )));
                continue;
            }
        }
    }
    out.insert(d.package.clone(), deps);
}

fn go_reference(schema: &str, name: &str) -> String {
    format!("declcfg.PackageScopedReference{{Schema:{schema:?}, Name:{name:?}}}")
}
