//! `resolve` and `simulate` as a program calls them: a [`Request`] (the
//! flags, as plain values), the cluster state and the catalogs in,
//! [`prepare`]d into the resolver's [`Input`] (with OLM v1's
//! ClusterExtensions beside it); then a document out — a [`ResolveAnswer`]
//! or a [`SimulateAnswer`] — that serializes to exactly what `-o json` and
//! `-o yaml` print, and renders as the text the command prints.
//!
//! ```
//! use olmsat_catalog::Catalog;
//! use olmsat_resolver::answer::{prepare, resolve, Request};
//! use olmsat_resolver::{CatalogInput, ClusterState, Options};
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/catalogs/etcd-example");
//! let model = Catalog::open(&[dir]).expect("valid").into_model();
//! let request = Request { subscribe: vec!["etcd".into()], ..Request::default() };
//! // Each catalog with its OLM v1 content, when OLM v1 is asked about.
//! let catalogs = [(CatalogInput { name: "example".into(), model }, None)];
//! let prepared = prepare(&request, catalogs, ClusterState::default(), Vec::new())
//!     .expect("a valid request");
//! let answer = resolve(&prepared, Options::default(), false);
//! assert_eq!(answer.exit_code(), 0);
//! assert!(answer.text().starts_with("namespace default: resolved, 1 operator(s)"));
//! let json = serde_json::to_value(&answer).expect("serializable");
//! assert_eq!(json["operators"][0]["name"], "etcdoperator.v0.9.5");
//! ```

use std::fmt::Write as _;
use std::sync::Arc;

use olmsat_encoding::location::Location;
use serde::{Serialize, Serializer};

use crate::behind::{behind, Behind};
use crate::cluster::{ClusterState, OperatorGroup, Subscription};
use crate::cluster_file::ClusterFileError;
use crate::dangling::{self, Dangling};
use crate::resolve::{
    join_messages, missing_catalogs, namespaces, CandidateNode, CatalogInput, Cause, Input,
    Operator, Options, Outcome, Reason, RequirementNode, Resolution, SubscriptionNode,
};
use crate::simulate::{End, Timeline};
use crate::v1::answer::{self as v1_answer, Catalogs, ExtensionReport, ExtensionRequest};
use crate::v1::{CatalogContent, ClusterExtension, Gates};

/// OLM's default global catalog namespace.
pub const DEFAULT_GLOBAL_NAMESPACE: &str = "olm";

/// What `resolve` and `simulate` are asked, beyond the catalogs and the
/// cluster state: the flags, as plain values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    /// `PKG[/CHANNEL][@CATALOG]`: Subscriptions to add.
    pub subscribe: Vec<String>,
    /// The namespace they are added to (default: see [`subscribe_namespace`]).
    pub namespace: Option<String>,
    /// The global catalog namespace (default: the one the cluster state
    /// implies, else `olm`).
    pub global_namespace: Option<String>,
    /// Resolve as if a CatalogSource whose content was not given were empty.
    pub allow_missing_catalogs: bool,
    /// OLM v1: a ClusterExtension to add, and the feature gates.
    pub v1: ExtensionRequest,
}

/// Why a request cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// The cluster state cannot be read.
    #[error(transparent)]
    Cluster(#[from] ClusterFileError),
    /// `--subscribe` is not `PKG[/CHANNEL][@CATALOG]`.
    #[error("--subscribe {spec:?}: expected PKG[/CHANNEL][@CATALOG]")]
    SubscribeForm {
        /// The argument.
        spec: String,
    },
    /// `--subscribe` names a catalog that was not given.
    #[error("--subscribe {spec:?}: no catalog named {catalog:?} was given; the catalogs given: {} (give it with --catalog {catalog}=DIR)", olmsat_findings::suggest::join_listed(.near))]
    UnknownCatalog {
        /// The argument.
        spec: String,
        /// The catalog named.
        catalog: String,
        /// The catalogs given, closest first.
        near: Vec<String>,
    },
    /// No catalog given has the package `--subscribe` names.
    #[error("--subscribe {spec:?}: no catalog given has package {package:?}; the closest packages: {}", olmsat_findings::suggest::join_listed(.near))]
    UnknownPackage {
        /// The argument.
        spec: String,
        /// The package named.
        package: String,
        /// The packages there are, closest first.
        near: Vec<String>,
    },
    /// The channel `--subscribe` names is not in its catalog (or the
    /// catalog named lacks the package).
    #[error("--subscribe {spec:?}: catalog {catalog:?}: {source}")]
    Channel {
        /// The argument.
        spec: String,
        /// The catalog.
        catalog: String,
        /// Why.
        source: Box<olmsat_graph::SelectError>,
    },
    /// The OLM v1 flags do not describe an extension.
    #[error(transparent)]
    Extension(#[from] v1_answer::RequestError),
}

impl PrepareError {
    /// Whether the error is the user's arguments (exit code 2 with the
    /// message alone) rather than an answer that cannot be given (reported as
    /// an error document).
    pub fn is_usage(&self) -> bool {
        match self {
            PrepareError::Cluster(e) => matches!(
                e,
                ClusterFileError::Open { .. } | ClusterFileError::EmptyDirectory { .. }
            ),
            PrepareError::SubscribeForm { .. }
            | PrepareError::UnknownCatalog { .. }
            | PrepareError::Extension(_) => true,
            PrepareError::UnknownPackage { .. } | PrepareError::Channel { .. } => false,
        }
    }
}

/// OLM v1's part of a request, known once the cluster state is read: the
/// ClusterExtensions to answer and the gates.
#[derive(Debug, Clone)]
pub struct V1Plan {
    /// The ClusterExtensions (the cluster file's and `--extension`'s).
    pub extensions: Vec<ClusterExtension>,
    /// The feature gates.
    pub gates: Gates,
}

impl V1Plan {
    /// OLM v1's part of `request` over `cluster`; `None` when there is no
    /// ClusterExtension.
    ///
    /// # Errors
    ///
    /// The v1 flags do not describe an extension, or a gate is malformed.
    pub fn of(request: &Request, cluster: &ClusterState) -> Result<Option<V1Plan>, PrepareError> {
        let gates = request.v1.gates()?;
        let extensions = request.v1.extensions(&cluster.cluster_extensions)?;
        Ok((!extensions.is_empty()).then_some(V1Plan { extensions, gates }))
    }

    /// The content OLM v1 reads of the catalog `name`, from its blobs
    /// (`None` when OLM v1 does not see it): call it once per catalog as it
    /// is read, so that no catalog is read twice.
    pub fn content(
        &self,
        cluster: &ClusterState,
        name: &str,
        config: &olmsat_catalog::DeclarativeConfig,
    ) -> Option<CatalogContent> {
        v1_answer::sees(name, &cluster.cluster_catalogs)
            .then(|| CatalogContent::from_config(config, self.gates.bundle_release_support))
    }
}

/// OLM v1's input: its catalogs, extensions and gates.
#[derive(Debug, Clone)]
pub struct V1Input {
    /// The ClusterCatalogs with their content.
    pub catalogs: Catalogs,
    /// The ClusterExtensions.
    pub extensions: Vec<ClusterExtension>,
    /// The feature gates.
    pub gates: Gates,
}

/// A request made ready: the resolver's input, what reading set aside, the
/// references that lead nowhere, and OLM v1's input.
#[derive(Debug)]
pub struct Prepared {
    /// OLM v0's input.
    pub input: Input,
    /// What was set aside or assumed while reading, one sentence each (the
    /// `notes` of the JSON answer).
    pub notes: Vec<String>,
    /// Notes on the catalogs OLM v1 sees (printed, not in the answer).
    pub v1_notes: Vec<String>,
    /// References that lead nowhere.
    pub dangling: Vec<Dangling>,
    /// OLM v1's input, when there are ClusterExtensions.
    pub v1: Option<V1Input>,
}

/// The namespace `--subscribe` adds to, and why that one: `namespace` when
/// given, else the namespace of the only AllNamespaces OperatorGroup
/// (`operators` upstream, `openshift-operators` on OpenShift), else of the
/// cluster state's only OperatorGroup, else `default`.
pub fn subscribe_namespace(namespace: Option<&str>, cluster: &ClusterState) -> (String, String) {
    if let Some(ns) = namespace {
        return (ns.to_owned(), "given with --namespace".to_owned());
    }
    let mut groups: Vec<&OperatorGroup> = cluster.operator_groups.iter().collect();
    groups.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    groups.dedup_by(|a, b| a.namespace == b.namespace);
    match groups.as_slice() {
        [only] => (
            only.namespace.clone(),
            format!(
                "the namespace of OperatorGroup {:?}, the only one in the cluster state",
                only.name
            ),
        ),
        [] => (
            "default".to_owned(),
            "the cluster state has no OperatorGroup; choose another with --namespace".to_owned(),
        ),
        several => {
            let global: Vec<&&OperatorGroup> = several
                .iter()
                .filter(|g| g.target_namespaces.is_empty())
                .collect();
            match global.as_slice() {
                [one] => (
                    one.namespace.clone(),
                    format!(
                        "the namespace of OperatorGroup {:?}, the only one for all namespaces; OperatorGroups are in {} namespaces, choose another with --namespace",
                        one.name,
                        several.len()
                    ),
                ),
                _ => (
                    "default".to_owned(),
                    format!(
                        "OperatorGroups are in {} namespaces; choose one with --namespace",
                        several.len()
                    ),
                ),
            }
        }
    }
}

/// `PKG[/CHANNEL][@CATALOG]` as a Subscription in `namespace`: the catalog
/// named, else the first catalog that has the package.
///
/// # Errors
///
/// A malformed argument, a catalog not given, a package no catalog has, a
/// channel the package lacks.
pub fn subscription(
    spec: &str,
    namespace: &str,
    catalogs: &[CatalogInput],
) -> Result<Subscription, PrepareError> {
    let (rest, catalog) = match spec.split_once('@') {
        Some((r, c)) => (r, Some(c.to_owned())),
        None => (spec, None),
    };
    let (package, channel) = rest.split_once('/').unwrap_or((rest, ""));
    if package.is_empty() {
        return Err(PrepareError::SubscribeForm {
            spec: spec.to_owned(),
        });
    }
    let source = match catalog {
        Some(c) => {
            if !catalogs.iter().any(|x| x.name == c) {
                let near =
                    olmsat_findings::suggest::closest(&c, catalogs.iter().map(|x| x.name.as_str()))
                        .into_iter()
                        .map(str::to_owned)
                        .collect();
                return Err(PrepareError::UnknownCatalog {
                    spec: spec.to_owned(),
                    catalog: c,
                    near,
                });
            }
            c
        }
        None => match catalogs.iter().find(|c| c.model.package(package).is_some()) {
            Some(c) => c.name.clone(),
            None => {
                let mut names: Vec<&str> = catalogs
                    .iter()
                    .flat_map(|c| c.model.packages().iter().map(|p| p.name.as_str()))
                    .collect();
                names.sort_unstable();
                names.dedup();
                let near = olmsat_findings::suggest::closest(package, names)
                    .into_iter()
                    .map(str::to_owned)
                    .collect();
                return Err(PrepareError::UnknownPackage {
                    spec: spec.to_owned(),
                    package: package.to_owned(),
                    near,
                });
            }
        },
    };
    if let Some(c) = catalogs.iter().find(|c| c.name == source) {
        let channel = (!channel.is_empty()).then_some(channel);
        if let Err(e) = olmsat_graph::select_channel(&c.model, package, channel) {
            // A channel that is not there, or a package the catalog lacks.
            if channel.is_some() || matches!(e, olmsat_graph::SelectError::UnknownPackage { .. }) {
                return Err(PrepareError::Channel {
                    spec: spec.to_owned(),
                    catalog: source,
                    source: Box::new(e),
                });
            }
        }
    }
    Ok(Subscription {
        name: package.to_owned(),
        namespace: namespace.to_owned(),
        package: package.to_owned(),
        channel: channel.to_owned(),
        source,
        source_namespace: String::new(),
        starting_csv: String::new(),
        installed_csv: String::new(),
        manual_approval: false,
        location: Location::new(Arc::from("--subscribe"), 0),
    })
}

/// A note for each catalog given whose name no CatalogSource of the cluster
/// state has, when it has any: the CatalogSources there are, closest first.
fn unmatched_catalogs(cluster: &ClusterState, catalogs: &[CatalogInput]) -> Vec<String> {
    if cluster.catalog_sources.is_empty() {
        return Vec::new();
    }
    let mut sources: Vec<&str> = cluster
        .catalog_sources
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    sources.sort_unstable();
    sources.dedup();
    catalogs
        .iter()
        .filter(|c| !sources.contains(&c.name.as_str()))
        .map(|c| {
            let near: Vec<String> = olmsat_findings::suggest::closest(&c.name, sources.iter().copied())
                .into_iter()
                .map(str::to_owned)
                .collect();
            format!(
                "catalog {:?} is no CatalogSource of the cluster state: OLM v0 takes it to be in the namespace of the Subscriptions that name it, else in the namespace resolved (the CatalogSources there: {})",
                c.name,
                olmsat_findings::suggest::join_listed(&near)
            )
        })
        .collect()
}

/// Make a request ready: the cluster state with `--subscribe`'s
/// Subscriptions, the global catalog namespace, the notes (`notes` first:
/// what reading the catalogs set aside), the dangling references, and OLM
/// v1's input from each catalog's content, when it has one (see
/// [`V1Plan::content`]).
///
/// # Errors
///
/// As [`subscription`] and [`V1Plan::of`].
pub fn prepare(
    request: &Request,
    read: impl IntoIterator<Item = (CatalogInput, Option<CatalogContent>)>,
    mut cluster: ClusterState,
    mut notes: Vec<String>,
) -> Result<Prepared, PrepareError> {
    let mut catalogs = Vec::new();
    let mut v1_contents = Vec::new();
    for (catalog, content) in read {
        if let Some(content) = content {
            v1_contents.push((catalog.name.clone(), content));
        }
        catalogs.push(catalog);
    }
    notes.extend(cluster.notes());
    let global_namespace = match (
        &request.global_namespace,
        cluster.implied_global_namespace(),
    ) {
        (Some(g), _) => g.clone(),
        (None, Some(n)) if n != DEFAULT_GLOBAL_NAMESPACE => {
            notes.push(format!(
                "the global catalog namespace is taken to be {n}: every CatalogSource is in it and every Subscription names it as sourceNamespace (give --global-namespace to choose another)"
            ));
            n
        }
        _ => DEFAULT_GLOBAL_NAMESPACE.to_owned(),
    };
    notes.extend(unmatched_catalogs(&cluster, &catalogs));
    if !request.subscribe.is_empty() {
        let (namespace, why) = subscribe_namespace(request.namespace.as_deref(), &cluster);
        notes.push(format!("--subscribe adds to namespace {namespace} ({why})"));
        for s in &request.subscribe {
            let sub = subscription(s, &namespace, &catalogs)?;
            cluster
                .subscriptions
                .retain(|x| !(x.name == sub.name && x.namespace == sub.namespace));
            cluster.subscriptions.push(sub);
        }
    }
    let mut v1_notes = Vec::new();
    let v1 = match V1Plan::of(request, &cluster)? {
        None => None,
        Some(plan) => {
            let names: Vec<&str> = catalogs.iter().map(|c| c.name.as_str()).collect();
            let (v1_catalogs, n) = Catalogs::new(&names, &cluster.cluster_catalogs, v1_contents);
            v1_notes = n;
            Some(V1Input {
                catalogs: v1_catalogs,
                extensions: plan.extensions,
                gates: plan.gates,
            })
        }
    };
    let names: Vec<&str> = catalogs.iter().map(|c| c.name.as_str()).collect();
    let mut dangling = dangling::check(&cluster, &names, &global_namespace);
    let input = Input {
        catalogs,
        cluster,
        global_namespace,
        allow_missing_catalogs: request.allow_missing_catalogs,
    };
    if !request.allow_missing_catalogs {
        // The resolution of a namespace that sees such a CatalogSource fails
        // with OLM's error and a hint; no warning repeats it.
        dangling.retain(|d| match d {
            Dangling::SourceNotGiven {
                namespace, catalog, ..
            } => !missing_catalogs(&input, namespace)
                .iter()
                .any(|(_, name)| name == catalog),
            _ => true,
        });
    }
    Ok(Prepared {
        input,
        notes,
        v1_notes,
        dangling,
        v1,
    })
}

/// How a namespace's resolution ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Resolved (possibly with nothing to do).
    Resolved,
    /// No set of bundles satisfies the constraints.
    Unsatisfiable,
    /// OLM's error (a catalog missing, a timeout).
    Error,
}

impl Status {
    /// The exit code: 0, 1 or 2.
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Resolved => 0,
            Status::Unsatisfiable => 1,
            Status::Error => 2,
        }
    }
}

/// One namespace's answer.
#[derive(Debug)]
pub struct NamespaceAnswer {
    /// The namespace.
    pub namespace: String,
    /// The resolution, or OLM's error with olmsat's hint.
    pub result: Result<Resolution, (String, Option<String>)>,
    /// When it resolved: the Subscriptions that stay behind their
    /// channel's head, and why.
    pub behind: Vec<Behind>,
    /// The references of the namespace that lead nowhere.
    pub warnings: Vec<String>,
}

impl NamespaceAnswer {
    /// How it ended.
    pub fn status(&self) -> Status {
        match &self.result {
            Ok(r) => match r.outcome {
                Outcome::Resolved { .. } => Status::Resolved,
                Outcome::Unsatisfiable { .. } => Status::Unsatisfiable,
            },
            Err(_) => Status::Error,
        }
    }

    /// OLM's message, when it did not resolve.
    pub fn message(&self) -> Option<String> {
        match &self.result {
            Ok(r) => r.outcome.message(),
            Err((e, _)) => Some(e.clone()),
        }
    }

    /// The root causes of an unsatisfiable answer.
    pub fn causes(&self) -> &[Cause] {
        match &self.result {
            Ok(Resolution {
                outcome: Outcome::Unsatisfiable { causes, .. },
                ..
            }) => causes,
            _ => &[],
        }
    }

    /// What to do about an error.
    pub fn hint(&self) -> Option<&str> {
        match &self.result {
            Err((_, hint)) => hint.as_deref(),
            Ok(_) => None,
        }
    }

    /// The operators to install or upgrade.
    pub fn operators(&self) -> &[Operator] {
        match &self.result {
            Ok(Resolution {
                outcome: Outcome::Resolved { operators, .. },
                ..
            }) => operators,
            _ => &[],
        }
    }
}

/// `resolve`'s answer: each namespace's, and OLM v1's beside them.
#[derive(Debug)]
pub struct ResolveAnswer {
    /// The worst of the namespaces' ends.
    pub status: Status,
    /// OLM's messages of the namespaces that did not resolve, joined.
    pub message: Option<String>,
    /// Each namespace's answer, in order.
    pub namespaces: Vec<NamespaceAnswer>,
    /// What was set aside or assumed while reading.
    pub notes: Vec<String>,
    /// OLM v1's answers, when there are ClusterExtensions.
    pub extensions: Option<Vec<ExtensionReport>>,
    /// Whether the text explains each answer (JSON always does).
    pub explain: bool,
}

/// Resolve every namespace of `prepared` on its own, as OLM does (a failure
/// in one does not stop the others), and OLM v1's extensions.
pub fn resolve(prepared: &Prepared, options: Options, explain: bool) -> ResolveAnswer {
    let input = &prepared.input;
    let extensions = prepared
        .v1
        .as_ref()
        .map(|v| v1_answer::answer(&v.catalogs, &v.extensions, v.gates, explain));
    let namespaces: Vec<NamespaceAnswer> = namespaces(&input.cluster)
        .into_iter()
        .map(|ns| {
            let result =
                crate::resolve::resolve(input, &ns, options).map_err(|e| (e.to_string(), e.hint()));
            let behind = match &result {
                Ok(Resolution {
                    outcome:
                        Outcome::Resolved {
                            operators, stays, ..
                        },
                    ..
                }) => behind(input, &ns, operators, stays),
                _ => Vec::new(),
            };
            let warnings = warnings_of(&prepared.dangling, &ns);
            NamespaceAnswer {
                namespace: ns,
                result,
                behind,
                warnings,
            }
        })
        .collect();
    let status = namespaces
        .iter()
        .map(NamespaceAnswer::status)
        .max()
        .unwrap_or(Status::Resolved);
    let failures: Vec<(String, String)> = namespaces
        .iter()
        .filter_map(|a| Some((a.namespace.clone(), a.message()?)))
        .collect();
    let failure_refs: Vec<(&str, &str)> = failures
        .iter()
        .map(|(n, m)| (n.as_str(), m.as_str()))
        .collect();
    let message = (!failures.is_empty()).then(|| join_messages(&failure_refs));
    ResolveAnswer {
        status,
        message,
        namespaces,
        notes: prepared.notes.clone(),
        extensions,
        explain,
    }
}

/// The warnings about references of namespace `ns`.
fn warnings_of(dangling: &[Dangling], ns: &str) -> Vec<String> {
    dangling
        .iter()
        .filter(|d| d.namespace() == ns)
        .map(ToString::to_string)
        .collect()
}

#[derive(Serialize)]
struct Explanation<'a> {
    #[serde(skip_serializing_if = "<[Reason]>::is_empty")]
    reasons: &'a [Reason],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    constraints: Vec<String>,
    #[serde(skip_serializing_if = "<[SubscriptionNode]>::is_empty")]
    tree: &'a [SubscriptionNode],
    variables: usize,
    clauses: usize,
    #[serde(rename = "solveCalls")]
    solve_calls: usize,
}

impl<'a> Explanation<'a> {
    fn of(r: &'a Resolution) -> Explanation<'a> {
        let (reasons, constraints, tree): (&[Reason], Vec<String>, &[SubscriptionNode]) =
            match &r.outcome {
                Outcome::Resolved { reasons, .. } => (reasons, Vec::new(), &[]),
                Outcome::Unsatisfiable {
                    constraints, tree, ..
                } => (&[], constraints.clone(), tree),
            };
        Explanation {
            reasons,
            constraints,
            tree,
            variables: r.variables,
            clauses: r.stats.clauses,
            solve_calls: r.stats.solve_calls,
        }
    }
}

#[derive(Serialize)]
struct NamespaceJson<'a> {
    namespace: &'a str,
    status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "<[Cause]>::is_empty")]
    causes: &'a [Cause],
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'a str>,
    operators: &'a [Operator],
    #[serde(skip_serializing_if = "<[Behind]>::is_empty")]
    behind: &'a [Behind],
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    warnings: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    explanation: Option<Explanation<'a>>,
}

/// A planned change, with the namespace it is planned in.
#[derive(Serialize)]
struct Planned<'a> {
    namespace: &'a str,
    #[serde(flatten)]
    operator: &'a Operator,
}

#[derive(Serialize)]
struct AnswerJson<'a> {
    status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    operators: Vec<Planned<'a>>,
    namespaces: Vec<NamespaceJson<'a>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    extensions: Option<&'a [ExtensionReport]>,
}

impl Serialize for ResolveAnswer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut operators: Vec<Planned<'_>> = self
            .namespaces
            .iter()
            .flat_map(|a| {
                a.operators().iter().map(|operator| Planned {
                    namespace: &a.namespace,
                    operator,
                })
            })
            .collect();
        operators.sort_by(|a, b| (a.namespace, a.operator).cmp(&(b.namespace, b.operator)));
        AnswerJson {
            status: self.status,
            message: self.message.as_deref(),
            operators,
            namespaces: self
                .namespaces
                .iter()
                .map(|a| NamespaceJson {
                    namespace: &a.namespace,
                    status: a.status(),
                    message: a.message(),
                    causes: a.causes(),
                    hint: a.hint(),
                    operators: a.operators(),
                    behind: &a.behind,
                    warnings: &a.warnings,
                    explanation: a.result.as_ref().ok().map(Explanation::of),
                })
                .collect(),
            notes: &self.notes,
            extensions: self.extensions.as_deref(),
        }
        .serialize(serializer)
    }
}

impl ResolveAnswer {
    /// The exit code: the worst of OLM v0's and OLM v1's (0, 1 or 2).
    pub fn exit_code(&self) -> u8 {
        let v0 = self.status.exit_code();
        match &self.extensions {
            Some(reports) => v0.max(v1_answer::exit_of(reports)),
            None => v0,
        }
    }

    /// The answer as text: one section per namespace (none when the input
    /// holds nothing for OLM v0 but ClusterExtensions), then one per
    /// ClusterExtension.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let v1 = self.extensions.as_deref().filter(|r| !r.is_empty());
        if self.namespaces.is_empty() && v1.is_none() {
            s.push_str(
                "resolved: nothing to install or upgrade (no Subscriptions or ClusterServiceVersions)\n",
            );
        }
        for (i, a) in self.namespaces.iter().enumerate() {
            if i > 0 {
                s.push('\n');
            }
            namespace_text(&mut s, a, self.explain);
        }
        if let Some(reports) = &self.extensions {
            s.push_str(&v1_answer::text(reports, self.explain));
        }
        s
    }
}

/// One namespace's section of the text answer.
fn namespace_text(s: &mut String, a: &NamespaceAnswer, explain: bool) {
    let ns = &a.namespace;
    match &a.result {
        Err((e, hint)) => {
            let _ = writeln!(s, "namespace {ns}: error: {e}");
            if let Some(h) = hint {
                let _ = writeln!(s, "  hint: {h}");
            }
        }
        Ok(r) => match &r.outcome {
            Outcome::Resolved {
                operators, reasons, ..
            } => {
                let _ = if operators.is_empty() {
                    writeln!(s, "namespace {ns}: resolved, nothing to install or upgrade")
                } else {
                    writeln!(
                        s,
                        "namespace {ns}: resolved, {} operator(s) to install or upgrade",
                        operators.len()
                    )
                };
                for o in operators {
                    let action = if o.replaces.is_empty() {
                        "install".to_owned()
                    } else {
                        format!("upgrade from {}", o.replaces)
                    };
                    let _ = writeln!(
                        s,
                        "  {}  {} (package {}, channel {}, catalog {}, version {})",
                        o.name, action, o.package, o.channel, o.catalog, o.version
                    );
                }
                behind_text(s, &a.behind, "  ");
                if explain {
                    reasons_text(s, reasons);
                }
            }
            Outcome::Unsatisfiable { causes, tree, .. } => {
                let _ = writeln!(s, "namespace {ns}: unsatisfiable");
                causes_text(s, causes, "  ");
                let _ = writeln!(
                    s,
                    "  OLM's message: {}",
                    r.outcome.message().unwrap_or_default()
                );
                if explain {
                    tree_text(s, tree);
                }
            }
        },
    }
    for w in &a.warnings {
        let _ = writeln!(s, "  warning: {w}");
    }
}

/// Why each operator was chosen, and what was passed over.
fn reasons_text(s: &mut String, reasons: &[Reason]) {
    for r in reasons {
        let _ = writeln!(s, "\n{}", r.id);
        for why in &r.required_by {
            let _ = writeln!(s, "  because {why}");
        }
        for p in &r.passed_over {
            // The decisive fact leads; the rest is in -o json.
            let first = p.because.first().map(String::as_str).unwrap_or("");
            let _ = match p.because.len() {
                0 | 1 => writeln!(s, "  passed over {}: {first}", p.id),
                n => writeln!(
                    s,
                    "  passed over {}: {first} (and {} more constraint(s); -o json lists them)",
                    p.id,
                    n - 1
                ),
            };
        }
    }
}

/// One line per Subscription that stays behind, each followed by its hint.
fn behind_text(s: &mut String, behind: &[Behind], indent: &str) {
    for b in behind {
        let _ = writeln!(s, "{indent}stays behind: {}", b.line());
        if let Some(h) = &b.hint {
            let _ = writeln!(s, "{indent}  hint: {h}");
        }
    }
}

/// One line per root cause, each followed by its hint.
fn causes_text(s: &mut String, causes: &[Cause], indent: &str) {
    for c in causes {
        let _ = writeln!(s, "{indent}why: {}", c.summary);
        if let Some(h) = &c.hint {
            let _ = writeln!(s, "{indent}  hint: {h}");
        }
    }
}

/// The unsatisfiable core as a tree a person can follow: each constraint
/// once, under what it constrains.
fn tree_text(s: &mut String, tree: &[SubscriptionNode]) {
    for sub in tree {
        let _ = writeln!(s, "\nsubscription {}", sub.subscription);
        for why in &sub.ruled_out {
            let _ = writeln!(s, "  ruled out: {why}");
        }
        // Candidates that fail alike are printed once, as a group.
        let mut groups: Vec<(String, Vec<&str>, &CandidateNode)> = Vec::new();
        for c in &sub.candidates {
            let key = candidate_key(c);
            match groups.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, ids, _)) => ids.push(&c.id),
                None => groups.push((key, vec![&c.id], c)),
            }
        }
        for (_, ids, c) in groups {
            if let [one] = ids.as_slice() {
                let _ = writeln!(s, "  candidate {one}");
                for why in &c.ruled_out {
                    let _ = writeln!(s, "    ruled out: {why}");
                }
                for r in &c.requirements {
                    let _ = writeln!(s, "    {}", r.requirement);
                    providers_text(s, r);
                }
            } else {
                let _ = writeln!(s, "  candidates {} (each):", ids.join(", "));
                for why in &c.ruled_out {
                    let _ = writeln!(s, "    ruled out: {why}");
                }
                for r in &c.requirements {
                    let _ = writeln!(s, "    requires an operator {}", r.needs);
                    providers_text(s, r);
                }
            }
        }
    }
}

/// What makes candidates fail alike: their requirements' needs and
/// providers, and how they are ruled out (with their own names taken out).
fn candidate_key(c: &CandidateNode) -> String {
    let mut key = String::new();
    for why in &c.ruled_out {
        key.push_str(&why.replace(&c.id, "{id}").replace(&c.bundle, "{}"));
        key.push('\n');
    }
    for r in &c.requirements {
        key.push_str(&r.needs);
        for p in &r.providers {
            let _ = write!(key, "|{}:{}", p.id, p.ruled_out.join(";"));
        }
        key.push('\n');
    }
    key
}

/// The providers of a requirement and why each is out.
fn providers_text(s: &mut String, r: &RequirementNode) {
    if r.providers.is_empty() {
        let _ = writeln!(s, "      no candidate: {}", no_candidate(r));
    }
    for p in &r.providers {
        let _ = if p.ruled_out.is_empty() {
            writeln!(s, "      provider {}", p.id)
        } else {
            writeln!(
                s,
                "      provider {}: ruled out: {}",
                p.id,
                p.ruled_out.join("; ")
            )
        };
    }
}

/// Why a requirement has no candidate, in the words that apply to it.
fn no_candidate(r: &RequirementNode) -> String {
    if !r.skipped.is_empty() {
        return format!(
            "{} meet{} it, but each is skipped by another entry of its channel, and OLM never offers a skipped entry",
            r.skipped.join(", "),
            if r.skipped.len() == 1 { "s" } else { "" }
        );
    }
    if !r.unseen.is_empty() {
        let named: Vec<String> = r
            .unseen
            .iter()
            .map(|u| {
                format!(
                    "{} (catalog {}, namespace {})",
                    u.bundle, u.catalog, u.namespace
                )
            })
            .collect();
        return format!(
            "only catalogs this namespace does not see meet it: {}",
            named.join(", ")
        );
    }
    "no bundle in the given catalogs meets it".to_owned()
}

/// What `resolve` and `simulate` print as their answer when the request
/// cannot be answered: `{"status": "error", "message": ...}`.
#[derive(Debug, Clone, Serialize)]
pub struct ErrorReport<'a> {
    /// Always `error`.
    pub status: &'static str,
    /// Why.
    pub message: &'a str,
}

impl<'a> ErrorReport<'a> {
    /// The report of `message`.
    pub fn new(message: &'a str) -> ErrorReport<'a> {
        ErrorReport {
            status: "error",
            message,
        }
    }
}

/// `simulate`'s answer: OLM v0's timeline, and OLM v1's beside it.
#[derive(Debug, Serialize)]
pub struct SimulateAnswer {
    /// OLM v0's timeline.
    #[serde(flatten)]
    pub timeline: Timeline,
    /// The references that lead nowhere.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// What was set aside or assumed while reading.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// OLM v1's timelines, when there are ClusterExtensions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Vec<v1_answer::TimelineReport>>,
    /// The step limit.
    #[serde(skip)]
    pub max_steps: usize,
}

/// Apply each resolution and resolve again, as OLM does, until every
/// namespace converges (at most `max_steps` resolutions); OLM v1's extensions
/// reconcile the same way.
pub fn simulate(prepared: Prepared, options: Options, max_steps: usize) -> SimulateAnswer {
    let extensions = prepared
        .v1
        .as_ref()
        .map(|v| v1_answer::timelines(&v.catalogs, &v.extensions, v.gates, max_steps));
    let warnings = prepared.dangling.iter().map(ToString::to_string).collect();
    SimulateAnswer {
        timeline: crate::simulate::simulate(prepared.input, options, max_steps),
        warnings,
        notes: prepared.notes,
        extensions,
        max_steps,
    }
}

impl SimulateAnswer {
    /// The exit code: the worst of OLM v0's and OLM v1's (0, 1 or 2).
    pub fn exit_code(&self) -> u8 {
        let v0 = match self.timeline.status {
            End::Converged | End::AwaitingApproval => 0,
            End::Unsatisfiable | End::Limit => 1,
            End::Error => 2,
        };
        match &self.extensions {
            Some(t) => v0.max(v1_answer::timelines_exit(t)),
            None => v0,
        }
    }

    /// The timeline as text: each step, each namespace's end, the warnings,
    /// what is installed at the end (OLM v0's part only when the input holds
    /// something for OLM v0), then each ClusterExtension's reconciles.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let timeline = &self.timeline;
        let v1 = self.extensions.as_deref().filter(|t| !t.is_empty());
        let v0 = !timeline.namespaces.is_empty() || v1.is_none();
        for st in &timeline.steps {
            let _ = if st.requires_approval {
                writeln!(
                    s,
                    "step {} (namespace {}): install plan waiting for approval, not applied:",
                    st.step, st.namespace
                )
            } else {
                writeln!(s, "step {} (namespace {}):", st.step, st.namespace)
            };
            for o in &st.operators {
                let _ = if o.replaces.is_empty() {
                    writeln!(s, "  install {} ({} {})", o.name, o.package, o.version)
                } else {
                    writeln!(
                        s,
                        "  upgrade {} -> {} ({} {})",
                        o.replaces, o.name, o.package, o.version
                    )
                };
            }
        }
        if timeline.namespaces.is_empty() && v0 {
            s.push_str("converged: nothing to install or upgrade (no Subscriptions or ClusterServiceVersions)\n");
        }
        for end in &timeline.namespaces {
            let ns = &end.namespace;
            let message = end.message.as_deref().unwrap_or_default();
            let _ = match end.status {
                End::Converged => {
                    let _ = writeln!(
                        s,
                        "namespace {ns}: converged after {} step(s)",
                        timeline
                            .steps
                            .iter()
                            .filter(|st| &st.namespace == ns)
                            .count()
                    );
                    behind_text(&mut s, &end.behind, "  ");
                    Ok(())
                }
                End::Limit => writeln!(
                    s,
                    "namespace {ns}: stopped after {} step(s) without converging",
                    self.max_steps
                ),
                End::AwaitingApproval => {
                    writeln!(s, "namespace {ns}: waiting for approval: {message}")
                }
                End::Unsatisfiable => {
                    let _ = writeln!(s, "namespace {ns}: stopped: unsatisfiable");
                    causes_text(&mut s, &end.causes, "  ");
                    writeln!(s, "  OLM's message: {message}")
                }
                End::Error => {
                    let _ = writeln!(s, "namespace {ns}: error: {message}");
                    match &end.hint {
                        Some(h) => writeln!(s, "  hint: {h}"),
                        None => Ok(()),
                    }
                }
            };
        }
        for w in &self.warnings {
            let _ = writeln!(s, "warning: {w}");
        }
        if v0 {
            s.push_str("installed:\n");
            for i in &timeline.installed {
                let _ = writeln!(s, "  {}/{} {}", i.namespace, i.name, i.version);
            }
        }
        if let Some(t) = &self.extensions {
            s.push_str(&v1_answer::timelines_text(t, self.max_steps));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use olmsat_catalog::Catalog;

    fn etcd() -> CatalogInput {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../corpus/catalogs/etcd-example"
        );
        CatalogInput {
            name: "example".into(),
            model: Catalog::open(&[dir]).unwrap().into_model(),
        }
    }

    fn cluster(yaml: &str) -> ClusterState {
        ClusterState::from_yaml("cluster.yaml", yaml).unwrap()
    }

    #[test]
    fn subscribe_specs_name_package_channel_and_catalog() {
        let catalogs = [etcd()];
        let s = subscription("etcd/alpha@example", "ops", &catalogs).unwrap();
        assert_eq!(
            (
                s.package.as_str(),
                s.channel.as_str(),
                s.source.as_str(),
                s.namespace.as_str()
            ),
            ("etcd", "alpha", "example", "ops")
        );
        let s = subscription("etcd", "ops", &catalogs).unwrap();
        assert_eq!(s.source, "example");
        let e = subscription("etcd@exampel", "ops", &catalogs).unwrap_err();
        assert!(e.is_usage());
        assert_eq!(e.to_string(), "--subscribe \"etcd@exampel\": no catalog named \"exampel\" was given; the catalogs given: example (give it with --catalog exampel=DIR)");
        let e = subscription("etdc", "ops", &catalogs).unwrap_err();
        assert!(!e.is_usage());
        assert!(
            e.to_string()
                .ends_with("the closest packages: etcd, etcd-backup"),
            "{e}"
        );
        assert!(matches!(
            subscription("etcd/nope", "ops", &catalogs),
            Err(PrepareError::Channel { .. })
        ));
        assert!(matches!(
            subscription("/x", "ops", &catalogs),
            Err(PrepareError::SubscribeForm { .. })
        ));
    }

    #[test]
    fn the_subscribe_namespace_follows_the_operator_groups() {
        let empty = ClusterState::default();
        assert_eq!(subscribe_namespace(None, &empty).0, "default");
        assert_eq!(subscribe_namespace(Some("x"), &empty).0, "x");
        let one = cluster("kind: OperatorGroup\nmetadata: {name: og, namespace: ops}\n");
        assert_eq!(subscribe_namespace(None, &one).0, "ops");
    }

    #[test]
    fn a_catalog_no_catalog_source_is_named_gets_a_note() {
        let state = cluster("kind: CatalogSource\nmetadata: {name: exampel, namespace: olm}\n---\nkind: CatalogSource\nmetadata: {name: other, namespace: olm}\n");
        let p = prepare(&Request::default(), [(etcd(), None)], state, Vec::new()).unwrap();
        assert!(
            p.notes.iter().any(|n| n
                .starts_with("catalog \"example\" is no CatalogSource of the cluster state")
                && n.ends_with("(the CatalogSources there: exampel, other)")),
            "{:?}",
            p.notes
        );
    }

    #[test]
    fn the_library_document_is_what_the_json_answer_holds() {
        let request = Request {
            subscribe: vec!["etcd".into()],
            ..Request::default()
        };
        let p = prepare(
            &request,
            [(etcd(), None)],
            ClusterState::default(),
            Vec::new(),
        )
        .unwrap();
        let a = resolve(&p, Options::default(), true);
        assert_eq!(a.exit_code(), 0);
        let v = serde_json::to_value(&a).unwrap();
        assert_eq!(v["status"], "resolved");
        assert_eq!(v["operators"][0]["namespace"], "default");
        assert_eq!(v["namespaces"][0]["namespace"], "default");
        assert!(
            v["namespaces"][0]["explanation"]["variables"]
                .as_u64()
                .unwrap()
                > 0
        );
        assert!(v.get("extensions").is_none());
        let text = a.text();
        assert!(
            text.contains("  etcdoperator.v0.9.5  install (package etcd"),
            "{text}"
        );
        assert!(text.contains("\n  because "), "{text}");
    }

    #[test]
    fn only_v1_input_prints_no_v0_section() {
        let request = Request {
            v1: ExtensionRequest {
                extension: Some("etcd".into()),
                ..ExtensionRequest::default()
            },
            ..Request::default()
        };
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../corpus/catalogs/etcd-example"
        );
        let files = olmsat_catalog::CatalogFiles::read(&[dir]).unwrap();
        let content = CatalogContent::from_config(files.config(), false);
        let p = prepare(
            &request,
            [(etcd(), Some(content))],
            ClusterState::default(),
            Vec::new(),
        )
        .unwrap();
        let a = resolve(&p, Options::default(), false);
        assert!(
            a.text().starts_with("extension etcd (package etcd): "),
            "{}",
            a.text()
        );
        let s = simulate(p, Options::default(), 10);
        assert!(
            s.text().starts_with("extension etcd (package etcd):\n"),
            "{}",
            s.text()
        );
        assert_eq!(s.exit_code(), 0);
        // Nothing at all: the v0 line stays.
        let p = prepare(
            &Request::default(),
            [(etcd(), None)],
            ClusterState::default(),
            Vec::new(),
        )
        .unwrap();
        assert_eq!(
            resolve(&p, Options::default(), false).text(),
            "resolved: nothing to install or upgrade (no Subscriptions or ClusterServiceVersions)\n"
        );
    }
}
