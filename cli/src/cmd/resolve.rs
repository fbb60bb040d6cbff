//! `olmsat resolve` and `olmsat simulate`: the arguments become a
//! [`Request`], the catalogs are read once ([`CatalogSet`]) for OLM v0 and
//! OLM v1 both, and [`olmsat_resolver::answer`] gives the document printed.

use std::time::Duration;

use olmsat_input::catalogs::{CatalogSet, CatalogSetError};
use olmsat_resolver::answer::{self, ErrorReport, PrepareError, Prepared, Request, V1Plan};
use olmsat_resolver::{CatalogInput, ClusterState, Options};

use crate::args::{ReportFormat, ResolveArgs, ResolveInputs, SimulateArgs};
use crate::output::{eprint_diagnostics, print_data, Exit};
use crate::timings::timed;

/// Why no answer can be given: a usage error (exit 2, the message alone), or
/// input that cannot be answered (an error document).
struct Failed {
    usage: bool,
    message: String,
}

impl From<PrepareError> for Failed {
    fn from(e: PrepareError) -> Failed {
        Failed {
            usage: e.is_usage(),
            message: e.to_string(),
        }
    }
}

impl From<CatalogSetError> for Failed {
    fn from(e: CatalogSetError) -> Failed {
        match &e {
            CatalogSetError::Template { failure, .. } => {
                super::template::report(failure);
            }
            CatalogSetError::Unreadable { errors, .. } => eprint_diagnostics(errors),
            _ => {}
        }
        Failed {
            usage: e.is_usage(),
            message: e.to_string(),
        }
    }
}

/// The flags as the library takes them.
fn request(args: &ResolveInputs) -> Request {
    Request {
        subscribe: args.subscribe.clone(),
        namespace: args.namespace.clone(),
        global_namespace: args.global_namespace.clone(),
        allow_missing_catalogs: args.allow_missing_catalogs,
        v1: args.v1.request(),
    }
}

/// Read the catalogs (once each, for OLM v0 and v1) and the cluster state,
/// and print the notes.
fn prepare(args: &ResolveInputs, o: &olmsat_input::Options) -> Result<Prepared, Failed> {
    let set = CatalogSet::parse(args.catalogs.as_deref(), &args.catalog, o.read.follow_links)?;
    let request = request(args);
    let cluster = ClusterState::read_inputs(&args.cluster, o.read.follow_links)
        .map_err(PrepareError::from)?;
    let plan = V1Plan::of(&request, &cluster)?;
    let loaded = timed("read+parse", || {
        set.load(o, |name, config| {
            plan.as_ref()
                .and_then(|p| p.content(&cluster, name, config))
        })
    })?;
    super::print_notes(&loaded.read_notes);
    let read = loaded.catalogs.into_iter().map(|c| {
        let catalog = CatalogInput {
            name: c.name,
            model: c.model,
        };
        (catalog, c.derived)
    });
    let prepared = answer::prepare(&request, read, cluster, loaded.notes)?;
    super::print_notes(&prepared.notes);
    super::print_notes(&prepared.v1_notes);
    Ok(prepared)
}

/// Resolve and print.
pub fn run(args: &ResolveArgs, o: &olmsat_input::Options) -> super::Outcome {
    let prepared = match prepare(&args.inputs, o) {
        Ok(p) => p,
        Err(failed) => return report_error(&args.inputs, failed).map(Into::into),
    };
    let options = Options {
        timeout: args.timeout.map(Duration::from_secs_f64),
    };
    let answer = timed("resolve", || {
        answer::resolve(&prepared, options, args.explain)
    });
    match args.inputs.output {
        ReportFormat::Json | ReportFormat::Yaml => print_data(args.inputs.output, &answer)?,
        ReportFormat::Text => out!("{}", answer.text()),
    }
    Ok(Exit::from_code(answer.exit_code()).into())
}

/// Simulate OLM over time and print the timeline.
pub fn simulate(args: &SimulateArgs, o: &olmsat_input::Options) -> super::Outcome {
    let prepared = match prepare(&args.inputs, o) {
        Ok(p) => p,
        Err(failed) => return report_error(&args.inputs, failed).map(Into::into),
    };
    let options = Options {
        timeout: args.timeout.map(Duration::from_secs_f64),
    };
    let answer = answer::simulate(prepared, options, args.max_steps);
    match args.inputs.output {
        ReportFormat::Json | ReportFormat::Yaml => print_data(args.inputs.output, &answer)?,
        ReportFormat::Text => out!("{}", answer.text()),
    }
    Ok(Exit::from_code(answer.exit_code()).into())
}

/// A usage error stops the command; input that cannot be answered is
/// answered with an error document (exit 2).
fn report_error(args: &ResolveInputs, failed: Failed) -> Result<Exit, Box<dyn std::error::Error>> {
    if failed.usage {
        return Err(failed.message.into());
    }
    let message = failed.message;
    match args.output {
        ReportFormat::Json | ReportFormat::Yaml => {
            print_data(args.output, &ErrorReport::new(&message))?
        }
        ReportFormat::Text => errln!("olmsat: {message}"),
    }
    Ok(Exit::Usage)
}
