//! OLM v1's upgrade path through one catalog (`path --olm v1`): one hop per
//! reconcile, each to the highest successor, as a document
//! ([`PathReport`], serialized as `-o json` prints it) with its text.
//!
//! ```
//! use olmsat_resolver::v1::path::{path, PathRequest};
//! use olmsat_resolver::v1::CatalogContent;
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/catalogs/etcd-example");
//! let files = olmsat_catalog::CatalogFiles::read(&[dir]).expect("readable");
//! let content = CatalogContent::from_config(files.config(), false);
//! let report = path(&content, &PathRequest {
//!     package: "etcd".into(),
//!     from: "etcdoperator.v0.9.0".into(),
//!     ..Default::default()
//! })
//! .expect("a path");
//! assert_eq!(report.end, "converged");
//! assert!(!report.steps.is_empty());
//! ```

use std::fmt;
use std::sync::Arc;

use olmsat_encoding::location::Location;
use serde::Serialize;

use super::simulate::{self, End};
use super::{
    Catalog, CatalogContent, ClusterCatalog, ClusterExtension, Gates, InstalledBundle,
    UpgradePolicy,
};

/// What `path --olm v1` is asked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathRequest {
    /// The package.
    pub package: String,
    /// A channel (`None`: all channels; OLM v1 ignores `defaultChannel`).
    pub channel: Option<String>,
    /// The start: a bundle name, a bundle's version, or a bare version.
    pub from: String,
    /// The target bundle name, if any.
    pub to: Option<String>,
    /// A Masterminds version range bounding the path.
    pub version: Option<String>,
}

/// Why no path was walked (each calls for exit code 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// The package is not in the catalog.
    #[error("package {package:?} is not in the catalog{}", did_you_mean(.near))]
    UnknownPackage {
        /// The package asked for.
        package: String,
        /// The catalog's packages, closest first.
        near: Vec<String>,
    },
    /// The package has no such channel.
    #[error("package {package:?} has no channel {channel:?} (channels: {})", .channels.join(", "))]
    UnknownChannel {
        /// The package.
        package: String,
        /// The channel asked for.
        channel: String,
        /// The package's channels.
        channels: Vec<String>,
    },
    /// `--from` is neither a bundle nor a version.
    #[error("--from {from:?} is neither a bundle of package {package:?} nor a version")]
    BadFrom {
        /// The start given.
        from: String,
        /// The package.
        package: String,
    },
}

fn did_you_mean(near: &[String]) -> String {
    if near.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", near.join(", "))
    }
}

/// One hop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PathHop {
    /// The bundle before (or `version V` for a bare version).
    pub from: String,
    /// The bundle after.
    pub to: String,
    /// Its version.
    pub version: String,
}

/// OLM v1's path, as `path --olm v1 -o json` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathReport {
    /// The package.
    pub package: String,
    /// The channel asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// The version range asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Always `v1`.
    pub olm: &'static str,
    /// The start (a bundle name, or `version V`).
    pub from: String,
    /// The hops.
    pub steps: Vec<PathHop>,
    /// `converged`, `limit` or `error`.
    pub end: &'static str,
    /// The error that stopped the walk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// With a target: whether the path reaches it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reaches: Option<bool>,
    /// The target asked for.
    #[serde(skip)]
    pub to: Option<String>,
    /// The exit code the answer calls for: 0, 1 (no convergence, target not
    /// reached) or 2 (an error OLM v1 reports as unanswerable).
    #[serde(skip)]
    pub exit: u8,
}

/// Walk OLM v1's path from `request.from` in `content`.
///
/// # Errors
///
/// The package or channel is not there, or the start is neither a bundle
/// nor a version.
pub fn path(content: &CatalogContent, request: &PathRequest) -> Result<PathReport, PathError> {
    let package = request.package.as_str();
    let Some(slice) = content.package(package) else {
        let known: Vec<&str> = content.package_names().collect();
        return Err(PathError::UnknownPackage {
            package: package.to_owned(),
            near: olmsat_findings::suggest::closest(package, known.iter().copied())
                .into_iter()
                .map(str::to_owned)
                .collect(),
        });
    };
    if let Some(c) = &request.channel {
        if !slice.channels().iter().any(|ch| ch.name() == c) {
            return Err(PathError::UnknownChannel {
                package: package.to_owned(),
                channel: c.clone(),
                channels: slice
                    .channels()
                    .iter()
                    .map(|ch| ch.name().to_owned())
                    .collect(),
            });
        }
    }
    let from = request.from.as_str();
    // A bundle name, else a bundle's version, else a bare version (only
    // skipRanges can apply to it).
    let bundle = slice
        .bundles()
        .iter()
        .find(|b| b.name() == from)
        .or_else(|| slice.bundles().iter().find(|b| b.version_text() == from));
    let installed = match bundle {
        Some(b) => InstalledBundle {
            name: b.name().to_owned(),
            version: b.version_text().to_owned(),
            release: None,
        },
        None => {
            if olmsat_versions::version::parse_strict(from).is_err() {
                return Err(PathError::BadFrom {
                    from: from.to_owned(),
                    package: package.to_owned(),
                });
            }
            InstalledBundle {
                name: String::new(),
                version: from.to_owned(),
                release: None,
            }
        }
    };
    let meta = ClusterCatalog::named("catalog");
    let catalogs = [Catalog {
        meta: &meta,
        content: Some(content),
    }];
    let ext = ClusterExtension {
        name: package.to_owned(),
        namespace: package.to_owned(),
        package: package.to_owned(),
        version: request.version.clone().unwrap_or_default(),
        channels: request.channel.iter().cloned().collect(),
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
        End::Converged => ("converged", None, 0),
        End::Limit => ("limit", None, 1),
        End::Failed(e) => (
            "error",
            Some(e.to_string()),
            if e.exit_code() == 2 { 2 } else { 1 },
        ),
    };
    let reaches = request
        .to
        .as_deref()
        .map(|to| installed.name == to || steps.iter().any(|s| s.to == to));
    if reaches == Some(false) && exit == 0 {
        exit = 1;
    }
    Ok(PathReport {
        package: package.to_owned(),
        channel: request.channel.clone(),
        version: request.version.clone(),
        olm: "v1",
        from: label(&installed.name, &installed.version),
        steps,
        end,
        message,
        reaches,
        to: request.to.clone(),
        exit,
    })
}

impl fmt::Display for PathReport {
    /// The path as text, one line per hop.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scope = match &self.channel {
            Some(c) => format!("channel {c}"),
            None => "all channels".to_owned(),
        };
        writeln!(
            f,
            "OLM v1 path for {} in {scope} from {} (one hop per reconcile, to the highest successor):",
            self.package, self.from
        )?;
        for (i, s) in self.steps.iter().enumerate() {
            writeln!(f, "  {}. {} -> {} ({})", i + 1, s.from, s.to, s.version)?;
        }
        match self.end {
            "converged" if self.steps.is_empty() => {
                writeln!(f, "  stays at {}: nothing newer is a successor", self.from)?
            }
            "converged" => writeln!(f, "  converged after {} hop(s)", self.steps.len())?,
            "limit" => writeln!(f, "  stopped without converging")?,
            _ => writeln!(
                f,
                "  stopped: {}",
                self.message.as_deref().unwrap_or_default()
            )?,
        }
        if let (Some(to), Some(r)) = (&self.to, self.reaches) {
            writeln!(f, "  {} {to}", if r { "reaches" } else { "does not reach" })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn etcd() -> CatalogContent {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../corpus/catalogs/etcd-example"
        );
        let files = olmsat_catalog::CatalogFiles::read(&[dir]).unwrap();
        CatalogContent::from_config(files.config(), false)
    }

    fn request(from: &str) -> PathRequest {
        PathRequest {
            package: "etcd".into(),
            from: from.into(),
            ..PathRequest::default()
        }
    }

    #[test]
    fn a_path_reaches_its_target_or_says_not() {
        let content = etcd();
        let mut r = request("etcdoperator.v0.9.0");
        let report = path(&content, &r).unwrap();
        let last = report.steps.last().unwrap().to.clone();
        r.to = Some(last.clone());
        let report = path(&content, &r).unwrap();
        assert_eq!(report.reaches, Some(true));
        assert_eq!(report.exit, 0);
        assert!(report.to_string().ends_with(&format!("  reaches {last}\n")));
        r.to = Some("etcdoperator.v9".into());
        let report = path(&content, &r).unwrap();
        assert_eq!((report.reaches, report.exit), (Some(false), 1));
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["olm"], "v1");
        assert!(json.get("to").is_none() && json.get("exit").is_none());
    }

    #[test]
    fn unknown_names_are_errors_with_suggestions() {
        let content = etcd();
        let mut r = request("etcdoperator.v0.9.0");
        r.package = "etdc".into();
        assert_eq!(
            path(&content, &r).unwrap_err().to_string(),
            "package \"etdc\" is not in the catalog (did you mean etcd, etcd-backup?)"
        );
        let mut r = request("etcdoperator.v0.9.0");
        r.channel = Some("nope".into());
        assert!(matches!(
            path(&content, &r),
            Err(PathError::UnknownChannel { .. })
        ));
        assert!(matches!(
            path(&content, &request("not-a-version")),
            Err(PathError::BadFrom { .. })
        ));
    }

    #[test]
    fn a_bare_version_starts_a_path() {
        let report = path(&etcd(), &request("0.9.0")).unwrap();
        assert!(report.from == "etcdoperator.v0.9.0" || report.from == "version 0.9.0");
    }
}
