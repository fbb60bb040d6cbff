//! OLM v1 in `resolve` and `simulate`: ClusterCatalogs and ClusterExtensions from
//! the cluster file or `--extension`, answered next to the v0 answer.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use olmsat_catalog::Location;
use olmsat_resolver::v1::conditions::{conditions, Condition};
use olmsat_resolver::v1::resolve::{Explanation, Step};
use olmsat_resolver::v1::simulate::{self, End, Hop};
pub use olmsat_resolver::v1::Gates;
use olmsat_resolver::v1::{
    reconcile, Catalog, CatalogContent, ClusterCatalog, ClusterExtension, InstalledBundle,
    UpgradePolicy,
};
use serde::Serialize;

use crate::output::Exit;

/// The command-line flags that describe one ClusterExtension and the gates.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Flags {
    /// OLM v1: add a ClusterExtension for this package (like --subscribe for v0).
    #[arg(long, value_name = "PKG")]
    pub extension: Option<String>,
    /// OLM v1: the --extension's version range (Masterminds syntax, e.g. ">=1.2, <2").
    #[arg(
        long = "version",
        id = "version_range",
        value_name = "RANGE",
        requires = "extension"
    )]
    pub version: Option<String>,
    /// OLM v1: a channel of the --extension (repeatable; none: all channels).
    #[arg(long = "channel", value_name = "CHANNEL", requires = "extension")]
    pub channels: Vec<String>,
    /// OLM v1: the --extension's installed bundle.
    #[arg(long, value_name = "NAME@VERSION", requires = "extension")]
    pub installed: Option<String>,
    /// OLM v1: the --extension's upgrade policy.
    #[arg(long, value_name = "POLICY", requires = "extension", value_parser = ["CatalogProvided", "SelfCertified"])]
    pub upgrade_constraint_policy: Option<String>,
    /// OLM v1: set an operator-controller feature gate (repeatable):
    /// BundleReleaseSupport=true|false (default false).
    #[arg(long = "feature-gate", value_name = "NAME=true|false")]
    pub feature_gates: Vec<String>,
}

/// Why the v1 input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum V1InputError {
    /// A usage error.
    #[error("{0}")]
    Usage(String),
    /// Unreadable input.
    #[error("{0}")]
    Invalid(String),
}

/// The feature gates from `--feature-gate`.
pub fn gates(flags: &Flags) -> Result<Gates, V1InputError> {
    let mut gates = Gates::default();
    for g in &flags.feature_gates {
        let Some((name, value)) = g.split_once('=') else {
            return Err(V1InputError::Usage(format!(
                "--feature-gate {g:?}: expected NAME=true|false"
            )));
        };
        let on = match value {
            "true" => true,
            "false" => false,
            _ => {
                return Err(V1InputError::Usage(format!(
                    "--feature-gate {g:?}: the value must be true or false"
                )))
            }
        };
        match name {
            "BundleReleaseSupport" => gates.bundle_release_support = on,
            _ => {
                return Err(V1InputError::Usage(format!(
                    "--feature-gate {g:?}: unknown gate {name:?} (known: BundleReleaseSupport)"
                )))
            }
        }
    }
    Ok(gates)
}

/// The ClusterExtension `--extension` and its flags describe.
pub fn extension_from_flags(flags: &Flags) -> Result<Option<ClusterExtension>, V1InputError> {
    let Some(package) = &flags.extension else {
        return Ok(None);
    };
    if package.is_empty() {
        return Err(V1InputError::Usage(
            "--extension needs a package name".into(),
        ));
    }
    let installed = match &flags.installed {
        None => None,
        Some(text) => {
            let Some((name, version)) = text.rsplit_once('@') else {
                return Err(V1InputError::Usage(format!(
                    "--installed {text:?}: expected NAME@VERSION (e.g. etcd.v0.9.4@0.9.4)"
                )));
            };
            Some(InstalledBundle {
                name: name.to_owned(),
                version: version.to_owned(),
                release: None,
            })
        }
    };
    let policy = match flags.upgrade_constraint_policy.as_deref() {
        Some("SelfCertified") => UpgradePolicy::SelfCertified,
        _ => UpgradePolicy::CatalogProvided,
    };
    Ok(Some(ClusterExtension {
        name: package.clone(),
        namespace: package.clone(),
        package: package.clone(),
        version: flags.version.clone().unwrap_or_default(),
        channels: flags.channels.clone(),
        selector: None,
        policy,
        installed,
        location: Location::new(Arc::from("--extension"), 0),
    }))
}

/// Catalog names and their directories.
pub type NamedCatalogs = Vec<(String, PathBuf)>;

/// The catalogs of `--catalogs DIR`: each subdirectory, named after it (a
/// link to a directory inside DIR too, and with `follow_links` any link to a
/// directory); and a note for each entry passed over: a link that leaves
/// DIR, a named pipe, socket or device.
pub fn catalogs_in(
    dir: &Path,
    follow_links: bool,
) -> Result<(NamedCatalogs, Vec<String>), V1InputError> {
    let found = olmsat_io::subdirectories(dir, follow_links)
        .map_err(|e| V1InputError::Usage(format!("{}: {e}", dir.display())))?;
    let named = found
        .dirs
        .into_iter()
        .map(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name, p)
        })
        .collect();
    let notes = found
        .skipped
        .iter()
        .map(|s| {
            let path = s.path.display().to_string();
            let text = match &s.reason {
                olmsat_io::SkipReason::LinkOutside { target } => format!(
                    "skipped {path}: a symbolic link to {}, outside {}; olmsat does not follow links that leave the directory named (give it with --catalog NAME=PATH to read it)",
                    target.display(),
                    dir.display()
                ),
                olmsat_io::SkipReason::NotRegular(kind) => {
                    format!("skipped {path}: a {kind}, not a catalog directory")
                }
            };
            olmsat_io::terminal_line(&text).into_owned()
        })
        .collect();
    Ok((named, notes))
}

/// Catalog names and directories from `--catalogs DIR` and `--catalog NAME=DIR`,
/// sorted by name.
pub fn named_catalogs(
    dir: Option<&Path>,
    catalogs: &[String],
    follow_links: bool,
) -> Result<Vec<(String, PathBuf)>, V1InputError> {
    let mut named: Vec<(String, PathBuf)> = Vec::new();
    if let Some(dir) = dir {
        // The notes were printed when the v0 catalogs were read.
        named = catalogs_in(dir, follow_links)?.0;
    }
    for c in catalogs {
        let Some((name, path)) = c.split_once('=') else {
            return Err(V1InputError::Usage(format!(
                "--catalog {c:?}: expected NAME=PATH"
            )));
        };
        named.push((name.to_owned(), PathBuf::from(path)));
    }
    named.sort();
    Ok(named)
}

/// Load a catalog's content as catalogd serves it (unvalidated).
pub fn load_content(
    name: &str,
    path: &Path,
    gates: Gates,
    o: &olmsat_input::Options,
) -> Result<CatalogContent, V1InputError> {
    let usage = |e: olmsat_input::InputError| V1InputError::Usage(e.to_string());
    let input = olmsat_input::Input::from_path(path).map_err(usage)?;
    let loaded = match super::load_input(&input, o).map_err(usage)? {
        Ok(loaded) => loaded,
        Err(exit) => {
            let message = format!("catalog {name:?} ({}) cannot be read", path.display());
            return Err(match exit {
                Exit::Usage => V1InputError::Usage(message),
                _ => V1InputError::Invalid(message),
            });
        }
    };
    if loaded.has_errors() {
        let errors: Vec<_> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        crate::output::eprint_diagnostics(&errors);
        return Err(V1InputError::Invalid(format!(
            "catalog {name:?} ({}) cannot be read: {} error(s)",
            path.display(),
            errors.len()
        )));
    }
    Ok(CatalogContent::from_config(
        &loaded.config,
        gates.bundle_release_support,
    ))
}

/// ClusterCatalogs with their content: the cluster file's, or one per named
/// catalog when the file has none.
pub struct Catalogs {
    /// The ClusterCatalog objects.
    pub metas: Vec<ClusterCatalog>,
    /// Content by catalog name.
    pub contents: Vec<(String, CatalogContent)>,
}

impl Catalogs {
    /// Build them.
    pub fn load(
        named: &[(String, PathBuf)],
        from_cluster: &[ClusterCatalog],
        gates: Gates,
        o: &olmsat_input::Options,
    ) -> Result<Catalogs, V1InputError> {
        let metas: Vec<ClusterCatalog> = if from_cluster.is_empty() {
            named
                .iter()
                .map(|(n, _)| ClusterCatalog::named(n))
                .collect()
        } else {
            for (n, _) in named {
                if !from_cluster.iter().any(|c| &c.name == n) {
                    errln!("note: catalog {n:?} has no ClusterCatalog in the cluster file; OLM v1 does not see it");
                }
            }
            from_cluster.to_vec()
        };
        let mut contents = Vec::new();
        for (n, path) in named {
            if metas.iter().any(|m| &m.name == n) {
                contents.push((n.clone(), load_content(n, path, gates, o)?));
            }
        }
        Ok(Catalogs { metas, contents })
    }

    /// The catalogs as the resolver takes them.
    pub fn view(&self) -> Vec<Catalog<'_>> {
        self.metas
            .iter()
            .map(|m| Catalog {
                meta: m,
                content: self
                    .contents
                    .iter()
                    .find(|(n, _)| *n == m.name)
                    .map(|(_, c)| c),
            })
            .collect()
    }
}

/// One ClusterExtension's answer, as JSON.
#[derive(Debug, Serialize)]
pub struct ExtensionReport {
    name: String,
    package: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    installed: Option<String>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    bundle: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    release: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    catalog: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    deprecations: Vec<String>,
    conditions: Vec<Condition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    explanation: Option<Explanation>,
    #[serde(skip)]
    exit: u8,
}

/// Resolve every ClusterExtension.
pub fn answer(
    catalogs: &Catalogs,
    extensions: &[ClusterExtension],
    gates: Gates,
    explain: bool,
) -> Vec<ExtensionReport> {
    let view = catalogs.view();
    let mut out: Vec<ExtensionReport> = extensions
        .iter()
        .map(|ext| {
            let outcome = reconcile(&view, ext, gates);
            let conds = conditions(ext, &outcome, gates);
            let deprecations = conds
                .iter()
                .filter(|c| c.type_ == "Deprecated" && c.status == "True")
                .flat_map(|c| c.message.lines().map(str::to_owned))
                .collect();
            let installed = ext
                .installed
                .as_ref()
                .map(|i| format!("{}@{}", i.name, i.version));
            let explanation = explain.then(|| outcome.explanation.clone());
            match &outcome.result {
                Ok(r) => ExtensionReport {
                    name: ext.name.clone(),
                    package: ext.package.clone(),
                    installed,
                    status: "resolved",
                    bundle: Some(r.bundle.clone()),
                    version: Some(r.reported_version(gates)),
                    release: if gates.bundle_release_support {
                        r.version.release.as_ref().map(ToString::to_string)
                    } else {
                        None
                    },
                    catalog: (!r.catalog.is_empty()).then(|| r.catalog.clone()),
                    message: match &outcome.fallback {
                        Some(e) => Some(format!(
                            "kept the installed bundle: no ClusterCatalog matching the extension exists (deleted catalogs), so operator-controller falls back to what is installed; resolving gave: {e}"
                        )),
                        None => r.install_problem.clone(),
                    },
                    deprecations,
                    conditions: conds,
                    explanation,
                    exit: 0,
                },
                Err(e) => ExtensionReport {
                    name: ext.name.clone(),
                    package: ext.package.clone(),
                    installed,
                    status: "error",
                    bundle: None,
                    version: None,
                    release: None,
                    catalog: None,
                    message: Some(e.to_string()),
                    deprecations,
                    conditions: conds,
                    explanation,
                    exit: e.exit_code(),
                },
            }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Print the answers as text.
pub fn print_text(reports: &[ExtensionReport], explain: bool) {
    for r in reports {
        let from = r
            .installed
            .as_deref()
            .map(|i| format!(" (installed {i})"))
            .unwrap_or_default();
        match r.status {
            "resolved" => outln!(
                "extension {} (package {}){from}: {} {} from catalog {}",
                r.name,
                r.package,
                r.bundle.as_deref().unwrap_or_default(),
                r.version.as_deref().unwrap_or_default(),
                r.catalog.as_deref().unwrap_or_default()
            ),
            _ => outln!(
                "extension {} (package {}){from}: error: {}",
                r.name,
                r.package,
                r.message.as_deref().unwrap_or_default()
            ),
        }
        if r.status == "resolved" {
            if let Some(m) = &r.message {
                outln!("  after selection: {m}");
            }
        }
        for d in &r.deprecations {
            outln!("  deprecated: {d}");
        }
        if explain {
            if let Some(ex) = &r.explanation {
                print_explanation(ex);
            }
        }
    }
}

fn print_explanation(ex: &Explanation) {
    for Step {
        filter,
        before,
        after,
    } in &ex.steps
    {
        outln!("  {:<36} {before:>6} -> {after}", filter.describe());
    }
    if let Some(f) = ex.emptied_by {
        outln!("  emptied by: {}", f.describe());
    }
    if let Some(m) = &ex.nearest_miss {
        outln!("  nearest miss: {m}");
    }
    if let Some(h) = &ex.hint {
        outln!("  hint: {h}");
    }
}

/// The highest exit code among the answers.
pub fn exit_of(reports: &[ExtensionReport]) -> Exit {
    match reports.iter().map(|r| r.exit).max().unwrap_or(0) {
        0 => Exit::Ok,
        1 => Exit::Invalid,
        _ => Exit::Usage,
    }
}

/// One ClusterExtension's reconciles, as JSON.
#[derive(Debug, Serialize)]
pub struct TimelineReport {
    name: String,
    package: String,
    hops: Vec<Hop>,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    installed: Option<String>,
    #[serde(skip)]
    exit: u8,
}

/// Reconcile every ClusterExtension until it stops changing.
pub fn timelines(
    catalogs: &Catalogs,
    extensions: &[ClusterExtension],
    gates: Gates,
    max_steps: usize,
) -> Vec<TimelineReport> {
    let view = catalogs.view();
    let mut out: Vec<TimelineReport> = extensions
        .iter()
        .map(|ext| {
            let t = simulate::simulate(&view, ext, gates, max_steps);
            let (status, message, exit) = match &t.end {
                End::Converged => ("converged", None, 0),
                End::Limit => ("limit", None, 1),
                End::Failed(e) => ("error", Some(e.to_string()), e.exit_code()),
            };
            TimelineReport {
                name: ext.name.clone(),
                package: ext.package.clone(),
                hops: t.hops,
                status,
                message,
                installed: t.installed.map(|i| format!("{}@{}", i.name, i.version)),
                exit,
            }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Print timelines as text.
pub fn print_timelines(reports: &[TimelineReport], max_steps: usize) {
    for r in reports {
        outln!("extension {} (package {}):", r.name, r.package);
        for h in &r.hops {
            match &h.from {
                None => outln!(
                    "  reconcile {}: install {} ({}, catalog {})",
                    h.step,
                    h.to,
                    h.version,
                    h.catalog
                ),
                Some(f) => outln!(
                    "  reconcile {}: upgrade {f} -> {} ({}, catalog {})",
                    h.step,
                    h.to,
                    h.version,
                    h.catalog
                ),
            }
        }
        match r.status {
            "converged" => outln!("  converged after {} hop(s)", r.hops.len()),
            "limit" => outln!("  stopped after {max_steps} reconcile(s) without converging"),
            _ => outln!("  stopped: {}", r.message.as_deref().unwrap_or_default()),
        }
        if let Some(i) = &r.installed {
            outln!("  installed: {i}");
        }
    }
}

/// The highest exit code among the timelines.
pub fn timelines_exit(reports: &[TimelineReport]) -> Exit {
    match reports.iter().map(|r| r.exit).max().unwrap_or(0) {
        0 => Exit::Ok,
        1 => Exit::Invalid,
        _ => Exit::Usage,
    }
}

/// One hop of `path --olm v1`.
#[derive(Debug, Serialize)]
struct PathHop {
    from: String,
    to: String,
    version: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PathReport<'a> {
    package: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    channel: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<&'a str>,
    olm: &'static str,
    from: String,
    steps: Vec<PathHop>,
    end: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reaches: Option<bool>,
}

/// What `path --olm v1` was asked.
pub struct PathRequest<'a> {
    /// Catalog.
    pub path: &'a Path,
    /// Package.
    pub package: &'a str,
    /// Channel (`None`: all channels; v1 ignores `defaultChannel`).
    pub channel: Option<&'a str>,
    /// Start: a bundle name or a version.
    pub from: &'a str,
    /// Target bundle name, if any.
    pub to: Option<&'a str>,
    /// Masterminds version range bounding the path.
    pub version: Option<&'a str>,
    /// Output format.
    pub format: crate::args::ReportFormat,
    /// How the catalog is read.
    pub options: &'a olmsat_input::Options,
}

/// OLM v1's path: one hop per reconcile, to the highest successor.
pub fn path(req: &PathRequest<'_>) -> Result<Exit, Box<dyn std::error::Error>> {
    let content = match load_content("catalog", req.path, Gates::default(), req.options) {
        Ok(c) => c,
        Err(V1InputError::Usage(m)) => return Err(m.into()),
        Err(V1InputError::Invalid(m)) => {
            errln!("olmsat: {m}");
            return Ok(Exit::Usage);
        }
    };
    let Some(slice) = content.package(req.package) else {
        let known: Vec<&str> = content.package_names().collect();
        let near = olmsat_findings::suggest::closest(req.package, known.iter().copied());
        let hint = if near.is_empty() {
            String::new()
        } else {
            format!(" (did you mean {}?)", near.join(", "))
        };
        errln!(
            "olmsat: package {:?} is not in the catalog{hint}",
            req.package
        );
        return Ok(Exit::Invalid);
    };
    if let Some(c) = req.channel {
        if !slice.channels.iter().any(|ch| ch.name == c) {
            let names: Vec<&str> = slice.channels.iter().map(|ch| ch.name.as_str()).collect();
            errln!(
                "olmsat: package {:?} has no channel {c:?} (channels: {})",
                req.package,
                names.join(", ")
            );
            return Ok(Exit::Invalid);
        }
    }
    // A bundle name, else a bundle's version, else a bare version (only
    // skipRanges can apply to it).
    let installed = match slice.bundles.iter().find(|b| b.name == req.from) {
        Some(b) => InstalledBundle {
            name: b.name.clone(),
            version: b.version_text.clone(),
            release: None,
        },
        None => match slice.bundles.iter().find(|b| b.version_text == req.from) {
            Some(b) => InstalledBundle {
                name: b.name.clone(),
                version: b.version_text.clone(),
                release: None,
            },
            None => {
                if olmsat_versions::version::parse_strict(req.from).is_err() {
                    errln!(
                        "olmsat: --from {:?} is neither a bundle of package {:?} nor a version",
                        req.from,
                        req.package
                    );
                    return Ok(Exit::Invalid);
                }
                InstalledBundle {
                    name: String::new(),
                    version: req.from.to_owned(),
                    release: None,
                }
            }
        },
    };
    let meta = ClusterCatalog::named("catalog");
    let catalogs = [Catalog {
        meta: &meta,
        content: Some(&content),
    }];
    let ext = ClusterExtension {
        name: req.package.to_owned(),
        namespace: req.package.to_owned(),
        package: req.package.to_owned(),
        version: req.version.unwrap_or_default().to_owned(),
        channels: req.channel.map(|c| vec![c.to_owned()]).unwrap_or_default(),
        selector: None,
        policy: UpgradePolicy::CatalogProvided,
        installed: Some(installed.clone()),
        location: Location::new(Arc::from("path"), 0),
    };
    let t = simulate::simulate(&catalogs, &ext, Gates::default(), 10_000);
    let label = |name: &str, version: &str| {
        if name.is_empty() {
            format!("version {version}")
        } else {
            name.to_owned()
        }
    };
    let steps: Vec<PathHop> = t
        .hops
        .iter()
        .map(|h| PathHop {
            from: h
                .from
                .clone()
                .filter(|f| !f.is_empty())
                .unwrap_or_else(|| label("", &installed.version)),
            to: h.to.clone(),
            version: h.version.clone(),
        })
        .collect();
    let (end, message, mut exit) = match &t.end {
        End::Converged => ("converged", None, Exit::Ok),
        End::Limit => ("limit", None, Exit::Invalid),
        End::Failed(e) => (
            "error",
            Some(e.to_string()),
            if e.exit_code() == 2 {
                Exit::Usage
            } else {
                Exit::Invalid
            },
        ),
    };
    let reaches = req
        .to
        .map(|to| installed.name == to || steps.iter().any(|s| s.to == to));
    if reaches == Some(false) && matches!(exit, Exit::Ok) {
        exit = Exit::Invalid;
    }
    let from = label(&installed.name, &installed.version);
    match req.format {
        crate::args::ReportFormat::Json | crate::args::ReportFormat::Yaml => {
            crate::output::print_data(
                req.format,
                &PathReport {
                    package: req.package,
                    channel: req.channel,
                    version: req.version,
                    olm: "v1",
                    from,
                    steps,
                    end,
                    message,
                    reaches,
                },
            )?
        }
        crate::args::ReportFormat::Text => {
            let scope = match req.channel {
                Some(c) => format!("channel {c}"),
                None => "all channels".to_owned(),
            };
            outln!(
                "OLM v1 path for {} in {scope} from {from} (one hop per reconcile, to the highest successor):",
                req.package
            );
            for (i, s) in steps.iter().enumerate() {
                outln!("  {}. {} -> {} ({})", i + 1, s.from, s.to, s.version);
            }
            match end {
                "converged" if steps.is_empty() => {
                    outln!("  stays at {from}: nothing newer is a successor")
                }
                "converged" => outln!("  converged after {} hop(s)", steps.len()),
                "limit" => outln!("  stopped without converging"),
                _ => outln!("  stopped: {}", message.as_deref().unwrap_or_default()),
            }
            if let (Some(to), Some(r)) = (req.to, reaches) {
                outln!("  {} {to}", if r { "reaches" } else { "does not reach" });
            }
        }
    }
    Ok(exit)
}
