//! Which bundles a ClusterExtension may move to from its installed bundle under
//! the `CatalogProvided` policy (operator-controller's `SuccessorsOf`): one hop
//! along an edge of the considered channels, or staying put.

use olmsat_versions::version::{self, VersionRelease};

use olmsat_catalog::declcfg::ChannelEntry;
use olmsat_versions::range::Range;

use super::catalog::{legacy, BundleVersion, PackageSlice, V1Bundle};
use super::cluster::InstalledBundle;
use super::errors::InstalledError;

/// The installed bundle, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// Its name.
    pub name: String,
    /// Its version as written, parsed (build metadata kept), for skipRanges.
    pub semver: semver::Version,
    /// Its version and release.
    pub version: VersionRelease,
}

/// Read the installed bundle's version: in legacy form when no explicit
/// release is given (`2.0.0+1` → version 2.0.0, release 1), else the version
/// with the explicit release.
///
/// # Errors
///
/// The reference's error when the version or the release cannot be parsed.
pub fn installed_version(b: &InstalledBundle) -> Result<Installed, InstalledError> {
    match &b.release {
        None => {
            let v = version::parse_strict(&b.version).map_err(InstalledError::Version)?;
            Ok(Installed {
                name: b.name.clone(),
                semver: v.clone(),
                version: legacy(v),
            })
        }
        Some(rel) => {
            let v = version::parse_strict(&b.version).map_err(InstalledError::Release)?;
            let release = version::parse_release(rel).map_err(InstalledError::Release)?;
            Ok(Installed {
                name: b.name.clone(),
                semver: v.clone(),
                version: VersionRelease {
                    version: v,
                    release,
                },
            })
        }
    }
}

/// Whether `entry` replaces, skips or skipRange-matches the installed bundle;
/// `skip_range` is the entry's skipRange parsed (`None` when it has none or
/// blang cannot parse it: then it makes no edge).
pub fn is_edge(entry: &ChannelEntry, skip_range: Option<&Range>, installed: &Installed) -> bool {
    !entry.name.is_empty()
        && (entry.replaces.as_deref().unwrap_or_default() == installed.name
            || entry.skips.contains(&installed.name)
            || skip_range.is_some_and(|r| r.matches(&installed.semver)))
}

/// Whether `b` is a successor of the installed bundle: some entry naming it in
/// a considered channel (`considered[i]` for channel `i` of `slice`) is an
/// edge from it, or it has the same version and release (staying put).
pub fn is_successor(
    b: &V1Bundle,
    installed: &Installed,
    slice: &PackageSlice,
    considered: &[bool],
) -> bool {
    if slice
        .entries_of(b)
        .any(|(ci, e, range)| considered[ci] && is_edge(e, range, installed))
    {
        return true;
    }
    match b.version() {
        BundleVersion::Valid(v) => v.compare(&installed.version).is_eq(),
        BundleVersion::Invalid(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(name: &str, version: &str, release: Option<&str>) -> Result<Installed, InstalledError> {
        installed_version(&InstalledBundle {
            name: name.into(),
            version: version.into(),
            release: release.map(str::to_owned),
        })
    }

    #[test]
    fn installed_versions() {
        let i = inst("t.v2.0.0+1", "2.0.0+1", None).unwrap();
        assert_eq!(i.version.release.unwrap().to_string(), "1");
        assert_eq!(
            inst("x", "invalid", None).unwrap_err().to_string(),
            "failed to get version and release of installed bundle: No Major.Minor.Patch elements found"
        );
        assert!(inst("x", "invalid", Some("1"))
            .unwrap_err()
            .to_string()
            .starts_with("failed to parse installed bundle version and release"));
        assert!(inst("x", "1.0.0", Some("001"))
            .unwrap_err()
            .to_string()
            .starts_with("failed to parse installed bundle version and release"));
    }

    #[test]
    fn edges() {
        let entry = |name: &str, replaces: &str, skips: &[&str], range: &str| {
            let entry = ChannelEntry {
                name: name.into(),
                replaces: Some(replaces).filter(|r| !r.is_empty()).map(str::to_owned),
                skips: skips.iter().map(|s| (*s).to_owned()).collect(),
                skip_range: Some(range).filter(|r| !r.is_empty()).map(str::to_owned),
                location: olmsat_encoding::location::Location::default(),
            };
            (entry, Range::parse(range).ok())
        };
        let entries = [
            entry("package1.v0.0.2", "package1.v0.0.1", &[], ""),
            entry("package1.v0.0.3", "package1.v0.0.2", &[], ""),
            entry("package1.v0.0.4", "", &["package1.v0.0.1"], ""),
            entry("package1.v0.0.5", "", &[], "<=0.0.1"),
            entry("package1.v0.0.6", "", &[], "<=0.0"),
            entry("", "package1.v0.0.1", &[], ""),
        ];
        let i = inst("package1.v0.0.1", "0.0.1", None).unwrap();
        let got: Vec<&str> = entries
            .iter()
            .filter(|(e, r)| is_edge(e, r.as_ref(), &i))
            .map(|(e, _)| e.name.as_str())
            .collect();
        assert_eq!(
            got,
            ["package1.v0.0.2", "package1.v0.0.4", "package1.v0.0.5"]
        );
    }
}
