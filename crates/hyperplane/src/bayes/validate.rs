//! Checks of the numbers a Naive Bayes model file holds, shared by the statistics types and
//! the class bookkeeping: every error names the field.

use crate::error::{Error, Result};

/// An error about the field `field` of a Naive Bayes model file.
pub(crate) fn bad_field(field: &str, why: impl std::fmt::Display) -> Error {
    Error::data(format!("Naive Bayes model: {field} {why}"))
}

/// Checks that the field `field` holds `len` finite numbers, `>= 0` when `non_negative`.
pub(crate) fn check_values(
    field: &str,
    values: &[f64],
    len: usize,
    non_negative: bool,
) -> Result<()> {
    if values.len() != len {
        return Err(bad_field(
            field,
            format!("has {} values, not {len}", values.len()),
        ));
    }
    match values
        .iter()
        .position(|v| !v.is_finite() || (non_negative && *v < 0.0))
    {
        Some(i) => Err(bad_field(
            field,
            format!(
                "holds {} at position {}: it must be finite{}",
                values[i],
                i + 1,
                if non_negative { " and >= 0" } else { "" }
            ),
        )),
        None => Ok(()),
    }
}
