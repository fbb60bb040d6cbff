//! Replays the fuzz targets' seed inputs and crash reproducers (`fuzz/seeds/` and
//! `fuzz/regressions/`) through the same checks the `constraint` and `cluster` fuzz
//! targets run, so `cargo test` guards every fixed finding without libFuzzer.

#[path = "../../fuzz/checks/replay.rs"]
mod replay;
use replay::replay;

#[path = "../../fuzz/checks/cluster.rs"]
mod cluster;
#[path = "../../fuzz/checks/constraint.rs"]
mod constraint;

#[test]
fn constraint_seeds_and_regressions() {
    replay("constraint", constraint::check);
}

#[test]
fn cluster_seeds_and_regressions() {
    replay("cluster", cluster::check);
}
