//! Reading and encoding a CSV table, timed apart from any fit: what `bench/tabular.py` sets
//! against `pandas.read_csv` on the same file.
//!
//! ```text
//! cargo run --release -p hyperplane --example read_encode_bench -- FILE.csv LABEL_COLUMN
//! ```
//!
//! Reads and one-hot encodes FILE.csv as `hyperplane train --label-col LABEL_COLUMN
//! --missing category` does (the file's blocks parsed in parallel and encoded as they
//! arrive, CSR when a column is text), 5 times in-process, and prints one JSON line with
//! the median: `{"read_encode_seconds": T, "rows": N, "features": P, "nnz": Z}`.

use std::path::Path;
use std::time::Instant;

use hyperplane::data::read::{LabelColumn, MissingPolicy, ReadOptions};
use hyperplane::transform::TabularEncoder;
use hyperplane::Error;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> hyperplane::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, label] = args.as_slice() else {
        return Err(Error::data(
            "usage: read_encode_bench FILE.csv LABEL_COLUMN",
        ));
    };
    let opts = ReadOptions {
        label: LabelColumn::Name(label.clone()),
        missing: MissingPolicy::AsCategory,
        ..ReadOptions::default()
    };
    let mut times = Vec::new();
    let mut shape = (0, 0, 0);
    for _ in 0..5 {
        let t = Instant::now();
        let (_, x, _) = TabularEncoder::new().fit_transform_file(Path::new(file), &opts)?;
        times.push(t.elapsed().as_secs_f64());
        shape = x.lend(|x| (x.n_rows(), x.n_cols(), x.nnz()));
    }
    println!(
        "{{\"read_encode_seconds\": {}, \"rows\": {}, \"features\": {}, \"nnz\": {}}}",
        median(times),
        shape.0,
        shape.1,
        shape.2
    );
    Ok(())
}
