//! `olmsat bundle validate|generate|init`

use std::path::PathBuf;

use olmsat_bundle::generate_bundle;
use olmsat_bundle::init_bundle;
use olmsat_bundle::validate::{Target, Targets, ValidationDocument};
use olmsat_bundle::GenerateOptions;
use olmsat_bundle::InitOptions;
use olmsat_bundle::InitSource as Source;
use olmsat_findings::report::{Findings, Format};

use crate::args::{BundleGenerateArgs, BundleInitArgs, BundleValidateArgs};
use crate::output::{
    eprint_diagnostics, print_finding_lines, print_json, print_sarif, print_yaml, Exit,
};

/// `olmsat bundle validate`
pub fn validate(cmd: &BundleValidateArgs, o: &olmsat_input::Options) -> super::Outcome {
    let args = &cmd.report;
    let policy = args.policy()?;
    let targets = Targets::read(&cmd.dirs, &o.read)?;
    for t in &targets.targets {
        if let Target::Image(image) = t {
            super::print_notes(&image.notes);
        }
    }
    for note in &targets.notes {
        errln!("olmsat: note: {note}");
    }
    let spinner = crate::progress::Progress::start(
        &format!("validating {} bundle(s)", targets.count()),
        args.format() == Format::Text,
    );
    let reports = targets.validate()?;
    drop(spinner);
    // Each bundle's findings after the policy, in the bundles' order.
    let findings: Vec<Findings> = reports
        .iter()
        .map(|r| policy.apply(r.errors.iter().chain(&r.warnings).cloned()))
        .collect();
    let passed = findings.iter().all(Findings::passed);
    let all = || findings.iter().flat_map(|f| f.errors().chain(f.warnings()));
    let format = args.format();
    match format {
        Format::Json => print_json(&ValidationDocument::new(&reports, &findings))?,
        Format::Yaml => print_yaml(&ValidationDocument::new(&reports, &findings))?,
        Format::Sarif => print_sarif(&all().cloned().collect::<Vec<_>>())?,
        Format::Short | Format::Github => {
            print_finding_lines(format, args.color(), all())?;
        }
        Format::Text => print!(
            "{}",
            olmsat_bundle::validate::text(&reports, &findings, args.color())
        ),
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
    let source = Source::from_arg(args.from.as_deref())?;
    let r = init_bundle(&InitOptions {
        media_type: args.mediatype,
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
