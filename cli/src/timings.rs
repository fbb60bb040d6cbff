//! `--timings`: the wall time, processor time and peak memory of each phase
//! of a command, printed to standard error at the end.

/// A phase's name, wall time, and the process's usage at its end.
type Phase = (&'static str, std::time::Duration, Option<Usage>);

use olmsat_io::Usage;

static PHASES: std::sync::Mutex<Vec<Phase>> = std::sync::Mutex::new(Vec::new());

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
            start: Usage::now(),
        }
    }

    /// Record the time since [`PhaseClock::start`] as `phase`, with the
    /// processor time spent in it and the peak memory at its end.
    pub fn record(self, phase: &'static str) {
        let spent = match (self.start, Usage::now()) {
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

/// Print the recorded phases to standard error: wall time, the processor time
/// of all threads (above the wall time where the phase ran in parallel), and
/// the process's peak resident memory when the phase ended.
pub fn print_timings(total: std::time::Duration) {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    let line = |name: &str, wall: std::time::Duration, usage: Option<Usage>| match usage {
        Some(u) => errln!(
            "timing: {name:<12} {:>9.1} ms   cpu {:>9.1} ms   peak {:>7.1} MB",
            ms(wall),
            ms(u.cpu),
            u.peak as f64 / 1e6
        ),
        None => errln!("timing: {name:<12} {:>9.1} ms", ms(wall)),
    };
    if let Ok(p) = PHASES.lock() {
        for (name, wall, usage) in p.iter() {
            line(name, *wall, *usage);
        }
    }
    line("total", total, Usage::now());
}
