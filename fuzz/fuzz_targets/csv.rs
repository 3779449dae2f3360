//! The CSV reader (`data::csv::parse`) on any bytes, under reader options picked by the
//! first byte: delimiter, header, label column and missing-value policy.
#![no_main]

use std::path::Path;

use hyperplane::data::csv;
use hyperplane::data::read::{LabelColumn, MissingPolicy, ReadOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hyperplane_fuzz::init();
    let (options, text) = hyperplane_fuzz::split_first(data);
    let opts = ReadOptions {
        delimiter: [None, Some(b','), Some(b';'), Some(b'\t')][usize::from(options & 3)],
        header: [None, Some(true), Some(false), None][usize::from(options >> 2 & 3)],
        label: match options >> 4 & 3 {
            0 => LabelColumn::Last,
            1 => LabelColumn::None,
            2 => LabelColumn::Index(0),
            _ => LabelColumn::Name("label".into()),
        },
        missing: [
            MissingPolicy::Error,
            MissingPolicy::DropRows,
            MissingPolicy::AsCategory,
            MissingPolicy::Error,
        ][usize::from(options >> 6)],
        ..ReadOptions::default()
    };
    let _ = csv::parse(text, Path::new("fuzz.csv"), &opts);
});
