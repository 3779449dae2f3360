//! The forward pass and backpropagation: the loss of a batch of rows and its gradient
//! with respect to every weight and bias.
//!
//! ```text
//! forward   a_0 = x,  a_l = g(a_{l-1} W_l + b_l),  a_L = output(a_{L-1} W_L + b_L)
//! loss      J = (sum_i w_i l(a_L(x_i), y_i) + alpha/2 sum_l ||W_l||_F^2) / sum_i w_i
//! backward  delta_L = w_i dl/dz_L  (activation::Output::delta)
//!           delta_{l-1} = (delta_l W_l^T) * g'(a_{l-1})
//! gradient  dJ/dW_l = (a_{l-1}^T delta_l + alpha W_l) / sum_i w_i
//!           dJ/db_l = sum_i delta_l,i / sum_i w_i
//! ```
//!
//! This is scikit-learn's MLP objective (`_backprop`): the L2 penalty on the weights, not
//! the biases, scaled by the total sample weight of the batch, so that a batch's gradient
//! is an average and the rows of a batch can be split, summed and divided at the end.
//!
//! A batch's rows are split into groups fixed by its size (`group_rows`: up to 8 groups of
//! at least 64 rows), one parallel task each: a group's rows go through the forward and
//! backward passes in parts of at most 128 rows and add up to the group's
//! `sum_i w_i dl_i/dparams`; the groups' gradients are then added in group order
//! (`complete`), so the bits do not depend on the number of threads.

use ndarray::{s, Array2, ArrayBase, ArrayView1, ArrayView2, ArrayViewMut2, Axis, Data, Ix2};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::activation::{Activation, Output};
use super::layers::{fetch, gather, mat_mul, row_blocks, InputRows, Layout, TILE_ROWS};
use super::precision::{Dtype, Kept, KeptEach, Real};
use super::step::{Step, StepRule};
use super::PARAMETER_CHUNK;
use crate::data::Features;
use hyperplane_kernels::csr::Value;
use hyperplane_kernels::simd::with_widest;

/// A network's shape and units: what the flat parameter vector means.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Network {
    /// The layer sizes.
    pub layout: Layout,
    /// The hidden units' activation.
    pub activation: Activation,
    /// The output layer and its loss.
    pub output: Output,
}

/// The rows of one batch with their targets and weights.
pub struct Batch<'b, 'x> {
    /// The input rows (all of them; `rows` picks the batch).
    pub x: &'b Features<'x>,
    /// The batch's rows of `x`.
    pub rows: &'b [usize],
    /// Targets, one row per row of `x`, one column per output (class indicators for
    /// classes).
    pub y: ArrayView2<'b, f64>,
    /// Sample weights, one per row of `x`; `None` for weight 1.
    pub weights: Option<&'b [f64]>,
}

/// Rows of one forward pass in prediction: a few hundred rows keep a layer's activations
/// in cache and make matrix products as fast per row as the whole matrix would.
const PREDICT_CHUNK: usize = 256;

/// A batch's targets (one row per row of the data) and sample weights (`None`: 1).
type Targets<'a> = (ArrayView2<'a, f64>, Option<&'a [f64]>);

/// The most groups of rows a batch's gradient is summed over: its parallel tasks, and one
/// gradient vector of memory each.
const GRADIENT_GROUPS: usize = 8;

/// The fewest rows of a group: below this a group's passes cost less than starting a
/// parallel task.
const MIN_GROUP_ROWS: usize = 64;

/// The most rows of a part of a group, passed at once: a part's activations and deltas
/// stay in the second-level cache.
const PART_ROWS: usize = 128;

/// Rows per group of a batch of `n` rows (module doc): a power of two of groups, at most
/// [`GRADIENT_GROUPS`], of at least [`MIN_GROUP_ROWS`] rows each, a multiple of the
/// product's tile. Fixed by `n` alone, so the gradient's sums are the same on any number
/// of threads.
fn group_rows(n: usize) -> usize {
    let most = (n / MIN_GROUP_ROWS).clamp(1, GRADIENT_GROUPS);
    let groups = 1 << most.ilog2();
    n.div_ceil(groups).next_multiple_of(TILE_ROWS).max(1)
}

/// The rows of `x` a block's first layer reads: in place when they are consecutive rows of
/// a dense matrix in the precision `T`, or rows of a sparse matrix; else gathered into
/// `buffer` (from the `f32` copy `x32` when given, else from `x` itself, `f64` or `f32`),
/// which grows to the block's size.
fn block_input<'b, 'x, T: Real>(
    x: &'b Features<'x>,
    x32: Option<&'b RowsInF32>,
    rows: &'b [usize],
    buffer: &'b mut Array2<T>,
) -> InputRows<'b, 'x, T> {
    if let Some(input) = InputRows::borrowed(x, rows) {
        return input;
    }
    let m = rows.len();
    if buffer.nrows() < m || buffer.ncols() != x.n_cols() {
        *buffer = Array2::zeros((m, x.n_cols()));
    }
    let out = buffer.slice_mut(s![..m, ..]);
    match (x32, x) {
        (Some(x32), _) => gather(|i| x32.row(i), rows, out),
        (None, Features::Dense(x)) => gather(|i| x.row(i), rows, out),
        (None, Features::DenseF32(x)) => gather(|i| x.row(i), rows, out),
        (None, _) => unreachable!("sparse rows are read in place"),
    }
    let buffer: &'b Array2<T> = buffer;
    InputRows::Dense(buffer.slice(s![..m, ..]).into())
}

impl Network {
    /// `a_1, ..., a_L` of `m` rows, zeros.
    fn activations<T: Real>(&self, m: usize) -> Vec<Array2<T>> {
        (1..=self.layout.n_layers())
            .map(|l| Array2::zeros((m, self.layout.sizes[l])))
            .collect()
    }

    /// The gradient of the data's loss over `rows`, a group of a batch (module doc): its
    /// parts of at most [`PART_ROWS`] rows one after the other, each through the forward
    /// and backward passes, its `a_{l-1}^T delta_l` and `sum_i delta_l,i` written to `grad`
    /// (the first part) or added to it (the others); returns `sum_i w_i l_i` of the rows.
    fn group_gradient<T: Real>(
        &self,
        params: &[T],
        x: &Features,
        x32: Option<&RowsInF32>,
        rows: &[usize],
        targets: Targets,
        grad: &mut [T],
    ) -> f64 {
        let size = rows.len().div_ceil(rows.len().div_ceil(PART_ROWS).max(1));
        let (mut acts, mut deltas) = (self.activations(size), self.activations(size));
        let mut buffer = Array2::zeros((0, 0));
        let mut losses = vec![0.0; size];
        let mut loss = 0.0;
        for (k, part) in rows.chunks(size.max(1)).enumerate() {
            let m = part.len();
            // the targets' rows, in a random order, are asked of the memory before the
            // passes need them (at the output layer, after the products)
            for &i in part {
                fetch(targets.0.row(i));
            }
            let input = block_input(x, x32, part, &mut buffer);
            let mut a: Vec<_> = (acts.iter_mut())
                .map(|a| a.slice_mut(s![..m, ..]))
                .collect();
            let mut d: Vec<_> = (deltas.iter_mut())
                .map(|d| d.slice_mut(s![..m, ..]))
                .collect();
            let losses = &mut losses[..m];
            losses.fill(0.0);
            self.forward_block(params, &input, part, &mut a, Some(targets), losses);
            self.backward_block(params, &a, &mut d, part, targets);
            loss += losses.iter().sum::<f64>();
            let accumulate = k > 0;
            for l in 1..=self.layout.n_layers() {
                let (gw, gb) = self.layout.layer_mut(grad, l);
                let delta = d[l - 1].view();
                match l {
                    1 => input.transpose_times(delta, accumulate, gw),
                    _ => mat_mul(a[l - 2].t(), delta, accumulate, gw),
                }
                for (g, s) in gb.iter_mut().zip(delta.sum_axis(Axis(0))) {
                    *g = if accumulate { *g + s } else { s };
                }
            }
        }
        loss
    }

    /// `acts[l-1] = a_l` for the block `input` (the data's `rows`); with targets,
    /// `losses[r] = w_i l_i` of its rows.
    fn forward_block<T: Real>(
        &self,
        params: &[T],
        input: &InputRows<T>,
        rows: &[usize],
        acts: &mut [ArrayViewMut2<T>],
        targets: Option<Targets>,
        losses: &mut [f64],
    ) {
        let n_layers = self.layout.n_layers();
        let mut scratch = Vec::new();
        for l in 1..=n_layers {
            let (w, b) = self.layout.layer(params, l);
            let (before, after) = acts.split_at_mut(l - 1);
            let z = &mut after[0];
            // z = b + a_{l-1} W, row-major
            z.assign(&ndarray::aview1(b));
            match before.last() {
                None => input.times(w, z.view_mut()),
                Some(a) => mat_mul(a.view(), w, true, z.view_mut()),
            }
            if l < n_layers {
                self.activation.apply(z.view_mut());
                continue;
            }
            for (r, mut row) in z.rows_mut().into_iter().enumerate() {
                let out = row.as_slice_mut().expect("rows of a row-major matrix");
                T::in_f64(out, &mut scratch, |out| match targets {
                    Some((y, weights)) => {
                        let i = rows[r];
                        let w = weights.map_or(1.0, |w| w[i]);
                        let l = self.output.apply_and_loss(out, y.row(i));
                        if w != 0.0 {
                            losses[r] = w * l;
                        }
                    }
                    None => self.output.apply(out),
                });
            }
        }
    }

    /// The deltas of a block (the data's `rows`) from its activations `acts`:
    /// `delta_L = w_i dl/dz_L`, `delta_{l-1} = (delta_l W_l^T) * g'(a_{l-1})`.
    fn backward_block<T: Real>(
        &self,
        params: &[T],
        acts: &[ArrayViewMut2<T>],
        deltas: &mut [ArrayViewMut2<T>],
        rows: &[usize],
        (y, weights): Targets,
    ) {
        let n_layers = self.layout.n_layers();
        let mut scratch = Vec::new();
        let last = &mut deltas[n_layers - 1];
        last.assign(&acts[n_layers - 1]);
        for (r, mut row) in last.rows_mut().into_iter().enumerate() {
            let i = rows[r];
            let out = row.as_slice_mut().expect("rows of a row-major matrix");
            T::in_f64(out, &mut scratch, |out| {
                self.output
                    .delta(out, y.row(i), weights.map_or(1.0, |w| w[i]))
            });
        }
        for l in (2..=n_layers).rev() {
            let (w, _) = self.layout.layer(params, l);
            let (before, after) = deltas.split_at_mut(l - 1);
            let back = &mut before[l - 2];
            mat_mul(after[0].view(), w.t(), false, back.view_mut());
            self.activation
                .backward(acts[l - 2].view(), back.view_mut());
        }
    }

    /// The outputs `a_L` (probabilities for classes, values for regression) of every row.
    pub fn predict(&self, params: &[f64], x: &Features) -> Array2<f64> {
        let rows: Vec<usize> = (0..x.n_rows()).collect();
        self.predict_rows(params, x, &rows)
    }

    /// The outputs `a_L` of `rows` of `x`, in that order: blocks of at most
    /// `PREDICT_CHUNK` rows, one block a thread, in parallel, so that the hidden activations
    /// take memory of the blocks, not of `x`; every row's outputs depend on that row alone.
    pub fn predict_rows(&self, params: &[f64], x: &Features, rows: &[usize]) -> Array2<f64> {
        let mut out = Array2::zeros((rows.len(), self.layout.n_outputs()));
        let size = row_blocks(rows.len()).min(PREDICT_CHUNK);
        let blocks: Vec<_> = out.axis_chunks_iter_mut(Axis(0), size).collect();
        (blocks.into_par_iter().zip(rows.par_chunks(size))).for_each(|(mut out, rows)| {
            let mut buffer = Array2::zeros((0, 0));
            let input = block_input(x, None, rows, &mut buffer);
            let mut acts = self.activations(rows.len());
            let mut views: Vec<_> = acts.iter_mut().map(|a| a.view_mut()).collect();
            self.forward_block(params, &input, rows, &mut views, None, &mut []);
            out.assign(&acts[acts.len() - 1]);
        });
        out
    }

    /// `J` of the batch (module doc), with `dJ/dparams` written to `grad`, the passes in
    /// the precision `T` of the parameters, the groups' sum and the penalty in the precision
    /// `G` of `grad` (the loss in `f64`).
    pub fn loss_grad<T: Real, G: Real>(
        &self,
        params: &[T],
        alpha: f64,
        batch: &Batch,
        grad: &mut [G],
    ) -> f64 {
        let mut partials = Vec::new();
        let (data_loss, scale) = self.data_loss_grad(params, batch, None, &mut partials);
        let n_weights = self.layout.n_weights();
        let norms: Vec<f64> = (grad.par_chunks_mut(PARAMETER_CHUNK).enumerate())
            .zip(params.par_chunks(PARAMETER_CHUNK))
            .map(|((k, g), w)| {
                let start = k * PARAMETER_CHUNK;
                with_widest(|| complete(n_weights, start, w, &partials, g, alpha, scale))
            })
            .collect();
        (data_loss + 0.5 * alpha * norms.iter().sum::<f64>()) * scale
    }

    /// The data's part of the batch's loss and gradient: returns `sum_i w_i l_i` and
    /// `scale = 1 / sum_i w_i` (0 for no weight), with `partials` holding, for each group
    /// of the batch's rows ([`group_rows`]), its `sum_i w_i dl_i/dparams` (computed in
    /// parallel, one task a group; [`complete`] sums them). `x32`, when given, is the
    /// batch's matrix in `f32`, the source of the rows the passes gather.
    fn data_loss_grad<T: Real>(
        &self,
        params: &[T],
        batch: &Batch,
        x32: Option<&RowsInF32>,
        partials: &mut Vec<Vec<T>>,
    ) -> (f64, f64) {
        let rows = batch.rows;
        let weight = |i: usize| batch.weights.map_or(1.0, |w| w[i]);
        let total: f64 = rows.iter().map(|&i| weight(i)).sum();
        let size = group_rows(rows.len());
        partials.resize_with(rows.len().div_ceil(size), Vec::new);
        partials.truncate(rows.len().div_ceil(size));
        let targets = (batch.y, batch.weights);
        let losses: Vec<f64> = (partials.par_iter_mut().zip(rows.par_chunks(size)))
            .map(|(grad, rows)| {
                grad.resize(params.len(), T::zero());
                self.group_gradient(params, batch.x, x32, rows, targets, grad)
            })
            .collect();
        let scale = if total > 0.0 { 1.0 / total } else { 0.0 };
        (losses.iter().sum(), scale)
    }
}

/// A network's loss and gradient, kept from one batch to the next with the buffers they
/// need: [`Gradient::loss_grad`] at `f64` parameters with the passes at the precision
/// `dtype` (see [`Dtype`]; in `f32` through a single-precision copy of the parameters), and
/// [`Gradient::descend`], the passes and a step at the precision of the parameters given.
pub struct Gradient<'n> {
    /// The network.
    pub net: &'n Network,
    dtype: Dtype,
    /// The parameters in `f32` for [`Gradient::loss_grad`].
    params: Vec<f32>,
    /// The groups' gradients of the last batch (see [`Network::data_loss_grad`]) and the
    /// gradient of a step of [`Gradient::descend`], in each precision.
    kept: KeptEach,
    /// A dense matrix in `f32` (see [`Gradient::keep_rows_in_f32`]).
    rows32: Option<RowsInF32>,
    /// The order of a dense matrix's rows (see [`Gradient::order_rows_by_zeros`]).
    spans: Option<ZeroSpans>,
}

impl<'n> Gradient<'n> {
    /// The gradient of `net` at the precision `dtype`.
    pub fn new(net: &'n Network, dtype: Dtype) -> Self {
        Gradient {
            net,
            dtype,
            params: Vec::new(),
            kept: KeptEach::default(),
            rows32: None,
            spans: None,
        }
    }

    /// With `dtype=f32` and dense `x` of `f64`, keeps a copy of `x` in `f32` from which
    /// [`Gradient::descend`] in `f32` gathers the rows of batches of `x`: half the bytes a
    /// batch reads from memory, and no conversion, for half the size of `x` held while
    /// training. Worth it over epochs (the copy costs about one epoch's gathering); nothing
    /// otherwise, and nothing for `x` of `f32`, whose rows are gathered from `x` itself
    /// (the same values as from the copy of the same values in `f64`).
    pub(crate) fn keep_rows_in_f32(&mut self, x: &Features) {
        if let (Dtype::F32, Features::Dense(a)) = (self.dtype, x) {
            let blocks = (a.axis_chunks_iter(Axis(0), F32_BLOCK_ROWS))
                .map(|block| block.mapv(|v| v as f32))
                .collect();
            self.rows32 = MatrixId::of(x).map(|of| RowsInF32 { blocks, of });
        }
    }

    /// With dense `x`, keeps the keys by which [`Gradient::descend`] orders the rows of a
    /// batch of `x` it gathers ([`ZeroSpans`]): more of the forward product's steps skipped.
    pub(crate) fn order_rows_by_zeros(&mut self, x: &Features) {
        self.spans = ZeroSpans::of(x);
    }

    /// [`Network::loss_grad`] at `params`, the passes in this precision.
    pub fn loss_grad(
        &mut self,
        params: &[f64],
        alpha: f64,
        batch: &Batch,
        grad: &mut [f64],
    ) -> f64 {
        match self.dtype {
            Dtype::F64 => self.net.loss_grad(params, alpha, batch, grad),
            Dtype::F32 => {
                self.params.resize(params.len(), 0.0);
                convert(params, &mut self.params, |v| v as f32);
                self.net.loss_grad(&self.params, alpha, batch, grad)
            }
        }
    }

    /// One step of `rule` along the batch's gradient at `params`, the passes, the
    /// gradient and the step in the precision `T` of `params`; returns the batch's `J`
    /// before the step. The groups' sum, the penalty and the rule's update run in one
    /// parallel pass over the parameters ([`Step`]).
    pub fn descend<T: Real>(
        &mut self,
        params: &mut [T],
        alpha: f64,
        batch: &Batch,
        rule: &mut dyn StepRule<T>,
    ) -> f64 {
        let net = self.net;
        let n_weights = net.layout.n_weights();
        let x32 = match T::DTYPE {
            Dtype::F32 => self.rows32.as_ref().and_then(|r| r.copy_of(batch.x)),
            Dtype::F64 => None,
        };
        let arranged = match &self.spans {
            Some(spans) if !InputRows::<T>::in_order(batch.x, batch.rows) => {
                spans.arranged(batch.x, batch.rows)
            }
            _ => None,
        };
        let batch = &Batch {
            rows: arranged.as_deref().unwrap_or(batch.rows),
            ..*batch
        };
        let Kept { partials, grad } = T::kept(&mut self.kept);
        grad.resize(params.len(), T::zero());
        let (data_loss, scale) = net.data_loss_grad(params, batch, x32, partials);
        let fill = |start: usize, w: &[T], g: &mut [T]| {
            with_widest(
                #[inline(always)]
                || complete(n_weights, start, w, partials, g, alpha, scale),
            )
        };
        let norm = rule.step(params, Step { grad, fill: &fill });
        (data_loss + 0.5 * alpha * norm) * scale
    }
}

/// Rows of a block of [`RowsInF32`]: blocks under glibc's threshold for a mapping of
/// their own (32 MiB with [`keep_freed_memory`](crate::memory::keep_freed_memory)) come
/// from the heap, where the memory the reading of the data freed is kept.
const F32_BLOCK_ROWS: usize = 4096;

/// Which dense matrix a [`RowsInF32`] or [`ZeroSpans`] was made of: its address, shape and
/// strides.
#[derive(PartialEq)]
struct MatrixId(usize, (usize, usize), [isize; 2]);

impl MatrixId {
    /// The identity of `x` when it is dense.
    fn of(x: &Features) -> Option<Self> {
        match x {
            Features::Dense(a) => Some(Self::of_dense(a)),
            Features::DenseF32(a) => Some(Self::of_dense(a)),
            Features::Sparse(_) | Features::SparseView(_) => None,
        }
    }

    fn of_dense<S: Data>(a: &ArrayBase<S, Ix2>) -> Self {
        MatrixId(
            a.as_ptr() as usize,
            a.dim(),
            [a.strides()[0], a.strides()[1]],
        )
    }
}

/// A copy in `f32` of a dense matrix, in blocks of [`F32_BLOCK_ROWS`] rows.
pub(crate) struct RowsInF32 {
    blocks: Vec<Array2<f32>>,
    of: MatrixId,
}

impl RowsInF32 {
    /// The copy, when it is a copy of `x`.
    fn copy_of(&self, x: &Features) -> Option<&Self> {
        (MatrixId::of(x).as_ref() == Some(&self.of)).then_some(self)
    }

    /// Row `i`.
    fn row(&self, i: usize) -> ArrayView1<'_, f32> {
        self.blocks[i / F32_BLOCK_ROWS].row(i % F32_BLOCK_ROWS)
    }
}

/// Where each row of a dense matrix has its first and its last value that is not zero, as
/// one key, `first << 32 | last` (a row of zeros: `u64::MAX`).
///
/// A batch whose rows are gathered goes through the passes in the order of these keys
/// (ties in the batch's order): rows whose values start and end at the same features tend
/// to share their zeros, so the forward product's tiles of rows find more features where
/// all their rows are zero and skip them (`hyperplane_kernels::gemm`). On Fashion-MNIST
/// batches of 200 rows, a tile of 6 rows skips 17% of its steps in a random order and 32%
/// in this one; a tile of 8 rows (AVX-512) 13% and 28%. The tiles of 8 rows are then dealt
/// to the batch's groups so that each has about the same work ([`balanced`]). The batch's
/// gradient is the same sum over its rows in another order: only its rounding changes, and
/// the order depends on the rows alone (the same bits on any number of threads).
pub(crate) struct ZeroSpans {
    keys: Vec<u64>,
    of: MatrixId,
}

impl ZeroSpans {
    /// The keys of the rows of `x`, when it is dense.
    fn of(x: &Features) -> Option<Self> {
        let keys = match x {
            Features::Dense(a) => Self::keys(a),
            Features::DenseF32(a) => Self::keys(a),
            Features::Sparse(_) | Features::SparseView(_) => return None,
        };
        MatrixId::of(x).map(|of| ZeroSpans { keys, of })
    }

    /// The key of each row of `a`.
    fn keys<S: Data + Sync>(a: &ArrayBase<S, Ix2>) -> Vec<u64>
    where
        S::Elem: Value,
    {
        let mut keys = vec![0; a.nrows()];
        (keys.par_chunks_mut(F32_BLOCK_ROWS).enumerate()).for_each(|(b, keys)| {
            for (k, key) in keys.iter_mut().enumerate() {
                *key = zero_span(a.row(b * F32_BLOCK_ROWS + k));
            }
        });
        keys
    }

    /// `rows` in the order of their keys (ties in the order given), in whole tiles
    /// [`balanced`] between the batch's groups, when `x` is the matrix of these keys.
    fn arranged(&self, x: &Features, rows: &[usize]) -> Option<Vec<usize>> {
        if MatrixId::of(x).as_ref() != Some(&self.of) {
            return None;
        }
        let mut sorted = rows.to_vec();
        sorted.sort_by_key(|&i| self.keys[i]);
        Some(balanced(&sorted, |i| self.keys[i]))
    }
}

/// `sorted` (a batch's rows), its tiles of [`TILE_ROWS`] consecutive rows dealt to the
/// batch's groups ([`group_rows`]) so that the groups, one parallel task each, take about
/// the same time: the most costly tile first, each to the group with the least cost so far
/// that has room for it (ties: the first group); a short last tile stays last. The cost of
/// a tile, from its rows' [`ZeroSpans`] keys, counts the steps its products cannot skip:
/// the forward product's, `TILE_ROWS` x the union of its rows' spans, and the weight
/// gradient's, the sum of their spans.
///
/// Sorted Fashion-MNIST batches cut in two give the first group the rows whose values
/// start early, the larger garments: it took 19% longer than the second, the other thread
/// waiting; dealt, 2-4%.
fn balanced(sorted: &[usize], key: impl Fn(usize) -> u64) -> Vec<usize> {
    let n = sorted.len();
    let size = group_rows(n);
    let groups = n.div_ceil(size);
    let full = n / TILE_ROWS;
    let tiles: Vec<&[usize]> = sorted.chunks(TILE_ROWS).collect();
    let cost = |tile: &[usize]| {
        let spans = tile.iter().filter_map(|&i| span_of_key(key(i)));
        let (first, last, sum) = spans.fold((u64::MAX, 0, 0), |(f, l, sum), (first, last)| {
            (f.min(first), l.max(last), sum + last - first + 1)
        });
        sum + if first <= last {
            TILE_ROWS as u64 * (last - first + 1)
        } else {
            0
        }
    };
    let mut by_cost: Vec<(u64, usize)> = (0..full).map(|t| (cost(tiles[t]), t)).collect();
    by_cost.sort_by_key(|&(c, t)| (std::cmp::Reverse(c), t));
    // full tiles a group holds: all of its rows but a short last tile's
    let room: Vec<usize> = (0..groups)
        .map(|g| size.min(n - g * size) / TILE_ROWS)
        .collect();
    let mut load = vec![0; groups];
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); groups];
    for (c, t) in by_cost {
        let g = (0..groups)
            .filter(|&g| members[g].len() < room[g])
            .min_by_key(|&g| load[g])
            .expect("room for every full tile");
        load[g] += c;
        members[g].push(t);
    }
    let mut out = Vec::with_capacity(n);
    for mut tiles_of_group in members {
        tiles_of_group.sort_unstable();
        out.extend(tiles_of_group.iter().flat_map(|&t| tiles[t]));
    }
    out.extend_from_slice(&sorted[full * TILE_ROWS..]);
    out
}

/// The key of a row in [`ZeroSpans`].
fn zero_span<V: Value>(row: ArrayView1<V>) -> u64 {
    let first = row.iter().position(|&v| v.get() != 0.0);
    let last = row.iter().rposition(|&v| v.get() != 0.0);
    match (first, last) {
        (Some(f), Some(l)) => (f as u64) << 32 | l as u64,
        _ => u64::MAX,
    }
}

/// The first and last nonzero columns of a [`zero_span`] key (`None`: a row of zeros).
fn span_of_key(key: u64) -> Option<(u64, u64)> {
    (key != u64::MAX).then_some((key >> 32, key & u64::from(u32::MAX)))
}

/// `to_i = f(from_i)`, in parallel over fixed chunks.
fn convert<A: Copy + Sync, B: Send>(from: &[A], to: &mut [B], f: impl Fn(A) -> B + Sync) {
    to.par_chunks_mut(PARAMETER_CHUNK)
        .zip(from.par_chunks(PARAMETER_CHUNK))
        .for_each(|(to, from)| to.iter_mut().zip(from).for_each(|(t, &v)| *t = f(v)));
}

/// The gradient `g` of the parameters from `start` (module doc), in the precision `G`:
/// `g = (sum_groups partial) / sum_i w_i`, plus `alpha W / sum_i w_i` for the weights (the
/// first `n_weights` of the flat vector), the groups added in order; `w` the parameters the
/// passes saw. Returns `sum W^2` of those weights in `f64`, summed in eight lanes (a chain
/// of dependent additions would take a cycle latency per weight). Inlined, so that it runs
/// in the registers of its caller's [`with_widest`].
#[inline(always)]
fn complete<T: Real, G: Real>(
    n_weights: usize,
    start: usize,
    w: &[T],
    partials: &[Vec<T>],
    g: &mut [G],
    alpha: f64,
    scale: f64,
) -> f64 {
    let range = start..start + g.len();
    let to = |p: T| G::narrow(p.wide());
    match partials.split_first() {
        None => g.fill(G::zero()),
        Some((first, rest)) => {
            (g.iter_mut().zip(&first[range.clone()])).for_each(|(g, &p)| *g = to(p));
            for partial in rest {
                (g.iter_mut().zip(&partial[range.clone()])).for_each(|(g, &p)| *g += to(p));
            }
        }
    }
    let len = n_weights.saturating_sub(start).min(g.len());
    let (gw, gb) = g.split_at_mut(len);
    let (alpha_g, scale_g) = (G::narrow(alpha), G::narrow(scale));
    (gw.iter_mut().zip(w)).for_each(|(g, &w)| *g = (alpha_g * to(w) + *g) * scale_g);
    gb.iter_mut().for_each(|g| *g *= scale_g);
    let lanes = w[..len].chunks_exact(8);
    let tail: f64 = lanes.remainder().iter().map(|&v| v.wide() * v.wide()).sum();
    let mut acc = [0.0f64; 8];
    for v in lanes {
        for l in 0..8 {
            acc[l] += v[l].wide() * v[l].wide();
        }
    }
    acc.iter().sum::<f64>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::CsrMatrix;
    use crate::rng::Rng;

    /// A random network, data, targets and weights of the given shape.
    fn problem(
        seed: u64,
        n: usize,
        d: usize,
        hidden: &[usize],
        activation: Activation,
        output: Output,
    ) -> (Network, Vec<f64>, Array2<f64>, Array2<f64>, Vec<f64>) {
        let mut rng = Rng::new(seed);
        let k = match output {
            Output::Logistic => 1,
            Output::Identity => 2,
            _ => 3,
        };
        let net = Network {
            layout: Layout::new(d, hidden, k).unwrap(),
            activation,
            output,
        };
        // larger than Glorot's so that every unit's derivative matters
        let params: Vec<f64> = (0..net.layout.n_params())
            .map(|_| 2.0 * rng.next_f64() - 1.0)
            .collect();
        // about a third of the entries zero, so the sparse path skips some
        let x = Array2::from_shape_fn((n, d), |_| {
            let v = 4.0 * rng.next_f64() - 2.0;
            if rng.below(3) == 0 {
                0.0
            } else {
                v
            }
        });
        let y = Array2::from_shape_fn((n, k), |(i, j)| match output {
            Output::Identity => 3.0 * rng.next_f64() - 1.5,
            Output::Logistic => (i % 2) as f64,
            _ => f64::from(i % k == j),
        });
        let weights = (0..n).map(|i| [0.5, 1.0, 2.0, 3.0][i % 4]).collect();
        (net, params, x, y, weights)
    }

    /// Backprop's gradient at `params` on the batch `rows` of `data` (rows, targets,
    /// weights), dense and sparse, L2 penalty 0.3, equals central differences of the loss
    /// (step 1e-5) within 1e-7 relative, every parameter.
    fn equals_central_differences(
        net: &Network,
        params: &[f64],
        (x, y, weights, rows): (&Array2<f64>, &Array2<f64>, &[f64], &[usize]),
        what: &str,
    ) {
        let alpha = 0.3;
        let sparse = Features::from(CsrMatrix::from_dense(x.view()));
        let dense = Features::from(x.clone());
        for x in [&dense, &sparse] {
            let batch = Batch {
                x,
                rows,
                y: y.view(),
                weights: Some(weights),
            };
            let mut grad = vec![0.0; params.len()];
            net.loss_grad(params, alpha, &batch, &mut grad);
            let mut scratch = vec![0.0; params.len()];
            for p in 0..params.len() {
                let h = 1e-5;
                let mut at = params.to_vec();
                at[p] += h;
                let up = net.loss_grad(&at, alpha, &batch, &mut scratch);
                at[p] -= 2.0 * h;
                let down = net.loss_grad(&at, alpha, &batch, &mut scratch);
                let numeric = (up - down) / (2.0 * h);
                let err = (grad[p] - numeric).abs() / numeric.abs().max(1.0);
                let sparse = x.is_sparse();
                assert!(
                    err < 1e-7,
                    "{what} sparse={sparse} param {p}: {} vs {numeric}",
                    grad[p]
                );
            }
        }
    }

    /// Central differences of `J` against backpropagation, every parameter, dense and
    /// sparse rows, with L2 and sample weights, for every activation and output.
    #[test]
    fn backprop_gradients_equal_central_differences() {
        let mut seed = 0;
        for activation in [
            Activation::Identity,
            Activation::Sigmoid,
            Activation::Tanh,
            Activation::Relu,
        ] {
            for output in [
                Output::Softmax,
                Output::Logistic,
                Output::Identity,
                Output::SquaredSigmoid,
            ] {
                for hidden in [&[][..], &[4][..], &[5, 3][..]] {
                    seed += 1;
                    let (net, params, x, y, weights) =
                        problem(seed, 7, 4, hidden, activation, output);
                    let rows = [0, 2, 3, 5, 6, 1];
                    let what = format!("{activation:?} {output:?} {hidden:?}");
                    let data = (&x, &y, &weights[..], &rows[..]);
                    equals_central_differences(&net, &params, data, &what);
                }
            }
        }
    }

    /// A batch of eight groups of two parts each (the groups' gradients summed, each
    /// part's added to its group's): the gradient equals central differences, dense and
    /// sparse rows, with weights and the penalty.
    #[test]
    fn gradients_summed_over_groups_and_parts_equal_central_differences() {
        let n = 1100;
        assert!(group_rows(n) > PART_ROWS && n.div_ceil(group_rows(n)) == GRADIENT_GROUPS);
        let (net, params, x, y, weights) =
            problem(3, n, 3, &[3], Activation::Tanh, Output::Softmax);
        let rows: Vec<usize> = (0..n).map(|i| (i * 13) % n).collect();
        let data = (&x, &y, &weights[..], &rows[..]);
        equals_central_differences(&net, &params, data, "eight groups");
    }

    /// A batch of all eight groups, whose groups have two parts (the second added to the
    /// first), on 1, 2 and 3 threads, in both precisions, with a row count that leaves a
    /// part tile: the same bits.
    #[test]
    fn large_batches_are_the_same_bits_on_any_thread_count() {
        use crate::threads::Threads;
        let (n, d) = (2101, 70);
        let (net, params, x, y, _) = problem(5, n, d, &[40], Activation::Tanh, Output::Softmax);
        assert!(group_rows(n) > PART_ROWS && n.div_ceil(group_rows(n)) == GRADIENT_GROUPS);
        let x = Features::from(x);
        let rows: Vec<usize> = (0..n).map(|i| (i * 7) % n).collect();
        let batch = Batch {
            x: &x,
            rows: &rows,
            y: y.view(),
            weights: None,
        };
        for dtype in [Dtype::F64, Dtype::F32] {
            let run = |threads: usize| {
                let mut grad = vec![0.0; params.len()];
                let mut gradient = Gradient::new(&net, dtype);
                let loss = Threads::Count(threads)
                    .run(|| gradient.loss_grad(&params, 0.01, &batch, &mut grad))
                    .unwrap();
                (
                    loss.to_bits(),
                    grad.iter().map(|g| g.to_bits()).collect::<Vec<_>>(),
                )
            };
            let one = run(1);
            assert_eq!(one, run(2), "{dtype}");
            assert_eq!(one, run(3), "{dtype}");
        }
    }

    /// A batch of several blocks of rows gives the same bits on one thread and on two,
    /// dense and sparse, and its dense and sparse gradients agree.
    #[test]
    fn gradients_are_the_same_bits_on_any_thread_count() {
        use crate::threads::Threads;
        let (net, params, x, y, weights) =
            problem(11, 150, 9, &[40, 20], Activation::Relu, Output::Softmax);
        let rows: Vec<usize> = (0..150).rev().collect();
        let run = |x: &Features, threads: usize| {
            let batch = Batch {
                x,
                rows: &rows,
                y: y.view(),
                weights: Some(&weights),
            };
            let mut grad = vec![0.0f64; params.len()];
            Threads::Count(threads)
                .run(|| net.loss_grad(&params, 0.01, &batch, &mut grad))
                .unwrap();
            let out = Threads::Count(threads)
                .run(|| net.predict(&params, x))
                .unwrap();
            (grad, out)
        };
        let dense = Features::from(x.clone());
        let sparse = Features::from(CsrMatrix::from_dense(x.view()));
        for x in [&dense, &sparse] {
            assert_eq!(run(x, 1), run(x, 2));
        }
        let (gd, pd) = run(&dense, 2);
        let (gs, ps) = run(&sparse, 2);
        assert!(gd.iter().zip(&gs).all(|(a, b)| (a - b).abs() < 1e-12));
        assert!(pd.iter().zip(&ps).all(|(a, b)| (a - b).abs() < 1e-12));
    }

    /// `dtype=f32`: the loss and gradient of single-precision passes are those of double
    /// precision within single precision's rounding, dense and sparse rows, every unit.
    #[test]
    fn single_precision_gradients_are_close_to_double_precision() {
        for (seed, activation) in [
            Activation::Identity,
            Activation::Sigmoid,
            Activation::Tanh,
            Activation::Relu,
        ]
        .into_iter()
        .enumerate()
        {
            let (net, params, x, y, weights) = problem(
                seed as u64 + 40,
                60,
                8,
                &[12, 6],
                activation,
                Output::Softmax,
            );
            let rows: Vec<usize> = (0..60).collect();
            for x in [
                Features::from(x.clone()),
                Features::from(CsrMatrix::from_dense(x.view())),
            ] {
                let batch = Batch {
                    x: &x,
                    rows: &rows,
                    y: y.view(),
                    weights: Some(&weights),
                };
                let (mut g64, mut g32) = (vec![0.0; params.len()], vec![0.0; params.len()]);
                let l64 = Gradient::new(&net, Dtype::F64).loss_grad(&params, 0.1, &batch, &mut g64);
                let l32 = Gradient::new(&net, Dtype::F32).loss_grad(&params, 0.1, &batch, &mut g32);
                assert!(
                    (l64 - l32).abs() <= 1e-5 * l64.abs(),
                    "{activation:?}: {l64} {l32}"
                );
                let norm = g64.iter().map(|v| v * v).sum::<f64>().sqrt();
                let err = g64
                    .iter()
                    .zip(&g32)
                    .map(|(a, b)| (a - b).powi(2))
                    .sum::<f64>()
                    .sqrt();
                assert!(err <= 1e-5 * norm, "{activation:?}: {err} of {norm}");
                assert_ne!(g64, g32, "the f32 passes ran in f64");
            }
        }
    }

    /// A step of [`Gradient::descend`] (the gradient completed chunk by chunk inside the
    /// step) equals the gradient of [`Network::loss_grad`] then the rule's step along it,
    /// in both precisions.
    #[test]
    fn a_fused_step_equals_the_gradient_then_the_step() {
        fn check<T: Real>(net: &Network, params: &[f64], x: &Features, y: &Array2<f64>, w: &[f64]) {
            let n = params.len();
            let mut fused = Gradient::new(net, T::DTYPE);
            let start: Vec<T> = params.iter().map(|&v| T::narrow(v)).collect();
            let (mut p_fused, mut p_plain) = (start.clone(), start.clone());
            let mut rules = [0, 1].map(|_| super::super::Adam::<T>::new(n, 0.01, 0.9, 0.999, 1e-8));
            let mut grad = vec![T::zero(); n];
            for step in 0..3 {
                let rows: Vec<usize> = (step * 10..step * 10 + 20).collect();
                let batch = Batch {
                    x,
                    rows: &rows,
                    y: y.view(),
                    weights: Some(w),
                };
                let [a, b] = &mut rules;
                let l_fused = fused.descend(&mut p_fused, 0.1, &batch, a);
                let l_plain = net.loss_grad(&p_plain, 0.1, &batch, &mut grad);
                b.step(&mut p_plain, Step::along(&mut grad));
                assert_eq!(
                    (l_fused, &p_fused),
                    (l_plain, &p_plain),
                    "{}, step {step}",
                    T::DTYPE
                );
            }
            assert_ne!(p_fused, start);
        }
        // 9,363 parameters: two chunks, the second holding the last weights and the biases
        let (net, params, x, y, weights) =
            problem(7, 40, 100, &[90], Activation::Tanh, Output::Softmax);
        assert!(net.layout.n_params() > PARAMETER_CHUNK);
        let x = Features::from(x);
        check::<f64>(&net, &params, &x, &y, &weights);
        check::<f32>(&net, &params, &x, &y, &weights);
    }

    /// Steps of Adam from `params` over `order` in batches of `size` rows of `data` (rows,
    /// targets, weights): the batches' losses and the last parameters.
    fn adam_steps<T: Real>(
        gradient: &mut Gradient,
        mut p: Vec<T>,
        (x, y, weights): (&Features, &Array2<f64>, &[f64]),
        order: &[usize],
        size: usize,
    ) -> (Vec<f64>, Vec<T>) {
        let mut rule = super::super::Adam::new(p.len(), 0.01, 0.9, 0.999, 1e-8);
        let losses = (order.chunks(size))
            .map(|rows| {
                let batch = Batch {
                    x,
                    rows,
                    y: y.view(),
                    weights: Some(weights),
                };
                gradient.descend(&mut p, 0.1, &batch, &mut rule)
            })
            .collect();
        (losses, p)
    }

    #[test]
    fn rows_gathered_from_the_f32_copy_give_the_same_steps() {
        // more rows than a block of the copy, batches reaching into the second block
        let n = F32_BLOCK_ROWS + 300;
        let (net, params, x, y, weights) =
            problem(9, n, 5, &[7], Activation::Relu, Output::Softmax);
        let x = Features::from(x);
        let other = Features::from(Array2::<f64>::zeros((n, 5)));
        let order: Vec<usize> = (0..n).rev().step_by(7).collect();
        let mut results = Vec::new();
        for copy in [None, Some(&x), Some(&other)] {
            let mut gradient = Gradient::new(&net, Dtype::F32);
            if let Some(copied) = copy {
                gradient.keep_rows_in_f32(copied);
            }
            assert_eq!(gradient.rows32.is_some(), copy.is_some());
            let p: Vec<f32> = params.iter().map(|&v| v as f32).collect();
            results.push(adam_steps(&mut gradient, p, (&x, &y, &weights), &order, 50));
        }
        // the copy of `x` is used and equal; a copy of another matrix is not used
        assert_eq!(results[0], results[1]);
        assert_eq!(results[0], results[2]);
    }

    /// Rows of `f32` storage take the path of the same values in `f64` storage, in either
    /// precision, in a shuffled or in the rows' own order, with the rows ordered by their
    /// zeros or not: the same steps, bit for bit, and no copy of the `f32` rows is kept.
    #[test]
    fn f32_rows_give_the_steps_of_the_same_values_in_f64() {
        use ndarray::ShapeBuilder;
        let n = F32_BLOCK_ROWS + 300;
        let (net, params, x, y, weights) =
            problem(5, n, 6, &[7], Activation::Relu, Output::Softmax);
        let x32 = x.mapv(|v| v as f32);
        let mut fortran = Array2::zeros(x32.dim().f());
        fortran.assign(&x32);
        let shuffled: Vec<usize> = (0..n).rev().step_by(7).collect();
        let in_order: Vec<usize> = (0..n).collect();
        for x32 in [x32.view(), fortran.view()] {
            // the same values in f64, in the same layout
            let wide = x32.mapv(f64::from);
            assert_eq!(wide.strides(), x32.strides());
            let (x32, wide) = (Features::DenseF32(x32.into()), Features::from(wide));
            for (order, size) in [(&shuffled, 50), (&in_order, 200)] {
                for dtype in [Dtype::F32, Dtype::F64] {
                    let run = |x: &Features| {
                        let mut gradient = Gradient::new(&net, dtype);
                        gradient.keep_rows_in_f32(x);
                        gradient.order_rows_by_zeros(x);
                        let copied = gradient.rows32.is_some();
                        let data = (x, &y, &weights[..]);
                        let steps = match dtype {
                            Dtype::F32 => {
                                let p = params.iter().map(|&v| v as f32).collect();
                                let (l, p) = adam_steps(&mut gradient, p, data, order, size);
                                (l, p.into_iter().map(f64::from).collect())
                            }
                            Dtype::F64 => {
                                adam_steps(&mut gradient, params.clone(), data, order, size)
                            }
                        };
                        (steps, copied)
                    };
                    let ((from_f32, copied), (from_f64, _)) = (run(&x32), run(&wide));
                    assert!(!copied, "the f32 rows were copied");
                    assert_eq!(from_f32, from_f64, "{dtype:?}, batches of {size}");
                    let mut loss = vec![0.0; params.len()];
                    let batch = |x| Batch {
                        x,
                        rows: order,
                        y: y.view(),
                        weights: Some(&weights),
                    };
                    let mut g = Gradient::new(&net, dtype);
                    let a = g.loss_grad(&params, 0.1, &batch(&x32), &mut loss);
                    let mut wide_loss = vec![0.0; params.len()];
                    let b = g.loss_grad(&params, 0.1, &batch(&wide), &mut wide_loss);
                    assert_eq!((a, loss), (b, wide_loss), "{dtype:?} loss_grad");
                    assert_eq!(
                        net.predict_rows(&params, &x32, order),
                        net.predict_rows(&params, &wide, order)
                    );
                }
            }
        }
    }

    #[test]
    fn a_row_key_is_where_its_nonzero_values_start_and_end() {
        let key = |v: &[f64]| zero_span(ndarray::aview1(v));
        assert_eq!(key(&[0.0, 1.0, 0.0, -2.0, 0.0]), 1 << 32 | 3);
        assert_eq!(key(&[5.0]), 0);
        assert_eq!(key(&[0.0, -0.0]), u64::MAX);
        assert!(key(&[0.0, 1.0, 0.0]) < key(&[0.0, 0.0, 1.0]));
        assert_eq!(span_of_key(key(&[0.0, 1.0, 0.0, -2.0, 0.0])), Some((1, 3)));
        assert_eq!(span_of_key(key(&[0.0, -0.0])), None);
    }

    /// Tiles dealt to the groups: whole tiles of the sorted rows, each row once, the short
    /// tile last, and the groups' costs within one tile's of each other where a cut of the
    /// sorted rows puts the costly rows in the first group.
    #[test]
    fn tiles_are_dealt_to_the_groups_by_their_cost() {
        for n in [200, 203, 700, 40] {
            // row i of the sorted batch: values from feature 0 to feature i
            let sorted: Vec<usize> = (0..n).rev().collect();
            let key = |i: usize| (n - 1 - i) as u64;
            let dealt = balanced(&sorted, key);
            let mut rows = dealt.clone();
            rows.sort_unstable();
            assert_eq!(rows, (0..n).collect::<Vec<_>>(), "n = {n}");
            let tile_of = |i: usize| sorted.iter().position(|&r| r == i).unwrap() / TILE_ROWS;
            for tile in dealt.chunks(TILE_ROWS) {
                assert!(
                    tile.iter().all(|&i| tile_of(i) == tile_of(tile[0])),
                    "n = {n}"
                );
            }
            let full = n / TILE_ROWS * TILE_ROWS;
            assert_eq!(dealt[full..], sorted[full..], "n = {n}");
            let cost = |rows: &[usize]| -> u64 {
                rows.chunks(TILE_ROWS)
                    .map(|t| {
                        let spans: Vec<u64> = t.iter().map(|&i| key(i) + 1).collect();
                        spans.iter().sum::<u64>() + 8 * spans.iter().max().unwrap()
                    })
                    .sum()
            };
            let size = group_rows(n);
            let costs: Vec<u64> = dealt[..full].chunks(size).map(cost).collect();
            let cut: Vec<u64> = sorted[..full].chunks(size).map(cost).collect();
            let spread = |c: &[u64]| c.iter().max().unwrap() - c.iter().min().unwrap();
            let most = cost(&sorted[full - TILE_ROWS..full]);
            if costs.len() > 1 {
                assert!(spread(&costs) <= most, "n = {n}: {costs:?}");
                assert!(
                    spread(&costs) < spread(&cut) / 4,
                    "n = {n}: {costs:?} {cut:?}"
                );
            } else {
                assert_eq!(dealt, sorted);
            }
        }
    }

    /// Batches passed in the order of their rows' zero spans: the steps are those of the
    /// batch's own order within rounding, the same bits on 1 and 2 threads, and another
    /// matrix's keys are not used.
    #[test]
    fn rows_ordered_by_their_zeros_give_the_same_steps_within_rounding() {
        use crate::threads::Threads;
        let n = 600;
        let (net, params, x, y, weights) =
            problem(13, n, 30, &[20], Activation::Relu, Output::Softmax);
        // rows whose nonzero values start at a column that cycles with the row
        let x = Array2::from_shape_fn(x.dim(), |(i, j)| if j < i % 17 { 0.0 } else { x[[i, j]] });
        let x = Features::from(x);
        let other = Features::from(Array2::<f64>::ones((n, 30)));
        let order: Vec<usize> = (0..n).rev().collect();
        let run = |spans: Option<&Features>, threads: usize| {
            let mut gradient = Gradient::new(&net, Dtype::F64);
            if let Some(m) = spans {
                gradient.order_rows_by_zeros(m);
            }
            let data = (&x, &y, &weights[..]);
            Threads::Count(threads)
                .run(|| adam_steps(&mut gradient, params.clone(), data, &order, 200))
                .unwrap()
        };
        let plain = run(None, 1);
        let ordered = run(Some(&x), 1);
        assert_eq!(ordered, run(Some(&x), 2));
        assert_eq!(plain, run(Some(&other), 1));
        assert_ne!(plain, ordered, "the rows were not reordered");
        for (a, b) in (plain.0.iter().chain(&plain.1)).zip(ordered.0.iter().chain(&ordered.1)) {
            assert!((a - b).abs() <= 1e-12 * a.abs().max(1.0), "{a} vs {b}");
        }
    }

    /// Integer weights are repeated rows; dense and sparse rows give the same loss.
    #[test]
    fn integer_weights_equal_repeated_rows() {
        let (net, params, x, y, _) = problem(9, 4, 3, &[3], Activation::Tanh, Output::Softmax);
        let weights = [2.0, 1.0, 0.0, 3.0];
        let rows = [0, 1, 2, 3];
        let batch = Batch {
            x: &Features::from(x.clone()),
            rows: &rows,
            y: y.view(),
            weights: Some(&weights),
        };
        let mut g = vec![0.0f64; params.len()];
        let weighted = net.loss_grad(&params, 0.1, &batch, &mut g);
        let repeated = [0, 0, 1, 3, 3, 3];
        let batch = Batch {
            x: &Features::from(CsrMatrix::from_dense(x.view())),
            rows: &repeated,
            y: y.view(),
            weights: None,
        };
        let mut h = vec![0.0; params.len()];
        let plain = net.loss_grad(&params, 0.1, &batch, &mut h);
        assert!((weighted - plain).abs() < 1e-14);
        for (a, b) in g.iter().zip(&h) {
            assert!((a - b).abs() < 1e-14);
        }
    }
}
