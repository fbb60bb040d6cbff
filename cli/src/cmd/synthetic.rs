//! `olmsat synthetic`

use std::io::Write;
use std::path::Path;

use olmsat_graph::declcfg::DeclarativeConfig;
use olmsat_graph::synthetic::{generate, Payload, Spec};
use olmsat_graph::write::{write, Format};

use crate::output::Exit;
use crate::RenderFormat;

/// Write a synthetic catalog under `out`, one `<package>/catalog.<ext>` per package.
pub fn run(
    spec: &Spec,
    out: &Path,
    format: RenderFormat,
) -> Result<Exit, Box<dyn std::error::Error>> {
    if out.exists() && std::fs::read_dir(out)?.next().is_some() {
        return Err(format!("output dir {:?} must be empty", out.display().to_string()).into());
    }
    let cfg = generate(spec);
    let (format, ext) = match format {
        RenderFormat::Json => (Format::Json, "json"),
        RenderFormat::Yaml => (Format::Yaml, "yaml"),
    };
    let mut by_package: std::collections::BTreeMap<String, DeclarativeConfig> =
        std::collections::BTreeMap::new();
    for p in cfg.packages {
        by_package
            .entry(p.name.clone())
            .or_default()
            .packages
            .push(p);
    }
    for c in cfg.channels {
        by_package
            .entry(c.package.clone())
            .or_default()
            .channels
            .push(c);
    }
    for b in cfg.bundles {
        by_package
            .entry(b.package.clone())
            .or_default()
            .bundles
            .push(b);
    }
    for (name, part) in by_package {
        let dir = out.join(&name);
        std::fs::create_dir_all(&dir)?;
        let mut f =
            std::io::BufWriter::new(std::fs::File::create(dir.join(format!("catalog.{ext}")))?);
        write(&part, format, &mut f)?;
        f.flush()?;
    }
    Ok(Exit::Ok)
}

/// Parse a payload name.
pub fn payload(name: &str) -> Result<Payload, String> {
    match name {
        "none" => Ok(Payload::None),
        "csv-metadata" => Ok(Payload::CsvMetadata),
        "bundle-object" => Ok(Payload::BundleObject),
        other => Err(format!(
            "unknown payload {other:?}: use none, csv-metadata or bundle-object"
        )),
    }
}
