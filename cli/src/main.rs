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
    /// Resolve subscriptions as OLM v0 does, offline: what would be installed or
    /// upgraded, and why, or exactly why nothing fits.
    Resolve {
        /// A directory whose subdirectories are catalogs, each named after its directory.
        #[arg(long, value_name = "DIR")]
        catalogs: Option<PathBuf>,
        /// A catalog with an explicit name (repeatable).
        #[arg(long = "catalog", value_name = "NAME=PATH")]
        catalog: Vec<String>,
        /// Cluster state: Subscriptions, ClusterServiceVersions, CatalogSources (YAML).
        #[arg(short = 'f', long = "cluster", value_name = "CLUSTER.yaml")]
        cluster: Option<PathBuf>,
        /// Add a subscription to a package (repeatable).
        #[arg(long, value_name = "PKG[/CHANNEL][@CATALOG]")]
        subscribe: Vec<String>,
        /// Output format.
        #[arg(short, long, value_enum, default_value_t = ReportFormat::Text)]
        output: ReportFormat,
        /// Explain the answer.
        #[arg(long)]
        explain: bool,
        /// The namespace whose catalogs every namespace sees.
        #[arg(long, default_value = "olm")]
        global_namespace: String,
        /// Give up after this many seconds.
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
    },
    /// Write a deterministic synthetic catalog (for benchmarks and experiments).
    Synthetic {
        /// Output directory (must be empty or absent).
        #[arg(short = 'o', long = "output-dir")]
        output_dir: PathBuf,
        /// Number of packages.
        #[arg(long, default_value_t = 100)]
        packages: usize,
        /// Total number of bundles.
        #[arg(long, default_value_t = 5000)]
        bundles: usize,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Depth of the dependency chains between packages (0: none).
        #[arg(long, default_value_t = 3)]
        depth: usize,
        /// Bulky property per bundle: none, csv-metadata or bundle-object.
        #[arg(long, default_value = "csv-metadata", value_parser = cmd::synthetic::payload)]
        payload: olmsat_graph::synthetic::Payload,
        /// File format.
        #[arg(long, value_enum, default_value_t = RenderFormat::Json)]
        format: RenderFormat,
    },
    /// Apply each resolution and resolve again, as OLM does one upgrade edge at a
    /// time, until nothing changes; print the timeline.
    Simulate {
        /// A directory whose subdirectories are catalogs, each named after its directory.
        #[arg(long, value_name = "DIR")]
        catalogs: Option<PathBuf>,
        /// A catalog with an explicit name (repeatable).
        #[arg(long = "catalog", value_name = "NAME=PATH")]
        catalog: Vec<String>,
        /// Cluster state: Subscriptions, ClusterServiceVersions, CatalogSources (YAML).
        #[arg(short = 'f', long = "cluster", value_name = "CLUSTER.yaml")]
        cluster: Option<PathBuf>,
        /// Add a subscription to a package (repeatable).
        #[arg(long, value_name = "PKG[/CHANNEL][@CATALOG]")]
        subscribe: Vec<String>,
        /// Output format.
        #[arg(short, long, value_enum, default_value_t = ReportFormat::Text)]
        output: ReportFormat,
        /// The namespace whose catalogs every namespace sees.
        #[arg(long, default_value = "olm")]
        global_namespace: String,
        /// Give up on a resolution after this many seconds.
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
        /// Stop after this many resolutions.
        #[arg(long, default_value_t = 100)]
        max_steps: usize,
    },
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
        Command::Resolve {
            catalogs,
            catalog,
            cluster,
            subscribe,
            output,
            explain,
            global_namespace,
            timeout,
        } => cmd::resolve::run(&cmd::resolve::Args {
            catalogs_dir: catalogs,
            catalogs: catalog,
            cluster,
            subscribe,
            output,
            explain,
            global_namespace,
            timeout,
        }),
        Command::Synthetic {
            output_dir,
            packages,
            bundles,
            seed,
            depth,
            payload,
            format,
        } => cmd::synthetic::run(
            &olmsat_graph::synthetic::Spec {
                packages,
                bundles,
                seed,
                chain_depth: depth,
                payload,
            },
            &output_dir,
            format,
        ),
        Command::Simulate {
            catalogs,
            catalog,
            cluster,
            subscribe,
            output,
            global_namespace,
            timeout,
            max_steps,
        } => cmd::resolve::simulate(
            &cmd::resolve::Args {
                catalogs_dir: catalogs,
                catalogs: catalog,
                cluster,
                subscribe,
                output,
                explain: false,
                global_namespace,
                timeout,
            },
            max_steps,
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
