//! `olmsat`: upgrade graphs, validation and resolution for OLM catalogs.
//!
//! The binary only parses arguments and prints; the work is in the library crates.

mod cmd;
mod memory;
mod output;
mod report_args;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Upgrade graphs, validation and dependency resolution for OLM file-based catalogs.
#[derive(Parser)]
#[command(name = "olmsat", version, about, propagate_version = true)]
struct Cli {
    /// Print the time spent in each phase (read and parse, model, validate, solve, write) to standard error.
    #[arg(long, global = true)]
    timings: bool,
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
        #[command(flatten)]
        report: report_args::ReportArgs,
    },
    /// Write catalogs and bundle directories out as one catalog, in opm's order and format.
    ///
    /// A directory with `manifests/` and `metadata/` is a registry+v1 bundle and
    /// becomes one `olm.bundle` blob; anything else is loaded as a file-based catalog.
    Render {
        /// Catalog directories or files (`-` reads standard input), and bundle directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(short, long, value_enum, default_value_t = RenderFormat::Json)]
        output: RenderFormat,
        /// Template for the image of rendered bundle directories, e.g.
        /// `quay.io/org/{{.Package}}:{{.Version}}` (fields `.Package`, `.Name`, `.Version`).
        #[arg(long, visible_alias = "alpha-image-ref-template")]
        image_ref_template: Option<String>,
        /// Migrations to apply to the rendered bundles.
        #[arg(long, value_enum, default_value_t = MigrateLevel::None)]
        migrate_level: MigrateLevel,
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
        #[command(flatten)]
        inputs: ResolveInputs,
        /// Explain the answer.
        #[arg(long)]
        explain: bool,
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
        #[command(flatten)]
        inputs: ResolveInputs,
        /// Give up on a resolution after this many seconds.
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
        /// Stop after this many resolutions.
        #[arg(long, default_value_t = 100)]
        max_steps: usize,
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
    /// Validate, generate and initialise operator bundle directories.
    Bundle {
        #[command(subcommand)]
        command: BundleCommand,
    },
    /// Build file-based catalogs.
    Catalog {
        #[command(subcommand)]
        command: CatalogCommand,
    },
}

/// `olmsat bundle ...`
#[derive(Subcommand)]
enum BundleCommand {
    /// Validate bundle directories (registry+v1, registry+v2, plain+v0); report every problem.
    ///
    /// A directory without `manifests/` that holds bundle directories below it is
    /// searched, and every bundle found is validated.
    Validate {
        /// Bundle directories (or trees of them).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        #[command(flatten)]
        report: report_args::ReportArgs,
    },
    /// Write `metadata/annotations.yaml` and `bundle.Dockerfile` for a directory of manifests.
    Generate {
        /// The directory holding the manifests.
        #[arg(short, long)]
        directory: PathBuf,
        /// The package the bundle belongs to.
        #[arg(short, long)]
        package: String,
        /// Comma-separated channels the bundle is in.
        #[arg(short, long)]
        channels: String,
        /// The default channel (the first channel when not given).
        #[arg(short = 'e', long = "default")]
        default_channel: Option<String>,
        /// Put `manifests/` (copied) and `metadata/` here instead of next to the manifests.
        #[arg(short = 'u', long)]
        output_dir: Option<PathBuf>,
        /// Replace an existing `annotations.yaml`.
        #[arg(long)]
        overwrite: bool,
    },
    /// Lay out a bundle directory from manifests (or defaults); never overwrites anything.
    Init {
        /// Bundle format; inferred from the source manifests when not given.
        #[arg(short, long, value_enum)]
        mediatype: Option<MediaTypeArg>,
        /// Directory of manifests to include, or `-` to read a stream from standard input.
        /// Without it, default manifests are generated.
        src: Option<String>,
        /// The bundle directory to create (default: the current directory).
        dir: Option<PathBuf>,
        /// Also write a Dockerfile.
        #[arg(short = 'd', long = "generate-dockerfile")]
        dockerfile: bool,
        /// Package name (default: from the manifests or the directory name).
        #[arg(short, long)]
        package: Option<String>,
        /// Comma-separated channels (default: alpha).
        #[arg(short, long)]
        channels: Option<String>,
    },
}

/// `olmsat catalog ...`
#[derive(Subcommand)]
enum CatalogCommand {
    /// Build a file-based catalog from a tree of registry+v1 bundle directories, as the
    /// replaces-mode index did; writes `<OUT>/<package>/catalog.json`.
    FromBundles {
        /// Directories holding bundle directories (searched recursively).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Output directory (must be missing or empty).
        #[arg(short, long)]
        output: PathBuf,
        /// Catalog file format.
        #[arg(long, value_enum, default_value_t = RenderFormat::Json)]
        format: RenderFormat,
        /// Template for bundle images, e.g. `quay.io/org/{{.Package}}:{{.Version}}`.
        #[arg(long)]
        image_ref_template: Option<String>,
        /// Migrations to apply to the rendered bundles.
        #[arg(long, value_enum, default_value_t = MigrateLevel::None)]
        migrate_level: MigrateLevel,
        /// How upgrade edges are made: from each CSV's `spec.replaces`, from version
        /// order, or per package as its `ci.yaml` `updateGraph` says.
        #[arg(long, value_enum, default_value_t = GraphModeArg::Replaces)]
        mode: GraphModeArg,
        /// Report format.
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        report: ReportFormat,
    },
}

/// Upgrade graph modes of `catalog from-bundles`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum GraphModeArg {
    /// `replaces` from each CSV's `spec.replaces` (the replaces-mode index).
    Replaces,
    /// Each bundle replaces the next lower version in its channel.
    Semver,
    /// Per package, from `updateGraph` in the package's `ci.yaml` (`semver-mode` or not).
    CiYaml,
}

/// Migration levels of `opm render`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum MigrateLevel {
    /// No migration.
    None,
    /// Replace `olm.bundle.object` properties with one `olm.csv.metadata`.
    BundleObjectToCsvMetadata,
}

/// Bundle formats.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum MediaTypeArg {
    /// A ClusterServiceVersion and its objects, with metadata/annotations.yaml
    #[value(name = "registry+v1")]
    RegistryV1,
    /// CSV-less: Kubernetes objects with a Deployment, and metadata/bundle.yaml
    #[value(name = "registry+v2")]
    RegistryV2,
    /// A flat directory of arbitrary Kubernetes objects
    #[value(name = "plain+v0")]
    PlainV0,
}

/// The inputs `resolve` and `simulate` share.
#[derive(clap::Args)]
struct ResolveInputs {
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
}

impl ResolveInputs {
    fn into_args(self, explain: bool, timeout: Option<f64>) -> cmd::resolve::Args {
        cmd::resolve::Args {
            catalogs_dir: self.catalogs,
            catalogs: self.catalog,
            cluster: self.cluster,
            subscribe: self.subscribe,
            output: self.output,
            explain,
            global_namespace: self.global_namespace,
            timeout,
        }
    }
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

/// mimalloc instead of the system allocator: loading allocates many small
/// strings from several threads, where glibc's allocator spends a fifth of the
/// time (see docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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

fn main() -> ExitCode {
    restore_default_sigpipe();
    memory::small_pages();
    let start = std::time::Instant::now();
    let cli = Cli::parse();
    let timings = cli.timings;
    let result = match cli.command {
        Command::Validate { paths, report } => cmd::validate::run(&paths, &report),
        Command::Render {
            paths,
            output,
            image_ref_template,
            migrate_level,
        } => cmd::render::run(&paths, output, image_ref_template.as_deref(), migrate_level),
        Command::Bundle { command } => match command {
            BundleCommand::Validate { dirs, report } => cmd::bundle::validate(&dirs, &report),
            BundleCommand::Generate {
                directory,
                package,
                channels,
                default_channel,
                output_dir,
                overwrite,
            } => cmd::bundle::generate(
                directory,
                package,
                channels,
                default_channel,
                output_dir,
                overwrite,
            ),
            BundleCommand::Init {
                mediatype,
                src,
                dir,
                dockerfile,
                package,
                channels,
            } => cmd::bundle::init(mediatype, src, dir, dockerfile, package, channels),
        },
        Command::Catalog { command } => match command {
            CatalogCommand::FromBundles {
                dirs,
                output,
                format,
                image_ref_template,
                migrate_level,
                mode,
                report,
            } => cmd::catalog::from_bundles(
                &dirs,
                &output,
                format,
                image_ref_template.as_deref(),
                migrate_level,
                mode,
                report,
            ),
        },
        Command::List {
            what,
            path,
            package,
            output,
        } => cmd::list::run(what, &path, package.as_deref(), output),
        Command::Resolve {
            inputs,
            explain,
            timeout,
        } => cmd::resolve::run(&inputs.into_args(explain, timeout)),
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
            inputs,
            timeout,
            max_steps,
        } => cmd::resolve::simulate(&inputs.into_args(false, timeout), max_steps),
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
    if timings {
        output::print_timings(start.elapsed());
    }
    match result {
        Ok(code) => code.into(),
        Err(e) => {
            eprintln!("olmsat: {e}");
            output::Exit::Usage.into()
        }
    }
}
