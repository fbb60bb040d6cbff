//! What the operating system reports of this process: the processor time of
//! all its threads and its peak resident memory (for `--timings`), and the
//! size of a command's inputs (to choose how memory is taken).

use std::path::{Path, PathBuf};
use std::time::Duration;

/// This process's usage so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// Processor time of all threads, user and system.
    pub cpu: Duration,
    /// Peak resident memory, in bytes.
    pub peak: u64,
}

impl Usage {
    /// The usage now (`None` where it cannot be read).
    ///
    /// ```
    /// let u = olmsat_io::Usage::now();
    /// assert!(cfg!(not(unix)) || u.is_some_and(|u| u.peak > 0));
    /// ```
    pub fn now() -> Option<Usage> {
        #[cfg(unix)]
        {
            // SAFETY: getrusage writes one `rusage` into the zeroed value it is given.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: `usage` is a valid, writable `rusage`.
            if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
                return None;
            }
            let time = |t: libc::timeval| {
                Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
                    + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
            };
            // Linux and the BSDs give kilobytes; macOS gives bytes.
            let unit = if cfg!(target_os = "macos") { 1 } else { 1024 };
            Some(Usage {
                cpu: time(usage.ru_utime) + time(usage.ru_stime),
                peak: u64::try_from(usage.ru_maxrss).unwrap_or(0) * unit,
            })
        }
        #[cfg(not(unix))]
        {
            None
        }
    }
}

/// At most this many directory entries are looked at by [`input_size`].
const MAX_ENTRIES: usize = 100_000;

/// The size in bytes of the files under `paths`, counted until `enough` is
/// reached (or [`MAX_ENTRIES`] entries were looked at). Symbolic links to
/// directories are not followed (no loops); unreadable entries count nothing.
pub fn input_size<'a>(paths: impl IntoIterator<Item = &'a Path>, enough: u64) -> u64 {
    let mut stack: Vec<PathBuf> = paths.into_iter().map(Path::to_path_buf).collect();
    let mut total = 0u64;
    let mut seen = 0usize;
    while let Some(p) = stack.pop() {
        if total >= enough || seen >= MAX_ENTRIES {
            break;
        }
        seen += 1;
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            if let Ok(entries) = std::fs::read_dir(&p) {
                stack.extend(entries.flatten().map(|e| e.path()));
            }
        } else if meta.file_type().is_symlink() {
            if let Ok(target) = std::fs::metadata(&p) {
                if target.is_file() {
                    total += target.len();
                }
            }
        } else {
            total += meta.len();
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_size_counts_files_under_directories() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let sub = dir.path().join("a");
        std::fs::create_dir_all(&sub).expect("temp dir");
        std::fs::write(dir.path().join("x.json"), vec![b' '; 1000]).expect("write");
        std::fs::write(sub.join("y.yaml"), vec![b' '; 500]).expect("write");
        assert_eq!(input_size([dir.path()], u64::MAX), 1500);
        // Counting stops once enough is seen.
        assert!(input_size([dir.path()], 1) >= 500);
        assert_eq!(input_size([Path::new("/no/such/path")], u64::MAX), 0);
    }
}
