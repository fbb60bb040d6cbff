//! The semver template (`schema: olm.semver`): channels, `replaces` and `skips`
//! generated from lists of bundle images, as opm (v1.61 and later) generates them.
//!
//! - Archetypes `candidate`, `fast`, `stable` are independent: a bundle is only
//!   in the archetypes whose list names it.
//! - Channels `<arch>-v<X>` (major) and/or `<arch>-v<X>.<Y>` (minor); entries in
//!   ascending version order.
//! - Linking, over all channels sorted by (archetype, kind, version): a
//!   partition is a run with the same archetype, kind and major version; in it,
//!   only the highest entry of each minor version gets edges: `replaces` the
//!   highest entry of the previous minor version, `skips` every other earlier
//!   entry of the partition, sorted as strings.
//! - The default channel is the "high-water mark" of channel creation.
//!
//! [`Linking::Legacy`] links as opm before v1.57 did, to reproduce catalogs
//! rendered then: per channel, the highest entry of each minor version
//! `replaces` and `skips` the highest entry of the previous minor version and
//! `skips` the lower entries of its own minor version, in ascending order.

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::doc::{go_type, Lines, TemplateDoc};
use crate::entries::entry_location;
use crate::error::{Failure, PostProcessError, SemverReadError, TemplateError};
use crate::source::BundleSources;
use crate::{Options, Rendered};
use olmsat_catalog::declcfg::{Bundle, Channel, ChannelEntry, DeclarativeConfig, Icon, Package};
use olmsat_catalog::property::{self, types, PropertyValue};
use olmsat_encoding::location::Location;
use olmsat_findings::diagnostic::{Diagnostic, Rule};
use olmsat_versions::version;

/// How `replaces` and `skips` are generated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Linking {
    /// opm v1.61 and later: over all channels of an archetype, kind and major
    /// version ("edge-scoped").
    #[default]
    EdgeScoped,
    /// opm before v1.57: per channel, the replaced entry also skipped.
    Legacy,
}

impl Linking {
    /// Every linking, in the order the `--semver-linking` values are listed.
    pub const ALL: [Linking; 2] = [Linking::EdgeScoped, Linking::Legacy];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Linking::EdgeScoped => "edge",
            Linking::Legacy => "legacy",
        }
    }
}

/// The schema of semver templates.
pub const SCHEMA: &str = "olm.semver";

/// A channel archetype, in rank order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Archetype {
    /// `candidate` (rank 0).
    Candidate,
    /// `fast` (rank 1).
    Fast,
    /// `stable` (rank 2).
    Stable,
}

impl Archetype {
    /// All, by rank.
    pub const ALL: [Archetype; 3] = [Archetype::Candidate, Archetype::Fast, Archetype::Stable];

    /// The channel name prefix and template key.
    pub fn name(self) -> &'static str {
        match self {
            Archetype::Candidate => "candidate",
            Archetype::Fast => "fast",
            Archetype::Stable => "stable",
        }
    }
}

/// Major- or minor-version channels. The order is opm's priority (major < minor).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `<arch>-v<X>`
    Major,
    /// `<arch>-v<X>.<Y>`
    Minor,
}

impl Kind {
    /// `major` or `minor`, as `defaultChannelTypePreference` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Major => "major",
            Kind::Minor => "minor",
        }
    }
}

/// One bundle reference of an archetype's list.
#[derive(Debug, Clone)]
pub struct Reference {
    /// The image.
    pub image: String,
    /// Where the reference is in the template.
    pub location: Location,
}

/// A semver template, read and checked.
#[derive(Debug, Clone)]
pub struct SemverTemplate {
    /// Generate major-version channels.
    pub major: bool,
    /// Generate minor-version channels.
    pub minor: bool,
    /// Which kind of channel the default channel prefers.
    pub preference: Kind,
    /// The references of each archetype, by [`Archetype`] rank.
    pub lists: [Vec<Reference>; 3],
    /// Where the template starts.
    pub location: Location,
}

type ReadResult<T> = Result<T, SemverReadError>;

/// The members of an object in document order (from the line table when it
/// has them), for Go's first-unknown-field error.
fn ordered<'v>(
    obj: &'v serde_json::Map<String, Value>,
    lines: Option<&Lines>,
) -> Vec<(&'v String, &'v Value)> {
    let mut out: Vec<(&String, &Value)> = Vec::new();
    if let Some(l) = lines {
        for (k, _) in &l.members {
            if let Some((key, v)) = obj.get_key_value(k) {
                if !out.iter().any(|(o, _)| *o == key) {
                    out.push((key, v));
                }
            }
        }
    }
    for (k, v) in obj {
        if !out.iter().any(|(o, _)| *o == k) {
            out.push((k, v));
        }
    }
    out
}

/// Go's field matching: `key` is `field` exactly or but for case.
fn is_field(key: &str, field: &str) -> bool {
    key.eq_ignore_ascii_case(field)
}

fn type_error(found: &Value, field: &str, expected: &'static str) -> SemverReadError {
    SemverReadError::Type {
        found: go_type(found),
        field: format!("SemverTemplateData.{field}"),
        expected,
    }
}

fn read_bool(v: &Value, field: &str) -> ReadResult<Option<bool>> {
    match v {
        Value::Null => Ok(None),
        Value::Bool(b) => Ok(Some(*b)),
        other => Err(type_error(other, field, "bool")),
    }
}

fn read_string(v: &Value, field: &str, go: &'static str) -> ReadResult<Option<String>> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s.clone())),
        other => Err(type_error(other, field, go)),
    }
}

/// One archetype's `{bundles: [{image}]}`, strictly.
fn read_list(
    doc: &TemplateDoc,
    arch: Archetype,
    v: &Value,
    key: &str,
) -> ReadResult<Vec<Reference>> {
    let field = arch.name();
    let obj = match v {
        Value::Null => return Ok(Vec::new()),
        Value::Object(o) => o,
        other => return Err(type_error(other, field, "semver.channelBundles")),
    };
    let lines = doc.lines.member(key);
    let mut out = Vec::new();
    for (k, val) in ordered(obj, lines) {
        if !is_field(k, "bundles") {
            return Err(SemverReadError::UnknownField(k.clone()));
        }
        let items = match val {
            Value::Null => continue,
            Value::Array(a) => a,
            other => {
                return Err(type_error(
                    other,
                    &format!("{field}.bundles"),
                    "[]semver.bundleEntry",
                ))
            }
        };
        out.clear();
        for (i, item) in items.iter().enumerate() {
            let location = entry_location(doc, &[key, k], i);
            let obj = match item {
                Value::Null => {
                    out.push(Reference {
                        image: String::new(),
                        location,
                    });
                    continue;
                }
                Value::Object(o) => o,
                other => {
                    return Err(type_error(
                        other,
                        &format!("{field}.bundles"),
                        "semver.bundleEntry",
                    ))
                }
            };
            let mut image = String::new();
            for (ik, iv) in obj {
                if !is_field(ik, "image") {
                    return Err(SemverReadError::UnknownField(ik.clone()));
                }
                if let Some(s) = read_string(iv, &format!("{field}.bundles.image"), "string")? {
                    image = s;
                }
            }
            out.push(Reference { image, location });
        }
    }
    Ok(out)
}

impl SemverTemplate {
    /// Read a semver template document as opm's `readFile` does (strict keys,
    /// the generate flags' and preference's rules).
    pub fn read(doc: &TemplateDoc) -> Result<SemverTemplate, SemverReadError> {
        let obj = match &doc.value {
            Value::Object(o) => o.clone(),
            Value::Null => serde_json::Map::new(),
            other => return Err(SemverReadError::NotAnObject(go_type(other))),
        };
        let mut schema = String::new();
        let mut major = false;
        let mut minor = false;
        let mut preference = String::new();
        let mut lists: [Vec<Reference>; 3] = Default::default();
        for (k, v) in ordered(&obj, Some(&doc.lines)) {
            if is_field(k, "schema") {
                schema = read_string(v, "schema", "string")?.unwrap_or_default();
            } else if is_field(k, "generateMajorChannels") {
                major = read_bool(v, "generateMajorChannels")?.unwrap_or(false);
            } else if is_field(k, "generateMinorChannels") {
                minor = read_bool(v, "generateMinorChannels")?.unwrap_or(false);
            } else if is_field(k, "defaultChannelTypePreference") {
                preference = read_string(v, "defaultChannelTypePreference", "semver.StreamType")?
                    .unwrap_or_default();
            } else if let Some(arch) = Archetype::ALL.into_iter().find(|a| is_field(k, a.name())) {
                lists[arch as usize] = read_list(doc, arch, v, k)?;
            } else {
                return Err(SemverReadError::UnknownField(k.clone()));
            }
        }
        if schema != SCHEMA {
            return Err(SemverReadError::WrongSchema);
        }
        if !major && !minor {
            minor = true;
        }
        let preference = match preference.as_str() {
            "" if minor => Kind::Minor,
            "" => Kind::Major,
            "minor" if !minor => return Err(SemverReadError::Mismatch("minor")),
            "major" if !major => return Err(SemverReadError::Mismatch("major")),
            "minor" => Kind::Minor,
            "major" => Kind::Major,
            other => return Err(SemverReadError::UnknownPreference(other.to_owned())),
        };
        Ok(SemverTemplate {
            major,
            minor,
            preference,
            lists,
            location: doc.location.clone(),
        })
    }
}

/// A bundle of an archetype: name and version.
#[derive(Debug, Clone)]
struct Member {
    name: String,
    version: semver::Version,
}

/// The version of a rendered bundle, with opm's checks; `pkg` is the package
/// of the first bundle seen (set here when empty).
fn bundle_version(b: &Bundle, pkg: &mut String) -> Result<semver::Version, PostProcessError> {
    let mut packages = Vec::new();
    for p in b.properties.iter().filter(|p| p.type_ == types::PACKAGE) {
        match property::parse(p) {
            Ok(PropertyValue::Package {
                package_name,
                version,
                ..
            }) => packages.push((package_name, version)),
            Ok(_) => {}
            Err(e) => return Err(PostProcessError::Properties(b.name.clone(), e)),
        }
    }
    let [(package_name, text)] = packages.as_slice() else {
        return Err(PostProcessError::PackageProperties(b.name.clone()));
    };
    let v = version::parse_strict(text).map_err(|e| PostProcessError::InvalidVersion {
        name: b.name.clone(),
        version: text.clone(),
        error: e.message().to_owned(),
    })?;
    if pkg.is_empty() {
        pkg.clone_from(package_name);
    } else if package_name != pkg {
        return Err(PostProcessError::WrongPackage {
            bundle_package: package_name.clone(),
            package: pkg.clone(),
        });
    }
    Ok(v)
}

fn without_build(v: &semver::Version) -> semver::Version {
    let mut s = v.clone();
    s.build = semver::BuildMetadata::EMPTY;
    s
}

/// A channel being built: its entries and where each entry sits in the sort.
#[derive(Debug)]
struct Tuple {
    arch: Archetype,
    kind: Kind,
    channel: usize,
    index: usize,
    name: String,
    version: semver::Version,
}

/// The default channel candidate ("high-water mark").
#[derive(Debug, Clone)]
struct HighWater {
    arch: Archetype,
    kind: Option<Kind>,
    version: semver::Version,
    name: String,
}

impl HighWater {
    fn beats(&self, other: &HighWater, pref: Kind) -> bool {
        if self.arch != other.arch {
            return self.arch > other.arch;
        }
        match version::compare(&self.version, &other.version) {
            Ordering::Equal => {}
            o => return o == Ordering::Greater,
        }
        if self.kind != other.kind {
            if self.kind == Some(pref) {
                return true;
            }
            if other.kind == Some(pref) {
                return false;
            }
            return self.kind > other.kind;
        }
        false
    }
}

/// Channels and default channel from the archetypes' members.
fn generate(
    t: &SemverTemplate,
    pkg: &str,
    members: &[Vec<Member>; 3],
    linking: Linking,
) -> (Vec<Channel>, String) {
    let mut channels: Vec<Channel> = Vec::new();
    let mut by_name: HashMap<String, usize> = HashMap::new();
    let mut tuples: Vec<Tuple> = Vec::new();
    let mut hwc = HighWater {
        arch: Archetype::Candidate,
        kind: None,
        version: semver::Version::new(0, 0, 0),
        name: String::new(),
    };
    let kinds: Vec<Kind> = [(t.major, Kind::Major), (t.minor, Kind::Minor)]
        .into_iter()
        .filter_map(|(on, k)| on.then_some(k))
        .collect();
    for arch in Archetype::ALL {
        let mut sorted: Vec<&Member> = members[arch as usize].iter().collect();
        sorted.sort_by(|a, b| version::compare(&a.version, &b.version));
        for m in sorted {
            for &kind in &kinds {
                let name = match kind {
                    Kind::Major => format!("{}-v{}", arch.name(), m.version.major),
                    Kind::Minor => {
                        format!("{}-v{}.{}", arch.name(), m.version.major, m.version.minor)
                    }
                };
                let ci = match by_name.get(&name) {
                    Some(&i) => i,
                    None => {
                        let cand = HighWater {
                            arch,
                            kind: Some(kind),
                            version: m.version.clone(),
                            name: name.clone(),
                        };
                        if cand.beats(&hwc, t.preference) {
                            hwc = cand;
                        }
                        channels.push(Channel {
                            name: name.clone(),
                            package: pkg.to_owned(),
                            entries: Vec::new(),
                            properties: Vec::new(),
                            location: t.location.clone(),
                        });
                        by_name.insert(name, channels.len() - 1);
                        channels.len() - 1
                    }
                };
                channels[ci].entries.push(ChannelEntry {
                    name: m.name.clone(),
                    replaces: None,
                    skips: Vec::new(),
                    skip_range: None,
                    location: t.location.clone(),
                });
                tuples.push(Tuple {
                    arch,
                    kind,
                    channel: ci,
                    index: channels[ci].entries.len() - 1,
                    name: m.name.clone(),
                    version: m.version.clone(),
                });
            }
        }
    }
    match linking {
        Linking::EdgeScoped => link(&mut channels, &mut tuples),
        Linking::Legacy => link_legacy(&mut channels, &tuples),
    }
    channels.sort_by(|a, b| a.name.cmp(&b.name));
    (channels, hwc.name)
}

/// Set `replaces` and `skips` (opm's edge-scoped linking).
fn link(channels: &mut [Channel], tuples: &mut [Tuple]) {
    tuples.sort_by(|a, b| {
        a.arch
            .cmp(&b.arch)
            .then(a.kind.cmp(&b.kind))
            .then_with(|| version::compare(&a.version, &b.version))
    });
    let mut set_edges = |t: &Tuple, replaces: &str, skips: &BTreeSet<String>| {
        let e = &mut channels[t.channel].entries[t.index];
        e.replaces = (!replaces.is_empty()).then(|| replaces.to_owned());
        let s: Vec<String> = skips.iter().filter(|s| *s != replaces).cloned().collect();
        if !s.is_empty() {
            e.skips = s;
        }
    };
    let mut prev_z_max = String::new();
    let mut skips: BTreeSet<String> = BTreeSet::new();
    for i in 1..tuples.len() {
        let (prev, cur) = (&tuples[i - 1], &tuples[i]);
        let partition_change = prev.arch != cur.arch
            || prev.kind != cur.kind
            || prev.version.major != cur.version.major;
        let y_change = prev.version.minor != cur.version.minor;
        if partition_change || y_change {
            set_edges(prev, &prev_z_max, &skips);
        }
        if partition_change {
            skips.clear();
            prev_z_max.clear();
        } else {
            if y_change {
                prev_z_max.clone_from(&prev.name);
            }
            skips.insert(prev.name.clone());
        }
    }
    if let [.., pen, last] = tuples {
        if pen.arch == last.arch && pen.kind == last.kind && pen.version.major == last.version.major
        {
            set_edges(last, &prev_z_max, &skips);
        }
    }
}

/// Set `replaces` and `skips` per channel, as opm before v1.57 did. Entries
/// are already in ascending version order within each channel.
fn link_legacy(channels: &mut [Channel], tuples: &[Tuple]) {
    let mut versions: Vec<Vec<&semver::Version>> = vec![Vec::new(); channels.len()];
    for t in tuples {
        let v = &mut versions[t.channel];
        if v.len() <= t.index {
            v.resize(t.index + 1, &t.version);
        }
        v[t.index] = &t.version;
    }
    for (channel, versions) in channels.iter_mut().zip(&versions) {
        let entries = &mut channel.entries;
        let mut previous_max: Option<String> = None;
        let mut start = 0;
        while start < entries.len() {
            let minor = (versions[start].major, versions[start].minor);
            let end = (start..entries.len())
                .find(|&i| (versions[i].major, versions[i].minor) != minor)
                .unwrap_or(entries.len());
            let last = end - 1;
            let mut skips: Vec<String> = previous_max.iter().cloned().collect();
            skips.extend(entries[start..last].iter().map(|e| e.name.clone()));
            let e = &mut entries[last];
            e.replaces.clone_from(&previous_max);
            e.skips = skips;
            previous_max = Some(e.name.clone());
            start = end;
        }
    }
}

/// The CSV of a bundle, from its `olm.bundle.object`s.
fn csv_of(b: &Bundle) -> Option<Value> {
    b.properties
        .iter()
        .filter(|p| p.type_ == types::BUNDLE_OBJECT)
        .filter_map(|p| {
            let v: Value = serde_json::from_str(p.value.get()).ok()?;
            let data = property::decode_bundle_object(v.get("data")?.as_str()?)?;
            serde_json::from_slice::<Value>(&data).ok()
        })
        .find(|o| o.get("kind").and_then(Value::as_str) == Some("ClusterServiceVersion"))
}

/// Description and first icon of the package, from the CSV of the default
/// channel's last entry; a warning when only `olm.csv.metadata` is there.
fn package_metadata(pkg: &mut Package, head: Option<&Bundle>, warnings: &mut Vec<Diagnostic>) {
    let Some(b) = head else { return };
    if let Some(csv) = csv_of(b) {
        let spec = csv.get("spec");
        if let Some(d) = spec
            .and_then(|s| s.get("description"))
            .and_then(Value::as_str)
        {
            pkg.description = d.to_owned();
        }
        if let Some(first) = spec
            .and_then(|s| s.get("icon"))
            .and_then(Value::as_array)
            .and_then(|a| a.first())
        {
            let text = |k: &str| {
                first
                    .get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            let icon = Icon {
                base64data: text("base64data"),
                mediatype: text("mediatype"),
            };
            if !icon.base64data.is_empty() || !icon.mediatype.is_empty() {
                pkg.icon = Some(icon);
            }
        }
        return;
    }
    let meta = b
        .properties
        .iter()
        .find(|p| p.type_ == types::CSV_METADATA)
        .and_then(|p| serde_json::from_str::<Value>(p.value.get()).ok());
    if let Some(m) = meta {
        if let Some(d) = m.get("description").and_then(Value::as_str) {
            pkg.description = d.to_owned();
        }
        warnings.push(
            Diagnostic::new(Rule::TemplateIconMissing, format!(
                "package {:?} is written without an icon: bundle {:?} has olm.csv.metadata, which carries no icon (opm takes it from the CSV in the image)",
                pkg.name, b.name
            ))
            .at(&b.location),
        );
    }
}

/// Render a semver template.
pub fn render(
    doc: &TemplateDoc,
    sources: &BundleSources,
    opts: &Options,
) -> Result<Rendered, Failure> {
    let t = SemverTemplate::read(doc)
        .map_err(|e| Failure::at(TemplateError::SemverRead(e), &doc.location))?;
    render_read(&t, sources, opts)
}

/// Render a semver template that has been read.
pub fn render_read(
    t: &SemverTemplate,
    sources: &BundleSources,
    opts: &Options,
) -> Result<Rendered, Failure> {
    let (lookup, linking) = (opts.lookup, opts.linking);
    let mut warnings = Vec::new();
    let mut bundles: Vec<Bundle> = Vec::new();
    // image in the template → image of its rendered bundle
    let mut rendered: HashMap<&str, String> = HashMap::new();
    for r in t.lists.iter().flatten() {
        if rendered.contains_key(r.image.as_str()) {
            continue;
        }
        let (mut got, w) = sources
            .render(&r.image, lookup, &r.location)
            .map_err(|e| Failure::at(e, &r.location))?;
        warnings.extend(w);
        if got.len() != 1 {
            return Err(Failure::at(
                TemplateError::BundleCount {
                    image: r.image.clone(),
                    count: got.len(),
                },
                &r.location,
            ));
        }
        let b = got.remove(0);
        rendered.insert(&r.image, b.image.clone());
        bundles.push(b);
    }
    if bundles.is_empty() {
        return Err(Failure::at(TemplateError::NoBundles, &t.location));
    }
    let by_image: HashMap<&str, usize> = bundles
        .iter()
        .enumerate()
        .rev()
        .map(|(i, b)| (b.image.as_str(), i))
        .collect();
    let mut pkg = String::new();
    let mut members: [Vec<Member>; 3] = Default::default();
    let post = |e: PostProcessError, at: &Location| Failure::at(TemplateError::PostProcess(e), at);
    for arch in Archetype::ALL {
        let list = &mut members[arch as usize];
        let mut names: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for r in &t.lists[arch as usize] {
            let image = rendered[r.image.as_str()].as_str();
            let Some(b) = by_image.get(image).map(|&i| &bundles[i]) else {
                return Err(post(
                    PostProcessError::NotFound(r.image.clone()),
                    &r.location,
                ));
            };
            let version = bundle_version(b, &mut pkg).map_err(|e| post(e, &r.location))?;
            if !names.insert(&b.name) {
                return Err(post(
                    PostProcessError::Duplicate(b.name.clone()),
                    &r.location,
                ));
            }
            list.push(Member {
                name: b.name.clone(),
                version,
            });
        }
        let mut seen: std::collections::HashSet<semver::Version> = std::collections::HashSet::new();
        let mut clashes = Vec::new();
        for m in list.iter() {
            let stripped = without_build(&m.version);
            if seen.contains(&stripped) {
                clashes.push((m.version.to_string(), stripped.to_string()));
            } else {
                seen.insert(stripped);
            }
        }
        if !clashes.is_empty() {
            let at = t.lists[arch as usize]
                .first()
                .map_or(&t.location, |r| &r.location);
            return Err(post(PostProcessError::BuildMetadata(clashes), at));
        }
    }
    let (channels, default_channel) = generate(t, &pkg, &members, linking);
    let mut package = Package {
        name: pkg.clone(),
        default_channel: default_channel.clone(),
        icon: None,
        description: String::new(),
        properties: Vec::new(),
        location: t.location.clone(),
    };
    let head = channels
        .iter()
        .find(|c| c.name == default_channel)
        .and_then(|c| c.entries.last())
        .and_then(|e| bundles.iter().find(|b| b.name == e.name));
    package_metadata(&mut package, head, &mut warnings);
    Ok(Rendered {
        config: DeclarativeConfig {
            packages: vec![package],
            channels,
            bundles,
            ..DeclarativeConfig::default()
        },
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tuple_channels(versions: &[&str], major: bool, minor: bool) -> Vec<Channel> {
        let t = SemverTemplate {
            major,
            minor,
            preference: if minor { Kind::Minor } else { Kind::Major },
            lists: Default::default(),
            location: Location::default(),
        };
        let members: [Vec<Member>; 3] = [
            Vec::new(),
            Vec::new(),
            versions
                .iter()
                .map(|v| Member {
                    name: format!("op.v{v}"),
                    version: version::parse_strict(v).unwrap(),
                })
                .collect(),
        ];
        generate(&t, "op", &members, Linking::EdgeScoped).0
    }

    #[test]
    fn a_lone_major_after_another_gets_no_edges() {
        let ch = tuple_channels(&["1.0.0", "1.1.0", "2.1.0"], true, false);
        assert_eq!(ch[1].name, "stable-v2");
        assert!(ch[1].entries[0].replaces.is_none());
        assert_eq!(ch[0].entries[1].replaces.as_deref(), Some("op.v1.0.0"));
    }

    #[test]
    fn minimum_viable_channel() {
        let ch = tuple_channels(&["1.0.0"], true, false);
        assert_eq!(ch.len(), 1);
        assert!(ch[0].entries[0].replaces.is_none() && ch[0].entries[0].skips.is_empty());
    }

    #[test]
    fn kinds_are_named() {
        assert_eq!(Kind::Major.name(), "major");
        assert!(Kind::Major < Kind::Minor);
    }
}
