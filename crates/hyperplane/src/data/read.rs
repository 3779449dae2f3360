//! One entry point for every input format: [`read`] a file (or folder) into a [`LabelledInput`].
//!
//! | format | layout | produces |
//! |---|---|---|
//! | [`Format::Csv`] | delimited table (`,` `;` or tab), optional header | [`RawInput::Table`](crate::data::RawInput::Table) |
//! | [`Format::Libsvm`] | `label idx:val idx:val ...` (LIBSVM / SVMlight) | [`RawInput::Matrix`](crate::data::RawInput::Matrix), sparse |
//! | [`Format::Tsv`] | `label<TAB>text`, one document per line | [`RawInput::Text`](crate::data::RawInput::Text) |
//! | [`Format::Dir`] | one sub-folder per class, one document per file | [`RawInput::Files`](crate::data::RawInput::Files) (read lazily) |
//!
//! When [`ReadOptions::format`] is `None` the format is guessed by [`guess_format`].

use std::io::{BufRead, BufReader};
use std::path::Path;

use crate::data::input::LabelledInput;
pub use crate::data::options::{Format, LabelColumn, MissingPolicy, ReadOptions};
use crate::data::{csv, libsvm, text_files};
use crate::error::{Error, Result};

/// Reads `path` in the format of `opts.format`, or the guessed one.
pub fn read(path: &Path, opts: &ReadOptions) -> Result<LabelledInput> {
    match format_of(path, opts)? {
        Format::Csv => csv::read(path, opts),
        Format::Libsvm => libsvm::read(path, opts.n_features),
        Format::Tsv => text_files::read_tsv(path),
        Format::Dir => text_files::read_dir(path),
    }
}

/// The format `path` is read in: `opts.format`, or the guessed one; anything but a regular
/// file or a folder is refused first.
pub fn format_of(path: &Path, opts: &ReadOptions) -> Result<Format> {
    crate::data::file::check_regular(path)?;
    match opts.format {
        Some(f) => Ok(f),
        None => guess_format(path),
    }
}

/// Guesses the format of `path`.
///
/// A directory is [`Format::Dir`]; extension `.csv` is CSV and `.tsv` is TSV. Any other file
/// (`.libsvm`, `.svm`, `.svmlight`, `.t`, no extension...) is sniffed from its first line that
/// is neither blank nor a `#` comment. It is LIBSVM when, after dropping a `#` comment, it
/// has no tab, comma or semicolon, its first token is a label or an `index:value` pair, and
/// at least half of its other tokens (at least one) hold a `:`: so a malformed LIBSVM line
/// (negative index, missing colon) gets the LIBSVM reader's error naming line and column.
/// Otherwise a line with a tab is TSV, anything else CSV.
pub fn guess_format(path: &Path) -> Result<Format> {
    if path.is_dir() {
        return Ok(Format::Dir);
    }
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("csv") => return Ok(Format::Csv),
        Some("tsv") => return Ok(Format::Tsv),
        _ => {}
    }
    let file = crate::data::file::open(path)?;
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::io(path, e))?;
        if n == 0 {
            return Err(Error::data(format!(
                "{} is empty: cannot guess its format",
                path.display()
            )));
        }
        let t = line.trim_ascii();
        if !t.is_empty() && t[0] != b'#' {
            return Ok(sniff_line(t));
        }
    }
}

/// The format a first data line suggests.
fn sniff_line(line: &[u8]) -> Format {
    if looks_like_libsvm(line) {
        Format::Libsvm
    } else if line.contains(&b'\t') {
        Format::Tsv
    } else {
        Format::Csv
    }
}

/// Whether a data line reads as LIBSVM, even a malformed one (so that its errors come from
/// the LIBSVM reader, naming line and column, not from a CSV reader that finds one column):
/// after dropping a `#` comment, no tab, comma or semicolon; the first token a label or an
/// `index:value` pair; and at least half of the other tokens (at least one) holding a `:`.
/// So `+1 1:0.5 3:2 # note`, `1 -3:0.5 2:1` (a negative index) and `1 1:0.5 30.2 4:1` (a
/// missing colon) are LIBSVM; `note: 1:2` and `1 2 3` are not.
fn looks_like_libsvm(line: &[u8]) -> bool {
    let data = &line[..line.iter().position(|&b| b == b'#').unwrap_or(line.len())];
    if data.iter().any(|b| matches!(b, b'\t' | b',' | b';')) {
        return false;
    }
    let mut tokens = data
        .split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty());
    let Some(first) = tokens.next() else {
        return false;
    };
    let is_pair = |t: &[u8]| match t.iter().position(|&b| b == b':') {
        Some(p) => {
            let (idx, val) = (&t[..p], &t[p + 1..]);
            (idx == b"qid" || (!idx.is_empty() && idx.iter().all(u8::is_ascii_digit)))
                && !val.is_empty()
        }
        None => false,
    };
    let rest: Vec<&[u8]> = tokens.collect();
    let with_colon = rest.iter().filter(|t| t.contains(&b':')).count();
    if first.contains(&b':') {
        is_pair(first) && 2 * with_colon >= rest.len()
    } else {
        with_colon >= 1 && 2 * with_colon >= rest.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn sniffs_lines() {
        assert_eq!(sniff_line(b"+1 1:0.5 3:2"), Format::Libsvm);
        assert_eq!(sniff_line(b"1:0.5 3:2"), Format::Libsvm);
        assert_eq!(sniff_line(b"2 qid:3 1:0.5"), Format::Libsvm);
        assert_eq!(sniff_line(b"spam\tBuy now: cheap"), Format::Tsv);
        assert_eq!(sniff_line(b"1,2,3"), Format::Csv);
        assert_eq!(sniff_line(b"a;b;c"), Format::Csv);
        assert_eq!(sniff_line(b"note: 1:2"), Format::Csv);
        // comments, and malformed lines the LIBSVM reader should report
        assert_eq!(sniff_line(b"+1 1:0.5 3:2 # from run 4"), Format::Libsvm);
        assert_eq!(sniff_line(b"1 -3:0.5 2:1"), Format::Libsvm);
        assert_eq!(sniff_line(b"1 1:0.5 30.2 4:1"), Format::Libsvm);
        assert_eq!(sniff_line(b"1 1:0.5 3:"), Format::Libsvm);
        assert_eq!(sniff_line(b"1 2 3"), Format::Csv);
        assert_eq!(sniff_line(b"a:1,b:2"), Format::Csv);
        assert_eq!(sniff_line(b"ham\tsee you at 10:30"), Format::Tsv);
    }

    #[test]
    fn guesses_by_kind_extension_and_content() {
        let dir = tempfile::tempdir().unwrap();
        let p = |n: &str| dir.path().join(n);
        fs::write(p("a.csv"), "x\ty\n").unwrap();
        fs::write(p("a.tsv"), "1:2 3:4\n").unwrap();
        fs::write(p("heart"), "# comment\n\n-1 1:0.5 2:1\n").unwrap();
        fs::write(p("docs.txt"), "ham\thello\n").unwrap();
        fs::write(p("plain.data"), "1,2,3\n").unwrap();
        fs::write(p("empty.t"), "\n# only a comment\n").unwrap();
        assert_eq!(guess_format(dir.path()).unwrap(), Format::Dir);
        assert_eq!(guess_format(&p("a.csv")).unwrap(), Format::Csv);
        assert_eq!(guess_format(&p("a.tsv")).unwrap(), Format::Tsv);
        assert_eq!(guess_format(&p("heart")).unwrap(), Format::Libsvm);
        assert_eq!(guess_format(&p("docs.txt")).unwrap(), Format::Tsv);
        assert_eq!(guess_format(&p("plain.data")).unwrap(), Format::Csv);
        let e = guess_format(&p("empty.t")).unwrap_err().to_string();
        assert!(e.contains("empty.t") && e.contains("empty"), "{e}");
        let e = guess_format(&p("absent")).unwrap_err().to_string();
        assert!(e.contains("absent"), "{e}");
    }

    #[test]
    fn malformed_libsvm_lines_get_libsvm_errors_naming_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let cases = [
            ("neg.svm", "1 1:0.5\n1 -3:0.5 2:1\n", "neg.svm:2:3:"),
            (
                "colon.svm",
                "# made by hand\n1 1:0.5 30.2 4:1\n",
                "colon.svm:2:9:",
            ),
            ("first.t", "1 -3:0.5 2:1 # negative\n", "first.t:1:3:"),
        ];
        for (name, text, place) in cases {
            let path = dir.path().join(name);
            fs::write(&path, text).unwrap();
            assert_eq!(guess_format(&path).unwrap(), Format::Libsvm, "{name}");
            let e = read(&path, &ReadOptions::default())
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(place) && !e.contains("label column"),
                "{name}: {e}"
            );
        }
        let path = dir.path().join("commented.svm");
        fs::write(&path, "+1 1:0.5 3:2 # first\n-1 2:1 # second\n").unwrap();
        assert_eq!(
            read(&path, &ReadOptions::default()).unwrap().input.n_rows(),
            2
        );
    }

    #[test]
    fn read_dispatches_by_guessed_format() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.svm");
        fs::write(&path, "1 2:0.5\n-1 1:1\n").unwrap();
        let got = read(&path, &ReadOptions::default()).unwrap();
        assert_eq!(got.input.n_rows(), 2);
        assert!(matches!(
            got.input,
            crate::data::RawInput::Matrix(crate::data::Features::Sparse(_))
        ));
        let opts = ReadOptions {
            format: Some(Format::Csv),
            label: LabelColumn::None,
            ..Default::default()
        };
        let path = dir.path().join("t.txt");
        fs::write(&path, "1,2\n3,4\n").unwrap();
        let got = read(&path, &opts).unwrap();
        assert!(got.labels.is_none());
        assert!(matches!(got.input, crate::data::RawInput::Table(_)));
    }
}
