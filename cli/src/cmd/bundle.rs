//! `olmsat bundle validate|generate|init`

use std::io::Read;
use std::path::{Path, PathBuf};

use olmsat_graph::{
    find_bundles, generate_bundle, init_bundle, validate_bundle_dirs, BundleReport, DetectedBy,
    Diagnostic, GenerateOptions, InitOptions, InitSource as Source, MediaType, MANIFESTS,
};
use serde::Serialize;

use crate::args::{
    BundleGenerateArgs, BundleInitArgs, BundleValidateArgs, MediaTypeArg, ReportFormat,
};
use crate::output::{eprint_diagnostics, print_json, Exit, JsonDiagnostic};

/// A diagnostic as JSON: the shape `olmsat validate` uses, plus the column when known.
#[derive(Serialize)]
struct JsonBundleDiagnostic<'a> {
    #[serde(flatten)]
    base: JsonDiagnostic<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
}

impl<'a> From<&'a Diagnostic> for JsonBundleDiagnostic<'a> {
    fn from(d: &'a Diagnostic) -> Self {
        JsonBundleDiagnostic {
            base: d.into(),
            column: d.location.as_ref().map(|l| l.column).filter(|c| *c > 0),
        }
    }
}

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
    errors: Vec<JsonBundleDiagnostic<'a>>,
    warnings: Vec<JsonBundleDiagnostic<'a>>,
    bundles: Vec<JsonBundle<'a>>,
}

/// The bundle directories named by `dirs`: each one itself, or, for a directory
/// without `manifests/` that holds bundles below it, those bundles.
fn expand(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    for d in dirs {
        if d.is_dir() && !d.join(MANIFESTS).exists() {
            let found = find_bundles(d)?;
            if !found.is_empty() {
                out.extend(found);
                continue;
            }
        }
        out.push(d.clone());
    }
    Ok(out)
}

fn detected_from(r: &BundleReport) -> String {
    match &r.detection.source {
        DetectedBy::Annotation { key, location } => format!("annotation {key} at {location}"),
        DetectedBy::Layout(why) => format!("layout: {why}"),
    }
}

/// `olmsat bundle validate`
pub fn validate(args: &BundleValidateArgs) -> super::Outcome {
    let paths = expand(&args.dirs)?;
    let reports = validate_bundle_dirs(&paths)?;
    let passed = reports.iter().all(BundleReport::passed);
    match args.output {
        ReportFormat::Json => print_json(&JsonReport {
            passed,
            errors: reports
                .iter()
                .flat_map(|r| r.errors.iter().map(Into::into))
                .collect(),
            warnings: reports
                .iter()
                .flat_map(|r| r.warnings.iter().map(Into::into))
                .collect(),
            bundles: reports
                .iter()
                .map(|r| JsonBundle {
                    path: r.path.display().to_string(),
                    mediatype: r.detection.media_type.as_str(),
                    detected_from: detected_from(r),
                    package: r.package.as_deref(),
                    bundle: r.bundle.as_deref(),
                    passed: r.passed(),
                })
                .collect(),
        })?,
        ReportFormat::Text => {
            let (mut errors, mut warnings, mut invalid) = (0, 0, 0);
            for r in &reports {
                println!(
                    "{}: {} {}",
                    r.path.display(),
                    if r.passed() { "valid" } else { "invalid" },
                    r.detection.describe()
                );
                for d in r.errors.iter().chain(&r.warnings) {
                    println!("{d}");
                }
                errors += r.errors.len();
                warnings += r.warnings.len();
                invalid += usize::from(!r.passed());
            }
            println!(
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
        println!("copied {}", c.display());
    }
    if g.kept_existing {
        println!(
            "kept {} (it already holds these annotations)",
            g.annotations_file.display()
        );
    } else {
        println!("wrote {} ({})", g.annotations_file.display(), g.media_type);
    }
    println!("wrote {}", g.dockerfile.display());
    Ok(Exit::Ok.into())
}

/// `olmsat bundle init`
pub fn init(args: &BundleInitArgs) -> super::Outcome {
    let source = match args.src.as_deref() {
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
    println!(
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
        println!("wrote {}", w.display());
    }
    Ok(Exit::Ok.into())
}
