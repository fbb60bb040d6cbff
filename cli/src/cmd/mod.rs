//! One module per subcommand; [`run`] hands each its arguments whole.

pub mod bundle;
pub mod catalog;
pub mod compare;
pub mod diff;
pub mod graph;
pub mod list;
pub mod path;
pub mod render;
pub mod resolve;
pub mod shell;
pub mod synthetic;
pub mod template;
pub mod v1;
pub mod validate;

use olmsat_catalog::load::Loaded;
use olmsat_catalog::CatalogFiles;
use olmsat_input::{Input, InputError, Options};

use crate::args::{BundleCommand, CatalogCommand, Command};
use crate::output::Exit;
use crate::process::Finished;

/// What a command gives back: how it ended, or an error that stops it (a usage
/// error or unreadable input, exit code 2).
pub type Outcome = Result<Finished, Box<dyn std::error::Error>>;

/// Run `command`, reading its inputs as `o` says.
pub fn run(command: &Command, o: &Options) -> Outcome {
    match command {
        Command::Validate(args) => validate::run(args, o),
        Command::Render(args) => render::run(args, o),
        Command::List(args) => list::run(args, o),
        Command::Resolve(args) => resolve::run(args, o),
        Command::Synthetic(args) => synthetic::run(args),
        Command::Simulate(args) => resolve::simulate(args, o),
        Command::Path(args) => path::run(args, o),
        Command::Graph(args) => graph::run(args, o),
        Command::Bundle { command } => match command {
            BundleCommand::Validate(args) => bundle::validate(args, o),
            BundleCommand::Generate(args) => bundle::generate(args),
            BundleCommand::Init(args) => bundle::init(args),
        },
        Command::Catalog { command } => match command {
            CatalogCommand::FromBundles(args) => catalog::from_bundles(args, o),
        },
        Command::Completions(args) => shell::completions(args),
        Command::Man => shell::man(),
        Command::Diff(args) => diff::run(args, o).map(Finished::new),
        Command::CompareOlm(args) => compare::run(args, o),
        Command::RenderTemplate(args) => template::render(args, o),
        Command::ConvertTemplate(args) => template::convert(args, o),
    }
}

/// Print the notes of an input read (the platform of an image chosen, a
/// bundle source with errors), on standard error.
pub fn print_notes(notes: &[String]) {
    for n in notes {
        errln!("note: {n}");
    }
}

/// Read a catalog argument through the input layer (every kind of input),
/// only as far as questions about `package` need when one is given. A
/// template that does not render is reported as `render-template` reports it
/// and gives its exit code.
pub fn read_input(
    input: &Input,
    package: Option<&str>,
    options: &Options,
) -> Result<Result<CatalogFiles, Exit>, InputError> {
    let read = match package {
        Some(p) => input.read_package(options, p),
        None => input.read(options),
    };
    match read {
        Ok(files) => {
            print_notes(files.notes());
            Ok(Ok(files))
        }
        Err(InputError::Template(f)) => Ok(Err(template::report(&f))),
        Err(e) => Err(e),
    }
}

/// [`read_input`], loaded whole.
pub fn load_input(input: &Input, options: &Options) -> Result<Result<Loaded, Exit>, InputError> {
    match input.load(options) {
        Ok(loaded) => {
            print_notes(&loaded.notes);
            Ok(Ok(loaded))
        }
        Err(InputError::Template(f)) => Ok(Err(template::report(&f))),
        Err(e) => Err(e),
    }
}

/// Why [`load_readable`] gives no catalog (what was wrong is printed).
pub enum NotLoaded {
    /// A template that does not render, with its exit code.
    Exit(Exit),
    /// This many load errors.
    Errors(usize),
}

/// [`load_input`] of `path` for a command that needs every blob readable
/// (unvalidated): the load errors are printed, and counted.
pub fn load_readable(
    path: &std::path::Path,
    options: &Options,
) -> Result<Result<Loaded, NotLoaded>, InputError> {
    let loaded = match load_input(&Input::from_path(path)?, options)? {
        Ok(loaded) => loaded,
        Err(exit) => return Ok(Err(NotLoaded::Exit(exit))),
    };
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    if errors.is_empty() {
        return Ok(Ok(loaded));
    }
    crate::output::eprint_diagnostics(&errors);
    Ok(Err(NotLoaded::Errors(errors.len())))
}

/// Open the catalog at `path` for a command that asks about it (or about one
/// `package` of it), timing each phase. On errors in the files (or a template
/// that does not render), print them and give the exit code.
pub fn open_catalog(
    path: &std::path::Path,
    package: Option<&str>,
    options: &Options,
) -> Result<Result<olmsat_catalog::Catalog, Exit>, InputError> {
    use crate::timings::timed;
    let input = Input::from_path(path)?;
    let files = match timed("read+parse", || read_input(&input, package, options))? {
        Ok(files) => files,
        Err(exit) => return Ok(Err(exit)),
    };
    let skipped: Vec<_> = files.skipped().cloned().collect();
    crate::output::eprint_diagnostics(&skipped);
    if files.has_errors() {
        let (_, diagnostics) = files.into_parts();
        let errors: Vec<_> = diagnostics.into_iter().filter(|d| d.is_error()).collect();
        crate::output::eprint_diagnostics(&errors);
        return Ok(Err(Exit::Invalid));
    }
    match timed("model", || files.build()) {
        Ok(catalog) => Ok(Ok(catalog)),
        Err(unreadable) => {
            crate::output::eprint_diagnostics(&unreadable.errors);
            Ok(Err(Exit::Invalid))
        }
    }
}
