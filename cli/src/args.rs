//! The command line: clap parses it into one arguments struct per command,
//! which the command's `run` takes whole.
//!
//! The doc comments on the subcommand variants and on the fields are the help
//! texts; the structs themselves carry plain comments so that clap takes each
//! command's help from its variant.

pub use crate::output::ReportFormat;
pub use olmsat_bundle::{GraphMode, MediaType};
pub use olmsat_catalog::{Format as RenderFormat, ListWhat};
pub use olmsat_graph::DrawFormat;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

/// Upgrade graphs, validation and dependency resolution for OLM file-based catalogs.
#[derive(Parser)]
#[command(name = "olmsat", version, about, propagate_version = true)]
pub struct Cli {
    /// Print the time spent in each phase (read and parse, model, validate, solve, write) to standard error.
    #[arg(long, global = true)]
    pub timings: bool,
    /// Where template bundle images are found offline: catalogs and bundle
    /// directories, tried in order (repeatable). Used by `render-template` and
    /// wherever a template file is given in place of a catalog.
    #[arg(long = "bundles-from", value_name = "PATH", global = true)]
    pub bundles_from: Vec<PathBuf>,
    /// The platform read from multi-platform catalog and bundle images
    /// (OS/ARCH or OS/ARCH/VARIANT; default linux/amd64).
    #[arg(long, global = true, value_name = "OS/ARCH", value_parser = parse_platform)]
    pub platform: Option<olmsat_image::Platform>,
    /// Follow symbolic links that leave the directories named (catalog
    /// directories, bundle trees, --bundles-from sources, cluster dumps,
    /// --catalogs). Without it they are skipped, with a warning; a path named
    /// on the command line is followed even when it is itself a link.
    #[arg(long, global = true)]
    pub follow: bool,
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// How every input of the command is read: the global options, by value.
    pub fn input_options(&self) -> olmsat_input::Options {
        olmsat_input::Options {
            read: olmsat_input::ReadOptions {
                follow_links: self.follow,
                image: olmsat_image::Options {
                    platform: self.platform.clone().unwrap_or_default(),
                    ..Default::default()
                },
            },
            bundles_from: self.bundles_from.clone(),
            ..olmsat_input::Options::default()
        }
    }
}

/// A `--platform` value.
fn parse_platform(text: &str) -> Result<olmsat_image::Platform, olmsat_image::ImageError> {
    olmsat_image::Platform::parse(text)
}

#[derive(Subcommand)]
pub enum Command {
    /// Validate file-based catalogs with opm's rules; report every problem.
    Validate(ValidateArgs),
    /// Write catalogs and bundle directories out as one catalog, in opm's order and format.
    ///
    /// A directory with `manifests/` and `metadata/` is a registry+v1 bundle and
    /// becomes one `olm.bundle` blob; anything else is loaded as a file-based catalog.
    Render(RenderArgs),
    /// List the packages, channels or bundles of a catalog (the columns of `opm alpha list`).
    List(ListArgs),
    /// Resolve subscriptions as OLM v0 does, offline: what would be installed or
    /// upgraded, and why, or exactly why nothing fits.
    #[command(disable_version_flag = true)]
    Resolve(ResolveArgs),
    /// Write a deterministic synthetic catalog (for benchmarks and experiments).
    #[command(hide = true)]
    Synthetic(SyntheticArgs),
    /// Apply each resolution and resolve again, as OLM does one upgrade edge at a
    /// time, until nothing changes; print the timeline.
    #[command(disable_version_flag = true)]
    Simulate(SimulateArgs),
    /// Show how a bundle upgrades within a channel, and why each step exists.
    ///
    /// By default: the steps OLM v0 takes from --from to the channel head, one
    /// resolution each (the first candidate in channel order each time). With
    /// --shortest or --all: the shortest path, or all simple paths, over every
    /// edge of the channel graph, to --to (default: the head). A path that does
    /// not reach its target says why. JSON output is
    /// {"package","channel","from","to","steps":[{"from","to","via","range","file","line"}],"reachesHead","end","why"};
    /// with --all, "paths" (a list of step lists) replaces "steps"; with several
    /// channels, {"package","from","channels":[...]}. Exit code 0 when the
    /// target is reached (in any channel), 1 when it is not or a name is unknown.
    #[command(disable_version_flag = true)]
    Path(PathArgs),
    /// Draw upgrade graphs: a cluster per package and channel.
    Graph(GraphArgs),
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
    /// Print a shell completion script to standard output.
    ///
    /// bash: `olmsat completions bash > /etc/bash_completion.d/olmsat`;
    /// zsh: `olmsat completions zsh > "${fpath[1]}/_olmsat"`;
    /// fish: `olmsat completions fish > ~/.config/fish/completions/olmsat.fish`;
    /// PowerShell: `olmsat completions powershell >> $PROFILE`.
    Completions(CompletionsArgs),
    /// Print the manual page, olmsat(1), as roff to standard output.
    ///
    /// `olmsat man > /usr/local/share/man/man1/olmsat.1`, then `man olmsat`.
    Man,
    /// For each package, channel and bundle of a catalog, the path OLM v0 takes
    /// and the path OLM v1 takes, side by side, where they differ, and the
    /// bundles OLM v1 refuses (dependencies). Exit code 1 when some paths differ.
    CompareOlm(CompareOlmArgs),
    /// Compare two catalogs: what the change does to users' upgrade paths.
    Diff(DiffArgs),
    /// Render a catalog template (basic, semver, substitutes) as
    /// `opm alpha render-template` does, offline: bundle images are looked up in
    /// the `--bundles-from` sources. The catalog is validated afterwards.
    RenderTemplate(RenderTemplateArgs),
    /// Turn a catalog into a template (`opm alpha convert-template basic`): every
    /// bundle becomes an image reference.
    ConvertTemplate(ConvertTemplateArgs),
}

// `olmsat render-template`
#[derive(clap::Args)]
pub struct RenderTemplateArgs {
    /// `[TYPE] [FILE]`: TYPE is basic, semver or substitutes (detected from
    /// the first document's `schema` when omitted); FILE `-` or none reads
    /// standard input.
    #[arg(num_args = 0..=2, value_name = "TYPE|FILE")]
    pub args: Vec<String>,
    /// Output format: json, yaml or mermaid.
    #[arg(short, long, default_value = "json")]
    pub output: String,
    /// Image of each bundle directory source without an `images.yaml`, e.g.
    /// `quay.io/org/{{.Package}}:{{.Version}}`.
    #[arg(long)]
    pub image_ref_template: Option<String>,
    /// Migrations to apply to the rendered bundles.
    #[arg(long, value_enum, default_value_t = MigrateLevel::None)]
    pub migrate_level: MigrateLevel,
    /// Do not validate the rendered catalog.
    #[arg(long)]
    pub no_validate: bool,
    /// How the semver template links entries: `edge` (opm v1.61 and later) or
    /// `legacy` (opm before v1.57, per channel, to reproduce catalogs rendered then).
    #[arg(long, value_enum, default_value_t = SemverLinking::Edge)]
    pub semver_linking: SemverLinking,
    /// Which findings of the validation fail the run.
    #[command(flatten)]
    pub controls: crate::report_args::PolicyArgs,
}

/// `--semver-linking` values.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum SemverLinking {
    /// opm v1.61 and later: edges over all channels of an archetype, kind and major version.
    Edge,
    /// opm before v1.57: per channel, the replaced entry also skipped.
    Legacy,
}

// `olmsat convert-template`
#[derive(clap::Args)]
pub struct ConvertTemplateArgs {
    /// Template type (basic).
    pub kind: String,
    /// Catalog directory or file (`-` reads standard input).
    pub path: PathBuf,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = RenderFormat::Json)]
    pub output: RenderFormat,
}

impl Command {
    /// The catalog paths the command reads, to size its input by (see
    /// [`crate::process::fit_to_input`]); none for commands that read bundle
    /// directories or nothing.
    pub fn catalog_paths(&self) -> Vec<&Path> {
        match self {
            Command::Validate(a) => a.paths.iter().map(PathBuf::as_path).collect(),
            Command::Render(a) => a.paths.iter().map(PathBuf::as_path).collect(),
            Command::List(a) => vec![&a.path],
            Command::Path(a) => vec![&a.path],
            Command::CompareOlm(a) => vec![&a.path],
            Command::Graph(a) => vec![&a.path],
            Command::Resolve(ResolveArgs { inputs, .. })
            | Command::Simulate(SimulateArgs { inputs, .. }) => inputs.catalog_paths(),
            Command::Synthetic(_)
            | Command::Bundle { .. }
            | Command::Catalog { .. }
            | Command::Completions(_)
            | Command::Man
            | Command::Diff(_)
            | Command::RenderTemplate(_)
            | Command::ConvertTemplate(_) => Vec::new(),
        }
    }
}

// `olmsat completions`
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// The shells completion scripts are written for.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Shell {
    /// Bash.
    Bash,
    /// Zsh.
    Zsh,
    /// Fish.
    Fish,
    /// PowerShell.
    Powershell,
}

// `olmsat validate`
#[derive(clap::Args)]
pub struct ValidateArgs {
    /// Catalog directories or files (`-` reads standard input).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub report: crate::report_args::ReportArgs,
}

// `olmsat render`
#[derive(clap::Args)]
pub struct RenderArgs {
    /// Catalog directories or files (`-` reads standard input), and bundle directories.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = RenderFormat::Json)]
    pub output: RenderFormat,
    #[command(flatten)]
    pub bundles: BundleRenderArgs,
}

// How bundle directories are rendered (`render`, `catalog from-bundles`).
#[derive(clap::Args)]
pub struct BundleRenderArgs {
    /// Template for the image of rendered bundle directories, e.g.
    /// `quay.io/org/{{.Package}}:{{.Version}}` (fields `.Package`, `.Name`, `.Version`).
    #[arg(long, visible_alias = "alpha-image-ref-template")]
    pub image_ref_template: Option<String>,
    /// Migrations to apply to the rendered bundles.
    #[arg(long, value_enum, default_value_t = MigrateLevel::None)]
    pub migrate_level: MigrateLevel,
}

// `olmsat list`
#[derive(clap::Args)]
pub struct ListArgs {
    /// What to list.
    #[arg(value_enum)]
    pub what: ListWhat,
    /// Catalog directory or file.
    pub path: PathBuf,
    /// Only this package.
    pub package: Option<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = ReportFormat::Text)]
    pub output: ReportFormat,
}

// `olmsat resolve`
#[derive(clap::Args)]
pub struct ResolveArgs {
    #[command(flatten)]
    pub inputs: ResolveInputs,
    /// Explain the answer.
    #[arg(long)]
    pub explain: bool,
    /// Give up after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

// `olmsat simulate`
#[derive(clap::Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub inputs: ResolveInputs,
    /// Give up on a resolution after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Stop after this many resolutions.
    #[arg(long, default_value_t = 100)]
    pub max_steps: usize,
}

// The inputs `resolve` and `simulate` share.
#[derive(clap::Args)]
pub struct ResolveInputs {
    /// A directory whose subdirectories are catalogs, each named after its directory.
    #[arg(long, value_name = "DIR")]
    pub catalogs: Option<PathBuf>,
    /// A catalog with an explicit name (repeatable).
    #[arg(long = "catalog", value_name = "NAME=PATH")]
    pub catalog: Vec<String>,
    /// Cluster state (repeatable): a YAML or JSON file, a directory read
    /// recursively (a must-gather tree), or `-` for standard input. Reads
    /// Subscriptions, ClusterServiceVersions (copies skipped), CatalogSources,
    /// OperatorGroups, and OLM v1 ClusterCatalogs and ClusterExtensions.
    #[arg(short = 'f', long = "cluster", value_name = "CLUSTER.yaml|DIR|-")]
    pub cluster: Vec<PathBuf>,
    /// Add a subscription to a package (repeatable).
    #[arg(long, value_name = "PKG[/CHANNEL][@CATALOG]")]
    pub subscribe: Vec<String>,
    /// The namespace --subscribe adds to (default: the namespace of the cluster
    /// state's only OperatorGroup, else `default`).
    #[arg(long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = ReportFormat::Text)]
    pub output: ReportFormat,
    /// The namespace whose catalogs every namespace sees (default: the one
    /// namespace that holds every CatalogSource and that every Subscription
    /// names as its sourceNamespace, e.g. openshift-marketplace; else `olm`).
    #[arg(long, value_name = "NAMESPACE")]
    pub global_namespace: Option<String>,
    /// Resolve as if a CatalogSource whose content was not given were empty
    /// (by default OLM's error: no registry client for it).
    #[arg(long)]
    pub allow_missing_catalogs: bool,
    #[command(flatten)]
    pub v1: V1Flags,
}

impl ResolveInputs {
    /// The catalog directories named: `--catalogs` and each `--catalog`'s path.
    fn catalog_paths(&self) -> Vec<&Path> {
        let named = self
            .catalog
            .iter()
            .filter_map(|c| c.split_once('=').map(|(_, path)| Path::new(path)));
        self.catalogs.as_deref().into_iter().chain(named).collect()
    }
}

// `olmsat synthetic`
#[derive(clap::Args)]
pub struct SyntheticArgs {
    /// Output directory (must be empty or absent).
    #[arg(long = "output-dir", required_unless_present = "old_output")]
    pub output_dir: Option<PathBuf>,
    /// The old spelling of --output-dir, refused with a hint.
    #[arg(short = 'o', hide = true, value_name = "DIR")]
    pub old_output: Option<PathBuf>,
    /// Number of packages.
    #[arg(long, default_value_t = 100)]
    pub packages: usize,
    /// Total number of bundles.
    #[arg(long, default_value_t = 5000)]
    pub bundles: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Depth of the dependency chains between packages (0: none).
    #[arg(long, default_value_t = 3)]
    pub depth: usize,
    /// Bulky property per bundle: none, csv-metadata or bundle-object.
    #[arg(long, default_value = "csv-metadata")]
    pub payload: olmsat_catalog::Payload,
    /// File format.
    #[arg(long, value_enum, default_value_t = RenderFormat::Json)]
    pub format: RenderFormat,
}

// `olmsat path`
#[derive(clap::Args)]
pub struct PathArgs {
    /// Catalog directory or file.
    pub path: PathBuf,
    /// Package.
    #[arg(long)]
    pub package: String,
    /// Channel, or `all` for every channel holding the start (default: the
    /// package's default channel, or the channels holding the start when it is
    /// not in the default one).
    #[arg(long)]
    pub channel: Option<String>,
    /// The installed bundle: a bundle name, a version (which may no longer be
    /// in the catalog; skipRanges still apply to it), or a pruned bundle's CSV
    /// name (its version is read from the name, after the last `.v`).
    #[arg(long, value_name = "NAME|VERSION")]
    pub from: String,
    /// Where to go, by name or version (default: the channel head).
    #[arg(long, value_name = "NAME|VERSION")]
    pub to: Option<String>,
    /// Cluster state (repeatable; a YAML or JSON file, a directory, or `-`):
    /// when it holds the ClusterServiceVersion named by --from, a pruned start
    /// takes that CSV's version (OLM matches it against skipRanges).
    #[arg(short = 'f', long = "cluster", value_name = "CLUSTER.yaml|DIR|-")]
    pub cluster: Vec<PathBuf>,
    /// A shortest path over every edge instead of OLM's path.
    #[arg(long, conflicts_with = "all")]
    pub shortest: bool,
    /// All simple paths over every edge (at most --limit), shortest first.
    #[arg(long)]
    pub all: bool,
    /// Most paths --all prints.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub limit: usize,
    /// Whose path: OLM v0 (default) or OLM v1 (one hop per reconcile to the
    /// highest successor, across all channels unless --channel is given).
    #[arg(long, value_enum, default_value_t = OlmVersion::V0)]
    pub olm: OlmVersion,
    /// With --olm v1: bound the path by this Masterminds version range.
    #[arg(long = "version", id = "version_range", value_name = "RANGE")]
    pub version: Option<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = ReportFormat::Text)]
    pub output: ReportFormat,
}

// `olmsat compare-olm`
#[derive(clap::Args)]
pub struct CompareOlmArgs {
    /// Catalog directory or file.
    pub path: PathBuf,
    /// Only this package.
    #[arg(long)]
    pub package: Option<String>,
    /// Only list the starts whose paths differ.
    #[arg(long)]
    pub only_differences: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = ReportFormat::Text)]
    pub output: ReportFormat,
}

/// Which OLM's semantics.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum OlmVersion {
    /// OLM v0 (Subscriptions, catalog operator).
    V0,
    /// OLM v1 (ClusterExtensions, operator-controller).
    V1,
}

/// Which path `olmsat path` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathMode {
    /// The steps OLM v0 takes.
    Olm,
    /// A shortest path over every edge.
    Shortest,
    /// All simple paths, up to a limit.
    All(usize),
}

impl PathArgs {
    /// The path asked for (`--all` wins over `--shortest`).
    pub fn mode(&self) -> PathMode {
        match (self.shortest, self.all) {
            (_, true) => PathMode::All(self.limit),
            (true, false) => PathMode::Shortest,
            (false, false) => PathMode::Olm,
        }
    }
}

// `olmsat graph`
#[derive(clap::Args)]
pub struct GraphArgs {
    /// Catalog directory or file.
    pub path: PathBuf,
    /// Only this package.
    #[arg(long)]
    pub package: Option<String>,
    /// Only channels of this name.
    #[arg(long)]
    pub channel: Option<String>,
    /// Output format (svg needs Graphviz's `dot`).
    #[arg(short, long, value_enum, default_value_t = DrawFormat::Dot)]
    pub output: DrawFormat,
    /// Draw only edges at or above this bundle's version, in its package
    /// (as `opm alpha render-graph --minimum-edge`).
    #[arg(long, value_name = "NAME")]
    pub minimum_edge: Option<String>,
    /// Highlight the path OLM v0 takes from this bundle name or version.
    #[arg(long, value_name = "NAME|VERSION")]
    pub highlight_from: Option<String>,
    /// Which edges to draw: `folded` (every replaces edge, every edge OLM v0
    /// takes, and a skips or skipRange edge only where no other drawn path
    /// covers it), `all`, or kinds such as `replaces,skips,skipRange`.
    /// Mermaid always draws every edge, in opm's layout.
    #[arg(long, value_name = "folded|all|KINDS", default_value = "folded")]
    pub edges: olmsat_graph::EdgeView,
    /// Draw no legend.
    #[arg(long)]
    pub no_legend: bool,
    /// Write one file per package into DIR (created if need be), and an index
    /// page: `index.html` for `-o svg` and `-o html`, `index.md` otherwise.
    #[arg(long, value_name = "DIR")]
    pub split: Option<PathBuf>,
    /// With `--split`: one file per package and channel.
    #[arg(long, requires = "split")]
    pub split_channels: bool,
}

/// `olmsat bundle ...`
#[derive(Subcommand)]
pub enum BundleCommand {
    /// Validate bundle directories (registry+v1, registry+v2, plain+v0); report every problem.
    ///
    /// A directory without `manifests/` that holds bundle directories below it is
    /// searched, and every bundle found is validated.
    Validate(BundleValidateArgs),
    /// Write `metadata/annotations.yaml` and `bundle.Dockerfile` for a directory of manifests.
    Generate(BundleGenerateArgs),
    /// Lay out a bundle directory from manifests (or defaults); never overwrites anything.
    Init(BundleInitArgs),
}

// `olmsat bundle validate`
#[derive(clap::Args)]
pub struct BundleValidateArgs {
    /// Bundle directories (or trees of them).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    #[command(flatten)]
    pub report: crate::report_args::ReportArgs,
}

// `olmsat bundle generate`
#[derive(clap::Args)]
pub struct BundleGenerateArgs {
    /// The directory holding the manifests.
    #[arg(short, long)]
    pub directory: PathBuf,
    /// The package the bundle belongs to.
    #[arg(short, long)]
    pub package: String,
    /// Comma-separated channels the bundle is in.
    #[arg(short, long)]
    pub channels: String,
    /// The default channel (the first channel when not given).
    #[arg(short = 'e', long = "default")]
    pub default_channel: Option<String>,
    /// Put `manifests/` (copied) and `metadata/` here instead of next to the manifests.
    #[arg(short = 'u', long)]
    pub output_dir: Option<PathBuf>,
    /// Replace an existing `annotations.yaml`.
    #[arg(long)]
    pub overwrite: bool,
}

// `olmsat bundle init`
#[derive(clap::Args)]
pub struct BundleInitArgs {
    /// Bundle format; inferred from the source manifests when not given.
    #[arg(short, long, value_enum)]
    pub mediatype: Option<MediaType>,
    /// The bundle directory to create (default: the current directory).
    pub dir: Option<PathBuf>,
    /// Directory of manifests to include, or `-` to read a stream from standard
    /// input. Without it, default manifests are generated.
    #[arg(long, value_name = "SRC")]
    pub from: Option<String>,
    /// The old `bundle init SRC DIR` form, refused with a hint.
    #[arg(hide = true)]
    pub old_second: Option<PathBuf>,
    /// Also write a Dockerfile.
    #[arg(short = 'd', long = "generate-dockerfile")]
    pub dockerfile: bool,
    /// Package name (default: from the manifests or the directory name).
    #[arg(short, long)]
    pub package: Option<String>,
    /// Comma-separated channels (default: alpha).
    #[arg(short, long)]
    pub channels: Option<String>,
}

/// `olmsat catalog ...`
#[derive(Subcommand)]
pub enum CatalogCommand {
    /// Build a file-based catalog from a tree of registry+v1 bundle directories, as the
    /// replaces-mode index did; writes `<OUT>/<package>/catalog.json`.
    FromBundles(FromBundlesArgs),
}

// `olmsat catalog from-bundles`
#[derive(clap::Args)]
pub struct FromBundlesArgs {
    /// Directories holding bundle directories (searched recursively).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Output directory (must be missing or empty).
    #[arg(long, value_name = "DIR")]
    pub output_dir: PathBuf,
    /// Report format: text or json.
    #[arg(short, long, default_value = "text", value_parser = report_format)]
    pub output: ReportFormat,
    /// Catalog file format.
    #[arg(long, value_enum, default_value_t = RenderFormat::Json)]
    pub format: RenderFormat,
    /// Template for bundle images, e.g. `quay.io/org/{{.Package}}:{{.Version}}`.
    #[arg(long)]
    pub image_ref_template: Option<String>,
    /// Migrations to apply to the rendered bundles.
    #[arg(long, value_enum, default_value_t = MigrateLevel::None)]
    pub migrate_level: MigrateLevel,
    /// How upgrade edges are made: from each CSV's `spec.replaces`, from version
    /// order, or per package as its `ci.yaml` `updateGraph` says.
    #[arg(long, value_enum, default_value_t = GraphMode::Replaces)]
    pub mode: GraphMode,
    /// Do not validate the written catalog (by default it is read back and
    /// validated: findings on standard error, errors make the exit code 1).
    #[arg(long)]
    pub no_validate: bool,
    /// The old spelling of -o, refused with a hint.
    #[arg(long, hide = true, value_name = "FORMAT")]
    pub report: Option<String>,
}

/// Parse `-o` of a command whose `-o` once named a directory: a report
/// format, with a hint for a directory given the old way.
fn report_format(value: &str) -> Result<ReportFormat, String> {
    ReportFormat::from_str(value, false).map_err(|_| {
        format!(
            "-o/--output is the report format (text, json or yaml); give the output directory with --output-dir {value}"
        )
    })
}

/// A flag's old spelling, refused with the new one.
#[derive(Debug, thiserror::Error)]
#[error("{old} is no longer accepted: {hint}")]
pub struct OldSpelling {
    /// The old flag.
    pub old: &'static str,
    /// What to write instead.
    pub hint: String,
}

/// Migration levels of `opm render`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum MigrateLevel {
    /// No migration.
    None,
    /// Replace `olm.bundle.object` properties with one `olm.csv.metadata`.
    BundleObjectToCsvMetadata,
}

/// Compare two catalogs: the structural changes per package, and the findings
/// R0–R9 (bundles stranded or removed with nothing upgrading from them, channels
/// or packages removed, heads moving back, OLM v0 stopping short of the head).
///
/// OLD and NEW are catalog directories or files, `-` (standard input), or
/// `git:REV:PATH` (a path at a revision of the repository the command runs in,
/// e.g. `git:origin/main:catalogs/v4.20`). Exit code 0 when no error finding,
/// 1 with at least one (or a warning with --strict), 2 when an input cannot be
/// read or OLD is invalid.
///
/// Findings are judged as `validate`'s are: `--strict`, `--fail-on`,
/// `--allow RULE[@PACKAGE[/CHANNEL]]`, `--deny` and `.olmsat.yaml`. An allow
/// of an error rule (everywhere, or for one package or channel) keeps its
/// findings in the output as allowed, and they fail nothing.
#[derive(clap::Args)]
pub struct DiffArgs {
    /// The catalog before the change.
    #[arg(value_name = "OLD")]
    pub old: String,
    /// The catalog after the change.
    #[arg(value_name = "NEW")]
    pub new: String,
    /// Only this package.
    #[arg(long)]
    pub package: Option<String>,
    #[command(flatten)]
    pub report: crate::report_args::ReportArgs,
}

/// The command-line flags that describe one ClusterExtension and the gates.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct V1Flags {
    /// OLM v1: add a ClusterExtension for this package (like --subscribe for v0).
    #[arg(long, value_name = "PKG")]
    pub extension: Option<String>,
    /// OLM v1: the --extension's version range (Masterminds syntax, e.g. ">=1.2, <2").
    #[arg(
        long = "version",
        id = "version_range",
        value_name = "RANGE",
        requires = "extension"
    )]
    pub version: Option<String>,
    /// OLM v1: a channel of the --extension (repeatable; none: all channels).
    #[arg(long = "channel", value_name = "CHANNEL", requires = "extension")]
    pub channels: Vec<String>,
    /// OLM v1: the --extension's installed bundle.
    #[arg(long, value_name = "NAME@VERSION", requires = "extension")]
    pub installed: Option<String>,
    /// OLM v1: the --extension's upgrade policy.
    #[arg(long, value_name = "POLICY", requires = "extension", value_parser = ["CatalogProvided", "SelfCertified"])]
    pub upgrade_constraint_policy: Option<String>,
    /// OLM v1: set an operator-controller feature gate (repeatable):
    /// BundleReleaseSupport=true|false (default false).
    #[arg(long = "feature-gate", value_name = "NAME=true|false")]
    pub feature_gates: Vec<String>,
}

impl V1Flags {
    /// The flags as the library takes them.
    pub fn request(&self) -> olmsat_resolver::v1::answer::ExtensionRequest {
        olmsat_resolver::v1::answer::ExtensionRequest {
            extension: self.extension.clone(),
            version: self.version.clone(),
            channels: self.channels.clone(),
            installed: self.installed.clone(),
            upgrade_constraint_policy: self.upgrade_constraint_policy.clone(),
            feature_gates: self.feature_gates.clone(),
        }
    }
}
