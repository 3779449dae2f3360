//! The folder reader (`data::read::read` of a folder) and the documents it lists through
//! the count vectorizer, which reads each file.
//!
//! The input is cut at NUL bytes into at most 16 files, each `FLAGS NAME \n CONTENT`:
//! NAME (bytes, fuzzed) is the class folder, the bits of FLAGS put the file at the top
//! instead, in a nested folder, or hidden. The tree is written to a fresh folder of a temporary
//! directory for each input.
#![no_main]

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use hyperplane::data::read::{self, Format, ReadOptions};
use hyperplane::data::RawInput;
use hyperplane::text::{CountVectorizer, DocumentFiles};
use libfuzzer_sys::fuzz_target;

/// The temporary directory of this process, removed when it exits normally.
fn scratch() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let shm = Path::new("/dev/shm");
        let base = if shm.is_dir() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        tempfile::Builder::new()
            .prefix("hyperplane-fuzz-folder")
            .tempdir_in(base)
            .expect("a temporary directory")
    })
    .path()
}

/// A file or folder name from fuzzed bytes: `fallback` when it is not a usable name.
fn name(bytes: &[u8], fallback: &str) -> PathBuf {
    let usable = !bytes.is_empty() && bytes.len() <= 64 && !bytes.contains(&b'/');
    let name = OsStr::from_bytes(bytes);
    if usable && name != "." && name != ".." {
        PathBuf::from(name)
    } else {
        PathBuf::from(fallback)
    }
}

/// Writes the files of `data` under `root`.
fn write_tree(root: &Path, data: &[u8]) {
    for (i, chunk) in data.split(|&b| b == 0).take(16).enumerate() {
        let (flags, rest) = hyperplane_fuzz::split_first(chunk);
        let (class, content) = match rest.iter().position(|&b| b == b'\n') {
            Some(end) => (&rest[..end], &rest[end + 1..]),
            None => (&rest[..0], rest),
        };
        let mut dir = root.to_path_buf();
        if flags & 1 == 0 {
            dir.push(name(class, &format!("c{}", flags >> 4 & 3)));
        }
        if flags & 2 != 0 {
            dir.push("nested");
        }
        let file = if flags & 4 != 0 {
            format!(".f{i}")
        } else {
            format!("f{i}")
        };
        // a name that is already a file, as a folder, fails: the input is skipped
        if fs::create_dir_all(&dir).is_err() || fs::write(dir.join(file), content).is_err() {
            return;
        }
    }
}

fuzz_target!(|data: &[u8]| {
    hyperplane_fuzz::init();
    let root = scratch().join("data");
    let _ = fs::remove_dir_all(&root);
    fs::create_dir(&root).expect("the scratch folder");
    write_tree(&root, data);
    let opts = ReadOptions {
        format: Some(Format::Dir),
        ..ReadOptions::default()
    };
    if let Ok(input) = read::read(&root, &opts) {
        if let RawInput::Files(files) = &input.input {
            let _ = CountVectorizer::new().fit_transform(&DocumentFiles(files));
        }
    }
});
