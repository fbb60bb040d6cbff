//! What OLM v0 would install for the Subscriptions of a cluster file:
//! `cargo run -p olmsat-resolver --example resolve_cluster -- corpus/catalogs/etcd-example example CLUSTER.yaml`
#![allow(clippy::print_stdout)] // a program: printing is its job
use olmsat_catalog::Catalog;
use olmsat_resolver::{namespaces, resolve, CatalogInput, ClusterState, Input, Options, Outcome};
use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [catalog, name, cluster] = args.as_slice() else {
        return Err("usage: resolve_cluster CATALOG NAME CLUSTER_FILE".into());
    };
    plan(catalog, name, cluster).map(|text| print!("{text}"))
}

/// One line per namespace: the bundles OLM installs, or why it cannot.
pub(crate) fn plan(catalog: &str, name: &str, cluster: &str) -> Result<String, Box<dyn Error>> {
    let model = Catalog::open(&[catalog])?.into_model();
    let input = Input {
        catalogs: vec![CatalogInput {
            name: name.into(),
            model,
        }],
        cluster: ClusterState::read_all(&[cluster])?,
        global_namespace: "olm".into(),
        allow_missing_catalogs: false,
    };
    let mut text = String::new();
    for namespace in namespaces(&input.cluster) {
        let answer = match resolve(&input, &namespace, Options::default())?.outcome {
            Outcome::Resolved { operators, .. } => {
                let names: Vec<&str> = operators.iter().map(|o| o.name.as_str()).collect();
                format!("installs {}", names.join(", "))
            }
            other => other.message().unwrap_or_default(),
        };
        text.push_str(&format!("{namespace}: {answer}\n"));
    }
    Ok(text)
}
