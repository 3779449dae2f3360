//! No data lost: `train --out` never overwrites the training data, and a `train` killed at
//! any moment of its save leaves the old model or the new one, with no temporary files
//! piling up. (Unix: symbolic links, SIGKILL.)
#![cfg(unix)]

mod common;

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
