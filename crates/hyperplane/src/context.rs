//! The context of a computation: how many threads it uses, its memory budget, where its
//! progress goes, and whether its host has asked it to stop.
//!
//! A host sets these per call, not per process: a Python notebook fits one estimator with
//! `n_jobs=2` and a progress bar while another thread predicts with all cores, a Spark
//! executor gives each task its share of memory, Ctrl-C stops a fit. [`Context::run`]
//! runs a computation in a pool of its own threads, each of which sees the context; the
//! library reads it where it matters:
//!
//! - [`memory::check`](crate::memory::check) compares sizes with
//!   [`memory::budget`](crate::memory::budget) before allocating;
//! - long fits [`report`] their progress (a network's epoch and loss) to the sink;
//! - every solver loop (SMO, L-BFGS, Newton, coordinate descent, SGD and PLA epochs, a
//!   network's epochs) calls [`checkpoint`], which fails with [`Error::Cancelled`] once
//!   the context's [`Cancel`] is set, so a fit stops within one iteration.
//!
//! A setting left unset is taken from the context the call runs in, and outside any
//! context: all cores (rayon's global pool), half the physical memory
//! ([`memory::default_budget`](crate::memory::default_budget)), no progress, no
//! cancellation. Results never depend on the context: the same model for any thread
//! count, and a computation that is not stopped is the one that would have run without it.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use hyperplane::context::{Cancel, Context};
//! use hyperplane::pipeline::Learner;
//! use hyperplane::threads::Threads;
//! use hyperplane::{Dataset, Error, Label};
//!
//! let x = ndarray::array![[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.5]];
//! let data = Dataset::new(x.into(), &[0, 0, 1, 1].map(Label::Int))?;
//! let mlp = Learner::from_kind("mlp")?;
//!
//! let seen = Arc::new(Mutex::new(Vec::new()));
//! let into = Arc::clone(&seen);
//! let context = Context::new()
//!     .threads(Threads::Count(2))
//!     .memory_budget(1 << 30)
//!     .progress(move |message| into.lock().unwrap().push(message.to_string()));
//! let model = context.run(|| mlp.fit(&data))??;
//! assert!(!seen.lock().unwrap().is_empty()); // "epoch 1: loss 0.69...", ...
//!
//! let stop = Cancel::new();
//! stop.cancel(); // as a host's signal handler would, from any thread
//! let stopped = Context::new().cancel(stop).run(|| mlp.fit(&data))?;
//! assert!(matches!(stopped, Err(Error::Cancelled)));
//! # drop(model);
//! # Ok::<(), hyperplane::Error>(())
//! ```

use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::threads::{Threads, MAX_THREADS};

/// What receives progress reports: one line of text each.
pub type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// A flag a host sets to stop the computations of the contexts that hold it (shared:
/// clones are the same flag). Setting it is cheap and safe from any thread or a signal
/// handler's thread.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    set: Arc<AtomicBool>,
    /// Tests: the flag sets itself at this many-th check.
    #[cfg(test)]
    countdown: Option<Arc<std::sync::atomic::AtomicUsize>>,
}

impl Cancel {
    /// A flag not yet set.
    pub fn new() -> Self {
        Cancel::default()
    }
    /// Asks the computations to stop: each fails with [`Error::Cancelled`] at its next
    /// checkpoint.
    pub fn cancel(&self) {
        self.set.store(true, Ordering::Relaxed);
    }
    /// Whether [`Cancel::cancel`] has been called.
    pub fn is_cancelled(&self) -> bool {
        #[cfg(test)]
        if let Some(countdown) = &self.countdown {
            if countdown.fetch_sub(1, Ordering::Relaxed) == 1 {
                self.cancel();
            }
        }
        self.set.load(Ordering::Relaxed)
    }
    /// A flag that sets itself at the `checks`-th time it is read: a stop inside a
    /// solver's loop, at a place the test chooses.
    #[cfg(test)]
    pub(crate) fn after(checks: usize) -> Self {
        Cancel {
            countdown: Some(Arc::new(std::sync::atomic::AtomicUsize::new(checks))),
            ..Cancel::default()
        }
    }
}

/// The settings of a computation (see the [module](self)); build with the setters, start
/// with [`Context::run`].
#[derive(Clone, Default)]
pub struct Context {
    threads: Option<Threads>,
    memory_budget: Option<u64>,
    progress: Option<Sink>,
    cancel: Option<Cancel>,
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("threads", &self.threads)
            .field("memory_budget", &self.memory_budget)
            .field("progress", &self.progress.as_ref().map(|_| "sink"))
            .field("cancel", &self.cancel)
            .finish()
    }
}

thread_local! {
    /// The context of the pool this thread belongs to (set when the thread starts).
    static CURRENT: RefCell<Option<Arc<Context>>> = const { RefCell::new(None) };
}

impl Context {
    /// A context that sets nothing: every setting comes from the enclosing context.
    pub fn new() -> Self {
        Context::default()
    }
    /// The threads the computation uses ([`Threads::All`]: as many as the enclosing pool,
    /// all cores outside any).
    pub fn threads(mut self, threads: Threads) -> Self {
        self.threads = Some(threads);
        self
    }
    /// The memory budget in bytes (at least 1) that input-sized work is checked against.
    pub fn memory_budget(mut self, bytes: u64) -> Self {
        self.memory_budget = Some(bytes.max(1));
        self
    }
    /// Where progress reports go.
    pub fn progress(mut self, sink: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(sink));
        self
    }
    /// The flag that stops the computation.
    pub fn cancel(mut self, cancel: Cancel) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// Runs `f` in a pool of this context's threads, every one of which sees the context
    /// (unset settings taken from the context this call runs in). Fails only when the
    /// threads cannot be started or their count is invalid; `f`'s own result is inside.
    pub fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> Result<R> {
        let context = Arc::new(self.clone().within(current()));
        let threads = match context.threads.unwrap_or_default() {
            Threads::All => all_threads(),
            Threads::Count(n) => n,
        };
        Ok(Threads::pool(threads, Some(context))?.install(f))
    }

    /// This context, its unset settings taken from `outer`.
    fn within(self, outer: Option<Arc<Context>>) -> Context {
        let Some(outer) = outer else { return self };
        Context {
            threads: self.threads.or(outer.threads),
            memory_budget: self.memory_budget.or(outer.memory_budget),
            progress: self.progress.or_else(|| outer.progress.clone()),
            cancel: self.cancel.or_else(|| outer.cancel.clone()),
        }
    }
}

/// What [`Threads::All`] means here: the size of the pool the caller runs in; outside any,
/// `RAYON_NUM_THREADS` or the cores (as rayon's global pool, without starting it).
fn all_threads() -> usize {
    if rayon::current_thread_index().is_some() {
        return rayon::current_num_threads();
    }
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|&n: &usize| n > 0)
        .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
        .unwrap_or(1)
}

/// The context of the calling thread's pool, if it runs in one.
pub(crate) fn current() -> Option<Arc<Context>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Makes `context` the calling thread's (the start of a pool's thread).
pub(crate) fn enter(context: Option<Arc<Context>>) {
    CURRENT.with(|c| *c.borrow_mut() = context);
}

/// The memory budget the current context sets, if it runs in one that does
/// ([`memory::budget`](crate::memory::budget) falls back to the default).
pub(crate) fn budget_set() -> Option<u64> {
    current().and_then(|c| c.memory_budget)
}

/// Running work with a number of threads is running it in a pool whose threads see the
/// caller's context, so it is defined here, beside the context it carries.
impl Threads {
    /// Runs `f` with this many threads, in the current [context](crate::context).
    pub fn run<R: Send>(self, f: impl FnOnce() -> R + Send) -> Result<R> {
        match self {
            // on a thread of the current pool: a parallel step started from outside the pool
            // hands its work to the pool and sleeps until it is done, two context switches
            // per step (12% of a network's epoch, measured); `join` from outside the pool
            // runs both halves on the pool, from inside it runs them here
            Threads::All => Ok(rayon::join(f, || ()).0),
            Threads::Count(n) => Ok(Threads::pool(n, current())?.install(f)),
        }
    }

    /// A pool of `n` threads (1 to [`MAX_THREADS`]), each of which runs in `context`.
    pub(crate) fn pool(n: usize, context: Option<Arc<Context>>) -> Result<rayon::ThreadPool> {
        if n == 0 {
            return Err(Error::param("threads", 0, "must be >= 1 (or auto)"));
        }
        if n > MAX_THREADS {
            return Err(Error::param(
                "threads",
                n,
                format!("at most {MAX_THREADS} (each thread is an operating-system thread with its own stack)"),
            ));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .start_handler(move |_| enter(context.clone()))
            .build()
            .map_err(|e| Error::param("threads", n, format!("cannot start the threads: {e}")))
    }
}

/// Sends the message `message` makes to the current context's progress sink; nothing is
/// formatted when there is none.
pub fn report(message: impl FnOnce() -> String) {
    if let Some(sink) = current().and_then(|c| c.progress.clone()) {
        sink(&message());
    }
}

/// [`Error::Cancelled`] once the current context's [`Cancel`] is set: called at every
/// iteration of every solver loop (or, in a loop that cannot fail, [`cancelled`] ends the
/// loop and its caller calls this), so that a stopped fit ends within one iteration and
/// never returns a model.
pub fn checkpoint() -> Result<()> {
    if cancelled() {
        Err(Error::Cancelled)
    } else {
        Ok(())
    }
}

/// Whether the current context's [`Cancel`] is set.
pub fn cancelled() -> bool {
    CURRENT.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|c| c.cancel.as_ref())
            .is_some_and(Cancel::is_cancelled)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn every_thread_of_the_pool_sees_the_context_and_inner_settings_win() {
        use rayon::prelude::*;
        let outer = Context::new()
            .memory_budget(1000)
            .threads(Threads::Count(3));
        let budgets: Vec<Option<u64>> = outer
            .run(|| (0..64).into_par_iter().map(|_| budget_set()).collect())
            .unwrap();
        assert!(budgets.iter().all(|&b| b == Some(1000)), "{budgets:?}");
        let (inner, threads) = outer
            .run(|| {
                Context::new()
                    .memory_budget(7)
                    .run(|| (budget_set(), rayon::current_num_threads()))
            })
            .unwrap()
            .unwrap();
        assert_eq!(
            (inner, threads),
            (Some(7), 3),
            "budget set inside, threads inherited"
        );
        // a nested pool of a given size keeps the context too
        let nested = outer
            .run(|| Threads::Count(2).run(budget_set))
            .unwrap()
            .unwrap();
        assert_eq!(nested, Some(1000));
        assert_eq!(budget_set(), None, "outside any context");
    }

    #[test]
    fn reports_and_cancellation_reach_only_their_own_context() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let into = Arc::clone(&seen);
        let listening = Context::new().progress(move |m| into.lock().unwrap().push(m.to_string()));
        listening.run(|| report(|| "epoch 1".into())).unwrap();
        Context::new()
            .run(|| report(|| panic!("formatted without a sink")))
            .unwrap();
        report(|| panic!("formatted outside a context"));
        assert_eq!(*seen.lock().unwrap(), ["epoch 1"]);

        let stop = Cancel::new();
        let stoppable = Context::new().cancel(stop.clone());
        assert!(stoppable.run(checkpoint).unwrap().is_ok());
        stop.cancel();
        assert!(matches!(
            stoppable.run(checkpoint).unwrap(),
            Err(Error::Cancelled)
        ));
        assert!(
            Context::new().run(checkpoint).unwrap().is_ok(),
            "another context"
        );
        assert!(checkpoint().is_ok(), "outside any context");
    }

    /// Every kind with a solver loop stops inside it: the flag is set at its second check
    /// (the first is the fit's start), and the fit fails instead of returning a model.
    #[test]
    fn every_solver_loop_stops_when_cancelled() {
        use crate::data::{Dataset, Label};
        use crate::estimator::Task;
        use crate::pipeline::{registry, Learner};
        // one-pass kinds: counts, moments or one dense solve, no loop that must stop
        let one_pass = [
            "bernoulli-nb",
            "multinomial-nb",
            "categorical-nb",
            "gaussian-nb",
            "complement-nb",
            "linear-regression",
            "ridge",
            "linear-regression-classifier",
        ];
        let mut rng = crate::rng::Rng::new(7);
        let x = ndarray::Array2::from_shape_fn((300, 4), |_| (rng.next_f64() * 4.0).floor());
        // noisy labels: not separable, so PLA and SMO need many steps
        let classes: Vec<Label> = (0..300)
            .map(|i| Label::Int(((x[[i, 0]] + x[[i, 1]] + (i % 7) as f64) % 2.0) as i64))
            .collect();
        let values = ndarray::Array2::from_shape_fn((300, 1), |(i, _)| {
            x[[i, 0]] - x[[i, 2]] + (i % 3) as f64
        });
        for info in registry() {
            let data = match info.task {
                Task::Regressor => Dataset::regression(x.clone().into(), values.clone()),
                _ => Dataset::new(x.clone().into(), &classes),
            }
            .unwrap();
            let learner = Learner::from_kind(info.name).unwrap();
            let stopped = Context::new()
                .cancel(Cancel::after(2))
                .run(|| learner.fit(&data))
                .unwrap();
            // a one-pass kind may still stop at a nested fit's start
            if !one_pass.contains(&info.name) {
                assert!(
                    matches!(stopped, Err(Error::Cancelled)),
                    "{} did not stop: {:?}",
                    info.name,
                    stopped.map(|_| "a model")
                );
            }
        }
    }

    #[test]
    fn a_thread_count_of_zero_is_refused() {
        let e = Context::new()
            .threads(Threads::Count(0))
            .run(|| ())
            .unwrap_err();
        assert!(e.to_string().contains("threads"), "{e}");
    }
}
