//! `olmsat`: upgrade graphs, validation and resolution for OLM catalogs.
//!
//! The binary only parses arguments and prints; the work is in the library crates.

mod cmd;
mod output;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Upgrade graphs, validation and dependency resolution for OLM file-based catalogs.
#[derive(Parser)]
#[command(name = "olmsat", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate file-based catalogs with opm's rules; report every problem.
    Validate {
        /// Catalog directories or files (`-` reads standard input).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(short, long, value_enum, default_value_t = ReportFormat::Text)]
        output: ReportFormat,
    },
    /// Write catalogs back out in opm's order and format.
    Render {
        /// Catalog directories or files (`-` reads standard input).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(short, long, value_enum, default_value_t = RenderFormat::Json)]
        output: RenderFormat,
    },
    /// List the packages, channels or bundles of a catalog (the columns of `opm alpha list`).
    List {
        /// What to list.
        #[arg(value_enum)]
        what: ListWhat,
        /// Catalog directory or file.
        path: PathBuf,
        /// Only this package.
        package: Option<String>,
        /// Output format.
        #[arg(short, long, value_enum, default_value_t = ReportFormat::Text)]
        output: ReportFormat,
    },
    /// Show how a bundle upgrades within a channel, and why each step exists.
    ///
    /// By default: the steps OLM v0 takes from --from to the channel head, one
    /// resolution each (the first candidate in channel order each time). With
    /// --shortest or --all: the shortest path, or all simple paths, over every
    /// edge of the channel graph, to --to (default: the head). JSON output is
    /// {"package","channel","from","to","steps":[{"from","to","via","range","file","line"}],"reachesHead"};
    /// with --all, "paths" (a list of step lists) replaces "steps". Exit code 0
    /// when the target is reached, 1 when it is not or a name is unknown.
    Path {
        /// Catalog directory or file.
        path: PathBuf,
        /// Package.
        #[arg(long)]
        package: String,
        /// Channel (default: the package's default channel).
        #[arg(long)]
        channel: Option<String>,
        /// The installed bundle: a bundle name, or a version (which may no longer
        /// be in the catalog; skipRanges still apply to it).
        #[arg(long, value_name = "NAME|VERSION")]
        from: String,
        /// Where to go (default: the channel head).
        #[arg(long, value_name = "NAME")]
        to: Option<String>,
        /// A shortest path over every edge instead of OLM's path.
        #[arg(long, conflicts_with = "all")]
        shortest: bool,
        /// All simple paths over every edge (at most --limit), shortest first.
        #[arg(long)]
        all: bool,
        /// Most paths --all prints.
        #[arg(long, default_value_t = 20, value_name = "N")]
        limit: usize,
        /// Output format.
        #[arg(short, long, value_enum, default_value_t = ReportFormat::Text)]
        output: ReportFormat,
    },
    /// Draw upgrade graphs: a cluster per package and channel.
    Graph {
        /// Catalog directory or file.
        path: PathBuf,
        /// Only this package.
        #[arg(long)]
        package: Option<String>,
        /// Only channels of this name.
        #[arg(long)]
        channel: Option<String>,
        /// Output format (svg needs Graphviz's `dot`).
        #[arg(short, long, value_enum, default_value_t = GraphFormat::Dot)]
        output: GraphFormat,
        /// Draw only edges at or above this bundle's version, in its package
        /// (as `opm alpha render-graph --minimum-edge`).
        #[arg(long, value_name = "NAME")]
        minimum_edge: Option<String>,
        /// Highlight the path OLM v0 takes from this bundle name or version.
        #[arg(long, value_name = "NAME|VERSION")]
        highlight_from: Option<String>,
    },
}

/// Upgrade graph formats.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum GraphFormat {
    /// Graphviz DOT.
    Dot,
    /// Mermaid, in the style of `opm alpha render-graph`.
    Mermaid,
    /// Nodes and edges with provenance.
    Json,
    /// SVG rendered by Graphviz's `dot`.
    Svg,
}

/// Text or JSON.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum ReportFormat {
    /// Human-readable text.
    Text,
    /// JSON for other tools.
    Json,
}

/// Catalog output formats.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum RenderFormat {
    /// Concatenated JSON objects.
    Json,
    /// A `---`-separated YAML stream.
    Yaml,
}

/// The three listings.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum ListWhat {
    /// Packages with display name and default channel.
    Packages,
    /// Channels with their heads.
    Channels,
    /// Bundles, one row per channel membership.
    Bundles,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Validate { paths, output } => cmd::validate::run(&paths, output),
        Command::Render { paths, output } => cmd::render::run(&paths, output),
        Command::List {
            what,
            path,
            package,
            output,
        } => cmd::list::run(what, &path, package.as_deref(), output),
        Command::Path {
            path,
            package,
            channel,
            from,
            to,
            shortest,
            all,
            limit,
            output,
        } => {
            let mode = match (shortest, all) {
                (_, true) => cmd::path::Mode::All(limit),
                (true, false) => cmd::path::Mode::Shortest,
                (false, false) => cmd::path::Mode::Olm,
            };
            cmd::path::run(&cmd::path::Request {
                path: &path,
                package: &package,
                channel: channel.as_deref(),
                from: &from,
                to: to.as_deref(),
                mode,
                format: output,
            })
        }
        Command::Graph {
            path,
            package,
            channel,
            output,
            minimum_edge,
            highlight_from,
        } => cmd::graph::run(
            &path,
            &olmsat_graph::export::DrawOptions {
                package: package.as_deref(),
                channel: channel.as_deref(),
                minimum_edge: minimum_edge.as_deref(),
                highlight_from: highlight_from.as_deref(),
            },
            output,
        ),
    };
    match result {
        Ok(code) => code.into(),
        Err(e) => {
            eprintln!("olmsat: {e}");
            output::Exit::Usage.into()
        }
    }
}
