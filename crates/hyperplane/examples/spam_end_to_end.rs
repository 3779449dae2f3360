//! End-to-end text classification timing: read a class-folder tree of training documents, fit
//! the default text pipeline of a Naive Bayes kind, then read the test tree and predict it. Prints one JSON line
//! with the seconds spent and the test accuracy; used by `bench/run.py`.
//!
//! ```text
//! cargo run --release -p hyperplane --example spam_end_to_end -- TRAIN_DIR TEST_DIR [KIND] [NAME=VALUE ...]
//! ```

use std::time::Instant;

use hyperplane::data::read::{read, ReadOptions};
use hyperplane::pipeline::PipelineSpec;

fn main() -> hyperplane::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: spam_end_to_end TRAIN_DIR TEST_DIR [KIND] [NAME=VALUE ...]");
        std::process::exit(2);
    }
    let kind = args.get(2).map_or("multinomial-nb", String::as_str);
    let mut spec = PipelineSpec::new(kind)?;
    for p in args.iter().skip(3) {
        let (n, v) = p.split_once('=').expect("NAME=VALUE");
        spec.set_param(n, v)?;
    }
    // A folder is read as a list of files (`RawInput::Files`): the vectorizer reads each
    // document when it tokenizes it, so no corpus is ever in memory at once, and
    // `read_seconds` is the listing only (the reading is in `fit_seconds` and the total).
    let start = Instant::now();
    let opts = ReadOptions::default();
    let train = read(args[0].as_ref(), &opts)?;
    let read_train_s = start.elapsed().as_secs_f64();
    let pipeline = spec.fit(&train)?;
    drop(train);
    let fit_s = start.elapsed().as_secs_f64() - read_train_s;
    let test_start = Instant::now();
    let test = read(args[1].as_ref(), &opts)?;
    let read_s = read_train_s + test_start.elapsed().as_secs_f64();
    let eval = pipeline.evaluate(&test)?;
    let total = start.elapsed().as_secs_f64();
    println!(
        "{{\"seconds\": {total:.4}, \"read_seconds\": {read_s:.4}, \"fit_seconds\": {fit_s:.4}, \"accuracy\": {:.6}, \"n_features\": {}}}",
        eval.accuracy,
        pipeline.model_n_features()
    );
    Ok(())
}
