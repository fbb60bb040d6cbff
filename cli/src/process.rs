//! What the process does for speed, each in one place: the allocator, the
//! size of the pages it takes from the kernel, and letting go of large values
//! at exit without freeing them.
//!
//! - **Allocator**: mimalloc instead of the system allocator: loading
//!   allocates many small strings from several threads, where glibc's
//!   allocator spends a fifth of the time (see docs/performance.md).
//! - **Pages**: loading a large catalog builds hundreds of megabytes of blobs,
//!   and with the kernel's ordinary 4 KiB pages a third of its time went to
//!   page faults (one per page touched for the first time). Transparent huge
//!   pages (2 MiB) make that far cheaper, but round memory up: they would push
//!   the peak memory of validating a 20 MB catalog from about 40 MB to 85 MB.
//!   So olmsat uses small pages ([`start`]), and switches to huge pages for
//!   inputs of at least [`LARGE_INPUT_BYTES`] ([`fit_to_input`]), where memory
//!   is large anyway and the faults dominate. On systems without transparent
//!   huge pages, or other than Linux, this does nothing.
//! - **Exit**: a command hands the large values it built (a catalog's model,
//!   a validation report) back in its [`Finished`]; [`finish`] lets go of them
//!   without freeing them piece by piece: the process ends right after, and
//!   the operating system reclaims the memory at once (freeing a
//!   100,000-bundle catalog object by object takes longer than validating it).

use std::any::Any;
use std::process::ExitCode;

use crate::output::Exit;

/// mimalloc instead of the system allocator (see the module documentation).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Set the process up, first thing in `main`: small pages, and the default
/// SIGPIPE behaviour.
pub fn start() {
    restore_default_sigpipe();
    small_pages();
}

/// Die quietly when standard output is a closed pipe (`olmsat list ... | head`),
/// as command-line tools do, instead of failing on the next write: Rust ignores
/// SIGPIPE by default, which makes every `println!` after the reader left panic.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists;
    // SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// What a command leaves behind: its exit code, and the large values it
/// built, which [`finish`] lets go of without freeing.
pub struct Finished {
    exit: Exit,
    remains: Vec<Box<dyn Any>>,
}

impl Finished {
    /// A command's end with nothing large left.
    pub fn new(exit: Exit) -> Self {
        Finished {
            exit,
            remains: Vec::new(),
        }
    }

    /// Hand `value` over to be let go of at exit rather than freed.
    pub fn keeping(mut self, value: impl Any) -> Self {
        self.remains.push(Box::new(value));
        self
    }
}

impl From<Exit> for Finished {
    fn from(exit: Exit) -> Self {
        Finished::new(exit)
    }
}

/// The process's exit code for a command's result; a command's error is
/// printed (exit code 2). What the command left is not freed.
pub fn finish(result: Result<Finished, Box<dyn std::error::Error>>) -> ExitCode {
    match result {
        Ok(done) => {
            std::mem::forget(done.remains);
            done.exit.into()
        }
        Err(e) => {
            errln!("olmsat: {e}");
            Exit::Usage.into()
        }
    }
}

use std::path::Path;

/// Inputs at least this large (in bytes, all files together) are loaded with
/// huge pages.
pub const LARGE_INPUT_BYTES: u64 = 32 << 20;

/// Use small pages (the allocator asks for huge pages where it can, and this
/// overrides it).
fn small_pages() {
    set_huge_pages(false);
}

/// Switch to huge pages when the files under `paths` add up to at least
/// [`LARGE_INPUT_BYTES`] (called once, with the catalog paths the command
/// reads). Standard input (`-`) is not sized.
pub fn fit_to_input<'a>(paths: impl IntoIterator<Item = &'a Path>) {
    if olmsat_io::input_size(paths, LARGE_INPUT_BYTES) >= LARGE_INPUT_BYTES {
        set_huge_pages(true);
    }
}

#[cfg(target_os = "linux")]
fn set_huge_pages(on: bool) {
    // SAFETY: PR_SET_THP_DISABLE takes an integer flag and changes only how
    // the kernel backs this process's future page faults. Its failure (an old
    // kernel) leaves the kernel's default, which is harmless.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, libc::c_ulong::from(!on), 0, 0, 0);
    }
}

#[cfg(not(target_os = "linux"))]
fn set_huge_pages(_on: bool) {}
