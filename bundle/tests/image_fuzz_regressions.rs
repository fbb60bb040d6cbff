//! Replays the seed inputs and crash reproducers of the image fuzz targets
//! (`fuzz/seeds/image_*`, `fuzz/regressions/image_*`) through the checks the
//! `image_documents` and `image_layers` targets run: reading an image's
//! documents and layers, then its catalog or bundle.

#[path = "../../fuzz/checks/replay.rs"]
mod replay;
use replay::replay;

#[path = "../../fuzz/checks/image_documents.rs"]
mod image_documents;
#[path = "../../fuzz/checks/image_layers.rs"]
mod image_layers;

#[test]
fn image_documents_seeds_and_regressions() {
    replay("image_documents", image_documents::check);
}

#[test]
fn image_layers_seeds_and_regressions() {
    replay("image_layers", image_layers::check);
}
