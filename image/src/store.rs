//! Where an image's files and blobs are: an OCI layout directory, or an
//! archive (a tar of a layout, or a `docker save` archive) mapped into memory
//! and indexed by entry name. Every blob is checked against the size and
//! digest its descriptor names before it is used.
//!
//! Only regular files are read (opened without waiting, so a named pipe
//! never blocks; a device is refused), and none through a symbolic link that
//! leaves the layout directory. A blob is read only up to the size its
//! descriptor names (plus one byte, to notice a larger file): a blob of
//! another size is refused before its content costs anything.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::digest::digest_of;
use olmsat_io::{FileKind, ReadError};

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
    /// Files held in memory, by name (the fuzz checks build layouts so).
    Memory(BTreeMap<String, Vec<u8>>),
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
    pub(crate) fn dir(image: String, path: &Path) -> Result<Store, ImageError> {
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
    pub(crate) fn archive(
        image: String,
        path: &Path,
        limits: &Limits,
    ) -> Result<Store, ImageError> {
        let io = |source| ImageError::Io {
            image: image.clone(),
            path: path.display().to_string(),
            source,
        };
        let file = match olmsat_io::open_regular(path) {
            Ok((file, _)) => file,
            Err(ReadError::NotRegular(FileKind::Directory)) => {
                return Err(ImageError::Missing {
                    image,
                    what: "archive".into(),
                    hint: format!(
                        " ({} is a directory; a layout directory is read with oci:)",
                        path.display()
                    ),
                })
            }
            Err(ReadError::NotRegular(kind)) => {
                return Err(ImageError::NotRegular {
                    image,
                    path: path.display().to_string(),
                    kind,
                })
            }
            Err(ReadError::Io(e)) => return Err(io(e)),
            Err(e) => return Err(io(std::io::Error::other(e))),
        };
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

    /// Files held in memory, as a layout directory holding them would be
    /// read (the fuzz checks build layouts so).
    pub(crate) fn memory(image: String, files: BTreeMap<String, Vec<u8>>) -> Store {
        Store {
            image,
            kind: Kind::Memory(files),
        }
    }

    /// A file of the layout or archive by its path, `None` when absent.
    pub(crate) fn file(&self, rel: &str, limit: u64) -> Result<Option<Cow<'_, [u8]>>, ImageError> {
        match &self.kind {
            Kind::Dir(root) => {
                let Some(path) = self.in_layout(root, rel)? else {
                    return Ok(None);
                };
                match olmsat_io::read_file(&path, limit) {
                    Ok(bytes) => Ok(Some(Cow::Owned(bytes))),
                    Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(e) if e.is_too_large() => Err(self.limit(rel, limit)),
                    Err(e) => Err(self.read_error(&path, e)),
                }
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
            Kind::Memory(files) => match files.get(normalise(rel)) {
                None => Ok(None),
                Some(bytes) if bytes.len() as u64 > limit => Err(self.limit(rel, limit)),
                Some(bytes) => Ok(Some(Cow::Borrowed(bytes))),
            },
        }
    }

    /// The path of `rel` in the layout directory `root`: `None` when it is
    /// not there; an error when it is a symbolic link leading outside.
    fn in_layout(&self, root: &Path, rel: &str) -> Result<Option<PathBuf>, ImageError> {
        match olmsat_io::inside(root, rel, false) {
            Ok(path) => Ok(Some(path)),
            Err(olmsat_io::Outside::Link(_, _, target)) => Err(ImageError::LinkOutside {
                image: self.image.clone(),
                path: root.join(rel).display().to_string(),
                target,
            }),
            // Names come from olmsat (`index.json`, `blobs/ALG/HEX`) or a
            // docker-archive's `manifest.json`, which is never a directory.
            Err(_) => Ok(None),
        }
    }

    /// A read error of the file at `path` as an image error.
    fn read_error(&self, path: &Path, e: ReadError) -> ImageError {
        let shown = path.display().to_string();
        match e {
            ReadError::NotRegular(kind) => ImageError::NotRegular {
                image: self.image.clone(),
                path: shown,
                kind,
            },
            ReadError::OutOfMemory { bytes } => ImageError::OutOfMemory {
                image: self.image.clone(),
                what: shown,
                bytes,
            },
            ReadError::Io(source) => ImageError::Io {
                image: self.image.clone(),
                path: shown,
                source,
            },
            other => ImageError::Io {
                image: self.image.clone(),
                path: shown,
                source: std::io::Error::other(other),
            },
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
    pub(crate) fn required(
        &self,
        rel: &str,
        limit: u64,
        hint: &str,
    ) -> Result<Cow<'_, [u8]>, ImageError> {
        self.file(rel, limit)?.ok_or_else(|| ImageError::Missing {
            image: self.image.clone(),
            what: rel.to_owned(),
            hint: hint.to_owned(),
        })
    }

    /// The blob `digest` of an OCI layout, checked to be `size` bytes with
    /// that digest.
    pub(crate) fn blob(
        &self,
        digest: &str,
        size: u64,
        limit: u64,
    ) -> Result<Cow<'_, [u8]>, ImageError> {
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
        let rel = format!("blobs/{algorithm}/{hex}");
        let missing = || ImageError::Missing {
            image: self.image.clone(),
            what: format!("blob {digest}"),
            hint: " (the layout is incomplete; save the image again)".into(),
        };
        let bytes = match &self.kind {
            // Read no more than the descriptor's size and one byte: a larger
            // file (a sparse one, say) is refused by its size alone.
            Kind::Dir(root) => {
                let path = self.in_layout(root, &rel)?.ok_or_else(missing)?;
                match olmsat_io::read_file(&path, size) {
                    Ok(bytes) => Cow::Owned(bytes),
                    Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                        return Err(missing())
                    }
                    Err(ReadError::TooLarge { size: actual, .. }) => {
                        return Err(self.mismatch(digest, actual, size))
                    }
                    Err(ReadError::OverLimit { .. }) => {
                        return Err(ImageError::BlobMismatch {
                            image: self.image.clone(),
                            digest: digest.to_owned(),
                            what: format!(
                                "more than {size} bytes (it grew while it was read), where its descriptor says {size}"
                            ),
                        })
                    }
                    Err(e) => return Err(self.read_error(&path, e)),
                }
            }
            _ => self.file(&rel, limit)?.ok_or_else(missing)?,
        };
        verify(&self.image, digest, Some(size), &bytes)?;
        Ok(bytes)
    }

    fn mismatch(&self, digest: &str, actual: u64, size: u64) -> ImageError {
        size_mismatch(&self.image, digest, actual, size)
    }
}

/// A blob of `actual` bytes whose descriptor says `size`.
fn size_mismatch(image: &str, digest: &str, actual: u64, size: u64) -> ImageError {
    ImageError::BlobMismatch {
        image: image.to_owned(),
        digest: digest.to_owned(),
        what: format!("{actual} bytes, where its descriptor says {size}"),
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
            return Err(size_mismatch(image, digest, bytes.len() as u64, size));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digest::hex;
    use sha2::{Digest as _, Sha256};

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

    /// A named pipe at `path`.
    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    }

    #[cfg(unix)]
    #[test]
    fn named_pipes_and_devices_are_refused_without_waiting() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("blobs/sha256");
        std::fs::create_dir_all(&dir).unwrap();
        mkfifo(&t.path().join("index.json"));
        let hex = "ab".repeat(32);
        mkfifo(&dir.join(&hex));
        let s = Store::dir("oci:x".into(), t.path()).unwrap();
        // Nothing writes to the pipes: reading one would wait forever.
        let e = s.required("index.json", 100, "").unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "oci:x: {} is a named pipe, not a regular file; olmsat reads only regular files from an image on disk (it never waits on a named pipe or reads a device): save the image again",
                t.path().join("index.json").display()
            )
        );
        let e = s.blob(&format!("sha256:{hex}"), 5, 100).unwrap_err();
        assert!(
            matches!(
                e,
                ImageError::NotRegular {
                    kind: FileKind::Fifo,
                    ..
                }
            ),
            "{e}"
        );
        if Path::new("/dev/zero").exists() {
            std::fs::remove_file(dir.join(&hex)).unwrap();
            std::os::unix::fs::symlink("/dev/zero", dir.join(&hex)).unwrap();
            let e = s
                .blob(&format!("sha256:{hex}"), 13_585, 1 << 30)
                .unwrap_err();
            // A link leaving the layout is refused before anything is opened.
            assert_eq!(
                e.to_string(),
                format!(
                    "oci:x: {} is a symbolic link to /dev/zero, outside the layout directory; olmsat reads only the layout's own files: copy the file into the layout, or save the image again",
                    dir.join(&hex).display()
                )
            );
        }
        // An archive named as a pipe is refused too.
        let e = Store::archive(
            "oci-archive:p".into(),
            &t.path().join("index.json"),
            &Limits::default(),
        )
        .err()
        .expect("refused");
        assert!(matches!(e, ImageError::NotRegular { .. }), "{e}");
    }

    #[test]
    fn a_blob_larger_than_its_descriptor_is_refused_by_its_size() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("blobs/sha256");
        std::fs::create_dir_all(&dir).unwrap();
        let hex = "cd".repeat(32);
        // 6 GiB, sparse: reading it would take gigabytes and seconds.
        let f = std::fs::File::create(dir.join(&hex)).unwrap();
        f.set_len(6 << 30).unwrap();
        let s = Store::dir("oci:x".into(), t.path()).unwrap();
        let e = s
            .blob(&format!("sha256:{hex}"), 13_585, 8 << 30)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!("oci:x: blob sha256:{hex}: 6442450944 bytes, where its descriptor says 13585; the image is corrupt or was modified, save it again")
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_inside_the_layout_are_followed_and_links_out_refused() {
        let t = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let data = b"hello";
        let d = format!("sha256:{}", hex(&Sha256::digest(data)));
        let dir = t.path().join("blobs/sha256");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(t.path().join("kept"), data).unwrap();
        std::os::unix::fs::symlink("../../kept", dir.join(&d[7..])).unwrap();
        let s = Store::dir("oci:x".into(), t.path()).unwrap();
        assert_eq!(&*s.blob(&d, 5, 100).unwrap(), data);
        std::fs::remove_file(dir.join(&d[7..])).unwrap();
        std::fs::write(outside.path().join("secret"), data).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.join(&d[7..])).unwrap();
        let e = s.blob(&d, 5, 100).unwrap_err().to_string();
        assert!(
            e.contains("is a symbolic link to ") && e.contains(", outside the layout directory"),
            "{e}"
        );
    }

    #[test]
    fn names_are_normalised() {
        assert_eq!(normalise("./index.json"), "index.json");
        assert_eq!(normalise("/./blobs/sha256/a"), "blobs/sha256/a");
    }
}
