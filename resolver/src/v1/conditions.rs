//! Status conditions operator-controller sets on a ClusterExtension after a
//! resolution: `Progressing`, `Installed` and the `Deprecated` family.

use serde::Serialize;

use super::catalog::Deprecations;
use super::cluster::ClusterExtension;
use super::resolve::{Gates, Outcome};

/// Condition messages are cut to this many bytes.
pub const MAX_MESSAGE: usize = 32768;
const TRUNCATED: &str = "\n\n... [message truncated]";
const UNKNOWN: &str = "deprecation status unknown: catalog data unavailable";

/// A status condition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Condition {
    /// type
    #[serde(rename = "type")]
    pub type_: &'static str,
    /// status: `True`, `False` or `Unknown`
    pub status: &'static str,
    /// reason
    pub reason: &'static str,
    /// message
    pub message: String,
}

fn cond(
    type_: &'static str,
    status: &'static str,
    reason: &'static str,
    message: String,
) -> Condition {
    let message = if message.len() > MAX_MESSAGE {
        let mut cut = MAX_MESSAGE - TRUNCATED.len();
        while !message.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}{TRUNCATED}", &message[..cut])
    } else {
        message
    };
    Condition {
        type_,
        status,
        reason,
        message,
    }
}

/// The conditions after one reconcile with this outcome.
pub fn conditions(ext: &ClusterExtension, outcome: &Outcome, gates: Gates) -> Vec<Condition> {
    let mut out = Vec::new();
    match &outcome.result {
        Err(e) => {
            out.push(cond("Progressing", "True", "Retrying", e.to_string()));
            if ext.installed.is_none() {
                out.push(cond(
                    "Installed",
                    "False",
                    "Failed",
                    "No bundle installed".to_owned(),
                ));
            }
        }
        Ok(r) => match &r.install_problem {
            Some(problem) => out.push(cond(
                "Progressing",
                "True",
                "Retrying",
                format!(
                    "error for resolved bundle {:?} with version {:?}: {problem}",
                    r.bundle,
                    r.reported_version(gates)
                ),
            )),
            None => out.push(cond(
                "Progressing",
                "True",
                "Succeeded",
                "Desired state reached".to_owned(),
            )),
        },
    }
    let deprecations = match &outcome.result {
        Ok(r) => Some(r.deprecations.clone().unwrap_or_default()),
        Err(_) => None,
    };
    out.extend(deprecation_conditions(ext, deprecations.as_ref()));
    out
}

/// The four deprecation conditions. `blob` is `None` when resolution failed
/// (status unknown), else the package's deprecation entries in the chosen
/// catalog (empty when it has none). Bundle entries are matched against the
/// installed bundle.
pub fn deprecation_conditions(
    ext: &ClusterExtension,
    blob: Option<&Deprecations>,
) -> Vec<Condition> {
    let installed = ext.installed.as_ref().map(|i| i.name.as_str());
    let Some(blob) = blob else {
        let unknown = |t| cond(t, "Unknown", "DeprecationStatusUnknown", UNKNOWN.to_owned());
        let bundle = match installed {
            None => cond(
                "BundleDeprecated",
                "Unknown",
                "Absent",
                "no bundle installed yet".to_owned(),
            ),
            Some(_) => unknown("BundleDeprecated"),
        };
        return vec![
            unknown("Deprecated"),
            unknown("PackageDeprecated"),
            unknown("ChannelDeprecated"),
            bundle,
        ];
    };
    let package: Vec<&str> = blob
        .package
        .iter()
        .map(String::as_str)
        .filter(|m| !m.is_empty())
        .collect();
    let channel: Vec<&str> = blob
        .channels
        .iter()
        .filter(|(name, m)| {
            !m.is_empty() && (ext.channels.is_empty() || ext.channels.contains(name))
        })
        .map(|(_, m)| m.as_str())
        .collect();
    let bundle: Vec<&str> = installed
        .and_then(|n| blob.bundles.get(n))
        .map(String::as_str)
        .filter(|m| !m.is_empty())
        .into_iter()
        .collect();
    let one = |t: &'static str, msgs: &[&str], not: &str| {
        if msgs.is_empty() {
            cond(t, "False", "NotDeprecated", not.to_owned())
        } else {
            cond(t, "True", "Deprecated", msgs.join("\n"))
        }
    };
    let all: Vec<&str> = package
        .iter()
        .chain(&channel)
        .chain(&bundle)
        .copied()
        .collect();
    let bundle_cond = if installed.is_none() {
        cond(
            "BundleDeprecated",
            "Unknown",
            "Absent",
            "no bundle installed yet".to_owned(),
        )
    } else {
        one("BundleDeprecated", &bundle, "bundle not deprecated")
    };
    vec![
        one("Deprecated", &all, "not deprecated"),
        one("PackageDeprecated", &package, "package not deprecated"),
        one("ChannelDeprecated", &channel, "channel not deprecated"),
        bundle_cond,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v1::cluster::{InstalledBundle, UpgradePolicy};
    use olmsat_encoding::location::Location;

    fn ext(channels: &[&str], installed: Option<&str>) -> ClusterExtension {
        ClusterExtension {
            name: "e".into(),
            namespace: "ns".into(),
            package: "p".into(),
            version: String::new(),
            channels: channels.iter().map(|c| (*c).to_owned()).collect(),
            selector: None,
            policy: UpgradePolicy::CatalogProvided,
            installed: installed.map(|n| InstalledBundle {
                name: n.into(),
                version: "1.0.0".into(),
                release: None,
            }),
            location: Location::new(std::sync::Arc::from("t"), 0),
        }
    }

    fn statuses(c: &[Condition]) -> Vec<(&str, &str, &str)> {
        c.iter().map(|c| (c.type_, c.status, c.reason)).collect()
    }

    fn blob(package: bool, channel: Option<&str>, bundle: Option<&str>) -> Deprecations {
        let mut d = Deprecations::default();
        if package {
            d.package = Some("package p is deprecated".into());
        }
        if let Some(c) = channel {
            d.channels
                .insert(c.into(), format!("channel {c} is deprecated"));
        }
        if let Some(b) = bundle {
            d.bundles
                .insert(b.into(), format!("bundle {b} is deprecated"));
        }
        d
    }

    #[test]
    fn table_d() {
        // D1, D2
        assert_eq!(
            statuses(&deprecation_conditions(&ext(&[], None), None))[3],
            ("BundleDeprecated", "Unknown", "Absent")
        );
        assert_eq!(
            statuses(&deprecation_conditions(&ext(&[], Some("p.v1")), None))[3],
            ("BundleDeprecated", "Unknown", "DeprecationStatusUnknown")
        );
        // D3
        let d3 = deprecation_conditions(&ext(&[], None), Some(&Deprecations::default()));
        assert_eq!(
            statuses(&d3),
            [
                ("Deprecated", "False", "NotDeprecated"),
                ("PackageDeprecated", "False", "NotDeprecated"),
                ("ChannelDeprecated", "False", "NotDeprecated"),
                ("BundleDeprecated", "Unknown", "Absent")
            ]
        );
        // D4, D5, D6
        let bad = blob(false, Some("bad"), None);
        let d4 = deprecation_conditions(&ext(&[], None), Some(&bad));
        assert_eq!(
            (d4[0].status, d4[1].status, d4[2].status),
            ("True", "False", "True")
        );
        let d5 = deprecation_conditions(&ext(&["good"], None), Some(&bad));
        assert_eq!(
            (d5[0].status, d5[1].status, d5[2].status),
            ("False", "False", "False")
        );
        let d6 = deprecation_conditions(&ext(&["bad"], None), Some(&bad));
        assert_eq!((d6[0].status, d6[2].status), ("True", "True"));
        // D7
        let all = blob(true, Some("bad"), Some("p.v1"));
        let d7 = deprecation_conditions(&ext(&["bad"], Some("p.v1")), Some(&all));
        assert_eq!(
            d7.iter().map(|c| c.status).collect::<Vec<_>>(),
            ["True", "True", "True", "True"]
        );
        assert_eq!(
            d7[0].message,
            "package p is deprecated\nchannel bad is deprecated\nbundle p.v1 is deprecated"
        );
        // D8: after the upgrade to p.v2 is installed, the bundle entry no longer applies.
        let d8 = blob(false, None, Some("p.v1"));
        assert_eq!(
            deprecation_conditions(&ext(&[], Some("p.v1")), Some(&d8))[3].status,
            "True"
        );
        assert_eq!(
            deprecation_conditions(&ext(&[], Some("p.v2")), Some(&d8))[3].status,
            "False"
        );
    }

    #[test]
    fn long_messages_are_truncated() {
        let c = cond("Progressing", "True", "Retrying", "x".repeat(40000));
        assert_eq!(c.message.len(), MAX_MESSAGE);
        assert!(c.message.ends_with("... [message truncated]"));
    }
}
