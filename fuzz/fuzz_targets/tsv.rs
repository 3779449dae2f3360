//! The TSV document reader (`data::text_files::parse_tsv`) on any bytes, then the
//! documents through the default count vectorizer.
#![no_main]

use std::path::Path;

use hyperplane::data::text_files;
use hyperplane::text::vectorize::CountVectorizer;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hyperplane_fuzz::init();
    if let Ok((docs, _labels)) = text_files::parse_tsv(data, Path::new("fuzz.tsv")) {
        let _ = CountVectorizer::new().fit_transform(&docs[..]);
    }
});
