//! `olmsat`: upgrade graphs, validation and resolution for OLM catalogs.
//!
//! The binary only parses arguments and prints; the work is in the library
//! crates, used through their public API only.
//!
//! - [`args`]: the command line, one arguments struct per command.
//! - [`cmd`]: one module per command; each `run` takes its arguments whole.
//! - [`process`]: the process-level speed measures (allocator, pages, exit).
//! - [`output`], [`timings`]: exit codes, printing helpers and `--timings`.

// A binary: nothing in it is reachable from outside, and printing is its job.
#![allow(unreachable_pub, clippy::print_stdout, clippy::print_stderr)]

#[macro_use]
mod output;
mod args;
mod cmd;
mod process;
mod progress;
mod report_args;
mod timings;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    process::start();
    let start = std::time::Instant::now();
    let cli = args::Cli::parse();
    let options = cli.input_options();
    process::fit_to_input(cli.command.catalog_paths());
    let result = cmd::run(&cli.command, &options);
    if cli.timings {
        timings::print_timings(start.elapsed());
    }
    process::finish(result)
}
