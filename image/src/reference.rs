//! Image arguments as skopeo's transports write them (`oci:DIR[:REF]`,
//! `oci-archive:FILE[:REF]`, `docker-archive:FILE[:REF|:@N]`, a directory
//! holding an `oci-layout` file), registry references olmsat refuses, and
//! `--platform` values.

use std::fmt;
use std::path::{Path, PathBuf};

use super::ImageError;

/// How an image is stored on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// An OCI image layout directory.
    Oci,
    /// A tar archive of an OCI image layout.
    OciArchive,
    /// A `docker save` archive (`manifest.json`, configs and layer tars).
    DockerArchive,
}

impl Transport {
    /// The prefix the transport is written with.
    pub fn prefix(self) -> &'static str {
        match self {
            Transport::Oci => "oci",
            Transport::OciArchive => "oci-archive",
            Transport::DockerArchive => "docker-archive",
        }
    }
}

/// Which image of a layout or archive: by name, or (docker-archive) by position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    /// `org.opencontainers.image.ref.name` (OCI) or a RepoTag (docker-archive).
    Name(String),
    /// `@N`: the N-th image of a docker-archive's `manifest.json`.
    Index(usize),
}

/// An image on disk as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageSpec {
    /// How it is stored.
    pub transport: Transport,
    /// The directory or archive file.
    pub path: PathBuf,
    /// Which image, when one is named.
    pub selector: Option<Selector>,
}

impl ImageSpec {
    /// Read an argument: `Ok(None)` when it names no image (a plain path to
    /// read as a catalog or bundle directory).
    ///
    /// # Errors
    ///
    /// A transport without a path, and a registry reference (olmsat does not
    /// pull) that is no path on disk.
    pub fn parse(text: &str) -> Result<Option<ImageSpec>, ImageError> {
        for transport in [
            Transport::OciArchive,
            Transport::DockerArchive,
            Transport::Oci,
        ] {
            let Some(rest) = text
                .strip_prefix(transport.prefix())
                .and_then(|r| r.strip_prefix(':'))
            else {
                continue;
            };
            // skopeo splits at the first colon: the path has none.
            let (path, reference) = match rest.split_once(':') {
                Some((p, r)) => (p, Some(r)),
                None => (rest, None),
            };
            if path.is_empty() || reference == Some("") {
                return Err(ImageError::Malformed {
                    text: text.to_owned(),
                });
            }
            let selector = match reference {
                None => None,
                Some(r) => match r.strip_prefix('@') {
                    Some(n) if transport == Transport::DockerArchive => {
                        Some(Selector::Index(n.parse().map_err(|_| {
                            ImageError::Malformed {
                                text: text.to_owned(),
                            }
                        })?))
                    }
                    _ => Some(Selector::Name(r.to_owned())),
                },
            };
            return Ok(Some(ImageSpec {
                transport,
                path: PathBuf::from(path),
                selector,
            }));
        }
        let path = Path::new(text);
        if path.join("oci-layout").is_file() {
            return Ok(Some(ImageSpec {
                transport: Transport::Oci,
                path: path.to_path_buf(),
                selector: None,
            }));
        }
        if let Some(bare) = registry_reference(text) {
            if !path.exists() {
                return Err(ImageError::Registry {
                    text: text.to_owned(),
                    bare: bare.to_owned(),
                });
            }
        }
        Ok(None)
    }
}

impl fmt::Display for ImageSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.transport.prefix(), self.path.display())?;
        match &self.selector {
            None => Ok(()),
            Some(Selector::Name(n)) => write!(f, ":{n}"),
            Some(Selector::Index(i)) => write!(f, ":@{i}"),
        }
    }
}

/// The reference without its `docker://` prefix when `text` is written as a
/// registry reference: `docker://…`, or a first path component with a `.` or
/// a `:` (a registry host), or `localhost`, followed by a repository.
pub fn registry_reference(text: &str) -> Option<&str> {
    if let Some(rest) = text.strip_prefix("docker://") {
        return Some(rest);
    }
    let (first, rest) = text.split_once('/')?;
    let host = first.contains('.') || first.contains(':') || first == "localhost";
    let repository = !rest.is_empty()
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-/:@".contains(&b));
    (host && repository && first != "." && first != "..").then_some(text)
}

/// A platform: operating system, architecture and optional variant.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Platform {
    /// `linux`, `windows`, ...
    pub os: String,
    /// `amd64`, `arm64`, `ppc64le`, `s390x`, ...
    pub architecture: String,
    /// `v8`, `v7`, ... when given.
    pub variant: Option<String>,
}

impl Platform {
    /// `OS/ARCH` or `OS/ARCH/VARIANT`.
    ///
    /// # Errors
    ///
    /// Any other shape.
    pub fn parse(text: &str) -> Result<Platform, ImageError> {
        let parts: Vec<&str> = text.split('/').collect();
        let bad = || ImageError::BadPlatform {
            text: text.to_owned(),
        };
        if !(2..=3).contains(&parts.len()) || parts.iter().any(|p| p.is_empty()) {
            return Err(bad());
        }
        Ok(Platform {
            os: parts[0].to_owned(),
            architecture: parts[1].to_owned(),
            variant: parts.get(2).map(|v| (*v).to_owned()),
        })
    }

    /// Whether an image for `other` serves this platform (a variant asked for
    /// must match; none asked for matches any).
    pub fn matches(&self, other: &Platform) -> bool {
        self.os == other.os
            && self.architecture == other.architecture
            && (self.variant.is_none() || self.variant == other.variant)
    }
}

impl Default for Platform {
    /// `linux/amd64`, the platform read when none is given.
    fn default() -> Self {
        Platform {
            os: "linux".into(),
            architecture: "amd64".into(),
            variant: None,
        }
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.os, self.architecture)?;
        if let Some(v) = &self.variant {
            write!(f, "/{v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> ImageSpec {
        ImageSpec::parse(text).unwrap().expect("an image")
    }

    #[test]
    fn transports_split_at_the_first_colon() {
        let s = spec("oci:layout:v4.20");
        assert_eq!(s.transport, Transport::Oci);
        assert_eq!(s.path, PathBuf::from("layout"));
        assert_eq!(s.selector, Some(Selector::Name("v4.20".into())));
        let s = spec("docker-archive:img.tar:quay.io/x/y:v1");
        assert_eq!(s.transport, Transport::DockerArchive);
        assert_eq!(s.selector, Some(Selector::Name("quay.io/x/y:v1".into())));
        assert_eq!(
            spec("docker-archive:a.tar:@1").selector,
            Some(Selector::Index(1))
        );
        assert_eq!(spec("oci-archive:a.tar").selector, None);
        assert_eq!(spec("oci-archive:a.tar").to_string(), "oci-archive:a.tar");
        assert_eq!(spec("oci:d:r").to_string(), "oci:d:r");
    }

    #[test]
    fn malformed_transports_are_errors() {
        for t in [
            "oci:",
            "oci-archive::x",
            "docker-archive:a.tar:@x",
            "oci:d:",
        ] {
            assert!(
                matches!(ImageSpec::parse(t), Err(ImageError::Malformed { .. })),
                "{t}"
            );
        }
    }

    #[test]
    fn registry_references_are_refused_unless_they_are_paths() {
        for t in [
            "quay.io/operatorhubio/catalog:latest",
            "localhost/cat:1",
            "registry:5000/cat",
            "docker://quay.io/x/y",
        ] {
            let e = ImageSpec::parse(t).expect_err(t);
            assert!(e.to_string().contains("skopeo copy docker://"), "{e}");
        }
        for t in ["catalogs/v4.20", "./x/y", "catalog.json", "../a.b/c", "-"] {
            assert_eq!(ImageSpec::parse(t).unwrap(), None, "{t}");
        }
    }

    #[test]
    fn platforms() {
        let p = Platform::parse("linux/arm64/v8").unwrap();
        assert_eq!(p.to_string(), "linux/arm64/v8");
        assert!(Platform::parse("linux/arm64").unwrap().matches(&p));
        assert!(!p.matches(&Platform::parse("linux/arm64").unwrap()));
        assert!(Platform::parse("linux").is_err());
        assert!(Platform::parse("linux//x").is_err());
        assert_eq!(Platform::default().to_string(), "linux/amd64");
    }
}
