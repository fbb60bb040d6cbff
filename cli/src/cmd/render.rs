//! `olmsat render`

use std::io::Write;

use olmsat_bundle::is_bundle_dir;
use olmsat_bundle::migrate_to_csv_metadata;
use olmsat_bundle::render_bundle_dir;
use olmsat_bundle::ImageTemplate;
use olmsat_bundle::RenderOptions;
use olmsat_catalog::write;
use olmsat_catalog::DeclarativeConfig;
use olmsat_catalog::Diagnostic;
use olmsat_catalog::Format;

use olmsat_bundle::render_bundle;
use olmsat_catalog::load::load_sources;
use olmsat_image as image;

use crate::args::{MigrateLevel, RenderArgs, RenderFormat};
use crate::output::{eprint_diagnostics, Exit};
use crate::timings::timed;

/// Render options from the command line.
pub fn render_options(
    image_ref_template: Option<&str>,
    migrate_level: MigrateLevel,
) -> Result<RenderOptions, Box<dyn std::error::Error>> {
    Ok(RenderOptions {
        image_template: image_ref_template.map(ImageTemplate::parse).transpose()?,
        csv_metadata: migrate_level == MigrateLevel::BundleObjectToCsvMetadata,
    })
}

/// The catalog file format.
pub fn format(format: RenderFormat) -> Format {
    match format {
        RenderFormat::Json => Format::Json,
        RenderFormat::Yaml => Format::Yaml,
    }
}

/// Load the catalogs and render the bundle directories given, and write them
/// out as one catalog.
pub fn run(args: &RenderArgs, o: &olmsat_input::Options) -> super::Outcome {
    let opts = render_options(
        args.bundles.image_ref_template.as_deref(),
        args.bundles.migrate_level,
    )?;
    let mut config = DeclarativeConfig::default();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut bundle_warnings: Vec<Diagnostic> = Vec::new();
    for p in &args.paths {
        let opened = p.to_str().map(|t| image::open_arg(t, &o.read.image));
        if let Some(img) = opened.transpose()?.flatten() {
            super::print_notes(&img.notes);
            if let image::Kind::Bundle { .. } = img.kind {
                let dir = olmsat_bundle::image::read(&img)?;
                let mut opts = opts.clone();
                if opts.image_template.is_none() {
                    opts.image_template = Some(ImageTemplate::literal(&img.reference()));
                }
                let outcome = render_bundle(&dir, &opts);
                bundle_warnings.extend(
                    outcome
                        .diagnostics
                        .iter()
                        .filter(|d| !d.is_error())
                        .cloned(),
                );
                diags.extend(outcome.diagnostics);
                config.bundles.extend(outcome.bundle);
            } else {
                let sources = olmsat_catalog::load::image::sources(&img)?;
                let loaded = timed("read+parse", || {
                    load_sources(sources, &olmsat_catalog::load::Options::default())
                });
                let mut read = loaded.config;
                if opts.csv_metadata {
                    migrate_to_csv_metadata(&mut read);
                }
                diags.extend(loaded.diagnostics);
                config.merge(read);
            }
        } else if p.as_os_str() != "-" && is_bundle_dir(p) {
            let outcome = render_bundle_dir(p, &opts)?;
            bundle_warnings.extend(
                outcome
                    .diagnostics
                    .iter()
                    .filter(|d| !d.is_error())
                    .cloned(),
            );
            diags.extend(outcome.diagnostics);
            config.bundles.extend(outcome.bundle);
        } else {
            let input = olmsat_input::Input::from_path(p)?;
            let files = match timed("read+parse", || super::read_input(&input, None, o))? {
                Ok(files) => files,
                Err(exit) => return Ok(exit.into()),
            };
            let (mut read, mut read_diags) = files.into_parts();
            if opts.csv_metadata {
                migrate_to_csv_metadata(&mut read);
            }
            diags.append(&mut read_diags);
            config.merge(read);
        }
    }
    if diags.iter().any(Diagnostic::is_error) {
        eprint_diagnostics(&diags);
        return Ok(Exit::Invalid.into());
    }
    // Catalog load warnings are not shown on success; bundle warnings are.
    eprint_diagnostics(&bundle_warnings);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    timed("write", || -> std::io::Result<()> {
        write(&config, format(args.output), &mut out)?;
        out.flush()
    })?;
    Ok(Exit::Ok.into())
}
