//! The `resolve_cluster` example, run on the repository's etcd example
//! catalog and a cluster file with one Subscription.

#[allow(dead_code)] // the example's `main` is not called here
#[path = "../examples/resolve_cluster.rs"]
mod resolve_cluster;

const ETCD: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../corpus/catalogs/etcd-example"
);

#[test]
fn the_example_plans_the_installs_of_a_cluster_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cluster = dir.path().join("cluster.yaml");
    std::fs::write(
        &cluster,
        "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: etcd, namespace: ops}\nspec: {name: etcd, source: example, sourceNamespace: olm, channel: stable}\n",
    )
    .unwrap();
    let text = resolve_cluster::plan(ETCD, "example", cluster.to_str().unwrap()).expect("a plan");
    assert_eq!(text, "ops: installs etcdoperator.v0.9.5\n");
    std::fs::write(
        &cluster,
        "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: etcd, namespace: ops}\nspec: {name: etcd, source: example, sourceNamespace: olm, channel: nightly}\n",
    )
    .unwrap();
    let text = resolve_cluster::plan(ETCD, "example", cluster.to_str().unwrap()).expect("a plan");
    assert!(
        text.starts_with("ops: constraints not satisfiable"),
        "{text}"
    );
}
