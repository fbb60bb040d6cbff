//! OLM v1's answers in `resolve` and `simulate`, as documents: the
//! ClusterExtensions (from the cluster file or from flags, see
//! [`ExtensionRequest`]), their ClusterCatalogs with content
//! ([`Catalogs`]), each extension's answer ([`ExtensionReport`]) or reconcile
//! timeline ([`TimelineReport`]), serialized as `resolve -o json` and
//! `simulate -o json` print them under `extensions`, and rendered as text.
//!
//! ```
//! use olmsat_resolver::v1::answer::{answer, Catalogs, ExtensionRequest};
//! use olmsat_resolver::v1::{CatalogContent, Gates};
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/catalogs/etcd-example");
//! let files = olmsat_catalog::CatalogFiles::read(&[dir]).expect("readable");
//! let content = CatalogContent::from_config(files.config(), false);
//! let (catalogs, _notes) = Catalogs::new(&["example"], &[], vec![("example".into(), content)]);
//! let request = ExtensionRequest { extension: Some("etcd".into()), ..Default::default() };
//! let ext = request.extension().expect("valid flags").expect("an extension");
//! let reports = answer(&catalogs, &[ext], Gates::default(), false);
//! assert_eq!(reports[0].status, "resolved");
//! assert_eq!(reports[0].bundle.as_deref(), Some("etcdoperator.v0.9.5"));
//! ```

use std::fmt::Write as _;
use std::sync::Arc;

use olmsat_encoding::location::Location;
use serde::Serialize;

use super::conditions::{conditions, Condition};
use super::resolve::{Explanation, Step};
use super::simulate::{self, End, Hop};
use super::{
    reconcile, Catalog, CatalogContent, ClusterCatalog, ClusterExtension, Gates, InstalledBundle,
    UpgradePolicy,
};

/// The flags that describe one ClusterExtension and the feature gates, as
/// plain values (`--extension`, `--version`, `--channel`, `--installed`,
/// `--upgrade-constraint-policy`, `--feature-gate`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExtensionRequest {
    /// The package of the ClusterExtension to add.
    pub extension: Option<String>,
    /// Its version range (Masterminds syntax).
    pub version: Option<String>,
    /// Its channels (none: all channels).
    pub channels: Vec<String>,
    /// Its installed bundle, `NAME@VERSION`.
    pub installed: Option<String>,
    /// Its upgrade policy (`CatalogProvided` or `SelfCertified`).
    pub upgrade_constraint_policy: Option<String>,
    /// Feature gates, `NAME=true|false`.
    pub feature_gates: Vec<String>,
}

/// Why the flags of an [`ExtensionRequest`] do not describe an extension
/// (usage errors).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// `--feature-gate` without `=`.
    #[error("--feature-gate {0:?}: expected NAME=true|false")]
    GateForm(String),
    /// A gate's value is neither `true` nor `false`.
    #[error("--feature-gate {0:?}: the value must be true or false")]
    GateValue(String),
    /// A gate olmsat does not know.
    #[error("--feature-gate {text:?}: unknown gate {name:?} (known: BundleReleaseSupport)")]
    UnknownGate {
        /// The argument.
        text: String,
        /// The gate's name.
        name: String,
    },
    /// `--extension ""`.
    #[error("--extension needs a package name")]
    EmptyPackage,
    /// `--installed` without `@`.
    #[error("--installed {0:?}: expected NAME@VERSION (e.g. etcd.v0.9.4@0.9.4)")]
    Installed(String),
    /// An upgrade policy that is not one of the API's.
    #[error("--upgrade-constraint-policy {0:?}: expected CatalogProvided or SelfCertified")]
    Policy(String),
}

impl ExtensionRequest {
    /// The feature gates of `--feature-gate`.
    ///
    /// # Errors
    ///
    /// A malformed gate, a value other than `true`/`false`, an unknown gate.
    pub fn gates(&self) -> Result<Gates, RequestError> {
        let mut gates = Gates::default();
        for g in &self.feature_gates {
            let Some((name, value)) = g.split_once('=') else {
                return Err(RequestError::GateForm(g.clone()));
            };
            let on = match value {
                "true" => true,
                "false" => false,
                _ => return Err(RequestError::GateValue(g.clone())),
            };
            match name {
                "BundleReleaseSupport" => gates.bundle_release_support = on,
                _ => {
                    return Err(RequestError::UnknownGate {
                        text: g.clone(),
                        name: name.to_owned(),
                    })
                }
            }
        }
        Ok(gates)
    }

    /// The ClusterExtension `--extension` and its flags describe (named,
    /// and in a namespace named, after its package); `None` without
    /// `--extension`.
    ///
    /// # Errors
    ///
    /// An empty package, an `--installed` without `@`, an unknown policy.
    pub fn extension(&self) -> Result<Option<ClusterExtension>, RequestError> {
        let Some(package) = &self.extension else {
            return Ok(None);
        };
        if package.is_empty() {
            return Err(RequestError::EmptyPackage);
        }
        let installed = match &self.installed {
            None => None,
            Some(text) => {
                let Some((name, version)) = text.rsplit_once('@') else {
                    return Err(RequestError::Installed(text.clone()));
                };
                Some(InstalledBundle {
                    name: name.to_owned(),
                    version: version.to_owned(),
                    release: None,
                })
            }
        };
        let policy = match self.upgrade_constraint_policy.as_deref() {
            None => UpgradePolicy::CatalogProvided,
            Some(p) => UpgradePolicy::parse(p).ok_or_else(|| RequestError::Policy(p.to_owned()))?,
        };
        Ok(Some(ClusterExtension {
            name: package.clone(),
            namespace: package.clone(),
            package: package.clone(),
            version: self.version.clone().unwrap_or_default(),
            channels: self.channels.clone(),
            selector: None,
            policy,
            installed,
            location: Location::new(Arc::from("--extension"), 0),
        }))
    }

    /// The ClusterExtensions to answer: the cluster file's, with the one of
    /// `--extension` added (replacing one of the same name).
    ///
    /// # Errors
    ///
    /// As [`ExtensionRequest::extension`].
    pub fn extensions(
        &self,
        from_cluster: &[ClusterExtension],
    ) -> Result<Vec<ClusterExtension>, RequestError> {
        let mut extensions = from_cluster.to_vec();
        if let Some(e) = self.extension()? {
            extensions.retain(|x| x.name != e.name);
            extensions.push(e);
        }
        Ok(extensions)
    }
}

/// Whether OLM v1 reads the content of the catalog named `name`: every
/// named catalog when the cluster file has no ClusterCatalog, else only those
/// it has a ClusterCatalog for.
pub fn sees(name: &str, from_cluster: &[ClusterCatalog]) -> bool {
    from_cluster.is_empty() || from_cluster.iter().any(|c| c.name == name)
}

/// ClusterCatalogs with their content: the cluster file's, or one per named
/// catalog when the file has none.
#[derive(Debug, Clone, Default)]
pub struct Catalogs {
    /// The ClusterCatalog objects.
    pub metas: Vec<ClusterCatalog>,
    /// Content by catalog name.
    pub contents: Vec<(String, CatalogContent)>,
}

impl Catalogs {
    /// The catalogs OLM v1 sees, from the names of the catalogs given, the
    /// cluster file's ClusterCatalogs and the content read for those
    /// [`sees`]; and a note for each catalog given that no ClusterCatalog is
    /// named after, listing the ClusterCatalogs there are, closest first.
    pub fn new(
        names: &[&str],
        from_cluster: &[ClusterCatalog],
        contents: Vec<(String, CatalogContent)>,
    ) -> (Catalogs, Vec<String>) {
        let mut notes = Vec::new();
        let metas: Vec<ClusterCatalog> = if from_cluster.is_empty() {
            names.iter().map(|n| ClusterCatalog::named(n)).collect()
        } else {
            for n in names {
                if !from_cluster.iter().any(|c| c.name == *n) {
                    let near: Vec<String> = olmsat_findings::suggest::closest(
                        n,
                        from_cluster.iter().map(|c| c.name.as_str()),
                    )
                    .into_iter()
                    .map(str::to_owned)
                    .collect();
                    notes.push(format!(
                        "catalog {n:?} has no ClusterCatalog in the cluster file; OLM v1 does not see it (the ClusterCatalogs there: {})",
                        olmsat_findings::suggest::join_listed(&near)
                    ));
                }
            }
            from_cluster.to_vec()
        };
        let contents = contents
            .into_iter()
            .filter(|(n, _)| metas.iter().any(|m| &m.name == n))
            .collect();
        (Catalogs { metas, contents }, notes)
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

    /// When no catalog holds `package`: the packages there are, closest
    /// first, as a sentence (what a typo in `--extension` gets).
    pub fn missing_package_hint(&self, package: &str) -> Option<String> {
        if self
            .contents
            .iter()
            .any(|(_, c)| c.package(package).is_some())
        {
            return None;
        }
        let mut names: Vec<&str> = self
            .contents
            .iter()
            .flat_map(|(_, c)| c.package_names())
            .collect();
        names.sort_unstable();
        names.dedup();
        let near: Vec<String> = olmsat_findings::suggest::closest(package, names)
            .into_iter()
            .map(str::to_owned)
            .collect();
        Some(format!(
            "no catalog given has package {package:?}; the closest packages: {}",
            olmsat_findings::suggest::join_listed(&near)
        ))
    }
}

/// One ClusterExtension's answer.
#[derive(Debug, Clone, Serialize)]
pub struct ExtensionReport {
    /// The ClusterExtension's name.
    pub name: String,
    /// Its package.
    pub package: String,
    /// Its installed bundle, `NAME@VERSION`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub installed: Option<String>,
    /// `resolved` or `error`.
    pub status: &'static str,
    /// The bundle chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bundle: Option<String>,
    /// Its version, as operator-controller reports it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Its release (with the `BundleReleaseSupport` gate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    /// The catalog it came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub catalog: Option<String>,
    /// The error, or what happens after selection.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// What to do about an error (olmsat's words, not OLM's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Notes on the choice (a prerelease chosen with no version range).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Deprecation messages that apply.
    pub deprecations: Vec<String>,
    /// The status conditions operator-controller would set.
    pub conditions: Vec<Condition>,
    /// How the candidates were narrowed (with `--explain`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Explanation>,
    /// The exit code this answer calls for (0, 1 or 2).
    #[serde(skip)]
    pub exit: u8,
}

/// Resolve every ClusterExtension, sorted by name.
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
                Ok(r) => {
                    let mut notes = Vec::new();
                    if ext.version.is_empty() && !r.version.version.pre.is_empty() {
                        notes.push(format!(
                            "{} is a prerelease: with no version range OLM v1 takes the highest version, prereleases included; a range without a prerelease (e.g. \">=0.0.0\") leaves them out",
                            r.version.version
                        ));
                    }
                    ExtensionReport {
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
                        hint: None,
                        notes,
                        deprecations,
                        conditions: conds,
                        explanation,
                        exit: 0,
                    }
                }
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
                    hint: catalogs.missing_package_hint(&ext.package),
                    notes: Vec::new(),
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

/// The answers as text, one section per extension (`explain`: with how the
/// candidates were narrowed).
pub fn text(reports: &[ExtensionReport], explain: bool) -> String {
    let mut s = String::new();
    for r in reports {
        let from = r
            .installed
            .as_deref()
            .map(|i| format!(" (installed {i})"))
            .unwrap_or_default();
        let _ = match r.status {
            "resolved" => writeln!(
                s,
                "extension {} (package {}){from}: {} {} from catalog {}",
                r.name,
                r.package,
                r.bundle.as_deref().unwrap_or_default(),
                r.version.as_deref().unwrap_or_default(),
                r.catalog.as_deref().unwrap_or_default()
            ),
            _ => writeln!(
                s,
                "extension {} (package {}){from}: error: {}",
                r.name,
                r.package,
                r.message.as_deref().unwrap_or_default()
            ),
        };
        if r.status == "resolved" {
            if let Some(m) = &r.message {
                let _ = writeln!(s, "  after selection: {m}");
            }
        }
        if let Some(h) = &r.hint {
            let _ = writeln!(s, "  hint: {h}");
        }
        for n in &r.notes {
            let _ = writeln!(s, "  note: {n}");
        }
        for d in &r.deprecations {
            let _ = writeln!(s, "  deprecated: {d}");
        }
        if explain {
            if let Some(ex) = &r.explanation {
                explanation_text(&mut s, ex);
            }
        }
    }
    s
}

fn explanation_text(s: &mut String, ex: &Explanation) {
    for Step {
        filter,
        before,
        after,
    } in &ex.steps
    {
        let _ = writeln!(s, "  {:<36} {before:>6} -> {after}", filter.describe());
    }
    if let Some(f) = ex.emptied_by {
        let _ = writeln!(s, "  emptied by: {}", f.describe());
    }
    if let Some(m) = &ex.nearest_miss {
        let _ = writeln!(s, "  nearest miss: {m}");
    }
    if let Some(h) = &ex.hint {
        let _ = writeln!(s, "  hint: {h}");
    }
}

/// The highest exit code among the answers (0 when there are none).
pub fn exit_of(reports: &[ExtensionReport]) -> u8 {
    reports.iter().map(|r| r.exit).max().unwrap_or(0)
}

/// One ClusterExtension's reconciles.
#[derive(Debug, Clone, Serialize)]
pub struct TimelineReport {
    /// The ClusterExtension's name.
    pub name: String,
    /// Its package.
    pub package: String,
    /// One hop per reconcile that changed the bundle.
    pub hops: Vec<Hop>,
    /// `converged`, `limit` or `error`.
    pub status: &'static str,
    /// The error that stopped it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The bundle installed at the end, `NAME@VERSION`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub installed: Option<String>,
    /// The exit code this timeline calls for (0, 1 or 2).
    #[serde(skip)]
    pub exit: u8,
}

/// Reconcile every ClusterExtension until it stops changing (at most
/// `max_steps` reconciles each), sorted by name.
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

/// Timelines as text.
pub fn timelines_text(reports: &[TimelineReport], max_steps: usize) -> String {
    let mut s = String::new();
    for r in reports {
        let _ = writeln!(s, "extension {} (package {}):", r.name, r.package);
        for h in &r.hops {
            let _ = match &h.from {
                None => writeln!(
                    s,
                    "  reconcile {}: install {} ({}, catalog {})",
                    h.step, h.to, h.version, h.catalog
                ),
                Some(f) => writeln!(
                    s,
                    "  reconcile {}: upgrade {f} -> {} ({}, catalog {})",
                    h.step, h.to, h.version, h.catalog
                ),
            };
        }
        let _ = match r.status {
            "converged" => writeln!(s, "  converged after {} hop(s)", r.hops.len()),
            "limit" => writeln!(
                s,
                "  stopped after {max_steps} reconcile(s) without converging"
            ),
            _ => writeln!(s, "  stopped: {}", r.message.as_deref().unwrap_or_default()),
        };
        if let Some(i) = &r.installed {
            let _ = writeln!(s, "  installed: {i}");
        }
    }
    s
}

/// The highest exit code among the timelines (0 when there are none).
pub fn timelines_exit(reports: &[TimelineReport]) -> u8 {
    reports.iter().map(|r| r.exit).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(yaml: &str) -> CatalogContent {
        let files = olmsat_catalog::CatalogFiles::from_bytes("catalog.yaml", yaml.as_bytes());
        CatalogContent::from_config(files.config(), false)
    }

    const CATALOG: &str = "schema: olm.package\nname: sail\n---\nschema: olm.channel\npackage: sail\nname: stable\nentries:\n- name: sail.v1.0.0\n- name: sail.v1.1.0-nightly\n  replaces: sail.v1.0.0\n---\nschema: olm.bundle\nname: sail.v1.0.0\npackage: sail\nimage: i\nproperties:\n- type: olm.package\n  value: {packageName: sail, version: 1.0.0}\n---\nschema: olm.bundle\nname: sail.v1.1.0-nightly\npackage: sail\nimage: i\nproperties:\n- type: olm.package\n  value: {packageName: sail, version: 1.1.0-nightly}\n";

    fn catalogs() -> Catalogs {
        Catalogs::new(&["main"], &[], vec![("main".into(), content(CATALOG))]).0
    }

    fn request(package: &str) -> ExtensionRequest {
        ExtensionRequest {
            extension: Some(package.into()),
            ..ExtensionRequest::default()
        }
    }

    #[test]
    fn gates_are_parsed_with_typed_errors() {
        let mut r = ExtensionRequest::default();
        assert_eq!(r.gates().unwrap(), Gates::default());
        r.feature_gates = vec!["BundleReleaseSupport=true".into()];
        assert!(r.gates().unwrap().bundle_release_support);
        r.feature_gates = vec!["BundleReleaseSupport".into()];
        assert!(matches!(r.gates(), Err(RequestError::GateForm(_))));
        r.feature_gates = vec!["BundleReleaseSupport=yes".into()];
        assert!(matches!(r.gates(), Err(RequestError::GateValue(_))));
        r.feature_gates = vec!["Other=true".into()];
        assert_eq!(
            r.gates().unwrap_err().to_string(),
            "--feature-gate \"Other=true\": unknown gate \"Other\" (known: BundleReleaseSupport)"
        );
    }

    #[test]
    fn flags_describe_one_extension() {
        assert_eq!(ExtensionRequest::default().extension().unwrap(), None);
        let mut r = request("sail");
        r.installed = Some("sail.v1.0.0@1.0.0".into());
        r.channels = vec!["stable".into()];
        let e = r.extension().unwrap().unwrap();
        assert_eq!(e.name, "sail");
        assert_eq!(e.installed.unwrap().version, "1.0.0");
        assert_eq!(e.channels, ["stable"]);
        r.installed = Some("nope".into());
        assert!(matches!(r.extension(), Err(RequestError::Installed(_))));
        assert!(matches!(
            request("").extension(),
            Err(RequestError::EmptyPackage)
        ));
    }

    #[test]
    fn a_prerelease_chosen_without_a_range_gets_a_note() {
        let ext = request("sail").extension().unwrap().unwrap();
        let reports = answer(&catalogs(), &[ext], Gates::default(), false);
        assert_eq!(reports[0].bundle.as_deref(), Some("sail.v1.1.0-nightly"));
        assert_eq!(reports[0].notes.len(), 1, "{:?}", reports[0]);
        assert!(reports[0].notes[0].contains("is a prerelease"));
        assert!(text(&reports, false).contains("\n  note: 1.1.0-nightly is a prerelease"));
        let mut r = request("sail");
        r.version = Some(">=0.0.0".into());
        let reports = answer(
            &catalogs(),
            &[r.extension().unwrap().unwrap()],
            Gates::default(),
            false,
        );
        assert_eq!(reports[0].bundle.as_deref(), Some("sail.v1.0.0"));
        assert!(reports[0].notes.is_empty());
    }

    #[test]
    fn a_misspelt_package_gets_the_closest_names() {
        let ext = request("sial").extension().unwrap().unwrap();
        let reports = answer(&catalogs(), &[ext], Gates::default(), false);
        assert_eq!(reports[0].status, "error");
        assert_eq!(
            reports[0].hint.as_deref(),
            Some("no catalog given has package \"sial\"; the closest packages: sail")
        );
        assert_eq!(exit_of(&reports), 1);
    }

    #[test]
    fn a_catalog_without_a_cluster_catalog_is_named_with_those_there_are() {
        let from_cluster = [
            ClusterCatalog::named("operatorhubio"),
            ClusterCatalog::named("other"),
        ];
        let (c, notes) = Catalogs::new(
            &["operatorhub"],
            &from_cluster,
            vec![("operatorhub".into(), content(CATALOG))],
        );
        assert!(c.contents.is_empty());
        assert_eq!(
            notes,
            ["catalog \"operatorhub\" has no ClusterCatalog in the cluster file; OLM v1 does not see it (the ClusterCatalogs there: operatorhubio, other)"]
        );
        assert!(sees("other", &from_cluster) && !sees("operatorhub", &from_cluster));
    }

    #[test]
    fn timelines_walk_to_the_head() {
        let mut r = request("sail");
        r.installed = Some("sail.v1.0.0@1.0.0".into());
        let t = timelines(
            &catalogs(),
            &[r.extension().unwrap().unwrap()],
            Gates::default(),
            10,
        );
        assert_eq!(t[0].status, "converged");
        assert_eq!(t[0].hops.len(), 1);
        assert_eq!(timelines_exit(&t), 0);
        let text = timelines_text(&t, 10);
        assert!(text.starts_with("extension sail (package sail):\n  reconcile 1: upgrade sail.v1.0.0 -> sail.v1.1.0-nightly"), "{text}");
    }
}
