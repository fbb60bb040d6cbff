//! The limits that bound what reading an image may cost: past any of them,
//! reading stops with [`ImageError::Limit`](super::ImageError::Limit) naming it.
//! `docs/images.md` lists them.

/// Bounds on reading one image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes one layer may decompress to (tar headers and all content).
    pub layer_bytes: u64,
    /// Bytes all layers of the image may decompress to, together.
    pub image_bytes: u64,
    /// Entries all layers of the image may hold, together.
    pub entries: u64,
    /// Bytes of file content kept in memory (the catalog or bundle directories).
    pub kept_bytes: u64,
    /// Bytes of one file kept in memory (as on disk,
    /// [`MAX_FILE_BYTES`](olmsat_encoding::limits::MAX_FILE_BYTES)).
    pub file_bytes: u64,
    /// Bytes of one JSON document (index, manifest, config, `manifest.json`).
    pub document_bytes: u64,
    /// Entries of an image archive.
    pub archive_entries: u64,
}

/// One gibibyte.
const GIB: u64 = 1 << 30;

/// Symbolic links followed, one after another, to find the catalog
/// directory inside an image (as Linux's `MAXSYMLINKS`).
pub const MAX_LINK_HOPS: usize = 40;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            layer_bytes: 8 * GIB,
            image_bytes: 16 * GIB,
            entries: 1_000_000,
            kept_bytes: 4 * GIB,
            file_bytes: olmsat_encoding::limits::MAX_FILE_BYTES,
            document_bytes: 4 << 20,
            archive_entries: 100_000,
        }
    }
}
