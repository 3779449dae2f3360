//! Serde helpers for `f64` data that may hold `inf`, `-inf` or NaN, which JSON cannot.
//!
//! Finite values are written as JSON numbers (shortest round-trip form); the others as the
//! strings `"inf"`, `"-inf"`, `"nan"`. Use with `#[serde(with = "crate::persist::nonfinite::array2")]`
//! or `vec`.

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

/// One `f64` that may be non-finite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct F64(pub f64);

impl Serialize for F64 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.is_finite() {
            s.serialize_f64(v)
        } else if v.is_nan() {
            s.serialize_str("nan")
        } else if v > 0.0 {
            s.serialize_str("inf")
        } else {
            s.serialize_str("-inf")
        }
    }
}

impl<'de> Deserialize<'de> for F64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = F64;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number or \"inf\", \"-inf\", \"nan\"")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<F64, E> {
                Ok(F64(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<F64, E> {
                Ok(F64(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<F64, E> {
                Ok(F64(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<F64, E> {
                match v {
                    "inf" => Ok(F64(f64::INFINITY)),
                    "-inf" => Ok(F64(f64::NEG_INFINITY)),
                    "nan" => Ok(F64(f64::NAN)),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// One `f64` field that may be non-finite.
pub mod scalar {
    use super::*;

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        F64(*v).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(F64::deserialize(d)?.0)
    }
}

/// `Vec<f64>` with non-finite values.
pub mod vec {
    use super::*;

    pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|&x| F64(x)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        Ok(Vec::<F64>::deserialize(d)?
            .into_iter()
            .map(|x| x.0)
            .collect())
    }
}

/// `ndarray::Array2<f64>` with non-finite values, stored as `{"shape": [r, c], "data": [...]}`
/// in row-major order.
pub mod array2 {
    use super::*;
    use ndarray::Array2;

    #[derive(Serialize, Deserialize)]
    struct Repr {
        shape: (usize, usize),
        #[serde(with = "super::vec")]
        data: Vec<f64>,
    }

    pub fn serialize<S: Serializer>(a: &Array2<f64>, s: S) -> Result<S::Ok, S::Error> {
        Repr {
            shape: a.dim(),
            data: a.iter().copied().collect(),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Array2<f64>, D::Error> {
        let r = Repr::deserialize(d)?;
        Array2::from_shape_vec(r.shape, r.data).map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{array, Array2};
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug)]
    struct M {
        #[serde(with = "super::vec")]
        v: Vec<f64>,
        #[serde(with = "super::array2")]
        a: Array2<f64>,
    }

    #[test]
    fn non_finite_values_round_trip() {
        let m = M {
            v: vec![f64::NEG_INFINITY, 0.1, f64::INFINITY, f64::NAN],
            a: array![[1.0, f64::NEG_INFINITY], [1e-310, 2.0 / 3.0]],
        };
        let json = serde_json::to_string(&m).unwrap();
        let back: M = serde_json::from_str(&json).unwrap();
        assert_eq!(back.v[..3], m.v[..3]);
        assert!(back.v[3].is_nan());
        assert_eq!(back.a, m.a);
        assert!(
            serde_json::from_str::<M>(r#"{"v":["huge"],"a":{"shape":[0,0],"data":[]}}"#).is_err()
        );
    }
}
