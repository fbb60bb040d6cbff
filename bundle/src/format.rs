//! The three bundle formats and how a directory's format is found.
//!
//! The media type annotation decides when it names a known format. Otherwise the
//! layout does: a `metadata/bundle.yaml` means registry+v2, a ClusterServiceVersion
//! in `manifests/` means registry+v1, anything else is plain+v0.

use std::fmt;

use crate::read::BundleDir;
use olmsat_encoding::location::Location;

/// A bundle format (media type; with the `clap` feature, the command line's
/// values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum MediaType {
    /// `registry+v1`: a ClusterServiceVersion and its objects.
    #[cfg_attr(
        feature = "clap",
        value(
            name = "registry+v1",
            help = "A ClusterServiceVersion and its objects, with metadata/annotations.yaml"
        )
    )]
    RegistryV1,
    /// `registry+v2`: CSV-less, with `metadata/bundle.yaml`.
    #[cfg_attr(
        feature = "clap",
        value(
            name = "registry+v2",
            help = "CSV-less: Kubernetes objects with a Deployment, and metadata/bundle.yaml"
        )
    )]
    RegistryV2,
    /// `plain+v0`: a flat directory of Kubernetes objects.
    #[cfg_attr(
        feature = "clap",
        value(
            name = "plain+v0",
            help = "A flat directory of arbitrary Kubernetes objects"
        )
    )]
    PlainV0,
}

impl MediaType {
    /// Every format.
    pub const ALL: [MediaType; 3] = [
        MediaType::RegistryV1,
        MediaType::RegistryV2,
        MediaType::PlainV0,
    ];

    /// The media type text.
    pub fn as_str(self) -> &'static str {
        match self {
            MediaType::RegistryV1 => "registry+v1",
            MediaType::RegistryV2 => "registry+v2",
            MediaType::PlainV0 => "plain+v0",
        }
    }

    /// Parse a media type text (exact match).
    pub fn parse(s: &str) -> Option<MediaType> {
        MediaType::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

impl fmt::Display for MediaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What decided the format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The media type annotation.
    Annotation {
        /// The annotation key used.
        key: &'static str,
        /// Where the annotation is.
        location: Location,
    },
    /// The directory layout, for the reason given.
    Layout(&'static str),
}

/// The detected format of a bundle directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detection {
    /// The format the bundle is checked and rendered as.
    pub media_type: MediaType,
    /// What decided it.
    pub source: Source,
    /// The format the layout alone suggests.
    pub layout: MediaType,
    /// The media type annotation as written, when there is one.
    pub declared: Option<(&'static str, String, Location)>,
}

impl Detection {
    /// A sentence saying which format was detected and why.
    pub fn describe(&self) -> String {
        match &self.source {
            Source::Annotation { key, location } => {
                format!("{} (from annotation {key} at {location})", self.media_type)
            }
            Source::Layout(why) => format!("{} (from the layout: {why})", self.media_type),
        }
    }
}

/// The format the layout suggests, and why.
pub fn layout_format(dir: &BundleDir) -> (MediaType, &'static str) {
    if dir.bundle_yaml.is_some() {
        return (MediaType::RegistryV2, "metadata/bundle.yaml is present");
    }
    if dir
        .objects_of_kind("ClusterServiceVersion")
        .next()
        .is_some()
    {
        return (
            MediaType::RegistryV1,
            "manifests/ holds a ClusterServiceVersion",
        );
    }
    (
        MediaType::PlainV0,
        "no media type annotation, no ClusterServiceVersion and no metadata/bundle.yaml",
    )
}

/// Detect the format of a bundle directory.
pub fn detect(dir: &BundleDir) -> Detection {
    let (layout, why) = layout_format(dir);
    let declared = dir
        .annotations
        .as_ref()
        .and_then(|a| a.media_type())
        .map(|(k, a)| (k, a.value.clone(), a.location.clone()));
    match &declared {
        Some((key, value, location)) => match MediaType::parse(value.trim()) {
            Some(m) => Detection {
                media_type: m,
                source: Source::Annotation {
                    key,
                    location: location.clone(),
                },
                layout,
                declared,
            },
            None => Detection {
                media_type: layout,
                source: Source::Layout(why),
                layout,
                declared,
            },
        },
        None => Detection {
            media_type: layout,
            source: Source::Layout(why),
            layout,
            declared,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::read_bundle;
    use std::fs;

    #[test]
    fn parse_and_display() {
        for m in MediaType::ALL {
            assert_eq!(MediaType::parse(m.as_str()), Some(m));
        }
        assert_eq!(MediaType::parse("helm"), None);
    }

    #[test]
    fn detects_from_annotation_then_layout() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        fs::create_dir_all(r.join("manifests")).unwrap();
        fs::create_dir_all(r.join("metadata")).unwrap();
        fs::write(
            r.join("manifests/d.yaml"),
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n",
        )
        .unwrap();
        let d = detect(&read_bundle(r).unwrap());
        assert_eq!(d.media_type, MediaType::PlainV0);
        assert!(d.describe().contains("from the layout"));
        fs::write(r.join("metadata/bundle.yaml"), "name: x\nversion: 1.0.0\n").unwrap();
        assert_eq!(
            detect(&read_bundle(r).unwrap()).media_type,
            MediaType::RegistryV2
        );
        fs::write(
            r.join("metadata/annotations.yaml"),
            "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: plain+v0\n",
        )
        .unwrap();
        let d = detect(&read_bundle(r).unwrap());
        assert_eq!(d.media_type, MediaType::PlainV0);
        assert_eq!(d.layout, MediaType::RegistryV2);
        assert!(d.describe().contains("from annotation"), "{}", d.describe());
        fs::write(
            r.join("metadata/annotations.yaml"),
            "annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: helm\n",
        )
        .unwrap();
        let d = detect(&read_bundle(r).unwrap());
        assert_eq!(d.media_type, MediaType::RegistryV2);
        assert_eq!(d.declared.unwrap().1, "helm");
    }
}
