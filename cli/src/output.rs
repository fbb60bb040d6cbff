//! Exit codes and printing helpers shared by the commands.

use std::io::Write;
use std::process::ExitCode;

use olmsat_graph::Diagnostic;
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

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(match e {
            Exit::Ok => 0,
            Exit::Invalid => 1,
            Exit::Usage => 2,
        })
    }
}

/// A diagnostic as JSON: absent context fields are omitted.
#[derive(Serialize)]
pub struct JsonDiagnostic<'a> {
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    package: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    channel: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bundle: Option<&'a str>,
}

impl<'a> From<&'a Diagnostic> for JsonDiagnostic<'a> {
    fn from(d: &'a Diagnostic) -> Self {
        JsonDiagnostic {
            message: &d.message,
            file: d.location.as_ref().map(|l| &*l.file),
            line: d.location.as_ref().map(|l| l.line).filter(|l| *l > 0),
            package: d.package.as_deref(),
            channel: d.channel.as_deref(),
            bundle: d.bundle.as_deref(),
        }
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

/// Print diagnostics to standard error (used when a command cannot go on).
pub fn eprint_diagnostics(diags: &[Diagnostic]) {
    for d in diags {
        eprintln!("{d}");
    }
}
