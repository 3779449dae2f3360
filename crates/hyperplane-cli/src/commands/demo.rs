//! `hyperplane demo`: a spam filter on the built-in SpamAssassin corpus, end to end.

use std::time::Instant;

use hyperplane::data::split::train_test_split;
use hyperplane::data::{labels, Label, RawInput};
use hyperplane::datasets;
use hyperplane::pipeline::{PipelineSpec, Validation};
use hyperplane::select::ParamGrid;
use hyperplane::{Error, Result};
use serde_json::json;

use crate::outln;
use crate::output::{assignments, json_text};
use crate::progress::Step;
use crate::DemoArgs;

/// What the demo chooses on its validation split: token counts (`binary=false`, the
/// multinomial event model and `multinomial-nb`'s default) or token presence
/// (`binary=true`), with the smoothing strength.
const GRID: [&str; 2] = ["binary=false,true", "alpha=0.001,0.003,0.01,0.03,0.1,0.3,1"];

/// Two messages the saved filter classifies at the end.
const SAMPLES: [&str; 2] = [
    "Subject: URGENT: you have WON $1,000,000!!!\n\nClick here now to claim your FREE prize. \
     Limited time offer, act now! Remove me from this mailing list: reply with REMOVE.",
    "Subject: Re: patch for the build script\n\nThanks, I applied your patch to the CVS tree; \
     the tests pass on my Debian box now. Let's discuss the release on the list tomorrow.",
];

pub fn demo(a: DemoArgs) -> Result<String> {
    if let Some(dir) = &a.unpack {
        let n = datasets::write_spamassassin(dir)?;
        let d = dir.display();
        return Ok(format!(
            "wrote {n} e-mails to {d}/ham and {d}/spam\n\
             next: hyperplane train --data {d} --model multinomial-nb --out spam.json\n"
        ));
    }
    let mut out = String::new();
    let started = Instant::now();
    let input = {
        let _s = Step::start("unpacking the built-in SpamAssassin corpus");
        datasets::spamassassin()?.into_input("spamassassin")
    };
    let all_labels = input.labels.clone().unwrap_or_default();
    let (classes, codes) = labels::encode(&all_labels);
    let (train_rows, test_rows) = train_test_split(codes.len(), 0.2, Some(&codes), a.seed)?;
    let train = input.select_rows(&train_rows);
    let test = input.select_rows(&test_rows);

    let spec = PipelineSpec::new("multinomial-nb")?;
    let grid = ParamGrid::parse(&GRID)?;
    let validation = Validation::Holdout(0.25);
    let tuning = {
        let _s = Step::start(
            "choosing counts or presence and the smoothing strength on a validation split",
        );
        spec.tune(&train, &grid, validation, a.seed)?
    };
    let best = tuning.best_spec(&spec)?;
    let model = {
        let _s = Step::start("training on the training split");
        best.fit(&train)?
    };
    let eval = model.evaluate(&test)?;
    model.save(&a.out)?;
    let samples = RawInput::Text(SAMPLES.iter().map(|s| s.to_string()).collect());
    let sample_pred = model.predict(&samples)?;
    let sample_proba = model.predict_proba(&samples)?;
    let spam = Label::from("spam");
    let spam_idx = classes
        .iter()
        .position(|c| *c == spam)
        .ok_or_else(|| Error::data("the corpus has no spam class"))?;
    let top = model
        .top_features(15)
        .into_iter()
        .find(|(c, _)| *c == spam)
        .map(|(_, t)| t)
        .unwrap_or_default();
    let spam_stats = &eval.report.classes[spam_idx];
    let seconds = started.elapsed().as_secs_f64();

    if a.json {
        out.push_str(&json_text(&json!({
            "n_train": train_rows.len(),
            "n_test": test_rows.len(),
            "validation": tuning.result,
            "best_params": tuning.best_params(),
            "test": eval,
            "top_spam_features": top,
            "samples": SAMPLES.iter().zip(&sample_pred).enumerate().map(|(i, (s, p))| json!({
                "text": s, "predicted": p, "p_spam": sample_proba[[i, spam_idx]]
            })).collect::<Vec<_>>(),
            "model_file": a.out,
            "seconds": seconds,
        })));
        return Ok(out);
    }
    outln!(
        out,
        "SpamAssassin public corpus: {} messages ({} ham, {} spam)",
        codes.len(),
        codes.iter().filter(|&&c| c != spam_idx).count(),
        codes.iter().filter(|&&c| c == spam_idx).count()
    );
    outln!(
        out,
        "stratified split (seed {}): {} for training, {} for testing\n",
        a.seed,
        train_rows.len(),
        test_rows.len()
    );
    outln!(
        out,
        "Token counts or presence (binary) and the smoothing strength alpha chosen on a {validation} of the training messages:"
    );
    outln!(out, "{}", tuning.result);
    let presence = tuning
        .best_params()
        .iter()
        .any(|(n, v)| n == "binary" && v == "true");
    outln!(
        out,
        "best: {} (words read as {})\n",
        assignments(tuning.best_params()),
        if presence {
            "present or absent"
        } else {
            "counts"
        }
    );
    outln!(
        out,
        "Test set ({} messages never seen in training):",
        eval.n_samples
    );
    outln!(
        out,
        "  accuracy {:.4}   spam precision {:.4}   spam recall {:.4}\n",
        eval.accuracy,
        spam_stats.precision,
        spam_stats.recall
    );
    outln!(out, "{}", eval.report);
    let words: Vec<String> = top.iter().map(|(w, _)| w.clone()).collect();
    outln!(out, "Words that most indicate spam: {}\n", words.join(", "));
    outln!(
        out,
        "Saved the model to {}; classifying two new messages with it:",
        a.out.display()
    );
    for (i, s) in SAMPLES.iter().enumerate() {
        let subject = s.lines().next().unwrap_or("");
        outln!(
            out,
            "  {:<5} (P(spam) = {:.4})  {}",
            sample_pred[i].to_string(),
            sample_proba[[i, spam_idx]],
            subject
        );
    }
    outln!(
        out,
        "\nDone in {seconds:.2} s. Next: hyperplane inspect --model {}",
        a.out.display()
    );
    Ok(out)
}
