//! `olmsat diff`: what a catalog change does to its users' upgrade paths.

use std::io::Write;

use clap::{Args as ClapArgs, ValueEnum};
use olmsat_catalog::load::Loaded;
use olmsat_diff::{self as diff, report, DiffError, Options};
use olmsat_input::{Input, InputError};

use crate::output::{eprint_diagnostics, Exit};

/// Compare two catalogs: the structural changes per package, and the findings
/// R0–R9 (bundles stranded or removed with nothing upgrading from them, channels
/// or packages removed, heads moving back, OLM v0 stopping short of the head).
///
/// OLD and NEW are catalog directories or files, `-` (standard input), or
/// `git:REV:PATH` (a path at a revision of the repository the command runs in,
/// e.g. `git:origin/main:catalogs/v4.20`). Exit code 0 when no error finding,
/// 1 with at least one (or a warning with --strict), 2 when an input cannot be
/// read or OLD is invalid.
#[derive(ClapArgs)]
pub struct Args {
    /// The catalog before the change.
    #[arg(value_name = "OLD")]
    old: String,
    /// The catalog after the change.
    #[arg(value_name = "NEW")]
    new: String,
    /// Only this package.
    #[arg(long)]
    package: Option<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    output: Format,
    /// Fail (exit code 1) on warnings too.
    #[arg(long, visible_alias = "warnings-as-errors")]
    strict: bool,
    /// Drop the findings of this rule (a diff rule name, e.g. `default-channel-changed`); repeatable.
    #[arg(long, value_name = "RULE")]
    allow: Vec<String>,
    /// Make the findings of this rule errors; repeatable.
    #[arg(long, value_name = "RULE")]
    deny: Vec<String>,
    /// The lowest severity that fails: `error` (default) or `warning` (same as --strict).
    #[arg(long, value_enum, value_name = "LEVEL")]
    fail_on: Option<FailOn>,
}

/// Output formats of `diff`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Format {
    /// Per package: changes, then findings (errors first) with evidence.
    Text,
    /// One line per finding: `file:line: level[rule code] ...: detail`.
    Short,
    /// `{packages:[{name, changes, findings}]}`.
    Json,
    /// The JSON document as YAML.
    Yaml,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub Actions annotations (`::error file=…,line=…,title=…::…`).
    Github,
}

/// Diff rule names given to `--allow` / `--deny`, or a usage error naming the
/// closest rule.
fn rules(names: &[String]) -> Result<Vec<diff::Rule>, String> {
    names
        .iter()
        .map(|n| {
            diff::Rule::from_name(n).ok_or_else(|| {
                let all: Vec<&str> = diff::Rule::ALL.iter().map(|r| r.name()).collect();
                match olmsat_findings::suggest::closest(n, all.iter().copied()).first() {
                    Some(c) => format!("unknown diff rule {n:?} (did you mean {c:?}?)"),
                    None => format!("unknown diff rule {n:?}; the rules: {}", all.join(", ")),
                }
            })
        })
        .collect()
}

/// Severities `--fail-on` accepts.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum FailOn {
    /// Error findings fail.
    Error,
    /// Error and warning findings fail.
    Warning,
}

/// Run `olmsat diff`.
pub fn run(args: &Args, o: &olmsat_input::Options) -> Result<Exit, Box<dyn std::error::Error>> {
    let (allow, deny) = (rules(&args.allow)?, rules(&args.deny)?);
    let old_input = Input::parse(&args.old)?;
    let new_input = Input::parse(&args.new)?;
    if old_input == Input::Stdin && new_input == Input::Stdin {
        return Err("OLD and NEW cannot both be standard input (-)".into());
    }
    let spinner = crate::progress::Progress::start("comparing", args.output == Format::Text);
    let (old, new) = crate::timings::timed("read+parse", || {
        side_by_side(|| load(&old_input, o), || load(&new_input, o))
    });
    let (old, new) = match (old?, new?) {
        (Ok(old), Ok(new)) => (old, new),
        // A template that does not render was reported where it failed.
        (Err(exit), _) | (_, Err(exit)) => return Ok(exit),
    };
    let options = Options {
        package: args.package.clone(),
    };
    let mut d = match crate::timings::timed("diff", || diff::diff(old, new, &options)) {
        Ok(d) => d,
        Err(e @ DiffError::OldInvalid { .. }) => {
            if let DiffError::OldInvalid { errors } = &e {
                eprint_diagnostics(errors);
            }
            return Err(e.into());
        }
        Err(e @ DiffError::UnknownPackage { .. }) => {
            errln!("olmsat: {e}");
            return Ok(Exit::Invalid);
        }
    };
    drop(spinner);
    d.apply_policy(&allow, &deny);
    let text = match args.output {
        Format::Text => olmsat_io::terminal(&report::text(&d)).into_owned(),
        Format::Github => olmsat_io::terminal(&report::github(&d)).into_owned(),
        Format::Sarif => {
            let mut s =
                serde_json::to_string_pretty(&report::sarif(&d, env!("CARGO_PKG_VERSION")))?;
            s.push('\n');
            s
        }
        Format::Short => olmsat_io::terminal(&report::short(&d)).into_owned(),
        Format::Yaml => report::yaml(&d),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&report::json(&d))?;
            s.push('\n');
            s
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    let strict = args.strict || args.fail_on == Some(FailOn::Warning);
    Ok(if d.fails(strict) {
        Exit::Invalid
    } else {
        Exit::Ok
    })
}

/// An input as a catalog, through the input layer (a template that does
/// not render is reported where it fails).
fn load(input: &Input, o: &olmsat_input::Options) -> Result<Result<Loaded, Exit>, InputError> {
    super::load_input(input, o)
}

/// Run two loads side by side (two catalogs are read at once).
fn side_by_side<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    std::thread::scope(|s| {
        let hb = s.spawn(b);
        let ra = a();
        let rb = hb.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (ra, rb)
    })
}
