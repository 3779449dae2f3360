//! The objective contract: `f(w) = r(w) + sum_n loss_n(z_n(w))`, with the regulariser `r`
//! the objective's [`Penalty`] (for the linear models `1/2 sum_{j < p} w_j^2`, the weights
//! penalised and the intercepts free).
//!
//! Every data term here is a linear model's: row `n` enters only through its scores
//! `z_n(w)` (one per row for a binary model, one per class for softmax), which are linear
//! in `w`. A learner states its data term row by row: [`Objective::scores`],
//! [`Objective::losses`] given the scores (with each row's loss derivatives in its
//! scores), [`Objective::add_score_gradient`] (the gradient from those derivatives,
//! `X^T dz` for a binary model), and [`Objective::hess_vec`] for Newton;
//! [`Objective::line_loss`] along a line and [`Objective::loss_grad`] (a batch of rows at
//! `w`) follow from them. [`Objective::penalty`] declares `r`, which the [`Evaluator`]
//! adds after the data term: its value and gradient, its Hessian products and diagonal,
//! and its closed form along a line.
//! [`Evaluator`] sums the batches over fixed row chunks in parallel with rayon and adds the
//! chunk results in chunk order, so the result does not depend on the number of threads.
//!
//! Linearity is what makes a line search cheap: with `z = z(w)` and `q = z(d)` known,
//! `f(w + a d)` and its slope need `O(N)` work for any `a` and no pass over the data
//! ([`Evaluator::line_start`], [`Evaluator::line`], [`Evaluator::line_accept`]; the
//! penalty's part is `O(1)`, from three products taken at the start, [`Penalty::line`]);
//! accepting the step tried last reuses that trial's loss derivatives, so the gradient
//! there costs a scatter pass and no second evaluation of the losses (exp and log per row).

use std::ops::Range;

use rayon::prelude::*;

use super::penalty::{Penalty, PenaltyLine};
use super::{axpy, dot};
use crate::linalg::Matrix;

/// A data term that can be evaluated on any batch of rows.
pub trait Objective: Sync {
    /// Number of parameters.
    fn dim(&self) -> usize;
    /// Number of rows of the data term.
    fn n_rows(&self) -> usize;
    /// The regulariser `r(w)` of `f`; the [`Evaluator`] asks for it once.
    fn penalty(&self) -> Penalty;
    /// Values kept per row for Hessian products (0: no Hessian).
    fn curvature_width(&self) -> usize;
    /// Scores per row.
    fn score_width(&self) -> usize;
    /// Writes the scores `z_n(w)` of `rows` into `z` (`score_width()` values per row);
    /// `z_n` is linear in `w`.
    fn scores(&self, w: &[f64], rows: Range<usize>, z: &mut [f64]);
    /// `sum_{n in rows} loss_n` at the scores held in `dz` (of these rows, `score_width()`
    /// per row), which it overwrites with each row's derivatives `d loss_n / d z_n`; when
    /// `curvature` is given, writes `curvature_width()` values per row into it.
    fn losses(&self, dz: &mut [f64], rows: Range<usize>, curvature: Option<&mut [f64]>) -> f64;
    /// Adds `sum_{n in rows} (d z_n / d w)^T dz_n` to `grad`: the data term's gradient from
    /// the derivatives `dz` of the losses in the scores (of these rows).
    fn add_score_gradient(&self, dz: &[f64], rows: Range<usize>, grad: &mut [f64]);
    /// `(sum_{n in rows} loss_n(z_n + a q_n), its derivative in a)`: the data term along
    /// the line `w + a d` with `z = z(w)`, `q = z(d)` (of these rows). Leaves each row's
    /// derivatives `d loss_n / d z_n` there in `dz`, so the gradient at an accepted step
    /// needs only [`Objective::add_score_gradient`].
    fn line_loss(
        &self,
        z: &[f64],
        q: &[f64],
        a: f64,
        rows: Range<usize>,
        dz: &mut [f64],
    ) -> (f64, f64) {
        for ((m, zk), qk) in dz.iter_mut().zip(z).zip(q) {
            *m = zk + a * qk;
        }
        let loss = self.losses(dz, rows, None);
        let width = self.score_width();
        let slope = dz
            .chunks_exact(width)
            .zip(q.chunks_exact(width))
            .map(|(g, q)| g.iter().zip(q).map(|(g, q)| g * q).sum::<f64>())
            .sum();
        (loss, slope)
    }
    /// `sum_{n in rows} loss_n(w)`; adds its gradient into `grad`, and when `curvature` is
    /// given writes `curvature_width()` values per row of `rows` into it.
    fn loss_grad(
        &self,
        w: &[f64],
        rows: Range<usize>,
        grad: &mut [f64],
        curvature: Option<&mut [f64]>,
    ) -> f64 {
        let mut dz = vec![0.0; rows.len() * self.score_width()];
        self.scores(w, rows.clone(), &mut dz);
        let loss = self.losses(&mut dz, rows.clone(), curvature);
        self.add_score_gradient(&dz, rows, grad);
        loss
    }
    /// Adds `sum_{n in rows} H_n v` to `out`, with `H_n` the Hessian of `loss_n` at the
    /// point whose `curvature` (of these rows) `loss_grad` wrote.
    fn hess_vec(&self, curvature: &[f64], v: &[f64], rows: Range<usize>, out: &mut [f64]);
    /// Adds the diagonal of `sum_{n in rows} H_n` to `out` (Newton's preconditioner).
    fn hess_diag(&self, curvature: &[f64], rows: Range<usize>, out: &mut [f64]);
    /// Whether [`Objective::add_hessian`] forms the Hessian (`newton-cholesky` needs it).
    fn forms_hessian(&self) -> bool {
        false
    }
    /// Adds `sum_{n in rows} H_n` (`dim x dim`; its upper triangle for sure) to `out`, from
    /// the `curvature` of these rows; only called when [`Objective::forms_hessian`].
    fn add_hessian(&self, _curvature: &[f64], _rows: Range<usize>, _out: &mut Matrix) {}
}

/// Rows per chunk, at least; chunks depend only on the problem's size, never on threads.
const MIN_CHUNK_ROWS: usize = 2048;
/// At most this many values (64 MiB) in the Hessians of the chunk groups summed by
/// [`Evaluator::hessian`]: 2,000 parameters leave two groups, 700 parameters 16.
const MAX_HESSIAN_SCRATCH: usize = 1 << 23;
/// At most this many chunk groups in [`Evaluator::hessian`].
const MAX_HESSIAN_GROUPS: usize = 16;
/// At most this many chunks (each keeps one gradient-sized scratch vector).
const MAX_CHUNKS: usize = 32;
/// At most this many scratch values in all (4 MiB): each pass zeroes and sums them, and a
/// wide gradient (50,000 features) needs no more than 10 chunks to keep 2 to 8 threads busy.
const MAX_SCRATCH: usize = 1 << 19;

/// Evaluates `f`, `grad f` and Hessian products of an [`Objective`] over all rows in
/// parallel, deterministically; keeps the curvature of the last point evaluated with it,
/// and of the one before unless told not to (see [`Evaluator::revert_curvature`]).
pub struct Evaluator<'a, O: Objective> {
    obj: &'a O,
    /// The objective's regulariser.
    penalty: Penalty,
    chunks: Vec<Range<usize>>,
    scratch: Vec<Vec<f64>>,
    curvature: Vec<f64>,
    previous_curvature: Vec<f64>,
    /// Whether a `keep_curvature` evaluation keeps the curvature before it.
    keep_previous: bool,
    /// The last point scored and its scores.
    point: Scored,
    /// The line `w + a d` of [`Evaluator::line_start`]: `z(w)`, `z(d)`, `w` and `d`, and
    /// the penalty along it.
    line: Line,
    /// `d loss_n / d z_n` at the scores evaluated last: a point's, or the trial step
    /// `line.trial` names.
    derivatives: Vec<f64>,
    /// Number of full evaluations of `f` so far.
    pub evaluations: usize,
}

/// A point `w` and its scores `z(w)` (`valid` once set).
#[derive(Default)]
struct Scored {
    valid: bool,
    w: Vec<f64>,
    z: Vec<f64>,
}

#[derive(Default)]
struct Line {
    z: Vec<f64>,
    q: Vec<f64>,
    w: Vec<f64>,
    d: Vec<f64>,
    penalty: PenaltyLine,
    /// The trial step whose derivatives `Evaluator::derivatives` holds, with the data term
    /// there.
    trial: Option<(f64, f64)>,
    /// Between `line_start` and `line_accept` (the line holds `z(w)` then).
    active: bool,
}

impl<'a, O: Objective> Evaluator<'a, O> {
    /// An evaluator of `obj`.
    pub fn new(obj: &'a O) -> Self {
        let n = obj.n_rows();
        let max_chunks = (MAX_SCRATCH / obj.dim().max(1)).clamp(1, MAX_CHUNKS);
        let n_chunks = n.div_ceil(MIN_CHUNK_ROWS).clamp(1, max_chunks);
        let size = n.div_ceil(n_chunks).max(1);
        let chunks: Vec<Range<usize>> = (0..n_chunks)
            .map(|c| (c * size).min(n)..((c + 1) * size).min(n))
            .collect();
        Evaluator {
            obj,
            penalty: obj.penalty(),
            scratch: chunks.iter().map(|_| vec![0.0; obj.dim()]).collect(),
            chunks,
            curvature: Vec::new(),
            previous_curvature: Vec::new(),
            keep_previous: true,
            point: Scored::default(),
            line: Line::default(),
            derivatives: Vec::new(),
            evaluations: 0,
        }
    }

    /// The objective evaluated.
    pub fn objective(&self) -> &O {
        self.obj
    }

    /// `f(w)`, with `grad f(w)` written to `grad`; with `keep_curvature` the curvature at
    /// `w` is kept for [`Evaluator::hess_vec`].
    pub fn value_grad(&mut self, w: &[f64], grad: &mut [f64], keep_curvature: bool) -> f64 {
        self.score_point(w);
        let z = std::mem::take(&mut self.point.z);
        let f = self.sum_at_scores(&z, w, grad, keep_curvature);
        self.point.z = z;
        f
    }

    /// Makes `w` the scored point: a pass over the rows for `z(w)` unless `w` is the point
    /// scored last or `w = 0` (then `z = 0`, as `z` is linear in `w`). Its scores are not
    /// kept while a line search holds them (between `line_start` and `line_accept`).
    fn score_point(&mut self, w: &[f64]) {
        let point = &mut self.point;
        if point.valid && point.w == w {
            return;
        }
        let obj = self.obj;
        let width = obj.score_width();
        point.w.clear();
        point.w.extend_from_slice(w);
        resize_zeroed(&mut point.z, obj.n_rows() * width);
        if w.iter().any(|&v| v != 0.0) {
            let zs = split_by_chunks(&mut point.z, &self.chunks, width, true);
            self.chunks
                .par_iter()
                .zip(zs.into_par_iter())
                .for_each(|(rows, z)| obj.scores(w, rows.clone(), z.expect("kept")));
        } else {
            point.z.fill(0.0);
        }
        point.valid = true;
    }

    /// Starts a line search from `w` along `d`: one pass over the rows for the scores of
    /// `d`, and one for `w` unless it is the point scored last (a line search's accepted
    /// step, or the last point evaluated). Then [`Evaluator::line`] gives `f(w + a d)` for
    /// any `a` without touching the rows, and [`Evaluator::line_accept`] moves to the
    /// chosen point.
    pub fn line_start(&mut self, w: &[f64], d: &[f64]) {
        self.score_point(w);
        let obj = self.obj;
        let width = obj.score_width();
        let line = &mut self.line;
        // the point's scores move to the line, and back when a step is accepted: one
        // buffer, no copy
        std::mem::swap(&mut line.z, &mut self.point.z);
        self.point.valid = false;
        line.w.clone_from(&self.point.w);
        line.d.clear();
        line.d.extend_from_slice(d);
        resize_zeroed(&mut line.q, obj.n_rows() * width);
        resize_zeroed(&mut self.derivatives, obj.n_rows() * width);
        line.trial = None;
        line.active = true;
        let qs = split_by_chunks(&mut line.q, &self.chunks, width, true);
        self.chunks
            .par_iter()
            .zip(qs.into_par_iter())
            .for_each(|(rows, q)| obj.scores(d, rows.clone(), q.expect("kept")));
        line.penalty = self.penalty.line(w, d);
    }

    /// `(f(w + a d), d.grad f(w + a d))` on the line of [`Evaluator::line_start`]:
    /// `O(N)` work, no pass over the rows. The losses' derivatives in the scores are kept,
    /// so accepting this step costs one scatter pass and no loss evaluation.
    pub fn line(&mut self, a: f64) -> (f64, f64) {
        assert!(self.line.active, "Evaluator::line outside a line search");
        let obj = self.obj;
        let width = obj.score_width();
        let line = &mut self.line;
        let dzs = split_by_chunks(&mut self.derivatives, &self.chunks, width, true);
        let (z, q) = (&line.z, &line.q);
        let parts: Vec<(f64, f64)> = self
            .chunks
            .par_iter()
            .zip(dzs.into_par_iter())
            .map(|(rows, dz)| {
                let span = rows.start * width..rows.end * width;
                obj.line_loss(
                    &z[span.clone()],
                    &q[span],
                    a,
                    rows.clone(),
                    dz.expect("kept"),
                )
            })
            .collect();
        let (data, mut slope) = parts
            .iter()
            .fold((0.0, 0.0), |(f, s), (pf, ps)| (f + pf, s + ps));
        line.trial = Some((a, data));
        let (penalty, penalty_slope) = line.penalty.at(a);
        slope += penalty_slope;
        (data + penalty, slope)
    }

    /// Moves to `w + a d` on the line of [`Evaluator::line_start`], ending the line search:
    /// writes the point to `w_out` and returns `f` there with its gradient in `grad`, from
    /// the scores `z(w) + a z(d)` (one pass over the rows, for the gradient).
    pub fn line_accept(&mut self, a: f64, w_out: &mut [f64], grad: &mut [f64]) -> f64 {
        assert!(
            self.line.active,
            "Evaluator::line_accept outside a line search"
        );
        self.line.active = false;
        let line = &self.line;
        w_out.copy_from_slice(&line.w);
        axpy(w_out, a, &line.d);
        let point = &mut self.point;
        point.w.clear();
        point.w.extend_from_slice(w_out);
        std::mem::swap(&mut point.z, &mut self.line.z);
        axpy(&mut point.z, a, &self.line.q);
        point.valid = true;
        match self.line.trial {
            Some((trial, data)) if trial == a => {
                self.evaluations += 1;
                let obj = self.obj;
                let (dz, width) = (&self.derivatives, obj.score_width());
                sum_over_rows(
                    &self.chunks,
                    &mut self.scratch,
                    dz,
                    width,
                    grad,
                    |dz, rows, g| obj.add_score_gradient(dz, rows, g),
                );
                self.penalty.add_value_grad(data, w_out, grad)
            }
            _ => {
                let z = std::mem::take(&mut point.z);
                let f = self.sum_at_scores(&z, w_out, grad, false);
                self.point.z = z;
                f
            }
        }
    }

    /// `f` at `w` whose scores are `z`, with its gradient written to `grad`: one pass over
    /// the rows, chunks in parallel, summed in chunk order; with `keep_curvature` the
    /// curvature at `w` is kept for [`Evaluator::hess_vec`].
    fn sum_at_scores(
        &mut self,
        z: &[f64],
        w: &[f64],
        grad: &mut [f64],
        keep_curvature: bool,
    ) -> f64 {
        self.evaluations += 1;
        let obj = self.obj;
        let score_width = obj.score_width();
        let width = obj.curvature_width();
        if keep_curvature {
            if self.keep_previous {
                std::mem::swap(&mut self.curvature, &mut self.previous_curvature);
            }
            resize_zeroed(&mut self.curvature, obj.n_rows() * width);
        }
        let curv_parts = split_by_chunks(&mut self.curvature, &self.chunks, width, keep_curvature);
        self.line.trial = None;
        resize_zeroed(&mut self.derivatives, obj.n_rows() * score_width);
        let dz_parts = split_by_chunks(&mut self.derivatives, &self.chunks, score_width, true);
        let losses: Vec<f64> = self
            .chunks
            .par_iter()
            .zip(self.scratch.par_iter_mut())
            .zip(dz_parts.into_par_iter().zip(curv_parts.into_par_iter()))
            .map(|((rows, g), (dz, curv))| {
                g.iter_mut().for_each(|v| *v = 0.0);
                let dz = dz.expect("kept");
                dz.copy_from_slice(&z[rows.start * score_width..rows.end * score_width]);
                let loss = obj.losses(dz, rows.clone(), curv);
                obj.add_score_gradient(dz, rows.clone(), g);
                loss
            })
            .collect();
        sum_in_order(&self.scratch, grad);
        self.penalty.add_value_grad(losses.iter().sum(), w, grad)
    }

    /// Makes the curvature kept before the last `keep_curvature` evaluation current again
    /// (a rejected trial point), without evaluating anything.
    pub fn revert_curvature(&mut self) {
        assert!(self.keep_previous, "the curvature before was not kept");
        std::mem::swap(&mut self.curvature, &mut self.previous_curvature);
    }

    /// `H v` at the point last evaluated with `keep_curvature`, written to `out`.
    pub fn hess_vec(&mut self, v: &[f64], out: &mut [f64]) {
        let obj = self.obj;
        self.sum_over_curvature(out, |c, rows, h| obj.hess_vec(c, v, rows, h));
        self.penalty.add_hess_vec(v, out);
    }

    /// The diagonal of `H` at the point last evaluated with `keep_curvature`, written to `out`.
    pub fn hess_diag(&mut self, out: &mut [f64]) {
        let obj = self.obj;
        self.sum_over_curvature(out, |c, rows, h| obj.hess_diag(c, rows, h));
        self.penalty.add_hess_diag(out);
    }

    /// The Hessian `H` at the point last evaluated with `keep_curvature`, written to `out`
    /// (`dim x dim`, upper triangle; the lower one is left unspecified): the data term's
    /// `sum_n H_n` over groups of consecutive chunks in parallel, one `dim x dim` sum per
    /// group (at most `MAX_HESSIAN_SCRATCH` values in all), added in group order, so the
    /// result does not depend on the threads; then the penalty's diagonal. Only for an
    /// objective that [`Objective::forms_hessian`].
    pub fn hessian(&mut self, out: &mut Matrix) {
        let obj = self.obj;
        let (dim, width) = (obj.dim(), obj.curvature_width());
        let per_group = (MAX_HESSIAN_SCRATCH / (dim * dim).max(1)).clamp(1, MAX_HESSIAN_GROUPS);
        let groups: Vec<Range<usize>> = self
            .chunks
            .chunks(self.chunks.len().div_ceil(per_group))
            .map(|g| g[0].start..g[g.len() - 1].end)
            .collect();
        let curvature = &self.curvature;
        let parts: Vec<Matrix> = groups
            .par_iter()
            .map(|rows| {
                let mut h = Matrix::zeros(dim, dim);
                obj.add_hessian(
                    &curvature[rows.start * width..rows.end * width],
                    rows.clone(),
                    &mut h,
                );
                h
            })
            .collect();
        let out_values = out.as_mut_slice();
        out_values.fill(0.0);
        for h in &parts {
            let (sum, part) = (&mut *out_values, h.as_slice());
            sum.iter_mut().zip(part).for_each(|(o, v)| *o += v);
        }
        let mut diag = vec![0.0; dim];
        self.penalty.add_hess_diag(&mut diag);
        for (j, dj) in diag.iter().enumerate() {
            out[(j, j)] += dj;
        }
    }

    /// `out = sum_chunks term(curvature of the chunk, its rows, zeroed scratch)`.
    fn sum_over_curvature<F>(&mut self, out: &mut [f64], term: F)
    where
        F: Fn(&[f64], Range<usize>, &mut [f64]) + Sync,
    {
        let width = self.obj.curvature_width();
        sum_over_rows(
            &self.chunks,
            &mut self.scratch,
            &self.curvature,
            width,
            out,
            term,
        );
    }
}

/// The fast special case of the solvers' contract: trial steps through the scores.
impl<O: Objective> super::Differentiable for Evaluator<'_, O> {
    fn dim(&self) -> usize {
        self.obj.dim()
    }
    fn value_grad(&mut self, w: &[f64], grad: &mut [f64], keep_curvature: bool) -> f64 {
        Evaluator::value_grad(self, w, grad, keep_curvature)
    }
    fn line_start(&mut self, w: &[f64], d: &[f64]) {
        Evaluator::line_start(self, w, d)
    }
    fn line(&mut self, a: f64) -> (f64, f64) {
        Evaluator::line(self, a)
    }
    fn line_accept(&mut self, a: f64, w_out: &mut [f64], grad: &mut [f64]) -> f64 {
        Evaluator::line_accept(self, a, w_out, grad)
    }
    fn has_hessian(&self) -> bool {
        self.obj.curvature_width() > 0
    }
    fn hess_vec(&mut self, v: &[f64], out: &mut [f64]) {
        Evaluator::hess_vec(self, v, out)
    }
    fn hess_diag(&mut self, out: &mut [f64]) {
        Evaluator::hess_diag(self, out)
    }
    fn forms_hessian(&self) -> bool {
        self.obj.curvature_width() > 0 && self.obj.forms_hessian()
    }
    fn hessian(&mut self, out: &mut Matrix) {
        Evaluator::hessian(self, out)
    }
    fn revert_curvature(&mut self) {
        Evaluator::revert_curvature(self)
    }
    fn keep_previous_curvature(&mut self, keep: bool) {
        self.keep_previous = keep;
        if !keep {
            self.previous_curvature = Vec::new();
        }
    }
}

/// `out = sum_chunks term(the chunk's part of per_row, its rows, zeroed scratch)`, with
/// `width` values of `per_row` for each row, summed in chunk order.
fn sum_over_rows<F>(
    chunks: &[Range<usize>],
    scratch: &mut [Vec<f64>],
    per_row: &[f64],
    width: usize,
    out: &mut [f64],
    term: F,
) where
    F: Fn(&[f64], Range<usize>, &mut [f64]) + Sync,
{
    chunks
        .par_iter()
        .zip(scratch.par_iter_mut())
        .for_each(|(rows, h)| {
            h.iter_mut().for_each(|x| *x = 0.0);
            term(
                &per_row[rows.start * width..rows.end * width],
                rows.clone(),
                h,
            );
        });
    sum_in_order(scratch, out);
}

/// Makes `v` hold `len` values, zeros where it grows. A buffer too small is replaced by a
/// fresh zeroed allocation, whose pages the allocator leaves untouched: the parallel pass
/// that fills it touches them first, from every thread, instead of a serial zero fill here
/// (a first touch costs about 3 us per 4 KiB page on the development machine).
fn resize_zeroed(v: &mut Vec<f64>, len: usize) {
    if v.capacity() < len {
        *v = vec![0.0; len];
    } else {
        v.resize(len, 0.0);
    }
}

/// `out_j = sum_c scratch_c[j]` in chunk order, in parallel over blocks of `j` when there
/// is more than one: a parallel step started from outside the pool costs about 25 us on
/// the development machine, as much as summing 16 chunks of a few thousand values.
fn sum_in_order(scratch: &[Vec<f64>], out: &mut [f64]) {
    const BLOCK: usize = 4096;
    let sum_block = |b: usize, o: &mut [f64]| {
        let start = b * BLOCK;
        o.copy_from_slice(&scratch[0][start..start + o.len()]);
        for s in &scratch[1..] {
            for (x, y) in o.iter_mut().zip(&s[start..]) {
                *x += y;
            }
        }
    };
    if out.len() <= BLOCK {
        sum_block(0, out);
    } else {
        out.par_chunks_mut(BLOCK)
            .enumerate()
            .for_each(|(b, o)| sum_block(b, o));
    }
}

/// The slices of `curvature` belonging to each chunk (all `None` when not kept).
fn split_by_chunks<'c>(
    curvature: &'c mut [f64],
    chunks: &[Range<usize>],
    width: usize,
    keep: bool,
) -> Vec<Option<&'c mut [f64]>> {
    if !keep {
        return chunks.iter().map(|_| None).collect();
    }
    let mut rest = curvature;
    chunks
        .iter()
        .map(|r| {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(r.len() * width);
            rest = tail;
            Some(head)
        })
        .collect()
}

/// `sqrt(sum_j g_j^2)`.
pub fn norm2(g: &[f64]) -> f64 {
    dot(g, g).sqrt()
}

/// `max_j |g_j|`.
pub fn norm_inf(g: &[f64]) -> f64 {
    g.iter().fold(0.0, |m, v| m.max(v.abs()))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `f(w) = r(w) + sum_n a_n/2 (w . x_n - b_n)^2` on rows `x_n = e_{n mod d}`, `r` a
    /// penalty: a separable quadratic with a known minimiser, for the solvers' tests.
    pub struct Quadratic {
        pub a: Vec<f64>,
        pub b: Vec<f64>,
        pub dim: usize,
        pub penalty: Penalty,
    }

    impl Objective for Quadratic {
        fn dim(&self) -> usize {
            self.dim
        }
        fn n_rows(&self) -> usize {
            self.a.len()
        }
        fn penalty(&self) -> Penalty {
            self.penalty.clone()
        }
        fn curvature_width(&self) -> usize {
            1
        }
        fn score_width(&self) -> usize {
            1
        }
        fn scores(&self, w: &[f64], rows: Range<usize>, z: &mut [f64]) {
            for (zk, n) in z.iter_mut().zip(rows) {
                *zk = w[n % self.dim];
            }
        }
        fn losses(
            &self,
            dz: &mut [f64],
            rows: Range<usize>,
            mut curvature: Option<&mut [f64]>,
        ) -> f64 {
            let mut f = 0.0;
            for (k, n) in rows.enumerate() {
                let r = dz[k] - self.b[n];
                f += 0.5 * self.a[n] * r * r;
                dz[k] = self.a[n] * r;
                if let Some(c) = curvature.as_deref_mut() {
                    c[k] = self.a[n];
                }
            }
            f
        }
        fn add_score_gradient(&self, dz: &[f64], rows: Range<usize>, grad: &mut [f64]) {
            for (k, n) in rows.enumerate() {
                grad[n % self.dim] += dz[k];
            }
        }
        fn hess_vec(&self, curvature: &[f64], v: &[f64], rows: Range<usize>, out: &mut [f64]) {
            for (k, n) in rows.enumerate() {
                let j = n % self.dim;
                out[j] += curvature[k] * v[j];
            }
        }
        fn hess_diag(&self, curvature: &[f64], rows: Range<usize>, out: &mut [f64]) {
            for (k, n) in rows.enumerate() {
                out[n % self.dim] += curvature[k];
            }
        }
        fn forms_hessian(&self) -> bool {
            true
        }
        fn add_hessian(&self, curvature: &[f64], rows: Range<usize>, out: &mut Matrix) {
            for (k, n) in rows.enumerate() {
                out[(n % self.dim, n % self.dim)] += curvature[k];
            }
        }
    }

    impl Quadratic {
        /// A problem of `n` rows over `dim` parameters, `1/2 ||w||^2` on all but the last.
        pub fn new(n: usize, dim: usize) -> Self {
            Quadratic {
                a: (0..n).map(|i| 1.0 + (i % 7) as f64).collect(),
                b: (0..n).map(|i| ((i * 37) % 11) as f64 - 5.0).collect(),
                dim,
                penalty: Penalty::l2(dim - 1),
            }
        }
        /// The exact minimiser: `w_j = sum a b / (sum a + lambda [j in S])`, from the
        /// penalty's Hessian diagonal.
        pub fn solution(&self) -> Vec<f64> {
            let mut curvature = vec![0.0; self.dim];
            self.penalty.add_hess_diag(&mut curvature);
            (0..self.dim)
                .map(|j| {
                    let (mut ab, mut a) = (0.0, curvature[j]);
                    for n in (j..self.a.len()).step_by(self.dim) {
                        ab += self.a[n] * self.b[n];
                        a += self.a[n];
                    }
                    ab / a
                })
                .collect()
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-10 * a.abs().max(b.abs()).max(1.0)
    }

    /// Checks the line of [`Evaluator::line_start`] from `w` along `d` against full
    /// evaluations at `w + a d` (values and slopes `d.grad f`), then accepts a step, once
    /// right after trying it (reusing the trial's loss derivatives) and once after trying
    /// another (evaluating anew): the two agree to the bit, and with a full evaluation.
    /// Last, checks the line from the accepted point, whose start reuses its scores.
    pub fn check_line<O: Objective>(obj: &O, w: &[f64], d: &[f64]) {
        let mut e = Evaluator::new(obj);
        check_points(&mut e, w, d);
        let mut accepted = Vec::new();
        for last_trial in [0.7, 0.2] {
            e.line_start(w, d);
            e.line(last_trial);
            assert_eq!(e.line.trial.map(|(a, _)| a), Some(last_trial));
            let (mut moved, mut g_moved) = (vec![0.0; w.len()], vec![0.0; w.len()]);
            let f = e.line_accept(0.7, &mut moved, &mut g_moved);
            accepted.push((f, moved, g_moved));
        }
        assert_eq!(accepted[0], accepted[1]);
        let (f, moved, g_moved) = &accepted[0];
        let mut point = w.to_vec();
        axpy(&mut point, 0.7, d);
        assert_eq!(*moved, point);
        let mut g = vec![0.0; w.len()];
        assert!(close(
            *f,
            Evaluator::new(obj).value_grad(&point, &mut g, false)
        ));
        assert!(g.iter().zip(g_moved).all(|(a, b)| close(*a, *b)));
        check_points(&mut e, moved, d);
    }

    fn check_points<O: Objective>(e: &mut Evaluator<'_, O>, w: &[f64], d: &[f64]) {
        let mut g = vec![0.0; w.len()];
        e.line_start(w, d);
        for a in [0.0, 0.5, -1.0, 3.0] {
            let (f, slope) = e.line(a);
            let mut point = w.to_vec();
            axpy(&mut point, a, d);
            let f_full = e.value_grad(&point, &mut g, false);
            assert!(close(f, f_full), "f at a = {a}: {f} vs {f_full}");
            assert!(close(slope, dot(&g, d)), "slope at a = {a}");
        }
    }

    fn strong() -> Penalty {
        Penalty::L2 {
            strength: 3.5,
            penalised: vec![0..1, 2..4],
        }
    }

    #[test]
    fn line_agrees_with_full_evaluations() {
        for penalty in [Penalty::l2(4), strong(), Penalty::None] {
            let q = Quadratic {
                penalty,
                ..Quadratic::new(5_000, 5)
            };
            check_line(
                &q,
                &[0.3, -1.0, 2.0, 0.1, 0.7],
                &[1.0, 0.5, -0.25, 2.0, -1.0],
            );
        }
    }

    #[test]
    fn the_penalty_is_added_to_the_data_term_and_none_adds_nothing() {
        let w = [0.3, -1.0, 2.0, 0.1, 0.7];
        let at = |penalty| {
            let q = Quadratic {
                penalty,
                ..Quadratic::new(100, 5)
            };
            let mut data_grad = vec![0.0; 5];
            let data = q.loss_grad(&w, 0..100, &mut data_grad, None);
            let mut e = Evaluator::new(&q);
            let mut g = vec![0.0; 5];
            let f = e.value_grad(&w, &mut g, true);
            let (mut hv, mut diag) = (vec![0.0; 5], vec![0.0; 5]);
            e.hess_vec(&[1.0; 5], &mut hv);
            e.hess_diag(&mut diag);
            let sub = |a: &[f64], b: &[f64]| -> Vec<f64> {
                a.iter().zip(b).map(|(x, y)| x - y).collect()
            };
            (f, data, sub(&g, &data_grad), sub(&hv, &diag))
        };
        let (f, data, g, hv_minus_diag) = at(Penalty::None);
        assert_eq!((f, g), (data, vec![0.0; 5]));
        assert_eq!(hv_minus_diag, vec![0.0; 5], "H is diagonal");
        // 3.5/2 (w_0^2 + w_2^2 + w_3^2), gradient 3.5 w_j on {0, 2, 3}
        let (f, data, g, _) = at(strong());
        assert!((f - data - 1.75 * (0.09 + 4.0 + 0.01)).abs() < 1e-12);
        let expected = [3.5 * 0.3, 0.0, 3.5 * 2.0, 3.5 * 0.1, 0.0];
        assert!(
            g.iter().zip(&expected).all(|(a, b)| (a - b).abs() < 1e-12),
            "{g:?}"
        );
    }

    #[test]
    fn evaluation_does_not_depend_on_threads() {
        let q = Quadratic::new(20_000, 5);
        let w = vec![0.3, -1.0, 2.0, 0.1, 0.7];
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut e = Evaluator::new(&q);
                let mut g = vec![0.0; 5];
                let f = e.value_grad(&w, &mut g, true);
                let mut h = vec![0.0; 5];
                e.hess_vec(&[1.0; 5], &mut h);
                let mut diag = vec![0.0; 5];
                e.hess_diag(&mut diag);
                assert_eq!(h, diag, "H is diagonal, so H 1 = diag H");
                let mut full = Matrix::zeros(5, 5);
                e.hessian(&mut full);
                for j in 0..5 {
                    assert_eq!(full[(j, j)], diag[j], "the formed H has the same diagonal");
                }
                (f, g, h)
            })
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(3));
        // H v with v = 1: sum of a per coordinate, + 1 where penalised
        let mut a = [0.0; 5];
        for (n, an) in q.a.iter().enumerate() {
            a[n % 5] += an;
        }
        assert!((one.2[0] - (a[0] + 1.0)).abs() < 1e-9 && (one.2[4] - a[4]).abs() < 1e-9);
    }
}
