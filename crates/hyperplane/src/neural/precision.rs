//! The precision of training's arithmetic, `dtype`: `f64` (the default) or `f32`.
//!
//! With `f32`, the forward and backward passes (the matrix products, the hidden units and
//! their derivatives) run in single precision on single-precision copies of the parameters,
//! made before each gradient. The output layer's loss and error, the L2 penalty and the
//! optimiser (its state, the parameters it moves, the model that is saved) stay in double
//! precision. An AVX register holds twice as many `f32` lanes, so the products take about
//! half the time; the gradient's relative error, about `1e-7` a product, is far below the
//! noise of a mini-batch's gradient. Prediction is always in double precision.
//!
//! The output layer's values and errors come back to `f32` with those below `f32`'s
//! smallest normal number (about `1.2e-38`) set to zero: a subnormal operand costs an Intel
//! processor a slow assist per multiply-add (L-BFGS on digits, whose probabilities fall to
//! `1e-40`, took 0.33 s in `f32` against 0.17 s in `f64`), and such a term is far below the
//! last bit of any sum it joins.

use ndarray::{ArrayView2, NdFloat};

use crate::linalg::gemm::Lanes;

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
    fn view(x: ArrayView2<f64>) -> Option<ArrayView2<f64>> {
        Some(x)
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
