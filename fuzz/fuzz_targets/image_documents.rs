//! Fuzz target `image_documents`: see `checks/image_documents.rs`, which the replay tests share.
#![no_main]

#[path = "../checks/image_documents.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
