//! `olmsat path`: the arguments become a [`PathQuery`], the library answers
//! it, and the answer is printed as text or as a document.

use olmsat_graph::path::{answer, InstalledCsv, PathMode, PathQuery};

use crate::args::{OlmVersion, PathArgs, PathMode as Mode, ReportFormat};
use crate::output::{print_data, Exit};
use crate::process::Finished;
use crate::timings::timed;

/// Show an upgrade path.
pub fn run(args: &PathArgs, o: &olmsat_input::Options) -> super::Outcome {
    if args.olm == OlmVersion::V1 {
        if args.shortest || args.all {
            errln!("olmsat: --shortest and --all are graph paths of OLM v0's channel graph: drop them with --olm v1");
            return Ok(Exit::Usage.into());
        }
        let request = olmsat_resolver::v1::path::PathRequest {
            package: args.package.clone(),
            // OLM v1's path is across all channels without --channel.
            channel: args.channel.clone().filter(|c| c != "all"),
            from: args.from.clone(),
            to: args.to.clone(),
            version: args.version.clone(),
        };
        return super::v1::path(&args.path, &request, args.output, o).map(Finished::new);
    }
    if args.version.is_some() {
        errln!("olmsat: --version bounds OLM v1 paths only: add --olm v1");
        return Ok(Exit::Usage.into());
    }
    let installed = match installed_csv(args, o.read.follow_links) {
        Ok(c) => c,
        Err(exit) => return Ok(exit.into()),
    };
    let catalog = match super::open_catalog(&args.path, Some(&args.package), o)? {
        Ok(catalog) => catalog,
        Err(exit) => return Ok(exit.into()),
    };
    let query = PathQuery {
        package: args.package.clone(),
        channel: args.channel.clone(),
        from: args.from.clone(),
        to: args.to.clone(),
        mode: match args.mode() {
            Mode::Olm => PathMode::Olm,
            Mode::Shortest => PathMode::Shortest,
            Mode::All(limit) => PathMode::All(limit),
        },
        installed,
    };
    let a = timed("graph", || answer(&catalog, &query));
    let text = args.output == ReportFormat::Text;
    if text {
        out!("{}", a.text());
    } else {
        for n in a.notes() {
            errln!("olmsat: note: {n}");
        }
    }
    if let Some(f) = &a.failure {
        errln!("olmsat: {}", f.error);
        return Ok(Finished::new(Exit::Invalid).keeping(catalog));
    }
    if !text {
        print_data(args.output, &a.document())?;
    }
    let exit = if a.reached() { Exit::Ok } else { Exit::Invalid };
    Ok(Finished::new(exit).keeping(catalog))
}

/// The CSV named by `--from` in the cluster files given with `-f`, if any.
fn installed_csv(args: &PathArgs, follow_links: bool) -> Result<Option<InstalledCsv>, Exit> {
    if args.cluster.is_empty() {
        return Ok(None);
    }
    let stdin = std::path::Path::new("-");
    if args.path == stdin && args.cluster.iter().any(|c| c == stdin) {
        errln!("olmsat: the catalog and the cluster state cannot both be read from standard input");
        return Err(Exit::Usage);
    }
    let cluster = match olmsat_resolver::ClusterState::read_inputs(&args.cluster, follow_links) {
        Ok(c) => c,
        Err(e) => {
            errln!("olmsat: {e}");
            return Err(Exit::Usage);
        }
    };
    Ok(cluster.installed_csv(&args.from))
}
