//! The `cluster` fuzz target's body: cluster-state YAML (Subscriptions, CSVs,
//! CatalogSources, OperatorGroups, ClusterCatalogs and ClusterExtensions, in
//! `---` streams and `List`s, of OLM's API groups and others), then the
//! dependency predicates of every installed CSV and one OLM v1 reconcile of
//! every ClusterExtension. Shared with the replay tests
//! (`resolver/tests/fuzz_regressions.rs`).

use olmsat_resolver::cluster::{parse, READ_API_VERSIONS};
use olmsat_resolver::entry::Entry;
use olmsat_resolver::predicate::for_properties;
use olmsat_resolver::v1::reconcile::MAX_VERSION_LENGTH;
use olmsat_resolver::v1::{
    admit_version, reconcile, Catalog, CatalogContent, ClusterCatalog, Gates,
};

/// Name the input is parsed under.
const NAME: &str = "cluster.yaml";

/// Parse; panics when an invariant breaks.
pub(crate) fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let state = match parse(NAME, text) {
        Ok(s) => s,
        Err(e) => {
            assert_eq!(&*e.location.file, NAME, "errors name the file: {e}");
            // Errors are words, never a Rust value printed for debugging.
            assert!(
                !e.message.contains("budget breached") && !e.message.contains("limits breached"),
                "an error in words: {e}"
            );
            return;
        }
    };
    // Another API's object of a kind olmsat reads is counted as
    // `apiVersion kind`, and never under an API version olmsat reads.
    for key in state.ignored.keys() {
        if let Some((api_version, kind)) = key.rsplit_once(' ') {
            if let Some((_, versions)) = READ_API_VERSIONS.iter().find(|(k, _)| *k == kind) {
                assert!(
                    !versions.contains(&api_version),
                    "{key} is an object olmsat reads"
                );
            }
        }
    }
    let _ = state.notes();
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
    // OLM v1: each extension reconciled once against an empty catalog named
    // after each ClusterCatalog read (and one more); admission first.
    let content = CatalogContent::default();
    let mut metas: Vec<ClusterCatalog> = state.cluster_catalogs.clone();
    metas.push(ClusterCatalog::named("fuzz"));
    let catalogs: Vec<Catalog<'_>> = metas
        .iter()
        .map(|meta| Catalog {
            meta,
            content: Some(&content),
        })
        .collect();
    for ext in &state.cluster_extensions {
        let admitted = admit_version(&ext.version);
        if ext.version.len() > MAX_VERSION_LENGTH {
            assert!(
                admitted.is_err(),
                "{:?} is over the length limit",
                ext.version
            );
        }
        let outcome = reconcile(&catalogs, ext, Gates::default());
        if let Err(e) = &outcome.result {
            let _ = e.to_string();
            let _ = e.exit_code();
        }
        if admitted.is_err() {
            assert!(
                outcome.result.is_err(),
                "admission refuses {:?}",
                ext.version
            );
        }
    }
}
