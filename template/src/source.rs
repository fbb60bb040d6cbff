//! Offline bundle lookup: where the bundle behind a template's image reference
//! comes from, since olmsat never pulls images.
//!
//! Sources are tried in order ([`BundleSources`]):
//! - a file-based catalog ([`CatalogSource`]): the `olm.bundle`s whose `image`
//!   equals the reference byte for byte; failing that, those whose image has the
//!   same repository and the same `@sha256:` digest;
//! - registry+v1 bundle directories ([`BundleDirSource`]), matched through an
//!   `images.yaml` at the source's root (`<image>: <relative path>` lines) or an
//!   image reference template, rendered by [`olmsat_bundle::render`] with the
//!   reference as their image.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{SourceError, TemplateError};
use olmsat_bundle::read::{find_bundles, is_bundle_dir};
use olmsat_bundle::render::{migrate_to_csv_metadata, render_dir, ImageTemplate, RenderOptions};
use olmsat_catalog::declcfg::{Bundle, DeclarativeConfig};
use olmsat_catalog::load::ReadOptions;
use olmsat_catalog::property::types;
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};

/// Somewhere bundles can be found by image reference.
pub trait BundleSource: Send + Sync {
    /// How the source is named in messages (its path).
    fn describe(&self) -> String;
    /// The bundles this source has for `image`; `None` when it has none.
    fn lookup(&self, image: &str) -> Result<Option<Vec<Bundle>>, TemplateError>;
}

/// Repository and digest of a reference such as `quay.io/a/b:1.0@sha256:…`
/// (the tag dropped); `None` without a digest.
fn repo_digest(image: &str) -> Option<(&str, &str)> {
    let (name, digest) = image.split_once('@')?;
    let last_slash = name.rfind('/').map_or(0, |i| i + 1);
    let repo = match name[last_slash..].rfind(':') {
        Some(i) => &name[..last_slash + i],
        None => name,
    };
    Some((repo, digest))
}

/// The bundles of a file-based catalog, by image.
#[derive(Debug)]
pub struct CatalogSource {
    name: String,
    bundles: Vec<Bundle>,
    by_image: HashMap<String, Vec<usize>>,
    by_digest: HashMap<(String, String), Vec<usize>>,
}

impl CatalogSource {
    /// A source over the bundles of `config`, named `name` in messages.
    pub fn new(name: impl Into<String>, config: DeclarativeConfig) -> CatalogSource {
        let bundles = config.bundles;
        let mut by_image: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_digest: HashMap<(String, String), Vec<usize>> = HashMap::new();
        for (i, b) in bundles.iter().enumerate() {
            if b.image.is_empty() {
                continue;
            }
            by_image.entry(b.image.clone()).or_default().push(i);
            if let Some((r, d)) = repo_digest(&b.image) {
                by_digest
                    .entry((r.to_owned(), d.to_owned()))
                    .or_default()
                    .push(i);
            }
        }
        CatalogSource {
            name: name.into(),
            bundles,
            by_image,
            by_digest,
        }
    }

    /// Load the catalog at `path`, read as `options` say; its load problems
    /// are returned beside it.
    pub fn load(
        path: &Path,
        options: &ReadOptions,
    ) -> Result<(CatalogSource, Vec<Diagnostic>), olmsat_catalog::load::LoadError> {
        let loaded = olmsat_catalog::load::load_path_with(
            path,
            &olmsat_catalog::load::Select::All,
            options,
        )?;
        Ok((
            CatalogSource::new(path.display().to_string(), loaded.config),
            loaded.diagnostics,
        ))
    }
}

impl BundleSource for CatalogSource {
    fn describe(&self) -> String {
        self.name.clone()
    }

    fn lookup(&self, image: &str) -> Result<Option<Vec<Bundle>>, TemplateError> {
        let hits = self.by_image.get(image).or_else(|| {
            let (r, d) = repo_digest(image)?;
            self.by_digest.get(&(r.to_owned(), d.to_owned()))
        });
        Ok(hits.map(|ix| ix.iter().map(|&i| self.bundles[i].clone()).collect()))
    }
}

/// How a bundle directory source tells the image of each bundle.
#[derive(Debug)]
enum ImageMap {
    /// `images.yaml`: image → directory.
    File(HashMap<String, PathBuf>),
    /// An image reference template, expanded for every bundle found.
    Template(HashMap<String, PathBuf>),
}

/// registry+v1 bundle directories, rendered on demand.
#[derive(Debug)]
pub struct BundleDirSource {
    root: PathBuf,
    images: ImageMap,
    /// Links out of the source that were not followed.
    skipped: Vec<Diagnostic>,
}

/// The name of the image map at the root of a bundle directory source.
pub const IMAGES_FILE: &str = "images.yaml";

impl BundleDirSource {
    /// A source over the bundle directories at or under `root`, matched by the
    /// `images.yaml` at `root` or else by `image_template`; links that leave
    /// `root` are followed only with `follow_links`.
    pub fn new(
        root: &Path,
        image_template: Option<&ImageTemplate>,
        follow_links: bool,
    ) -> Result<Self, TemplateError> {
        let err = |error: String| TemplateError::BundleDir {
            image: String::new(),
            error,
        };
        let file = root.join(IMAGES_FILE);
        let mut skipped = Vec::new();
        let images = if file.is_file() {
            let bytes = olmsat_io::read_file(&file, olmsat_encoding::limits::MAX_FILE_BYTES)
                .map_err(|e| err(format!("{}: {e}", file.display())))?;
            let text = String::from_utf8(bytes)
                .map_err(|e| err(format!("{}: not UTF-8 text: {e}", file.display())))?;
            let map: std::collections::BTreeMap<String, String> = serde_saphyr::from_str(&text)
                .map_err(|e| {
                    err(format!(
                        "{}: expected `<image>: <relative path>` lines: {e}",
                        file.display()
                    ))
                })?;
            // Every path must stay inside the source: an images.yaml is input,
            // and may not make olmsat render a directory the user did not name.
            let mut paths = HashMap::new();
            for (image, rel) in map {
                let dir = olmsat_io::inside(root, &rel, false).map_err(|e| {
                    err(format!(
                        "{}: image {image}: {e}; the bundle directories of a source must be inside it",
                        file.display()
                    ))
                })?;
                paths.insert(image, dir);
            }
            ImageMap::File(paths)
        } else if let Some(t) = image_template {
            let mut map = HashMap::new();
            let found = find_bundles(root, follow_links).map_err(|e| err(e.to_string()))?;
            skipped = found.skipped;
            for dir in found.dirs {
                let outcome =
                    render_dir(&dir, &RenderOptions::default()).map_err(|e| err(e.to_string()))?;
                if let Some(b) = outcome.bundle {
                    let version = b
                        .properties
                        .iter()
                        .find(|p| p.type_ == types::PACKAGE)
                        .and_then(olmsat_catalog::property::plain_package)
                        .map(|p| p.version.to_owned())
                        .unwrap_or_default();
                    map.insert(t.expand(&b.package, &b.name, &version), dir);
                }
            }
            ImageMap::Template(map)
        } else {
            return Err(err(format!(
                "{}: a bundle directory source needs an {IMAGES_FILE} at its root (`<image>: <relative path>` lines) or --image-ref-template, to tell which image each bundle is",
                root.display()
            )));
        };
        Ok(BundleDirSource {
            root: root.to_path_buf(),
            images,
            skipped,
        })
    }
}

impl BundleSource for BundleDirSource {
    fn describe(&self) -> String {
        self.root.display().to_string()
    }

    fn lookup(&self, image: &str) -> Result<Option<Vec<Bundle>>, TemplateError> {
        let (ImageMap::File(map) | ImageMap::Template(map)) = &self.images;
        let Some(dir) = map.get(image) else {
            return Ok(None);
        };
        let fail = |error: String| TemplateError::BundleDir {
            image: image.to_owned(),
            error,
        };
        let opts = RenderOptions {
            image_template: Some(ImageTemplate::parse(image).map_err(|e| fail(e.to_string()))?),
            csv_metadata: false,
        };
        let outcome = render_dir(dir, &opts).map_err(|e| fail(e.to_string()))?;
        match outcome.bundle {
            Some(b) => Ok(Some(vec![b])),
            None => Err(fail(format!(
                "{}: {}",
                dir.display(),
                outcome
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.message.clone())
                    .collect::<Vec<_>>()
                    .join("; ")
            ))),
        }
    }
}

/// The ordered list of sources given with `--bundles-from`.
#[derive(Default)]
pub struct BundleSources {
    sources: Vec<Box<dyn BundleSource>>,
}

impl std::fmt::Debug for BundleSources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.sources.iter().map(|s| s.describe()))
            .finish()
    }
}

/// How bundles are rendered from their images.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LookupOptions {
    /// `--migrate-level bundle-object-to-csv-metadata`.
    pub csv_metadata: bool,
}

/// A source opened with load errors (its readable bundles are used), and the
/// errors.
pub type SourceErrors = (PathBuf, Vec<Diagnostic>);

impl BundleSources {
    /// No sources.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a source (tried after those already added).
    pub fn push(&mut self, source: Box<dyn BundleSource>) {
        self.sources.push(source);
    }

    /// Open each of `paths` in order (see [`BundleSources::open`]). A source
    /// that loads with errors is still used, for its readable bundles; its
    /// errors come back beside it, one entry per such source.
    pub fn open_all(
        paths: &[PathBuf],
        image_template: Option<&ImageTemplate>,
        options: &ReadOptions,
    ) -> Result<(BundleSources, Vec<SourceErrors>), TemplateError> {
        let mut sources = BundleSources::new();
        let mut with_errors = Vec::new();
        for p in paths {
            let errors: Vec<Diagnostic> = sources
                .open(p, image_template, options)?
                .into_iter()
                .filter(Diagnostic::is_error)
                .collect();
            if !errors.is_empty() {
                with_errors.push((p.clone(), errors));
            }
        }
        Ok((sources, with_errors))
    }

    /// Open `path` as a source, read as `options` say: an image, a bundle
    /// directory, a directory with an `images.yaml` or holding bundle
    /// directories, or else a catalog. Load problems of a catalog come back
    /// as diagnostics.
    pub fn open(
        &mut self,
        path: &Path,
        image_template: Option<&ImageTemplate>,
        options: &ReadOptions,
    ) -> Result<Vec<Diagnostic>, TemplateError> {
        let fail = |error: SourceError| TemplateError::Source {
            path: path.display().to_string(),
            error,
        };
        if !path.exists()
            && olmsat_image::ImageSpec::parse(&path.to_string_lossy())
                .ok()
                .flatten()
                .is_none()
        {
            return Err(fail(SourceError::NotFound));
        }
        if let Some(image) = path
            .to_str()
            .map(|text| olmsat_image::open_arg(text, &options.image))
            .transpose()
            .map_err(|e| fail(e.into()))?
            .flatten()
        {
            return self.open_image(&image).map_err(fail);
        }
        let is_bundles = path.is_dir()
            && (is_bundle_dir(path)
                || path.join(IMAGES_FILE).is_file()
                || find_bundles(path, options.follow_links).is_ok_and(|b| !b.dirs.is_empty()));
        if is_bundles {
            let mut source = BundleDirSource::new(path, image_template, options.follow_links)?;
            let skipped = std::mem::take(&mut source.skipped);
            self.push(Box::new(source));
            return Ok(skipped);
        }
        let (source, diags) = CatalogSource::load(path, options).map_err(|e| fail(e.into()))?;
        self.push(Box::new(source));
        Ok(diags)
    }

    /// Add an image as a source: a catalog image's bundles, or a bundle
    /// image's bundle rendered with the reference it was saved under (see
    /// [`olmsat_image::Image::reference`]).
    fn open_image(&mut self, image: &olmsat_image::Image) -> Result<Vec<Diagnostic>, SourceError> {
        use olmsat_image::Kind;
        if let Kind::Catalog { .. } = image.kind {
            let sources = olmsat_catalog::load::image::sources(image)?;
            let loaded = olmsat_catalog::load::load_sources(
                sources,
                &olmsat_catalog::load::Options::default(),
            );
            self.push(Box::new(CatalogSource::new(
                image.name.clone(),
                loaded.config,
            )));
            return Ok(loaded.diagnostics);
        }
        let dir = olmsat_bundle::image::read(image)?;
        let opts = RenderOptions {
            image_template: Some(ImageTemplate::literal(&image.reference())),
            csv_metadata: false,
        };
        let outcome = olmsat_bundle::render::render(&dir, &opts);
        match outcome.bundle {
            Some(b) => {
                let config = DeclarativeConfig {
                    bundles: vec![b],
                    ..DeclarativeConfig::default()
                };
                self.push(Box::new(CatalogSource::new(image.name.clone(), config)));
                Ok(outcome.diagnostics)
            }
            None => Err(SourceError::BundleImage {
                image: image.name.clone(),
                errors: outcome
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.message.clone())
                    .collect(),
            }),
        }
    }

    /// Names of the sources, in order.
    pub fn names(&self) -> Vec<String> {
        self.sources.iter().map(|s| s.describe()).collect()
    }

    /// The bundles for `image` from the first source that has it, migrated as
    /// `opts` asks; warnings when later sources hold other blobs for it.
    pub fn render(
        &self,
        image: &str,
        opts: LookupOptions,
        at: &Location,
    ) -> Result<(Vec<Bundle>, Vec<Diagnostic>), TemplateError> {
        let mut found: Option<(usize, Vec<Bundle>)> = None;
        let mut warnings = Vec::new();
        for (i, s) in self.sources.iter().enumerate() {
            let Some(bundles) = s.lookup(image)? else {
                continue;
            };
            match &found {
                None => found = Some((i, bundles)),
                Some((first, kept)) => {
                    if !same_blobs(kept, &bundles) {
                        warnings.push(
                            Diagnostic::new(Rule::TemplateImageConflict, format!(
                                "bundle image {image:?} is in {} and in {} with different blobs; using {}",
                                self.sources[*first].describe(),
                                s.describe(),
                                self.sources[*first].describe()
                            ))
                            .at(at),
                        );
                    }
                }
            }
        }
        let Some((_, mut bundles)) = found else {
            return Err(TemplateError::Unavailable {
                image: image.to_owned(),
                searched: self.names(),
            });
        };
        let has = |b: &Bundle, t: &str| b.properties.iter().any(|p| p.type_ == t);
        if opts.csv_metadata {
            let mut cfg = DeclarativeConfig {
                bundles,
                ..DeclarativeConfig::default()
            };
            migrate_to_csv_metadata(&mut cfg);
            bundles = cfg.bundles;
        } else if bundles
            .iter()
            .any(|b| has(b, types::CSV_METADATA) && !has(b, types::BUNDLE_OBJECT))
        {
            return Err(TemplateError::CannotUnmigrate(image.to_owned()));
        }
        let file: Arc<str> = at.file.clone();
        for b in &mut bundles {
            b.location = Location::new(file.clone(), at.line);
        }
        Ok((bundles, warnings))
    }
}

fn same_blobs(a: &[Bundle], b: &[Bundle]) -> bool {
    let key = |x: &Bundle| {
        (
            x.name.clone(),
            x.package.clone(),
            x.properties
                .iter()
                .map(|p| (p.type_.clone(), p.value.get().to_owned()))
                .collect::<Vec<_>>(),
        )
    };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| key(x) == key(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repository_and_digest() {
        assert_eq!(
            repo_digest("quay.io/a/b:1.0@sha256:abc"),
            Some(("quay.io/a/b", "sha256:abc"))
        );
        assert_eq!(
            repo_digest("localhost:5000/b@sha256:abc"),
            Some(("localhost:5000/b", "sha256:abc"))
        );
        assert_eq!(repo_digest("quay.io/a/b:1.0"), None);
    }

    fn bundle(name: &str, image: &str) -> Bundle {
        Bundle {
            name: name.into(),
            package: "op".into(),
            image: image.into(),
            ..Bundle::default()
        }
    }

    #[test]
    fn catalog_lookup_exact_then_digest() {
        let cfg = DeclarativeConfig {
            bundles: vec![
                bundle("a", "quay.io/x/op:1.0"),
                bundle("b", "quay.io/x/op@sha256:beef"),
            ],
            ..DeclarativeConfig::default()
        };
        let s = CatalogSource::new("cat", cfg);
        assert_eq!(s.lookup("quay.io/x/op:1.0").unwrap().unwrap()[0].name, "a");
        assert_eq!(
            s.lookup("quay.io/x/op:2.0@sha256:beef").unwrap().unwrap()[0].name,
            "b"
        );
        assert!(s.lookup("quay.io/y/op@sha256:beef").unwrap().is_none());
    }

    #[test]
    fn first_source_wins_with_a_warning() {
        let mut srcs = BundleSources::new();
        let one = DeclarativeConfig {
            bundles: vec![bundle("a", "img")],
            ..DeclarativeConfig::default()
        };
        let two = DeclarativeConfig {
            bundles: vec![bundle("other", "img")],
            ..DeclarativeConfig::default()
        };
        srcs.push(Box::new(CatalogSource::new("one", one)));
        srcs.push(Box::new(CatalogSource::new("two", two)));
        let at = Location::new(Arc::from("t.yaml"), 3);
        let (b, w) = srcs.render("img", LookupOptions::default(), &at).unwrap();
        assert_eq!(b[0].name, "a");
        assert_eq!(b[0].location.line, 3);
        assert_eq!(w.len(), 1);
        let e = srcs
            .render("nope", LookupOptions::default(), &at)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "bundle image \"nope\" not available offline (searched: one, two)"
        );
    }
}
