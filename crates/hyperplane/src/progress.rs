//! Progress of long fits: a learner reports where it is (an epoch and its loss) and the
//! host shows it (the command line's spinner). Nothing is formatted or shown unless a host
//! has installed a sink; fits on several threads report into the same one.

use std::sync::RwLock;

/// What receives the reports.
pub type Sink = Box<dyn Fn(&str) + Send + Sync>;

static SINK: RwLock<Option<Sink>> = RwLock::new(None);

/// Installs `sink` (or removes the current one with `None`).
pub fn set_sink(sink: Option<Sink>) {
    let mut slot = SINK.write().unwrap_or_else(|e| e.into_inner());
    *slot = sink;
}

/// Reports the message `message` makes, when a sink is installed.
pub fn report(message: impl FnOnce() -> String) {
    let slot = SINK.read().unwrap_or_else(|e| e.into_inner());
    if let Some(sink) = slot.as_ref() {
        sink(&message());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn reports_reach_the_sink_only_while_installed() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let into = Arc::clone(&seen);
        set_sink(Some(Box::new(move |m| {
            into.lock().unwrap().push(m.to_string())
        })));
        report(|| "epoch 1".into());
        set_sink(None);
        report(|| panic!("formatted without a sink"));
        // (a fit in a test running beside this one may have reported too)
        assert!(seen.lock().unwrap().iter().any(|m| m == "epoch 1"));
    }
}
