//! `olmsat render`'s arguments read into one catalog: catalog inputs of every
//! kind, bundle directories, and catalog and bundle images.

use std::path::PathBuf;

use olmsat_bundle::render::{migrate_to_csv_metadata, render, render_dir, ImageTemplate};
use olmsat_bundle::{BundleError, RenderOptions};
use olmsat_catalog::declcfg::DeclarativeConfig;
use olmsat_catalog::load::{load_sources, Options as LoadOptions};
use olmsat_findings::diagnostic::Diagnostic;
use olmsat_image::{ImageError, Kind};

use crate::{Input, InputError, Options};

/// What `render` read.
#[derive(Debug, Default)]
pub struct Rendered {
    /// Everything read, merged in the order given.
    pub config: DeclarativeConfig,
    /// Every problem found while reading (errors stop `render`).
    pub diagnostics: Vec<Diagnostic>,
    /// The warnings of rendering bundles (shown even when all is well;
    /// catalogs' load warnings are not).
    pub bundle_warnings: Vec<Diagnostic>,
    /// Notes on the reading (an image's platform, a bundle source with
    /// errors).
    pub notes: Vec<String>,
}

/// Why `render`'s arguments could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A catalog input could not be read (or a template did not render).
    #[error(transparent)]
    Input(#[from] InputError),
    /// An image could not be read.
    #[error(transparent)]
    Image(#[from] ImageError),
    /// A bundle directory could not be read.
    #[error(transparent)]
    Bundle(#[from] BundleError),
}

impl Rendered {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    fn bundle(&mut self, outcome: olmsat_bundle::render::RenderOutcome) {
        self.bundle_warnings.extend(
            outcome
                .diagnostics
                .iter()
                .filter(|d| !d.is_error())
                .cloned(),
        );
        self.diagnostics.extend(outcome.diagnostics);
        self.config.bundles.extend(outcome.bundle);
    }

    fn catalog(
        &mut self,
        mut config: DeclarativeConfig,
        diagnostics: Vec<Diagnostic>,
        opts: &RenderOptions,
    ) {
        if opts.csv_metadata {
            migrate_to_csv_metadata(&mut config);
        }
        self.diagnostics.extend(diagnostics);
        self.config.merge(config);
    }
}

/// Read `paths` as `olmsat render` does: an image reference or archive (a
/// bundle image's bundle rendered under the reference it was saved with, a
/// catalog image's catalog), a bundle directory (rendered), or any catalog
/// input ([`Input`]: directory, file, `-`, `git:`, a template).
pub fn render_args(
    paths: &[PathBuf],
    opts: &RenderOptions,
    options: &Options,
) -> Result<Rendered, RenderError> {
    let mut out = Rendered::default();
    for p in paths {
        let opened = p
            .to_str()
            .map(|t| olmsat_image::open_arg(t, &options.read.image));
        if let Some(img) = opened.transpose()?.flatten() {
            out.notes.extend(img.notes.iter().cloned());
            if let Kind::Bundle { .. } = img.kind {
                let dir = olmsat_bundle::image::read(&img)?;
                let mut opts = opts.clone();
                if opts.image_template.is_none() {
                    opts.image_template = Some(ImageTemplate::literal(&img.reference()));
                }
                out.bundle(render(&dir, &opts));
            } else {
                let sources = olmsat_catalog::load::image::sources(&img)?;
                let loaded = load_sources(sources, &LoadOptions::default());
                out.catalog(loaded.config, loaded.diagnostics, opts);
            }
        } else if p.as_os_str() != "-" && olmsat_bundle::is_bundle_dir(p) {
            out.bundle(render_dir(p, opts)?);
        } else {
            let files = Input::from_path(p)?.read(options)?;
            out.notes.extend(files.notes().iter().cloned());
            let (config, diagnostics) = files.into_parts();
            out.catalog(config, diagnostics, opts);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogs_are_merged_in_order_and_errors_kept() {
        let t = tempfile::tempdir().unwrap();
        let a = t.path().join("a.yaml");
        std::fs::write(&a, "schema: olm.package\nname: a\n").unwrap();
        let b = t.path().join("b.yaml");
        std::fs::write(&b, "schema: olm.package\nname: b\n---\nschema: [\n").unwrap();
        let r = render_args(
            std::slice::from_ref(&a),
            &RenderOptions::default(),
            &Options::default(),
        )
        .unwrap();
        assert!(!r.has_errors());
        assert_eq!(r.config.packages.len(), 1);
        let r = render_args(&[a, b], &RenderOptions::default(), &Options::default()).unwrap();
        assert!(r.has_errors(), "{:?}", r.diagnostics);
        assert_eq!(r.config.packages[0].name, "a");
    }
}
