//! Validation of bundle directories: every rule of the detected format, with
//! opm's message texts where opm has the rule (`pkg/lib/bundle/validate.go`,
//! `pkg/lib/validation/bundle.go`, `pkg/registry/parse.go`), and every problem
//! reported rather than only the first.
//!
//! The rules, by format:
//!
//! - all formats: files readable, YAML and JSON valid, every document a
//!   Kubernetes object (`apiVersion`, `kind`, `metadata.name`);
//! - registry+v1: `manifests/` and `metadata/` present; annotations with the
//!   media type, manifests and metadata directories, package and channels; the
//!   default channel among the channels (warning); exactly one ClusterServiceVersion
//!   with a valid name, a strict semver `spec.version`, a parseable `olm.skipRange`,
//!   well-formed `replaces` and `skips`, valid related and container image
//!   references; every owned CRD present, CRDs present but
//!   not owned (warning); only the supported object kinds; `dependencies.yaml` and
//!   `properties.yaml` entries well formed;
//! - plain+v0: a flat `manifests/` with at least one object;
//! - registry+v2: a flat `manifests/` with at least one Deployment and no CSV,
//!   `metadata/bundle.yaml` with a name and a strict semver version, annotations
//!   saying `registry+v2`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;

use crate::bundle::annotations::{keys, Annotations, MANIFESTS_DIR, METADATA_DIR};
use crate::bundle::csv::{self, Crd, Csv, CRD_KIND, CSV_KIND};
use crate::bundle::format::{detect, Detection, MediaType, Source};
use crate::bundle::metadata::EntryList;
use crate::bundle::read::{read_bundle, BundleDir, Object, MANIFESTS, METADATA};
use crate::bundle::yaml::{kind_of, Node};
use crate::bundle::BundleError;
use crate::declcfg::Property;
use crate::diagnostic::{Diagnostic, Rule};
use crate::location::Location;
use crate::property::{self, types};
use crate::semver::range::{self, Range};
use crate::semver::version;

/// The object kinds a registry+v1 bundle may hold besides the ClusterServiceVersion
/// and CustomResourceDefinitions (compared case-insensitively).
pub const SUPPORTED_KINDS: &[&str] = &[
    CSV_KIND,
    CRD_KIND,
    "ClusterRole",
    "ClusterRoleBinding",
    "ConfigMap",
    "ConsoleCLIDownload",
    "ConsoleLink",
    "ConsoleQuickStart",
    "ConsoleYAMLSample",
    "PodDisruptionBudget",
    "PriorityClass",
    "PrometheusRule",
    "Role",
    "RoleBinding",
    "Secret",
    "Service",
    "ServiceAccount",
    "ServiceMonitor",
    "VerticalPodAutoscaler",
];

/// CSV annotations whose misspellings are reported.
const KNOWN_CSV_ANNOTATIONS: &[&str] = &[
    csv::SKIP_RANGE_ANNOTATION,
    csv::PROPERTIES_ANNOTATION,
    "olm.substitutesFor",
    "olm.maxOpenShiftVersion",
];

/// The outcome of validating one bundle directory.
#[derive(Debug, Clone)]
pub struct BundleReport {
    /// The directory.
    pub path: PathBuf,
    /// The detected format.
    pub detection: Detection,
    /// Package name from the annotations, when known.
    pub package: Option<String>,
    /// Bundle name (CSV name, or `bundle.yaml` name), when known.
    pub bundle: Option<String>,
    /// Errors, sorted by file and line.
    pub errors: Vec<Diagnostic>,
    /// Warnings, sorted by file and line.
    pub warnings: Vec<Diagnostic>,
}

impl BundleReport {
    /// Whether the bundle passed (no errors).
    pub fn passed(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Read and validate the bundle directory at `path`.
pub fn validate_dir(path: &Path) -> Result<BundleReport, BundleError> {
    Ok(validate_bundle(&read_bundle(path)?))
}

/// Read and validate several bundle directories in parallel; reports are in the
/// order of `paths`.
pub fn validate_dirs<P: AsRef<Path> + Sync>(paths: &[P]) -> Result<Vec<BundleReport>, BundleError> {
    paths.par_iter().map(|p| validate_dir(p.as_ref())).collect()
}

/// Validate a bundle directory that has been read.
pub fn validate_bundle(dir: &BundleDir) -> BundleReport {
    let detection = detect(dir);
    let package = dir
        .annotations
        .as_ref()
        .and_then(Annotations::package)
        .map(str::to_owned);
    let mut v = Checker {
        dir,
        out: dir.diagnostics.clone(),
    };
    let bundle = match detection.media_type {
        MediaType::RegistryV1 => v.registry_v1(&detection),
        MediaType::RegistryV2 => v.registry_v2(&detection),
        MediaType::PlainV0 => {
            v.plain_v0(&detection);
            None
        }
    };
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for mut d in v.out {
        if d.package.is_none() {
            d.package.clone_from(&package);
        }
        if d.bundle.is_none() {
            d.bundle.clone_from(&bundle);
        }
        if d.is_error() {
            errors.push(d);
        } else {
            warnings.push(d);
        }
    }
    errors.sort();
    errors.dedup();
    warnings.sort();
    warnings.dedup();
    BundleReport {
        path: dir.path.clone(),
        detection,
        package,
        bundle,
        errors,
        warnings,
    }
}

struct Checker<'a> {
    dir: &'a BundleDir,
    out: Vec<Diagnostic>,
}

impl<'a> Checker<'a> {
    fn error(&mut self, rule: Rule, msg: impl Into<String>, at: &Location) {
        debug_assert_eq!(rule.default_severity(), crate::diagnostic::Severity::Error);
        self.out.push(Diagnostic::new(rule, msg).at(at));
    }

    fn warn(&mut self, rule: Rule, msg: impl Into<String>, at: &Location) {
        debug_assert_eq!(
            rule.default_severity(),
            crate::diagnostic::Severity::Warning
        );
        self.out.push(Diagnostic::new(rule, msg).at(at));
    }

    /// Where a field of the object starting at `at` is: the first line at or after
    /// the object's start holding one of `needles`, else the object's start.
    fn near(&self, at: &Location, needles: &[String]) -> Location {
        self.dir
            .manifests
            .iter()
            .find(|m| m.location.file == at.file)
            .and_then(|m| needles.iter().find_map(|n| m.find_line(at.line, n)))
            .unwrap_or_else(|| at.clone())
    }

    fn error_near(
        &mut self,
        rule: Rule,
        msg: impl Into<String>,
        at: &Location,
        needles: &[String],
    ) {
        let loc = self.near(at, needles);
        self.error(rule, msg, &loc);
    }

    fn warn_near(&mut self, rule: Rule, msg: impl Into<String>, at: &Location, needles: &[String]) {
        let loc = self.near(at, needles);
        self.warn(rule, msg, &loc);
    }

    fn root(&self) -> Location {
        Location::new(std::sync::Arc::from(self.dir.display()), 0)
    }

    fn manifests_loc(&self) -> Location {
        self.dir.location_of(MANIFESTS)
    }

    fn metadata_loc(&self) -> Location {
        self.dir.location_of(METADATA)
    }

    /// The directories every format needs.
    fn directories(&mut self, need_metadata: bool) {
        if !self.dir.has_manifests {
            let root = self.root();
            self.error(
                Rule::DirectoryMissing,
                "Unable to locate manifests directory",
                &root,
            );
        }
        if need_metadata && !self.dir.has_metadata {
            let root = self.root();
            self.error(
                Rule::DirectoryMissing,
                "Unable to locate metadata directory",
                &root,
            );
        }
    }

    /// Every document must be a Kubernetes object.
    fn objects_are_kubernetes_objects(&mut self) {
        for o in self.dir.objects() {
            for (field, value) in [
                ("apiVersion", &o.api_version),
                ("kind", &o.kind),
                ("metadata.name", &o.name),
            ] {
                if value.is_empty() {
                    self.out.push(
                        Diagnostic::new(
                            Rule::NotKubernetesObject,
                            format!("not a Kubernetes object: {field} is missing or not a string"),
                        )
                        .at(&o.location),
                    );
                }
            }
        }
    }

    fn flat_manifests(&mut self) {
        for sub in &self.dir.manifest_subdirs {
            self.out.push(
                Diagnostic::new(
                    Rule::NestedManifests,
                    "manifests directory must be flat: subdirectories are not allowed",
                )
                .at(sub),
            );
        }
    }

    fn declared_mismatch(&mut self, det: &Detection) {
        if let (Source::Layout(_), Some((key, value, loc))) = (&det.source, &det.declared) {
            self.error(
                Rule::AnnotationMismatch,
                format!(
                    "Expecting annotation {key:?} to have value {:?} instead of {value:?}",
                    det.media_type.as_str()
                ),
                loc,
            );
        }
    }

    fn annotations_file(&mut self) -> Option<&'a Annotations> {
        if self.dir.has_metadata && self.dir.annotations.is_none() {
            let unreadable = self.dir.diagnostics.iter().any(|d| {
                d.is_error()
                    && d.location
                        .as_ref()
                        .is_some_and(|l| l.file.contains("annotations.y"))
            });
            if !unreadable {
                let loc = self.metadata_loc();
                self.error(
                    Rule::InvalidAnnotations,
                    "Could not find annotations file",
                    &loc,
                );
            }
        }
        self.dir.annotations.as_ref()
    }

    fn registry_v1(&mut self, det: &Detection) -> Option<String> {
        self.directories(true);
        self.declared_mismatch(det);
        self.objects_are_kubernetes_objects();
        if let Some(a) = self.annotations_file() {
            self.v1_annotations(a);
        }
        for sub in &self.dir.manifest_subdirs {
            self.out.push(
                Diagnostic::new(Rule::ManifestsSubdirectoryIgnored,
                    "subdirectory of manifests/ is ignored: registry+v1 manifests are read non-recursively",
                )
                .at(sub),
            );
        }
        for m in &self.dir.manifests {
            if m.documents > 1 {
                self.out.push(
                    Diagnostic::new(Rule::MultiDocumentManifest, format!(
                        "file holds {} documents; opm and OLM read only the first document of each manifest file",
                        m.documents
                    ))
                    .at(&m.location),
                );
            }
        }
        if self.dir.has_manifests && self.dir.objects().next().is_none() {
            let loc = self.manifests_loc();
            self.error(Rule::NoBundleObjects, "no bundle objects found", &loc);
        }
        for o in self.dir.objects() {
            if !o.kind.is_empty()
                && !SUPPORTED_KINDS
                    .iter()
                    .any(|k| k.eq_ignore_ascii_case(&o.kind))
            {
                self.out.push(
                    Diagnostic::new(
                        Rule::UnsupportedKind,
                        format!(
                            "{} is not supported type for registryV1 bundle: {}",
                            o.kind, o.location.file
                        ),
                    )
                    .at(&o.location),
                );
            }
        }
        let csvs: Vec<&Object> = self.dir.objects_of_kind(CSV_KIND).collect();
        let csv = csvs.first().map(|o| Csv::from_object(o));
        match csvs.len() {
            0 if self.dir.has_manifests => {
                let loc = self.manifests_loc();
                self.error(Rule::NoCsv, "no csv in bundle", &loc);
            }
            0 | 1 => {}
            _ => {
                for extra in &csvs[1..] {
                    self.out.push(
                        Diagnostic::new(
                            Rule::MultipleCsvs,
                            "more than one ClusterServiceVersion is found in bundle",
                        )
                        .at(&extra.location),
                    );
                }
            }
        }
        if let Some(c) = &csv {
            self.csv_rules(c);
            self.crd_rules(c);
        }
        if self.dir.bundle_yaml.is_some() {
            let loc = self.dir.location_of("metadata/bundle.yaml");
            self.warn(Rule::BundleYamlIgnored,
                "metadata/bundle.yaml belongs to registry+v2 bundles; it is ignored in a registry+v1 bundle",
                &loc,
            );
        }
        if let Some(deps) = &self.dir.dependencies {
            self.dependencies(deps);
        }
        if let Some(props) = &self.dir.properties {
            self.properties(props);
        }
        csv.map(|c| c.name).filter(|n| !n.is_empty())
    }

    fn v1_annotations(&mut self, a: &Annotations) {
        let file = a.location.clone();
        let expect = [
            (keys::MEDIATYPE, Some(MediaType::RegistryV1.as_str())),
            (keys::MANIFESTS, Some(MANIFESTS_DIR)),
            (keys::METADATA, Some(METADATA_DIR)),
            (keys::PACKAGE, None),
            (keys::CHANNELS, None),
        ];
        for (key, want) in expect {
            let Some(got) = a.get(key) else {
                self.error(
                    Rule::AnnotationMissing,
                    format!("Missing annotation {key:?}"),
                    &file,
                );
                continue;
            };
            match want {
                Some(w) if got.value != w => {
                    // The media type was already reported when it is unknown.
                    if key != keys::MEDIATYPE || MediaType::parse(got.value.trim()).is_some() {
                        self.error(
                            Rule::AnnotationMismatch,
                            format!(
                                "Expecting annotation {key:?} to have value {w:?} instead of {:?}",
                                got.value
                            ),
                            &got.location,
                        );
                    }
                }
                Some(_) => {}
                None => {
                    let empty = if key == keys::CHANNELS {
                        a.channels().is_empty()
                    } else {
                        got.value.trim().is_empty()
                    };
                    if empty {
                        self.error(
                            Rule::AnnotationMismatch,
                            format!("Expecting annotation {key:?} to have non-empty value"),
                            &got.location,
                        );
                    }
                }
            }
        }
        let channels = a.channels();
        if let (Some(default), Some(ann)) = (a.default_channel(), a.get(keys::DEFAULT_CHANNEL)) {
            if !channels.is_empty() && !channels.iter().any(|c| c == default) {
                self.warn(Rule::DefaultChannelNotListed,
                    format!(
                        "default channel {default:?} is not one of the bundle's channels ({}); the catalog's default channel must name a channel some bundle of the package is in",
                        channels.join(", ")
                    ),
                    &ann.location,
                );
            }
        }
        let mut seen = BTreeSet::new();
        for c in &channels {
            if !seen.insert(c) {
                if let Some(ann) = a.get(keys::CHANNELS) {
                    self.warn(
                        Rule::DuplicateChannelAnnotation,
                        format!("channel {c:?} is listed twice"),
                        &ann.location,
                    );
                }
            }
        }
    }

    fn csv_rules(&mut self, c: &Csv) {
        for p in &c.problems {
            self.error(
                Rule::InvalidCsv,
                format!("ClusterServiceVersion {:?}: {p}", c.name),
                &c.location,
            );
        }
        if let Some(e) = object_name_error(&c.name) {
            self.error_near(
                Rule::InvalidCsv,
                format!("invalid ClusterServiceVersion name {:?}: {e}", c.name),
                &c.location,
                &kv("name", &c.name),
            );
        }
        match &c.version {
            None => self.error(
                Rule::InvalidCsv,
                format!("ClusterServiceVersion {:?} has no spec.version", c.name),
                &c.location,
            ),
            Some(v) => {
                if let Err(e) = version::parse_strict(v) {
                    let mut msg =
                        format!("spec.version {v:?} is not a valid semantic version: {e}");
                    if let Ok(t) = version::parse_tolerant(v) {
                        msg.push_str(&format!(" (opm reads it leniently as {:?})", t.to_string()));
                    }
                    self.error_near(Rule::InvalidCsv, msg, &c.location, &kv("version", v));
                }
            }
        }
        if let Err(e) = version::parse_release(&c.release) {
            self.error_near(
                Rule::InvalidCsv,
                format!("spec.release: {e}"),
                &c.location,
                &kv("release", &c.release),
            );
        }
        if let Some(r) = &c.replaces {
            if let Some(e) = object_name_error(r) {
                self.error_near(
                    Rule::InvalidCsv,
                    format!("spec.replaces {r:?} is not a valid ClusterServiceVersion name: {e}"),
                    &c.location,
                    &kv("replaces", r),
                );
            }
            if *r == c.name {
                self.error_near(
                    Rule::InvalidCsv,
                    format!("spec.replaces names the ClusterServiceVersion itself ({r:?})"),
                    &c.location,
                    &kv("replaces", r),
                );
            }
        }
        for (i, s) in c.skips.iter().enumerate() {
            if s.is_empty() {
                self.error_near(
                    Rule::EmptySkip,
                    format!("skip[{i}] is empty"),
                    &c.location,
                    &["skips:".to_owned(), "\"skips\"".to_owned()],
                );
            } else if let Some(e) = object_name_error(s) {
                self.error_near(
                    Rule::InvalidCsv,
                    format!("spec.skips[{i}] {s:?} is not a valid ClusterServiceVersion name: {e}"),
                    &c.location,
                    std::slice::from_ref(s),
                );
            }
            if *s == c.name {
                self.error_near(
                    Rule::InvalidCsv,
                    format!("spec.skips[{i}] names the ClusterServiceVersion itself ({s:?})"),
                    &c.location,
                    &[format!("- {s}"), format!("\"{s}\"")],
                );
            }
        }
        if let Some(sr) = c.skip_range() {
            if let Err(err) = Range::parse(sr) {
                let mut msg = format!("invalid skipRange {sr:?}: {err}");
                if let Some(h) = range::hint(sr) {
                    msg.push_str(&format!(" (blang/semver would accept {h:?})"));
                }
                self.error_near(
                    Rule::InvalidSkiprange,
                    msg,
                    &c.location,
                    &kv(csv::SKIP_RANGE_ANNOTATION, sr),
                );
            }
        }
        for key in c.annotations.keys() {
            if let Some(known) = KNOWN_CSV_ANNOTATIONS
                .iter()
                .find(|k| k.eq_ignore_ascii_case(key) && **k != key.as_str())
            {
                self.warn_near(Rule::MisspelledCsvAnnotation,
                    format!("CSV annotation {key:?} looks like a misspelling of {known:?}; OLM ignores it"),
                    &c.location,
                    std::slice::from_ref(key),
                );
            }
        }
        if let Some(text) = c.annotations.get(csv::PROPERTIES_ANNOTATION) {
            if let Err(e) = csv_annotation_properties(text) {
                self.error_near(
                    Rule::InvalidProperty,
                    format!("invalid {} annotation: {e}", csv::PROPERTIES_ANNOTATION),
                    &c.location,
                    &[csv::PROPERTIES_ANNOTATION.to_owned()],
                );
            }
        }
        for (i, r) in c.related_images.iter().enumerate() {
            if let Err(e) = crate::image_ref::validate(&r.image) {
                self.error_near(
                    Rule::InvalidImage,
                    format!(
                        "spec.relatedImages[{i}].image: invalid image pull spec {:?}: {e}",
                        r.image
                    ),
                    &c.location,
                    &kv("image", &r.image),
                );
            }
        }
        for img in &c.operator_images {
            if let Err(e) = crate::image_ref::validate(img) {
                self.error_near(
                    Rule::InvalidImage,
                    format!("deployment container image: invalid image pull spec {img:?}: {e}"),
                    &c.location,
                    &kv("image", img),
                );
            }
        }
        for r in &c.required_crds {
            if r.plural_group().is_none() {
                self.error_near(
                    Rule::InvalidCrd,
                    format!("couldn't parse plural.group from crd name: {}", r.name),
                    &c.location,
                    &kv("name", &r.name),
                );
            }
        }
        for r in &c.owned_crds {
            if r.plural_group().is_none() {
                self.error_near(
                    Rule::InvalidCrd,
                    format!("couldn't parse plural.group from crd name: {}", r.name),
                    &c.location,
                    &kv("name", &r.name),
                );
            }
        }
    }

    fn crd_rules(&mut self, c: &Csv) {
        let crds: Vec<Crd> = self
            .dir
            .objects_of_kind(CRD_KIND)
            .map(Crd::from_object)
            .collect();
        let mut present: BTreeMap<(String, String, String), Location> = BTreeMap::new();
        for crd in &crds {
            for p in &crd.problems {
                self.error(
                    Rule::InvalidCrd,
                    format!("CustomResourceDefinition {:?}: {p}", crd.name),
                    &crd.location,
                );
            }
            let expected = format!("{}.{}", crd.plural, crd.group);
            if !crd.plural.is_empty() && !crd.group.is_empty() && crd.name != expected {
                self.error(Rule::InvalidCrd,
                    format!(
                        "CustomResourceDefinition name {:?} must be spec.names.plural + \".\" + spec.group ({expected:?})",
                        crd.name
                    ),
                    &crd.location,
                );
            }
            if crd.versions.is_empty() {
                self.error(
                    Rule::InvalidCrd,
                    format!("CustomResourceDefinition {:?} has no versions", crd.name),
                    &crd.location,
                );
            }
            for v in &crd.versions {
                present
                    .entry((crd.name.clone(), v.clone(), crd.kind.clone()))
                    .or_insert_with(|| crd.location.clone());
            }
        }
        let mut owned_seen = BTreeSet::new();
        for o in &c.owned_crds {
            let key = (o.name.clone(), o.version.clone(), o.kind.clone());
            if !owned_seen.insert(key.clone()) {
                self.error_near(
                    Rule::DuplicateOwnedCrd,
                    format!("duplicate CRD {o} in bundle {:?}", c.name),
                    &c.location,
                    &kv("name", &o.name),
                );
                continue;
            }
            if present.remove(&key).is_none() {
                self.error_near(
                    Rule::OwnedCrdMissing,
                    format!("owned CRD {o} not found in bundle {:?}", c.name),
                    &c.location,
                    &kv("name", &o.name),
                );
            }
        }
        for ((name, version, kind), loc) in present {
            self.warn(Rule::CrdNotInCsv,
                format!(
                    "CRD {name}/{version}, Kind={kind} is present in bundle {:?} but not defined in CSV",
                    c.name
                ),
                &loc,
            );
        }
    }

    fn dependencies(&mut self, deps: &EntryList) {
        if !deps.key_found {
            self.warn(
                Rule::EmptyDeclaration,
                "dependencies.yaml has no dependencies list; it declares nothing",
                &deps.location,
            );
        }
        for e in &deps.entries {
            let value = e.value.as_ref().unwrap_or(&Value::Null);
            let errs = match e.type_.as_str() {
                types::GVK => gvk_errors(value),
                types::PACKAGE => package_errors(value, "version"),
                types::LABEL => {
                    let label = value.get("label").and_then(Value::as_str).unwrap_or("");
                    if label.is_empty() {
                        vec!["Label information is missing".to_owned()]
                    } else {
                        Vec::new()
                    }
                }
                types::CONSTRAINT => constraint_errors(value),
                other => vec![format!("unsupported dependency type {other}")],
            };
            for msg in errs {
                self.error(Rule::InvalidDependency, msg, &e.location);
            }
        }
    }

    fn properties(&mut self, props: &EntryList) {
        if !props.key_found {
            let keys: Vec<&str> = props.other_keys.iter().map(|(k, _)| k.as_str()).collect();
            let mut msg =
                "properties.yaml has no properties list, so it declares nothing".to_owned();
            if !keys.is_empty() {
                msg.push_str(&format!(" (found {})", keys.join(", ")));
            }
            if keys.contains(&"dependencies") {
                msg.push_str("; dependencies belong in metadata/dependencies.yaml");
            }
            self.warn(Rule::EmptyDeclaration, msg, &props.location);
        }
        for (i, e) in props.entries.iter().enumerate() {
            if e.type_.is_empty() {
                self.error(
                    Rule::InvalidProperty,
                    format!("properties[{i}]: type must be set"),
                    &e.location,
                );
                continue;
            }
            let Some(value) = &e.value else {
                self.warn(
                    Rule::PropertyValueMissing,
                    format!(
                        "property {:?} has no value; catalogs require one (it renders as null)",
                        e.type_
                    ),
                    &e.location,
                );
                continue;
            };
            let p = Property {
                type_: e.type_.clone(),
                value: crate::rawjson::to_raw(value),
            };
            if types::KNOWN.contains(&e.type_.as_str()) {
                if let Err(err) = property::parse(&p) {
                    self.error(
                        Rule::InvalidProperty,
                        format!("parse property[{i}] of type {:?}: {err}", e.type_),
                        &e.location,
                    );
                }
                if e.type_ == types::CONSTRAINT {
                    for msg in constraint_errors(value) {
                        self.error(Rule::InvalidProperty, msg, &e.location);
                    }
                }
            } else if e.type_.starts_with("olm.") {
                self.warn(Rule::UnknownOlmPropertyType,
                    format!("property type {:?} is in the olm.* namespace but OLM does not define it; OLM ignores it", e.type_),
                    &e.location,
                );
            }
        }
    }

    fn plain_v0(&mut self, det: &Detection) {
        self.directories(false);
        self.declared_mismatch(det);
        if det.layout == MediaType::RegistryV1 && matches!(det.source, Source::Annotation { .. }) {
            if let Some((key, value, loc)) = &det.declared {
                self.error(
                    Rule::AnnotationMismatch,
                    format!(
                        "Expecting annotation {key:?} to have value {:?} instead of {value:?}",
                        MediaType::RegistryV1.as_str()
                    ),
                    loc,
                );
            }
        }
        self.flat_manifests();
        self.objects_are_kubernetes_objects();
        if self.dir.has_manifests && self.dir.objects().next().is_none() {
            let loc = self.manifests_loc();
            self.error(Rule::NoBundleObjects,
                "manifests directory holds no Kubernetes objects; a plain+v0 bundle needs at least one",
                &loc,
            );
        }
    }

    fn registry_v2(&mut self, det: &Detection) -> Option<String> {
        self.directories(true);
        self.declared_mismatch(det);
        self.flat_manifests();
        self.objects_are_kubernetes_objects();
        for o in self.dir.objects_of_kind(CSV_KIND) {
            self.out.push(
                Diagnostic::new(Rule::CsvInCsvlessBundle, format!(
                    "registry+v2 bundles are CSV-less, but the bundle holds ClusterServiceVersion {:?}",
                    o.name
                ))
                .at(&o.location),
            );
        }
        if self.dir.has_manifests && self.dir.objects_of_kind("Deployment").next().is_none() {
            let loc = self.manifests_loc();
            self.error(
                Rule::NoDeployment,
                "no Deployment in manifests/; a registry+v2 bundle needs at least one",
                &loc,
            );
        }
        if let Some(a) = self.annotations_file() {
            match a.media_type() {
                None => self.error(
                    Rule::AnnotationMissing,
                    format!("Missing annotation {:?}", keys::MEDIATYPE),
                    &a.location,
                ),
                Some((key, got)) if got.value.trim() != MediaType::RegistryV2.as_str() => {
                    if MediaType::parse(got.value.trim()).is_some() {
                        self.error(
                            Rule::AnnotationMismatch,
                            format!(
                                "Expecting annotation {key:?} to have value {:?} instead of {:?}",
                                MediaType::RegistryV2.as_str(),
                                got.value
                            ),
                            &got.location,
                        );
                    }
                }
                Some(_) => {}
            }
        }
        let mut name = None;
        match &self.dir.bundle_yaml {
            None if self.dir.has_metadata => {
                let unreadable = self.dir.diagnostics.iter().any(|d| {
                    d.is_error()
                        && d.location
                            .as_ref()
                            .is_some_and(|l| l.file.contains("bundle.y"))
                });
                if !unreadable {
                    let loc = self.metadata_loc();
                    self.error(
                        Rule::InvalidBundleYaml,
                        "Could not find metadata/bundle.yaml",
                        &loc,
                    );
                }
            }
            None => {}
            Some(b) => {
                for field in ["name", "version"] {
                    match b.get(field) {
                        None => self.error(
                            Rule::InvalidBundleYaml,
                            format!("bundle.yaml: missing required field {field:?}"),
                            &b.location,
                        ),
                        Some((Node::Scalar(Value::String(s)), loc)) if !s.trim().is_empty() => {
                            if field == "name" {
                                name = Some(s.clone());
                            } else if let Err(e) = version::parse_strict(s) {
                                self.error(Rule::InvalidBundleYaml,
                                    format!("bundle.yaml: version {s:?} is not a valid semantic version: {e}"),
                                    loc,
                                );
                            }
                        }
                        Some((node, loc)) => self.error(
                            Rule::InvalidBundleYaml,
                            format!(
                                "bundle.yaml: {field} must be a non-empty string, found a {}",
                                node.kind()
                            ),
                            loc,
                        ),
                    }
                }
                if let Some((node, loc)) = b.get(keys::MEDIATYPE_UNVERSIONED) {
                    if !matches!(node, Node::Scalar(Value::String(s)) if s == MediaType::RegistryV2.as_str())
                    {
                        self.error(
                            Rule::InvalidBundleYaml,
                            format!(
                                "bundle.yaml: {} must be {:?}",
                                keys::MEDIATYPE_UNVERSIONED,
                                MediaType::RegistryV2.as_str()
                            ),
                            loc,
                        );
                    }
                }
            }
        }
        name
    }
}

/// Text that finds a `key: value` member in YAML or JSON, most specific first,
/// then the bare value.
fn kv(key: &str, value: &str) -> Vec<String> {
    vec![
        format!("{key}: {value}"),
        format!("{key}: \"{value}\""),
        format!("{key}: '{value}'"),
        format!("\"{key}\": \"{value}\""),
        value.to_owned(),
    ]
}

/// The errors of an `olm.gvk` dependency value (opm's texts).
fn gvk_errors(value: &Value) -> Vec<String> {
    let s = |k: &str| value.get(k).and_then(Value::as_str).unwrap_or("");
    let mut errs = Vec::new();
    if s("group").is_empty() {
        errs.push("API Group is empty".to_owned());
    }
    if s("version").is_empty() {
        errs.push("API Version is empty".to_owned());
    }
    if s("kind").is_empty() {
        errs.push("API Kind is empty".to_owned());
    }
    errs
}

/// The errors of a package dependency: name set, version a blang range.
fn package_errors(value: &Value, range_key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let name = value
        .get("packageName")
        .and_then(Value::as_str)
        .unwrap_or("");
    if name.is_empty() {
        errs.push("Package name is empty".to_owned());
    }
    let range = value.get(range_key).and_then(Value::as_str).unwrap_or("");
    if Range::parse(range).is_err() {
        errs.push("Invalid semver format version".to_owned());
    }
    errs
}

/// The errors of an `olm.constraint` value: exactly one of `cel`, `gvk`,
/// `package`, `all`, `any`, `not`, each well formed, compound ones recursively.
fn constraint_errors(value: &Value) -> Vec<String> {
    let mut errs = Vec::new();
    constraint_errors_into(value, "olm.constraint", &mut errs);
    errs
}

fn constraint_errors_into(value: &Value, at: &str, errs: &mut Vec<String>) {
    let Value::Object(obj) = value else {
        errs.push(format!(
            "{at}: value must be a mapping, found a {}",
            kind_of(value)
        ));
        return;
    };
    const KINDS: [&str; 6] = ["cel", "gvk", "package", "all", "any", "not"];
    let present: Vec<&str> = KINDS
        .into_iter()
        .filter(|k| obj.get(*k).is_some_and(|v| !v.is_null()))
        .collect();
    if present.len() != 1 {
        errs.push(format!(
            "{at}: a constraint needs exactly one of cel, gvk, package, all, any or not; found {}",
            if present.is_empty() {
                "none".to_owned()
            } else {
                present.join(", ")
            }
        ));
    }
    for k in present {
        let Some(v) = obj.get(k) else { continue };
        match k {
            "cel" => {
                let rule = v.get("rule").and_then(Value::as_str).unwrap_or("");
                if rule.trim().is_empty() {
                    errs.push(format!("{at}.cel: The CEL expression is missing"));
                } else if let Err(e) = crate::cel_limits::compile(rule) {
                    errs.push(format!("{at}.cel: invalid CEL expression: {e}"));
                }
            }
            "gvk" => errs.extend(gvk_errors(v).into_iter().map(|e| format!("{at}.gvk: {e}"))),
            "package" => errs.extend(
                package_errors(v, "versionRange")
                    .into_iter()
                    .map(|e| format!("{at}.package: {e}")),
            ),
            _ => match v.get("constraints") {
                Some(Value::Array(items)) if !items.is_empty() => {
                    for (i, item) in items.iter().enumerate() {
                        constraint_errors_into(item, &format!("{at}.{k}.constraints[{i}]"), errs);
                    }
                }
                _ => errs.push(format!("{at}.{k}: constraints must be a non-empty list")),
            },
        }
    }
}

/// Parse the CSV `olm.properties` annotation: a JSON list of `{type, value}`.
pub fn csv_annotation_properties(text: &str) -> Result<Vec<Property>, String> {
    let items: Vec<Value> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let t = item.get("type").and_then(Value::as_str).unwrap_or("");
            if t.is_empty() {
                return Err(format!("property[{i}]: type must be set"));
            }
            let Some(v) = item.get("value") else {
                return Err(format!("property[{i}]: value must be set"));
            };
            Ok(Property {
                type_: t.to_owned(),
                value: crate::rawjson::to_raw(v),
            })
        })
        .collect()
}

/// Why `name` is not a Kubernetes object name (a DNS-1123 subdomain), if it is not.
pub fn object_name_error(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("must not be empty".to_owned());
    }
    if name.len() > 253 {
        return Some("must be no more than 253 characters".to_owned());
    }
    let ok = name.split('.').all(|label| {
        let b = label.as_bytes();
        !b.is_empty()
            && b.iter()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
    });
    (!ok).then(|| {
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character".to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_names() {
        assert!(object_name_error("etcd.v0.9.2").is_none());
        assert!(object_name_error("a+b").is_some());
        assert!(object_name_error("A").is_some());
        assert!(object_name_error("a..b").is_some());
        assert!(object_name_error("").is_some());
    }

    #[test]
    fn cel_rules_must_parse() {
        let bad: Value =
            serde_json::from_str(r#"{"cel":{"rule":"properties.exists(p, "}}"#).unwrap();
        let e = constraint_errors(&bad);
        assert!(
            e.iter().any(|m| m.contains("invalid CEL expression")),
            "{e:?}"
        );
        let ok: Value =
            serde_json::from_str(r#"{"cel":{"rule":"properties.exists(p, p.type == 'olm.gvk')"}}"#)
                .unwrap();
        assert!(constraint_errors(&ok).is_empty());
    }

    #[test]
    fn constraints() {
        let ok: Value = serde_json::from_str(
            r#"{"failureMessage":"x","any":{"constraints":[{"package":{"packageName":"a","versionRange":">=1.0.0"}},{"gvk":{"group":"g","version":"v1","kind":"K"}}]}}"#,
        )
        .unwrap();
        assert!(constraint_errors(&ok).is_empty());
        let bad: Value = serde_json::from_str(
            r#"{"cel":{"rule":""},"gvk":{"group":"g"},"all":{"constraints":[]}}"#,
        )
        .unwrap();
        let e = constraint_errors(&bad);
        assert!(e[0].contains("found cel, gvk, all"), "{e:?}");
        assert!(e
            .iter()
            .any(|m| m.ends_with("The CEL expression is missing")));
        assert!(e.iter().any(|m| m.ends_with("API Version is empty")));
        assert!(e
            .iter()
            .any(|m| m.ends_with("constraints must be a non-empty list")));
    }

    #[test]
    fn csv_properties_annotation() {
        assert_eq!(
            csv_annotation_properties(r#"[{"type":"olm.maxOpenShiftVersion","value":"4.10"}]"#)
                .unwrap()
                .len(),
            1
        );
        assert!(csv_annotation_properties("{").is_err());
        assert!(csv_annotation_properties(r#"[{"value":1}]"#).is_err());
    }
}
