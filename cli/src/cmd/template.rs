//! `olmsat render-template` and `olmsat convert-template`, and reading an
//! explicitly named template file where a catalog is expected (`path`,
//! `graph`, `validate`).

use std::io::Write;

use olmsat_catalog::write;
use olmsat_catalog::CatalogFiles;
use olmsat_catalog::Format;
use olmsat_graph::draw;
use olmsat_graph::DrawFormat;
use olmsat_graph::DrawOptions;
use olmsat_graph::Drawing;
use olmsat_template::error::{Failure, TemplateError};
use olmsat_template::request::{Request, RequestError};
use olmsat_template::source::LookupOptions;
use olmsat_template::{self as template, Options};

use crate::args::{
    ConvertTemplateArgs, MigrateLevel, RenderFormat, RenderTemplateArgs, SemverLinking,
};
use crate::output::{eprint_diagnostics, print_json, print_yaml, Exit};

/// Print a template failure as opm words it (render errors wrapped in
/// `rendering template:`), with its location and hint.
pub fn report(f: &Failure) -> Exit {
    let prefix = match *f.error {
        TemplateError::InvalidType(_) | TemplateError::Detect(_) => "",
        _ => "rendering template: ",
    };
    match &f.location {
        Some(l) => errln!("olmsat: {l}: {prefix}{}", f.error),
        None => errln!("olmsat: {prefix}{}", f.error),
    }
    if let Some(h) = f.error.hint() {
        errln!("  hint: {h}");
    }
    if f.error.is_unanswerable() {
        Exit::Usage
    } else {
        Exit::Invalid
    }
}

/// `olmsat render-template [TYPE] [FILE]`.
pub fn render(args: &RenderTemplateArgs, o: &olmsat_input::Options) -> super::Outcome {
    if !matches!(args.output.as_str(), "json" | "yaml" | "mermaid") {
        errln!(
            "olmsat: invalid --output value {:?}, expected (json|yaml|mermaid)",
            args.output
        );
        return Ok(Exit::Usage.into());
    }
    let request = Request {
        args: &args.args,
        bundles_from: &o.bundles_from,
        image_ref_template: args.image_ref_template.as_deref(),
        read: Some(&o.read),
        options: Options {
            lookup: LookupOptions {
                csv_metadata: args.migrate_level == MigrateLevel::BundleObjectToCsvMetadata,
            },
            linking: match args.semver_linking {
                SemverLinking::Edge => template::Linking::EdgeScoped,
                SemverLinking::Legacy => template::Linking::Legacy,
            },
        },
    };
    let answer = match request.render() {
        Ok(answer) => answer,
        Err(RequestError::Failure(f)) => return Ok(report(&f).into()),
        Err(e) => return Err(e.into()),
    };
    for (p, errors) in &answer.source_errors {
        errln!(
            "olmsat: warning: bundle source {} has load errors; its readable bundles are used:",
            p.display()
        );
        eprint_diagnostics(errors);
    }
    let rendered = match answer.rendered {
        Ok(r) => r,
        Err(f) => return Ok(report(&f).into()),
    };
    eprint_diagnostics(&rendered.warnings);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let files = CatalogFiles::from_rendered(rendered.config, Vec::new());
    match args.output.as_str() {
        "yaml" => write(files.config(), Format::Yaml, &mut out)?,
        "json" => write(files.config(), Format::Json, &mut out)?,
        _ => {}
    }
    let validation = files.validate();
    if args.output == "mermaid" {
        let drawing = Drawing::new(validation.model(), &DrawOptions::default())?;
        draw(&drawing, DrawFormat::Mermaid, &mut out)?;
    }
    out.flush()?;
    if args.no_validate {
        return Ok(Exit::Ok.into());
    }
    let report = validation.report();
    let findings = args
        .controls
        .policy()?
        .apply(report.errors.iter().chain(&report.warnings).cloned());
    for d in findings.errors().chain(findings.warnings()) {
        errln!("{d}");
    }
    Ok(if findings.passed() {
        Exit::Ok
    } else {
        Exit::Invalid
    }
    .into())
}

/// `olmsat convert-template basic CATALOG`: the catalog as a basic template.
pub fn convert(args: &ConvertTemplateArgs, o: &olmsat_input::Options) -> super::Outcome {
    if args.kind != "basic" {
        let kind = &args.kind;
        errln!("olmsat: convert-template supports one template type: basic (not {kind:?})");
        return Ok(Exit::Usage.into());
    }
    let input = olmsat_input::Input::from_path(&args.path)?;
    let loaded = match super::load_input(&input, o)? {
        Ok(loaded) => loaded,
        Err(exit) => return Ok(exit.into()),
    };
    if loaded.has_errors() {
        eprint_diagnostics(&loaded.diagnostics);
        return Ok(Exit::Usage.into());
    }
    let t = template::basic::from_catalog(&loaded.config)?;
    match args.output {
        RenderFormat::Json => print_json(&t)?,
        RenderFormat::Yaml => print_yaml(&t)?,
    }
    Ok(Exit::Ok.into())
}
