//! Every fast reader of the loader, behind one boundary.
//!
//! The general readers are serde_json (then the blob conversion) for JSON and
//! serde-saphyr for YAML. The fast readers read the common shapes of catalog
//! documents in one pass over the text and decline everything else, which then
//! goes to the general readers, so errors, warnings and unusual cases have one
//! implementation:
//! - `json`: `olm.bundle` and `olm.channel` JSON documents of the usual shape,
//!   straight into blobs (with `scan`'s word-at-a-time scans for strings and
//!   whitespace);
//! - `yaml`: the block-style YAML subset opm writes, straight into a
//!   [`YamlDoc`].
//!
//! [`Readers`] chooses: [`Readers::Fast`] (the default) or
//! [`Readers::General`], which reads every document with the general readers
//! only. Both load the same config and diagnostics; the differential tests and
//! the `load` fuzz target compare them.

pub(crate) mod json;
mod scan;
pub(crate) mod yaml;

use olmsat_encoding::location::LineCounter;

use super::doc::YamlDoc;
pub(crate) use json::FastDoc;

/// Which readers loading uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Readers {
    /// The fast readers where they apply, the general ones elsewhere.
    #[default]
    Fast,
    /// The general readers only (serde_json and serde-saphyr): for comparing
    /// with [`Readers::Fast`].
    General,
}

impl Readers {
    /// The JSON document starting at `start` (a `{`) of `piece`, which begins
    /// at byte `base` of the text `lines` counts in, with the offset just past
    /// it; `None` when the general reader must read it.
    pub(crate) fn json<'a>(
        self,
        piece: &'a str,
        start: usize,
        base: usize,
        lines: &mut LineCounter<'_>,
    ) -> Option<(FastDoc<'a>, usize)> {
        match self {
            Readers::Fast => json::read(piece, start, base, lines),
            Readers::General => None,
        }
    }

    /// The YAML document `text`; `None` when the general parser must read it.
    pub(crate) fn yaml(self, text: &str) -> Option<YamlDoc> {
        match self {
            Readers::Fast => yaml::parse_document(text),
            Readers::General => None,
        }
    }
}
