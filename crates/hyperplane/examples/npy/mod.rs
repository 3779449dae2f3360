//! Reading the `.npy` arrays bench/mlp.py leaves in its cache, for the examples that time
//! the network's passes.

use ndarray::Array2;

/// The 2-D float64 array of the `.npy` file at `path` (version 1, little-endian, C order,
/// as numpy's `np.save` writes a float64 matrix); panics with the reason otherwise.
pub fn read_f64_matrix(path: &str) -> Array2<f64> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(bytes.starts_with(b"\x93NUMPY"), "{path}: not a .npy file");
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = std::str::from_utf8(&bytes[10..10 + header_len]).expect("an ASCII header");
    assert!(
        header.contains("'descr': '<f8'") && header.contains("'fortran_order': False"),
        "{path}: not a C-order float64 array ({header})"
    );
    let shape = &header[header.find("'shape': (").expect("a shape") + 10..];
    let dims: Vec<usize> = shape[..shape.find(')').expect("a shape")]
        .split(',')
        .filter(|t| !t.trim().is_empty())
        .map(|t| t.trim().parse().expect("a dimension"))
        .collect();
    let values: Vec<f64> = bytes[10 + header_len..]
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    Array2::from_shape_vec((dims[0], dims[1]), values).expect("rows x columns values")
}
