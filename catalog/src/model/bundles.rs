//! Making a catalog's bundles: sorted into their packages, made in
//! parallel, and their problems reported in the order opm meets them.

use std::collections::BTreeMap;
use std::sync::Arc;

use rayon::prelude::*;

use super::link::PARALLEL_ITEMS;
use super::{Bundle, Package};
use crate::declcfg::BundleReading;
use crate::property::{self, PlainPackage, PropertyValue};
use olmsat_findings::diagnostic::{Diagnostic, Rule};
use olmsat_versions::version::{self, Release};

/// The bundles of a config that belong to a known package, each package's in
/// name order, with the problems that dropped the others; see
/// [`SortedBundles::new`].
pub(super) struct SortedBundles {
    /// The kept bundles, package after package (the package with the most
    /// first), each package's in name order.
    bundles: Vec<crate::declcfg::Bundle>,
    /// The packages, in the order of `bundles`.
    runs: Vec<PackageRun>,
}

/// One package's stretch of [`SortedBundles::bundles`].
struct PackageRun {
    package: String,
    len: usize,
    /// Duplicate-bundle errors, each with how many of the package's bundles
    /// were kept before it.
    duplicates: Vec<(usize, Diagnostic)>,
}

/// One package's bundles, made, with their problems; see [`MadeBundles::report`].
pub(super) struct MadeBundles {
    package: String,
    bundles: Vec<Bundle>,
    duplicates: Vec<(usize, Diagnostic)>,
    /// Each bundle's own problems, by its position in `bundles`, in order.
    problems: Vec<(usize, Vec<Diagnostic>)>,
}

impl SortedBundles {
    /// Sort `input` into its packages in place: bundles without a package or
    /// of an unknown package are reported in `diags` and dropped; of bundles
    /// sharing a name, the first in input order stays and the others are
    /// reported when the package's bundles are.
    pub(super) fn new(
        mut input: Vec<crate::declcfg::Bundle>,
        pkgs: &BTreeMap<String, Package>,
        diags: &mut Vec<Diagnostic>,
    ) -> Self {
        let mut listed: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        // Bundles mostly come package by package: a run of one package's
        // bundles is gathered without looking the package up for each.
        let mut run: Option<(&str, Vec<usize>)> = None;
        for (i, b) in input.iter().enumerate() {
            if let Some((package, positions)) = &mut run {
                if *package == b.package {
                    positions.push(i);
                    continue;
                }
            }
            if b.package.is_empty() {
                diags.push(
                    Diagnostic::new(
                        Rule::BundlePackageMissing,
                        format!("package name must be set for bundle {:?}", b.name),
                    )
                    .at(&b.location)
                    .bundle(&b.name),
                );
                continue;
            }
            if !pkgs.contains_key(&b.package) {
                diags.push(
                    Diagnostic::new(
                        Rule::UnknownPackage,
                        format!("unknown package {:?} for bundle {:?}", b.package, b.name),
                    )
                    .at(&b.location)
                    .package(&b.package)
                    .bundle(&b.name),
                );
                continue;
            }
            if let Some((package, positions)) = run.take() {
                listed.entry(package).or_default().extend(positions);
            }
            run = Some((b.package.as_str(), vec![i]));
        }
        if let Some((package, positions)) = run {
            listed.entry(package).or_default().extend(positions);
        }
        let mut runs: Vec<(PackageRun, Vec<usize>)> = Vec::with_capacity(listed.len());
        for (package, mut positions) in listed {
            // A total order: any sort gives the same list.
            let order = |&a: &usize, &b: &usize| input[a].name.cmp(&input[b].name).then(a.cmp(&b));
            if positions.len() >= PARALLEL_ITEMS {
                positions.par_sort_unstable_by(order);
            } else {
                positions.sort_unstable_by(order);
            }
            let mut kept: Vec<usize> = Vec::with_capacity(positions.len());
            let mut duplicates = Vec::new();
            for i in positions {
                let b = &input[i];
                if kept.last().is_some_and(|&k| input[k].name == b.name) {
                    duplicates.push((
                        kept.len(),
                        Diagnostic::new(
                            Rule::DuplicateBundle,
                            format!("package {:?} has duplicate bundle {:?}", package, b.name),
                        )
                        .at(&b.location)
                        .package(package)
                        .bundle(&b.name),
                    ));
                    continue;
                }
                kept.push(i);
            }
            let run = PackageRun {
                package: package.to_owned(),
                len: kept.len(),
                duplicates,
            };
            runs.push((run, kept));
        }
        // The largest package first: it keeps the list all are made in.
        runs.sort_by(|(a, _), (b, _)| b.len.cmp(&a.len).then_with(|| a.package.cmp(&b.package)));
        let order: Vec<usize> = runs
            .iter()
            .flat_map(|(_, kept)| kept.iter().copied())
            .collect();
        let len = order.len();
        permute(&mut input, order);
        input.truncate(len);
        SortedBundles {
            bundles: input,
            runs: runs.into_iter().map(|(run, _)| run).collect(),
        }
    }

    /// Make every bundle, in parallel, and hand each package its list, in
    /// package name order.
    pub(super) fn make(self, reading: BundleReading) -> Vec<MadeBundles> {
        let SortedBundles { bundles, runs } = self;
        let problems = std::sync::Mutex::new(Vec::new());
        let mut all: Vec<Bundle> = bundles
            .into_par_iter()
            .enumerate()
            .map(|(i, b)| {
                let (bundle, found) = make_bundle(b, reading);
                if !found.is_empty() {
                    problems
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((i, found));
                }
                bundle
            })
            .collect();
        let mut problems = problems
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        problems.sort_unstable_by_key(|(i, _)| *i);
        // Each package's stretch, from the last: the tail is split off (the
        // first package keeps the list).
        let mut made = Vec::with_capacity(runs.len());
        let mut end = all.len();
        for run in runs.into_iter().rev() {
            let start = end - run.len;
            let list = if start == 0 {
                std::mem::take(&mut all)
            } else {
                all.split_off(start)
            };
            let from = problems.partition_point(|(i, _)| *i < start);
            let own = problems
                .drain(from..)
                .map(|(i, found)| (i - start, found))
                .collect();
            made.push(MadeBundles {
                package: run.package,
                bundles: list,
                duplicates: run.duplicates,
                problems: own,
            });
            end = start;
        }
        made.sort_by(|a, b| a.package.cmp(&b.package));
        made
    }
}

impl MadeBundles {
    /// Append the package's problems to `diags` in the order opm meets them:
    /// bundle by bundle in name order, each bundle's own problems, and a
    /// duplicate's error where the duplicate comes. Gives the package's name
    /// and its bundles.
    pub(super) fn report(self, diags: &mut Vec<Diagnostic>) -> (String, Vec<Bundle>) {
        let mut duplicates = self.duplicates.into_iter().peekable();
        for (k, found) in self.problems {
            while let Some((_, d)) = duplicates.next_if(|(before, _)| *before <= k) {
                diags.push(d);
            }
            diags.extend(found);
        }
        diags.extend(duplicates.map(|(_, d)| d));
        (self.package, self.bundles)
    }
}

/// Reorder `v` in place so that it starts with the elements at the positions
/// `order` names (each at most once), in that order; the others follow.
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    let mut placed = vec![false; v.len()];
    for &i in &order {
        placed[i] = true;
    }
    order.extend((0..v.len()).filter(|&i| !placed[i]));
    // Position `t` takes the element now at `order[t]`: follow each cycle,
    // carrying its first element along until the place it belongs.
    let mut done = placed;
    done.fill(false);
    for t in 0..v.len() {
        let mut at = t;
        while !done[at] {
            done[at] = true;
            let from = order[at];
            if from == t {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

/// A model bundle from a config bundle, with its own problems.
fn make_bundle(b: crate::declcfg::Bundle, reading: BundleReading) -> (Bundle, Vec<Diagnostic>) {
    // Read for a graph, a bundle usually has only its `olm.package`
    // property left, which the model drops once it is read: its members are
    // read in place, with nothing made of them but the version.
    let plain = match b.properties.as_slice() {
        [p] if reading == BundleReading::Graph => property::plain_package(p),
        _ => None,
    };
    let (version, release, properties, values, diagnostics) = match plain {
        Some(plain) => {
            let mut diagnostics = Vec::new();
            let (version, release) = package_facts(&b, plain, &mut diagnostics);
            image_facts(&b, &mut diagnostics);
            (version, release, Vec::new(), Vec::new(), diagnostics)
        }
        None => {
            let BundleFacts {
                mut values,
                version,
                release,
                diagnostics,
            } = bundle_facts(&b);
            let mut properties = b.properties;
            let is_package = |v: &PropertyValue| matches!(v, PropertyValue::Package { .. });
            if reading == BundleReading::Graph && values.iter().any(is_package) {
                (properties, values) = properties
                    .into_iter()
                    .zip(values)
                    .filter(|(_, v)| !is_package(v))
                    .unzip();
            }
            (version, release, properties, values, diagnostics)
        }
    };
    let bundle = Bundle {
        name: b.name,
        image: b.image,
        version,
        release,
        properties,
        values,
        related_images: b.related_images,
        location: b.location,
        channels: Arc::default(),
    };
    (bundle, diagnostics)
}

/// What one bundle's own content says: its typed properties, version and
/// release, and the problems found in them (in opm's order).
#[derive(Default)]
struct BundleFacts {
    values: Vec<PropertyValue>,
    version: Option<semver::Version>,
    release: Option<Release>,
    diagnostics: Vec<Diagnostic>,
}

fn bundle_facts(b: &crate::declcfg::Bundle) -> BundleFacts {
    let mut diags = Vec::new();
    let ctx = |d: Diagnostic| d.at(&b.location).package(&b.package).bundle(&b.name);
    let values = match property::parse_all(&b.properties) {
        Ok(v) => v,
        Err(e) => {
            diags.push(ctx(Diagnostic::new(
                Rule::InvalidProperty,
                format!("parse properties for bundle {:?}: {e}", b.name),
            )));
            b.properties
                .iter()
                .map(|p| property::parse(p).unwrap_or(PropertyValue::Other))
                .collect()
        }
    };
    let mut pkg_props = values.iter().filter_map(|v| match v {
        PropertyValue::Package {
            package_name,
            version,
            release,
        } => Some((package_name, version, release)),
        _ => None,
    });
    let mut version = None;
    let mut release = None;
    let first = pkg_props.next();
    let others = pkg_props.count();
    if first.is_none() || others > 0 {
        diags.push(ctx(Diagnostic::new(
            Rule::PackagePropertyCount,
            format!(
                "package {:?} bundle {:?} must have exactly 1 {:?} property, found {}",
                b.package,
                b.name,
                property::types::PACKAGE,
                usize::from(first.is_some()) + others
            ),
        )));
    } else if let Some((package_name, ver, rel)) = first {
        let plain = PlainPackage {
            package_name,
            version: ver,
            release: rel,
        };
        (version, release) = package_facts(b, plain, &mut diags);
    }
    image_facts(b, &mut diags);
    BundleFacts {
        values,
        version,
        release,
        diagnostics: diags,
    }
}

/// The version and release of a bundle's one `olm.package` property, and
/// their problems, appended to `diags`.
fn package_facts(
    b: &crate::declcfg::Bundle,
    package: PlainPackage<'_>,
    diags: &mut Vec<Diagnostic>,
) -> (Option<semver::Version>, Option<Release>) {
    let ctx = |d: Diagnostic| d.at(&b.location).package(&b.package).bundle(&b.name);
    let PlainPackage {
        package_name,
        version: ver,
        release: rel,
    } = package;
    if package_name != b.package {
        diags.push(ctx(Diagnostic::new(
            Rule::PackagePropertyMismatch,
            format!(
                "package {:?} does not match {:?} property {:?}",
                b.package,
                property::types::PACKAGE,
                package_name
            ),
        )));
    }
    let mut version = None;
    match version::parse_strict(ver) {
        Ok(v) => version = Some(v),
        Err(e) => diags.push(ctx(Diagnostic::new(
            Rule::InvalidVersion,
            format!("error parsing bundle {:?} version {:?}: {e}", b.name, ver),
        ))),
    }
    let mut release = None;
    match version::parse_release(rel) {
        Ok(r) => release = r,
        Err(e) => diags.push(ctx(Diagnostic::new(
            Rule::InvalidVersion,
            format!(
                "error parsing bundle {:?} release version {:?}: {e}",
                b.name, rel
            ),
        ))),
    }
    (version, release)
}

/// The problems of a bundle's image references, appended to `diags`.
fn image_facts(b: &crate::declcfg::Bundle, diags: &mut Vec<Diagnostic>) {
    let ctx = |d: Diagnostic| d.at(&b.location).package(&b.package).bundle(&b.name);
    if let Err(e) = crate::image_ref::validate_if_set(&b.image) {
        diags.push(ctx(Diagnostic::new(
            Rule::InvalidImage,
            format!(
                "package {:?} bundle {:?} image: invalid image pull spec {:?}: {e}",
                b.package, b.name, b.image
            ),
        )));
    }
    for (i, ri) in b.related_images.iter().enumerate() {
        if let Err(e) = crate::image_ref::validate_if_set(&ri.image) {
            diags.push(ctx(Diagnostic::new(Rule::InvalidImage, format!(
                "package {:?} bundle {:?} relatedImages[{i}].image: invalid image pull spec {:?}: {e}",
                b.package, b.name, ri.image
            ))));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// `permute` puts the named elements first, in the order named, and
        /// keeps the others, in their order, after them.
        #[test]
        fn permute_reorders_in_place(
            (len, order) in (0usize..40).prop_flat_map(|len| {
                (Just(len), Just((0..len).collect::<Vec<_>>()).prop_shuffle())
            }),
            keep in 0usize..40,
        ) {
            let order: Vec<usize> = order.into_iter().take(keep.min(len)).collect();
            let mut expected: Vec<usize> = order.clone();
            expected.extend((0..len).filter(|i| !order.contains(i)));
            let mut v: Vec<usize> = (0..len).collect();
            permute(&mut v, order);
            prop_assert_eq!(v, expected);
        }
    }
}
