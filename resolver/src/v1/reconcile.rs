//! What operator-controller's reconcile does around resolution: the
//! `spec.source.catalog.version` admission check, and the fallback to the
//! installed bundle when every ClusterCatalog the extension selects has been
//! deleted.

use std::sync::OnceLock;

use super::cluster::ClusterExtension;
use super::errors::V1Error;
pub use super::errors::{AdmissionError, MAX_VERSION_LENGTH};
use super::resolve::{resolve, Catalog, Gates, Outcome, Resolved};
use super::successors::installed_version;

/// The ClusterExtension CRD's validation of `spec.source.catalog.version`
/// (its CEL rule, with `\s` and `\d` spelled as RE2 reads them: ASCII only, and
/// `\s` without the vertical tab), quirks included: the first item's major
/// version is a character class that also takes `|`, and some wildcard
/// alternatives are written `\*]`, so they take `*]` and not `*` (`1.*` passes
/// through the third component, `1.*.*` does not).
const ADMISSION_PATTERN: &str = concat!(
    r"^([\t\n\f\r ]*(=||!=|>|<|>=|=>|<=|=<|~|~>|\^)[\t\n\f\r ]*",
    r"(v?(0|[1-9][0-9]*|[x|X|\*])(\.(0|[1-9][0-9]*|x|X|\*]))?(\.(0|[1-9][0-9]*|x|X|\*))?",
    r"(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?)[\t\n\f\r ]*)",
    r"((?:[\t\n\f\r ]+|,[\t\n\f\r ]*|[\t\n\f\r ]*\|\|[\t\n\f\r ]*)(=||!=|>|<|>=|=>|<=|=<|~|~>|\^)[\t\n\f\r ]*",
    r"(v?(0|[1-9][0-9]*|x|X|\*])(\.(0|[1-9][0-9]*|x|X|\*))?(\.(0|[1-9][0-9]*|x|X|\*]))?",
    r"(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?)[\t\n\f\r ]*)*$",
);

/// Check `spec.source.catalog.version` as the ClusterExtension CRD does (an
/// empty version is not checked: the field is optional).
///
/// ```
/// use olmsat_resolver::v1::reconcile::admit_version;
/// assert!(admit_version(">=1.2.0, <2.0.0").is_ok());
/// assert!(admit_version("1.2 - 1.4").is_err()); // Masterminds reads it; admission does not
/// ```
pub fn admit_version(version: &str) -> Result<(), AdmissionError> {
    if version.is_empty() {
        return Ok(());
    }
    if version.len() > MAX_VERSION_LENGTH {
        return Err(AdmissionError::TooLong);
    }
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| regex::Regex::new(ADMISSION_PATTERN).expect("a valid pattern"));
    if re.is_match(version) {
        Ok(())
    } else {
        Err(AdmissionError::Expression {
            value: version.to_owned(),
        })
    }
}

/// One reconcile's resolution step. An extension whose version the API server
/// would refuse ([`admit_version`]) is answered with [`V1Error::Admission`],
/// unless the resolver refuses the range too (then its text, the one the
/// reference's tests give, is kept). Otherwise [`resolve`], then, when it fails
/// for an
/// extension with an installed bundle whose `version` is empty or equal to the
/// installed version (compared as strings), and no ClusterCatalog matching its
/// selector exists at all (availability ignored), the installed bundle is kept
/// with no error, as operator-controller does when its catalogs were deleted.
/// [`Outcome::fallback`] then holds the resolution error.
pub fn reconcile(catalogs: &[Catalog<'_>], ext: &ClusterExtension, gates: Gates) -> Outcome {
    let mut outcome = resolve(catalogs, ext, gates);
    if let Err(e) = admit_version(&ext.version) {
        if !matches!(outcome.result, Err(V1Error::Range { .. })) {
            outcome.result = Err(V1Error::Admission(e));
        }
        return outcome;
    }
    let Err(error) = &outcome.result else {
        return outcome;
    };
    let Some(installed) = &ext.installed else {
        return outcome;
    };
    if !ext.version.is_empty() && ext.version != installed.version {
        return outcome;
    }
    let exists = match &ext.selector {
        None => !catalogs.is_empty(),
        Some(s) => match s.compile() {
            Ok(sel) => catalogs.iter().any(|c| sel.matches(&c.meta.labels)),
            // The reference cannot check, so it retries.
            Err(_) => return outcome,
        },
    };
    if exists {
        return outcome;
    }
    let Ok(v) = installed_version(installed) else {
        return outcome;
    };
    let error: V1Error = error.clone();
    outcome.result = Ok(Resolved {
        bundle: installed.name.clone(),
        version: v.version,
        catalog: String::new(),
        deprecations: None,
        install_problem: None,
    });
    outcome.fallback = Some(error);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admission_accepts_what_the_crd_accepts() {
        for ok in [
            "1.2.3",
            "v1.2.3",
            ">=1.2.0, <2.0.0",
            ">=1.2.0 <2.0.0",
            "1.x || >=2.5.0",
            "~1.2",
            "^1",
            "1.2.3-rc.1+build.5",
            "=>1.0",
            " 1.0 ",
            "*",
            "x",
            "1.*]",
            "1.*",
        ] {
            assert_eq!(admit_version(ok), Ok(()), "{ok}");
        }
    }

    /// A version over the CRD's 64 characters is refused with the API
    /// server's text before the range is parsed (5 MB of range would take
    /// the Masterminds grammar minutes), whether or not it would parse.
    #[test]
    fn a_version_over_the_length_limit_is_refused_before_it_is_parsed() {
        use crate::v1::cluster::{ClusterCatalog, InstalledBundle, UpgradePolicy};
        use crate::v1::{CatalogContent, V1Error};
        let content = CatalogContent::default();
        let meta = ClusterCatalog::named("c");
        let catalogs = [Catalog {
            meta: &meta,
            content: Some(&content),
        }];
        for version in [
            "foo || ".repeat(800_000),
            format!(">=1.0.0, {}", "<2.0.0 ".repeat(12_000)),
        ] {
            let ext = ClusterExtension {
                name: "e".into(),
                namespace: "e".into(),
                package: "p".into(),
                version,
                channels: Vec::new(),
                selector: None,
                policy: UpgradePolicy::CatalogProvided,
                installed: Some(InstalledBundle {
                    name: "p.v1".into(),
                    version: "1.0.0".into(),
                    release: None,
                }),
                location: olmsat_encoding::location::Location::new(std::sync::Arc::from("e"), 0),
            };
            for result in [
                reconcile(&catalogs, &ext, Gates::default()).result,
                resolve(&catalogs, &ext, Gates::default()).result,
            ] {
                let err = result.expect_err("too long");
                assert!(
                    matches!(err, V1Error::Admission(AdmissionError::TooLong)),
                    "{err}"
                );
                assert_eq!(
                    err.to_string(),
                    "ClusterExtension is invalid: spec.source.catalog.version: Too long: may not be more than 64 bytes"
                );
            }
        }
    }

    #[test]
    fn admission_refuses_what_the_crd_refuses() {
        for bad in [
            "1.2 - 1.4",
            "foobar",
            "1.0.0 || foo",
            "01.2",
            "1.2.3.4",
            ">>1",
            "1.*.*",
            "1.2\u{b}",
        ] {
            assert_eq!(
                admit_version(bad),
                Err(AdmissionError::Expression {
                    value: bad.to_owned()
                }),
                "{bad:?}"
            );
        }
        let long = format!(">={}", "1".repeat(63));
        assert_eq!(admit_version(&long), Err(AdmissionError::TooLong));
        assert_eq!(admit_version(&"1".repeat(64)), Ok(()));
        assert_eq!(
            AdmissionError::Expression {
                value: "1.2 - 1.4".into()
            }
            .to_string(),
            "spec.source.catalog.version: Invalid value: \"1.2 - 1.4\": invalid version expression"
        );
    }
}
