//! References in a cluster dump that lead nowhere: a Subscription whose
//! installed CSV is not in the input (an incomplete dump), a Subscription whose
//! catalog is neither a CatalogSource in the input nor a catalog given, a CSV in
//! a namespace without an OperatorGroup. OLM's answer does not change; the
//! reader learns why it may not be the answer they expected.

use olmsat_encoding::location::Location;

use crate::cluster::ClusterState;

/// A reference that leads nowhere.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Dangling {
    /// `status.installedCSV` names a CSV the namespace does not hold.
    #[error("{location}: subscription {namespace}/{subscription} has status.installedCSV {csv:?}, but the input has no ClusterServiceVersion {csv:?} in namespace {namespace} (an incomplete dump?): it is resolved as a fresh install; add the CSV to the input")]
    MissingInstalledCsv {
        /// Where the Subscription was declared.
        location: Location,
        /// Its namespace.
        namespace: String,
        /// Its name.
        subscription: String,
        /// The CSV it names.
        csv: String,
    },
    /// `spec.source` names a catalog that is nowhere.
    #[error("{location}: subscription {namespace}/{subscription} uses catalog {catalog:?}, which is neither a CatalogSource in the input nor a catalog given (given: {given}); give it with --catalog {catalog}=PATH")]
    UnknownSource {
        /// Where the Subscription was declared.
        location: Location,
        /// Its namespace.
        namespace: String,
        /// Its name.
        subscription: String,
        /// The catalog it names.
        catalog: String,
        /// The catalogs given, comma-separated (`none` when none).
        given: String,
    },
    /// `spec.source` names a CatalogSource whose content was not given.
    #[error("{location}: subscription {namespace}/{subscription} uses CatalogSource {catalog:?}, whose content was not given (given: {given}); give it with --catalog {catalog}=PATH")]
    SourceNotGiven {
        /// Where the Subscription was declared.
        location: Location,
        /// Its namespace.
        namespace: String,
        /// Its name.
        subscription: String,
        /// The catalog it names.
        catalog: String,
        /// The catalogs given, comma-separated (`none` when none).
        given: String,
    },
    /// `spec.source` names a catalog in a namespace the Subscription's
    /// namespace does not see.
    #[error("{location}: subscription {namespace}/{subscription} uses catalog {catalog:?} in namespace {catalog_namespace}, which namespace {namespace} does not see: OLM shows a namespace its own catalogs and those of the global catalog namespace ({global}) unless its OperatorGroup excludes them; on OpenShift the global catalog namespace is openshift-marketplace (give --global-namespace openshift-marketplace)")]
    UnseenSource {
        /// Where the Subscription was declared.
        location: Location,
        /// Its namespace.
        namespace: String,
        /// Its name.
        subscription: String,
        /// The catalog it names.
        catalog: String,
        /// The catalog's namespace.
        catalog_namespace: String,
        /// The global catalog namespace.
        global: String,
    },
    /// A CSV in a namespace that has no OperatorGroup.
    #[error("{location}: ClusterServiceVersion {namespace}/{csv} is in a namespace without an OperatorGroup: OLM does not install or upgrade operators there; add the namespace's OperatorGroup to the input")]
    NoOperatorGroup {
        /// Where the CSV was declared.
        location: Location,
        /// Its namespace.
        namespace: String,
        /// Its name.
        csv: String,
    },
}

impl Dangling {
    /// The namespace of the object that holds the reference.
    pub fn namespace(&self) -> &str {
        match self {
            Dangling::MissingInstalledCsv { namespace, .. }
            | Dangling::UnknownSource { namespace, .. }
            | Dangling::SourceNotGiven { namespace, .. }
            | Dangling::UnseenSource { namespace, .. }
            | Dangling::NoOperatorGroup { namespace, .. } => namespace,
        }
    }
}

/// The dangling references of `cluster`, given the names of the catalogs whose
/// content was given and the global catalog namespace, in input order.
/// OperatorGroups are checked only when the input holds at least one (a dump of
/// Subscriptions and CSVs alone says nothing about them).
pub fn check(cluster: &ClusterState, catalogs: &[&str], global_namespace: &str) -> Vec<Dangling> {
    let mut given: Vec<&str> = catalogs.to_vec();
    given.sort_unstable();
    given.dedup();
    let given_text = if given.is_empty() {
        "none".to_owned()
    } else {
        given.join(", ")
    };
    let mut out = Vec::new();
    for sub in &cluster.subscriptions {
        if !sub.installed_csv.is_empty()
            && !cluster
                .csvs
                .iter()
                .any(|c| c.namespace == sub.namespace && c.name == sub.installed_csv)
        {
            out.push(Dangling::MissingInstalledCsv {
                location: sub.location.clone(),
                namespace: sub.namespace.clone(),
                subscription: sub.name.clone(),
                csv: sub.installed_csv.clone(),
            });
        }
        // The catalog's namespace: its CatalogSource's (the one in the namespace
        // the Subscription names first), else the Subscription's sourceNamespace.
        let source = cluster
            .catalog_sources
            .iter()
            .filter(|c| c.name == sub.source)
            .min_by_key(|c| c.namespace != sub.source_namespace);
        let catalog_namespace = source
            .map(|c| c.namespace.as_str())
            .unwrap_or(sub.source_namespace.as_str());
        let known = source.is_some() || given.contains(&sub.source.as_str());
        let sees_global = !cluster
            .operator_groups
            .iter()
            .any(|g| g.namespace == sub.namespace && g.exclude_global_catalogs);
        if known
            && !catalog_namespace.is_empty()
            && catalog_namespace != sub.namespace
            && !(sees_global && catalog_namespace == global_namespace)
        {
            out.push(Dangling::UnseenSource {
                location: sub.location.clone(),
                namespace: sub.namespace.clone(),
                subscription: sub.name.clone(),
                catalog: sub.source.clone(),
                catalog_namespace: catalog_namespace.to_owned(),
                global: global_namespace.to_owned(),
            });
        }
        if !sub.source.is_empty() && !given.contains(&sub.source.as_str()) {
            let in_input = cluster.catalog_sources.iter().any(|c| c.name == sub.source);
            let (location, namespace, subscription, catalog, given) = (
                sub.location.clone(),
                sub.namespace.clone(),
                sub.name.clone(),
                sub.source.clone(),
                given_text.clone(),
            );
            out.push(if in_input {
                Dangling::SourceNotGiven {
                    location,
                    namespace,
                    subscription,
                    catalog,
                    given,
                }
            } else {
                Dangling::UnknownSource {
                    location,
                    namespace,
                    subscription,
                    catalog,
                    given,
                }
            });
        }
    }
    if !cluster.operator_groups.is_empty() {
        for csv in &cluster.csvs {
            if !cluster
                .operator_groups
                .iter()
                .any(|g| g.namespace == csv.namespace)
            {
                out.push(Dangling::NoOperatorGroup {
                    location: csv.location.clone(),
                    namespace: csv.namespace.clone(),
                    csv: csv.name.clone(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::parse;

    const DUMP: &str = "\
kind: Subscription
metadata: {name: a, namespace: ops}
spec: {name: a, source: community}
status: {installedCSV: a.v1}
---
kind: Subscription
metadata: {name: b, namespace: ops}
spec: {name: b, source: redhat}
---
kind: CatalogSource
metadata: {name: redhat, namespace: olm}
---
kind: ClusterServiceVersion
metadata: {name: c.v1, namespace: lonely}
---
kind: ClusterServiceVersion
metadata: {name: d.v1, namespace: ops}
---
kind: OperatorGroup
metadata: {name: og, namespace: ops}
";

    #[test]
    fn each_kind_of_dangling_reference_is_found() {
        let st = parse("c.yaml", DUMP).expect("parsed");
        let found = check(&st, &["local", "community"], "olm");
        let texts: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert_eq!(texts.len(), 3, "{texts:#?}");
        assert!(matches!(found[0], Dangling::MissingInstalledCsv { .. }));
        assert!(
            texts[0].starts_with("c.yaml:1: subscription ops/a has status.installedCSV \"a.v1\"")
        );
        assert_eq!(
            texts[1],
            "c.yaml:6: subscription ops/b uses CatalogSource \"redhat\", whose content was not given (given: community, local); give it with --catalog redhat=PATH"
        );
        assert_eq!(found[2].namespace(), "lonely");
        assert!(matches!(found[2], Dangling::NoOperatorGroup { .. }));
    }

    #[test]
    fn a_source_that_is_nowhere_lists_the_catalogs_given() {
        let st = parse(
            "c.yaml",
            DUMP.replace("redhat, namespace", "other, namespace")
                .as_str(),
        )
        .expect("parsed");
        let found = check(&st, &[], "olm");
        assert!(
            found[1]
                .to_string()
                .contains("neither a CatalogSource in the input nor a catalog given (given: none)"),
            "{}",
            found[1]
        );
        assert!(matches!(found[2], Dangling::UnknownSource { .. }));
    }

    #[test]
    fn without_operator_groups_in_the_input_they_are_not_checked() {
        let st = parse(
            "c.yaml",
            "kind: ClusterServiceVersion\nmetadata: {name: c.v1, namespace: x}\n",
        )
        .expect("parsed");
        assert!(check(&st, &[], "olm").is_empty());
    }

    #[test]
    fn a_catalog_outside_the_global_namespace_is_not_seen() {
        let text = "kind: Subscription\nmetadata: {name: a, namespace: ops}\nspec: {name: a, source: redhat, sourceNamespace: openshift-marketplace}\n";
        let st = parse("c.yaml", text).expect("parsed");
        let found = check(&st, &["redhat"], "olm");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].to_string().starts_with("c.yaml:1: subscription ops/a uses catalog \"redhat\" in namespace openshift-marketplace, which namespace ops does not see"), "{}", found[0]);
        assert!(check(&st, &["redhat"], "openshift-marketplace").is_empty());
    }
}
