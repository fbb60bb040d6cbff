//! Reading one file or stream whole, within a limit.
//!
//! Two rules keep a hostile input from hanging olmsat or ending it for want
//! of memory:
//! - inside a directory only regular files are read: a file is opened
//!   without waiting (`O_NONBLOCK`, so a named pipe with no writer does not
//!   block the open) and refused unless it is a regular file;
//! - no buffer is sized by the input alone: a file's size is checked against
//!   the limit before memory is asked for, memory is asked for fallibly (an
//!   allocation that fails is an error, not an abort), and a stream is read
//!   into one buffer that never grows past the limit plus one byte.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::kind::FileKind;

/// Why a file or stream could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Opening or reading failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// Not a regular file (inside a directory, olmsat reads regular files only).
    #[error("not a regular file but a {0}; olmsat reads regular files only")]
    NotRegular(FileKind),
    /// Over the limit, by its size, before anything was read.
    #[error("file is {size} bytes, larger than the {limit}-byte limit olmsat reads")]
    TooLarge {
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// Over the limit while it was read (a stream, or a file that grew).
    #[error("larger than the {limit}-byte limit olmsat reads")]
    OverLimit {
        /// The limit.
        limit: u64,
    },
    /// The memory to hold it could not be had.
    #[error("not enough memory to read {bytes} bytes")]
    OutOfMemory {
        /// The bytes asked for.
        bytes: u64,
    },
}

impl ReadError {
    /// Whether the input was refused for its size.
    pub fn is_too_large(&self) -> bool {
        matches!(
            self,
            ReadError::TooLarge { .. } | ReadError::OverLimit { .. }
        )
    }
}

/// Open `path` for reading without waiting, and check that it is a regular
/// file; gives the open file and its size. A named pipe, socket or device
/// is refused with [`ReadError::NotRegular`] (and opening it never blocks).
/// A symbolic link is followed: whether a link may be followed is the
/// caller's question (see [`Walk`](crate::Walk)).
///
/// # Errors
///
/// The open or `fstat` failed, or the file is not a regular file.
pub fn open_regular(path: &Path) -> Result<(File, u64), ReadError> {
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    let kind = FileKind::of(meta.file_type());
    if kind != FileKind::Regular {
        return Err(ReadError::NotRegular(kind));
    }
    Ok((file, meta.len()))
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

/// Read the regular file at `path` whole, refusing it when it is over
/// `limit` bytes (before any memory is taken) or not a regular file.
///
/// # Errors
///
/// See [`open_regular`]; [`ReadError::TooLarge`] or [`ReadError::OverLimit`]
/// past the limit; [`ReadError::OutOfMemory`] when the memory cannot be had.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let (file, size) = open_regular(path)?;
    if size > limit {
        return Err(ReadError::TooLarge { size, limit });
    }
    read_sized(file, size, limit)
}

/// Read a path the user named on the command line: a regular file as
/// [`read_file`] does, and a named pipe or device (`<(…)`, `/dev/stdin`) as
/// a stream, up to `limit` bytes.
///
/// # Errors
///
/// As [`read_file`] and [`read_stream`]; a directory is
/// [`ReadError::NotRegular`].
pub fn read_named(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let kind = FileKind::of(std::fs::metadata(path)?.file_type());
    if kind.is_stream() {
        return read_stream(File::open(path)?, limit);
    }
    read_file(path, limit)
}

/// Read a file of known `size` (at most `limit`), into a buffer of that
/// size, noticing when it has grown past the limit meanwhile.
fn read_sized(file: File, size: u64, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    reserve(&mut bytes, size)?;
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::OverLimit { limit });
    }
    Ok(bytes)
}

/// Reserve room for `bytes` more bytes, as an error when it cannot be had.
fn reserve(buf: &mut Vec<u8>, bytes: u64) -> Result<(), ReadError> {
    let n = usize::try_from(bytes).map_err(|_| ReadError::OutOfMemory { bytes })?;
    buf.try_reserve_exact(n)
        .map_err(|_| ReadError::OutOfMemory { bytes })
}

/// Read a stream (standard input, a pipe) whole, up to `limit` bytes; more
/// is [`ReadError::OverLimit`].
///
/// Memory stays within the limit plus a small constant: the whole buffer
/// (the limit plus one byte) is asked for at once as address space, which
/// costs memory only as the stream fills it, so the buffer is never grown
/// by copying. Where that much address space cannot be had, the buffer
/// grows as the stream comes, and never past the limit plus one byte.
///
/// # Errors
///
/// Reading failed, or the stream is over the limit.
pub fn read_stream(input: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    let cap = limit.saturating_add(1);
    let mut buf: Vec<u8> = Vec::new();
    // Address space only: pages are taken as the stream fills them.
    if let Ok(n) = usize::try_from(cap) {
        let _ = buf.try_reserve_exact(n);
    }
    input.take(cap).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(ReadError::OverLimit { limit });
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_file_reads_whole() {
        let d = tempfile::tempdir().expect("dir");
        let p = d.path().join("f");
        std::fs::write(&p, b"hello").expect("write");
        assert_eq!(read_file(&p, 10).expect("read"), b"hello");
        assert_eq!(read_named(&p, 10).expect("read"), b"hello");
    }

    #[test]
    fn a_file_over_the_limit_is_refused_before_reading() {
        let d = tempfile::tempdir().expect("dir");
        let p = d.path().join("big");
        let f = File::create(&p).expect("create");
        // Sparse: a terabyte costs nothing on disk, and nothing is read.
        f.set_len(1 << 40).expect("sparse");
        let e = read_file(&p, 1 << 20).expect_err("too large");
        assert!(
            matches!(e, ReadError::TooLarge { size, .. } if size == 1 << 40),
            "{e}"
        );
        assert!(e.is_too_large());
    }

    #[test]
    fn a_directory_is_not_a_regular_file() {
        let d = tempfile::tempdir().expect("dir");
        let e = read_file(d.path(), 10).expect_err("a directory");
        assert!(
            matches!(e, ReadError::NotRegular(FileKind::Directory)),
            "{e}"
        );
        let e = read_named(d.path(), 10).expect_err("a directory");
        assert!(
            matches!(e, ReadError::NotRegular(FileKind::Directory)),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_refused_without_waiting() {
        let d = tempfile::tempdir().expect("dir");
        let p = d.path().join("fifo");
        let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_file(&p, 10).expect_err("a pipe");
        assert!(matches!(e, ReadError::NotRegular(FileKind::Fifo)), "{e}");
        assert_eq!(
            e.to_string(),
            "not a regular file but a named pipe; olmsat reads regular files only"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_refused_inside_a_directory_and_streamed_when_named() {
        let p = Path::new("/dev/zero");
        if !p.exists() {
            return;
        }
        let e = read_file(p, 10).expect_err("a device");
        assert!(
            matches!(e, ReadError::NotRegular(FileKind::CharDevice)),
            "{e}"
        );
        let e = read_named(p, 1000).expect_err("endless");
        assert!(matches!(e, ReadError::OverLimit { limit: 1000 }), "{e}");
    }

    #[test]
    fn a_stream_reads_up_to_the_limit() {
        let text = vec![b'x'; 100_000];
        assert_eq!(
            read_stream(&text[..], 100_000).expect("at the limit").len(),
            100_000
        );
        let e = read_stream(&text[..], 99_999).expect_err("over");
        assert!(matches!(e, ReadError::OverLimit { limit: 99_999 }), "{e}");
        assert!(read_stream(&b""[..], 0).expect("empty").is_empty());
    }

    #[test]
    fn an_endless_stream_stops_at_the_limit_plus_one() {
        let e = read_stream(std::io::repeat(b'a'), 5 << 20).expect_err("endless");
        assert!(e.is_too_large());
    }

    /// A reader that gives a few bytes at a time and is interrupted.
    struct Trickle(Vec<u8>, usize, bool);
    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.2 = !self.2;
            if self.2 {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            let n = buf.len().min(3).min(self.0.len() - self.1);
            buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
            self.1 += n;
            Ok(n)
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn streams_read_exactly_what_was_written(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2000),
            limit in 0u64..3000,
        ) {
            let got = read_stream(Trickle(bytes.clone(), 0, false), limit);
            if bytes.len() as u64 <= limit {
                proptest::prop_assert_eq!(got.expect("within the limit"), bytes);
            } else {
                proptest::prop_assert!(got.expect_err("over").is_too_large());
            }
        }
    }
}
