//! The layers of a network: their sizes, where each layer's parameters sit in the one
//! flat parameter vector the optimisers move, their initialisation, and the products
//! with the input rows (dense or sparse).
//!
//! ```text
//! sizes      n_0 = n_features, n_1, ..., n_L = n_outputs
//! layer l    z_l = a_{l-1} W_l + b_l,  W_l: n_{l-1} x n_l (row-major), b_l: n_l
//! params     [W_1, W_2, ..., W_L, b_1, b_2, ..., b_L]   (scikit-learn's _pack order)
//! Glorot     W_l, b_l ~ U(-r, r),  r = sqrt(f / (n_{l-1} + n_l)),  f = 2 for sigmoid units, else 6
//! ```

use ndarray::{ArrayView1, ArrayView2, ArrayViewMut2, CowArray, Ix2};
use serde::{Deserialize, Serialize};

use super::activation::Activation;
use super::precision::{Dtype, Real};
use crate::data::{Features, RowAccess};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::with_rows;
use hyperplane_kernels::gemm;
use hyperplane_kernels::prefetch;

/// The sizes of a network's layers, input and output included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// `n_0, ..., n_L`: the input width, each hidden layer's units, the outputs.
    pub sizes: Vec<usize>,
}

impl Layout {
    /// The layout `n_features, hidden..., n_outputs`; an error for a layer of no units or
    /// a parameter count that does not fit in memory's address range.
    pub fn new(n_features: usize, hidden: &[usize], n_outputs: usize) -> Result<Layout> {
        let mut sizes = vec![n_features];
        sizes.extend_from_slice(hidden);
        sizes.push(n_outputs);
        if let Some(p) = sizes.iter().position(|&n| n == 0) {
            return Err(Error::data(format!(
                "layer {p} of the network has no units (sizes {sizes:?})"
            )));
        }
        let layout = Layout { sizes };
        let mut total = 0usize;
        for l in 1..layout.sizes.len() {
            let layer = layout.sizes[l - 1]
                .checked_mul(layout.sizes[l])
                .and_then(|w| w.checked_add(layout.sizes[l]));
            total = layer.and_then(|n| total.checked_add(n)).ok_or_else(|| {
                Error::data(format!(
                    "the layers {:?} have too many weights",
                    layout.sizes
                ))
            })?;
        }
        Ok(layout)
    }

    /// Number of weight layers `L` (hidden layers + 1).
    pub fn n_layers(&self) -> usize {
        self.sizes.len() - 1
    }

    /// Number of outputs `n_L`.
    pub fn n_outputs(&self) -> usize {
        self.sizes[self.n_layers()]
    }

    /// Number of parameters, `sum_l (n_{l-1} + 1) n_l`.
    pub fn n_params(&self) -> usize {
        (1..self.sizes.len())
            .map(|l| (self.sizes[l - 1] + 1) * self.sizes[l])
            .sum()
    }

    /// Number of weights, the first entries of the flat parameters (the biases follow).
    pub fn n_weights(&self) -> usize {
        (1..self.sizes.len())
            .map(|l| self.sizes[l - 1] * self.sizes[l])
            .sum()
    }

    /// Where `W_l` and `b_l` start (`l` from 1).
    fn offsets(&self, l: usize) -> (usize, usize) {
        let weights: usize = (1..l).map(|k| self.sizes[k - 1] * self.sizes[k]).sum();
        let biases: usize = self.sizes[1..l].iter().sum();
        (weights, self.n_weights() + biases)
    }

    /// `(W_l, b_l)` of the flat parameters.
    pub fn layer<'p, T>(&self, params: &'p [T], l: usize) -> (ArrayView2<'p, T>, &'p [T]) {
        let (rows, cols) = (self.sizes[l - 1], self.sizes[l]);
        let (w, b) = self.offsets(l);
        (
            ArrayView2::from_shape((rows, cols), &params[w..w + rows * cols])
                .expect("the layout's shape"),
            &params[b..b + cols],
        )
    }

    /// `(W_l, b_l)` of the flat parameters, mutable (gradients).
    pub fn layer_mut<'p, T>(
        &self,
        params: &'p mut [T],
        l: usize,
    ) -> (ArrayViewMut2<'p, T>, &'p mut [T]) {
        let (rows, cols) = (self.sizes[l - 1], self.sizes[l]);
        let (w, b) = self.offsets(l);
        // every weight comes before every bias
        let (weights, biases) = params.split_at_mut(b);
        (
            ArrayViewMut2::from_shape((rows, cols), &mut weights[w..w + rows * cols])
                .expect("the layout's shape"),
            &mut biases[..cols],
        )
    }

    /// Glorot's uniform initialisation with scikit-learn's bounds (see the module doc),
    /// layer by layer, its weights then its biases, from `rng`.
    pub fn glorot(&self, hidden: Activation, rng: &mut Rng) -> Vec<f64> {
        let factor = if hidden == Activation::Sigmoid {
            2.0
        } else {
            6.0
        };
        let mut params = vec![0.0; self.n_params()];
        for l in 1..self.sizes.len() {
            let r = (factor / (self.sizes[l - 1] + self.sizes[l]) as f64).sqrt();
            let (mut w, b) = self.layer_mut(&mut params, l);
            w.iter_mut()
                .chain(b.iter_mut())
                .for_each(|v| *v = r * (2.0 * rng.next_f64() - 1.0));
        }
        params
    }
}

/// The fewest rows a parallel block of a product has.
const MIN_BLOCK_ROWS: usize = 32;

/// Blocks of rows start at multiples of this, the rows of a tile of [`gemm`]: a tile cut
/// short by a block's end costs a whole tile. The bits do not depend on the blocks: every
/// element of a product is its own sum over `k` in the same order whichever block holds it,
/// so the blocks can follow the thread count.
pub(crate) const TILE_ROWS: usize = gemm::TILE_ROWS;

/// Rows per block of a product with `n` output rows, or of a pass over `n` rows: one
/// block per thread of rayon's current pool (at least [`MIN_BLOCK_ROWS`] rows each), a
/// multiple of [`TILE_ROWS`].
pub(crate) fn row_blocks(n: usize) -> usize {
    let blocks = rayon::current_num_threads().min(n / MIN_BLOCK_ROWS).max(1);
    n.div_ceil(blocks).next_multiple_of(TILE_ROWS).max(1)
}

/// `c = a b + beta c` (`beta = 1` when `accumulate`, else 0) on the calling thread: the
/// register tiles of [`gemm`] when the processor has them and `b`'s rows are contiguous,
/// else matrixmultiply (through `ndarray`).
pub fn mat_mul<T: Real>(
    a: ArrayView2<T>,
    b: ArrayView2<T>,
    accumulate: bool,
    mut c: ArrayViewMut2<T>,
) {
    if !gemm::product(a, b, accumulate, c.view_mut()) {
        let beta = if accumulate { T::one() } else { T::zero() };
        ndarray::linalg::general_mat_mul(T::one(), &a, &b, beta, &mut c);
    }
}

/// A batch of input rows as the first layer reads them, in the passes' precision `T`:
/// dense rows as one matrix (a view when they are consecutive rows of `f64` in `f64`
/// passes, else gathered once per batch by the pass, [`gather`]), sparse rows in place.
pub enum InputRows<'b, 'x, T> {
    /// The rows, one per batch row.
    Dense(CowArray<'b, T, Ix2>),
    /// The matrix and the batch's rows of it.
    Sparse(&'b Features<'x>, &'b [usize]),
}

impl<'b, 'x, T: Real> InputRows<'b, 'x, T> {
    /// Whether the passes read `rows` of `x` in the order given: sparse rows, and
    /// consecutive dense rows in `f64` passes (a view of `f64` storage, `f32` storage
    /// widened in order). Other dense rows are gathered, in an order the caller may choose
    /// (`ZeroSpans`). It depends on the storage's shape, not its value type, so `f32`
    /// storage takes the path of the same values in `f64` (and gives the same bits).
    pub fn in_order(x: &Features, rows: &[usize]) -> bool {
        match x {
            Features::Dense(_) | Features::DenseF32(_) => {
                let start = rows.first().copied().unwrap_or(0);
                T::DTYPE == Dtype::F64 && rows.iter().enumerate().all(|(k, &i)| i == start + k)
            }
            Features::Sparse(_) | Features::SparseView(_) => true,
        }
    }

    /// `rows` of `x`, in that order, without a copy; `None` for dense rows that must be
    /// gathered (not [`in_order`](Self::in_order), or not in the passes' precision).
    pub fn borrowed(x: &'b Features<'x>, rows: &'b [usize]) -> Option<Self> {
        match x {
            Features::Dense(a) if Self::in_order(x, rows) => {
                let start = rows.first().copied().unwrap_or(0);
                let a = a.slice(ndarray::s![start..start + rows.len(), ..]);
                T::view(a).map(|a| InputRows::Dense(a.into()))
            }
            Features::Dense(_) | Features::DenseF32(_) => None,
            Features::Sparse(_) | Features::SparseView(_) => Some(InputRows::Sparse(x, rows)),
        }
    }

    /// `z += X_b W`: the first layer's product, dense rows through the matrix product,
    /// sparse rows as sums of `W`'s rows scaled by the stored values; on the calling thread
    /// (the passes run blocks of rows in parallel).
    pub fn times(&self, w: ArrayView2<T>, mut z: ArrayViewMut2<T>) {
        match self {
            InputRows::Dense(xb) => mat_mul(xb.view(), w, true, z),
            InputRows::Sparse(x, rows) => with_rows!(x, |m| {
                for (mut out, &i) in z.rows_mut().into_iter().zip(rows.iter()) {
                    m.for_each_in_row(i, |j, v| out.scaled_add(T::narrow(v), &w.row(j)));
                }
            }),
        }
    }

    /// `grad = X_b^T delta`, or `grad += X_b^T delta` when `accumulate`: the first layer's
    /// weight gradient (before the penalty), dense rows through the matrix product, sparse
    /// rows scattering each stored value's row of `delta`; on the calling thread.
    pub fn transpose_times(
        &self,
        delta: ArrayView2<T>,
        accumulate: bool,
        mut grad: ArrayViewMut2<T>,
    ) {
        match self {
            InputRows::Dense(xb) => mat_mul(xb.t(), delta, accumulate, grad),
            InputRows::Sparse(x, rows) => with_rows!(x, |m| {
                if !accumulate {
                    grad.fill(T::zero());
                }
                for (r, &i) in rows.iter().enumerate() {
                    let d = delta.row(r);
                    m.for_each_in_row(i, |j, v| grad.row_mut(j).scaled_add(T::narrow(v), &d));
                }
            }),
        }
    }
}

/// `out = rows` of a dense matrix whose row `i` is `row(i)` (in `f64` or `f32`),
/// in the precision `T`, row by row, every element written, each row asked of the memory
/// `FETCH_AHEAD` (16) rows before its copy.
pub fn gather<'o, 'x, S: Real, T: Real>(
    row: impl Fn(usize) -> ArrayView1<'x, S>,
    rows: &[usize],
    mut out: ArrayViewMut2<'o, T>,
) {
    assert_eq!(out.nrows(), rows.len(), "one row of `out` per index");
    for &i in rows.iter().take(FETCH_AHEAD) {
        fetch(row(i));
    }
    for (k, (mut to, &i)) in out.rows_mut().into_iter().zip(rows).enumerate() {
        if let Some(&ahead) = rows.get(k + FETCH_AHEAD) {
            fetch(row(ahead));
        }
        to.zip_mut_with(&row(i), |t, &v| *t = T::narrow(v.wide()));
    }
}

/// How many rows ahead of its copy [`gather`] asks the memory for a row. The rows come in
/// a random order, which the processor's own prefetching cannot foresee: without this each
/// row's cache lines arrive one memory latency after the copy asks for them (a tenth of a
/// one-thread Fashion-MNIST epoch in `f32`; half that with 16 rows ahead, whose 50 KiB sit in
/// the second-level cache).
const FETCH_AHEAD: usize = 16;

/// Asks the memory for the cache lines of `row` into the second-level cache (a prefetch:
/// it reads nothing and cannot fault); nothing on other processors or for a strided row.
#[inline(always)]
pub(crate) fn fetch<S>(row: ArrayView1<S>) {
    if let Some(values) = row.as_slice() {
        prefetch::slice(values, prefetch::Level::L2, usize::MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flat_vector_holds_each_layer_in_scikit_learns_order() {
        let layout = Layout::new(3, &[4, 2], 1).unwrap();
        assert_eq!(layout.n_params(), 4 * 4 + 5 * 2 + 3);
        let p: Vec<f64> = (0..layout.n_params()).map(|v| v as f64).collect();
        // W_1: 0..12, W_2: 12..20, W_3: 20..22, b_1: 22..26, b_2: 26..28, b_3: 28
        let (w1, b1) = layout.layer(&p, 1);
        assert_eq!((w1.dim(), w1[[0, 1]], b1[0]), ((3, 4), 1.0, 22.0));
        let (w2, b2) = layout.layer(&p, 2);
        assert_eq!((w2[[3, 1]], b2), (19.0, &[26.0, 27.0][..]));
        let (w3, b3) = layout.layer(&p, 3);
        assert_eq!((w3.dim(), w3[[1, 0]], b3), ((2, 1), 21.0, &[28.0][..]));
    }

    #[test]
    fn layers_of_no_units_or_absurd_sizes_are_refused() {
        assert!(Layout::new(3, &[0], 2).is_err());
        assert!(Layout::new(usize::MAX / 2, &[4], 2).is_err());
    }

    #[test]
    fn glorot_bounds_follow_the_fan_in_and_out() {
        let layout = Layout::new(6, &[10], 2).unwrap();
        let p = layout.glorot(Activation::Relu, &mut Rng::new(0));
        let (w1, _) = layout.layer(&p, 1);
        let r = (6.0f64 / 16.0).sqrt();
        assert!(w1.iter().all(|v| v.abs() <= r));
        assert!(w1.iter().any(|v| v.abs() > 0.9 * r));
        let s = layout.glorot(Activation::Sigmoid, &mut Rng::new(0));
        let (w1s, _) = layout.layer(&s, 1);
        assert!(w1s.iter().all(|v| v.abs() <= (2.0f64 / 16.0).sqrt()));
    }
}
