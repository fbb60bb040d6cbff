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
pub type JsonDiagnostic<'a> = olmsat_graph::report::format::JsonFinding<'a>;

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
        eprintln!("{}", olmsat_graph::report::format::text(d, color));
    }
}

/// Print a value as YAML on standard output.
pub fn print_yaml<T: Serialize>(v: &T) -> std::io::Result<()> {
    let text = olmsat_graph::report::format::yaml(v).map_err(std::io::Error::other)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Print findings one per line in a line format (text, short or GitHub
/// annotations) on standard output; `false` for the other formats.
pub fn print_finding_lines<'a>(
    format: olmsat_graph::report::Format,
    color: bool,
    findings: impl IntoIterator<Item = &'a Diagnostic>,
) -> std::io::Result<bool> {
    use olmsat_graph::report::{format, Format};
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
    print_json(&olmsat_graph::report::format::sarif(
        findings,
        env!("CARGO_PKG_VERSION"),
    ))
}

/// A phase's name, wall time, and the process's usage at its end.
type Phase = (&'static str, std::time::Duration, Option<Usage>);

static PHASES: std::sync::Mutex<Vec<Phase>> = std::sync::Mutex::new(Vec::new());

/// What the operating system reports of this process so far.
#[derive(Clone, Copy)]
struct Usage {
    /// Processor time of all threads, user and system.
    cpu: std::time::Duration,
    /// Peak resident memory, in bytes.
    peak: u64,
}

/// This process's usage so far (`None` where it cannot be read).
fn usage() -> Option<Usage> {
    #[cfg(unix)]
    {
        // SAFETY: getrusage writes one `rusage` into the zeroed value it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `usage` is a valid, writable `rusage`.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
            return None;
        }
        let time = |t: libc::timeval| {
            std::time::Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
                + std::time::Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
        };
        // Linux and the BSDs give kilobytes; macOS gives bytes.
        let unit = if cfg!(target_os = "macos") { 1 } else { 1024 };
        Some(Usage {
            cpu: time(usage.ru_utime) + time(usage.ru_stime),
            peak: u64::try_from(usage.ru_maxrss).unwrap_or(0) * unit,
        })
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The start of a phase whose wall and processor time `--timings` reports.
pub struct PhaseClock {
    wall: std::time::Instant,
    start: Option<Usage>,
}

impl PhaseClock {
    /// Start timing now.
    pub fn start() -> Self {
        PhaseClock {
            wall: std::time::Instant::now(),
            start: usage(),
        }
    }

    /// Record the time since [`PhaseClock::start`] as `phase`, with the
    /// processor time spent in it and the peak memory at its end.
    pub fn record(self, phase: &'static str) {
        let spent = match (self.start, usage()) {
            (Some(a), Some(b)) => Some(Usage {
                cpu: b.cpu.saturating_sub(a.cpu),
                peak: b.peak,
            }),
            _ => None,
        };
        if let Ok(mut p) = PHASES.lock() {
            p.push((phase, self.wall.elapsed(), spent));
        }
    }
}

/// Run `f` as a named phase whose duration `--timings` reports.
pub fn timed<T>(phase: &'static str, f: impl FnOnce() -> T) -> T {
    let clock = PhaseClock::start();
    let out = f();
    clock.record(phase);
    out
}

/// Let go of a large value without freeing it piece by piece: the process ends
/// right after the command, and the operating system reclaims the memory at
/// once (freeing a 100,000-bundle catalog object by object takes longer than
/// validating it).
pub fn release_at_exit<T>(value: T) {
    std::mem::forget(value);
}

/// Print the recorded phases to standard error: wall time, the processor time
/// of all threads (above the wall time where the phase ran in parallel), and
/// the process's peak resident memory when the phase ended.
pub fn print_timings(total: std::time::Duration) {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    let line = |name: &str, wall: std::time::Duration, usage: Option<Usage>| match usage {
        Some(u) => eprintln!(
            "timing: {name:<12} {:>9.1} ms   cpu {:>9.1} ms   peak {:>7.1} MB",
            ms(wall),
            ms(u.cpu),
            u.peak as f64 / 1e6
        ),
        None => eprintln!("timing: {name:<12} {:>9.1} ms", ms(wall)),
    };
    if let Ok(p) = PHASES.lock() {
        for (name, wall, usage) in p.iter() {
            line(name, *wall, *usage);
        }
    }
    line("total", total, usage());
}

/// Load the catalog at `path` and build its model; on read errors, print them and
/// return `None` (the caller exits with [`Exit::Invalid`]). With `package`, only
/// that package's blobs are built (problems elsewhere in the catalog are not
/// reported), its bundles only as far as upgrade graphs need; when the catalog has no such package, everything is loaded so the
/// caller can name the packages there are.
pub fn load_model(
    path: &std::path::Path,
    package: Option<&str>,
) -> Result<Option<olmsat_graph::model::Model>, olmsat_graph::load::LoadError> {
    use olmsat_graph::load::blob::BundleReading;
    use olmsat_graph::load::{load_bytes_selected, load_path_selected, Select};
    // Standard input can be read only once: keep it for a second, full load.
    let stdin = if path.as_os_str() == "-" {
        Some(olmsat_graph::load::read_stdin()?)
    } else {
        None
    };
    let load = |select: &Select| match &stdin {
        Some(text) => Ok(load_bytes_selected("<stdin>", text, select)),
        None => load_path_selected(path, select),
    };
    crate::memory::fit_to_input([path]);
    let (loaded, reading) = timed("read+parse", || match package {
        None => load(&Select::All).map(|l| (l, BundleReading::Full)),
        Some(name) => {
            let only = load(&Select::PackageGraph(name.to_owned()))?;
            if only.config.packages.iter().any(|p| p.name == name) {
                Ok((only, BundleReading::Graph))
            } else {
                load(&Select::All).map(|l| (l, BundleReading::Full))
            }
        }
    })?;
    let errors: Vec<Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    if !errors.is_empty() {
        eprint_diagnostics(&errors);
        return Ok(None);
    }
    Ok(Some(
        timed("model", || {
            olmsat_graph::model::Model::build_reading(loaded.config, reading)
        })
        .0,
    ))
}
