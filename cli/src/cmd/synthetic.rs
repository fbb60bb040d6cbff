//! `olmsat synthetic`

use olmsat_catalog::generate_synthetic;
use olmsat_catalog::write_synthetic;
use olmsat_catalog::SyntheticSpec;

use crate::args::{OldSpelling, SyntheticArgs};
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
    write_synthetic(cfg, out, args.format)?;
    Ok(Exit::Ok.into())
}
