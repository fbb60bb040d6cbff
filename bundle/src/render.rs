//! Rendering a registry+v1 bundle directory to one `olm.bundle` blob, as
//! `opm render` does.
//!
//! - `name` is the CSV name, `package` the package annotation, `image` empty unless
//!   an image template is given (`{{.Package}}/{{.Name}}/{{.Version}}`).
//! - Properties: `olm.package{packageName, version[, release]}` (the CSV version,
//!   read leniently as opm does); `olm.gvk` for every version of every CRD in
//!   `manifests/` and every owned API service; `olm.gvk.required` for required CRDs
//!   (`plural.group` split), required API services and `olm.gvk` dependencies;
//!   `olm.package.required{packageName, versionRange}` for `olm.package`
//!   dependencies; `olm.constraint` and `olm.label` dependencies copied;
//!   `properties.yaml` entries and the CSV's `olm.properties` annotation copied
//!   (their `olm.gvk` entries join the provided APIs, their `olm.package` entries are
//!   replaced by the one above). All sorted by (type, value), duplicates removed.
//! - Then one `olm.bundle.object` per manifest file (the first document of each
//!   file, as base64 of Go's JSON; sorted by that value), or, with
//!   [`RenderOptions::csv_metadata`], one `olm.csv.metadata` instead.
//! - `relatedImages`: the CSV's `spec.relatedImages`, the bundle image when known,
//!   and the deployments' container and init container images; duplicates removed,
//!   sorted by image.

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

use base64::Engine as _;
use serde_json::{json, Map, Value};

use crate::annotations::keys;
use crate::csv::{Crd, Csv, CRD_KIND, CSV_KIND, PROPERTIES_ANNOTATION};
use crate::csvmeta::csv_metadata;
use crate::format::{detect, MediaType};
use crate::read::{read_bundle, BundleDir, MANIFESTS};
use crate::validate::csv_annotation_properties;
use crate::BundleError;
use olmsat_catalog::declcfg::{Bundle, Property, RelatedImage};
use olmsat_catalog::property::types;
use olmsat_catalog::write::gojson;
use olmsat_encoding::location::Location;
use olmsat_encoding::rawjson::raw_from_string;
use olmsat_findings::diagnostic::{Diagnostic, Rule};
use olmsat_versions::version;

/// How to render.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Template for the bundle image (`--image-ref-template`).
    pub image_template: Option<ImageTemplate>,
    /// Emit `olm.csv.metadata` instead of `olm.bundle.object`s
    /// (`--migrate-level bundle-object-to-csv-metadata`).
    pub csv_metadata: bool,
}

/// What rendering produced: the blob (when the bundle could be rendered) and the
/// problems that were found.
#[derive(Debug, Clone)]
pub struct RenderOutcome {
    /// The `olm.bundle` blob; `None` when an error prevented rendering.
    pub bundle: Option<Bundle>,
    /// Errors (there is no blob) and warnings.
    pub diagnostics: Vec<Diagnostic>,
}

/// One piece of an image template.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Package,
    Name,
    Version,
}

/// A parsed image reference template such as `quay.io/x/{{.Package}}:{{.Version}}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageTemplate {
    pieces: Vec<Piece>,
}

impl ImageTemplate {
    /// Parse a template. Only `{{.Package}}`, `{{.Name}}` and `{{.Version}}` (spaces
    /// inside the braces allowed) are known.
    pub fn parse(text: &str) -> Result<ImageTemplate, BundleError> {
        let mut pieces = Vec::new();
        let mut rest = text;
        while let Some(start) = rest.find("{{") {
            if start > 0 {
                pieces.push(Piece::Text(rest[..start].to_owned()));
            }
            let after = &rest[start + 2..];
            let Some(end) = after.find("}}") else {
                return Err(BundleError::Invalid(format!(
                    "image template {text:?}: unclosed {{{{"
                )));
            };
            pieces.push(match after[..end].trim() {
                ".Package" => Piece::Package,
                ".Name" => Piece::Name,
                ".Version" => Piece::Version,
                other => {
                    return Err(BundleError::Invalid(format!(
                        "image template {text:?}: unknown field {other:?}; use {{{{.Package}}}}, {{{{.Name}}}} or {{{{.Version}}}}"
                    )))
                }
            });
            rest = &after[end + 2..];
        }
        if !rest.is_empty() {
            pieces.push(Piece::Text(rest.to_owned()));
        }
        Ok(ImageTemplate { pieces })
    }

    /// A template that is `text` itself (an image reference, braces and all).
    pub fn literal(text: &str) -> ImageTemplate {
        ImageTemplate {
            pieces: vec![Piece::Text(text.to_owned())],
        }
    }

    /// Fill in the template.
    pub fn expand(&self, package: &str, name: &str, version: &str) -> String {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.as_str(),
                Piece::Package => package,
                Piece::Name => name,
                Piece::Version => version,
            })
            .collect()
    }
}

/// Read and render the bundle directory at `path`.
pub fn render_dir(path: &Path, opts: &RenderOptions) -> Result<RenderOutcome, BundleError> {
    Ok(render(&read_bundle(path)?, opts))
}

/// An API key as opm's registry prints it: `group/version/kind (plural)`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct ApiKey {
    group: String,
    version: String,
    kind: String,
    plural: String,
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{} ({})",
            self.group, self.version, self.kind, self.plural
        )
    }
}

/// A group/version/kind as opm builds it (`{"group","kind","version"}`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Gvk {
    group: String,
    version: String,
    kind: String,
}

impl Gvk {
    fn value(&self) -> Value {
        json!({"group": self.group, "kind": self.kind, "version": self.version})
    }
}

fn prop(type_: &str, value: &Value) -> Property {
    Property {
        type_: type_.to_owned(),
        value: raw_from_string(gojson::marshal_string(value)),
    }
}

/// Render a bundle directory that has been read. Errors in the outcome mean no
/// blob; the bundle's own validation problems are not repeated here (use
/// [`crate::validate::validate_bundle`] for them).
pub fn render(dir: &BundleDir, opts: &RenderOptions) -> RenderOutcome {
    let mut diags: Vec<Diagnostic> = Vec::new();
    let root = Location::new(std::sync::Arc::from(dir.display()), 0);
    let fail = |mut diags: Vec<Diagnostic>, d: Diagnostic| {
        diags.push(d);
        RenderOutcome {
            bundle: None,
            diagnostics: diags,
        }
    };
    let det = detect(dir);
    if det.media_type != MediaType::RegistryV1 {
        return fail(
            diags,
            Diagnostic::new(
                Rule::UnsupportedBundleFormat,
                format!(
                    "only registry+v1 bundles can be rendered; this bundle is {}",
                    det.describe()
                ),
            )
            .at(&root),
        );
    }
    // Read problems: opm stops only when it cannot read the annotations; it skips
    // manifest files and other metadata files it cannot decode.
    let annotations_files = [
        dir.location_of("metadata/annotations.yaml").file,
        dir.location_of("metadata/annotations.yml").file,
    ];
    for d in dir.diagnostics.iter().filter(|d| d.is_error()) {
        let file = d.location.as_ref().map(|l| l.file.clone());
        if file.is_some_and(|f| annotations_files.contains(&f)) {
            diags.push(d.clone());
        } else {
            let mut w = d.clone();
            w.severity = olmsat_findings::diagnostic::Severity::Warning;
            w.message = format!(
                "{} (ignored, as opm ignores what it cannot decode)",
                w.message
            );
            diags.push(w);
        }
    }
    // Files passed over on purpose (links out of the bundle, pipes): said,
    // never read.
    diags.extend(
        dir.diagnostics
            .iter()
            .filter(|d| super::read::is_skip(d))
            .cloned(),
    );
    if diags.iter().any(Diagnostic::is_error) {
        return RenderOutcome {
            bundle: None,
            diagnostics: diags,
        };
    }
    let Some(ann) = &dir.annotations else {
        return fail(
            diags,
            Diagnostic::new(Rule::InvalidAnnotations, "Could not find annotations file")
                .at(&dir.location_of("metadata")),
        );
    };
    let Some(package) = ann.package().map(str::to_owned) else {
        return fail(
            diags,
            Diagnostic::new(
                Rule::AnnotationMissing,
                format!("Missing annotation {:?}", keys::PACKAGE),
            )
            .at(&ann.location),
        );
    };
    // The first document of each manifest file; opm cannot decode one without a kind.
    let mut firsts = Vec::new();
    for o in dir.manifests.iter().filter_map(|m| m.first()) {
        if o.kind.is_empty() {
            diags.push(
                Diagnostic::new(
                    Rule::ObjectWithoutKind,
                    "object has no kind; opm cannot decode it, so it is left out",
                )
                .at(&o.location),
            );
        } else {
            firsts.push(o);
        }
    }
    if firsts.is_empty() {
        return fail(
            diags,
            Diagnostic::new(Rule::NoBundleObjects, "no bundle objects found")
                .at(&dir.location_of(MANIFESTS)),
        );
    }
    let Some(csv_obj) = firsts.iter().find(|o| o.kind == CSV_KIND) else {
        return fail(
            diags,
            Diagnostic::new(Rule::NoCsv, "no csv in bundle").at(&dir.location_of(MANIFESTS)),
        );
    };
    let csv = Csv::from_object(csv_obj);
    let at_csv = |msg: String| {
        Diagnostic::new(Rule::InvalidCsv, msg)
            .at(&csv.location)
            .package(&package)
            .bundle(&csv.name)
    };
    if let Some(p) = csv.problems.first() {
        return fail(
            diags,
            at_csv(format!("ClusterServiceVersion {:?}: {p}", csv.name)),
        );
    }
    let Some(raw_version) = &csv.version else {
        return fail(
            diags,
            at_csv(format!(
                "ClusterServiceVersion {:?} has no spec.version",
                csv.name
            )),
        );
    };
    let version = match version::parse_tolerant(raw_version) {
        Ok(v) => v.to_string(),
        Err(e) => return fail(diags, at_csv(format!("spec.version {raw_version:?}: {e}"))),
    };

    // Provided and required APIs.
    let mut provided: BTreeSet<Gvk> = BTreeSet::new();
    let mut provided_keys: BTreeSet<ApiKey> = BTreeSet::new();
    let mut required: BTreeSet<Gvk> = BTreeSet::new();
    let mut others: Vec<Property> = Vec::new();
    let mut package_prop: Option<Property> = None;

    let mut passthrough = |p: Property, provided: &mut BTreeSet<Gvk>| {
        if p.type_ == types::GVK {
            let v: Value = serde_json::from_str(p.value.get()).unwrap_or(Value::Null);
            let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            provided.insert(Gvk {
                group: s("group"),
                version: s("version"),
                kind: s("kind"),
            });
        } else if p.type_ == types::PACKAGE {
            package_prop = Some(p);
        } else {
            others.push(p);
        }
    };
    if let Some(props) = &dir.properties {
        for e in &props.entries {
            if e.type_.is_empty() {
                continue;
            }
            passthrough(
                prop(&e.type_, e.value.as_ref().unwrap_or(&Value::Null)),
                &mut provided,
            );
        }
    }
    if let Some(text) = csv.annotations.get(PROPERTIES_ANNOTATION) {
        match csv_annotation_properties(text) {
            Ok(ps) => {
                for p in ps {
                    let v: Value = serde_json::from_str(p.value.get()).unwrap_or(Value::Null);
                    passthrough(prop(&p.type_, &v), &mut provided);
                }
            }
            Err(e) => {
                return fail(
                    diags,
                    at_csv(format!("failed to unmarshal properties annotation: {e}")),
                )
            }
        }
    }
    let mut pkg_value = Map::new();
    pkg_value.insert("packageName".into(), Value::from(package.as_str()));
    pkg_value.insert("version".into(), Value::from(version.as_str()));
    if !csv.release.is_empty() {
        pkg_value.insert("release".into(), Value::from(csv.release.as_str()));
    }
    passthrough(
        prop(types::PACKAGE, &Value::Object(pkg_value)),
        &mut provided,
    );

    if let Some(deps) = &dir.dependencies {
        for e in &deps.entries {
            let v = e.value.clone().unwrap_or(Value::Null);
            let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            match e.type_.as_str() {
                types::GVK => {
                    required.insert(Gvk {
                        group: s("group"),
                        version: s("version"),
                        kind: s("kind"),
                    });
                }
                types::PACKAGE => others.push(prop(
                    types::PACKAGE_REQUIRED,
                    &json!({"packageName": s("packageName"), "versionRange": s("version")}),
                )),
                types::CONSTRAINT | types::LABEL => others.push(prop(&e.type_, &v)),
                _ => {}
            }
        }
    }
    for o in firsts.iter().filter(|o| o.kind == CRD_KIND) {
        let crd = Crd::from_object(o);
        for v in &crd.versions {
            provided.insert(Gvk {
                group: crd.group.clone(),
                version: v.clone(),
                kind: crd.kind.clone(),
            });
            provided_keys.insert(ApiKey {
                group: crd.group.clone(),
                version: v.clone(),
                kind: crd.kind.clone(),
                plural: crd.plural.clone(),
            });
        }
    }
    for a in &csv.owned_apis {
        provided.insert(Gvk {
            group: a.group.clone(),
            version: a.version.clone(),
            kind: a.kind.clone(),
        });
        provided_keys.insert(ApiKey {
            group: a.group.clone(),
            version: a.version.clone(),
            kind: a.kind.clone(),
            plural: a.name.clone(),
        });
    }
    for r in &csv.required_crds {
        let Some((plural, group)) = r.plural_group() else {
            return fail(
                diags,
                at_csv(format!(
                    "couldn't parse plural.group from crd name: {}",
                    r.name
                )),
            );
        };
        let _ = plural;
        required.insert(Gvk {
            group: group.to_owned(),
            version: r.version.clone(),
            kind: r.kind.clone(),
        });
    }
    for a in &csv.required_apis {
        required.insert(Gvk {
            group: a.group.clone(),
            version: a.version.clone(),
            kind: a.kind.clone(),
        });
    }
    // opm's `AllProvidedAPIsInBundle`: every owned CRD must be provided.
    for o in &csv.owned_crds {
        let Some((plural, group)) = o.plural_group() else {
            return fail(
                diags,
                at_csv(format!(
                    "couldn't parse plural.group from crd name: {}",
                    o.name
                )),
            );
        };
        let key = ApiKey {
            group: group.to_owned(),
            version: o.version.clone(),
            kind: o.kind.clone(),
            plural: plural.to_owned(),
        };
        if !provided_keys.contains(&key) {
            let found: Vec<String> = provided_keys.iter().map(|k| format!("{k}:{{}}")).collect();
            return fail(
                diags,
                at_csv(format!(
                    "error checking provided apis in bundle {}: couldn't find {key} in bundle. found: map[{}]",
                    csv.name,
                    found.join(" ")
                )),
            );
        }
    }

    let mut props: Vec<Property> = Vec::new();
    props.extend(package_prop);
    props.extend(provided.iter().map(|g| prop(types::GVK, &g.value())));
    props.extend(
        required
            .iter()
            .map(|g| prop(types::GVK_REQUIRED, &g.value())),
    );
    props.extend(others);
    props.sort_by(|a, b| {
        a.type_
            .cmp(&b.type_)
            .then_with(|| a.value.get().as_bytes().cmp(b.value.get().as_bytes()))
    });
    props.dedup_by(|a, b| a.type_ == b.type_ && a.value.get() == b.value.get());

    if opts.csv_metadata {
        props.push(prop(types::CSV_METADATA, &csv_metadata(&csv_obj.value)));
    } else {
        // Last, and sorted by value among themselves, as opm orders them.
        let mut objects: Vec<Property> = firsts
            .iter()
            .map(|o| {
                let data =
                    base64::engine::general_purpose::STANDARD.encode(gojson::marshal(&o.value));
                prop(types::BUNDLE_OBJECT, &json!({ "data": data }))
            })
            .collect();
        objects.sort_by(|a, b| a.value.get().as_bytes().cmp(b.value.get().as_bytes()));
        props.extend(objects);
    }

    let image = opts
        .image_template
        .as_ref()
        .map(|t| t.expand(&package, &csv.name, &version))
        .unwrap_or_default();
    let related_images = related_images(&csv, &image);
    RenderOutcome {
        bundle: Some(Bundle {
            name: csv.name.clone(),
            package,
            image,
            properties: props,
            related_images,
            location: root,
        }),
        diagnostics: diags,
    }
}

/// The related images: CSV `spec.relatedImages`, the bundle image when set, and
/// the operator images; identical entries and operator images already listed
/// dropped; sorted by image, then name.
pub fn related_images(csv: &Csv, bundle_image: &str) -> Vec<RelatedImage> {
    let mut out: Vec<RelatedImage> = Vec::new();
    for r in &csv.related_images {
        if !out.contains(r) {
            out.push(r.clone());
        }
    }
    let extra = std::iter::once(bundle_image)
        .filter(|i| !i.is_empty())
        .chain(csv.operator_images.iter().map(String::as_str));
    for img in extra {
        if !out.iter().any(|r| r.image == img) {
            out.push(RelatedImage {
                name: String::new(),
                image: img.to_owned(),
            });
        }
    }
    out.sort_by(|a, b| a.image.cmp(&b.image).then_with(|| a.name.cmp(&b.name)));
    out
}

/// An `olm.bundle.object` value, its data borrowed.
#[derive(serde::Deserialize)]
struct ObjectValue<'a> {
    #[serde(borrow)]
    data: Option<std::borrow::Cow<'a, str>>,
}

/// A Kubernetes object's `kind`, the rest skipped.
#[derive(serde::Deserialize)]
struct KindOnly<'a> {
    #[serde(borrow)]
    kind: Option<std::borrow::Cow<'a, str>>,
}

/// The object of an `olm.bundle.object` property when it is a CSV. Only the
/// `kind` is read of other objects (bundles carry large CRDs beside the CSV);
/// a document the narrow readers refuse (a repeated key, which Go reads as its
/// last value) is read whole.
fn csv_object(p: &olmsat_catalog::declcfg::Property) -> Option<Value> {
    let data = match serde_json::from_str::<ObjectValue>(p.value.get()) {
        Ok(v) => olmsat_catalog::property::decode_go_base64(&v.data?).ok()?,
        Err(_) => {
            let v: Value = serde_json::from_str(p.value.get()).ok()?;
            olmsat_catalog::property::decode_go_base64(v.get("data")?.as_str()?).ok()?
        }
    };
    match serde_json::from_slice::<KindOnly>(&data) {
        Ok(k) if k.kind.as_deref() != Some(CSV_KIND) => None,
        _ => serde_json::from_slice::<Value>(&data)
            .ok()
            .filter(|o| o.get("kind").and_then(Value::as_str) == Some(CSV_KIND)),
    }
}

/// Apply the `bundle-object-to-csv-metadata` migration to a loaded catalog, as
/// `opm render --migrate-level` does: every bundle whose `olm.bundle.object`s hold
/// a ClusterServiceVersion loses its bundle objects and gains one `olm.csv.metadata`
/// property (last). Bundles without a CSV object are left as they are. Returns the
/// number of bundles changed.
pub fn migrate_to_csv_metadata(cfg: &mut olmsat_catalog::declcfg::DeclarativeConfig) -> usize {
    let mut changed = 0;
    for b in &mut cfg.bundles {
        let csv = b
            .properties
            .iter()
            .filter(|p| p.type_ == types::BUNDLE_OBJECT)
            .find_map(csv_object);
        let Some(csv) = csv else { continue };
        b.properties.retain(|p| p.type_ != types::BUNDLE_OBJECT);
        b.properties
            .push(prop(types::CSV_METADATA, &csv_metadata(&csv)));
        changed += 1;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_templates() {
        let t = ImageTemplate::parse("quay.io/x/{{.Package}}:{{ .Version }}-{{.Name}}").unwrap();
        assert_eq!(t.expand("p", "n", "1.0.0"), "quay.io/x/p:1.0.0-n");
        assert!(ImageTemplate::parse("{{.Tag}}").is_err());
        assert!(ImageTemplate::parse("{{.Name").is_err());
        assert_eq!(
            ImageTemplate::parse("plain").unwrap().expand("", "", ""),
            "plain"
        );
    }
}
