//! The LIBSVM reader (`data::libsvm::parse`) on any bytes; the first byte picks whether
//! the width is fixed (as for a test file read to match a training file).
#![no_main]

use std::path::Path;

use hyperplane::data::libsvm;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hyperplane_fuzz::init();
    let (options, text) = hyperplane_fuzz::split_first(data);
    let n_features = match options & 3 {
        0 | 1 => None,
        2 => Some(usize::from(options >> 2)),
        _ => Some(1 << (options >> 2)),
    };
    let _ = libsvm::parse(text, Path::new("fuzz.libsvm"), n_features);
});
