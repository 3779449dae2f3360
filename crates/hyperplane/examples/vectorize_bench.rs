//! Times the text vectorizers on a folder of folders of documents (default: the
//! SpamAssassin corpus under /work/shared/data/spamassassin/raw).
//!
//! ```text
//! cargo run --release -p hyperplane --example vectorize_bench [ROOT]
//! ```

use std::time::Instant;

use hyperplane::text::{CountVectorizer, HashingVectorizer, TfidfTransformer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "/work/shared/data/spamassassin/raw".into());
    let mut docs = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&root)?.collect::<Result<_, _>>()?;
    dirs.sort_by_key(|d| d.path());
    for dir in dirs.iter().filter(|d| d.path().is_dir()) {
        for file in std::fs::read_dir(dir.path())? {
            let bytes = std::fs::read(file?.path())?;
            docs.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    let mb = docs.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    println!(
        "{} documents, {mb:.1} MB, {} threads",
        docs.len(),
        rayon::current_num_threads()
    );

    // Best wall time of 5 runs, and the mean CPU time of a run (the machine may be shared).
    let best = |f: &mut dyn FnMut() -> Result<String, hyperplane::Error>| {
        let mut best = f64::INFINITY;
        let mut info = String::new();
        let cpu0 = cpu_seconds();
        for _ in 0..5 {
            let t = Instant::now();
            info = f()?;
            best = best.min(t.elapsed().as_secs_f64());
        }
        let cpu = (cpu_seconds() - cpu0) / 5.0;
        Ok::<_, hyperplane::Error>((best, format!("cpu {cpu:.3} s; {info}")))
    };
    let tokenizer = hyperplane::text::Tokenizer::new().compile()?;
    let (t, info) = best(&mut || {
        let mut scanner = tokenizer.scanner();
        let mut n = 0usize;
        docs.iter()
            .for_each(|d| scanner.for_each_token(d, |_| n += 1));
        Ok(format!("{n} tokens"))
    })?;
    println!("tokenize only, 1 thread: {t:.3} s ({info})");
    let cv = CountVectorizer::new();
    let (t, info) = best(&mut || {
        let (fitted, x) = cv.fit_transform(&docs)?;
        Ok(format!(
            "{} features, {} nonzeros",
            fitted.n_features(),
            x.nnz()
        ))
    })?;
    println!("CountVectorizer fit_transform: {:.3} s ({info})", t);
    let (t, info) = best(&mut || {
        let fitted = cv.fit(&docs)?;
        let x = fitted.transform(&docs);
        Ok(x.nnz().to_string())
    })?;
    println!("CountVectorizer fit, then transform: {:.3} s ({info})", t);
    let fitted = cv.fit(&docs)?;
    let (t, info) = best(&mut || Ok(fitted.transform(&docs).nnz().to_string()))?;
    println!("CountVectorizer transform only: {:.3} s ({info})", t);
    let (t, info) = best(&mut || {
        let (_, x) = cv.fit_transform(&docs)?;
        let tfidf = TfidfTransformer::new().fit(&x)?;
        Ok(tfidf.transform(&x)?.nnz().to_string())
    })?;
    println!(
        "CountVectorizer + TfidfTransformer fit_transform: {:.3} s ({info})",
        t
    );
    let hv = HashingVectorizer::new();
    let (t, info) = best(&mut || Ok(hv.transform(&docs)?.nnz().to_string()))?;
    println!("HashingVectorizer transform: {:.3} s ({info})", t);
    Ok(())
}

/// CPU time (user + system) of this process so far, from /proc/self/stat (0 elsewhere).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
    let ticks: f64 = fields.get(11..13).map_or(0.0, |f| {
        f.iter().filter_map(|x| x.parse::<f64>().ok()).sum()
    });
    ticks / 100.0
}
