//! Where an image's files and blobs are: an OCI layout directory, or an
//! archive (a tar of a layout, or a `docker save` archive) mapped into memory
//! and indexed by entry name. Every blob is checked against the size and
//! digest its descriptor names before it is used.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256, Sha512};

use super::{ImageError, Limits};

/// The files of an image on disk.
pub(crate) struct Store {
    /// The image as shown in messages.
    pub image: String,
    kind: Kind,
}

enum Kind {
    Dir(PathBuf),
    Archive {
        map: memmap2::Mmap,
        /// Regular files: normalised name → byte range in `map`.
        entries: BTreeMap<String, (usize, usize)>,
        /// Symbolic links (docker save writes `ID/layer.tar` links): name →
        /// the normalised name they point at inside the archive.
        links: BTreeMap<String, String>,
    },
}

/// An entry name without `./` or `/` in front.
fn normalise(name: &str) -> &str {
    let mut n = name;
    loop {
        if let Some(r) = n.strip_prefix("./") {
            n = r;
        } else if let Some(r) = n.strip_prefix('/') {
            n = r;
        } else {
            return n;
        }
    }
}

impl Store {
    /// A layout directory.
    pub fn dir(image: String, path: &Path) -> Result<Store, ImageError> {
        let meta = std::fs::metadata(path).map_err(|source| ImageError::Io {
            image: image.clone(),
            path: path.display().to_string(),
            source,
        })?;
        if !meta.is_dir() {
            return Err(ImageError::Missing {
                image,
                what: "layout directory".into(),
                hint: format!(
                    " ({} is a file; an archive is read with oci-archive: or docker-archive:)",
                    path.display()
                ),
            });
        }
        Ok(Store {
            image,
            kind: Kind::Dir(path.to_path_buf()),
        })
    }

    /// An archive file, indexed (not extracted).
    pub fn archive(image: String, path: &Path, limits: &Limits) -> Result<Store, ImageError> {
        let io = |source| ImageError::Io {
            image: image.clone(),
            path: path.display().to_string(),
            source,
        };
        let file = File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if meta.is_dir() {
            return Err(ImageError::Missing {
                image,
                what: "archive".into(),
                hint: format!(
                    " ({} is a directory; a layout directory is read with oci:)",
                    path.display()
                ),
            });
        }
        // SAFETY: the mapping is only read, while the store lives; an archive
        // changed by another process meanwhile fails its digest checks.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        let bad = |message: String| ImageError::Archive {
            image: image.clone(),
            message,
        };
        let mut entries = BTreeMap::new();
        let mut links = BTreeMap::new();
        let mut archive = tar::Archive::new(&map[..]);
        let mut count = 0u64;
        for entry in archive.entries().map_err(|e| bad(e.to_string()))? {
            let entry = entry.map_err(|e| bad(e.to_string()))?;
            count += 1;
            if count > limits.archive_entries {
                return Err(ImageError::Limit {
                    image,
                    what: "the archive's entry count".into(),
                    limit: limits.archive_entries,
                    unit: "entries",
                });
            }
            let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
            let kind = entry.header().entry_type();
            if kind.is_symlink() || kind.is_hard_link() {
                let target = entry
                    .link_name_bytes()
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default();
                let from = if kind.is_symlink() {
                    normalise(&name).rsplit_once('/').map_or("", |(d, _)| d)
                } else {
                    ""
                };
                if let Some(t) = super::layer::link_target(&format!("{from}/x"), &target) {
                    links.insert(normalise(&name).to_owned(), normalise(&t).to_owned());
                }
                continue;
            }
            if !kind.is_file() {
                continue;
            }
            let start = usize::try_from(entry.raw_file_position()).unwrap_or(usize::MAX);
            let size = usize::try_from(entry.size()).unwrap_or(usize::MAX);
            if start.checked_add(size).is_none_or(|end| end > map.len()) {
                return Err(bad(format!("entry {name:?} runs past the end of the file")));
            }
            entries.insert(normalise(&name).to_owned(), (start, size));
        }
        Ok(Store {
            image,
            kind: Kind::Archive {
                map,
                entries,
                links,
            },
        })
    }

    /// A file of the layout or archive by its path, `None` when absent.
    pub fn file(&self, rel: &str, limit: u64) -> Result<Option<Cow<'_, [u8]>>, ImageError> {
        match &self.kind {
            Kind::Dir(root) => {
                let path = root.join(rel);
                let io = |source| ImageError::Io {
                    image: self.image.clone(),
                    path: path.display().to_string(),
                    source,
                };
                let file = match File::open(&path) {
                    Ok(f) => f,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                    Err(e) => return Err(io(e)),
                };
                let mut bytes = Vec::new();
                file.take(limit.saturating_add(1))
                    .read_to_end(&mut bytes)
                    .map_err(io)?;
                if bytes.len() as u64 > limit {
                    return Err(self.limit(rel, limit));
                }
                Ok(Some(Cow::Owned(bytes)))
            }
            Kind::Archive {
                map,
                entries,
                links,
            } => {
                let mut name = normalise(rel);
                // A few hops of links inside the archive, never out of it.
                for _ in 0..8 {
                    match links.get(name) {
                        Some(t) => name = t,
                        None => break,
                    }
                }
                let Some(&(start, size)) = entries.get(name) else {
                    return Ok(None);
                };
                if size as u64 > limit {
                    return Err(self.limit(rel, limit));
                }
                Ok(Some(Cow::Borrowed(&map[start..start + size])))
            }
        }
    }

    fn limit(&self, what: &str, limit: u64) -> ImageError {
        ImageError::Limit {
            image: self.image.clone(),
            what: what.to_owned(),
            limit,
            unit: "bytes",
        }
    }

    /// A file that must be there.
    pub fn required(&self, rel: &str, limit: u64, hint: &str) -> Result<Cow<'_, [u8]>, ImageError> {
        self.file(rel, limit)?.ok_or_else(|| ImageError::Missing {
            image: self.image.clone(),
            what: rel.to_owned(),
            hint: hint.to_owned(),
        })
    }

    /// The blob `digest` of an OCI layout, checked to be `size` bytes with
    /// that digest.
    pub fn blob(&self, digest: &str, size: u64, limit: u64) -> Result<Cow<'_, [u8]>, ImageError> {
        let (algorithm, hex) = digest.split_once(':').unwrap_or(("", digest));
        if !matches!(algorithm, "sha256" | "sha512")
            || hex.is_empty()
            || !hex.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Err(ImageError::UnsupportedDigest {
                image: self.image.clone(),
                digest: digest.to_owned(),
            });
        }
        if size > limit {
            return Err(self.limit(&format!("blob {digest}"), limit));
        }
        let bytes = self
            .file(&format!("blobs/{algorithm}/{hex}"), limit)?
            .ok_or_else(|| ImageError::Missing {
                image: self.image.clone(),
                what: format!("blob {digest}"),
                hint: " (the layout is incomplete; save the image again)".into(),
            })?;
        verify(&self.image, digest, Some(size), &bytes)?;
        Ok(bytes)
    }
}

/// Check that `bytes` are `size` bytes (when known) with digest `digest`.
pub(crate) fn verify(
    image: &str,
    digest: &str,
    size: Option<u64>,
    bytes: &[u8],
) -> Result<(), ImageError> {
    if let Some(size) = size {
        if bytes.len() as u64 != size {
            return Err(ImageError::BlobMismatch {
                image: image.to_owned(),
                digest: digest.to_owned(),
                what: format!("{} bytes, where its descriptor says {size}", bytes.len()),
            });
        }
    }
    let actual = digest_of(image, digest, bytes)?;
    if actual != digest {
        return Err(ImageError::BlobMismatch {
            image: image.to_owned(),
            digest: digest.to_owned(),
            what: format!("its content has digest {actual}"),
        });
    }
    Ok(())
}

/// The digest of `bytes` with the algorithm `like` names.
pub(crate) fn digest_of(image: &str, like: &str, bytes: &[u8]) -> Result<String, ImageError> {
    match like.split_once(':').map(|(a, _)| a) {
        Some("sha256") => Ok(format!("sha256:{}", hex(&Sha256::digest(bytes)))),
        Some("sha512") => Ok(format!("sha512:{}", hex(&Sha512::digest(bytes)))),
        _ => Err(ImageError::UnsupportedDigest {
            image: image.to_owned(),
            digest: like.to_owned(),
        }),
    }
}

/// Lower-case hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blobs_are_checked() {
        let t = tempfile::tempdir().unwrap();
        let data = b"hello";
        let d = format!("sha256:{}", hex(&Sha256::digest(data)));
        let dir = t.path().join("blobs/sha256");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(&d[7..]), data).unwrap();
        let s = Store::dir("oci:x".into(), t.path()).unwrap();
        assert_eq!(&*s.blob(&d, 5, 100).unwrap(), data);
        let e = s.blob(&d, 6, 100).unwrap_err().to_string();
        assert!(e.contains("5 bytes, where its descriptor says 6"), "{e}");
        std::fs::write(dir.join(&d[7..]), b"hellO").unwrap();
        let e = s.blob(&d, 5, 100).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("oci:x: blob {d}: its content has digest")),
            "{e}"
        );
        assert!(matches!(
            s.blob("md5:00", 1, 100),
            Err(ImageError::UnsupportedDigest { .. })
        ));
        assert!(matches!(
            s.blob("sha256:../../x", 1, 100),
            Err(ImageError::UnsupportedDigest { .. })
        ));
    }

    #[test]
    fn names_are_normalised() {
        assert_eq!(normalise("./index.json"), "index.json");
        assert_eq!(normalise("/./blobs/sha256/a"), "blobs/sha256/a");
    }
}
