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

use std::sync::{Mutex, MutexGuard, PoisonError};

use ndarray::{Array2, ArrayView1, ArrayView2, ArrayViewMut2, Axis};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::activation::{Activation, Output};
use super::layers::{gather, mat_mul, product, row_blocks, InputRows, Layout};
use super::precision::{Dtype, Real};
use super::stochastic::{with_avx, Step, StepRule};
use super::PARAMETER_CHUNK;
use crate::data::Features;

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

/// A pass over a batch's rows: its input rows, every layer's activations and, with
/// targets, its deltas and each row's weighted loss.
struct Pass<'b, 'x, T> {
    /// The batch's rows as the first layer reads them.
    input: InputRows<'b, 'x, T>,
    /// `a_1, ..., a_L`, one row per batch row.
    activations: Vec<Array2<T>>,
    /// `delta_1, ..., delta_L` (none without targets).
    deltas: Vec<Array2<T>>,
    /// `w_i l_i` of each row (0 without targets, or for weight 0).
    losses: Vec<f64>,
}

impl Network {
    /// The forward pass of `rows` of `x` in the precision `T`, and with targets the
    /// backward pass of its deltas: each row's activations and deltas depend on that row
    /// alone, so blocks of rows ([`row_blocks`]) run in parallel, each through the whole
    /// network after gathering its input rows when they are not a view of `x` ([`gather`]),
    /// and give the same bits for any block count.
    fn pass<'b, 'x, T: Real>(
        &self,
        params: &[T],
        x: &'b Features<'x>,
        x32: Option<&RowsInF32>,
        rows: &'b [usize],
        targets: Option<Targets>,
    ) -> Pass<'b, 'x, T> {
        let n = rows.len();
        let zeros = || -> Vec<Array2<T>> {
            (1..=self.layout.n_layers())
                .map(|l| Array2::zeros((n, self.layout.sizes[l])))
                .collect()
        };
        let mut activations = zeros();
        let mut deltas = if targets.is_some() {
            zeros()
        } else {
            Vec::new()
        };
        let mut losses = vec![0.0; n];
        let borrowed = InputRows::borrowed(x, rows);
        let mut gathered = borrowed
            .is_none()
            .then(|| Array2::<T>::uninit((n, x.n_cols())));
        let size = row_blocks(n).max(1);
        let mut acts: Vec<_> = (activations.iter_mut())
            .map(|a| a.axis_chunks_iter_mut(Axis(0), size))
            .collect();
        let mut dels: Vec<_> = (deltas.iter_mut())
            .map(|a| a.axis_chunks_iter_mut(Axis(0), size))
            .collect();
        let mut inputs = (gathered.as_mut()).map(|g| g.axis_chunks_iter_mut(Axis(0), size));
        let blocks: Vec<_> = (losses.chunks_mut(size).enumerate())
            .map(|(k, losses)| {
                let acts: Vec<_> = (acts.iter_mut())
                    .map(|it| it.next().expect("a chunk of every layer per block"))
                    .collect();
                let dels: Vec<_> = (dels.iter_mut())
                    .map(|it| it.next().expect("a chunk of every layer per block"))
                    .collect();
                let input = inputs
                    .as_mut()
                    .map(|it| it.next().expect("a chunk per block"));
                (k * size, input, acts, dels, losses)
            })
            .collect();
        blocks
            .into_par_iter()
            .for_each(|(start, input, mut acts, mut deltas, losses)| {
                let range = start..start + losses.len();
                let rows = &rows[range.clone()];
                let gathered = input.map(|out| match (x32, x) {
                    (Some(x32), _) => gather(|i| x32.row(i), rows, out),
                    (None, Features::Dense(x)) => gather(|i| x.row(i), rows, out),
                    (None, _) => unreachable!("sparse rows are read in place"),
                });
                let input = match (&gathered, &borrowed) {
                    (Some(block), _) => InputRows::Dense(block.view().into()),
                    (None, Some(all)) => all.rows(range),
                    (None, None) => unreachable!("dense rows not borrowed are gathered"),
                };
                self.forward_block(params, &input, rows, &mut acts, targets, losses);
                if let Some(targets) = targets {
                    self.backward_block(params, &acts, &mut deltas, rows, targets);
                }
            });
        let input = match gathered {
            // SAFETY: every block gathered its rows, and the blocks cover the batch.
            Some(g) => InputRows::Dense(unsafe { g.assume_init() }.into()),
            None => borrowed.expect("the rows in place when not gathered"),
        };
        Pass {
            input,
            activations,
            deltas,
            losses,
        }
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

    /// The outputs `a_L` of `rows` of `x`, in that order, computed `PREDICT_CHUNK` rows
    /// at a time so that the hidden activations take memory of the chunk, not of `x`.
    pub fn predict_rows(&self, params: &[f64], x: &Features, rows: &[usize]) -> Array2<f64> {
        let mut out = Array2::zeros((rows.len(), self.layout.n_outputs()));
        for (k, chunk) in rows.chunks(PREDICT_CHUNK).enumerate() {
            let mut pass = self.pass(params, x, None, chunk, None);
            let start = k * PREDICT_CHUNK;
            out.slice_mut(ndarray::s![start..start + chunk.len(), ..])
                .assign(&pass.activations.pop().expect("at least one layer"));
        }
        out
    }

    /// `J` of the batch (module doc), with `dJ/dparams` written to `grad`, the passes in
    /// the precision `T` of the parameters (the loss and penalty summed in `f64`).
    pub fn loss_grad<T: Real>(
        &self,
        params: &[T],
        alpha: f64,
        batch: &Batch,
        grad: &mut [T],
    ) -> f64 {
        let (data_loss, scale) = self.data_loss_grad(params, batch, None, grad);
        let n_weights = self.layout.n_weights();
        let (alpha_t, scale_t) = (T::narrow(alpha), T::narrow(scale));
        let norms: Vec<f64> = (grad.par_chunks_mut(PARAMETER_CHUNK).enumerate())
            .zip(params.par_chunks(PARAMETER_CHUNK))
            .map(|((k, g), w)| penalize(n_weights, k * PARAMETER_CHUNK, w, g, alpha_t, scale_t))
            .collect();
        (data_loss + 0.5 * alpha * norms.iter().sum::<f64>()) * scale
    }

    /// The data's part of the batch's loss and gradient: returns `sum_i w_i l_i` and
    /// `scale = 1 / sum_i w_i` (0 for no weight), with `grad` holding `a_{l-1}^T delta_l`
    /// for the weights (unscaled, unpenalised: [`penalize`] completes them) and the
    /// biases' gradient in full. `x32`, when given, is the batch's matrix in `f32`, the
    /// source of the rows the passes gather.
    fn data_loss_grad<T: Real>(
        &self,
        params: &[T],
        batch: &Batch,
        x32: Option<&RowsInF32>,
        grad: &mut [T],
    ) -> (f64, f64) {
        let rows = batch.rows;
        let weight = |i: usize| batch.weights.map_or(1.0, |w| w[i]);
        let total: f64 = rows.iter().map(|&i| weight(i)).sum();
        let pass = self.pass(params, batch.x, x32, rows, Some((batch.y, batch.weights)));
        let data_loss: f64 = pass.losses.iter().sum();
        let scale = if total > 0.0 { 1.0 / total } else { 0.0 };
        let scale_t = T::narrow(scale);
        for l in (1..=self.layout.n_layers()).rev() {
            let (mut gw, gb) = self.layout.layer_mut(grad, l);
            let delta = pass.deltas[l - 1].view();
            if l == 1 {
                pass.input.transpose_times(delta, gw.view_mut());
            } else {
                let a = pass.activations[l - 2].t();
                product(a, delta, false, gw.view_mut());
            }
            for (g, s) in gb.iter_mut().zip(delta.sum_axis(Axis(0))) {
                *g = s * scale_t;
            }
        }
        (data_loss, scale)
    }
}

/// A network's loss and gradient at the precision `dtype` (see [`Dtype`]): `f64` directly,
/// `f32` through single-precision copies of the parameters and the gradient, kept from one
/// call to the next.
pub struct Gradient<'n> {
    /// The network.
    pub net: &'n Network,
    dtype: Dtype,
    params: Vec<f32>,
    grad: Vec<f32>,
    /// The gradient in `f64` for a step of [`Gradient::descend`].
    wide: Vec<f64>,
    /// Whether `params` is the last step's parameters in `f32`.
    synced: bool,
    /// A dense matrix in `f32` (see [`Gradient::keep_rows_in_f32`]).
    rows32: Option<RowsInF32>,
}

impl<'n> Gradient<'n> {
    /// The gradient of `net` at the precision `dtype`.
    pub fn new(net: &'n Network, dtype: Dtype) -> Self {
        Gradient {
            net,
            dtype,
            params: Vec::new(),
            grad: Vec::new(),
            wide: Vec::new(),
            synced: false,
            rows32: None,
        }
    }

    /// With `dtype=f32` and dense `x`, keeps a copy of `x` in `f32` from which
    /// [`Gradient::descend`] gathers the rows of batches of `x`: half the bytes a batch reads
    /// from memory, and no conversion, for half the size of `x` held while training. Worth
    /// it over epochs (the copy costs about one epoch's gathering); nothing otherwise.
    pub(crate) fn keep_rows_in_f32(&mut self, x: &Features) {
        if let (Dtype::F32, Features::Dense(a)) = (self.dtype, x) {
            let blocks = (a.axis_chunks_iter(Axis(0), F32_BLOCK_ROWS))
                .map(|block| block.mapv(|v| v as f32))
                .collect();
            self.rows32 = Some(RowsInF32 {
                blocks,
                of: a.as_ptr() as usize,
                shape: (a.dim(), [a.strides()[0], a.strides()[1]]),
            });
        }
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
                self.narrow(params);
                let loss = self
                    .net
                    .loss_grad(&self.params, alpha, batch, &mut self.grad);
                convert(&self.grad, grad, f64::from);
                loss
            }
        }
    }

    /// One step of `rule` along the batch's gradient at `params`; returns the batch's `J`
    /// before the step. The penalty, the gradient's conversion to `f64`, the rule's update
    /// and the `f32` copy of the new parameters run in one parallel pass over the
    /// parameters ([`Step`]). The `f32` copy is kept for the next call: call
    /// [`Gradient::params_changed`] when `params` changes between calls by other means.
    pub fn descend(
        &mut self,
        params: &mut [f64],
        alpha: f64,
        batch: &Batch,
        rule: &mut dyn StepRule,
    ) -> f64 {
        let n_weights = self.net.layout.n_weights();
        self.wide.resize(params.len(), 0.0);
        let (data_loss, scale, norm) = match self.dtype {
            Dtype::F64 => {
                let (loss, scale) = self.net.data_loss_grad(params, batch, None, &mut self.wide);
                let fill = |start: usize, w: &[f64], g: &mut [f64]| {
                    with_avx(|| penalize(n_weights, start, w, g, alpha, scale))
                };
                let step = Step {
                    grad: &mut self.wide,
                    fill: &fill,
                    after: &|_, _| {},
                };
                (loss, scale, rule.step(params, step))
            }
            Dtype::F32 => {
                if !self.synced {
                    self.narrow(params);
                }
                let x32 = self.rows32.as_ref().and_then(|r| r.copy_of(batch.x));
                let (loss, scale) =
                    (self.net).data_loss_grad(&self.params, batch, x32, &mut self.grad);
                let (alpha_t, scale_t) = (alpha as f32, scale as f32);
                let (grad32, params32) = (chunks(&mut self.grad), chunks(&mut self.params));
                let fill = |start: usize, w: &[f64], g: &mut [f64]| {
                    let mut g32 = lock(&grad32, start);
                    with_avx(
                        #[inline(always)]
                        || {
                            let norm = penalize(n_weights, start, w, &mut g32, alpha_t, scale_t);
                            g.iter_mut()
                                .zip(g32.iter())
                                .for_each(|(g, &v)| *g = f64::from(v));
                            norm
                        },
                    )
                };
                let after = |start: usize, p: &[f64]| {
                    let mut p32 = lock(&params32, start);
                    with_avx(|| p32.iter_mut().zip(p).for_each(|(to, &v)| *to = v as f32));
                };
                let step = Step {
                    grad: &mut self.wide,
                    fill: &fill,
                    after: &after,
                };
                let norm = rule.step(params, step);
                self.synced = true;
                (loss, scale, norm)
            }
        };
        (data_loss + 0.5 * alpha * norm) * scale
    }

    /// The parameters changed since the last [`Gradient::descend`] other than by its step:
    /// the next one copies them to `f32` again.
    pub fn params_changed(&mut self) {
        self.synced = false;
    }

    /// `params` in `f32` (see [`Dtype`]); `grad` of the same length.
    fn narrow(&mut self, params: &[f64]) {
        self.params.resize(params.len(), 0.0);
        self.grad.resize(params.len(), 0.0);
        convert(params, &mut self.params, |v| v as f32);
        self.synced = false;
    }
}

/// Rows of a block of [`RowsInF32`]: blocks under glibc's threshold for a mapping of
/// their own (32 MiB with [`keep_freed_memory`](crate::memory::keep_freed_memory)) come
/// from the heap, where the memory the reading of the data freed is kept.
const F32_BLOCK_ROWS: usize = 4096;

/// A copy in `f32` of a dense matrix, in blocks of [`F32_BLOCK_ROWS`] rows, with the address,
/// shape and strides of the matrix copied.
pub(crate) struct RowsInF32 {
    blocks: Vec<Array2<f32>>,
    of: usize,
    shape: ((usize, usize), [isize; 2]),
}

impl RowsInF32 {
    /// The copy, when it is a copy of `x`.
    fn copy_of(&self, x: &Features) -> Option<&Self> {
        match x {
            Features::Dense(a)
                if a.as_ptr() as usize == self.of
                    && self.shape == (a.dim(), [a.strides()[0], a.strides()[1]]) =>
            {
                Some(self)
            }
            _ => None,
        }
    }

    /// Row `i`.
    fn row(&self, i: usize) -> ArrayView1<'_, f32> {
        self.blocks[i / F32_BLOCK_ROWS].row(i % F32_BLOCK_ROWS)
    }
}

/// `v` in chunks of [`PARAMETER_CHUNK`] values, each behind a lock (see [`lock`]).
fn chunks(v: &mut [f32]) -> Vec<Mutex<&mut [f32]>> {
    v.chunks_mut(PARAMETER_CHUNK).map(Mutex::new).collect()
}

/// The chunk of `chunks` (of [`PARAMETER_CHUNK`] values) that starts at value `start`,
/// locked: each is locked by the one task that handles that chunk of a step.
fn lock<'m, 'v>(chunks: &'m [Mutex<&'v mut [f32]>], start: usize) -> MutexGuard<'m, &'v mut [f32]> {
    chunks[start / PARAMETER_CHUNK]
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// `to_i = f(from_i)`, in parallel over fixed chunks.
fn convert<A: Copy + Sync, B: Send>(from: &[A], to: &mut [B], f: impl Fn(A) -> B + Sync) {
    to.par_chunks_mut(PARAMETER_CHUNK)
        .zip(from.par_chunks(PARAMETER_CHUNK))
        .for_each(|(to, from)| to.iter_mut().zip(from).for_each(|(t, &v)| *t = f(v)));
}

/// `g <- (alpha w + g) scale` for the weights among the parameters from `start` (the first
/// `n_weights` of the flat vector; the biases' gradient is complete already), with `w` in
/// the precision `T` of `g`; returns `sum w^2` of those weights in `f64`, summed in eight
/// lanes (a chain of dependent additions would take a cycle latency per weight). Inlined,
/// so that it runs in the registers of its caller's [`with_avx`].
#[inline(always)]
fn penalize<W: Real, T: Real>(
    n_weights: usize,
    start: usize,
    w: &[W],
    g: &mut [T],
    alpha: T,
    scale: T,
) -> f64 {
    let len = n_weights.saturating_sub(start).min(g.len());
    let (w, g) = (&w[..len], &mut g[..len]);
    let narrow = |w: W| T::narrow(w.wide());
    g.iter_mut()
        .zip(w)
        .for_each(|(g, &w)| *g = (alpha * narrow(w) + *g) * scale);
    let square = |w: W| narrow(w).wide() * narrow(w).wide();
    let lanes = w.chunks_exact(8);
    let tail: f64 = lanes.remainder().iter().map(|&v| square(v)).sum();
    let mut acc = [0.0f64; 8];
    for v in lanes {
        for l in 0..8 {
            acc[l] += square(v[l]);
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
                    let rows: Vec<usize> = vec![0, 2, 3, 5, 6, 1];
                    let sparse = Features::from(CsrMatrix::from_dense(x.view()));
                    let dense = Features::from(x.clone());
                    for x in [&dense, &sparse] {
                        let batch = Batch {
                            x,
                            rows: &rows,
                            y: y.view(),
                            weights: Some(&weights),
                        };
                        let alpha = 0.3;
                        let mut grad = vec![0.0; params.len()];
                        net.loss_grad(&params, alpha, &batch, &mut grad);
                        let mut scratch = vec![0.0; params.len()];
                        for p in 0..params.len() {
                            let h = 1e-5;
                            let mut at = params.clone();
                            at[p] += h;
                            let up = net.loss_grad(&at, alpha, &batch, &mut scratch);
                            at[p] -= 2.0 * h;
                            let down = net.loss_grad(&at, alpha, &batch, &mut scratch);
                            let numeric = (up - down) / (2.0 * h);
                            let err = (grad[p] - numeric).abs() / numeric.abs().max(1.0);
                            assert!(
                                err < 1e-7,
                                "{activation:?} {output:?} {hidden:?} sparse={} param {p}: {} vs {numeric}",
                                x.is_sparse(),
                                grad[p]
                            );
                        }
                    }
                }
            }
        }
    }

    /// Products big enough to be split in blocks of rows (one per thread), on 1, 2 and 3
    /// threads, in both precisions, with a row count that leaves a part tile: the same
    /// bits.
    #[test]
    fn split_products_are_the_same_bits_on_any_thread_count() {
        use crate::threads::Threads;
        let (n, d) = (1001, 70);
        let (net, params, x, y, _) = problem(5, n, d, &[40], Activation::Tanh, Output::Softmax);
        assert!(n * d * 40 >= super::super::layers::PARALLEL_WORK);
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
            let mut grad = vec![0.0; params.len()];
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

    /// Integer weights are repeated rows; dense and sparse rows give the same loss.
    #[test]
    fn a_fused_step_equals_the_gradient_then_the_step() {
        // 9,363 parameters: two chunks, the second holding the last weights and the biases
        let (net, params, x, y, weights) =
            problem(7, 40, 100, &[90], Activation::Tanh, Output::Softmax);
        assert!(net.layout.n_params() > PARAMETER_CHUNK);
        let x = Features::from(x);
        let n = params.len();
        for dtype in [Dtype::F64, Dtype::F32] {
            let (mut fused, mut plain) = (Gradient::new(&net, dtype), Gradient::new(&net, dtype));
            let (mut p_fused, mut p_plain) = (params.clone(), params.clone());
            let mut rules = [0, 1].map(|_| super::super::Adam::new(n, 0.01, 0.9, 0.999, 1e-8));
            let mut grad = vec![0.0; n];
            for step in 0..3 {
                let rows: Vec<usize> = (step * 10..step * 10 + 20).collect();
                let batch = Batch {
                    x: &x,
                    rows: &rows,
                    y: y.view(),
                    weights: Some(&weights),
                };
                let [a, b] = &mut rules;
                let l_fused = fused.descend(&mut p_fused, 0.1, &batch, a);
                let l_plain = plain.loss_grad(&p_plain, 0.1, &batch, &mut grad);
                b.step(&mut p_plain, Step::along(&mut grad));
                // the f32 copy kept between steps is the new parameters' copy
                assert_eq!(
                    (l_fused, &p_fused),
                    (l_plain, &p_plain),
                    "{dtype:?}, step {step}"
                );
            }
            assert_ne!(p_fused, params);
        }
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
            let mut p = params.clone();
            let mut rule = super::super::Adam::new(p.len(), 0.01, 0.9, 0.999, 1e-8);
            let losses: Vec<f64> = order
                .chunks(50)
                .map(|rows| {
                    let batch = Batch {
                        x: &x,
                        rows,
                        y: y.view(),
                        weights: Some(&weights),
                    };
                    gradient.descend(&mut p, 0.1, &batch, &mut rule)
                })
                .collect();
            results.push((losses, p));
        }
        // the copy of `x` is used and equal; a copy of another matrix is not used
        assert_eq!(results[0], results[1]);
        assert_eq!(results[0], results[2]);
    }

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
        let mut g = vec![0.0; params.len()];
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
