//! Deterministic synthetic catalogs for benchmarks, tests and experiments.
//!
//! The same [`Spec`] always gives the same catalog. Each package has a `stable`
//! channel holding all its bundles along a `replaces` chain, with every fifth entry
//! replacing two back and skipping the one in between (a skips fan) and every tenth carrying a
//! `skipRange` over the ten versions before it (as real operators cover the previous minor), plus a `fast` channel with the newest
//! bundles. Bundles provide an API named after their package; with
//! `chain_depth > 0`, packages form dependency chains of that depth through
//! `olm.gvk.required` (and every seventh bundle also requires a package range).
//! Payloads mimic real catalogs: `olm.csv.metadata` in current catalogs,
//! `olm.bundle.object` in older ones.

use serde_json::json;

use crate::declcfg::{
    Bundle, Channel, ChannelEntry, DeclarativeConfig, Package, Property, RelatedImage,
};
use olmsat_encoding::location::Location;
use olmsat_encoding::rawjson::to_raw;

/// What kind of bulky property each bundle carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payload {
    /// None: only the small properties.
    None,
    /// An `olm.csv.metadata` property (catalogs for OpenShift 4.17 and later).
    CsvMetadata,
    /// An `olm.bundle.object` property holding a base64 CSV (older catalogs).
    BundleObject,
}

/// A payload name other than `none`, `csv-metadata` and `bundle-object`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown payload {0:?}: use none, csv-metadata or bundle-object")]
pub struct UnknownPayload(pub String);

impl std::str::FromStr for Payload {
    type Err = UnknownPayload;

    /// `none`, `csv-metadata` or `bundle-object`.
    fn from_str(name: &str) -> Result<Payload, UnknownPayload> {
        match name {
            "none" => Ok(Payload::None),
            "csv-metadata" => Ok(Payload::CsvMetadata),
            "bundle-object" => Ok(Payload::BundleObject),
            other => Err(UnknownPayload(other.to_owned())),
        }
    }
}

/// The shape of a synthetic catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// Number of packages.
    pub packages: usize,
    /// Total number of bundles (spread evenly over the packages).
    pub bundles: usize,
    /// Seed of the pseudo-random choices.
    pub seed: u64,
    /// Depth of the dependency chains between packages (0: no dependencies).
    pub chain_depth: usize,
    /// Bulky property per bundle.
    pub payload: Payload,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            packages: 100,
            bundles: 5_000,
            seed: 1,
            chain_depth: 3,
            payload: Payload::CsvMetadata,
        }
    }
}

/// splitmix64: small, fast, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
}

/// The name of package `i`.
pub fn package_name(i: usize) -> String {
    format!("synthetic-operator-{i:05}")
}

/// The name of bundle `j` of package `i`.
pub fn bundle_name(i: usize, j: usize) -> String {
    format!("{}.v{}", package_name(i), version(j))
}

fn version(j: usize) -> String {
    format!("{}.{}.{}", 1 + j / 100, (j / 10) % 10, j % 10)
}

fn kind(i: usize) -> String {
    format!("Synthetic{i:05}")
}

const WORDS: &[&str] = &[
    "operator",
    "cluster",
    "manages",
    "the",
    "lifecycle",
    "of",
    "database",
    "instances",
    "with",
    "backups",
    "upgrades",
    "and",
    "monitoring",
    "across",
    "namespaces",
    "using",
    "custom",
    "resources",
    "for",
    "teams",
];

fn text(rng: &mut Rng, words: usize) -> String {
    let mut s = String::with_capacity(words * 8);
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
    }
    s
}

/// Split a catalog into one config per package (by package name), as the
/// generator's catalogs are written: one file per package.
pub fn by_package(cfg: DeclarativeConfig) -> std::collections::BTreeMap<String, DeclarativeConfig> {
    let mut out: std::collections::BTreeMap<String, DeclarativeConfig> =
        std::collections::BTreeMap::new();
    for p in cfg.packages {
        out.entry(p.name.clone()).or_default().packages.push(p);
    }
    for c in cfg.channels {
        out.entry(c.package.clone()).or_default().channels.push(c);
    }
    for b in cfg.bundles {
        out.entry(b.package.clone()).or_default().bundles.push(b);
    }
    out
}

/// Write `cfg` under `dir` as the generator's catalogs are laid out: one
/// `<package>/catalog.<ext>` per package ([`by_package`]).
///
/// # Errors
///
/// A directory or file cannot be made or written.
pub fn write_by_package(
    cfg: DeclarativeConfig,
    dir: &std::path::Path,
    format: crate::write::Format,
) -> std::io::Result<()> {
    use std::io::Write as _;
    for (name, part) in by_package(cfg) {
        let package_dir = dir.join(&name);
        std::fs::create_dir_all(&package_dir)?;
        let file = package_dir.join(format!("catalog.{}", format.extension()));
        let mut out = std::io::BufWriter::new(std::fs::File::create(file)?);
        crate::write::write(&part, format, &mut out)?;
        out.flush()?;
    }
    Ok(())
}

/// Generate the catalog described by `spec`.
pub fn generate(spec: &Spec) -> DeclarativeConfig {
    let mut rng = Rng(spec.seed);
    let loc = Location::new(std::sync::Arc::from("<synthetic>"), 0);
    let mut cfg = DeclarativeConfig::default();
    let packages = spec.packages.max(1);
    let per = (spec.bundles / packages).max(1);
    for i in 0..packages {
        let pkg = package_name(i);
        cfg.packages.push(Package {
            name: pkg.clone(),
            default_channel: "stable".into(),
            icon: None,
            description: text(&mut rng, 40),
            properties: Vec::new(),
            location: loc.clone(),
        });
        let mut stable = Vec::with_capacity(per);
        for j in 0..per {
            let name = bundle_name(i, j);
            // A skips fan: replace two back and skip the one in between.
            let fan = j >= 2 && j % 5 == 0;
            let skips = if fan {
                vec![bundle_name(i, j - 1)]
            } else {
                Vec::new()
            };
            let replaces = match j {
                0 => None,
                _ if fan => Some(bundle_name(i, j - 2)),
                _ => Some(bundle_name(i, j - 1)),
            };
            // Like real operators' `>=4.1.0 <4.2.0`: the previous ten versions.
            let skip_range =
                (j > 0 && j % 10 == 0).then(|| format!(">={} <{}", version(j - 10), version(j)));
            stable.push(ChannelEntry {
                name,
                replaces,
                skips,
                skip_range,
                location: loc.clone(),
            });
        }
        let fast_from = per.saturating_sub(3);
        let fast: Vec<ChannelEntry> = (fast_from..per)
            .map(|j| ChannelEntry {
                name: bundle_name(i, j),
                replaces: (j > fast_from).then(|| bundle_name(i, j - 1)),
                skips: Vec::new(),
                skip_range: None,
                location: loc.clone(),
            })
            .collect();
        cfg.channels.push(Channel {
            name: "stable".into(),
            package: pkg.clone(),
            entries: stable,
            properties: Vec::new(),
            location: loc.clone(),
        });
        cfg.channels.push(Channel {
            name: "fast".into(),
            package: pkg.clone(),
            entries: fast,
            properties: Vec::new(),
            location: loc.clone(),
        });
        // Packages i, i+1, ..., i+depth form a chain when i is a multiple of depth+1.
        let requires = (spec.chain_depth > 0
            && i % (spec.chain_depth + 1) != spec.chain_depth
            && i + 1 < packages)
            .then_some(i + 1);
        for j in 0..per {
            let mut props = vec![
                prop(
                    "olm.gvk",
                    json!({"group": "synthetic.example.com", "kind": kind(i), "version": "v1"}),
                ),
                prop(
                    "olm.package",
                    json!({"packageName": pkg, "version": version(j)}),
                ),
            ];
            if let Some(r) = requires {
                props.push(prop(
                    "olm.gvk.required",
                    json!({"group": "synthetic.example.com", "kind": kind(r), "version": "v1"}),
                ));
                if j % 7 == 0 {
                    props.push(prop(
                        "olm.package.required",
                        json!({"packageName": package_name(r), "versionRange": ">=1.0.0"}),
                    ));
                }
            }
            match spec.payload {
                Payload::None => {}
                Payload::CsvMetadata => props.push(prop(
                    "olm.csv.metadata",
                    json!({
                        "annotations": {"capabilities": "Basic Install", "categories": "Database", "containerImage": format!("quay.io/synthetic/{pkg}:v{}", version(j))},
                        "description": text(&mut rng, 200),
                        "displayName": format!("Synthetic Operator {i}"),
                        "installModes": [{"supported": true, "type": "OwnNamespace"}, {"supported": true, "type": "AllNamespaces"}],
                        "keywords": ["synthetic", "database"],
                        "maintainers": [{"email": "team@example.com", "name": "Team"}],
                        "provider": {"name": "Example"},
                        "crdDescriptions": {"owned": [{"description": text(&mut rng, 20), "displayName": kind(i), "kind": kind(i), "name": format!("{}s.synthetic.example.com", kind(i).to_lowercase()), "version": "v1"}]}
                    }),
                )),
                Payload::BundleObject => {
                    use base64::Engine as _;
                    let csv = json!({"apiVersion": "operators.coreos.com/v1alpha1", "kind": "ClusterServiceVersion",
                        "metadata": {"name": bundle_name(i, j)}, "spec": {"description": text(&mut rng, 300), "displayName": format!("Synthetic Operator {i}"), "version": version(j)}});
                    let data = base64::engine::general_purpose::STANDARD.encode(csv.to_string());
                    props.push(prop("olm.bundle.object", json!({"data": data})));
                }
            }
            cfg.bundles.push(Bundle {
                name: bundle_name(i, j),
                package: pkg.clone(),
                image: format!("quay.io/synthetic/{pkg}-bundle:v{}", version(j)),
                properties: props,
                related_images: vec![RelatedImage {
                    name: "operator".into(),
                    image: format!("quay.io/synthetic/{pkg}:v{}", version(j)),
                }],
                location: loc.clone(),
            });
        }
    }
    cfg
}

fn prop(type_: &str, value: serde_json::Value) -> Property {
    Property {
        type_: type_.to_owned(),
        value: to_raw(&value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::{write, Format};

    #[test]
    fn written_one_file_per_package() {
        let spec = Spec {
            packages: 3,
            bundles: 9,
            seed: 7,
            chain_depth: 1,
            payload: Payload::None,
        };
        let dir = tempfile::tempdir().expect("temporary directory");
        write_by_package(generate(&spec), dir.path(), Format::Yaml).expect("written");
        let mut files: Vec<String> = walk(dir.path());
        files.sort();
        assert_eq!(files.len(), 3, "{files:?}");
        assert!(
            files.iter().all(|f| f.ends_with("/catalog.yaml")),
            "{files:?}"
        );
        let loaded = crate::load::load_paths(&[dir.path()]).expect("read back");
        assert_eq!(loaded.config.packages.len(), 3);
        assert!(!loaded.has_errors());
    }

    fn walk(dir: &std::path::Path) -> Vec<String> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).expect("listed") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p.display().to_string());
            }
        }
        out
    }

    #[test]
    fn payload_names() {
        assert_eq!("none".parse(), Ok(Payload::None));
        assert_eq!("csv-metadata".parse(), Ok(Payload::CsvMetadata));
        assert_eq!("bundle-object".parse(), Ok(Payload::BundleObject));
        let e = "csv".parse::<Payload>().expect_err("unknown");
        assert_eq!(
            e.to_string(),
            "unknown payload \"csv\": use none, csv-metadata or bundle-object"
        );
    }

    #[test]
    fn deterministic_and_valid() {
        let spec = Spec {
            packages: 7,
            bundles: 140,
            ..Spec::default()
        };
        let mut a = Vec::new();
        write(&generate(&spec), Format::Json, &mut a).unwrap();
        let mut b = Vec::new();
        write(&generate(&spec), Format::Json, &mut b).unwrap();
        assert_eq!(a, b);
        let loaded = crate::load::load_bytes("synthetic.json", &a);
        assert!(!loaded.has_errors());
        let (model, report) = crate::validate::validate(loaded);
        assert!(
            report.passed(),
            "{:?}",
            &report.errors[..report.errors.len().min(3)]
        );
        assert_eq!(model.bundle_count(), 140);
    }
}
