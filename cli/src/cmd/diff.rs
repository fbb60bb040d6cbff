//! `olmsat diff`: what a catalog change does to its users' upgrade paths.

use std::io::Write;

use olmsat_catalog::load::Loaded;
use olmsat_diff::{self as diff, report, DiffError, Options};
use olmsat_input::{Input, InputError};

use crate::args::DiffArgs;
use crate::output::{eprint_diagnostics, Exit};
use olmsat_findings::report::Format;

/// Run `olmsat diff`.
pub fn run(args: &DiffArgs, o: &olmsat_input::Options) -> Result<Exit, Box<dyn std::error::Error>> {
    let policy = args.report.policy()?;
    let format = args.report.format();
    let old_input = Input::parse(&args.old)?;
    let new_input = Input::parse(&args.new)?;
    if old_input == Input::Stdin && new_input == Input::Stdin {
        return Err("OLD and NEW cannot both be standard input (-)".into());
    }
    let spinner = crate::progress::Progress::start("comparing", format == Format::Text);
    let (old, new) = crate::timings::timed("read+parse", || {
        side_by_side(|| load(&old_input, o), || load(&new_input, o))
    });
    let (old, new) = match (old?, new?) {
        (Ok(old), Ok(new)) => (old, new),
        // A template that does not render was reported where it failed.
        (Err(exit), _) | (_, Err(exit)) => return Ok(exit),
    };
    let options = Options {
        package: args.package.clone(),
    };
    let mut d = match crate::timings::timed("diff", || diff::diff(old, new, &options)) {
        Ok(d) => d,
        Err(e @ DiffError::OldInvalid { .. }) => {
            if let DiffError::OldInvalid { errors } = &e {
                eprint_diagnostics(errors);
            }
            return Err(e.into());
        }
        Err(e @ DiffError::UnknownPackage { .. }) => {
            errln!("olmsat: {e}");
            return Ok(Exit::Invalid);
        }
    };
    drop(spinner);
    d.apply_policy(&policy);
    let text = report::render(&d, format, args.report.color(), env!("CARGO_PKG_VERSION"))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(if d.fails() { Exit::Invalid } else { Exit::Ok })
}

/// An input as a catalog, through the input layer (a template that does
/// not render is reported where it fails); a Git input whose path its
/// revision does not have is an empty catalog (a pull request that creates
/// the catalog directory), with a note.
fn load(input: &Input, o: &olmsat_input::Options) -> Result<Result<Loaded, Exit>, InputError> {
    match input.load_or_empty(o) {
        Ok((loaded, note)) => {
            if let Some(note) = note {
                errln!("olmsat: note: {note}");
            }
            super::print_notes(&loaded.notes);
            Ok(Ok(loaded))
        }
        Err(InputError::Template(f)) => Ok(Err(super::template::report(&f))),
        Err(e) => Err(e),
    }
}

/// Run two loads side by side (two catalogs are read at once).
fn side_by_side<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    std::thread::scope(|s| {
        let hb = s.spawn(b);
        let ra = a();
        let rb = hb.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (ra, rb)
    })
}
