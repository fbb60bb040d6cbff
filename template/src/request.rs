//! `render-template`'s request as the command line gives it: `[TYPE] [FILE]`
//! (the type detected when omitted, standard input when no file or `-`), the
//! `--bundles-from` sources with an optional image reference template, and
//! the rendering options; [`Request::render`] answers it.
//!
//! ```
//! use olmsat_template::{request::Request, source::LookupOptions, Options};
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/templates/kairos-operator");
//! let args = ["semver".to_owned(), format!("{dir}/semver.yaml")];
//! let sources = [std::path::PathBuf::from(format!("{dir}/catalog"))];
//! // The committed catalog holds `olm.csv.metadata`: render with that migration.
//! let options = Options { lookup: LookupOptions { csv_metadata: true }, ..Options::default() };
//! let request = Request { args: &args, bundles_from: &sources, options, ..Request::default() };
//! let answer = request.render().expect("readable");
//! assert!(answer.source_errors.is_empty());
//! let rendered = answer.rendered.expect("rendered");
//! assert_eq!(rendered.config.packages[0].name, "kairos-operator");
//! ```

use std::path::{Path, PathBuf};

use olmsat_bundle::ImageTemplate;
use olmsat_catalog::load::{self, LoadError, ReadOptions};

use crate::error::{Failure, TemplateError};
use crate::source::{BundleSources, SourceErrors};
use crate::{render_text, Options, Rendered, TemplateKind};

/// What `render-template` was asked.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request<'a> {
    /// `[TYPE] [FILE]`.
    pub args: &'a [String],
    /// `--bundles-from`, in order.
    pub bundles_from: &'a [PathBuf],
    /// `--image-ref-template`, for bundle directory sources.
    pub image_ref_template: Option<&'a str>,
    /// How the sources are read (links, images).
    pub read: Option<&'a ReadOptions>,
    /// How to render.
    pub options: Options,
}

/// The answer to a [`Request`] whose template and sources could be read.
#[derive(Debug)]
pub struct Answer {
    /// Sources with load errors (their readable bundles were used), in order.
    pub source_errors: Vec<SourceErrors>,
    /// The rendered catalog, or opm's failure.
    pub rendered: Result<Rendered, Failure>,
}

/// Why a [`Request`] has no answer.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// More than `[TYPE] [FILE]`.
    #[error("render-template takes at most two arguments: [TYPE] [FILE]")]
    TooManyArguments,
    /// Standard input could not be read.
    #[error(transparent)]
    Stdin(#[from] LoadError),
    /// The template file could not be read.
    #[error("{file}: {source}")]
    Read {
        /// The file as named.
        file: String,
        /// Why.
        source: olmsat_io::ReadError,
    },
    /// The template is not UTF-8 text.
    #[error("{0}: not UTF-8 text")]
    NotUtf8(String),
    /// An unknown TYPE, or a source that cannot be opened (opm's words).
    #[error(transparent)]
    Failure(#[from] Failure),
}

impl Request<'_> {
    /// Read the template and the sources, and render.
    ///
    /// # Errors
    ///
    /// [`RequestError`] when the arguments, the template file or a source
    /// cannot be read; a template that does not render is the
    /// [`Answer::rendered`] failure.
    pub fn render(&self) -> Result<Answer, RequestError> {
        let (kind, file) = match self.args {
            [] => (None, None),
            [one] => match TemplateKind::from_name(one) {
                Some(k) => (Some(k), None),
                None => (None, Some(one.as_str())),
            },
            [t, f] => (
                Some(TemplateKind::parse(t).map_err(Failure::from)?),
                Some(f.as_str()),
            ),
            _ => return Err(RequestError::TooManyArguments),
        };
        let (name, text) = read_template(file)?;
        let (sources, source_errors) = self.open_sources()?;
        let rendered = render_text(&name, &text, kind, &sources, &self.options);
        Ok(Answer {
            source_errors,
            rendered,
        })
    }

    /// Open every `--bundles-from` source.
    fn open_sources(&self) -> Result<(BundleSources, Vec<SourceErrors>), Failure> {
        let image_template = self
            .image_ref_template
            .map(ImageTemplate::parse)
            .transpose()
            .map_err(|e| TemplateError::BundleDir {
                image: String::new(),
                error: e.to_string(),
            })?;
        let read = self.read.cloned().unwrap_or_default();
        Ok(BundleSources::open_all(
            self.bundles_from,
            image_template.as_ref(),
            &read,
        )?)
    }
}

/// The template's name (for locations) and text: `file` (a named pipe is
/// read as a stream, as every path named on the command line), or standard
/// input when it is `None` or `-`.
fn read_template(file: Option<&str>) -> Result<(String, String), RequestError> {
    let (name, bytes) = match file {
        None | Some("-") => ("<stdin>".to_owned(), load::read_stdin()?),
        Some(f) => (
            f.to_owned(),
            olmsat_io::read_named(Path::new(f), load::MAX_FILE_BYTES).map_err(|source| {
                RequestError::Read {
                    file: f.to_owned(),
                    source,
                }
            })?,
        ),
    };
    let text = String::from_utf8(bytes).map_err(|_| RequestError::NotUtf8(name.clone()))?;
    Ok((name, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn arguments_and_files() {
        let three = args(&["basic", "a", "b"]);
        let r = Request {
            args: &three,
            ..Request::default()
        };
        assert!(matches!(r.render(), Err(RequestError::TooManyArguments)));
        let bad_type = args(&["nope", "t.yaml"]);
        let r = Request {
            args: &bad_type,
            ..Request::default()
        };
        let Err(RequestError::Failure(f)) = r.render() else {
            panic!("an unknown type is opm's failure");
        };
        assert!(matches!(*f.error, TemplateError::InvalidType(_)));
        let missing = args(&["basic", "/nonexistent/template.yaml"]);
        let r = Request {
            args: &missing,
            ..Request::default()
        };
        let e = r.render().expect_err("missing file");
        assert!(
            e.to_string().starts_with("/nonexistent/template.yaml: "),
            "{e}"
        );
    }

    #[test]
    fn renders_with_sources_and_says_which_failed() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let template = dir.path().join("t.yaml");
        std::fs::write(
            &template,
            "schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: op\n",
        )
        .expect("written");
        let a = args(&[template.to_str().expect("UTF-8 path")]);
        let r = Request {
            args: &a,
            ..Request::default()
        };
        let answer = r.render().expect("read");
        assert!(answer.source_errors.is_empty());
        let rendered = answer.rendered.expect("rendered");
        assert_eq!(rendered.config.packages[0].name, "op");
        std::fs::write(&template, [0xff, 0xfe]).expect("written");
        assert!(matches!(r.render(), Err(RequestError::NotUtf8(_))));
    }
}
