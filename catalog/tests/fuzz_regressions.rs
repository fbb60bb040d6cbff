//! Replays the fuzz targets' seed inputs and crash reproducers (`fuzz/seeds/` and
//! `fuzz/regressions/`) through the same checks the `load` and `range` fuzz
//! targets run, so `cargo test` guards every fixed finding without libFuzzer.

#[path = "../../fuzz/checks/replay.rs"]
mod replay;
use replay::replay;

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
