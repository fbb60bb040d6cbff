//! Joining the blobs read from the pieces of a file (and the documents of a
//! stream) into one config, in input order, each list made at its final size.

use rayon::prelude::*;

use crate::declcfg::DeclarativeConfig;
use olmsat_findings::diagnostic::Diagnostic;

use super::blob::Blob;
use super::blob::Converted;
use super::Loaded;

/// The blobs and diagnostics of one piece of a file, in input order.
#[derive(Default)]
pub(crate) struct PieceBlobs {
    config: DeclarativeConfig,
    diagnostics: Vec<Diagnostic>,
}

impl Extend<Converted> for PieceBlobs {
    fn extend<I: IntoIterator<Item = Converted>>(&mut self, items: I) {
        for (r, mut w) in items {
            self.diagnostics.append(&mut w);
            match r {
                Ok(Blob::Package(p)) => self.config.packages.push(p),
                Ok(Blob::Channel(c)) => self.config.channels.push(c),
                Ok(Blob::Bundle(b)) => self.config.bundles.push(b),
                Ok(Blob::Deprecation(d)) => self.config.deprecations.push(d),
                Ok(Blob::Other(m)) => self.config.others.push(m),
                Err(d) => self.diagnostics.push(d),
            }
        }
    }
}

impl FromIterator<Converted> for PieceBlobs {
    fn from_iter<I: IntoIterator<Item = Converted>>(items: I) -> Self {
        let mut p = PieceBlobs::default();
        p.extend(items);
        p
    }
}

impl PieceBlobs {
    /// Append the pieces, in order, to `out`; each list is made at its final
    /// size (one piece's lists are taken as they are).
    pub(crate) fn join(pieces: Vec<PieceBlobs>, out: &mut Loaded) {
        let config = &mut out.config;
        if pieces.len() == 1 {
            for p in pieces {
                config.merge(p.config);
                out.diagnostics.extend(p.diagnostics);
            }
            return;
        }
        let mut lists: Vec<DeclarativeConfig> = Vec::with_capacity(pieces.len());
        for p in pieces {
            lists.push(p.config);
            out.diagnostics.extend(p.diagnostics);
        }
        /// One list of every piece.
        fn take<T>(
            lists: &mut [DeclarativeConfig],
            list: fn(&mut DeclarativeConfig) -> &mut Vec<T>,
        ) -> Vec<Vec<T>> {
            lists.iter_mut().map(|c| std::mem::take(list(c))).collect()
        }
        let joined = DeclarativeConfig {
            packages: concat(take(&mut lists, |c| &mut c.packages)),
            channels: concat(take(&mut lists, |c| &mut c.channels)),
            bundles: concat(take(&mut lists, |c| &mut c.bundles)),
            deprecations: concat(take(&mut lists, |c| &mut c.deprecations)),
            others: concat(take(&mut lists, |c| &mut c.others)),
        };
        config.merge(joined);
    }
}

/// The lists one after another, in one list made at its final size. Long
/// lists are moved on all threads, each piece into its own stretch: the
/// memory of a large catalog's blobs is then first touched by both cores.
pub(crate) fn concat<T: Send>(lists: Vec<Vec<T>>) -> Vec<T> {
    let total: usize = lists.iter().map(Vec::len).sum();
    let mut out: Vec<T> = Vec::with_capacity(total);
    if total < PARALLEL_JOIN_ITEMS {
        for mut l in lists {
            out.append(&mut l);
        }
        return out;
    }
    let mut rest = &mut out.spare_capacity_mut()[..total];
    let mut stretches = Vec::with_capacity(lists.len());
    for l in &lists {
        let (stretch, tail) = rest.split_at_mut(l.len());
        stretches.push(stretch);
        rest = tail;
    }
    stretches
        .into_par_iter()
        .zip(lists.into_par_iter())
        .for_each(|(stretch, list)| {
            for (slot, item) in stretch.iter_mut().zip(list) {
                slot.write(item);
            }
        });
    // SAFETY: the stretches cover the first `total` slots, one per list, each
    // as long as its list, and every slot of a stretch was written with an
    // item of its list above.
    unsafe { out.set_len(total) };
    out
}

/// Lists joined from pieces are moved on all threads from this many items.
pub(crate) const PARALLEL_JOIN_ITEMS: usize = 4096;
