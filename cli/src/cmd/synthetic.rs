//! `olmsat synthetic`

use std::io::Write;

use olmsat_catalog::generate_synthetic;
use olmsat_catalog::split_by_package;
use olmsat_catalog::write;
use olmsat_catalog::SyntheticSpec;

use crate::args::{OldSpelling, RenderFormat, SyntheticArgs};
use crate::output::Exit;

/// Write a synthetic catalog under the output directory, one
/// `<package>/catalog.<ext>` per package.
pub fn run(args: &SyntheticArgs) -> super::Outcome {
    if let Some(dir) = &args.old_output {
        return Err(OldSpelling {
            old: "-o DIR",
            hint: format!("give the directory with --output-dir {}", dir.display()),
        }
        .into());
    }
    let Some(out) = &args.output_dir else {
        return Err("give the output directory with --output-dir DIR".into());
    };
    if out.exists() && std::fs::read_dir(out)?.next().is_some() {
        return Err(format!("output dir {:?} must be empty", out.display().to_string()).into());
    }
    let cfg = generate_synthetic(&SyntheticSpec {
        packages: args.packages,
        bundles: args.bundles,
        seed: args.seed,
        chain_depth: args.depth,
        payload: args.payload,
    });
    let ext = match args.format {
        RenderFormat::Json => "json",
        RenderFormat::Yaml => "yaml",
    };
    let format = args.format;
    for (name, part) in split_by_package(cfg) {
        let dir = out.join(&name);
        std::fs::create_dir_all(&dir)?;
        let mut f =
            std::io::BufWriter::new(std::fs::File::create(dir.join(format!("catalog.{ext}")))?);
        write(&part, format, &mut f)?;
        f.flush()?;
    }
    Ok(Exit::Ok.into())
}
