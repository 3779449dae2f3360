//! The precision of training's arithmetic, `dtype`: `f64` (the default) or `f32`.
//!
//! With `f32`, the forward and backward passes (the matrix products, the hidden units and
//! their derivatives) run in single precision on single-precision copies of the parameters,
//! made before each gradient. The output layer's loss and error, the L2 penalty and the
//! optimiser (its state, the parameters it moves, the model that is saved) stay in double
//! precision. An AVX register holds twice as many `f32` lanes, so the products take about
//! half the time; the gradient's relative error, about `1e-7` a product, is far below the
//! noise of a mini-batch's gradient. Prediction is always in double precision.

use ndarray::{Array2, ArrayView2, CowArray, Ix2, NdFloat};
use rayon::prelude::*;

crate::choice_enum! {
    /// The precision of training's forward and backward passes (see the module doc).
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Dtype {
        #[default]
        F64 = "f64",
        F32 = "f32",
    }
}

/// A floating-point type the passes can run in: `f64` or `f32`.
pub trait Real: NdFloat + num_traits::Float {
    /// `v` in this precision (rounded to nearest).
    fn narrow(v: f64) -> Self;
    /// `self` in double precision (exact).
    fn wide(self) -> f64;
    /// `rows` of `x`, in that order, in this precision: a view of `x` when they are
    /// consecutive and no conversion is needed, else copied.
    fn rows_of<'a>(x: ArrayView2<'a, f64>, rows: &[usize]) -> CowArray<'a, Self, Ix2> {
        gather(x, rows, Self::narrow).into()
    }
    /// `f` on `values` in double precision, written back.
    fn in_f64<R>(values: &mut [Self], scratch: &mut Vec<f64>, f: impl FnOnce(&mut [f64]) -> R)
        -> R;
}

impl Real for f64 {
    fn narrow(v: f64) -> f64 {
        v
    }
    fn wide(self) -> f64 {
        self
    }
    fn rows_of<'a>(x: ArrayView2<'a, f64>, rows: &[usize]) -> CowArray<'a, f64, Ix2> {
        select(x, rows)
    }
    fn in_f64<R>(values: &mut [f64], _: &mut Vec<f64>, f: impl FnOnce(&mut [f64]) -> R) -> R {
        f(values)
    }
}

impl Real for f32 {
    fn narrow(v: f64) -> f32 {
        v as f32
    }
    fn wide(self) -> f64 {
        f64::from(self)
    }
    fn in_f64<R>(values: &mut [f32], scratch: &mut Vec<f64>, f: impl FnOnce(&mut [f64]) -> R) -> R {
        scratch.clear();
        scratch.extend(values.iter().map(|&v| f64::from(v)));
        let r = f(scratch);
        values
            .iter_mut()
            .zip(scratch.iter())
            .for_each(|(v, &w)| *v = w as f32);
        r
    }
}

/// `rows` of `x`, in that order: a view of `x` when they are consecutive, else copied.
fn select<'a, T: Real>(x: ArrayView2<'a, T>, rows: &[usize]) -> CowArray<'a, T, Ix2> {
    let start = rows.first().copied().unwrap_or(0);
    if rows.iter().enumerate().all(|(k, &i)| i == start + k) {
        x.slice_move(ndarray::s![start..start + rows.len(), ..])
            .into()
    } else {
        gather(x, rows, |v| v).into()
    }
}

/// Rows a parallel task of [`gather`] copies: about 100 KiB of `f64` input for 784 columns.
const GATHER_ROWS: usize = 16;

/// `f` of `rows` of `x`, in that order, in a new matrix, blocks of [`GATHER_ROWS`] rows in
/// parallel (a copy: the same values for any thread count).
fn gather<S: Copy + Sync, T: Real>(
    x: ArrayView2<S>,
    rows: &[usize],
    f: impl Fn(S) -> T + Sync,
) -> Array2<T> {
    let cols = x.ncols();
    let mut out = vec![T::zero(); rows.len() * cols];
    out.par_chunks_mut((GATHER_ROWS * cols).max(1))
        .zip(rows.par_chunks(GATHER_ROWS))
        .for_each(|(block, rows)| {
            for (to, &i) in block.chunks_mut(cols.max(1)).zip(rows) {
                let row = x.row(i);
                match row.as_slice() {
                    Some(from) => to.iter_mut().zip(from).for_each(|(t, &v)| *t = f(v)),
                    None => to.iter_mut().zip(row).for_each(|(t, &v)| *t = f(v)),
                }
            }
        });
    Array2::from_shape_vec((rows.len(), cols), out).expect("one row per index")
}
