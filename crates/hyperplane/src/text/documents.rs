//! Where the vectorizers read documents from: strings in memory, or files read one at a time.
//!
//! A vectorizer only ever needs one document at a time per thread, so a corpus read from a
//! folder need not be in memory at once. [`Documents`] gives document `i` as a `&str` to a
//! closure; [`DocumentFiles`] reads it from its file into a buffer the thread reuses, so the
//! memory a fit needs is its term table and matrix plus one document per thread, not the
//! corpus (on the SpamAssassin corpus the peak drops by the 25 MiB of training text). Both
//! sources give the same matrix for the same text. The cost is that each pass over a
//! [`DocumentFiles`] reads the files again (from the page cache after the first).

use std::convert::Infallible;
use std::ops::Range;
use std::path::PathBuf;

use rayon::prelude::*;

use crate::data::text_files::read_document;
use crate::error::Error;

/// An indexed collection of documents.
///
/// Implemented for slices, arrays and vectors of strings (reading them cannot fail:
/// `Error = Infallible`) and for [`DocumentFiles`].
pub trait Documents: Sync {
    /// What reading a document can fail with.
    type Error: Into<Error> + Send;

    /// Number of documents.
    fn len(&self) -> usize;

    /// True when there are no documents.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` with the text of document `i < len()`. `buf` is scratch space the caller
    /// keeps across calls (a file is read into it).
    fn with_text<R>(
        &self,
        i: usize,
        buf: &mut Vec<u8>,
        f: impl FnOnce(&str) -> R,
    ) -> Result<R, Self::Error>;
}

/// Reading a string never fails, so the conversion is never called.
impl From<Infallible> for Error {
    fn from(never: Infallible) -> Self {
        match never {}
    }
}

impl<D: AsRef<str> + Sync> Documents for [D] {
    type Error = Infallible;
    fn len(&self) -> usize {
        <[D]>::len(self)
    }
    #[inline]
    fn with_text<R>(
        &self,
        i: usize,
        _: &mut Vec<u8>,
        f: impl FnOnce(&str) -> R,
    ) -> Result<R, Infallible> {
        Ok(f(self[i].as_ref()))
    }
}

impl<D: AsRef<str> + Sync, const N: usize> Documents for [D; N] {
    type Error = Infallible;
    fn len(&self) -> usize {
        N
    }
    #[inline]
    fn with_text<R>(
        &self,
        i: usize,
        buf: &mut Vec<u8>,
        f: impl FnOnce(&str) -> R,
    ) -> Result<R, Infallible> {
        self.as_slice().with_text(i, buf, f)
    }
}

impl<D: AsRef<str> + Sync> Documents for Vec<D> {
    type Error = Infallible;
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    #[inline]
    fn with_text<R>(
        &self,
        i: usize,
        buf: &mut Vec<u8>,
        f: impl FnOnce(&str) -> R,
    ) -> Result<R, Infallible> {
        self.as_slice().with_text(i, buf, f)
    }
}

/// Documents stored one per file ([`RawInput::Files`](crate::data::RawInput::Files)), read
/// when a vectorizer reaches them.
///
/// Text is decoded as by the folder reader: valid UTF-8 as is, anything else with
/// `String::from_utf8_lossy` (U+FFFD for the bad bytes). A file that cannot be read is an
/// [`Error::Io`] naming it.
#[derive(Clone, Copy, Debug)]
pub struct DocumentFiles<'a>(pub &'a [PathBuf]);

impl Documents for DocumentFiles<'_> {
    type Error = Error;
    fn len(&self) -> usize {
        self.0.len()
    }
    fn with_text<R>(
        &self,
        i: usize,
        buf: &mut Vec<u8>,
        f: impl FnOnce(&str) -> R,
    ) -> Result<R, Error> {
        read_document(&self.0[i], buf)?;
        Ok(match std::str::from_utf8(buf) {
            Ok(text) => f(text),
            Err(_) => f(&String::from_utf8_lossy(buf)),
        })
    }
}

/// The index ranges of about `per_thread` parallel tasks per thread over `n` documents, in
/// order.
pub(crate) fn chunks(
    n: usize,
    per_thread: usize,
) -> impl IndexedParallelIterator<Item = Range<usize>> {
    let len = n.div_ceil(rayon::current_num_threads() * per_thread).max(1);
    (0..n.div_ceil(len))
        .into_par_iter()
        .map(move |c| c * len..((c + 1) * len).min(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_every_index_once_in_order() {
        for n in [0, 1, 7, 100, 1001] {
            let ranges: Vec<Range<usize>> = chunks(n, 4).collect();
            let all: Vec<usize> = ranges.into_iter().flatten().collect();
            assert_eq!(all, (0..n).collect::<Vec<_>>(), "n = {n}");
        }
    }

    #[test]
    fn files_read_lossy_and_name_the_unreadable_file() {
        let dir = tempfile::tempdir().unwrap();
        let (good, bad) = (dir.path().join("good"), dir.path().join("bad"));
        std::fs::write(&good, b"caf\xc3\xa9 \xff!").unwrap();
        let files = [good, bad.clone()];
        let docs = DocumentFiles(&files);
        assert_eq!(docs.len(), 2);
        let mut buf = Vec::new();
        let text = docs.with_text(0, &mut buf, str::to_string).unwrap();
        assert_eq!(text, "café \u{fffd}!");
        let e = docs.with_text(1, &mut buf, |_| ()).unwrap_err();
        assert!(matches!(e, Error::Io { .. }));
        assert!(e.to_string().contains(&bad.display().to_string()), "{e}");
    }
}
