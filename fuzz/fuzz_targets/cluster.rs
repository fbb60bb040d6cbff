//! Fuzz target `cluster`: see `checks/cluster.rs`, which the replay tests share.
#![no_main]

#[path = "../checks/cluster.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
