//! Fuzz target `constraint`: see `checks/constraint.rs`, which the replay tests share.
#![no_main]

#[path = "../checks/constraint.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
