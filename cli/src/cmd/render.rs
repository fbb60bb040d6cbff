//! `olmsat render`

use std::io::Write;
use std::path::PathBuf;

use olmsat_graph::bundle::read::is_bundle_dir;
use olmsat_graph::bundle::render::{
    migrate_to_csv_metadata, render_dir, ImageTemplate, RenderOptions,
};
use olmsat_graph::write::{write, Format};
use olmsat_graph::{load, DeclarativeConfig, Diagnostic};

use crate::output::{eprint_diagnostics, Exit};
use crate::{MigrateLevel, RenderFormat};

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

/// Load the catalogs and render the bundle directories at `paths`, and write them
/// out as one catalog.
pub fn run(
    paths: &[PathBuf],
    format: RenderFormat,
    image_ref_template: Option<&str>,
    migrate_level: MigrateLevel,
) -> Result<Exit, Box<dyn std::error::Error>> {
    let opts = render_options(image_ref_template, migrate_level)?;
    let mut config = DeclarativeConfig::default();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut bundle_warnings: Vec<Diagnostic> = Vec::new();
    for p in paths {
        if p.as_os_str() != "-" && is_bundle_dir(p) {
            let outcome = render_dir(p, &opts)?;
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
            crate::memory::fit_to_input([p.as_ref()]);
            let mut loaded = crate::output::timed("read+parse", || load::load_path(p))?;
            if opts.csv_metadata {
                migrate_to_csv_metadata(&mut loaded.config);
            }
            diags.append(&mut loaded.diagnostics);
            config.merge(loaded.config);
        }
    }
    if diags.iter().any(Diagnostic::is_error) {
        eprint_diagnostics(&diags);
        return Ok(Exit::Invalid);
    }
    // Catalog load warnings are not shown on success; bundle warnings are.
    eprint_diagnostics(&bundle_warnings);
    let format = match format {
        RenderFormat::Json => Format::Json,
        RenderFormat::Yaml => Format::Yaml,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    crate::output::timed("write", || -> std::io::Result<()> {
        write(&config, format, &mut out)?;
        out.flush()
    })?;
    Ok(Exit::Ok)
}
