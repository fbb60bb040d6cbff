//! Replays the fuzz targets' seed inputs and crash reproducers (`fuzz/seeds/` and
//! `fuzz/regressions/`) through the same checks the `load`, `range`,
//! `image_documents` and `image_layers` fuzz targets run, so `cargo test`
//! guards every fixed finding without libFuzzer.

#[path = "../../fuzz/checks/replay.rs"]
mod replay;
use replay::replay;

#[path = "../../fuzz/checks/image_documents.rs"]
mod image_documents;
#[path = "../../fuzz/checks/image_layers.rs"]
mod image_layers;
#[path = "../../fuzz/checks/load.rs"]
mod load;
#[path = "../../fuzz/checks/range.rs"]
mod range;

#[test]
fn load_seeds_and_regressions() {
    replay("load", load::check);
}

#[test]
fn range_seeds_and_regressions() {
    replay("range", range::check);
}

#[test]
fn image_documents_seeds_and_regressions() {
    replay("image_documents", image_documents::check);
}

#[test]
fn image_layers_seeds_and_regressions() {
    replay("image_layers", image_layers::check);
}
