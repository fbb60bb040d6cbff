//! Entry points for the fuzz checks of the image readers
//! (`fuzz/checks/image_documents.rs`, `fuzz/checks/image_layers.rs`): not
//! part of the API.

use std::collections::BTreeMap;

use super::layer::{LayerReader, Totals};
use super::store::Store;
use super::{FileTree, Image, ImageError, Limits, Options, Selector, Transport};

/// Read the image `selector` names from a layout (`Transport::Oci`) or a
/// docker-archive (`Transport::DockerArchive`) whose files are held in
/// memory, by name (`index.json`, `blobs/sha256/HEX`, `manifest.json`, ...).
///
/// # Errors
///
/// As [`Image::open`].
pub fn open_files(
    files: BTreeMap<String, Vec<u8>>,
    transport: Transport,
    selector: Option<&Selector>,
    options: &Options,
) -> Result<Image, ImageError> {
    let name = format!("{}:fuzz", transport.prefix());
    let store = Store::memory(name.clone(), files);
    Image::from_store(name, &store, transport, selector, options)
}

/// What applying layers gave: the tree, and the entries skipped.
pub struct Applied {
    /// The file system the layers make.
    pub tree: FileTree,
    /// Entries skipped, with why.
    pub skipped: Vec<(String, String)>,
}

/// Apply `layers` in order to an empty tree, keeping the content of the
/// files `keep` names.
///
/// # Errors
///
/// As reading an image's layers: a refused entry, a limit, a corrupt layer.
pub fn apply_layers(
    layers: &[&[u8]],
    limits: &Limits,
    keep: &dyn Fn(&str) -> bool,
) -> Result<Applied, ImageError> {
    let mut reader = LayerReader {
        image: "oci:fuzz",
        limits,
        keep,
        totals: Totals::default(),
        skipped: Vec::new(),
    };
    let mut tree = FileTree::default();
    for (i, layer) in layers.iter().enumerate() {
        reader.apply(&mut tree, &format!("sha256:{i}"), layer, None)?;
    }
    Ok(Applied {
        tree,
        skipped: reader.skipped,
    })
}
