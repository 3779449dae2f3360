//! The parameter parser, as `--param NAME=VALUE` reaches it: the first line of the input
//! names the model kind (an unknown one picks a registered kind by its first byte), each
//! further line is one `NAME=VALUE`. Each setting is tried alone, then all of them together,
//! then the values and schemas are listed.
#![no_main]

use hyperplane::pipeline::{self, PipelineSpec};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hyperplane_fuzz::init();
    let text = String::from_utf8_lossy(data);
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let spec = PipelineSpec::new(first).or_else(|_| {
        let kinds: Vec<_> = pipeline::registry().map(|k| k.name).collect();
        let pick = usize::from(first.bytes().next().unwrap_or(0)) % kinds.len();
        PipelineSpec::new(kinds[pick])
    });
    let Ok(mut spec) = spec else {
        return;
    };
    let pairs: Vec<(&str, &str)> = lines.take(32).filter_map(|l| l.split_once('=')).collect();
    let mut alone = spec.clone();
    for (name, value) in &pairs {
        let _ = alone.set_param(name, value);
    }
    let _ = alone.check();
    let _ = spec.set_params(&pairs);
    let _ = spec.param_values();
    let _ = spec.parameters();
});
