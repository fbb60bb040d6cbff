//! Finding a package and a channel by name, with the closest names listed
//! when they do not exist.

use olmsat_catalog::model::{Channel, Model, Package};
use olmsat_findings::suggest;

/// A package or channel that is not there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// No package of that name.
    #[error("unknown package {name:?}; the catalog has: {}", suggest::join_listed(.known))]
    UnknownPackage {
        /// The name given.
        name: String,
        /// The catalog's packages, closest first.
        known: Vec<String>,
    },
    /// No channel of that name in the package.
    #[error("unknown channel {name:?} in package {package:?}; it has: {}", suggest::join_listed(.known))]
    UnknownChannel {
        /// Package.
        package: String,
        /// The name given.
        name: String,
        /// The package's channels, closest first.
        known: Vec<String>,
    },
    /// The package's default channel is unset or has no `olm.channel` blob.
    #[error("package {package:?} has no usable default channel ({default:?}); its channels: {}", suggest::join_listed(.known))]
    NoDefaultChannel {
        /// Package.
        package: String,
        /// The default channel named by the package (may be empty).
        default: String,
        /// The package's channels, sorted.
        known: Vec<String>,
    },
}

/// The package called `name`.
pub fn select_package<'m>(model: &'m Model, name: &str) -> Result<&'m Package, SelectError> {
    model
        .package(name)
        .ok_or_else(|| SelectError::UnknownPackage {
            name: name.to_owned(),
            known: suggest::closest(name, model.packages().iter().map(|p| p.name.as_str()))
                .into_iter()
                .map(str::to_owned)
                .collect(),
        })
}

/// The channel `channel` of package `package`, or its default channel when
/// `channel` is `None`.
pub fn select_channel<'m>(
    model: &'m Model,
    package: &str,
    channel: Option<&str>,
) -> Result<(&'m Package, &'m Channel), SelectError> {
    let p = select_package(model, package)?;
    let real = || p.channels().iter().filter(|c| !c.is_synthesized());
    match channel {
        Some(name) => match p.channel(name).filter(|c| !c.is_synthesized()) {
            Some(c) => Ok((p, c)),
            None => Err(SelectError::UnknownChannel {
                package: p.name.clone(),
                name: name.to_owned(),
                known: suggest::closest(name, real().map(|c| c.name.as_str()))
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
            }),
        },
        None => match p.default_channel().filter(|c| !c.is_synthesized()) {
            Some(c) => Ok((p, c)),
            None => Err(SelectError::NoDefaultChannel {
                package: p.name.clone(),
                default: p.default_channel.clone(),
                known: real().map(|c| c.name.clone()).collect(),
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::upgrade::fixture::package;

    #[test]
    fn default_and_named_channels() {
        let model = Model::new(vec![package(&["a@1.0.0", "!b@0.1.0"])]);
        let found = |c: Option<&str>| select_channel(&model, "p", c).map(|(_, c)| c.name.clone());
        assert_eq!(found(None), Ok("stable".to_owned()));
        assert_eq!(found(Some("other")), Ok("other".to_owned()));
        assert_eq!(
            found(Some("stabel")).map_err(|e| e.to_string()),
            Err("unknown channel \"stabel\" in package \"p\"; it has: stable, other".to_owned())
        );
        assert_eq!(
            select_channel(&model, "q", None)
                .map_err(|e| e.to_string())
                .err(),
            Some("unknown package \"q\"; the catalog has: p".to_owned())
        );
    }
}
