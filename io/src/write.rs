//! Writing output files into a directory the user named: atomically, only
//! there, and never through a link that happens to be there.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The longest file name [`file_name`] makes, in bytes (file systems allow
/// 255; room is left for the temporary name used while writing).
pub const MAX_NAME_BYTES: usize = 200;

/// `stem.ext` as a safe file name: characters other than ASCII letters,
/// digits, `.`, `_` and `-` become `_`, a leading `.` gets a `_` before it,
/// and a name over [`MAX_NAME_BYTES`] is cut, with a hash of the whole stem
/// after the cut so that two long names that share their start stay
/// distinct. The same stem always gives the same name.
///
/// ```
/// use olmsat_io::{file_name, MAX_NAME_BYTES};
///
/// assert_eq!(file_name("etcd.stable", "dot"), "etcd.stable.dot");
/// assert_eq!(file_name("../x y", "svg"), "_.._x_y.svg");
/// let long = file_name(&"p".repeat(300), "svg");
/// assert!(long.len() <= MAX_NAME_BYTES && long.ends_with(".svg"));
/// assert_ne!(long, file_name(&format!("{}q", "p".repeat(299)), "svg"));
/// ```
pub fn file_name(stem: &str, ext: &str) -> String {
    let mut safe: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() || safe.starts_with('.') {
        safe.insert(0, '_');
    }
    let tail = if ext.is_empty() {
        String::new()
    } else {
        format!(".{ext}")
    };
    if safe.len() + tail.len() > MAX_NAME_BYTES {
        // `safe` is ASCII: any byte is a character boundary.
        let hash = format!("-{:016x}", fnv1a(stem.as_bytes()));
        let keep = MAX_NAME_BYTES.saturating_sub(hash.len() + tail.len());
        safe.truncate(keep);
        safe.push_str(&hash);
    }
    safe + &tail
}

/// FNV-1a, 64 bits: a fixed hash (the same on every machine and release).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Write `bytes` as the file `name` in `dir`, atomically: into a new file
/// beside it (created exclusively, so never through a link), then renamed
/// over `name` (which replaces a link of that name rather than writing to
/// its target). `name` must be a plain file name.
///
/// ```
/// let dir = tempfile::tempdir().expect("a directory");
/// let path = olmsat_io::write_in_dir(dir.path(), "index.md", b"# Index\n").expect("written");
/// assert_eq!(std::fs::read(path).expect("read"), b"# Index\n");
/// ```
///
/// # Errors
///
/// `name` is not a plain file name ([`std::io::ErrorKind::InvalidInput`]),
/// or creating, writing or renaming failed (the temporary file is removed).
pub fn write_in_dir(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && name.len() <= 255;
    if !plain {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{name:?} is not a plain file name"),
        ));
    }
    let target = dir.join(name);
    let mut n = 0u32;
    let (tmp, mut file) = loop {
        let tmp = dir.join(format!(
            ".{}.{}-{n}.tmp",
            &name[..name.len().min(200)],
            std::process::id()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(e),
        }
    };
    let written = file
        .write_all(bytes)
        .and_then(|()| file.flush())
        .and_then(|()| {
            drop(file);
            std::fs::rename(&tmp, &target)
        });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_safe_and_short_deterministically() {
        assert_eq!(file_name("", "md"), "_.md");
        assert_eq!(file_name(".hidden", "md"), "_.hidden.md");
        assert_eq!(file_name("a\u{1b}b", ""), "a_b");
        let a = file_name(&"x".repeat(1000), "html");
        assert_eq!(a.len(), MAX_NAME_BYTES);
        assert_eq!(a, file_name(&"x".repeat(1000), "html"));
        assert!(file_name(&"é".repeat(300), "svg").len() <= MAX_NAME_BYTES);
    }

    #[test]
    fn only_plain_names_are_written() {
        let d = tempfile::tempdir().expect("dir");
        for bad in ["", ".", "..", "a/b", "../x"] {
            assert!(write_in_dir(d.path(), bad, b"x").is_err(), "{bad}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_the_way_is_replaced_not_written_through() {
        let victim = tempfile::tempdir().expect("dir");
        let target = victim.path().join("precious");
        std::fs::write(&target, "keep").expect("write");
        let d = tempfile::tempdir().expect("dir");
        std::os::unix::fs::symlink(&target, d.path().join("etcd.svg")).expect("link");
        write_in_dir(d.path(), "etcd.svg", b"<svg/>").expect("written");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "keep");
        assert_eq!(
            std::fs::read_to_string(d.path().join("etcd.svg")).expect("read"),
            "<svg/>"
        );
        assert!(!std::fs::symlink_metadata(d.path().join("etcd.svg"))
            .expect("meta")
            .is_symlink());
        let left: Vec<_> = std::fs::read_dir(d.path()).expect("list").collect();
        assert_eq!(left.len(), 1, "no temporary file is left");
    }
}
