//! Exit codes and printing helpers shared by the commands.
//!
//! Human-readable text is printed with [`outln!`], [`out!`] and [`errln!`]:
//! `println!`, `print!` and `eprintln!` with every control character of the
//! text escaped (names in catalogs, bundles and images are input, and may
//! hold bytes that would drive the reader's terminal). JSON escapes them
//! itself; the report renderers escape before they colour.

/// `println!` with control characters escaped.
macro_rules! outln {
    () => {
        println!()
    };
    ($($arg:tt)*) => {
        println!("{}", olmsat_io::terminal(&format!($($arg)*)))
    };
}

/// `print!` with control characters escaped.
macro_rules! out {
    ($($arg:tt)*) => {
        print!("{}", olmsat_io::terminal(&format!($($arg)*)))
    };
}

/// `eprintln!` with control characters escaped.
macro_rules! errln {
    () => {
        eprintln!()
    };
    ($($arg:tt)*) => {
        eprintln!("{}", olmsat_io::terminal(&format!($($arg)*)))
    };
}

use std::io::Write;
use std::process::ExitCode;

use olmsat_catalog::Diagnostic;
use serde::Serialize;

/// The process exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Success (or a valid catalog).
    Ok,
    /// Invalid input was found.
    Invalid,
    /// Usage error or unreadable input.
    Usage,
}

impl Exit {
    /// The exit of a library's exit code: 0, 1, anything else 2.
    pub fn from_code(code: u8) -> Exit {
        match code {
            0 => Exit::Ok,
            1 => Exit::Invalid,
            _ => Exit::Usage,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(match e {
            Exit::Ok => 0,
            Exit::Invalid => 1,
            Exit::Usage => 2,
        })
    }
}

/// Print a value as pretty JSON on standard output.
pub fn print_json<T: Serialize>(v: &T) -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    serde_json::to_writer_pretty(&mut out, v).map_err(std::io::Error::other)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Print diagnostics to standard error (used when a command cannot go on),
/// coloured on a terminal unless `NO_COLOR` is set.
pub fn eprint_diagnostics(diags: &[Diagnostic]) {
    use std::io::IsTerminal;
    let color = crate::report_args::use_color(
        crate::report_args::ColorChoice::Auto,
        std::io::stderr().is_terminal(),
    );
    for d in diags {
        eprintln!("{}", olmsat_findings::report::format::text(d, color));
    }
}

/// Print a value in a data format: pretty JSON, or YAML (text is the
/// caller's).
pub fn print_data<T: Serialize>(format: ReportFormat, v: &T) -> std::io::Result<()> {
    match format {
        ReportFormat::Yaml => print_yaml(v),
        _ => print_json(v),
    }
}

/// Print a value as YAML on standard output.
pub fn print_yaml<T: Serialize>(v: &T) -> std::io::Result<()> {
    let text = olmsat_findings::report::format::yaml(v).map_err(std::io::Error::other)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Print findings one per line in a line format (text, short or GitHub
/// annotations) on standard output; `false` for the other formats.
pub fn print_finding_lines<'a>(
    format: olmsat_findings::report::Format,
    color: bool,
    findings: impl IntoIterator<Item = &'a Diagnostic>,
) -> std::io::Result<bool> {
    use olmsat_findings::report::{format, Format};
    let line: fn(&Diagnostic, bool) -> String = match format {
        Format::Text => format::text,
        Format::Short => format::short,
        Format::Github => |d, _| format::github(d),
        _ => return Ok(false),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for d in findings {
        writeln!(out, "{}", line(d, color))?;
    }
    out.flush()?;
    Ok(true)
}

/// Print findings as a SARIF 2.1.0 log on standard output.
pub fn print_sarif(findings: &[Diagnostic]) -> std::io::Result<()> {
    print_json(&olmsat_findings::report::format::sarif(
        findings,
        env!("CARGO_PKG_VERSION"),
    ))
}

/// Text, JSON or YAML.
#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub enum ReportFormat {
    /// Human-readable text.
    Text,
    /// JSON for other tools.
    Json,
    /// The same document as JSON, in YAML.
    Yaml,
}
