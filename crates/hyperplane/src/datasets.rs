//! Built-in data sets, compiled into the library so examples, the demo and tests need no
//! download and no file outside the repository.

use std::io::Read;
use std::path::{Path, PathBuf};

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
    parse_corpus(&unpacked()?)
}

/// Writes the SpamAssassin corpus to `dir` as a class folder, the layout `--data DIR`
/// reads: `dir/ham/NAME` and `dir/spam/NAME`, each message's bytes as published. `dir` is
/// created; it must not hold files already. Returns the number of messages written.
pub fn write_spamassassin(dir: &Path) -> Result<usize> {
    let io = |what: &Path, e: std::io::Error| Error::data(format!("{}: {e}", what.display()));
    if std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(Error::data(format!(
            "{}: the folder is not empty; name a new or empty one",
            dir.display()
        )));
    }
    let bytes = unpacked()?;
    let mut written = 0;
    for record in records(&bytes) {
        let record = record?;
        let folder = dir.join(record.label);
        std::fs::create_dir_all(&folder).map_err(|e| io(&folder, e))?;
        let path = folder.join(record.name);
        std::fs::write(&path, record.body).map_err(|e| io(&path, e))?;
        written += 1;
    }
    Ok(written)
}

/// The packed corpus, decompressed.
fn unpacked() -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(40 << 20);
    flate2::read::GzDecoder::new(SPAMASSASSIN_GZ)
        .read_to_end(&mut bytes)
        .map_err(|e| damaged(&e.to_string()))?;
    Ok(bytes)
}

fn damaged(what: &str) -> Error {
    Error::data(format!("built-in corpus is damaged: {what}"))
}

/// One message of the packed format.
struct Record<'a> {
    label: &'a str,
    group: &'a str,
    /// Its file name in the published corpus (unique within its label).
    name: &'a str,
    body: &'a [u8],
}

/// The messages of the packed format: a `hyperplane-corpus 1` line, then per message a
/// `label\tgroup\tname\tn_bytes` line followed by exactly `n_bytes` bytes.
fn records(bytes: &[u8]) -> impl Iterator<Item = Result<Record<'_>>> {
    let mut rest = bytes.strip_prefix(b"hyperplane-corpus 1\n".as_slice());
    let mut failed = rest.is_none();
    std::iter::from_fn(move || {
        if failed {
            failed = false;
            return Some(Err(damaged("missing header")));
        }
        let r = rest.take().filter(|r| !r.is_empty())?;
        let record = (|| {
            let eol = r
                .iter()
                .position(|&b| b == b'\n')
                .ok_or_else(|| damaged("unterminated record header"))?;
            let head = std::str::from_utf8(&r[..eol]).map_err(|_| damaged("record header"))?;
            let fields: Vec<&str> = head.split('\t').collect();
            let [label, group, name, n] = fields[..] else {
                return Err(damaged("record header fields"));
            };
            let n: usize = n.parse().map_err(|_| damaged("record length"))?;
            let end = (eol + 1)
                .checked_add(n)
                .filter(|&end| end <= r.len())
                .ok_or_else(|| damaged("truncated message"))?;
            let body = &r[eol + 1..end];
            let plain =
                |s: &str| !s.is_empty() && !s.contains(['/', '\\']) && s != "." && s != "..";
            if !plain(label) || !plain(name) {
                return Err(damaged("record name"));
            }
            rest = Some(&r[end..]);
            Ok(Record {
                label,
                group,
                name,
                body,
            })
        })();
        Some(record)
    })
}

/// Parses the packed format ([`records`]).
fn parse_corpus(bytes: &[u8]) -> Result<Corpus> {
    let mut corpus = Corpus {
        docs: Vec::new(),
        labels: Vec::new(),
        groups: Vec::new(),
    };
    for record in records(bytes) {
        let record = record?;
        corpus
            .docs
            .push(String::from_utf8_lossy(record.body).into_owned());
        corpus.labels.push(Label::parse(record.label));
        corpus.groups.push(record.group.to_string());
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
        let huge = parse_corpus(b"hyperplane-corpus 1\nham\tg\tn\t18446744073709551615\nab");
        assert!(huge.unwrap_err().to_string().contains("truncated"));
        let ok = parse_corpus(b"hyperplane-corpus 1\nham\tg\tn\t3\n\xffab").unwrap();
        assert_eq!(ok.docs, vec!["\u{fffd}ab".to_string()]);
        let escapes = parse_corpus(b"hyperplane-corpus 1\nham\tg\t../n\t1\na").unwrap_err();
        assert!(escapes.to_string().contains("record name"), "{escapes}");
    }

    #[test]
    fn the_corpus_is_written_as_a_class_folder_of_its_published_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let mail = dir.path().join("mail");
        assert_eq!(write_spamassassin(&mail).unwrap(), 6046);
        let count = |label: &str| std::fs::read_dir(mail.join(label)).unwrap().count();
        assert_eq!((count("ham"), count("spam")), (4150, 1896));
        let first = std::fs::read(mail.join("ham/00001.7c53336b37003a9286aba55d2945844c.txt"));
        assert_eq!(
            String::from_utf8_lossy(&first.unwrap()),
            spamassassin().unwrap().docs[0]
        );
        let again = write_spamassassin(&mail).unwrap_err().to_string();
        assert!(again.contains("not empty"), "{again}");
    }
}
