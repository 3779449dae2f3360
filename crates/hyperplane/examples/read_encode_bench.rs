//! Reading and encoding a CSV table, timed apart from any fit: what `bench/tabular.py` sets
//! against `pandas.read_csv` on the same file.
//!
//! ```text
//! cargo run --release -p hyperplane --example read_encode_bench -- FILE.csv LABEL_COLUMN
//! ```
//!
//! Reads FILE.csv as `hyperplane train --label-col LABEL_COLUMN --missing category` does
//! (streaming, typed columns, text columns interned), then one-hot encodes it (CSR when a
//! column is text), 5 times in-process, and prints one JSON line with the medians:
//! `{"read_seconds": R, "encode_seconds": E, "rows": N, "features": P, "nnz": Z}`.

use std::path::Path;
use std::time::Instant;

use hyperplane::data::read::{read, LabelColumn, MissingPolicy, ReadOptions};
use hyperplane::data::RawInput;
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
    let (mut reads, mut encodes) = (Vec::new(), Vec::new());
    let mut shape = (0, 0, 0);
    for _ in 0..5 {
        let t = Instant::now();
        let data = read(Path::new(file), &opts)?;
        reads.push(t.elapsed().as_secs_f64());
        let RawInput::Table(table) = &data.input else {
            return Err(Error::data(format!("{file} is not read as a CSV table")));
        };
        let t = Instant::now();
        let x = TabularEncoder::new().fit(table)?.transform(table)?;
        encodes.push(t.elapsed().as_secs_f64());
        shape = (x.n_rows(), x.n_cols(), x.nnz());
    }
    println!(
        "{{\"read_seconds\": {}, \"encode_seconds\": {}, \"rows\": {}, \"features\": {}, \"nnz\": {}}}",
        median(reads),
        median(encodes),
        shape.0,
        shape.1,
        shape.2
    );
    Ok(())
}
