//! The `cluster` fuzz target's body: cluster-state YAML (Subscriptions, CSVs,
//! CatalogSources), then the dependency predicates of every installed CSV.
//! Shared with the replay tests (`resolver/tests/fuzz_regressions.rs`).

use olmsat_resolver::cluster::parse;
use olmsat_resolver::entry::Entry;
use olmsat_resolver::predicate::for_properties;

/// Name the input is parsed under.
const NAME: &str = "cluster.yaml";

/// Parse; panics when an invariant breaks.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let state = match parse(NAME, text) {
        Ok(s) => s,
        Err(e) => {
            assert_eq!(&*e.location.file, NAME, "errors name the file: {e}");
            return;
        }
    };
    for csv in &state.csvs {
        let e = Entry {
            name: csv.name.clone(),
            package: String::new(),
            channel: String::new(),
            catalog: 0,
            default_channel: false,
            version: csv.version.clone(),
            replaces: csv.replaces.clone(),
            skips: csv.skips.clone(),
            skip_range: csv.skip_range.clone(),
            values: Entry::interpret(&csv.properties),
            properties: csv.properties.clone(),
            location: Some(csv.location.clone()),
        };
        if let Ok(preds) = for_properties(&e) {
            for p in preds {
                let _ = p.to_string();
                let _ = p.matches(&e);
            }
        }
        if let Some(v) = &csv.version {
            let _ = e.skip_range_includes(v);
        }
    }
}
