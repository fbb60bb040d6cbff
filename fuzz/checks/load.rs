//! The `load` fuzz target's body: bytes -> load -> model + validate -> render
//! JSON and YAML. Shared with the replay tests (`graph/tests/fuzz_regressions.rs`).
//!
//! Beyond "no panic", it checks that the fast readers and the general readers
//! load the same blobs and problems (compared as values), that every diagnostic has a location in the input
//! and that a catalog that loads cleanly renders to a fixed point in both formats,
//! and converts from JSON to YAML and back without change.

use olmsat_catalog::load::{load_bytes, load_bytes_with, Options, Readers, Select};
use olmsat_catalog::validate::validate;
use olmsat_catalog::write::{write, Format};

/// Name the input is loaded under.
const NAME: &str = "fuzz.yaml";

/// Run the whole pipeline over `data`; panics when an invariant breaks.
pub(crate) fn check(data: &[u8]) {
    let loaded = load_bytes(NAME, data);
    // The fast readers read exactly what the general readers read.
    let general = load_bytes_with(
        NAME,
        data,
        &Options {
            select: Select::All,
            readers: Readers::General,
        },
    );
    assert!(
        loaded == general,
        "the fast readers and the general readers differ:\n{loaded:?}\n---- general ----\n{general:?}"
    );
    for d in &loaded.diagnostics {
        let loc = d
            .location
            .as_ref()
            .expect("load diagnostics have a location");
        assert_eq!(&*loc.file, NAME);
    }
    let clean = !loaded.has_errors();
    let blobs = rendered_blobs(&loaded.config);
    let json = render(&loaded.config, Format::Json);
    let yaml = render(&loaded.config, Format::Yaml);
    let (_model, report) = validate(loaded);
    let _ = report.passed();
    if !clean {
        return;
    }
    // JSON: a byte-for-byte fixed point.
    let reloaded = reload(&json, blobs);
    let twice = render(&reloaded, Format::Json);
    assert!(
        json == twice,
        "JSON rendering is not a fixed point:\n{}\n---- then ----\n{}",
        String::from_utf8_lossy(&json),
        String::from_utf8_lossy(&twice)
    );
    // YAML: the same values. Not always the same text: like opm (go-yaml), the
    // writer prints a float with an integral value such as 1.5e13 as `1.5e+13`,
    // which reads back as the integer 15000000000000.
    let from_yaml = render(&reload(&yaml, blobs), Format::Json);
    assert!(
        same_values(&json, &from_yaml),
        "JSON -> YAML -> JSON changed the catalog:\n{}\n---- then ----\n{}",
        String::from_utf8_lossy(&json),
        String::from_utf8_lossy(&from_yaml)
    );
    let yaml_twice = render(&reload(&yaml, blobs), Format::Yaml);
    let from_yaml_twice = render(&reload(&yaml_twice, blobs), Format::Json);
    assert!(
        same_values(&json, &from_yaml_twice),
        "YAML rendered twice changed the catalog:\n{}\n---- then ----\n{}",
        String::from_utf8_lossy(&yaml),
        String::from_utf8_lossy(&yaml_twice)
    );
}

/// Load rendered output, which must load cleanly with the same blobs.
fn reload(rendered: &[u8], blobs: usize) -> olmsat_catalog::DeclarativeConfig {
    let reloaded = load_bytes("rendered", rendered);
    assert!(
        !reloaded.has_errors(),
        "the rendering does not load back: {:?}\n{}",
        reloaded.diagnostics,
        String::from_utf8_lossy(rendered)
    );
    assert_eq!(rendered_blobs(&reloaded.config), blobs, "blob count");
    reloaded.config
}

/// Whether two JSON streams hold the same values, numbers compared by value.
fn same_values(a: &[u8], b: &[u8]) -> bool {
    let values = |t: &[u8]| -> Vec<serde_json::Value> {
        serde_json::Deserializer::from_slice(t)
            .into_iter::<serde_json::Value>()
            .map(|v| v.expect("rendered JSON parses"))
            .collect()
    };
    let (a, b) = (values(a), values(b));
    a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| same_value(x, y))
}

fn same_value(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k, p), (l, q))| k == l && same_value(p, q))
        }
        _ => a == b,
    }
}

/// The blobs the writers keep: like opm's, they leave out packages, channels,
/// bundles and deprecations that name no package (validation reports those).
fn rendered_blobs(cfg: &olmsat_catalog::DeclarativeConfig) -> usize {
    cfg.packages.iter().filter(|p| !p.name.is_empty()).count()
        + cfg
            .channels
            .iter()
            .filter(|c| !c.package.is_empty())
            .count()
        + cfg.bundles.iter().filter(|b| !b.package.is_empty()).count()
        + cfg
            .deprecations
            .iter()
            .filter(|d| !d.package.is_empty())
            .count()
        + cfg.others.len()
}

fn render(cfg: &olmsat_catalog::DeclarativeConfig, format: Format) -> Vec<u8> {
    let mut out = Vec::new();
    write(cfg, format, &mut out).expect("writing to memory does not fail");
    out
}
