//! A spinner on stderr for work that takes longer than a second.
//!
//! Hidden when stderr is not a terminal (indicatif's stderr target checks), and only drawn
//! once the step has run for a second, so quick commands print nothing extra. While a step
//! runs, the library's progress reports (a network's epoch, loss and validation score) are
//! shown after its name.

use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The step running now, with its name: the library's reports go to it.
static CURRENT: Mutex<Option<(ProgressBar, String)>> = Mutex::new(None);

/// Shows a report of the library (the progress sink of the command's context) after the
/// name of the step running now; dropped when no step runs.
pub fn show(report: &str) {
    let current = CURRENT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((bar, name)) = current.as_ref() {
        bar.set_message(format!("{name}: {report}"));
    }
}

/// A named step of work; the spinner disappears when the value is dropped.
pub struct Step {
    bar: ProgressBar,
}

impl Step {
    /// Starts a step whose spinner appears after one second.
    pub fn start(message: &str) -> Step {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("valid template"),
        );
        bar.set_message(message.to_string());
        // what the library reports (a network's epochs) follows the step's name
        *CURRENT.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((bar.clone(), message.to_string()));
        let delayed = bar.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(1));
            if !delayed.is_finished() {
                delayed.set_draw_target(ProgressDrawTarget::stderr());
                delayed.enable_steady_tick(Duration::from_millis(120));
            }
        });
        Step { bar }
    }
}

impl Drop for Step {
    fn drop(&mut self) {
        *CURRENT.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.bar.finish_and_clear();
    }
}
