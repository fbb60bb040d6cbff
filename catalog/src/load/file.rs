//! Reading a source file's bytes: from memory as they are, from disk read or
//! mapped, from standard input read whole; every read bounded by
//! [`MAX_FILE_BYTES`].

use std::io::Read;
use std::path::Path;

use olmsat_encoding::limits::MAX_FILE_BYTES;

use super::source::{Content, SourceFile};

/// Files at least this large are mapped into memory instead of copied.
const MAP_FILE_BYTES: u64 = 1 << 20;

/// Mappings at least this large are undone on another thread.
const UNMAP_ASIDE_BYTES: usize = 16 << 20;

/// A file that could not be read (the file's one diagnostic; the rest of a
/// catalog still loads).
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Opening or reading failed.
    #[error("cannot read file: {0}")]
    Read(#[source] std::io::Error),
    /// The file is over the limit before reading.
    #[error("file is {size} bytes, larger than the {MAX_FILE_BYTES}-byte limit olmsat reads")]
    TooLarge {
        /// Its size.
        size: u64,
    },
    /// The file grew over the limit while it was read.
    #[error("file is larger than the {MAX_FILE_BYTES}-byte limit olmsat reads")]
    GrewTooLarge,
}

impl FileError {
    /// The error for a file `olmsat_io` could not open or read.
    fn from_io(e: olmsat_io::ReadError) -> FileError {
        match e {
            olmsat_io::ReadError::Io(e) => FileError::Read(e),
            olmsat_io::ReadError::TooLarge { size, .. } => FileError::TooLarge { size },
            olmsat_io::ReadError::OverLimit { .. } => FileError::GrewTooLarge,
            other => FileError::Read(std::io::Error::other(other)),
        }
    }

    /// The rule a file that cannot be read this way breaks.
    pub fn rule(&self) -> olmsat_findings::diagnostic::Rule {
        use olmsat_findings::diagnostic::Rule;
        match self {
            FileError::TooLarge { .. } | FileError::GrewTooLarge => Rule::FileTooLarge,
            _ => Rule::Unreadable,
        }
    }
}

/// Call `read` with the bytes of `file`.
///
/// Large files on disk are mapped rather than read: the text then lives in the
/// page cache, with no copy and no fresh memory to fill. As with every tool
/// that maps files, a file truncated by another process while olmsat reads it
/// can end the process (SIGBUS); catalogs are not edited while they are
/// validated.
pub(crate) fn with_bytes<T>(
    file: &SourceFile<'_>,
    read: impl FnOnce(&[u8]) -> T,
) -> Result<T, FileError> {
    match &file.content {
        Content::Bytes(b) => Ok(read(b)),
        Content::Shared(b) => Ok(read(b)),
        Content::Path(p) => with_file_bytes(p, read),
    }
}

fn with_file_bytes<T>(path: &Path, read: impl FnOnce(&[u8]) -> T) -> Result<T, FileError> {
    // Opened without waiting, and refused unless a regular file: a named
    // pipe put in place of a file after the walk cannot hang the load.
    let (file, size) = olmsat_io::open_regular(path).map_err(FileError::from_io)?;
    if size > MAX_FILE_BYTES {
        return Err(FileError::TooLarge { size });
    }
    if size >= MAP_FILE_BYTES {
        // SAFETY: the mapping is only read, and only while `map` lives; see the
        // note above on files truncated by others meanwhile.
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            let out = read(&map);
            // Nothing read borrows the text. Undoing a large mapping takes
            // milliseconds (each page is unmapped in turn): it is done on
            // another thread while the caller goes on.
            if map.len() >= UNMAP_ASIDE_BYTES {
                rayon::spawn(move || drop(map));
            }
            return Ok(out);
        }
    }
    let mut bytes = Vec::new();
    let want = usize::try_from(size).unwrap_or(usize::MAX);
    if bytes.try_reserve_exact(want).is_err() {
        return Err(FileError::from_io(olmsat_io::ReadError::OutOfMemory {
            bytes: size,
        }));
    }
    match (&file).take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes) {
        Ok(_) if bytes.len() as u64 <= MAX_FILE_BYTES => Ok(read(&bytes)),
        Ok(_) => Err(FileError::GrewTooLarge),
        Err(e) => Err(FileError::Read(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_in_memory_are_given_as_they_are() {
        let f = SourceFile::from_bytes("m", &b"abc"[..]);
        assert_eq!(with_bytes(&f, <[u8]>::len).expect("in memory"), 3);
    }

    #[test]
    fn an_unreadable_file_is_a_read_error() {
        let f = SourceFile::from_path("no/such/file.json");
        let e = with_bytes(&f, |_| ()).expect_err("missing");
        assert!(matches!(e, FileError::Read(_)));
        assert!(e.to_string().starts_with("cannot read file: "), "{e}");
    }

    #[test]
    fn small_and_mapped_files_read_alike() {
        let dir = tempfile::tempdir().expect("temp dir");
        for size in [10usize, MAP_FILE_BYTES as usize + 7] {
            let p = dir.path().join(format!("f{size}"));
            let body: Vec<u8> = (0..size).map(|i| b'a' + (i % 26) as u8).collect();
            std::fs::write(&p, &body).expect("write");
            let got = with_bytes(&SourceFile::from_path(&p), <[u8]>::to_vec).expect("read");
            assert_eq!(got, body);
        }
    }
}
