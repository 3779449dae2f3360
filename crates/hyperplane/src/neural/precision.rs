//! The precision of training's arithmetic, `dtype`: `f64` (the default) or `f32`.
//!
//! With `f32`, Adam and SGD train as scikit-learn does on `float32` data: the parameters,
//! their gradient and the solver's state (Adam's moments, SGD's velocity) are single
//! precision, and so are the forward and backward passes (the matrix products, the hidden
//! units and their derivatives). L-BFGS, a shared optimiser, keeps its parameters in double
//! precision and runs the passes on single-precision copies made before each gradient.
//! Either way the output layer's loss and error and the penalty's sum are computed in double
//! precision, the saved model holds the parameters in double precision (the `f32` values
//! exactly), and prediction is in double precision. A vector register holds twice as many
//! `f32` lanes and a step sweeps half the bytes, so an epoch takes about half the time; the
//! gradient's relative error, about `1e-7` a product, is far below the noise of a
//! mini-batch's gradient, and a step of Adam (`1e-3` or less) is far above a weight's last
//! bit.
//!
//! The output layer's values and errors come back to `f32` with those below `f32`'s
//! smallest normal number (about `1.2e-38`) set to zero: a subnormal operand costs an Intel
//! processor a slow assist per multiply-add (L-BFGS on digits, whose probabilities fall to
//! `1e-40`, took 0.33 s in `f32` against 0.17 s in `f64`), and such a term is far below the
//! last bit of any sum it joins.

use ndarray::{ArrayView2, NdFloat};

use hyperplane_kernels::gemm::Lanes;

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
pub trait Real: NdFloat + num_traits::Float + Lanes {
    /// `v` in this precision (rounded to nearest).
    fn narrow(v: f64) -> Self;
    /// `self` in double precision (exact).
    fn wide(self) -> f64;
    /// `x` in this precision without a copy: `Some` for `f64` only.
    fn view(x: ArrayView2<f64>) -> Option<ArrayView2<Self>>;
    /// The precision's name.
    const DTYPE: Dtype;
    /// What a gradient keeps in this precision.
    fn kept(each: &mut KeptEach) -> &mut Kept<Self>;
    /// `f` on `values` in double precision, written back.
    fn in_f64<R>(values: &mut [Self], scratch: &mut Vec<f64>, f: impl FnOnce(&mut [f64]) -> R)
        -> R;
}

impl Real for f64 {
    const DTYPE: Dtype = Dtype::F64;
    fn kept(each: &mut KeptEach) -> &mut Kept<f64> {
        &mut each.f64
    }
    fn narrow(v: f64) -> f64 {
        v
    }
    fn wide(self) -> f64 {
        self
    }
    fn view(x: ArrayView2<f64>) -> Option<ArrayView2<f64>> {
        Some(x)
    }
    fn in_f64<R>(values: &mut [f64], _: &mut Vec<f64>, f: impl FnOnce(&mut [f64]) -> R) -> R {
        f(values)
    }
}

impl Real for f32 {
    const DTYPE: Dtype = Dtype::F32;
    fn kept(each: &mut KeptEach) -> &mut Kept<f32> {
        &mut each.f32
    }
    fn narrow(v: f64) -> f32 {
        v as f32
    }
    fn wide(self) -> f64 {
        f64::from(self)
    }
    fn view(_: ArrayView2<f64>) -> Option<ArrayView2<f32>> {
        None
    }
    fn in_f64<R>(values: &mut [f32], scratch: &mut Vec<f64>, f: impl FnOnce(&mut [f64]) -> R) -> R {
        scratch.clear();
        scratch.extend(values.iter().map(|&v| f64::from(v)));
        let r = f(scratch);
        values
            .iter_mut()
            .zip(scratch.iter())
            .for_each(|(v, &w)| *v = flushed(w));
        r
    }
}

/// `f` on `params` in the precision `T` (rounded to it), the result written back in
/// `f64` (exactly).
pub(super) fn in_precision<T: Real, R>(params: &mut [f64], f: impl FnOnce(&mut [T]) -> R) -> R {
    let mut p: Vec<T> = params.iter().map(|&v| T::narrow(v)).collect();
    let r = f(&mut p);
    params.iter_mut().zip(&p).for_each(|(to, v)| *to = v.wide());
    r
}

/// What a gradient keeps from one batch to the next in one precision: the groups' gradients
/// and the batch's gradient (see [`Gradient`](super::Gradient)).
pub struct Kept<T> {
    /// One gradient per group of a batch's rows.
    pub(super) partials: Vec<Vec<T>>,
    /// The gradient of a step.
    pub(super) grad: Vec<T>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept {
            partials: Vec::new(),
            grad: Vec::new(),
        }
    }
}

/// [`Kept`] in each precision.
#[derive(Default)]
pub struct KeptEach {
    f64: Kept<f64>,
    f32: Kept<f32>,
}

/// `v` in `f32`, zero when it falls below `f32`'s smallest normal number (about `1.2e-38`),
/// as the output layer's values and errors go back to the passes (module doc).
fn flushed(v: f64) -> f32 {
    let x = v as f32;
    if x.abs() < f32::MIN_POSITIVE {
        0.0
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_below_the_smallest_normal_f32_go_back_as_zero() {
        let mut values = [0.5f32, 1e-30, -1e-30, 0.0, f32::NAN];
        let mut scratch = Vec::new();
        f32::in_f64(&mut values, &mut scratch, |v| {
            v[0] = 1e-40;
            v[1] = -1e-39;
            v[2] = f64::from(f32::MIN_POSITIVE);
        });
        assert_eq!(values[..4], [0.0, 0.0, f32::MIN_POSITIVE, 0.0]);
        assert!(values[4].is_nan());
    }
}
