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

/// The most threads a pool is built with: far above any core count, far below what would
/// exhaust the operating system's threads or memory.
pub const MAX_THREADS: usize = 1024;

/// How many threads a computation may use. [`Threads::run`] (with the pools it builds, in
/// [`context`](crate::context): every pool thread runs in its caller's context) runs work
/// with them.
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
