//! What kind of file a path is, in words.

use std::fmt;

/// The kind of a file system entry, as far as olmsat cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file: the only kind olmsat reads inside a directory.
    Regular,
    /// A directory.
    Directory,
    /// A named pipe (FIFO): reading it may wait forever for a writer.
    Fifo,
    /// A Unix domain socket.
    Socket,
    /// A character device (`/dev/zero`, a terminal).
    CharDevice,
    /// A block device (a disk).
    BlockDevice,
    /// A symbolic link (not followed).
    Symlink,
    /// Anything else.
    Other,
}

impl FileKind {
    /// The kind of `t`.
    pub fn of(t: std::fs::FileType) -> FileKind {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if t.is_fifo() {
                return FileKind::Fifo;
            }
            if t.is_socket() {
                return FileKind::Socket;
            }
            if t.is_char_device() {
                return FileKind::CharDevice;
            }
            if t.is_block_device() {
                return FileKind::BlockDevice;
            }
        }
        if t.is_file() {
            FileKind::Regular
        } else if t.is_dir() {
            FileKind::Directory
        } else if t.is_symlink() {
            FileKind::Symlink
        } else {
            FileKind::Other
        }
    }

    /// Whether olmsat may read it as a stream when the user names it on the
    /// command line (a pipe such as `<(…)`, a terminal, a device).
    pub fn is_stream(self) -> bool {
        matches!(
            self,
            FileKind::Fifo | FileKind::CharDevice | FileKind::Socket | FileKind::BlockDevice
        )
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Regular => "regular file",
            FileKind::Directory => "directory",
            FileKind::Fifo => "named pipe",
            FileKind::Socket => "socket",
            FileKind::CharDevice => "character device",
            FileKind::BlockDevice => "block device",
            FileKind::Symlink => "symbolic link",
            FileKind::Other => "special file",
        })
    }
}
