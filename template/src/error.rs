//! Template errors, with opm's texts (`opm alpha render-template`), and where
//! in the template they arose.

use std::fmt;

use olmsat_encoding::location::Location;

/// Why the template type could not be detected from the first document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DetectError {
    /// The input is not YAML or JSON.
    #[error("decoding template input: {0}")]
    Decode(String),
    /// The document is not an object, or its `schema` is not a string.
    #[error("unmarshalling template schema: {0}")]
    Unmarshal(String),
    /// No `schema`.
    #[error("template input missing required 'schema' field")]
    MissingSchema,
    /// A schema no template type has.
    #[error("unknown template schema: {0}")]
    UnknownSchema(String),
}

/// Why the semver template's file could not be read (wrapped in
/// [`TemplateError::SemverRead`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SemverReadError {
    /// The input is not YAML or JSON.
    #[error("error converting YAML to JSON: {0}")]
    Decode(String),
    /// A key the template does not have (strict decoding).
    #[error("error unmarshaling JSON: while decoding JSON: json: unknown field {0:?}")]
    UnknownField(String),
    /// A value of the wrong type.
    #[error("error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {found} into Go struct field {field} of type {expected}")]
    Type {
        /// Go's name of the JSON type found.
        found: &'static str,
        /// `SemverTemplateData.<path>`.
        field: String,
        /// Go type expected.
        expected: &'static str,
    },
    /// The document is not an object.
    #[error("error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {0} into Go value of type semver.SemverTemplateData")]
    NotAnObject(&'static str),
    /// `schema` is not `olm.semver`.
    #[error("readFile: input file has unknown schema, should be \"olm.semver\"")]
    WrongSchema,
    /// The default channel preference names a kind of channel that is not generated.
    #[error("schema attribute mismatch: DefaultChannelTypePreference set to '{0}' doesn't make sense if not generating {0}-version channels")]
    Mismatch(&'static str),
    /// An unknown default channel preference.
    #[error("unknown DefaultChannelTypePreference: {0:?}\nValid values are 'major' or 'minor'")]
    UnknownPreference(String),
}

/// A problem with the bundles the semver template lists (wrapped in
/// [`TemplateError::PostProcess`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PostProcessError {
    /// No rendered bundle has the image.
    #[error("supplied bundle image name {0:?} not found in rendered bundle images")]
    NotFound(String),
    /// Not exactly one `olm.package` property.
    #[error("bundle {0:?} has multiple \"olm.package\" properties, expected exactly 1")]
    PackageProperties(String),
    /// The properties could not be read.
    #[error("parse properties for bundle {0:?}: {1}")]
    Properties(String, olmsat_catalog::property::PropertyError),
    /// The version is not strict semver.
    #[error("bundle {name:?} has invalid version {version:?}: {error}")]
    InvalidVersion {
        /// Bundle name.
        name: String,
        /// The version text.
        version: String,
        /// blang's error.
        error: String,
    },
    /// The bundle is of another package than the first one seen.
    #[error("bundle {bundle_package:?} does not belong to this package: {package:?}")]
    WrongPackage {
        /// The bundle's package.
        bundle_package: String,
        /// The template's package.
        package: String,
    },
    /// The same bundle twice in one archetype.
    #[error("duplicate bundle name {0:?}")]
    Duplicate(String),
    /// Versions equal but for build metadata, as `(version, version without build)`.
    #[error("encountered bundle versions which differ only by build metadata, which cannot be ordered: {}", aggregate(.0))]
    BuildMetadata(Vec<(String, String)>),
}

/// Kubernetes' error aggregate text: one message alone, several in brackets.
fn aggregate(pairs: &[(String, String)]) -> String {
    let msgs: Vec<String> = pairs
        .iter()
        .map(|(v, s)| format!("bundle version {v:?} cannot be compared to {s:?}"))
        .collect();
    match msgs.as_slice() {
        [one] => one.clone(),
        _ => format!("[{}]", msgs.join(", ")),
    }
}

/// A substitution that cannot be applied (wrapped in
/// [`TemplateError::Substitution`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubstitutionError {
    /// Empty `name`.
    #[error("substitution name cannot be empty")]
    EmptyName,
    /// Empty `base`.
    #[error("substitution base cannot be empty")]
    EmptyBase,
    /// `name` equals `base`.
    #[error("substitution name and base cannot be the same")]
    Same,
    /// The image could not be rendered.
    #[error("failed to render bundle image reference {0:?}: {1}")]
    Render(String, String),
    /// The image rendered to no bundle.
    #[error("rendered bundle image reference {0:?} contains no bundles")]
    NoBundles(String),
    /// No bundle is named `base`.
    #[error("base bundle {0:?} does not exist in catalog")]
    NoBase(String),
    /// The substitute is not newer than its base.
    #[error("base bundle {0:?} is not less than substitute bundle {1:?}")]
    NotLess(String, String),
    /// The result is no valid catalog.
    #[error("resulting config is not valid FBC: {0}")]
    Invalid(String),
}

/// Everything rendering a template can fail with. The texts are opm's; those
/// about offline lookup are olmsat's own (opm pulls images instead).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// `render-template TYPE` with an unknown TYPE.
    #[error("invalid template type {0:?}, must be one of: [basic semver substitutes]")]
    InvalidType(String),
    /// The type could not be detected.
    #[error("auto-detecting template type: {0}")]
    Detect(DetectError),
    /// Basic: the input is not YAML or JSON.
    #[error("decoding template schema: {0}")]
    BasicDecode(String),
    /// Basic: the document does not fit the template.
    #[error("unmarshalling template: {0}")]
    BasicUnmarshal(String),
    /// Basic: `schema` is not `olm.template.basic`.
    #[error("template has unknown schema ({0:?}), should be \"olm.template.basic\"")]
    BasicSchema(String),
    /// Basic: a bundle entry that is not a plain image reference.
    #[error("unexpected fields present in basic template bundle")]
    BasicBundleFields,
    /// An entry is not a valid catalog blob (the loader's text).
    #[error("{0}")]
    Entry(String),
    /// Semver: the file could not be read.
    #[error("render: unable to read file: {0}")]
    SemverRead(SemverReadError),
    /// Semver: an image gave several bundles (or none).
    #[error("bundle reference {image:?} resulted in {count} bundles, expected 1")]
    BundleCount {
        /// The image.
        image: String,
        /// How many bundles it gave.
        count: usize,
    },
    /// Semver: nothing to render.
    #[error("render: no bundles specified or no bundles could be rendered")]
    NoBundles,
    /// Semver: the listed bundles cannot make channels.
    #[error("render: unable to post-process bundle info: {0}")]
    PostProcess(PostProcessError),
    /// Substitutes: the input is not a substitutes template.
    #[error("render: unable to parse template: {0}")]
    SubstitutesParse(String),
    /// Substitutes: entries that do not load.
    #[error("render: unable to create declarative config from entries: {0}")]
    SubstitutesEntries(String),
    /// Substitutes: entries that do not make a valid catalog.
    #[error("render: entries are not valid FBC: {0}")]
    SubstitutesInvalid(String),
    /// Substitutes: a base named twice.
    #[error("render: cannot reuse the same substitution base {0:?}")]
    ReusedBase(String),
    /// Substitutes: one substitute for two bases.
    #[error(
        "render: cannot reuse the same substitution {0:?} for different bases ({1:?} and {2:?})"
    )]
    ReusedName(String, String, String),
    /// Substitutes: one substitution failed.
    #[error("render: error processing substitution {base:?} -> {name:?}: {error}")]
    Substitution {
        /// The base bundle.
        base: String,
        /// The substitute image.
        name: String,
        /// What went wrong.
        error: SubstitutionError,
    },
    /// No bundle source holds the image (olmsat's text).
    #[error("bundle image {image:?} not available offline (searched: {})", searched_text(.searched))]
    Unavailable {
        /// The image.
        image: String,
        /// The sources searched, in order.
        searched: Vec<String>,
    },
    /// The image's bundle has only `olm.csv.metadata`, which cannot become
    /// `olm.bundle.object`s again (olmsat's text).
    #[error("bundle image {0:?}: its source has olm.csv.metadata, which cannot be turned back into olm.bundle.object properties; render with --migrate-level bundle-object-to-csv-metadata")]
    CannotUnmigrate(String),
    /// A bundle directory source could not be read or rendered.
    #[error("bundle image {image:?}: {error}")]
    BundleDir {
        /// The image.
        image: String,
        /// What went wrong.
        error: String,
    },
    /// A `--bundles-from` source could not be opened.
    #[error("bundle source {path}: {error}")]
    Source {
        /// The source as named.
        path: String,
        /// What went wrong.
        error: SourceError,
    },
}

/// Why a `--bundles-from` source could not be opened. (Two are equal when
/// they say the same.)
#[derive(Debug, Clone, thiserror::Error)]
pub enum SourceError {
    /// Neither a path that exists nor an image reference.
    #[error("no such file or directory")]
    NotFound,
    /// The image could not be read.
    #[error(transparent)]
    Image(std::sync::Arc<olmsat_image::ImageError>),
    /// The catalog could not be loaded.
    #[error(transparent)]
    Catalog(std::sync::Arc<olmsat_catalog::load::LoadError>),
    /// A bundle image whose bundle does not render.
    #[error("{image}: {}", .errors.join("; "))]
    BundleImage {
        /// The image as named.
        image: String,
        /// The errors rendering its bundle.
        errors: Vec<String>,
    },
}

impl PartialEq for SourceError {
    fn eq(&self, other: &Self) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for SourceError {}

impl From<olmsat_image::ImageError> for SourceError {
    fn from(e: olmsat_image::ImageError) -> Self {
        SourceError::Image(e.into())
    }
}

impl From<olmsat_catalog::load::LoadError> for SourceError {
    fn from(e: olmsat_catalog::load::LoadError) -> Self {
        SourceError::Catalog(e.into())
    }
}

fn searched_text(s: &[String]) -> String {
    if s.is_empty() {
        "no --bundles-from source given".to_owned()
    } else {
        s.join(", ")
    }
}

impl TemplateError {
    /// Whether the input could not be read as a template at all, or a bundle
    /// could not be found (exit code 2), rather than being a template that
    /// does not render (exit code 1).
    pub fn is_unanswerable(&self) -> bool {
        matches!(
            self,
            TemplateError::InvalidType(_)
                | TemplateError::Detect(_)
                | TemplateError::BasicDecode(_)
                | TemplateError::BasicUnmarshal(_)
                | TemplateError::BasicSchema(_)
                | TemplateError::SubstitutesParse(_)
                | TemplateError::SemverRead(_)
                | TemplateError::Unavailable { .. }
                | TemplateError::CannotUnmigrate(_)
                | TemplateError::BundleDir { .. }
                | TemplateError::Source { .. }
        )
    }

    /// A hint on how to fix it, when there is one.
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            TemplateError::Unavailable { .. } => Some(
                "olmsat never pulls images: add a catalog or a bundle directory that holds this image with --bundles-from",
            ),
            _ => None,
        }
    }
}

/// A [`TemplateError`] and, when known, the template entry it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What went wrong (boxed: results stay small).
    pub error: Box<TemplateError>,
    /// The template file and line of the entry at fault.
    pub location: Option<Location>,
}

impl Failure {
    /// A failure at `location`.
    pub fn at(error: TemplateError, location: &Location) -> Failure {
        Failure {
            error: Box::new(error),
            location: Some(location.clone()),
        }
    }
}

impl From<TemplateError> for Failure {
    fn from(error: TemplateError) -> Failure {
        Failure {
            error: Box::new(error),
            location: None,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = &self.location {
            write!(f, "{l}: ")?;
        }
        write!(f, "{}", self.error)
    }
}

impl std::error::Error for Failure {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        assert_eq!(
            TemplateError::SemverRead(SemverReadError::Mismatch("minor")).to_string(),
            "render: unable to read file: schema attribute mismatch: DefaultChannelTypePreference set to 'minor' doesn't make sense if not generating minor-version channels"
        );
        assert_eq!(
            SemverReadError::UnknownPreference("foo".into()).to_string(),
            "unknown DefaultChannelTypePreference: \"foo\"\nValid values are 'major' or 'minor'"
        );
        let one = PostProcessError::BuildMetadata(vec![("1.0.0+a".into(), "1.0.0".into())]);
        assert_eq!(one.to_string(), "encountered bundle versions which differ only by build metadata, which cannot be ordered: bundle version \"1.0.0+a\" cannot be compared to \"1.0.0\"");
        let two = PostProcessError::BuildMetadata(vec![
            ("1.0.0+a".into(), "1.0.0".into()),
            ("2.0.0+b".into(), "2.0.0".into()),
        ]);
        assert!(two.to_string().ends_with(": [bundle version \"1.0.0+a\" cannot be compared to \"1.0.0\", bundle version \"2.0.0+b\" cannot be compared to \"2.0.0\"]"));
        assert_eq!(
            TemplateError::InvalidType("composite".into()).to_string(),
            "invalid template type \"composite\", must be one of: [basic semver substitutes]"
        );
    }
}
