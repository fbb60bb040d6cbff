//! The `constraint` fuzz target's body: `olm.constraint` values (JSON) and CEL
//! rules, compiled and evaluated against a few candidate bundles. Shared with the
//! replay tests (`resolver/tests/fuzz_regressions.rs`).
//!
//! The input is tried both as an `olm.constraint` value and as a bare CEL rule.

use olmsat_catalog::declcfg::Property;
use olmsat_encoding::rawjson::to_raw;
use olmsat_resolver::entry::Entry;
use olmsat_resolver::predicate::{parse_constraint, CelRule, Predicate};
use serde_json::json;

/// Parse, print and evaluate; panics when an invariant breaks.
pub(crate) fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let candidates = candidates();
    match parse_constraint(text) {
        Ok(p) => {
            let _ = p.to_string();
            for e in &candidates {
                let _ = p.matches(e);
            }
        }
        Err(e) => {
            let text = e.to_string();
            assert!(
                text.starts_with("parse olm.constraint: ")
                    || text.starts_with("convert olm.constraint to resolver predicate: "),
                "error without OLM's prefix: {e}"
            )
        }
    }
    if let Ok(rule) = CelRule::compile(text, "fuzz") {
        let p = Predicate::Cel(std::sync::Arc::new(rule));
        let _ = p.to_string();
        for e in &candidates {
            let _ = p.matches(e);
        }
    }
}

/// A bundle with a package, an API, a label and a property with nested lists, and
/// one with no properties at all.
fn candidates() -> Vec<Entry> {
    let props = vec![
        prop(
            "olm.package",
            json!({"packageName": "etcd", "version": "0.9.2"}),
        ),
        prop(
            "olm.gvk",
            json!({"group": "etcd.database.coreos.com", "version": "v1beta2", "kind": "EtcdCluster"}),
        ),
        prop("olm.label", json!({"label": "stable"})),
        prop(
            "example.nested",
            json!({"list": [1, 2.5, "three", [4, [5]], {"six": 6}], "flag": true, "none": null}),
        ),
    ];
    let entry = |properties: Vec<Property>| Entry {
        name: "etcdoperator.v0.9.2".into(),
        package: "etcd".into(),
        channel: "stable".into(),
        catalog: 0,
        default_channel: true,
        version: semver::Version::parse("0.9.2").ok(),
        replaces: Some("etcdoperator.v0.9.0".into()),
        skips: Vec::new(),
        skip_range: Some(">=0.9.0 <0.9.2".into()),
        values: Entry::interpret(&properties),
        properties,
        location: None,
    };
    vec![entry(props), entry(Vec::new())]
}

fn prop(type_: &str, value: serde_json::Value) -> Property {
    Property {
        type_: type_.into(),
        value: to_raw(&value),
    }
}
