//! `olmsat render`

use std::io::Write;

use olmsat_bundle::ImageTemplate;
use olmsat_bundle::RenderOptions;
use olmsat_catalog::write;
use olmsat_input::render::{render_args, RenderError};
use olmsat_input::InputError;

use crate::args::{MigrateLevel, RenderArgs};
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

/// Load the catalogs and render the bundle directories given, and write them
/// out as one catalog.
pub fn run(args: &RenderArgs, o: &olmsat_input::Options) -> super::Outcome {
    let opts = render_options(
        args.bundles.image_ref_template.as_deref(),
        args.bundles.migrate_level,
    )?;
    let rendered = match timed("read+parse", || render_args(&args.paths, &opts, o)) {
        Ok(r) => r,
        Err(RenderError::Input(InputError::Template(f))) => {
            return Ok(super::template::report(&f).into())
        }
        Err(e) => return Err(e.into()),
    };
    super::print_notes(&rendered.notes);
    if rendered.has_errors() {
        eprint_diagnostics(&rendered.diagnostics);
        return Ok(Exit::Invalid.into());
    }
    // Catalog load warnings are not shown on success; bundle warnings are.
    eprint_diagnostics(&rendered.bundle_warnings);
    let config = rendered.config;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    timed("write", || -> std::io::Result<()> {
        write(&config, args.output, &mut out)?;
        out.flush()
    })?;
    Ok(Exit::Ok.into())
}
