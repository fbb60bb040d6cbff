//! The ClusterServiceVersion's rules and the CRDs it owns (registry+v1).

use super::*;

impl Checker<'_> {
    pub(super) fn csv_rules(&mut self, c: &Csv) {
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
            if let Err(e) = olmsat_catalog::image_ref::validate(&r.image) {
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
            if let Err(e) = olmsat_catalog::image_ref::validate(img) {
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

    pub(super) fn crd_rules(&mut self, c: &Csv) {
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
}
