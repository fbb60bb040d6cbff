//! `olmsat synthetic`

use std::io::Write;
use std::path::Path;

use olmsat_graph::synthetic::{by_package, generate, Payload, Spec};
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
    let by_package = by_package(cfg);
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
