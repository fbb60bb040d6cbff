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

use crate::args::{BundleCommand, CatalogCommand, Command};
use crate::process::Finished;

/// What a command gives back: how it ended, or an error that stops it (a usage
/// error or unreadable input, exit code 2).
pub type Outcome = Result<Finished, Box<dyn std::error::Error>>;

/// Run `command`.
pub fn run(command: &Command) -> Outcome {
    match command {
        Command::Validate(args) => validate::run(args),
        Command::Render(args) => render::run(args),
        Command::List(args) => list::run(args),
        Command::Resolve(args) => resolve::run(args),
        Command::Synthetic(args) => synthetic::run(args),
        Command::Simulate(args) => resolve::simulate(args),
        Command::Path(args) => path::run(args),
        Command::Graph(args) => graph::run(args),
        Command::Bundle { command } => match command {
            BundleCommand::Validate(args) => bundle::validate(args),
            BundleCommand::Generate(args) => bundle::generate(args),
            BundleCommand::Init(args) => bundle::init(args),
        },
        Command::Catalog { command } => match command {
            CatalogCommand::FromBundles(args) => catalog::from_bundles(args),
        },
        Command::Completions(args) => shell::completions(args),
        Command::Man => shell::man(),
        Command::Diff(args) => diff::run(args).map(Finished::new),
        Command::CompareOlm(a) => {
            compare::run(&a.path, a.package.as_deref(), a.only_differences, a.output)
                .map(Finished::new)
        }
        Command::RenderTemplate(args) => template::render(args),
        Command::ConvertTemplate(args) => template::convert(args),
    }
}

/// Open the catalog at `path` for a command that asks about it (or about one
/// `package` of it), timing each phase. On errors in the files, print them and
/// give `None` (the command ends with exit code 1).
pub fn open_catalog(
    path: &std::path::Path,
    package: Option<&str>,
) -> Result<Option<olmsat_catalog::Catalog>, olmsat_catalog::LoadError> {
    use crate::timings::timed;
    use olmsat_catalog::CatalogFiles;
    // A template named explicitly: the catalog it renders to.
    let rendered = match template::load_if_template(path) {
        Ok(r) => r,
        Err(_) => return Ok(None),
    };
    let files = timed("read+parse", || match (rendered, package) {
        (Some(r), _) => Ok(CatalogFiles::from_rendered(r.config, r.diagnostics)),
        (None, None) => CatalogFiles::read(&[path]),
        (None, Some(name)) => CatalogFiles::read_package(path, name),
    })?;
    if files.has_errors() {
        let (_, diagnostics) = files.into_parts();
        let errors: Vec<_> = diagnostics.into_iter().filter(|d| d.is_error()).collect();
        crate::output::eprint_diagnostics(&errors);
        return Ok(None);
    }
    match timed("model", || files.build()) {
        Ok(catalog) => Ok(Some(catalog)),
        Err(unreadable) => {
            crate::output::eprint_diagnostics(&unreadable.errors);
            Ok(None)
        }
    }
}
