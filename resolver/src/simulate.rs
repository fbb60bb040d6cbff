//! OLM's behaviour over time: resolve, apply the result to the cluster (install new
//! CSVs, replace upgraded ones, point subscriptions at them, create the
//! subscriptions OLM generates for dependencies), and resolve again, one upgrade
//! edge per resolution, until nothing changes; each namespace on its own.

use olmsat_encoding::location::Location;
use serde::Serialize;

use crate::behind::{behind, Behind};
use crate::cluster::{InstalledCsv, Subscription};
use crate::resolve::{self, Cause, Input, Operator, Options, Outcome};

/// How a simulation ended (per namespace, and overall: the worst of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// A resolution changed nothing.
    Converged,
    /// An install plan waits for approval: a Subscription of the namespace
    /// has `installPlanApproval: Manual`, and OLM applies nothing until a
    /// person approves the plan.
    #[serde(rename = "awaitingApproval")]
    AwaitingApproval,
    /// The step limit was reached (OLM would keep going).
    Limit,
    /// A resolution was unsatisfiable.
    Unsatisfiable,
    /// Resolution could not run (OLM's "ErrorPreventedResolution").
    Error,
}

/// One resolution and what it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// 1-based step number.
    pub step: usize,
    /// Namespace resolved.
    pub namespace: String,
    /// What was installed or upgraded (or, when the plan waits for
    /// approval, what it would install or upgrade).
    pub operators: Vec<Operator>,
    /// The install plan waits for approval and was not applied.
    #[serde(
        rename = "requiresApproval",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub requires_approval: bool,
}

/// An installed operator at the end.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Installed {
    /// Namespace.
    pub namespace: String,
    /// CSV name.
    pub name: String,
    /// Version.
    pub version: String,
}

/// How the simulation of one namespace ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamespaceEnd {
    /// The namespace.
    pub namespace: String,
    /// How it ended.
    pub status: End,
    /// OLM's message when a resolution was unsatisfiable, or the error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The root causes when a resolution was unsatisfiable.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<Cause>,
    /// What to do about the error, when olmsat knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// When it converged: the Subscriptions whose installed CSV stays
    /// behind its channel's head, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub behind: Vec<Behind>,
}

/// The timeline of a simulation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Timeline {
    /// How it ended: the worst of the namespaces' ends.
    pub status: End,
    /// The steps that changed something.
    pub steps: Vec<Step>,
    /// The messages of the namespaces that did not converge (see
    /// [`resolve::join_messages`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// How each namespace ended, sorted by namespace.
    pub namespaces: Vec<NamespaceEnd>,
    /// Installed CSVs at the end, sorted (copies are not installed operators).
    pub installed: Vec<Installed>,
}

/// Simulate at most `max_steps` resolutions per namespace. Each namespace is
/// resolved on its own, as OLM does: one that is unsatisfiable or cannot be
/// resolved stops there, and the others go on.
pub fn simulate(mut input: Input, options: Options, max_steps: usize) -> Timeline {
    let mut steps = Vec::new();
    let mut ends = Vec::new();
    for ns in resolve::namespaces(&input.cluster) {
        let mut end = NamespaceEnd {
            namespace: ns.clone(),
            status: End::Limit,
            message: None,
            causes: Vec::new(),
            hint: None,
            behind: Vec::new(),
        };
        for _ in 0..max_steps {
            match resolve::resolve(&input, &ns, options) {
                Err(e) => {
                    end.status = End::Error;
                    end.message = Some(e.to_string());
                    end.hint = e.hint();
                    break;
                }
                Ok(r) => match r.outcome {
                    Outcome::Unsatisfiable { ref causes, .. } => {
                        end.status = End::Unsatisfiable;
                        end.causes = causes.clone();
                        end.message = r.outcome.message();
                        break;
                    }
                    Outcome::Resolved {
                        operators, stays, ..
                    } => {
                        if operators.is_empty() {
                            end.status = End::Converged;
                            end.behind = behind(&input, &ns, &operators, &stays);
                            break;
                        }
                        // OLM: any Subscription of the namespace with manual
                        // approval makes the namespace's install plans manual.
                        let manual: Vec<&str> = input
                            .cluster
                            .subscriptions
                            .iter()
                            .filter(|s| s.namespace == ns && s.manual_approval)
                            .map(|s| s.name.as_str())
                            .collect();
                        if let Some(first) = manual.first() {
                            end.status = End::AwaitingApproval;
                            end.message = Some(format!(
                                "the install plan of step {} needs approval: subscription {first} has installPlanApproval: Manual, which makes every install plan of namespace {ns} wait for a person to approve it",
                                steps.len() + 1
                            ));
                            steps.push(Step {
                                step: steps.len() + 1,
                                namespace: ns.clone(),
                                operators,
                                requires_approval: true,
                            });
                            break;
                        }
                        apply(&mut input, &ns, &operators);
                        steps.push(Step {
                            step: steps.len() + 1,
                            namespace: ns.clone(),
                            operators,
                            requires_approval: false,
                        });
                    }
                },
            }
        }
        ends.push(end);
    }
    let status = ends
        .iter()
        .map(|e| e.status)
        .max()
        .unwrap_or(End::Converged);
    let failures: Vec<(&str, &str)> = ends
        .iter()
        .filter(|e| e.status != End::AwaitingApproval)
        .filter_map(|e| Some((e.namespace.as_str(), e.message.as_deref()?)))
        .collect();
    let message = (!failures.is_empty()).then(|| resolve::join_messages(&failures));
    let mut installed: Vec<Installed> = input
        .cluster
        .csvs
        .iter()
        .map(|c| Installed {
            namespace: c.namespace.clone(),
            name: c.name.clone(),
            version: c
                .version
                .as_ref()
                .map(|v| v.to_string())
                .unwrap_or_default(),
        })
        .collect();
    installed.sort();
    Timeline {
        status,
        steps,
        message,
        namespaces: ends,
        installed,
    }
}

/// Apply one resolution to the cluster state, as OLM's catalog operator does.
fn apply(input: &mut Input, ns: &str, operators: &[Operator]) {
    for op in operators {
        let Some(csv) = installed_csv(input, ns, op) else {
            continue;
        };
        // The Subscription this change answers: the one whose installed CSV it
        // replaces, or for a fresh install one with no current operator (none
        // named, or one named that the namespace does not hold, as in an
        // incomplete dump).
        let cluster = &input.cluster;
        let has_current = |s: &Subscription| {
            cluster
                .csvs
                .iter()
                .any(|c| c.namespace == ns && c.name == s.installed_csv)
        };
        let existing = cluster.subscriptions.iter().position(|s| {
            s.namespace == ns
                && s.package == op.package
                && if op.replaces.is_empty() {
                    !has_current(s)
                } else {
                    s.installed_csv == op.replaces
                }
        });
        if !op.replaces.is_empty() {
            input
                .cluster
                .csvs
                .retain(|c| !(c.namespace == ns && c.name == op.replaces));
        }
        input.cluster.csvs.push(csv);
        let existing = existing.and_then(|i| input.cluster.subscriptions.get_mut(i));
        match existing {
            Some(s) => s.installed_csv = op.name.clone(),
            None => {
                // OLM creates a subscription for a dependency it installs.
                let source_namespace = input
                    .cluster
                    .catalog_sources
                    .iter()
                    .find(|c| c.name == op.catalog)
                    .map(|c| c.namespace.clone())
                    .unwrap_or_default();
                input.cluster.subscriptions.push(Subscription {
                    name: format!(
                        "{}-{}-{}-{}",
                        op.package, op.channel, op.catalog, source_namespace
                    ),
                    namespace: ns.to_owned(),
                    package: op.package.clone(),
                    channel: op.channel.clone(),
                    source: op.catalog.clone(),
                    source_namespace,
                    starting_csv: op.name.clone(),
                    installed_csv: op.name.clone(),
                    manual_approval: false,
                    location: Location::new(std::sync::Arc::from("<simulated>"), 0),
                });
            }
        }
    }
}

/// The CSV a bundle becomes once installed.
fn installed_csv(input: &Input, ns: &str, op: &Operator) -> Option<InstalledCsv> {
    let cat = input.catalogs.iter().find(|c| c.name == op.catalog)?;
    let pkg = cat.model.package(&op.package)?;
    let bundle = pkg.bundle(&op.name)?;
    let entry = pkg.channel(&op.channel)?.entry(&op.name)?;
    Some(InstalledCsv {
        name: op.name.clone(),
        namespace: ns.to_owned(),
        version: bundle.version.clone(),
        replaces: entry.replaces.clone(),
        skips: entry.skips.clone(),
        skip_range: entry.skip_range.clone(),
        properties: bundle.properties.clone(),
        location: Location::new(std::sync::Arc::from("<simulated>"), 0),
    })
}
