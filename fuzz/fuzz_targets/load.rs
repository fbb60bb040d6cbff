//! Fuzz target `load`: see `checks/load.rs`, which the replay tests share.
#![no_main]

#[path = "../checks/load.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
