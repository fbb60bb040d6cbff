//! Building a file-based catalog from a tree of registry+v1 bundle directories,
//! the way the replaces-mode index (`opm index add`) assembled one:
//!
//! - one `olm.package` per package; its default channel comes from the
//!   annotations of the highest-version bundle that names one (a bundle with a
//!   single channel and no default annotation implies that channel), skipping
//!   defaults that name no channel of the package; bundles that disagree are
//!   reported as a warning naming them;
//! - one `olm.channel` per channel named in any bundle's channels annotation, with
//!   one entry per member bundle (ordered by version): `replaces` from the CSV's
//!   `spec.replaces`, `skips` from `spec.skips`, `skipRange` from the `olm.skipRange`
//!   annotation;
//! - one `olm.bundle` per bundle, rendered as [`crate::render`] renders it.
//!
//! [`GraphMode::Semver`] makes the edges from versions instead (each entry replaces
//! the next lower version in its channel), as `opm index add --mode semver` did;
//! [`GraphMode::CiYaml`] picks the mode per package from its `ci.yaml`.
//!
//! Bundle directories are found recursively ([`find_bundles`]); the first of two
//! bundles with the same name in a package is kept and the other reported.
//! Findings worth knowing (bundles replacing versions absent from the tree,
//! disagreeing defaults, bundles that could not be rendered) are returned as
//! diagnostics and as a [`Findings`] summary.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::csv::{Csv, CSV_KIND};
use crate::format::{detect, MediaType};
use crate::read::{find_bundles, read_bundle};
use crate::render::{render, RenderOptions};
use crate::validate::{validate_bundle, BundleReport};
use crate::BundleError;
use olmsat_catalog::declcfg::{Bundle, Channel, ChannelEntry, DeclarativeConfig, Package};
use olmsat_catalog::write::{write, Format};
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};
use olmsat_versions::version;

/// How channel entries get their upgrade edges (with the `clap` feature, the
/// command line's values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum GraphMode {
    /// `replaces` from each CSV's `spec.replaces` (the replaces-mode index).
    #[default]
    Replaces,
    /// Each entry replaces the next lower version in its channel; the CSV's
    /// `spec.replaces` is not used (`opm index add --mode semver`).
    #[cfg_attr(
        feature = "clap",
        value(help = "Each bundle replaces the next lower version in its channel")
    )]
    Semver,
    /// Per package, as its `ci.yaml` says (`updateGraph: semver-mode` means
    /// [`GraphMode::Semver`], anything else [`GraphMode::Replaces`]); the file is
    /// looked for in the bundle directory's parent and the two directories above.
    #[cfg_attr(
        feature = "clap",
        value(
            help = "Per package, from `updateGraph` in the package's `ci.yaml` (`semver-mode` or not)"
        )
    )]
    CiYaml,
}

/// How to build the catalog.
#[derive(Debug, Clone, Default)]
pub struct FromBundlesOptions {
    /// How each bundle is rendered.
    pub render: RenderOptions,
    /// How upgrade edges are made.
    pub mode: GraphMode,
    /// Also validate every bundle (see [`CatalogBuild::reports`]).
    pub validate: bool,
    /// Follow links that leave the roots while finding bundle directories
    /// (`--follow`); by default they are skipped and reported. Files of a
    /// bundle that leave the bundle are never read.
    pub follow_links: bool,
}

/// One bundle as the catalog sees it.
#[derive(Debug, Clone)]
pub struct BundleInfo {
    /// The bundle directory.
    pub path: PathBuf,
    /// Package (annotations).
    pub package: String,
    /// Bundle (CSV) name.
    pub name: String,
    /// CSV version, when it parses.
    pub version: Option<semver::Version>,
    /// Channels (annotations).
    pub channels: Vec<String>,
    /// Default channel annotation, when set.
    pub default_channel: Option<String>,
    /// The default channel the registry would infer (the annotation, or the only channel).
    pub effective_default: Option<String>,
    /// `spec.replaces`
    pub replaces: Option<String>,
    /// `spec.skips`
    pub skips: Vec<String>,
    /// `olm.skipRange`
    pub skip_range: Option<String>,
    /// The `updateGraph` of the package's `ci.yaml`, when found.
    pub ci_update_graph: Option<String>,
}

/// A summary of what building the catalog found.
#[derive(Debug, Clone, Default)]
pub struct Findings {
    /// Bundle directories found.
    pub found: usize,
    /// Bundles in the catalog.
    pub included: usize,
    /// Directories left out, with the reason.
    pub skipped: Vec<(PathBuf, String)>,
    /// (package, bundle, replaced name) where the replaced bundle is not in the package.
    pub absent_replaces: Vec<(String, String, String)>,
    /// Packages whose bundles name different default channels: the default
    /// chosen and, per default channel named, the bundles naming it.
    pub default_disagreements: Vec<(String, String, BTreeMap<String, Vec<String>>)>,
    /// (package, bundle, default) where a bundle's default channel is not one of its own channels.
    pub defaults_outside_own_channels: Vec<(String, String, String)>,
}

/// What [`build_catalog`] produced.
#[derive(Debug, Default)]
pub struct CatalogBuild {
    /// The catalog.
    pub config: DeclarativeConfig,
    /// Every bundle included.
    pub bundles: Vec<BundleInfo>,
    /// Errors (bundles left out) and warnings.
    pub diagnostics: Vec<Diagnostic>,
    /// Summary.
    pub findings: Findings,
    /// The validation report of every bundle directory found, in path order (only
    /// with [`FromBundlesOptions::validate`]).
    pub reports: Vec<BundleReport>,
    /// The graph mode used per package.
    pub modes: BTreeMap<String, GraphMode>,
}

impl CatalogBuild {
    /// Whether any error was found.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

struct Processed {
    report: Option<BundleReport>,
    path: PathBuf,
    info: Option<BundleInfo>,
    bundle: Option<Bundle>,
    diagnostics: Vec<Diagnostic>,
    skipped: Option<String>,
}

fn process(path: &Path, opts: &FromBundlesOptions) -> Processed {
    let mut p = Processed {
        report: None,
        path: path.to_path_buf(),
        info: None,
        bundle: None,
        diagnostics: Vec::new(),
        skipped: None,
    };
    let dir = match read_bundle(path) {
        Ok(d) => d,
        Err(e) => {
            p.diagnostics
                .push(
                    Diagnostic::new(Rule::Unreadable, e.to_string()).at(&Location::new(
                        std::sync::Arc::from(path.display().to_string()),
                        0,
                    )),
                );
            p.skipped = Some(e.to_string());
            return p;
        }
    };
    if opts.validate {
        p.report = Some(validate_bundle(&dir));
    }
    let det = detect(&dir);
    if det.media_type != MediaType::RegistryV1 {
        let why = format!("not a registry+v1 bundle: {}", det.describe());
        p.diagnostics.push(
            Diagnostic::new(Rule::BundleSkipped, format!("skipped: {why}"))
                .at(&Location::new(std::sync::Arc::from(dir.display()), 0)),
        );
        p.skipped = Some(why);
        return p;
    }
    let outcome = render(&dir, &opts.render);
    p.diagnostics = outcome.diagnostics;
    let Some(bundle) = outcome.bundle else {
        let why = p
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| d.message.clone())
            .unwrap_or_else(|| "cannot be rendered".into());
        p.skipped = Some(why);
        return p;
    };
    let csv = dir
        .manifests
        .iter()
        .filter_map(|m| m.first())
        .find(|o| o.kind == CSV_KIND)
        .map(Csv::from_object);
    let ann = dir.annotations.as_ref();
    p.info = csv.map(|c| BundleInfo {
        path: dir.path.clone(),
        package: bundle.package.clone(),
        name: bundle.name.clone(),
        version: c
            .version
            .as_deref()
            .and_then(|v| version::parse_tolerant(v).ok()),
        channels: ann.map(|a| a.channels()).unwrap_or_default(),
        default_channel: ann.and_then(|a| a.default_channel()).map(str::to_owned),
        effective_default: ann.and_then(|a| a.effective_default_channel()),
        replaces: c.replaces.clone(),
        skips: c.skips.clone(),
        skip_range: c.skip_range().map(str::to_owned),
        ci_update_graph: if opts.mode == GraphMode::CiYaml {
            ci_update_graph(&dir.path)
        } else {
            None
        },
    });
    p.bundle = Some(bundle);
    p
}

/// Build a catalog from every bundle found under `roots`.
pub fn build_catalog<P: AsRef<Path>>(
    roots: &[P],
    opts: &FromBundlesOptions,
) -> Result<CatalogBuild, BundleError> {
    let mut dirs = BTreeSet::new();
    let mut out = CatalogBuild::default();
    for r in roots {
        let found = find_bundles(r.as_ref(), opts.follow_links)?;
        dirs.extend(found.dirs);
        out.diagnostics.extend(found.skipped);
    }
    let dirs: Vec<PathBuf> = dirs.into_iter().collect();
    let processed: Vec<Processed> = dirs.par_iter().map(|d| process(d, opts)).collect();
    out.findings.found = dirs.len();
    let mut by_package: BTreeMap<String, Vec<(BundleInfo, Bundle)>> = BTreeMap::new();
    for p in processed {
        out.reports.extend(p.report);
        out.diagnostics.extend(p.diagnostics);
        if let Some(why) = p.skipped {
            out.findings.skipped.push((p.path, why));
            continue;
        }
        if let (Some(info), Some(bundle)) = (p.info, p.bundle) {
            by_package
                .entry(info.package.clone())
                .or_default()
                .push((info, bundle));
        }
    }
    for (pkg, mut members) in by_package {
        members.sort_by(|(a, _), (b, _)| {
            order_version(&a.version, &b.version).then_with(|| a.path.cmp(&b.path))
        });
        // Duplicate names: keep the first by path.
        let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
        let mut kept = Vec::new();
        let mut by_path = members.clone();
        by_path.sort_by(|(a, _), (b, _)| a.path.cmp(&b.path));
        let mut dropped = BTreeSet::new();
        for (info, _) in &by_path {
            if let Some(first) = seen.get(&info.name) {
                out.diagnostics.push(
                    Diagnostic::new(
                        Rule::DuplicateBundleDirectory,
                        format!(
                            "bundle {:?} is also in {}; only that one is kept",
                            info.name,
                            first.display()
                        ),
                    )
                    .at(&dir_loc(&info.path))
                    .package(&pkg)
                    .bundle(&info.name),
                );
                out.findings.skipped.push((
                    info.path.clone(),
                    format!("duplicate bundle name {:?}", info.name),
                ));
                dropped.insert(info.path.clone());
            } else {
                seen.insert(info.name.clone(), info.path.clone());
            }
        }
        for m in members {
            if !dropped.contains(&m.0.path) {
                kept.push(m);
            }
        }
        let mode = match opts.mode {
            GraphMode::CiYaml => package_mode(&pkg, &kept, &mut out.diagnostics),
            m => m,
        };
        out.modes.insert(pkg.clone(), mode);
        add_package(&pkg, kept, mode, &mut out);
    }
    out.diagnostics.sort();
    out.diagnostics.dedup();
    Ok(out)
}

/// The `updateGraph` value of the `ci.yaml` nearest above a bundle directory
/// (its parent, or the two directories above that).
fn ci_update_graph(bundle_dir: &Path) -> Option<String> {
    let file = bundle_dir
        .ancestors()
        .skip(1)
        .take(3)
        .map(|d| d.join("ci.yaml"))
        .find(|f| f.is_file())?;
    let shown: std::sync::Arc<str> = std::sync::Arc::from(file.display().to_string());
    let text = crate::yaml::read_text(&file, &shown).ok()?;
    let (m, _) = crate::yaml::meta_file(&shown, &text).ok()?;
    match m.get("updateGraph") {
        Some((crate::yaml::Node::Scalar(serde_json::Value::String(s)), _)) => Some(s.clone()),
        _ => Some(String::new()),
    }
}

/// The mode a package's `ci.yaml` asks for (the highest version's when bundles differ).
fn package_mode(
    pkg: &str,
    members: &[(BundleInfo, Bundle)],
    diags: &mut Vec<Diagnostic>,
) -> GraphMode {
    let values: BTreeSet<Option<&str>> = members
        .iter()
        .map(|(i, _)| i.ci_update_graph.as_deref())
        .collect();
    if values.len() > 1 {
        if let Some((i, _)) = members.last() {
            diags.push(
                Diagnostic::new(Rule::ConflictingUpdateGraph, "bundles of the package find different ci.yaml updateGraph values; the highest version's is used")
                    .at(&dir_loc(&i.path))
                    .package(pkg),
            );
        }
    }
    match members
        .last()
        .and_then(|(i, _)| i.ci_update_graph.as_deref())
    {
        Some("semver-mode") => GraphMode::Semver,
        _ => GraphMode::Replaces,
    }
}

fn dir_loc(p: &Path) -> Location {
    Location::new(std::sync::Arc::from(p.display().to_string()), 0)
}

/// Version order: parsed versions by semver precedence (build metadata as a
/// tie-breaker), unparseable versions first.
fn order_version(a: &Option<semver::Version>, b: &Option<semver::Version>) -> std::cmp::Ordering {
    match (a, b) {
        (Some(x), Some(y)) => version::compare(x, y).then_with(|| x.build.cmp(&y.build)),
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    }
}

fn add_package(
    pkg: &str,
    members: Vec<(BundleInfo, Bundle)>,
    mode: GraphMode,
    out: &mut CatalogBuild,
) {
    let all_channels: BTreeSet<&str> = members
        .iter()
        .flat_map(|(i, _)| i.channels.iter().map(String::as_str))
        .collect();
    let names: BTreeSet<&str> = members.iter().map(|(i, _)| i.name.as_str()).collect();
    let pkg_loc = members
        .last()
        .map(|(i, _)| dir_loc(&i.path))
        .unwrap_or_else(|| dir_loc(Path::new(pkg)));

    // Default channel: highest version first.
    let mut default = None;
    for (info, _) in members.iter().rev() {
        if let Some(d) = &info.effective_default {
            if all_channels.contains(d.as_str()) {
                default = Some(d.clone());
                break;
            }
        }
    }
    let default = match default {
        Some(d) => d,
        None => {
            let first = all_channels
                .iter()
                .next()
                .map(|c| (*c).to_owned())
                .unwrap_or_default();
            out.diagnostics.push(
                Diagnostic::new(
                    Rule::DefaultChannelChosen,
                    format!("no bundle names a default channel that exists; using {first:?}"),
                )
                .at(&pkg_loc)
                .package(pkg),
            );
            first
        }
    };
    let mut named: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (info, _) in &members {
        if let Some(d) = &info.default_channel {
            named.entry(d.clone()).or_default().push(info.name.clone());
            if !info.channels.iter().any(|c| c == d) {
                out.findings.defaults_outside_own_channels.push((
                    pkg.to_owned(),
                    info.name.clone(),
                    d.clone(),
                ));
            }
        }
    }
    if named.len() > 1 {
        let parts: Vec<String> = named
            .iter()
            .map(|(d, bs)| format!("{d:?} by {}", bs.join(", ")))
            .collect();
        out.diagnostics.push(
            Diagnostic::new(Rule::DefaultChannelChosen, format!(
                "bundles disagree on the default channel: {}; using {default:?} (from the highest version)",
                parts.join("; ")
            ))
            .at(&pkg_loc)
            .package(pkg),
        );
        out.findings
            .default_disagreements
            .push((pkg.to_owned(), default.clone(), named));
    }
    out.config.packages.push(Package {
        name: pkg.to_owned(),
        default_channel: default,
        icon: None,
        description: String::new(),
        properties: Vec::new(),
        location: pkg_loc.clone(),
    });

    let mut channels: BTreeMap<&str, Vec<ChannelEntry>> = BTreeMap::new();
    for (info, _) in &members {
        // In semver mode the edges come from version order below.
        let replaced = info
            .replaces
            .as_ref()
            .filter(|_| mode == GraphMode::Replaces);
        if let Some(r) = replaced {
            if !names.contains(r.as_str()) {
                out.findings
                    .absent_replaces
                    .push((pkg.to_owned(), info.name.clone(), r.clone()));
                out.diagnostics.push(
                    Diagnostic::new(
                        Rule::ReplacesNotFound,
                        format!(
                            "replaces {r:?}, which is not a bundle of package {pkg:?} in this tree"
                        ),
                    )
                    .at(&dir_loc(&info.path))
                    .package(pkg)
                    .bundle(&info.name),
                );
            }
        }
        for c in &info.channels {
            let entries = channels.entry(c.as_str()).or_default();
            let replaces = match mode {
                GraphMode::Replaces => info.replaces.clone(),
                // Members are in version order, so the previous entry is the next
                // lower version in this channel.
                _ => entries.last().map(|e: &ChannelEntry| e.name.clone()),
            };
            entries.push(ChannelEntry {
                name: info.name.clone(),
                replaces,
                skips: info.skips.clone(),
                skip_range: info.skip_range.clone(),
                location: dir_loc(&info.path),
            });
        }
    }
    for (name, entries) in channels {
        out.config.channels.push(Channel {
            name: name.to_owned(),
            package: pkg.to_owned(),
            entries,
            properties: Vec::new(),
            location: pkg_loc.clone(),
        });
    }
    for (info, bundle) in members {
        if info.channels.is_empty() {
            out.diagnostics.push(
                Diagnostic::new(
                    Rule::BundleInNoChannel,
                    "bundle is in no channel".to_owned(),
                )
                .at(&dir_loc(&info.path))
                .package(pkg)
                .bundle(&info.name),
            );
        }
        out.findings.included += 1;
        out.config.bundles.push(bundle);
        out.bundles.push(info);
    }
}

/// Write a catalog as `<out>/<package>/catalog.json` (or `.yaml`), one directory per
/// package, through [`write()`]. `out` must be missing or empty. Returns the files
/// written.
pub fn write_catalog(
    cfg: &DeclarativeConfig,
    out: &Path,
    format: Format,
) -> Result<Vec<PathBuf>, BundleError> {
    if out.exists() {
        let mut entries = std::fs::read_dir(out).map_err(|e| BundleError::io(out, e))?;
        if entries.next().is_some() {
            return Err(BundleError::Invalid(format!(
                "output dir {:?} must be empty",
                out.display().to_string()
            )));
        }
    }
    let ext = match format {
        Format::Json => "json",
        Format::Yaml => "yaml",
    };
    let mut per_pkg: BTreeMap<&str, DeclarativeConfig> = BTreeMap::new();
    for p in &cfg.packages {
        per_pkg.entry(&p.name).or_default().packages.push(p.clone());
    }
    for c in &cfg.channels {
        per_pkg
            .entry(&c.package)
            .or_default()
            .channels
            .push(c.clone());
    }
    for b in &cfg.bundles {
        per_pkg
            .entry(&b.package)
            .or_default()
            .bundles
            .push(b.clone());
    }
    let mut written = Vec::new();
    for pkg in per_pkg.keys() {
        let mut parts = Path::new(pkg).components();
        let single = matches!(
            (parts.next(), parts.next()),
            (Some(std::path::Component::Normal(_)), None)
        );
        if !single {
            return Err(BundleError::Invalid(format!(
                "package name {pkg:?} cannot be used as a directory name"
            )));
        }
    }
    for (pkg, sub) in per_pkg {
        let dir = out.join(pkg);
        std::fs::create_dir_all(&dir).map_err(|e| BundleError::io(&dir, e))?;
        let file = dir.join(format!("catalog.{ext}"));
        let f = std::fs::File::create(&file).map_err(|e| BundleError::io(&file, e))?;
        let mut w = std::io::BufWriter::new(f);
        write(&sub, format, &mut w).map_err(|e| BundleError::io(&file, e))?;
        w.flush().map_err(|e| BundleError::io(&file, e))?;
        written.push(file);
    }
    Ok(written)
}
