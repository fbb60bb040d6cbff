//! `olmsat resolve`

use std::path::PathBuf;
use std::time::Duration;

use olmsat_graph::{CatalogFiles, Location};
use olmsat_resolver::{
    namespaces, resolve, CatalogInput, ClusterFileError, ClusterState, End, Input, Operator,
    Options, Outcome, Reason, Subscription, SubscriptionNode,
};
use serde::Serialize;

use crate::args::{ReportFormat, ResolveArgs, ResolveInputs, SimulateArgs};
use crate::cmd::v1;
use crate::output::{eprint_diagnostics, print_json, Exit};
use crate::timings::timed;
use olmsat_resolver::v1::ClusterExtension;

#[derive(Debug, thiserror::Error)]
enum InputError {
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Invalid(String),
}

fn load_catalogs(args: &ResolveInputs) -> Result<Vec<CatalogInput>, InputError> {
    let mut named: Vec<(String, PathBuf)> = Vec::new();
    if let Some(dir) = &args.catalogs {
        let rd = std::fs::read_dir(dir)
            .map_err(|e| InputError::Usage(format!("{}: {e}", dir.display())))?;
        for entry in rd.flatten() {
            let p = entry.path();
            if p.is_dir() {
                named.push((entry.file_name().to_string_lossy().into_owned(), p));
            }
        }
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
        let files = timed("read+parse", || CatalogFiles::read(&[&path]))
            .map_err(|e| InputError::Usage(e.to_string()))?;
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
    Ok(out)
}

fn load_cluster(path: Option<&std::path::Path>) -> Result<ClusterState, InputError> {
    let Some(path) = path else {
        return Ok(ClusterState::default());
    };
    ClusterState::read(path).map_err(|e| match e {
        ClusterFileError::Open { .. } => InputError::Usage(e.to_string()),
        _ => InputError::Invalid(e.to_string()),
    })
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
    let source = match catalog {
        Some(c) => c,
        None => catalogs
            .iter()
            .find(|c| c.model.package(package).is_some())
            .map(|c| c.name.clone())
            .ok_or_else(|| {
                InputError::Invalid(format!(
                    "--subscribe {spec:?}: no catalog has package {package:?}"
                ))
            })?,
    };
    Ok(Subscription {
        name: package.to_owned(),
        namespace: namespace.to_owned(),
        package: package.to_owned(),
        channel: channel.to_owned(),
        source,
        source_namespace: String::new(),
        starting_csv: String::new(),
        installed_csv: String::new(),
        location: Location::new(std::sync::Arc::from("--subscribe"), 0),
    })
}

#[derive(Serialize)]
struct Explanation<'a> {
    namespace: &'a str,
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

/// Build the input from the arguments.
fn input(args: &ResolveInputs) -> Result<Input, InputError> {
    let catalogs = load_catalogs(args)?;
    let mut cluster = load_cluster(args.cluster.as_deref())?;
    for note in &cluster.notes {
        eprintln!("note: {note}");
    }
    let namespace = namespaces(&cluster)
        .into_iter()
        .next()
        .unwrap_or_else(|| "default".to_owned());
    for s in &args.subscribe {
        let sub = subscription(s, &namespace, &catalogs)?;
        cluster
            .subscriptions
            .retain(|x| !(x.name == sub.name && x.namespace == sub.namespace));
        cluster.subscriptions.push(sub);
    }
    Ok(Input {
        catalogs,
        cluster,
        global_namespace: args.global_namespace.clone(),
    })
}

/// OLM v1's ClusterExtensions (from the cluster file and `--extension`) with
/// their catalogs and gates; `None` when there are none.
fn v1_input(
    args: &ResolveInputs,
    input: &Input,
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
    let named = v1::named_catalogs(args.catalogs.as_deref(), &args.catalog).map_err(conv)?;
    let catalogs =
        v1::Catalogs::load(&named, &input.cluster.cluster_catalogs, gates).map_err(conv)?;
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
pub fn run(args: &ResolveArgs) -> super::Outcome {
    run_resolve(args).map(Into::into)
}

fn run_resolve(args: &ResolveArgs) -> Result<Exit, Box<dyn std::error::Error>> {
    let input = match input(&args.inputs) {
        Ok(i) => i,
        Err(InputError::Usage(m)) => return Err(m.into()),
        Err(InputError::Invalid(m)) => return report_error(&args.inputs, &m),
    };
    let extensions = match v1_input(&args.inputs, &input) {
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
    let mut resolutions = Vec::new();
    for ns in namespaces(&input.cluster) {
        match timed("resolve", || resolve(&input, &ns, options)) {
            Ok(r) => resolutions.push(r),
            Err(e) => return report_error(&args.inputs, &e.to_string()),
        }
    }
    let mut operators = Vec::new();
    let mut unsat = Vec::new();
    for r in &resolutions {
        match &r.outcome {
            Outcome::Resolved { operators: ops, .. } => operators.extend(ops.iter().cloned()),
            Outcome::Unsatisfiable { .. } => unsat.push(r),
        }
    }
    operators.sort();
    let explanation: Vec<Explanation<'_>> = resolutions
        .iter()
        .map(|r| Explanation {
            namespace: &r.namespace,
            reasons: match &r.outcome {
                Outcome::Resolved { reasons, .. } => reasons,
                Outcome::Unsatisfiable { .. } => &[],
            },
            constraints: match &r.outcome {
                Outcome::Unsatisfiable { constraints, .. } => constraints.clone(),
                Outcome::Resolved { .. } => Vec::new(),
            },
            tree: match &r.outcome {
                Outcome::Unsatisfiable { tree, .. } => tree,
                Outcome::Resolved { .. } => &[],
            },
            variables: r.variables,
            clauses: r.stats.clauses,
            solve_calls: r.stats.solve_calls,
        })
        .collect();
    let message = unsat
        .iter()
        .filter_map(|r| r.outcome.message())
        .collect::<Vec<_>>()
        .join("; ");
    match args.inputs.output {
        ReportFormat::Json => {
            if unsat.is_empty() {
                print_json(&Resolved {
                    status: "resolved",
                    operators: &operators,
                    extensions: extensions.as_deref(),
                    explanation: &explanation,
                })?;
            } else {
                print_json(&Unsatisfiable {
                    status: "unsatisfiable",
                    message: &message,
                    extensions: extensions.as_deref(),
                    explanation: &explanation,
                })?;
            }
        }
        ReportFormat::Text => {
            if unsat.is_empty() {
                if operators.is_empty() {
                    println!("resolved: nothing to install or upgrade");
                } else {
                    println!(
                        "resolved: {} operator(s) to install or upgrade",
                        operators.len()
                    );
                }
                for o in &operators {
                    let action = if o.replaces.is_empty() {
                        "install".to_owned()
                    } else {
                        format!("upgrade from {}", o.replaces)
                    };
                    println!(
                        "  {}  {} (package {}, channel {}, catalog {}, version {})",
                        o.name, action, o.package, o.channel, o.catalog, o.version
                    );
                }
                if args.explain {
                    for e in &explanation {
                        for r in e.reasons {
                            println!("\n{}", r.id);
                            for why in &r.required_by {
                                println!("  because {why}");
                            }
                            for p in &r.passed_over {
                                println!(
                                    "  preferred {} was passed over: {}",
                                    p.id,
                                    p.because.join("; ")
                                );
                            }
                        }
                    }
                }
            } else {
                println!("{message}");
                if args.explain {
                    for r in &unsat {
                        println!("\nnamespace {}: these constraints cannot all hold (each one is needed):", r.namespace);
                        if let Outcome::Unsatisfiable { constraints, tree } = &r.outcome {
                            for c in constraints {
                                println!("  - {c}");
                            }
                            print_tree(tree);
                        }
                    }
                }
            }
            if let Some(reports) = &extensions {
                v1::print_text(reports, args.explain);
            }
        }
    }
    let v0 = if unsat.is_empty() {
        Exit::Ok
    } else {
        Exit::Invalid
    };
    Ok(match &extensions {
        Some(reports) => highest(v0, v1::exit_of(reports)),
        None => v0,
    })
}

/// The unsatisfiable core as a tree a person can follow.
fn print_tree(tree: &[SubscriptionNode]) {
    for s in tree {
        println!("\nsubscription {}", s.subscription);
        for why in &s.ruled_out {
            println!("  ruled out: {why}");
        }
        for c in &s.candidates {
            println!("  candidate {}", c.id);
            for why in &c.ruled_out {
                println!("    ruled out: {why}");
            }
            for r in &c.requirements {
                println!("    {}", r.requirement);
                if r.providers.is_empty() {
                    println!("      no candidate: no bundle the namespace sees meets it (an entry skipped by another entry of its channel never qualifies)");
                }
                for p in &r.providers {
                    if p.ruled_out.is_empty() {
                        println!("      provider {}", p.id);
                    } else {
                        println!(
                            "      provider {}: ruled out: {}",
                            p.id,
                            p.ruled_out.join("; ")
                        );
                    }
                }
            }
        }
    }
}

#[derive(Serialize)]
struct Resolved<'a> {
    status: &'static str,
    operators: &'a [Operator],
    #[serde(skip_serializing_if = "Option::is_none")]
    extensions: Option<&'a [v1::ExtensionReport]>,
    explanation: &'a [Explanation<'a>],
}

#[derive(Serialize)]
struct Unsatisfiable<'a> {
    status: &'static str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    extensions: Option<&'a [v1::ExtensionReport]>,
    explanation: &'a [Explanation<'a>],
}

#[derive(Serialize)]
struct ErrorReport<'a> {
    status: &'static str,
    message: &'a str,
}

/// Simulate OLM over time and print the timeline.
pub fn simulate(args: &SimulateArgs) -> super::Outcome {
    run_simulate(args).map(Into::into)
}

fn run_simulate(args: &SimulateArgs) -> Result<Exit, Box<dyn std::error::Error>> {
    let max_steps = args.max_steps;
    let inputs = &args.inputs;
    let input = match input(inputs) {
        Ok(i) => i,
        Err(InputError::Usage(m)) => return Err(m.into()),
        Err(InputError::Invalid(m)) => return report_error(inputs, &m),
    };
    let options = Options {
        timeout: args.timeout.map(Duration::from_secs_f64),
    };
    let v1_timelines = match v1_input(inputs, &input) {
        Ok(None) => None,
        Ok(Some((catalogs, exts, gates))) => {
            Some(v1::timelines(&catalogs, &exts, gates, max_steps))
        }
        Err(InputError::Usage(m)) => return Err(m.into()),
        Err(InputError::Invalid(m)) => return report_error(inputs, &m),
    };
    let timeline = match olmsat_resolver::simulate(input, options, max_steps) {
        Ok(t) => t,
        Err(e) => return report_error(inputs, &e.to_string()),
    };
    /// The v0 timeline with the v1 timelines beside it.
    #[derive(Serialize)]
    struct WithExtensions<'a, T: Serialize> {
        #[serde(flatten)]
        v0: &'a T,
        #[serde(skip_serializing_if = "Option::is_none")]
        extensions: Option<&'a [v1::TimelineReport]>,
    }
    match inputs.output {
        ReportFormat::Json => print_json(&WithExtensions {
            v0: &timeline,
            extensions: v1_timelines.as_deref(),
        })?,
        ReportFormat::Text => {
            for s in &timeline.steps {
                println!("step {} (namespace {}):", s.step, s.namespace);
                for o in &s.operators {
                    if o.replaces.is_empty() {
                        println!("  install {} ({} {})", o.name, o.package, o.version);
                    } else {
                        println!(
                            "  upgrade {} -> {} ({} {})",
                            o.replaces, o.name, o.package, o.version
                        );
                    }
                }
            }
            match timeline.status {
                End::Converged => println!("converged after {} step(s)", timeline.steps.len()),
                End::Limit => println!("stopped after {max_steps} step(s) without converging"),
                End::Unsatisfiable => println!(
                    "stopped: {}",
                    timeline
                        .message
                        .as_deref()
                        .unwrap_or("constraints not satisfiable")
                ),
            }
            println!("installed:");
            for i in &timeline.installed {
                println!("  {}/{} {}", i.namespace, i.name, i.version);
            }
            if let Some(t) = &v1_timelines {
                v1::print_timelines(t, max_steps);
            }
        }
    }
    let v0 = match timeline.status {
        End::Converged => Exit::Ok,
        End::Unsatisfiable | End::Limit => Exit::Invalid,
    };
    Ok(match &v1_timelines {
        Some(t) => highest(v0, v1::timelines_exit(t)),
        None => v0,
    })
}

fn report_error(args: &ResolveInputs, message: &str) -> Result<Exit, Box<dyn std::error::Error>> {
    match args.output {
        ReportFormat::Json => print_json(&ErrorReport {
            status: "error",
            message,
        })?,
        ReportFormat::Text => eprintln!("olmsat: {message}"),
    }
    Ok(Exit::Usage)
}
