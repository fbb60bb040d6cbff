//! Fuzz target `range`: see `checks/range.rs`, which the replay tests share.
#![no_main]

#[path = "../checks/range.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
