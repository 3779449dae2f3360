//! Documents: a `label<TAB>text` file, or a folder with one sub-folder per class.
//!
//! A TSV gives [`RawInput::Text`], one string per document. A folder gives
//! [`RawInput::Files`], the paths of its documents, not their text: a vectorizer reads each
//! file when it reaches it and drops it after tokenizing, so a corpus is never in memory
//! at once (see [`Documents`](crate::text::Documents)). Text is decoded with
//! `String::from_utf8_lossy`: a document with invalid UTF-8 (old e-mails often are) is read,
//! with U+FFFD for the bad bytes, never rejected.

use std::fs::{self, FileType};
use std::io::Read;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::data::file::special_kind;
use crate::data::input::{LabelledInput, RawInput};
use crate::data::labels::Label;
use crate::error::{Error, Result};

/// Reads a TSV of documents, one per line: `label<TAB>text`.
///
/// The label is the trimmed text before the first tab ([`Label::parse`]); the document is
/// everything after it. Blank lines are skipped and a trailing `\r` is dropped. A file with no
/// tab at all is unlabelled text, one document per line; otherwise a line without a tab is
/// an error.
pub fn read_tsv(path: &Path) -> Result<LabelledInput> {
    let bytes = crate::data::file::read(path)?;
    let (docs, labels) = parse_tsv(&bytes, path)?;
    Ok(LabelledInput {
        input: RawInput::Text(docs),
        labels,
        source: path.to_path_buf(),
    })
}

/// Parses TSV documents held in memory; `file` names the source in error messages.
pub fn parse_tsv(bytes: &[u8], file: &Path) -> Result<(Vec<String>, Option<Vec<Label>>)> {
    let labelled = bytes.contains(&b'\t');
    let mut docs = Vec::new();
    let mut labels = Vec::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        if line.trim_ascii().is_empty() {
            continue;
        }
        if !labelled {
            docs.push(String::from_utf8_lossy(line).into_owned());
            continue;
        }
        let parse_error = |column: usize, expected: &str, found: String| Error::Parse {
            file: file.to_path_buf(),
            line: i + 1,
            column,
            expected: expected.to_string(),
            found,
        };
        let Some(tab) = line.iter().position(|&b| b == b'\t') else {
            let shown: String = String::from_utf8_lossy(line).chars().take(40).collect();
            return Err(parse_error(
                1,
                "label<TAB>text",
                format!("a line with no tab: {shown:?}"),
            ));
        };
        let label = String::from_utf8_lossy(&line[..tab]);
        if label.trim().is_empty() {
            return Err(parse_error(
                1,
                "a label before the tab",
                "an empty label".into(),
            ));
        }
        labels.push(Label::parse(&label));
        docs.push(String::from_utf8_lossy(&line[tab + 1..]).into_owned());
    }
    if docs.is_empty() {
        return Err(Error::data(format!(
            "{} has no documents (it is empty or blank)",
            file.display()
        )));
    }
    Ok((docs, labelled.then_some(labels)))
}

/// Reads a folder of documents, one file per document.
///
/// With sub-folders, each non-hidden sub-folder is a class named by its folder name
/// ([`Label::parse`]) and holds that class's documents, including those in nested folders;
/// files directly in `path` are then ignored (a README or index beside the classes). Without
/// sub-folders, the files in `path` are unlabelled documents. Hidden entries (name starting
/// with `.`) are skipped, and so are FIFOs, devices and sockets, with a warning. Classes are taken in name order and files in path order, so the
/// result is deterministic. The files are only listed (their text is read when vectorized):
/// a file that cannot be read is reported then, naming it.
pub fn read_dir(path: &Path) -> Result<LabelledInput> {
    let (folders, entries): (Vec<Entry>, Vec<Entry>) =
        list(path)?.into_iter().partition(|e| e.is_dir);
    let (files, labels) = if folders.is_empty() {
        (entries, None)
    } else {
        let mut files = Vec::new();
        let mut labels = Vec::new();
        for folder in &folders {
            collect_files(&folder.path, &mut files)?;
            let name = folder
                .path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy();
            labels.resize(files.len(), Label::parse(&name));
        }
        (files, Some(labels))
    };
    if files.is_empty() {
        return Err(Error::data(format!(
            "{} holds no documents (no non-hidden files{})",
            path.display(),
            if folders.is_empty() {
                ""
            } else {
                " in its class folders"
            }
        )));
    }
    Ok(LabelledInput {
        input: RawInput::Files(files.into_iter().map(|e| e.path).collect()),
        labels,
        source: path.to_path_buf(),
    })
}

/// Reads the file `path` into `buf` (cleared first; its capacity is kept, so a thread
/// reading many documents allocates only for the largest). `take` turns the read into the
/// plain read-until-end loop, saving the `stat` and `lseek` that `File::read_to_end` spends
/// on a size hint (the limit is never reached).
pub(crate) fn read_document(path: &Path, buf: &mut Vec<u8>) -> Result<()> {
    buf.clear();
    fs::File::open(path)
        .and_then(|f| f.take(u64::MAX).read_to_end(buf))
        .map_err(|e| Error::io(path, e))?;
    Ok(())
}

/// A listed file or folder (symbolic links followed).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    path: PathBuf,
    is_dir: bool,
}

/// The non-hidden regular files and folders of `dir` in path order. Whether an entry is a
/// folder comes from the directory listing itself (no system call on most file systems);
/// only symbolic links are followed with a `stat`, in parallel. FIFOs, devices and sockets
/// are skipped with a warning on stderr (reading one could block or never end).
fn list(dir: &Path) -> Result<Vec<Entry>> {
    let mut entries = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let kind = entry.file_type().map_err(|e| Error::io(entry.path(), e))?;
        // `None`: a link, resolved below.
        let kind = (!kind.is_symlink()).then_some(kind);
        entries.push((entry.file_name(), entry.path(), kind));
    }
    // one folder's entries: path order is the order of their names' bytes (a memcmp, where
    // comparing paths walks their components)
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let typed: Vec<(PathBuf, FileType)> = entries
        .into_par_iter()
        .map(|(_, path, kind)| match kind {
            Some(kind) => Ok((path, kind)),
            None => match fs::metadata(&path) {
                Ok(m) => Ok((path, m.file_type())),
                Err(e) => Err(Error::io(&path, e)),
            },
        })
        .collect::<Result<_>>()?;
    let mut listed = Vec::with_capacity(typed.len());
    for (path, kind) in typed {
        match special_kind(&kind) {
            Some(what) => eprintln!(
                "warning: skipping {}: a {what}, not a document file",
                path.display()
            ),
            None => listed.push(Entry {
                is_dir: kind.is_dir(),
                path,
            }),
        }
    }
    Ok(listed)
}

/// Appends the files under `dir` (recursively, in path order) to `out`.
fn collect_files(dir: &Path, out: &mut Vec<Entry>) -> Result<()> {
    for entry in list(dir)? {
        if entry.is_dir {
            collect_files(&entry.path, out)?;
        } else {
            out.push(entry);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of each document of a folder's input: its file read by [`read_document`]
    /// and decoded lossily, as the vectorizers' document files do.
    fn texts(input: &RawInput) -> Vec<String> {
        let RawInput::Files(files) = input else {
            panic!("a folder gives files, not {input:?}")
        };
        let mut buf = Vec::new();
        files
            .iter()
            .map(|path| {
                read_document(path, &mut buf).unwrap();
                String::from_utf8_lossy(&buf).into_owned()
            })
            .collect()
    }

    fn tsv(s: &[u8]) -> Result<(Vec<String>, Option<Vec<Label>>)> {
        parse_tsv(s, Path::new("docs.tsv"))
    }

    #[test]
    fn tsv_labels_and_text_after_first_tab() {
        let (docs, labels) = tsv(b"spam\tWin\tnow\r\n\nham\thello there\n1\t\n").unwrap();
        assert_eq!(docs, ["Win\tnow", "hello there", ""]);
        assert_eq!(
            labels.unwrap(),
            vec![Label::from("spam"), Label::from("ham"), Label::Int(1)]
        );
    }

    #[test]
    fn tsv_without_tabs_is_unlabelled() {
        let (docs, labels) = tsv(b"first doc\n\nsecond \xff doc\n").unwrap();
        assert!(labels.is_none());
        assert_eq!(docs, ["first doc", "second \u{fffd} doc"]);
    }

    #[test]
    fn tsv_line_without_tab_names_line() {
        let e = tsv(b"ham\thi\nno tab here\n").unwrap_err().to_string();
        assert!(
            e.contains("docs.tsv:2:1:")
                && e.contains("expected label<TAB>text")
                && e.contains("no tab here"),
            "{e}"
        );
        let e = tsv(b"ham\thi\n \tlost\n").unwrap_err().to_string();
        assert!(
            e.contains("docs.tsv:2:1:") && e.contains("a label before the tab"),
            "{e}"
        );
    }

    #[test]
    fn empty_tsv_is_invalid_data() {
        let e = tsv(b"\n \n").unwrap_err();
        assert!(matches!(e, Error::InvalidData(_)));
        assert!(e.to_string().contains("docs.tsv"), "{e}");
    }

    #[test]
    fn read_tsv_from_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d.tsv");
        fs::write(&p, "a\tx\nb\ty\n").unwrap();
        let got = read_tsv(&p).unwrap();
        assert_eq!(got.input, RawInput::Text(vec!["x".into(), "y".into()]));
        assert_eq!(got.source, p);
        let e = read_tsv(&dir.path().join("absent.tsv")).unwrap_err();
        assert!(matches!(e, Error::Io { .. }) && e.to_string().contains("absent.tsv"));
    }

    #[test]
    fn class_folders_sorted_hidden_skipped_bytes_lossy() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for sub in ["spam", "ham", ".git", "ham/nested"] {
            fs::create_dir_all(root.join(sub)).unwrap();
        }
        fs::write(root.join("spam/b.eml"), b"buy \xff\xfe now").unwrap();
        fs::write(root.join("spam/a.eml"), "cheap").unwrap();
        fs::write(root.join("ham/z.eml"), "hello").unwrap();
        fs::write(root.join("ham/nested/m.eml"), "nested").unwrap();
        fs::write(root.join("ham/.DS_Store"), "junk").unwrap();
        fs::write(root.join(".git/config"), "junk").unwrap();
        fs::write(root.join("README"), "ignored beside class folders").unwrap();
        let got = read_dir(root).unwrap();
        assert_eq!(
            texts(&got.input),
            ["nested", "hello", "cheap", "buy \u{fffd}\u{fffd} now"]
        );
        assert_eq!(
            got.labels.unwrap(),
            vec!["ham".into(), "ham".into(), "spam".into(), "spam".into()]
        );
    }

    #[test]
    fn numeric_class_folders_become_integer_labels() {
        let dir = tempfile::tempdir().unwrap();
        for (c, f) in [("0", "a"), ("1", "b")] {
            fs::create_dir(dir.path().join(c)).unwrap();
            fs::write(dir.path().join(c).join(f), f).unwrap();
        }
        let got = read_dir(dir.path()).unwrap();
        assert_eq!(got.labels.unwrap(), vec![Label::Int(0), Label::Int(1)]);
    }

    #[test]
    fn flat_folder_is_unlabelled() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("2.txt"), "two").unwrap();
        fs::write(dir.path().join("1.txt"), "one").unwrap();
        fs::write(dir.path().join(".hidden"), "no").unwrap();
        let got = read_dir(dir.path()).unwrap();
        assert!(got.labels.is_none());
        assert_eq!(got.input.n_rows(), 2);
        assert_eq!(texts(&got.input), ["one", "two"]);
    }

    #[test]
    fn empty_folders_are_invalid_data_naming_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_dir(dir.path()).unwrap_err();
        assert!(matches!(e, Error::InvalidData(_)));
        assert!(
            e.to_string().contains(&dir.path().display().to_string()),
            "{e}"
        );
        fs::create_dir(dir.path().join("spam")).unwrap();
        let e = read_dir(dir.path()).unwrap_err().to_string();
        assert!(e.contains("class folders"), "{e}");
        let e = read_dir(&dir.path().join("absent")).unwrap_err();
        assert!(matches!(e, Error::Io { .. }));
    }

    #[cfg(unix)]
    #[test]
    fn sockets_and_other_special_files_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("ham")).unwrap();
        fs::write(dir.path().join("ham/a.txt"), "hello").unwrap();
        let _socket =
            std::os::unix::net::UnixListener::bind(dir.path().join("ham/b.sock")).unwrap();
        let got = read_dir(dir.path()).unwrap();
        let RawInput::Files(files) = &got.input else {
            unreachable!()
        };
        assert_eq!(files, &[dir.path().join("ham/a.txt")]);
    }

    #[test]
    fn a_file_gone_after_listing_is_an_io_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("ham")).unwrap();
        let gone = dir.path().join("ham/gone.txt");
        fs::write(dir.path().join("ham/kept.txt"), "kept").unwrap();
        fs::write(&gone, "soon gone").unwrap();
        let got = read_dir(dir.path()).unwrap();
        fs::remove_file(&gone).unwrap();
        let RawInput::Files(files) = &got.input else {
            unreachable!()
        };
        let mut buf = Vec::new();
        let e = read_document(&files[0], &mut buf).unwrap_err();
        assert!(matches!(e, Error::Io { .. }));
        assert!(e.to_string().contains(&gone.display().to_string()), "{e}");
    }
}
