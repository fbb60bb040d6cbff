//! Which image is read: by name (`org.opencontainers.image.ref.name`, a
//! RepoTag, `@N`), then by platform in a multi-platform index; its manifest,
//! config (labels) and layers.

use std::collections::BTreeMap;

use oci_spec::image::{Descriptor, ImageConfiguration, ImageIndex, ImageManifest};
use serde::Deserialize;

use super::document;
use super::store::{self, Store};
use super::{ImageError, Limits, Options, Platform, Selector, REF_NAME};

/// A layer to read.
pub(crate) struct LayerRef {
    /// Its digest (docker-archive: the digest of its file).
    pub digest: String,
    /// Its size.
    pub size: u64,
    /// Its file in a docker-archive (else it is a blob of the layout).
    pub path: Option<String>,
    /// The digest its decompressed tar must have (docker-archive).
    pub diff_id: Option<String>,
}

/// The image chosen.
pub(crate) struct Chosen {
    pub digest: String,
    pub saved_name: Option<String>,
    pub platform: Option<Platform>,
    pub note: Option<String>,
    pub labels: BTreeMap<String, String>,
    pub layers: Vec<LayerRef>,
}

const INDEX_TYPES: [&str; 2] = [
    "application/vnd.oci.image.index.v1+json",
    "application/vnd.docker.distribution.manifest.list.v2+json",
];
const MANIFEST_TYPES: [&str; 2] = [
    "application/vnd.oci.image.manifest.v1+json",
    "application/vnd.docker.distribution.manifest.v2+json",
];
const LAYER_TYPES: [&str; 9] = [
    "application/vnd.oci.image.layer.v1.tar",
    "application/vnd.oci.image.layer.v1.tar+gzip",
    "application/vnd.oci.image.layer.v1.tar+zstd",
    "application/vnd.oci.image.layer.nondistributable.v1.tar",
    "application/vnd.oci.image.layer.nondistributable.v1.tar+gzip",
    "application/vnd.oci.image.layer.nondistributable.v1.tar+zstd",
    "application/vnd.docker.image.rootfs.diff.tar.gzip",
    "application/vnd.docker.image.rootfs.diff.tar",
    "application/vnd.docker.image.rootfs.foreign.diff.tar.gzip",
];

fn doc_err(image: &str, what: &'static str, name: &str, e: impl ToString) -> ImageError {
    ImageError::Document {
        image: image.to_owned(),
        what,
        name: name.to_owned(),
        message: e.to_string(),
    }
}

/// A document whose own `mediaType` names the other kind (an index that says
/// it is a manifest, or the reverse) is refused, naming the field.
fn own_media_type(
    image: &str,
    what: &'static str,
    name: &str,
    media_type: Option<&oci_spec::image::MediaType>,
) -> Result<(), ImageError> {
    let Some(m) = media_type.map(ToString::to_string) else {
        return Ok(());
    };
    let other = match what {
        "index" if MANIFEST_TYPES.contains(&m.as_str()) => "an image manifest's",
        "manifest" if INDEX_TYPES.contains(&m.as_str()) => "an image index's",
        _ => return Ok(()),
    };
    Err(ImageError::Field {
        image: image.to_owned(),
        what,
        name: name.to_owned(),
        field: "mediaType".into(),
        problem: format!("{m:?} is {other} media type, where an image {what} is expected"),
    })
}

fn platform_of(d: &Descriptor) -> Option<Platform> {
    d.platform().as_ref().map(|p| Platform {
        os: p.os().to_string(),
        architecture: p.architecture().to_string(),
        variant: p.variant().clone().filter(|v| !v.is_empty()),
    })
}

fn ref_name(d: &Descriptor) -> Option<String> {
    d.annotations()
        .as_ref()
        .and_then(|a| a.get(REF_NAME))
        .cloned()
}

fn describe(d: &Descriptor) -> String {
    match (ref_name(d), platform_of(d)) {
        (Some(n), Some(p)) => format!("{n} ({p})"),
        (Some(n), None) => n,
        (None, Some(p)) => format!("{} ({p})", d.digest()),
        (None, None) => d.digest().to_string(),
    }
}

/// The image of an OCI layout (directory or archive) `selector` names.
pub(crate) fn oci(
    store: &Store,
    selector: Option<&Selector>,
    options: &Options,
) -> Result<Chosen, ImageError> {
    let image = store.image.as_str();
    let limits = &options.limits;
    let bytes = store.required(
        "index.json",
        limits.document_bytes,
        " (not an OCI image layout; save one with skopeo copy ... oci:DIR)",
    )?;
    let index: ImageIndex = document::parse(image, "index", "index.json", &bytes)?;
    own_media_type(image, "index", "index.json", index.media_type().as_ref())?;
    let all = index.manifests();
    let candidates: Vec<&Descriptor> = match selector {
        None => all.iter().collect(),
        Some(Selector::Name(n)) => all
            .iter()
            .filter(|d| ref_name(d).as_deref() == Some(n.as_str()))
            .collect(),
        Some(Selector::Index(_)) => {
            return Err(ImageError::Malformed {
                text: image.to_owned(),
            })
        }
    };
    let names = || {
        let mut v: Vec<String> = all.iter().map(describe).collect();
        v.dedup();
        if v.is_empty() {
            "none".into()
        } else {
            v.join(", ")
        }
    };
    if candidates.is_empty() {
        return Err(match selector {
            Some(Selector::Name(n)) => ImageError::NoSuchName {
                image: image.to_owned(),
                name: n.clone(),
                available: names(),
            },
            _ => ImageError::Missing {
                image: image.to_owned(),
                what: "image".into(),
                hint: " (index.json lists no manifest)".into(),
            },
        });
    }
    let saved_name = candidates.first().and_then(|d| ref_name(d));
    let distinct_names = {
        let mut n: Vec<Option<String>> = candidates.iter().map(|d| ref_name(d)).collect();
        n.sort();
        n.dedup();
        n.len()
    };
    let (descriptor, platform, note) = if candidates.len() == 1 {
        (candidates[0].clone(), None, None)
    } else if distinct_names == 1 && candidates.iter().all(|d| d.platform().is_some()) {
        // One name for several platforms: a platform index written flat.
        let list: Vec<Descriptor> = candidates.iter().map(|d| (*d).clone()).collect();
        pick_platform(image, &list, options)?
    } else {
        return Err(ImageError::Ambiguous {
            image: image.to_owned(),
            count: candidates.len(),
            available: names(),
        });
    };
    let mut chosen = resolve(store, &descriptor, options, 0)?;
    chosen.saved_name = saved_name;
    if platform.is_some() {
        chosen.platform = platform;
        chosen.note = note;
    }
    Ok(chosen)
}

/// The descriptor for the platform asked for, with a note naming it.
fn pick_platform(
    image: &str,
    list: &[Descriptor],
    options: &Options,
) -> Result<(Descriptor, Option<Platform>, Option<String>), ImageError> {
    let want = &options.platform;
    let found = list
        .iter()
        .find(|d| platform_of(d).is_some_and(|p| want.matches(&p)));
    let mut available: Vec<String> = list
        .iter()
        .filter_map(platform_of)
        .map(|p| p.to_string())
        .collect();
    available.sort();
    available.dedup();
    match found {
        Some(d) => {
            let p = platform_of(d).unwrap_or_else(|| want.clone());
            let note = format!(
                "read platform {p} of a multi-platform index ({}); choose another with --platform",
                available.join(", ")
            );
            Ok((d.clone(), Some(p), Some(note)))
        }
        None => Err(ImageError::NoPlatform {
            image: image.to_owned(),
            platform: want.to_string(),
            available: if available.is_empty() {
                "no platforms".into()
            } else {
                available.join(", ")
            },
        }),
    }
}

/// Follow `descriptor` (an index or a manifest) to an image.
fn resolve(
    store: &Store,
    descriptor: &Descriptor,
    options: &Options,
    depth: usize,
) -> Result<Chosen, ImageError> {
    let image = store.image.as_str();
    let digest = descriptor.digest().to_string();
    if depth > 4 {
        return Err(doc_err(image, "index", &digest, "indexes nested too deep"));
    }
    let media = descriptor.media_type().to_string();
    let bytes = store.blob(&digest, descriptor.size(), options.limits.document_bytes)?;
    let is_index = if INDEX_TYPES.contains(&media.as_str()) {
        true
    } else if MANIFEST_TYPES.contains(&media.as_str()) {
        false
    } else {
        let v: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| doc_err(image, "manifest", &digest, e))?;
        if v.get("manifests").is_some() {
            true
        } else if v.get("layers").is_some() {
            false
        } else {
            return Err(ImageError::MediaType {
                image: image.to_owned(),
                digest,
                media_type: media,
            });
        }
    };
    if is_index {
        let index: ImageIndex = document::parse(image, "index", &digest, &bytes)?;
        own_media_type(image, "index", &digest, index.media_type().as_ref())?;
        let list = index.manifests();
        let (d, platform, note) = if list.len() == 1 && list[0].platform().is_none() {
            (list[0].clone(), None, None)
        } else {
            pick_platform(image, list, options)?
        };
        let mut chosen = resolve(store, &d, options, depth + 1)?;
        if platform.is_some() {
            chosen.platform = platform;
            chosen.note = note;
        }
        return Ok(chosen);
    }
    let manifest: ImageManifest = document::parse(image, "manifest", &digest, &bytes)?;
    own_media_type(image, "manifest", &digest, manifest.media_type().as_ref())?;
    let config = manifest.config();
    let config_digest = config.digest().to_string();
    let config_bytes = store.blob(&config_digest, config.size(), options.limits.document_bytes)?;
    let labels = labels_of(image, &config_digest, &config_bytes)?.0;
    let mut layers = Vec::new();
    for l in manifest.layers() {
        let m = l.media_type().to_string();
        if !LAYER_TYPES.contains(&m.as_str()) {
            return Err(ImageError::MediaType {
                image: image.to_owned(),
                digest: l.digest().to_string(),
                media_type: m,
            });
        }
        layers.push(LayerRef {
            digest: l.digest().to_string(),
            size: l.size(),
            path: None,
            diff_id: None,
        });
    }
    Ok(Chosen {
        digest,
        saved_name: None,
        platform: None,
        note: None,
        labels,
        layers,
    })
}

/// The labels and diff ids of a config.
fn labels_of(
    image: &str,
    name: &str,
    bytes: &[u8],
) -> Result<(BTreeMap<String, String>, Vec<String>), ImageError> {
    let config: ImageConfiguration = document::parse(image, "config", name, bytes)?;
    let labels = config
        .labels_of_config()
        .map(|l| l.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    Ok((labels, config.rootfs().diff_ids().clone()))
}

/// One image of a docker-archive's `manifest.json`.
#[derive(Deserialize)]
struct DockerImage {
    #[serde(rename = "Config")]
    config: String,
    #[serde(rename = "RepoTags", default)]
    repo_tags: Option<Vec<String>>,
    #[serde(rename = "Layers", default)]
    layers: Vec<String>,
}

/// The digest a docker-archive file's name gives (`HEX.json`, `HEX.tar`,
/// `blobs/sha256/HEX`, `HEX/layer.tar` has none).
fn digest_in_name(path: &str) -> Option<String> {
    let base = path.rsplit('/').next()?;
    let hex = base
        .strip_suffix(".json")
        .or_else(|| base.strip_suffix(".tar"))
        .unwrap_or(base);
    (hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then(|| format!("sha256:{hex}"))
}

/// The image of a docker-archive `selector` names.
pub(crate) fn docker(
    store: &Store,
    selector: Option<&Selector>,
    limits: &Limits,
) -> Result<Chosen, ImageError> {
    let image = store.image.as_str();
    let bytes = store.required(
        "manifest.json",
        limits.document_bytes,
        " (not a docker-archive; an OCI layout archive is read with oci-archive:)",
    )?;
    let list: Vec<DockerImage> = serde_json::from_slice(&bytes)
        .map_err(|e| doc_err(image, "manifest", "manifest.json", e))?;
    let tags = |d: &DockerImage| d.repo_tags.clone().unwrap_or_default();
    let names = || {
        list.iter()
            .enumerate()
            .map(|(i, d)| {
                let t = tags(d);
                if t.is_empty() {
                    format!("@{i}")
                } else {
                    format!("@{i} ({})", t.join(", "))
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (entry, saved_name) = match selector {
        None if list.len() == 1 => (&list[0], tags(&list[0]).into_iter().next()),
        None => {
            return Err(if list.is_empty() {
                ImageError::Missing {
                    image: image.to_owned(),
                    what: "image".into(),
                    hint: " (manifest.json lists none)".into(),
                }
            } else {
                ImageError::Ambiguous {
                    image: image.to_owned(),
                    count: list.len(),
                    available: names(),
                }
            })
        }
        Some(Selector::Index(i)) => match list.get(*i) {
            Some(d) => (d, tags(d).into_iter().next()),
            None => {
                return Err(ImageError::NoSuchName {
                    image: image.to_owned(),
                    name: format!("@{i}"),
                    available: names(),
                })
            }
        },
        Some(Selector::Name(n)) => {
            let with_latest = format!("{n}:latest");
            match list.iter().find(|d| {
                tags(d)
                    .iter()
                    .any(|t| t == n || (!n.contains(':') && *t == with_latest))
            }) {
                Some(d) => (d, Some(n.clone())),
                None => {
                    return Err(ImageError::NoSuchName {
                        image: image.to_owned(),
                        name: n.clone(),
                        available: names(),
                    })
                }
            }
        }
    };
    let config_bytes = store.required(&entry.config, limits.document_bytes, "")?;
    let config_digest = match digest_in_name(&entry.config) {
        Some(d) => {
            store::verify(image, &d, None, &config_bytes)?;
            d
        }
        None => crate::digest::digest_of(image, "sha256:", &config_bytes)?,
    };
    let (labels, diff_ids) = labels_of(image, &entry.config, &config_bytes)?;
    if diff_ids.len() != entry.layers.len() {
        return Err(doc_err(
            image,
            "config",
            &entry.config,
            format!(
                "{} diff_ids for {} layers",
                diff_ids.len(),
                entry.layers.len()
            ),
        ));
    }
    let layers = entry
        .layers
        .iter()
        .zip(diff_ids)
        .map(|(path, diff_id)| LayerRef {
            digest: digest_in_name(path).unwrap_or_else(|| path.clone()),
            size: 0,
            path: Some(path.clone()),
            diff_id: Some(diff_id),
        })
        .collect();
    Ok(Chosen {
        digest: config_digest,
        saved_name,
        platform: None,
        note: None,
        labels,
        layers,
    })
}
