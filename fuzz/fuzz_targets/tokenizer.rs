//! The tokenizer on any text, under settings picked by the first two bytes: lowercasing,
//! English stop words, the n-gram range and the token pattern (the built-in word scanner,
//! one of a few regular expressions, or the fuzzed text before the first `\n`). The n-gram
//! range stays within 7 of its start: the number of n-grams grows with its width.
#![no_main]

use hyperplane::text::Tokenizer;
use libfuzzer_sys::fuzz_target;

/// Patterns as users write them (one with a capturing group).
const PATTERNS: [&str; 4] = [r"(?u)\b\w\w+\b", r"\S+", r"(\w+)@", r"[a-z]{2,}"];

fuzz_target!(|data: &[u8]| {
    hyperplane_fuzz::init();
    let (a, rest) = hyperplane_fuzz::split_first(data);
    let (b, rest) = hyperplane_fuzz::split_first(rest);
    let text = String::from_utf8_lossy(rest);
    let (pattern, doc) = match b & 7 {
        0..=2 => (None, &text[..]),
        3 => match text.split_once('\n') {
            Some((p, doc)) if p.len() <= 64 => (Some(p.to_string()), doc),
            _ => (None, &text[..]),
        },
        k => (Some(PATTERNS[usize::from(k - 4)].to_string()), &text[..]),
    };
    let lo = usize::from(a >> 2 & 3);
    let hi = lo + usize::from(a >> 4 & 7);
    let stop_words = (b & 8 != 0).then(Tokenizer::english_stop_words);
    let tokenizer = Tokenizer::new()
        .lowercase(a & 1 != 0)
        .pattern(pattern)
        .ngram_range(lo, if a & 2 != 0 { hi } else { lo })
        .stop_words(stop_words);
    let Ok(compiled) = tokenizer.compile() else {
        return;
    };
    let mut scanner = compiled.scanner();
    let mut bytes = 0usize;
    scanner.for_each_token(doc, |t| bytes += t.len());
    // a second document through the same scanner (its buffers reused)
    let half = (0..=doc.len() / 2).rev().find(|&i| doc.is_char_boundary(i));
    scanner.for_each_token(&doc[..half.unwrap_or(0)], |t| bytes += t.len());
});
