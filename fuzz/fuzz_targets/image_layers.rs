//! Fuzz target `image_layers`: see `checks/image_layers.rs`, which the replay tests share.
#![no_main]

#[path = "../checks/image_layers.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
