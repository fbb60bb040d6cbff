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

use crate::annotations::{keys, Annotations, MANIFESTS_DIR, METADATA_DIR};
use crate::csv::{self, Crd, Csv, CRD_KIND, CSV_KIND};
use crate::format::{detect, Detection, MediaType, Source};
use crate::metadata::EntryList;
use crate::read::{read_bundle, BundleDir, Object, MANIFESTS, METADATA};
use crate::yaml::{kind_of, Node};
use crate::BundleError;
use olmsat_catalog::declcfg::Property;
use olmsat_catalog::property::{self, types};
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};
use olmsat_versions::range::{self, Range};
use olmsat_versions::version;

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
        debug_assert_eq!(
            rule.default_severity(),
            olmsat_findings::diagnostic::Severity::Error
        );
        self.out.push(Diagnostic::new(rule, msg).at(at));
    }

    fn warn(&mut self, rule: Rule, msg: impl Into<String>, at: &Location) {
        debug_assert_eq!(
            rule.default_severity(),
            olmsat_findings::diagnostic::Severity::Warning
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

mod csv_rules;
mod entries;
mod targets;
#[cfg(test)]
mod tests;

pub use targets::{
    text, validate_image, BundleLine, Target, TargetError, Targets, ValidationDocument,
};

use entries::kv;
pub use entries::{csv_annotation_properties, object_name_error, AnnotationError};
