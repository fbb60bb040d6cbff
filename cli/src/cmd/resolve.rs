//! `olmsat resolve`

use std::path::PathBuf;
use std::time::Duration;

use olmsat_catalog::Location;
use olmsat_resolver::{
    behind, dangling, join_messages, missing_catalogs, namespaces, resolve, Behind, CatalogInput,
    Cause, ClusterFileError, ClusterState, Dangling, End, Input, Operator, Options, Outcome,
    Reason, Resolution, Subscription, SubscriptionNode,
};
use serde::Serialize;

use crate::args::{ReportFormat, ResolveArgs, ResolveInputs, SimulateArgs};
use crate::cmd::v1;
use crate::output::{eprint_diagnostics, print_data, Exit};
use crate::timings::timed;
use olmsat_resolver::v1::ClusterExtension;

/// OLM's default global catalog namespace.
const DEFAULT_GLOBAL_NAMESPACE: &str = "olm";

#[derive(Debug, thiserror::Error)]
enum InputError {
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Invalid(String),
}

/// The catalogs, and a note for each entry of `--catalogs DIR` passed over.
fn load_catalogs(
    args: &ResolveInputs,
    o: &olmsat_input::Options,
) -> Result<(Vec<CatalogInput>, Vec<String>), InputError> {
    let mut named: Vec<(String, PathBuf)> = Vec::new();
    let mut notes = Vec::new();
    if let Some(dir) = &args.catalogs {
        (named, notes) = v1::catalogs_in(dir, o.read.follow_links)
            .map_err(|e| InputError::Usage(e.to_string()))?;
    }
    for c in &args.catalog {
        let Some((name, path)) = c.split_once('=') else {
            return Err(InputError::Usage(format!(
                "--catalog {c:?}: expected NAME=PATH"
            )));
        };
        named.push((name.to_owned(), PathBuf::from(path)));
    }
    if named.is_empty() {
        return Err(InputError::Usage(
            "no catalogs: give --catalogs DIR or --catalog NAME=PATH".into(),
        ));
    }
    named.sort();
    let mut out = Vec::new();
    for (name, path) in named {
        let usage = |e: olmsat_input::InputError| InputError::Usage(e.to_string());
        let source = olmsat_input::Input::from_path(&path).map_err(usage)?;
        let files =
            match timed("read+parse", || super::read_input(&source, None, o)).map_err(usage)? {
                Ok(files) => files,
                Err(exit) => {
                    let message = format!("catalog {name:?} ({}) cannot be read", path.display());
                    return Err(match exit {
                        Exit::Usage => InputError::Usage(message),
                        _ => InputError::Invalid(message),
                    });
                }
            };
        if files.has_errors() {
            let errors: Vec<_> = files
                .diagnostics()
                .iter()
                .filter(|d| d.is_error())
                .cloned()
                .collect();
            eprint_diagnostics(&errors);
            return Err(InputError::Invalid(format!(
                "catalog {name:?} ({}) cannot be read: {} error(s)",
                path.display(),
                errors.len()
            )));
        }
        let catalog = timed("model", || files.build())
            .map_err(|e| InputError::Invalid(format!("catalog {name:?}: {e}")))?;
        out.push(CatalogInput {
            name,
            model: catalog.into_model(),
        });
    }
    Ok((out, notes))
}

fn load_cluster(paths: &[PathBuf], follow_links: bool) -> Result<ClusterState, InputError> {
    ClusterState::read_inputs(paths, follow_links).map_err(|e| match e {
        ClusterFileError::Open { .. } | ClusterFileError::EmptyDirectory { .. } => {
            InputError::Usage(e.to_string())
        }
        _ => InputError::Invalid(e.to_string()),
    })
}

/// The namespace `--subscribe` adds to, and why that one: `--namespace`, else
/// the namespace of the only AllNamespaces OperatorGroup (`operators`
/// upstream, `openshift-operators` on OpenShift), else of the cluster state's
/// only OperatorGroup, else `default`.
fn subscribe_namespace(args: &ResolveInputs, cluster: &ClusterState) -> (String, String) {
    if let Some(ns) = &args.namespace {
        return (ns.clone(), "given with --namespace".to_owned());
    }
    let mut groups: Vec<&olmsat_resolver::OperatorGroup> = cluster.operator_groups.iter().collect();
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
            let global: Vec<&&olmsat_resolver::OperatorGroup> = several
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

/// `PKG[/CHANNEL][@CATALOG]` as a Subscription in `namespace`.
fn subscription(
    spec: &str,
    namespace: &str,
    catalogs: &[CatalogInput],
) -> Result<Subscription, InputError> {
    let (rest, catalog) = match spec.split_once('@') {
        Some((r, c)) => (r, Some(c.to_owned())),
        None => (spec, None),
    };
    let (package, channel) = match rest.split_once('/') {
        Some((p, c)) => (p, c),
        None => (rest, ""),
    };
    if package.is_empty() {
        return Err(InputError::Usage(format!(
            "--subscribe {spec:?}: expected PKG[/CHANNEL][@CATALOG]"
        )));
    }
    let given: Vec<String> = catalogs.iter().map(|c| c.name.clone()).collect();
    let source = match catalog {
        Some(c) => {
            if !given.contains(&c) {
                let near: Vec<String> =
                    olmsat_findings::suggest::closest(&c, given.iter().map(String::as_str))
                        .into_iter()
                        .map(str::to_owned)
                        .collect();
                return Err(InputError::Usage(format!(
                    "--subscribe {spec:?}: no catalog named {c:?} was given; the catalogs given: {} (give it with --catalog {c}=DIR)",
                    olmsat_findings::suggest::join_listed(&near)
                )));
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
                let near: Vec<String> = olmsat_findings::suggest::closest(package, names)
                    .into_iter()
                    .map(str::to_owned)
                    .collect();
                return Err(InputError::Invalid(format!(
                    "--subscribe {spec:?}: no catalog given has package {package:?}; the closest packages: {}",
                    olmsat_findings::suggest::join_listed(&near)
                )));
            }
        },
    };
    if let Some(c) = catalogs.iter().find(|c| c.name == source) {
        let channel = (!channel.is_empty()).then_some(channel);
        if let Err(e) = olmsat_graph::select_channel(&c.model, package, channel) {
            // A channel that is not there, or a package the catalog lacks.
            if channel.is_some() || matches!(e, olmsat_graph::SelectError::UnknownPackage { .. }) {
                return Err(InputError::Invalid(format!(
                    "--subscribe {spec:?}: catalog {source:?}: {e}"
                )));
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
        location: Location::new(std::sync::Arc::from("--subscribe"), 0),
    })
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

/// The cluster state with `--subscribe`'s subscriptions, the catalogs, and
/// what reading them set aside or found dangling.
struct Prepared {
    input: Input,
    /// What was set aside while reading, one sentence each.
    notes: Vec<String>,
    /// References that lead nowhere.
    dangling: Vec<Dangling>,
}

/// Build the input from the arguments.
fn input(args: &ResolveInputs, o: &olmsat_input::Options) -> Result<Prepared, InputError> {
    let (catalogs, mut notes) = load_catalogs(args, o)?;
    let mut cluster = load_cluster(&args.cluster, o.read.follow_links)?;
    notes.extend(cluster.notes());
    let global_namespace = match (&args.global_namespace, cluster.implied_global_namespace()) {
        (Some(g), _) => g.clone(),
        (None, Some(n)) if n != DEFAULT_GLOBAL_NAMESPACE => {
            notes.push(format!(
                "the global catalog namespace is taken to be {n}: every CatalogSource is in it and every Subscription names it as sourceNamespace (give --global-namespace to choose another)"
            ));
            n
        }
        _ => DEFAULT_GLOBAL_NAMESPACE.to_owned(),
    };
    if !args.subscribe.is_empty() {
        let (namespace, why) = subscribe_namespace(args, &cluster);
        notes.push(format!("--subscribe adds to namespace {namespace} ({why})"));
        for s in &args.subscribe {
            let sub = subscription(s, &namespace, &catalogs)?;
            cluster
                .subscriptions
                .retain(|x| !(x.name == sub.name && x.namespace == sub.namespace));
            cluster.subscriptions.push(sub);
        }
    }
    for note in &notes {
        errln!("note: {note}");
    }
    let names: Vec<&str> = catalogs.iter().map(|c| c.name.as_str()).collect();
    let mut dangling = dangling::check(&cluster, &names, &global_namespace);
    let input = Input {
        catalogs,
        cluster,
        global_namespace,
        allow_missing_catalogs: args.allow_missing_catalogs,
    };
    if !args.allow_missing_catalogs {
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
        dangling,
    })
}

/// OLM v1's ClusterExtensions (from the cluster file and `--extension`) with
/// their catalogs and gates; `None` when there are none.
fn v1_input(
    args: &ResolveInputs,
    input: &Input,
    o: &olmsat_input::Options,
) -> Result<Option<(v1::Catalogs, Vec<ClusterExtension>, v1::Gates)>, InputError> {
    let conv = |e: v1::V1InputError| match e {
        v1::V1InputError::Usage(m) => InputError::Usage(m),
        v1::V1InputError::Invalid(m) => InputError::Invalid(m),
    };
    let gates = v1::gates(&args.v1).map_err(conv)?;
    let mut extensions = input.cluster.cluster_extensions.clone();
    if let Some(e) = v1::extension_from_flags(&args.v1).map_err(conv)? {
        extensions.retain(|x| x.name != e.name);
        extensions.push(e);
    }
    if extensions.is_empty() {
        return Ok(None);
    }
    let named = v1::named_catalogs(args.catalogs.as_deref(), &args.catalog, o.read.follow_links)
        .map_err(conv)?;
    let catalogs =
        v1::Catalogs::load(&named, &input.cluster.cluster_catalogs, gates, o).map_err(conv)?;
    Ok(Some((catalogs, extensions, gates)))
}

/// The higher of two exit codes.
fn highest(a: Exit, b: Exit) -> Exit {
    let rank = |e: &Exit| match e {
        Exit::Ok => 0,
        Exit::Invalid => 1,
        Exit::Usage => 2,
    };
    if rank(&b) > rank(&a) {
        b
    } else {
        a
    }
}

/// Resolve and print.
pub fn run(args: &ResolveArgs, o: &olmsat_input::Options) -> super::Outcome {
    run_resolve(args, o).map(Into::into)
}

/// How a namespace's resolution ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
enum Status {
    Resolved,
    Unsatisfiable,
    Error,
}

impl Status {
    fn exit(self) -> Exit {
        match self {
            Status::Resolved => Exit::Ok,
            Status::Unsatisfiable => Exit::Invalid,
            Status::Error => Exit::Usage,
        }
    }
}

/// One namespace's answer.
struct NamespaceAnswer {
    namespace: String,
    /// The resolution, or OLM's error with olmsat's hint.
    result: Result<Resolution, (String, Option<String>)>,
    /// When it resolved: the Subscriptions that stay behind their
    /// channel's head, and why.
    behind: Vec<Behind>,
}

impl NamespaceAnswer {
    fn status(&self) -> Status {
        match &self.result {
            Ok(r) => match r.outcome {
                Outcome::Resolved { .. } => Status::Resolved,
                Outcome::Unsatisfiable { .. } => Status::Unsatisfiable,
            },
            Err(_) => Status::Error,
        }
    }

    fn message(&self) -> Option<String> {
        match &self.result {
            Ok(r) => r.outcome.message(),
            Err((e, _)) => Some(e.clone()),
        }
    }

    /// The root causes of an unsatisfiable answer.
    fn causes(&self) -> &[Cause] {
        match &self.result {
            Ok(Resolution {
                outcome: Outcome::Unsatisfiable { causes, .. },
                ..
            }) => causes,
            _ => &[],
        }
    }

    /// What to do about an error.
    fn hint(&self) -> Option<&str> {
        match &self.result {
            Err((_, hint)) => hint.as_deref(),
            Ok(_) => None,
        }
    }

    fn operators(&self) -> &[Operator] {
        match &self.result {
            Ok(Resolution {
                outcome: Outcome::Resolved { operators, .. },
                ..
            }) => operators,
            _ => &[],
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
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
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
struct Answer<'a> {
    status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    operators: Vec<Planned<'a>>,
    namespaces: Vec<NamespaceJson<'a>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    extensions: Option<&'a [v1::ExtensionReport]>,
}

/// The warnings about references of namespace `ns`.
fn warnings_of(dangling: &[Dangling], ns: &str) -> Vec<String> {
    dangling
        .iter()
        .filter(|d| d.namespace() == ns)
        .map(ToString::to_string)
        .collect()
}

fn run_resolve(
    args: &ResolveArgs,
    o: &olmsat_input::Options,
) -> Result<Exit, Box<dyn std::error::Error>> {
    let prepared = match input(&args.inputs, o) {
        Ok(i) => i,
        Err(InputError::Usage(m)) => return Err(m.into()),
        Err(InputError::Invalid(m)) => return report_error(&args.inputs, &m),
    };
    let input = &prepared.input;
    let extensions = match v1_input(&args.inputs, input, o) {
        Ok(None) => None,
        Ok(Some((catalogs, exts, gates))) => {
            Some(v1::answer(&catalogs, &exts, gates, args.explain))
        }
        Err(InputError::Usage(m)) => return Err(m.into()),
        Err(InputError::Invalid(m)) => return report_error(&args.inputs, &m),
    };
    let options = Options {
        timeout: args.timeout.map(Duration::from_secs_f64),
    };
    // Each namespace on its own, as OLM does: a failure in one does not stop
    // the others.
    let answers: Vec<NamespaceAnswer> = namespaces(&input.cluster)
        .into_iter()
        .map(|ns| {
            let result = timed("resolve", || resolve(input, &ns, options))
                .map_err(|e| (e.to_string(), e.hint()));
            let behind = match &result {
                Ok(Resolution {
                    outcome:
                        Outcome::Resolved {
                            operators, stays, ..
                        },
                    ..
                }) => timed("behind", || behind(input, &ns, operators, stays)),
                _ => Vec::new(),
            };
            NamespaceAnswer {
                namespace: ns,
                result,
                behind,
            }
        })
        .collect();
    let status = answers
        .iter()
        .map(NamespaceAnswer::status)
        .max()
        .unwrap_or(Status::Resolved);
    let failures: Vec<(String, String)> = answers
        .iter()
        .filter_map(|a| Some((a.namespace.clone(), a.message()?)))
        .collect();
    let failure_refs: Vec<(&str, &str)> = failures
        .iter()
        .map(|(n, m)| (n.as_str(), m.as_str()))
        .collect();
    let message = (!failures.is_empty()).then(|| join_messages(&failure_refs));
    match args.inputs.output {
        ReportFormat::Json | ReportFormat::Yaml => {
            let mut operators: Vec<Planned<'_>> = answers
                .iter()
                .flat_map(|a| {
                    a.operators().iter().map(|operator| Planned {
                        namespace: &a.namespace,
                        operator,
                    })
                })
                .collect();
            operators.sort_by(|a, b| (a.namespace, a.operator).cmp(&(b.namespace, b.operator)));
            let namespaces = answers
                .iter()
                .map(|a| NamespaceJson {
                    namespace: &a.namespace,
                    status: a.status(),
                    message: a.message(),
                    causes: a.causes(),
                    hint: a.hint(),
                    operators: a.operators(),
                    behind: &a.behind,
                    warnings: warnings_of(&prepared.dangling, &a.namespace),
                    explanation: a.result.as_ref().ok().map(Explanation::of),
                })
                .collect();
            print_data(
                args.inputs.output,
                &Answer {
                    status,
                    message,
                    operators,
                    namespaces,
                    notes: &prepared.notes,
                    extensions: extensions.as_deref(),
                },
            )?;
        }
        ReportFormat::Text => {
            if answers.is_empty() {
                outln!("resolved: nothing to install or upgrade (no Subscriptions or ClusterServiceVersions)");
            }
            for (i, a) in answers.iter().enumerate() {
                if i > 0 {
                    outln!();
                }
                print_namespace(
                    a,
                    &warnings_of(&prepared.dangling, &a.namespace),
                    args.explain,
                );
            }
            if let Some(reports) = &extensions {
                v1::print_text(reports, args.explain);
            }
        }
    }
    let v0 = status.exit();
    Ok(match &extensions {
        Some(reports) => highest(v0, v1::exit_of(reports)),
        None => v0,
    })
}

/// One namespace's section of the text answer.
fn print_namespace(a: &NamespaceAnswer, warnings: &[String], explain: bool) {
    let ns = &a.namespace;
    match &a.result {
        Err((e, hint)) => {
            outln!("namespace {ns}: error: {e}");
            if let Some(h) = hint {
                outln!("  hint: {h}");
            }
        }
        Ok(r) => match &r.outcome {
            Outcome::Resolved {
                operators, reasons, ..
            } => {
                if operators.is_empty() {
                    outln!("namespace {ns}: resolved, nothing to install or upgrade");
                } else {
                    outln!(
                        "namespace {ns}: resolved, {} operator(s) to install or upgrade",
                        operators.len()
                    );
                }
                for o in operators {
                    let action = if o.replaces.is_empty() {
                        "install".to_owned()
                    } else {
                        format!("upgrade from {}", o.replaces)
                    };
                    outln!(
                        "  {}  {} (package {}, channel {}, catalog {}, version {})",
                        o.name,
                        action,
                        o.package,
                        o.channel,
                        o.catalog,
                        o.version
                    );
                }
                print_behind(&a.behind, "  ");
                if explain {
                    for r in reasons {
                        outln!("\n{}", r.id);
                        for why in &r.required_by {
                            outln!("  because {why}");
                        }
                        for p in &r.passed_over {
                            // The decisive fact leads; the rest is in -o json.
                            let first = p.because.first().map(String::as_str).unwrap_or("");
                            match p.because.len() {
                                0 | 1 => outln!("  passed over {}: {first}", p.id),
                                n => outln!(
                                    "  passed over {}: {first} (and {} more constraint(s); -o json lists them)",
                                    p.id,
                                    n - 1
                                ),
                            }
                        }
                    }
                }
            }
            Outcome::Unsatisfiable { causes, tree, .. } => {
                outln!("namespace {ns}: unsatisfiable");
                print_causes(causes, "  ");
                outln!(
                    "  OLM's message: {}",
                    r.outcome.message().unwrap_or_default()
                );
                if explain {
                    print_tree(tree);
                }
            }
        },
    }
    for w in warnings {
        outln!("  warning: {w}");
    }
}

/// One line per Subscription that stays behind, each followed by its hint.
fn print_behind(behind: &[Behind], indent: &str) {
    for b in behind {
        outln!("{indent}stays behind: {}", b.line());
        if let Some(h) = &b.hint {
            outln!("{indent}  hint: {h}");
        }
    }
}

/// One line per root cause, each followed by its hint.
fn print_causes(causes: &[Cause], indent: &str) {
    for c in causes {
        outln!("{indent}why: {}", c.summary);
        if let Some(h) = &c.hint {
            outln!("{indent}  hint: {h}");
        }
    }
}

/// The unsatisfiable core as a tree a person can follow: each constraint
/// once, under what it constrains.
fn print_tree(tree: &[SubscriptionNode]) {
    for s in tree {
        outln!("\nsubscription {}", s.subscription);
        for why in &s.ruled_out {
            outln!("  ruled out: {why}");
        }
        // Candidates that fail alike are printed once, as a group.
        let mut groups: Vec<(String, Vec<&str>, &olmsat_resolver::CandidateNode)> = Vec::new();
        for c in &s.candidates {
            let key = candidate_key(c);
            match groups.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, ids, _)) => ids.push(&c.id),
                None => groups.push((key, vec![&c.id], c)),
            }
        }
        for (_, ids, c) in groups {
            if let [one] = ids.as_slice() {
                outln!("  candidate {one}");
                for why in &c.ruled_out {
                    outln!("    ruled out: {why}");
                }
                for r in &c.requirements {
                    outln!("    {}", r.requirement);
                    print_providers(r);
                }
            } else {
                outln!("  candidates {} (each):", ids.join(", "));
                for why in &c.ruled_out {
                    outln!("    ruled out: {why}");
                }
                for r in &c.requirements {
                    outln!("    requires an operator {}", r.needs);
                    print_providers(r);
                }
            }
        }
    }
}

/// What makes candidates fail alike: their requirements' needs and
/// providers, and how they are ruled out (with their own names taken out).
fn candidate_key(c: &olmsat_resolver::CandidateNode) -> String {
    let mut key = String::new();
    for why in &c.ruled_out {
        key.push_str(&why.replace(&c.id, "{id}").replace(&c.bundle, "{}"));
        key.push('\n');
    }
    for r in &c.requirements {
        key.push_str(&r.needs);
        for p in &r.providers {
            key.push_str(&format!("|{}:{}", p.id, p.ruled_out.join(";")));
        }
        key.push('\n');
    }
    key
}

/// The providers of a requirement and why each is out.
fn print_providers(r: &olmsat_resolver::RequirementNode) {
    if r.providers.is_empty() {
        outln!("      no candidate: {}", no_candidate(r));
    }
    for p in &r.providers {
        if p.ruled_out.is_empty() {
            outln!("      provider {}", p.id);
        } else {
            outln!(
                "      provider {}: ruled out: {}",
                p.id,
                p.ruled_out.join("; ")
            );
        }
    }
}

/// Why a requirement has no candidate, in the words that apply to it.
fn no_candidate(r: &olmsat_resolver::RequirementNode) -> String {
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

#[derive(Serialize)]
struct ErrorReport<'a> {
    status: &'static str,
    message: &'a str,
}

/// Simulate OLM over time and print the timeline.
pub fn simulate(args: &SimulateArgs, o: &olmsat_input::Options) -> super::Outcome {
    run_simulate(args, o).map(Into::into)
}

fn run_simulate(
    args: &SimulateArgs,
    o: &olmsat_input::Options,
) -> Result<Exit, Box<dyn std::error::Error>> {
    let max_steps = args.max_steps;
    let inputs = &args.inputs;
    let Prepared {
        input,
        notes,
        dangling,
    } = match input(inputs, o) {
        Ok(i) => i,
        Err(InputError::Usage(m)) => return Err(m.into()),
        Err(InputError::Invalid(m)) => return report_error(inputs, &m),
    };
    let options = Options {
        timeout: args.timeout.map(Duration::from_secs_f64),
    };
    let v1_timelines = match v1_input(inputs, &input, o) {
        Ok(None) => None,
        Ok(Some((catalogs, exts, gates))) => {
            Some(v1::timelines(&catalogs, &exts, gates, max_steps))
        }
        Err(InputError::Usage(m)) => return Err(m.into()),
        Err(InputError::Invalid(m)) => return report_error(inputs, &m),
    };
    let timeline = olmsat_resolver::simulate(input, options, max_steps);
    let warnings: Vec<String> = dangling.iter().map(ToString::to_string).collect();
    /// The v0 timeline with what reading set aside and the v1 timelines beside it.
    #[derive(Serialize)]
    struct WithExtensions<'a, T: Serialize> {
        #[serde(flatten)]
        v0: &'a T,
        #[serde(skip_serializing_if = "<[String]>::is_empty")]
        warnings: &'a [String],
        #[serde(skip_serializing_if = "<[String]>::is_empty")]
        notes: &'a [String],
        #[serde(skip_serializing_if = "Option::is_none")]
        extensions: Option<&'a [v1::TimelineReport]>,
    }
    match inputs.output {
        ReportFormat::Json | ReportFormat::Yaml => print_data(
            inputs.output,
            &WithExtensions {
                v0: &timeline,
                warnings: &warnings,
                notes: &notes,
                extensions: v1_timelines.as_deref(),
            },
        )?,
        ReportFormat::Text => {
            for s in &timeline.steps {
                if s.requires_approval {
                    outln!(
                        "step {} (namespace {}): install plan waiting for approval, not applied:",
                        s.step,
                        s.namespace
                    );
                } else {
                    outln!("step {} (namespace {}):", s.step, s.namespace);
                }
                for o in &s.operators {
                    if o.replaces.is_empty() {
                        outln!("  install {} ({} {})", o.name, o.package, o.version);
                    } else {
                        outln!(
                            "  upgrade {} -> {} ({} {})",
                            o.replaces,
                            o.name,
                            o.package,
                            o.version
                        );
                    }
                }
            }
            if timeline.namespaces.is_empty() {
                outln!("converged: nothing to install or upgrade (no Subscriptions or ClusterServiceVersions)");
            }
            for end in &timeline.namespaces {
                let ns = &end.namespace;
                let message = end.message.as_deref().unwrap_or_default();
                match end.status {
                    End::Converged => {
                        outln!(
                            "namespace {ns}: converged after {} step(s)",
                            timeline.steps.iter().filter(|s| &s.namespace == ns).count()
                        );
                        print_behind(&end.behind, "  ");
                    }
                    End::Limit => outln!(
                        "namespace {ns}: stopped after {max_steps} step(s) without converging"
                    ),
                    End::AwaitingApproval => {
                        outln!("namespace {ns}: waiting for approval: {message}")
                    }
                    End::Unsatisfiable => {
                        outln!("namespace {ns}: stopped: unsatisfiable");
                        print_causes(&end.causes, "  ");
                        outln!("  OLM's message: {message}");
                    }
                    End::Error => {
                        outln!("namespace {ns}: error: {message}");
                        if let Some(h) = &end.hint {
                            outln!("  hint: {h}");
                        }
                    }
                }
            }
            for w in &warnings {
                outln!("warning: {w}");
            }
            outln!("installed:");
            for i in &timeline.installed {
                outln!("  {}/{} {}", i.namespace, i.name, i.version);
            }
            if let Some(t) = &v1_timelines {
                v1::print_timelines(t, max_steps);
            }
        }
    }
    let v0 = match timeline.status {
        End::Converged | End::AwaitingApproval => Exit::Ok,
        End::Unsatisfiable | End::Limit => Exit::Invalid,
        End::Error => Exit::Usage,
    };
    Ok(match &v1_timelines {
        Some(t) => highest(v0, v1::timelines_exit(t)),
        None => v0,
    })
}

fn report_error(args: &ResolveInputs, message: &str) -> Result<Exit, Box<dyn std::error::Error>> {
    match args.output {
        ReportFormat::Json | ReportFormat::Yaml => print_data(
            args.output,
            &ErrorReport {
                status: "error",
                message,
            },
        )?,
        ReportFormat::Text => errln!("olmsat: {message}"),
    }
    Ok(Exit::Usage)
}
