//! How the process takes its memory from the kernel.
//!
//! Loading a large catalog builds hundreds of megabytes of blobs, and with the
//! kernel's ordinary 4 KiB pages a third of its time went to page faults (one
//! per page touched for the first time). Transparent huge pages (2 MiB) make
//! that far cheaper, but round memory up: they would push the peak memory of
//! validating a 20 MB catalog from about 40 MB to 85 MB. So olmsat uses small
//! pages, and switches to huge pages for inputs of at least
//! [`LARGE_INPUT_BYTES`], where memory is large anyway and the faults dominate
//! (see docs/performance.md). On systems without transparent huge pages, or
//! other than Linux, this does nothing.

use std::path::{Path, PathBuf};

/// Inputs at least this large (in bytes, all files together) are loaded with
/// huge pages.
pub const LARGE_INPUT_BYTES: u64 = 32 << 20;

/// At most this many directory entries are looked at to size the input.
const MAX_ENTRIES: usize = 100_000;

/// Use small pages (called first thing in `main`; the allocator asks for huge
/// pages where it can, and this overrides it).
pub fn small_pages() {
    set_huge_pages(false);
}

/// Switch to huge pages when the files under `paths` add up to at least
/// [`LARGE_INPUT_BYTES`]. Standard input (`-`) is not sized.
pub fn fit_to_input<'a>(paths: impl IntoIterator<Item = &'a Path>) {
    if input_bytes(paths, LARGE_INPUT_BYTES) >= LARGE_INPUT_BYTES {
        set_huge_pages(true);
    }
}

/// The size of the files under `paths`, counted until `enough` is reached.
/// Symbolic links to directories are not followed (no loops); unreadable
/// entries count nothing.
fn input_bytes<'a>(paths: impl IntoIterator<Item = &'a Path>, enough: u64) -> u64 {
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

#[cfg(target_os = "linux")]
fn set_huge_pages(on: bool) {
    // SAFETY: PR_SET_THP_DISABLE takes an integer flag and changes only how
    // the kernel backs this process's future page faults. Its failure (an old
    // kernel) leaves the kernel's default, which is harmless.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, libc::c_ulong::from(!on), 0, 0, 0);
    }
}

#[cfg(not(target_os = "linux"))]
fn set_huge_pages(_on: bool) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_size_counts_files_under_directories() {
        let dir = std::env::temp_dir().join(format!("olmsat-memory-{}", std::process::id()));
        let sub = dir.join("a");
        std::fs::create_dir_all(&sub).expect("temp dir");
        std::fs::write(dir.join("x.json"), vec![b' '; 1000]).expect("write");
        std::fs::write(sub.join("y.yaml"), vec![b' '; 500]).expect("write");
        assert_eq!(input_bytes([dir.as_path()], u64::MAX), 1500);
        // Counting stops once enough is seen.
        assert!(input_bytes([dir.as_path()], 1) >= 500);
        assert_eq!(input_bytes([Path::new("/no/such/path")], u64::MAX), 0);
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
