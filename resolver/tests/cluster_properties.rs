//! Properties of cluster state as OLM reads it, over random dumps against the
//! example catalog: copied CSVs never change an answer, each namespace's answer
//! does not depend on the other namespaces, and a `List` holds the same state
//! as separate documents.

use olmsat_catalog::Catalog;
use olmsat_resolver::{namespaces, resolve, CatalogInput, ClusterState, Input, Options};
use proptest::prelude::*;

const PACKAGES: [(&str, &str); 2] = [("etcd", "stable"), ("etcd-backup", "stable")];
const INSTALLED: [&str; 4] = [
    "etcdoperator.v0.9.0",
    "etcdoperator.v0.9.2",
    "etcdoperator.v0.9.4",
    "etcdoperator.v0.9.5",
];
const NAMESPACES: [&str; 3] = ["alpha", "beta", "gamma"];

/// One namespace's objects: a subscription per chosen package, and for etcd
/// optionally an installed CSV it points at.
#[derive(Debug, Clone)]
struct Ns {
    subscribe: Vec<bool>,
    installed: Option<usize>,
}

fn ns_strategy() -> impl Strategy<Value = Ns> {
    (
        proptest::collection::vec(any::<bool>(), PACKAGES.len()),
        proptest::option::of(0..INSTALLED.len()),
    )
        .prop_map(|(subscribe, installed)| Ns {
            subscribe,
            installed,
        })
}

/// The objects of namespace `ns`, each a YAML mapping (no document marker).
fn objects(ns: &str, n: &Ns) -> Vec<String> {
    let mut out = vec![format!(
        "apiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata: {{name: og, namespace: {ns}}}\nspec: {{}}\n"
    )];
    for (i, (pkg, channel)) in PACKAGES.iter().enumerate() {
        if !n.subscribe[i] {
            continue;
        }
        let installed = match (i, n.installed) {
            (0, Some(c)) => format!("status: {{installedCSV: {}}}\n", INSTALLED[c]),
            _ => String::new(),
        };
        out.push(format!(
            "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {{name: {pkg}, namespace: {ns}}}\nspec: {{name: {pkg}, channel: {channel}, source: community, sourceNamespace: olm}}\n{installed}"
        ));
    }
    if let (true, Some(c)) = (n.subscribe[0], n.installed) {
        let version = INSTALLED[c].trim_start_matches("etcdoperator.v");
        out.push(format!(
            "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata: {{name: {}, namespace: {ns}}}\nspec:\n  version: {version}\n  customresourcedefinitions:\n    owned:\n    - {{name: etcdclusters.etcd.database.coreos.com, version: v1beta2, kind: EtcdCluster}}\n",
            INSTALLED[c]
        ));
    }
    out
}

/// How OLM marks a copy (OLM's `IsCopied`): 0 the label `olm.copiedFrom`,
/// 1 `status.reason: Copied`, 2 only the annotation `olm.operatorNamespace`
/// naming the namespace of the original (a copy OLM has not labelled yet).
const MARKERS: u8 = 3;

/// A copy of an etcd CSV in `ns`, as OLM writes it, marked by `marker`.
fn copy(ns: &str, csv: usize, marker: u8) -> String {
    let metadata = match marker {
        0 => "  labels: {olm.copiedFrom: operators}\n",
        2 => "  annotations: {olm.operatorNamespace: operators}\n",
        _ => "",
    };
    let status = if marker == 1 {
        "status: {reason: Copied}\n"
    } else {
        ""
    };
    format!(
        "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: {}\n  namespace: {ns}\n{metadata}spec:\n  version: 0.6.1\n  customresourcedefinitions:\n    owned:\n    - {{name: etcdclusters.etcd.database.coreos.com, version: v1beta2, kind: EtcdCluster}}\n{status}",
        INSTALLED[csv]
    )
}

/// The copies to write: one per namespace and CSV name (a Kubernetes object
/// is one per kind, namespace and name).
fn distinct(copies: &[(usize, usize, u8)]) -> Vec<(usize, usize, u8)> {
    let mut seen = std::collections::BTreeSet::new();
    copies
        .iter()
        .copied()
        .filter(|&(ns, csv, _)| seen.insert((ns, csv)))
        .collect()
}

fn stream(docs: &[String]) -> String {
    docs.iter().map(|d| format!("---\n{d}")).collect()
}

/// As a `List`: every object indented as an item.
fn list(docs: &[String]) -> String {
    let mut out = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for d in docs {
        for (i, line) in d.lines().enumerate() {
            out.push_str(if i == 0 { "- " } else { "  " });
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn input(cluster: ClusterState) -> Input {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/catalogs/etcd-example"
    );
    let model = Catalog::open(&[dir]).expect("valid").into_model();
    Input {
        catalogs: vec![CatalogInput {
            name: "community".into(),
            model,
        }],
        cluster,
        global_namespace: "olm".into(),
        allow_missing_catalogs: false,
    }
}

/// Every namespace's answer, as text.
fn answers(input: &Input) -> Vec<(String, String)> {
    namespaces(&input.cluster)
        .into_iter()
        .map(|ns| {
            let r = resolve(input, &ns, Options::default());
            let text = match r {
                Ok(r) => format!("{:?}", r.outcome),
                Err(e) => e.to_string(),
            };
            (ns, text)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn copies_never_change_an_answer(
        spaces in proptest::collection::vec(ns_strategy(), NAMESPACES.len()),
        copies in proptest::collection::vec((0..NAMESPACES.len(), 0..INSTALLED.len(), 0..MARKERS), 0..6),
    ) {
        let copies = distinct(&copies);
        let mut docs: Vec<String> = NAMESPACES.iter().zip(&spaces).flat_map(|(ns, n)| objects(ns, n)).collect();
        let without = input(ClusterState::from_yaml("c.yaml", &stream(&docs)).expect("parsed"));
        docs.extend(copies.iter().map(|&(ns, csv, marker)| copy(NAMESPACES[ns], csv, marker)));
        let with = input(ClusterState::from_yaml("c.yaml", &stream(&docs)).expect("parsed"));
        prop_assert_eq!(with.cluster.copied.len(), copies.len());
        prop_assert_eq!(answers(&with), answers(&without));
    }

    #[test]
    fn each_namespace_is_answered_on_its_own(
        spaces in proptest::collection::vec(ns_strategy(), NAMESPACES.len()),
    ) {
        let all: Vec<String> = NAMESPACES.iter().zip(&spaces).flat_map(|(ns, n)| objects(ns, n)).collect();
        let together = answers(&input(ClusterState::from_yaml("c.yaml", &stream(&all)).expect("parsed")));
        let mut alone = Vec::new();
        for (ns, n) in NAMESPACES.iter().zip(&spaces) {
            let docs = objects(ns, n);
            alone.extend(answers(&input(ClusterState::from_yaml("c.yaml", &stream(&docs)).expect("parsed"))));
        }
        prop_assert_eq!(together, alone);
    }

    #[test]
    fn a_list_holds_what_its_documents_hold(
        spaces in proptest::collection::vec(ns_strategy(), NAMESPACES.len()),
        copies in proptest::collection::vec((0..NAMESPACES.len(), 0..INSTALLED.len(), 0..MARKERS), 0..3),
    ) {
        let copies = distinct(&copies);
        let mut docs: Vec<String> = NAMESPACES.iter().zip(&spaces).flat_map(|(ns, n)| objects(ns, n)).collect();
        docs.extend(copies.iter().map(|&(ns, csv, marker)| copy(NAMESPACES[ns], csv, marker)));
        let a = ClusterState::from_yaml("c.yaml", &stream(&docs)).expect("stream");
        let b = ClusterState::from_yaml("c.yaml", &list(&docs)).expect("list");
        prop_assert_eq!(a.subscriptions.len(), b.subscriptions.len());
        prop_assert_eq!(a.copied.len(), b.copied.len());
        prop_assert_eq!(a.operator_groups.len(), b.operator_groups.len());
        // Each item is located at its own line: its first line in the List.
        let mut line = 4u32;
        let mut expected = Vec::new();
        for d in &docs {
            expected.push(line);
            line += u32::try_from(d.lines().count()).expect("small");
        }
        let mut located: Vec<u32> = b.subscriptions.iter().map(|s| s.location.line)
            .chain(b.csvs.iter().map(|c| c.location.line))
            .chain(b.copied.iter().map(|c| c.location.line))
            .chain(b.operator_groups.iter().map(|g| g.location.line))
            .collect();
        located.sort_unstable();
        prop_assert_eq!(located, expected);
        let same = |x: &ClusterState, y: &ClusterState| {
            x.subscriptions.iter().zip(&y.subscriptions).all(|(s, t)| (&s.name, &s.namespace, &s.installed_csv) == (&t.name, &t.namespace, &t.installed_csv))
        };
        prop_assert!(same(&a, &b));
        prop_assert_eq!(answers(&input(a)), answers(&input(b)));
    }
}
