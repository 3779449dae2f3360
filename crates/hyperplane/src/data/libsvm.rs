//! The LIBSVM / SVMlight sparse format.
//!
//! ```text
//! <label> <index>:<value> <index>:<value> ... # comment
//! ```
//!
//! Indices are 1-based and strictly increasing within a line; feature `index` becomes matrix
//! column `index - 1`. Labels are any [`Label`] (`+1`, `-1`, `0`, `3`, `spam`). `#` starts a
//! comment (whole line or trailing), blank lines are skipped, and SVMlight's `qid:<n>` tokens
//! are skipped. A line whose first token is an `index:value` pair has no label (prediction
//! input); every line of a file must agree on having labels or not. Values equal to zero are
//! not stored (they are the implicit value). The matrix is as wide as the largest index, or
//! `n_features` when given.
//!
//! The parser works on bytes, line by line, with no per-token allocation: numbers are parsed
//! with `str::parse::<f64>` on slices of the input. [`read`] streams the file through a
//! buffer, so peak memory is the matrix, not the matrix plus the text.

use std::io::{BufRead, BufReader};
use std::path::Path;

use crate::data::input::{LabelledInput, RawInput};
use crate::data::labels::Label;
use hyperplane_kernels::os::large_buffer;

use crate::data::Dataset;
use crate::data::{CsrMatrix, Features};
use crate::error::{Error, Result};

/// Reads a LIBSVM / SVMlight file into a sparse matrix and its labels (if it has them),
/// one line at a time.
pub fn read(path: &Path, n_features: Option<usize>) -> Result<LabelledInput> {
    let (x, labels) = read_parts(path, n_features)?;
    Ok(LabelledInput {
        input: RawInput::Matrix(Features::Sparse(x)),
        labels,
        source: path.to_path_buf(),
    })
}

/// Reads a labelled LIBSVM file straight into a [`Dataset`] (scikit-learn's
/// `load_svmlight_file`); `n_features` fixes the width, e.g. a test file read to match a
/// training file.
pub fn read_dataset(path: &Path, n_features: Option<usize>) -> Result<Dataset<'static>> {
    let (x, labels) = read_parts(path, n_features)?;
    let labels = labels.ok_or_else(|| {
        Error::data(format!(
            "{} has no labels; a data set needs one per row",
            path.display()
        ))
    })?;
    // the parser has rejected every value that is not finite
    Ok(Dataset::new(Features::Sparse(x), &labels)?.known_finite())
}

/// The matrix and labels of a LIBSVM file, streamed through a buffer.
fn read_parts(path: &Path, n_features: Option<usize>) -> Result<(CsrMatrix, Option<Vec<Label>>)> {
    let file = crate::data::file::open(path)?;
    let size = file.metadata().map_or(0, |m| m.len() as usize);
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut p = Parser::new(path, n_features, size);
    let mut line = Vec::new();
    for lineno in 1.. {
        line.clear();
        if reader
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::io(path, e))?
            == 0
        {
            break;
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        p.line(lineno, &line)?;
    }
    p.finish()
}

/// Parses LIBSVM text held in memory; `file` names the source in error messages.
pub fn parse(
    bytes: &[u8],
    file: &Path,
    n_features: Option<usize>,
) -> Result<(CsrMatrix, Option<Vec<Label>>)> {
    let mut p = Parser::new(file, n_features, bytes.len());
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        p.line(i + 1, line)?;
    }
    p.finish()
}

/// Parser state: the CSR arrays grown line by line.
struct Parser<'a> {
    file: &'a Path,
    n_features: Option<usize>,
    /// Decided by the first data line.
    has_labels: Option<(bool, usize)>,
    labels: Vec<Label>,
    indptr: Vec<usize>,
    indices: Vec<u32>,
    data: Vec<f64>,
    /// Largest 1-based index seen.
    width: usize,
}

impl<'a> Parser<'a> {
    /// A parser for about `text_bytes` of input: the arrays are reserved for
    /// `text_bytes / 8` entries (typical files spend more than 8 bytes on an `index:value`
    /// pair; they grow past that when needed), untouched until used.
    fn new(file: &'a Path, n_features: Option<usize>, text_bytes: usize) -> Self {
        Parser {
            file,
            n_features,
            has_labels: None,
            labels: Vec::new(),
            indptr: vec![0],
            indices: large_buffer(text_bytes / 8),
            data: large_buffer(text_bytes / 8),
            width: 0,
        }
    }

    /// The matrix and labels of every line parsed.
    fn finish(self) -> Result<(CsrMatrix, Option<Vec<Label>>)> {
        let Some((has_labels, _)) = self.has_labels else {
            return Err(Error::data(format!(
                "{} has no data lines (it is empty or holds only comments)",
                self.file.display()
            )));
        };
        let n_cols = self.n_features.unwrap_or(self.width);
        let x = CsrMatrix::new(n_cols, self.indptr, self.indices, self.data)?;
        Ok((x, has_labels.then_some(self.labels)))
    }

    fn error(&self, line: usize, column: usize, expected: String, found: &[u8]) -> Error {
        Error::Parse {
            file: self.file.to_path_buf(),
            line,
            column,
            expected,
            found: format!("{:?}", String::from_utf8_lossy(found)),
        }
    }

    /// Parses one line (`lineno` is 1-based).
    fn line(&mut self, lineno: usize, raw: &[u8]) -> Result<()> {
        let end = raw.iter().position(|&b| b == b'#').unwrap_or(raw.len());
        let line = &raw[..end];
        let mut pos = 0;
        let next_token = |pos: &mut usize| -> Option<(usize, usize)> {
            while *pos < line.len() && line[*pos].is_ascii_whitespace() {
                *pos += 1;
            }
            let start = *pos;
            while *pos < line.len() && !line[*pos].is_ascii_whitespace() {
                *pos += 1;
            }
            (*pos > start).then_some((start, *pos))
        };
        let Some((s, e)) = next_token(&mut pos) else {
            return Ok(());
        };
        let first = &line[s..e];
        let labelled = !first.contains(&b':');
        match self.has_labels {
            None => self.has_labels = Some((labelled, lineno)),
            Some((want, at)) if want != labelled => {
                let expected = if want {
                    format!("a label first, as on line {at}")
                } else {
                    format!("index:value with no label, as on line {at}")
                };
                return Err(self.error(lineno, s + 1, expected, first));
            }
            Some(_) => {}
        }
        let mut token = Some((s, e));
        if labelled {
            let text = std::str::from_utf8(first)
                .map_err(|_| self.error(lineno, s + 1, "a UTF-8 label".into(), first))?;
            self.labels.push(Label::parse(text));
            token = next_token(&mut pos);
        }
        let mut prev = 0usize;
        while let Some((s, e)) = token {
            self.pair(lineno, line, s, e, &mut prev)?;
            token = next_token(&mut pos);
        }
        self.indptr.push(self.data.len());
        Ok(())
    }

    /// Parses the `index:value` token `line[s..e]`; `prev` is the previous index on the line.
    fn pair(
        &mut self,
        lineno: usize,
        line: &[u8],
        s: usize,
        e: usize,
        prev: &mut usize,
    ) -> Result<()> {
        let tok = &line[s..e];
        let Some(colon) = tok.iter().position(|&b| b == b':') else {
            return Err(self.error(lineno, s + 1, "index:value".into(), tok));
        };
        let (idx_text, val_text) = (&tok[..colon], &tok[colon + 1..]);
        if idx_text == b"qid" {
            return Ok(());
        }
        let index = parse_index(idx_text).ok_or_else(|| {
            self.error(
                lineno,
                s + 1,
                "a positive integer index before ':'".into(),
                idx_text,
            )
        })?;
        if index == 0 {
            return Err(self.error(
                lineno,
                s + 1,
                "an index >= 1 (LIBSVM indices are 1-based; the `0:ID` column of a \
                 precomputed-kernel file is not read: drop it)"
                    .into(),
                idx_text,
            ));
        }
        if index <= *prev {
            return Err(self.error(
                lineno,
                s + 1,
                format!("an index above {prev} (indices must be strictly increasing)"),
                idx_text,
            ));
        }
        if let Some(n) = self.n_features {
            if index > n {
                return Err(self.error(
                    lineno,
                    s + 1,
                    format!("an index at most {n} (the expected number of features)"),
                    idx_text,
                ));
            }
        }
        if index > u32::MAX as usize {
            return Err(self.error(
                lineno,
                s + 1,
                format!("an index at most {}", u32::MAX),
                idx_text,
            ));
        }
        let vcol = s + colon + 2;
        let value = std::str::from_utf8(val_text)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .ok_or_else(|| self.error(lineno, vcol, "a number after ':'".into(), val_text))?;
        if !value.is_finite() {
            return Err(self.error(lineno, vcol, "a finite number".into(), val_text));
        }
        *prev = index;
        self.width = self.width.max(index);
        if value != 0.0 {
            self.indices.push((index - 1) as u32);
            self.data.push(value);
        }
        Ok(())
    }
}

/// Decimal digits as a `usize`, `None` when empty, not all digits, or overflowing.
fn parse_index(text: &[u8]) -> Option<usize> {
    if text.is_empty() {
        return None;
    }
    text.iter().try_fold(0usize, |acc, &b| {
        if b.is_ascii_digit() {
            acc.checked_mul(10)?.checked_add((b - b'0') as usize)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::RowAccess;
    use std::path::PathBuf;

    fn parse_str(s: &str, n: Option<usize>) -> Result<(CsrMatrix, Option<Vec<Label>>)> {
        parse(s.as_bytes(), Path::new("f.svm"), n)
    }

    fn err(s: &str, n: Option<usize>) -> String {
        parse_str(s, n).unwrap_err().to_string()
    }

    #[test]
    fn parses_labels_comments_qid_and_blank_lines() {
        let text =
            "# header comment\n+1 1:0.5 3:2 # trailing\n\n-1 qid:7 2:-1.5e0\r\n0\nspam 4:0 5:1\n";
        let (x, y) = parse_str(text, None).unwrap();
        let y = y.unwrap();
        assert_eq!(
            y,
            vec![Label::Int(1), Label::Int(-1), Label::Int(0), "spam".into()]
        );
        assert_eq!(x.n_rows(), 4);
        assert_eq!(x.n_cols(), 5);
        assert_eq!(x.row(0), (&[0u32, 2][..], &[0.5, 2.0][..]));
        assert_eq!(x.row(1), (&[1u32][..], &[-1.5][..]));
        assert_eq!(x.row(2).0.len(), 0);
        // explicit zero not stored, but counted in the width
        assert_eq!(x.row(3), (&[4u32][..], &[1.0][..]));
    }

    #[test]
    fn unlabelled_lines_and_fixed_width() {
        let (x, y) = parse_str("1:1 2:2\n3:3\n", Some(10)).unwrap();
        assert!(y.is_none());
        assert_eq!((x.n_rows(), x.n_cols()), (2, 10));
    }

    #[test]
    fn index_above_n_features_names_index_and_width() {
        let e = err("1 1:1\n1 2:1 11:3\n", Some(10));
        assert!(
            e.contains("f.svm:2:7:") && e.contains("at most 10") && e.contains("\"11\""),
            "{e}"
        );
    }

    #[test]
    fn bad_tokens_name_line_and_column() {
        let cases: &[(&str, &str, &str)] = &[
            ("1 0:1\n", "f.svm:1:3:", "1-based"),
            ("1 2:1 2:3\n", "f.svm:1:7:", "above 2"),
            ("1 1:1\n1 3:1 2:3\n", "f.svm:2:7:", "strictly increasing"),
            ("1 1:abc\n", "f.svm:1:5:", "a number"),
            ("1 1:\n", "f.svm:1:5:", "a number"),
            ("1 1:nan\n", "f.svm:1:5:", "finite"),
            ("1 1:inf\n", "f.svm:1:5:", "finite"),
            ("1 1:1 0.5\n", "f.svm:1:7:", "index:value"),
            ("1 x:1\n", "f.svm:1:3:", "positive integer index"),
            ("1 -2:1\n", "f.svm:1:3:", "positive integer index"),
            ("1 1:1\n2:1\n", "f.svm:2:1:", "a label first, as on line 1"),
            ("1:1\n+1 2:1\n", "f.svm:2:1:", "no label, as on line 1"),
        ];
        for (text, at, expected) in cases {
            let e = err(text, None);
            assert!(e.contains(at) && e.contains(expected), "{text:?}: {e}");
        }
    }

    #[test]
    fn non_utf8_label_names_line_and_column() {
        let e = parse(b"1 1:1\n \xff 1:2\n", Path::new("f.svm"), None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("f.svm:2:2:") && e.contains("a UTF-8 label"),
            "{e}"
        );
    }

    #[test]
    fn empty_or_comment_only_file_is_invalid_data() {
        for text in ["", "\n\n", "# nothing\n  # here\n"] {
            let e = parse_str(text, None).unwrap_err();
            assert!(matches!(e, Error::InvalidData(_)));
            assert!(e.to_string().contains("f.svm"), "{e}");
        }
    }

    #[test]
    fn reads_vendored_heart_scale() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/heart_scale");
        let got = read(&path, None).unwrap();
        let RawInput::Matrix(Features::Sparse(x)) = &got.input else {
            panic!("expected a sparse matrix");
        };
        assert_eq!((x.n_rows(), x.n_cols()), (270, 13));
        let y = got.labels.unwrap();
        assert_eq!(y.len(), 270);
        let (classes, _) = crate::data::labels::encode(&y);
        assert_eq!(classes, vec![Label::Int(-1), Label::Int(1)]);
        assert_eq!(x.row(0).1[0], 0.708333);
        assert_eq!(got.source, path);
        let data = read_dataset(&path, Some(20)).unwrap();
        assert_eq!((data.n_samples(), data.n_features()), (270, 20));
        assert_eq!(data.classes(), &classes[..]);
    }

    #[test]
    fn streaming_read_equals_parsing_in_memory() {
        // CRLF endings, a comment line, a blank line and no final newline
        let text = "+1 1:0.5 3:2\r\n# note\r\n\r\n-1 2:1 qid:4 4:-3 # tail\r\n+1 4:1";
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("small.svm");
        std::fs::write(&path, text).unwrap();
        let read_back = read(&path, None).unwrap();
        let (x, labels) = parse(text.as_bytes(), &path, None).unwrap();
        let RawInput::Matrix(Features::Sparse(streamed)) = read_back.input else {
            panic!("a sparse matrix");
        };
        assert_eq!(streamed, x);
        assert_eq!(read_back.labels, labels);
        assert_eq!((x.n_rows(), x.n_cols(), x.nnz()), (3, 4, 5));
        // errors name the line as in memory
        std::fs::write(&path, "+1 1:1\n+1 2:x\n").unwrap();
        let e = read(&path, None).unwrap_err().to_string();
        assert!(e.contains("small.svm:2:6"), "{e}");
    }

    #[test]
    fn missing_file_is_io_error_naming_it() {
        let e = read(Path::new("/nonexistent/heart.svm"), None).unwrap_err();
        assert!(matches!(e, Error::Io { .. }));
        assert!(e.to_string().contains("/nonexistent/heart.svm"));
    }
}
