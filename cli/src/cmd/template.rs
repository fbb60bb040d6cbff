//! `olmsat render-template` and `olmsat convert-template`, and reading an
//! explicitly named template file where a catalog is expected (`path`,
//! `graph`, `validate`).

use std::io::Write;
use std::path::{Path, PathBuf};

use olmsat_bundle::ImageTemplate;
use olmsat_catalog::load;
use olmsat_catalog::write;
use olmsat_catalog::CatalogFiles;
use olmsat_catalog::Format;
use olmsat_graph::draw;
use olmsat_graph::DrawFormat;
use olmsat_graph::DrawOptions;
use olmsat_graph::Drawing;
use olmsat_template::error::{Failure, TemplateError};
use olmsat_template::source::{BundleSources, LookupOptions};
use olmsat_template::{self as template, Options, TemplateKind};

use crate::args::{
    ConvertTemplateArgs, MigrateLevel, RenderFormat, RenderTemplateArgs, SemverLinking,
};
use crate::output::{eprint_diagnostics, Exit};
use crate::process::Finished;

/// What `render-template` was asked.
pub struct RenderRequest<'a> {
    /// `[TYPE] [FILE]`.
    pub args: &'a [String],
    /// `--bundles-from`, in order.
    pub bundles_from: &'a [PathBuf],
    /// `--image-ref-template` for bundle directory sources.
    pub image_ref_template: Option<&'a str>,
    /// `-o`: json, yaml or mermaid.
    pub output: &'a str,
    /// `--migrate-level`.
    pub migrate_level: MigrateLevel,
    /// `--no-validate`.
    pub no_validate: bool,
    /// `--semver-linking`.
    pub linking: template::Linking,
    /// `--strict`, `--allow`, `--deny`, `--config`.
    pub controls: &'a crate::report_args::PolicyArgs,
    /// How sources are read (links, images).
    pub read: &'a olmsat_input::ReadOptions,
}

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

/// Open every `--bundles-from` source; catalog load problems are printed.
fn open_sources(
    paths: &[PathBuf],
    image_ref_template: Option<&str>,
    read: &olmsat_input::ReadOptions,
) -> Result<BundleSources, Failure> {
    let t = image_ref_template
        .map(ImageTemplate::parse)
        .transpose()
        .map_err(|e| {
            Failure::from(TemplateError::BundleDir {
                image: String::new(),
                error: e.to_string(),
            })
        })?;
    let (sources, with_errors) = BundleSources::open_all(paths, t.as_ref(), read)?;
    for (p, errors) in with_errors {
        errln!(
            "olmsat: warning: bundle source {} has load errors; its readable bundles are used:",
            p.display()
        );
        eprint_diagnostics(&errors);
    }
    Ok(sources)
}

fn read_input(file: Option<&str>) -> Result<(String, String), Box<dyn std::error::Error>> {
    let (name, bytes) = match file {
        None | Some("-") => ("<stdin>".to_owned(), load::read_stdin()?),
        Some(f) => (
            f.to_owned(),
            olmsat_io::read_file(Path::new(f), load::MAX_FILE_BYTES)
                .map_err(|e| format!("{f}: {e}"))?,
        ),
    };
    let text = String::from_utf8(bytes).map_err(|_| format!("{name}: not UTF-8 text"))?;
    Ok((name, text))
}

/// `olmsat render-template [TYPE] [FILE]`.
pub fn render(args: &RenderTemplateArgs, o: &olmsat_input::Options) -> super::Outcome {
    let req = RenderRequest {
        args: &args.args,
        bundles_from: &o.bundles_from,
        read: &o.read,
        image_ref_template: args.image_ref_template.as_deref(),
        output: &args.output,
        migrate_level: args.migrate_level,
        no_validate: args.no_validate,
        linking: match args.semver_linking {
            SemverLinking::Edge => template::Linking::EdgeScoped,
            SemverLinking::Legacy => template::Linking::Legacy,
        },
        controls: &args.controls,
    };
    render_request(&req).map(Finished::new)
}

/// Render as `req` asks.
fn render_request(req: &RenderRequest<'_>) -> Result<Exit, Box<dyn std::error::Error>> {
    if !matches!(req.output, "json" | "yaml" | "mermaid") {
        errln!(
            "olmsat: invalid --output value {:?}, expected (json|yaml|mermaid)",
            req.output
        );
        return Ok(Exit::Usage);
    }
    let (kind, file) = match req.args {
        [] => (None, None),
        [one] => match TemplateKind::from_name(one) {
            Some(k) => (Some(k), None),
            None => (None, Some(one.as_str())),
        },
        [t, f] => match TemplateKind::parse(t) {
            Ok(k) => (Some(k), Some(f.as_str())),
            Err(e) => return Ok(report(&e.into())),
        },
        _ => return Err("render-template takes at most two arguments: [TYPE] [FILE]".into()),
    };
    let (name, text) = read_input(file)?;
    let sources = match open_sources(req.bundles_from, req.image_ref_template, req.read) {
        Ok(s) => s,
        Err(f) => return Ok(report(&f)),
    };
    let opts = Options {
        lookup: LookupOptions {
            csv_metadata: req.migrate_level == MigrateLevel::BundleObjectToCsvMetadata,
        },
        linking: req.linking,
    };
    let rendered = match template::render_text(&name, &text, kind, &sources, &opts) {
        Ok(r) => r,
        Err(f) => return Ok(report(&f)),
    };
    eprint_diagnostics(&rendered.warnings);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let files = CatalogFiles::from_rendered(rendered.config, Vec::new());
    let validation = if req.output == "mermaid" {
        let validation = files.validate();
        let drawing = Drawing::new(validation.model(), &DrawOptions::default())?;
        draw(&drawing, DrawFormat::Mermaid, &mut out)?;
        validation
    } else {
        let format = if req.output == "yaml" {
            Format::Yaml
        } else {
            Format::Json
        };
        write(files.config(), format, &mut out)?;
        files.validate()
    };
    out.flush()?;
    if req.no_validate {
        return Ok(Exit::Ok);
    }
    let report = validation.report();
    let findings = req
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
    })
}

/// `olmsat convert-template basic CATALOG`: the catalog as a basic template.
pub fn convert(args: &ConvertTemplateArgs, o: &olmsat_input::Options) -> super::Outcome {
    convert_catalog(&args.kind, &args.path, args.output, o).map(Finished::new)
}

fn convert_catalog(
    kind: &str,
    path: &Path,
    format: RenderFormat,
    o: &olmsat_input::Options,
) -> Result<Exit, Box<dyn std::error::Error>> {
    if kind != "basic" {
        errln!("olmsat: convert-template supports one template type: basic (not {kind:?})");
        return Ok(Exit::Usage);
    }
    let input = olmsat_input::Input::from_path(path)?;
    let loaded = match super::load_input(&input, o)? {
        Ok(loaded) => loaded,
        Err(exit) => return Ok(exit),
    };
    if loaded.has_errors() {
        eprint_diagnostics(&loaded.diagnostics);
        return Ok(Exit::Usage);
    }
    let t = template::basic::from_catalog(&loaded.config)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match format {
        RenderFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &t)?;
            out.write_all(b"\n")?;
        }
        RenderFormat::Yaml => {
            out.write_all(olmsat_findings::report::format::yaml(&t)?.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(Exit::Ok)
}
