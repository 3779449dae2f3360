//! No data lost: `train --out` never overwrites the training data, and a `train` killed at
//! any moment of its save leaves the old model or the new one, with no temporary files
//! piling up. (Unix: symbolic links, SIGKILL.)
#![cfg(unix)]

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{fails, ok, s, write};

const TSV: &str = "spam\tcheap pills buy now\n\
ham\tmeeting notes for the project\n\
spam\tbuy cheap watches now\n\
ham\tproject review meeting tomorrow\n";

#[test]
fn out_equal_to_data_is_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = write(d, "mail.tsv", TSV);
    std::fs::create_dir(d.join("sub")).unwrap();
    let train = |data: &str, out: &str| {
        fails(&[
            "train",
            "--data",
            data,
            "--model",
            "multinomial-nb",
            "--out",
            out,
        ])
    };
    // the same file, however it is spelled
    let same = [
        s(&data).to_string(),
        format!("{}/sub/../mail.tsv", s(d)),
        format!("{}/./mail.tsv", s(d)),
    ];
    std::os::unix::fs::symlink(&data, d.join("link.tsv")).unwrap();
    for out in same
        .iter()
        .map(String::as_str)
        .chain([s(&d.join("link.tsv"))])
    {
        let e = train(s(&data), out);
        assert!(
            e.contains("--data file") && e.contains("overwrite the training data"),
            "{e}"
        );
    }
    let e = fails(&[
        "tune",
        "--data",
        s(&data),
        "--model",
        "multinomial-nb",
        "--grid",
        "alpha=0.5,1",
        "--cv",
        "2",
        "--out",
        s(&data),
    ]);
    assert!(e.contains("--data file"), "{e}");
    assert_eq!(std::fs::read_to_string(&data).unwrap(), TSV);

    // a model inside the training folder would be read as a document next time
    let mail = d.join("mail");
    for (class, text) in [("spam", "cheap pills"), ("ham", "meeting notes")] {
        std::fs::create_dir_all(mail.join(class)).unwrap();
        write(&mail.join(class), "1.txt", text);
    }
    let e = train(s(&mail), s(&mail.join("spam").join("m.json")));
    assert!(e.contains("inside the --data folder"), "{e}");
    assert!(!mail.join("spam").join("m.json").exists());

    // beside the data is fine
    ok(&[
        "train",
        "--data",
        s(&mail),
        "--model",
        "multinomial-nb",
        "--out",
        s(&d.join("m.json")),
    ]);
}

/// Our temporary files of target `m.json` in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".m.json.hyperplane-tmp."))
        .collect()
}

/// splitmix64: the test's seeded delays.
fn next(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) as f64 / u64::MAX as f64
}

#[test]
fn kill_9_during_train_out_leaves_the_old_model_or_the_new_one() {
    let trials: usize = std::env::var("HYPERPLANE_KILL_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 100 rows of 300 counts over 300,000 features: a model file of about 2.4 MB, whose
    // save takes tens of milliseconds
    let mut state = 15;
    let mut text = String::new();
    for i in 0..100 {
        text.push_str(if i % 2 == 0 { "-1" } else { "1" });
        let mut j = 0;
        for _ in 0..300 {
            j += 1 + (next(&mut state) * 995.0) as usize;
            text.push_str(&format!(" {}:{}", j, 1 + i % 5));
        }
        if i == 0 {
            text.push_str(" 300000:1");
        }
        text.push('\n');
    }
    let data = write(d, "counts.libsvm", &text);
    let out = d.join("m.json");
    let args = |out: &Path, alpha: &str| {
        [
            "train",
            "--data",
            s(&data),
            "--model",
            "multinomial-nb",
            "--param",
            &format!("alpha={alpha}"),
            "--out",
            s(out),
        ]
        .map(String::from)
    };
    ok(&args(&d.join("new.json"), "1")
        .each_ref()
        .map(String::as_str));
    let new = std::fs::read(d.join("new.json")).unwrap();
    std::fs::remove_file(d.join("new.json")).unwrap();
    ok(&args(&out, "0.5").each_ref().map(String::as_str));
    let old = std::fs::read(&out).unwrap();
    assert_ne!(old, new);
    assert!(new.len() > 2_000_000, "{} bytes", new.len());
    ok(&["inspect", "--model", s(&out)]);

    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_hyperplane"))
            .args(args(&out, "1"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    // the write window of a run: its temporary file's life (the run goes on with the
    // summary it prints)
    let poll = Duration::from_micros(200);
    let (mut run, mut opens, mut closes) = (Duration::ZERO, Vec::new(), Vec::new());
    for _ in 0..3 {
        let t = Instant::now();
        let mut child = spawn();
        let (mut open, mut close) = (None, None);
        while child.try_wait().unwrap().is_none() {
            let there = !temporaries(d).is_empty();
            match (open, close) {
                (None, _) if there => open = Some(t.elapsed()),
                (Some(_), None) if !there => close = Some(t.elapsed()),
                _ => {}
            }
            std::thread::sleep(poll);
        }
        run = run.max(t.elapsed());
        opens.push(open.expect("the save was seen"));
        closes.push(close.unwrap_or(t.elapsed()));
        std::fs::write(&out, &old).unwrap();
    }
    let (window_start, window_end) = (
        opens.into_iter().max().unwrap(),
        closes.into_iter().min().unwrap(),
    );
    let window = window_end.saturating_sub(window_start);

    let started = Instant::now();
    let (mut inside, mut kept_old, mut got_new) = (0, 0, 0);
    for trial in 0..trials {
        std::fs::write(&out, &old).unwrap();
        let t = Instant::now();
        let mut child = spawn();
        if trial % 5 == 0 {
            // anywhere in the run
            std::thread::sleep(run.mul_f64(next(&mut state)));
        } else {
            // inside the write window: once the temporary file is there
            while temporaries(d)
                .iter()
                .all(|n| !n.contains(&format!(".{}.", child.id())))
                && child.try_wait().unwrap().is_none()
                && t.elapsed() < 10 * run
            {
                std::thread::sleep(poll);
            }
            std::thread::sleep(window.mul_f64(0.8 * next(&mut state)));
        }
        let _ = child.kill(); // SIGKILL; an error when it has already exited
        child.wait().unwrap();
        let left = temporaries(d);
        if left
            .iter()
            .any(|n| n.contains(&format!(".{}.", child.id())))
        {
            inside += 1;
        }
        assert!(
            left.len() <= 1,
            "trial {trial}: temporary files pile up: {left:?}"
        );
        let now = std::fs::read(&out).unwrap();
        if now == old {
            kept_old += 1;
        } else {
            assert!(
                now == new,
                "trial {trial}: a model that is neither the old one nor the new one ({} bytes)",
                now.len()
            );
            got_new += 1;
        }
    }
    let took = started.elapsed();
    ok(&args(&out, "1").each_ref().map(String::as_str));
    assert_eq!(std::fs::read(&out).unwrap(), new);
    assert_eq!(
        temporaries(d),
        Vec::<String>::new(),
        "a save removes the stale ones"
    );
    eprintln!(
        "{trials} kills in {took:.1?}: {inside} inside the write window \
         ({window_start:.0?} to {window_end:.0?} of a {run:.0?} run), {kept_old} left the old model, {got_new} the new one"
    );
    assert!(
        inside * 10 >= trials * 7,
        "only {inside} of {trials} kills inside the write window ({window_start:?} to {window_end:?})"
    );
}
