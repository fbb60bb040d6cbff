//! A spinner on standard error for work that takes more than about a second,
//! shown only when standard error is a terminal and the output is for people
//! (never in pipes, never beside JSON, YAML or SARIF).

use std::io::IsTerminal;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How long work runs before the spinner appears.
const DELAY: Duration = Duration::from_secs(1);

/// A running spinner; it disappears when dropped.
pub struct Progress {
    done: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Start `message` (e.g. "loading catalogs"): shown after a second if the
    /// work is still running, standard error is a terminal and `for_people`.
    pub fn start(message: &str, for_people: bool) -> Progress {
        if !for_people || !std::io::stderr().is_terminal() {
            return Progress {
                done: None,
                thread: None,
            };
        }
        let (tx, rx) = mpsc::channel::<()>();
        let message = message.to_owned();
        let thread = std::thread::spawn(move || {
            if rx.recv_timeout(DELAY) != Err(mpsc::RecvTimeoutError::Timeout) {
                return;
            }
            let bar = indicatif::ProgressBar::with_draw_target(
                None,
                indicatif::ProgressDrawTarget::stderr(),
            );
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            bar.set_message(message);
            bar.enable_steady_tick(Duration::from_millis(120));
            // Until the work ends (a message or the sender dropped).
            let _ = rx.recv();
            bar.finish_and_clear();
        });
        Progress {
            done: Some(tx),
            thread: Some(thread),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        drop(self.done.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_runs_when_not_for_people() {
        let p = Progress::start("loading", false);
        assert!(p.thread.is_none());
    }
}
