//! Explicit parallelism: the caller chooses how many threads a fit or a prediction uses.
//!
//! Every parallel step of the crate runs on rayon's current pool; [`Threads::run`] runs a
//! computation in a pool of its own with a given number of threads, or in rayon's global
//! pool (all cores, or `RAYON_NUM_THREADS`). A host process (Python releasing the GIL, a
//! Spark executor) wraps its calls in it, or passes the setting to the call
//! ([`FitOptions::threads`](crate::pipeline::FitOptions), `pipeline.threads` of a
//! [`PipelineSpec`](crate::pipeline::PipelineSpec),
//! [`Pipeline::set_threads`](crate::pipeline::Pipeline::set_threads)); no hidden pool is used. Results do not depend
//! on the thread count: every parallel sum is over fixed chunks added in chunk order.
//!
//! ```
//! use hyperplane::pipeline::Learner;
//! use hyperplane::threads::Threads;
//! # use hyperplane::{Dataset, Label};
//! # let data = Dataset::new(ndarray::array![[1.0], [2.0], [4.0]].into(), &[0, 0, 1].map(Label::Int))?;
//!
//! let learner = Learner::from_kind("logistic-regression")?;
//! let one = Threads::Count(1).run(|| learner.fit(&data))??;
//! let all = Threads::All.run(|| learner.fit(&data))??;
//! assert_eq!(serde_json::to_string(&one).unwrap(), serde_json::to_string(&all).unwrap());
//! # Ok::<(), hyperplane::Error>(())
//! ```

use crate::error::{Error, Result};

/// The most threads a pool is built with: far above any core count, far below what would
/// exhaust the operating system's threads or memory.
pub const MAX_THREADS: usize = 1024;

/// How many threads a computation may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Threads {
    /// rayon's global pool: all cores, or `RAYON_NUM_THREADS`.
    #[default]
    All,
    /// A pool of exactly this many threads, built for the call.
    Count(usize),
}

impl Threads {
    /// `None` (the pipeline's `threads=auto`) is [`Threads::All`].
    pub fn from_setting(threads: Option<usize>) -> Self {
        threads.map_or(Threads::All, Threads::Count)
    }

    /// Runs `f` with this many threads, in the current [context](crate::context).
    pub fn run<R: Send>(self, f: impl FnOnce() -> R + Send) -> Result<R> {
        match self {
            // on a thread of the current pool: a parallel step started from outside the pool
            // hands its work to the pool and sleeps until it is done, two context switches
            // per step (12% of a network's epoch, measured); `join` from outside the pool
            // runs both halves on the pool, from inside it runs them here
            Threads::All => Ok(rayon::join(f, || ()).0),
            Threads::Count(n) => Ok(Threads::pool(n, crate::context::current())?.install(f)),
        }
    }

    /// A pool of `n` threads (1 to [`MAX_THREADS`]), each of which runs in `context`.
    pub(crate) fn pool(
        n: usize,
        context: Option<std::sync::Arc<crate::context::Context>>,
    ) -> Result<rayon::ThreadPool> {
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
            .start_handler(move |_| crate::context::enter(context.clone()))
            .build()
            .map_err(|e| Error::param("threads", n, format!("cannot start the threads: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_runs_on_a_thread_of_the_pool() {
        assert_eq!(
            rayon::current_thread_index(),
            None,
            "a test thread is outside the pool"
        );
        for threads in [Threads::All, Threads::Count(1), Threads::Count(2)] {
            let index = threads.run(rayon::current_thread_index).unwrap();
            assert!(index.is_some(), "{threads:?}");
        }
        let nested = Threads::All.run(|| Threads::All.run(rayon::current_thread_index));
        assert!(nested.unwrap().unwrap().is_some());
    }
}
