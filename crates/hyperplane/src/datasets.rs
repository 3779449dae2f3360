//! Built-in data sets, compiled into the library so examples, the demo and tests need no
//! download and no file outside the repository.

use std::io::Read;
use std::path::PathBuf;

use crate::data::{Label, LabelledInput, RawInput};
use crate::error::{Error, Result};

/// The packed SpamAssassin corpus (see `data/spamassassin/README.md` for provenance and licence).
static SPAMASSASSIN_GZ: &[u8] = include_bytes!("../data/spamassassin/corpus.hpc.gz");

/// A labelled text corpus.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// The documents, decoded from bytes with invalid UTF-8 replaced (never an error).
    pub docs: Vec<String>,
    /// One label per document.
    pub labels: Vec<Label>,
    /// The group (sub-collection) of each document.
    pub groups: Vec<String>,
}

impl Corpus {
    /// The corpus as a reader's result, source `builtin:<name>`.
    pub fn into_input(self, name: &str) -> LabelledInput {
        LabelledInput {
            input: RawInput::Text(self.docs),
            labels: Some(self.labels),
            source: PathBuf::from(format!("builtin:{name}")),
        }
    }
}

/// The SpamAssassin public mail corpus, 2002-2003: 6,046 raw e-mails (headers and body),
/// 4,150 `ham` and 1,896 `spam`, in the order of the published index.
pub fn spamassassin() -> Result<Corpus> {
    let mut bytes = Vec::with_capacity(40 << 20);
    flate2::read::GzDecoder::new(SPAMASSASSIN_GZ)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::data(format!("built-in corpus is damaged: {e}")))?;
    parse_corpus(&bytes)
}

/// Parses the packed format: a `hyperplane-corpus 1` line, then per message a
/// `label\tgroup\tname\tn_bytes` line followed by exactly `n_bytes` bytes.
fn parse_corpus(bytes: &[u8]) -> Result<Corpus> {
    let damaged = |what: &str| Error::data(format!("built-in corpus is damaged: {what}"));
    let mut rest = bytes
        .strip_prefix(b"hyperplane-corpus 1\n".as_slice())
        .ok_or_else(|| damaged("missing header"))?;
    let mut corpus = Corpus {
        docs: Vec::new(),
        labels: Vec::new(),
        groups: Vec::new(),
    };
    while !rest.is_empty() {
        let eol = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| damaged("unterminated record header"))?;
        let head = std::str::from_utf8(&rest[..eol]).map_err(|_| damaged("record header"))?;
        let fields: Vec<&str> = head.split('\t').collect();
        let [label, group, _name, n] = fields[..] else {
            return Err(damaged("record header fields"));
        };
        let n: usize = n.parse().map_err(|_| damaged("record length"))?;
        let body = rest
            .get(eol + 1..eol + 1 + n)
            .ok_or_else(|| damaged("truncated message"))?;
        corpus.docs.push(String::from_utf8_lossy(body).into_owned());
        corpus.labels.push(Label::parse(label));
        corpus.groups.push(group.to_string());
        rest = &rest[eol + 1 + n..];
    }
    Ok(corpus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spamassassin_has_the_published_counts() {
        let c = spamassassin().unwrap();
        assert_eq!(c.docs.len(), 6046);
        let spam = c
            .labels
            .iter()
            .filter(|l| **l == Label::from("spam"))
            .count();
        assert_eq!((c.docs.len() - spam, spam), (4150, 1896));
        assert_eq!(c.groups.iter().filter(|g| *g == "hard-ham-1").count(), 250);
    }

    #[test]
    fn damaged_corpus_is_an_error() {
        assert!(parse_corpus(b"nope").is_err());
        assert!(parse_corpus(b"hyperplane-corpus 1\nham\tg\tn\t10\nshort").is_err());
        let ok = parse_corpus(b"hyperplane-corpus 1\nham\tg\tn\t3\n\xffab").unwrap();
        assert_eq!(ok.docs, vec!["\u{fffd}ab".to_string()]);
    }
}
