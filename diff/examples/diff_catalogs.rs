//! What a change to a catalog does to its users, as `olmsat diff` finds it:
//! `cargo run -p olmsat-diff --example diff_catalogs -- OLD NEW`
#![allow(clippy::print_stdout)] // a program: printing is its job
use std::{error::Error, path::Path};

use olmsat_catalog::load::load_path;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [old, new] = args.as_slice() else {
        return Err("usage: diff_catalogs OLD NEW".into());
    };
    print!("{}", findings(Path::new(old), Path::new(new))?);
    Ok(())
}

/// One line per finding: package, rule and message.
pub(crate) fn findings(old: &Path, new: &Path) -> Result<String, Box<dyn Error>> {
    let (old, new) = (load_path(old)?, load_path(new)?);
    let diff = olmsat_diff::diff(old, new, &olmsat_diff::Options::default())?;
    let mut text = String::new();
    for package in &diff.packages {
        for f in &package.findings {
            text.push_str(&format!("{}: {}: {}\n", package.name, f.rule, f.message));
        }
    }
    Ok(text)
}
