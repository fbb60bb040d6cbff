//! `olmsat bundle validate|generate|init`

use std::io::Read;
use std::path::{Path, PathBuf};

use olmsat_bundle::find_bundles;
use olmsat_bundle::generate_bundle;
use olmsat_bundle::init_bundle;
use olmsat_bundle::validate_bundle_dirs;
use olmsat_bundle::BundleReport;
use olmsat_bundle::DetectedBy;
use olmsat_bundle::GenerateOptions;
use olmsat_bundle::InitOptions;
use olmsat_bundle::InitSource as Source;
use olmsat_bundle::MediaType;
use olmsat_bundle::MANIFESTS;
use serde::Serialize;

use olmsat_bundle::validate_bundle;
use olmsat_findings::report::{Findings, Format};
use olmsat_image as image;

use crate::args::{BundleGenerateArgs, BundleInitArgs, BundleValidateArgs, MediaTypeArg};
use crate::output::{
    eprint_diagnostics, print_finding_lines, print_json, print_sarif, print_yaml, Exit,
    JsonDiagnostic,
};

#[derive(Serialize)]
struct JsonBundle<'a> {
    path: String,
    mediatype: &'static str,
    #[serde(rename = "detectedFrom")]
    detected_from: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    package: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bundle: Option<&'a str>,
    passed: bool,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    passed: bool,
    errors: Vec<JsonDiagnostic<'a>>,
    warnings: Vec<JsonDiagnostic<'a>>,
    bundles: Vec<JsonBundle<'a>>,
}

/// The bundle directories named by `dirs`: each one itself, or, for a directory
/// without `manifests/` that holds bundles below it, those bundles.
fn expand(
    dirs: &[PathBuf],
    several: bool,
    follow_links: bool,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    for d in dirs {
        // Files among several arguments (a shell glob over a bundle tree):
        // skipped with a note. A lone file, or a path that does not exist, is
        // still an error.
        if several && d.exists() && !d.is_dir() {
            errln!(
                "olmsat: note: skipped {}: not a directory (bundle validate takes bundle directories)",
                d.display()
            );
            continue;
        }
        if d.is_dir() && !d.join(MANIFESTS).exists() {
            let found = find_bundles(d, follow_links)?;
            for skipped in &found.skipped {
                errln!("olmsat: note: {skipped}");
            }
            if !found.dirs.is_empty() {
                out.extend(found.dirs);
                continue;
            }
        }
        out.push(d.clone());
    }
    Ok(out)
}

/// Validate a bundle image: its bundle directory, and its labels against its
/// annotations.
fn validate_image(image: &image::Image) -> Result<BundleReport, image::ImageError> {
    let dir = olmsat_bundle::image::read(image)?;
    let mut report = validate_bundle(&dir);
    let (errors, warnings): (Vec<_>, Vec<_>) = olmsat_bundle::image::label_mismatches(image, &dir)
        .into_iter()
        .partition(|d| d.is_error());
    report.errors.extend(errors);
    report.warnings.extend(warnings);
    Ok(report)
}

fn detected_from(r: &BundleReport) -> String {
    match &r.detection.source {
        DetectedBy::Annotation { key, location } => format!("annotation {key} at {location}"),
        DetectedBy::Layout(why) => format!("layout: {why}"),
    }
}

/// `olmsat bundle validate`
pub fn validate(cmd: &BundleValidateArgs, o: &olmsat_input::Options) -> super::Outcome {
    let args = &cmd.report;
    let policy = args.policy()?;
    // Each argument: a bundle image, or the bundle directories it holds.
    enum Work {
        Image(Box<image::Image>),
        Dirs(Vec<PathBuf>),
    }
    let several = cmd.dirs.len() > 1;
    let mut work = Vec::new();
    for d in &cmd.dirs {
        let opened = d.to_str().map(|t| image::open_arg(t, &o.read.image));
        match opened.transpose()?.flatten() {
            Some(image) => {
                super::print_notes(&image.notes);
                work.push(Work::Image(Box::new(image)))
            }
            None => work.push(Work::Dirs(expand(
                std::slice::from_ref(d),
                several,
                o.read.follow_links,
            )?)),
        }
    }
    let count: usize = work
        .iter()
        .map(|w| match w {
            Work::Image(_) => 1,
            Work::Dirs(d) => d.len(),
        })
        .sum();
    let spinner = crate::progress::Progress::start(
        &format!("validating {count} bundle(s)"),
        args.format() == Format::Text,
    );
    let mut reports = Vec::new();
    for w in work {
        match w {
            Work::Image(image) => reports.push(validate_image(&image)?),
            Work::Dirs(paths) => reports.extend(validate_bundle_dirs(&paths)?),
        }
    }
    drop(spinner);
    // Each bundle's findings after the policy, in the bundles' order.
    let findings: Vec<Findings> = reports
        .iter()
        .map(|r| policy.apply(r.errors.iter().chain(&r.warnings).cloned()))
        .collect();
    let passed = findings.iter().all(Findings::passed);
    let all_errors = || findings.iter().flat_map(Findings::errors);
    let all_warnings = || findings.iter().flat_map(Findings::warnings);
    let json = || JsonReport {
        passed,
        errors: all_errors().map(Into::into).collect(),
        warnings: all_warnings().map(Into::into).collect(),
        bundles: reports
            .iter()
            .zip(&findings)
            .map(|(r, f)| JsonBundle {
                path: r.path.display().to_string(),
                mediatype: r.detection.media_type.as_str(),
                detected_from: detected_from(r),
                package: r.package.as_deref(),
                bundle: r.bundle.as_deref(),
                passed: f.passed(),
            })
            .collect(),
    };
    let format = args.format();
    match format {
        Format::Json => print_json(&json())?,
        Format::Yaml => print_yaml(&json())?,
        Format::Sarif => print_sarif(
            &findings
                .iter()
                .flat_map(|f| f.errors().chain(f.warnings()))
                .cloned()
                .collect::<Vec<_>>(),
        )?,
        Format::Short | Format::Github => {
            print_finding_lines(
                format,
                args.color(),
                findings.iter().flat_map(|f| f.errors().chain(f.warnings())),
            )?;
        }
        Format::Text => {
            let color = args.color();
            let (mut errors, mut warnings, mut invalid) = (0, 0, 0);
            for (r, f) in reports.iter().zip(&findings) {
                outln!(
                    "{}: {} {}",
                    r.path.display(),
                    if f.passed() { "valid" } else { "invalid" },
                    r.detection.describe()
                );
                print_finding_lines(format, color, f.errors().chain(f.warnings()))?;
                errors += f.errors().count();
                warnings += f.warnings().count();
                invalid += usize::from(!f.passed());
            }
            outln!(
                "{}: {} bundle(s), {} valid, {invalid} invalid; {errors} error(s), {warnings} warning(s)",
                if passed { "valid" } else { "invalid" },
                reports.len(),
                reports.len() - invalid
            );
        }
    }
    Ok(if passed { Exit::Ok } else { Exit::Invalid }.into())
}

/// `olmsat bundle generate`
pub fn generate(args: &BundleGenerateArgs) -> super::Outcome {
    let g = generate_bundle(&GenerateOptions {
        directory: args.directory.clone(),
        package: args.package.clone(),
        channels: args.channels.clone(),
        default_channel: args.default_channel.clone(),
        output_dir: args.output_dir.clone(),
        overwrite: args.overwrite,
    })?;
    eprint_diagnostics(&g.warnings);
    for c in &g.copied {
        outln!("copied {}", c.display());
    }
    if g.kept_existing {
        outln!(
            "kept {} (it already holds these annotations)",
            g.annotations_file.display()
        );
    } else {
        outln!("wrote {} ({})", g.annotations_file.display(), g.media_type);
    }
    outln!("wrote {}", g.dockerfile.display());
    Ok(Exit::Ok.into())
}

/// `olmsat bundle init`
pub fn init(args: &BundleInitArgs) -> super::Outcome {
    if let (Some(src), Some(dir)) = (&args.dir, &args.old_second) {
        return Err(crate::args::OldSpelling {
            old: "bundle init SRC DIR",
            hint: format!(
                "write olmsat bundle init {} --from {}",
                dir.display(),
                src.display()
            ),
        }
        .into());
    }
    let source = match args.from.as_deref() {
        None => Source::None,
        Some("-") => {
            let mut text = String::new();
            std::io::stdin().lock().read_to_string(&mut text)?;
            Source::Stream(text)
        }
        Some(p) => {
            let path = Path::new(p);
            // An empty source directory means "generate defaults".
            let empty = std::fs::read_dir(path)
                .map(|mut e| e.next().is_none())
                .unwrap_or(false);
            if empty {
                Source::None
            } else {
                Source::Dir(path.to_path_buf())
            }
        }
    };
    let r = init_bundle(&InitOptions {
        media_type: args.mediatype.map(|m| match m {
            MediaTypeArg::RegistryV1 => MediaType::RegistryV1,
            MediaTypeArg::RegistryV2 => MediaType::RegistryV2,
            MediaTypeArg::PlainV0 => MediaType::PlainV0,
        }),
        source,
        dir: args.dir.clone().unwrap_or_else(|| PathBuf::from(".")),
        package: args.package.clone(),
        channels: args.channels.clone(),
        dockerfile: args.dockerfile,
    })?;
    eprint_diagnostics(&r.warnings);
    outln!(
        "initialised a {} bundle{} for package {:?}",
        r.media_type,
        if r.inferred {
            " (format inferred from the manifests)"
        } else {
            ""
        },
        r.package
    );
    for w in &r.written {
        outln!("wrote {}", w.display());
    }
    Ok(Exit::Ok.into())
}
