//! Opening the files hyperplane reads (data and model files): regular files only.
//!
//! A FIFO or a socket blocks until a writer comes and may never end; a device such as
//! `/dev/zero` or `/dev/urandom` never ends at all. Every reader therefore asks for a regular
//! file (symbolic links followed) and refuses the others with [`Error::NotAFile`] before
//! opening them; a folder of documents skips them with a warning. A whole file read into
//! memory is checked against the [memory budget](crate::memory) first.

use std::fs::{self, File, FileType};
use std::path::Path;

use crate::error::{Error, Result};

/// What a file type that is neither a regular file nor a folder is, in words; `None` for
/// regular files and folders.
pub fn special_kind(kind: &FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("FIFO (named pipe)");
        }
        if kind.is_char_device() {
            return Some("character device");
        }
        if kind.is_block_device() {
            return Some("block device");
        }
        if kind.is_socket() {
            return Some("socket");
        }
    }
    (!kind.is_file() && !kind.is_dir()).then_some("special file")
}

/// Checks that `path` is a regular file or a folder (following links), without opening it;
/// returns its size in bytes (0 for a folder).
pub fn check_regular(path: &Path) -> Result<u64> {
    let meta = fs::metadata(path).map_err(|e| Error::io(path, e))?;
    match special_kind(&meta.file_type()) {
        Some(kind) => Err(Error::NotAFile {
            path: path.to_path_buf(),
            kind,
        }),
        None => Ok(if meta.is_file() { meta.len() } else { 0 }),
    }
}

/// Opens the regular file `path` for reading.
pub fn open(path: &Path) -> Result<File> {
    check_regular(path)?;
    File::open(path).map_err(|e| Error::io(path, e))
}

/// Reads the whole regular file `path`, after checking its size against the memory budget.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    let size = check_regular(path)?;
    crate::memory::check_bytes(
        || format!("reading {} into memory", path.display()),
        Some(size),
    )?;
    fs::read(path).map_err(|e| Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_devices_and_reads_files() {
        #[cfg(unix)]
        for (path, kind) in [
            ("/dev/zero", "character device"),
            ("/dev/null", "character device"),
        ] {
            let e = read(Path::new(path)).unwrap_err().to_string();
            assert!(e.contains(path) && e.contains(kind), "{e}");
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        fs::write(&p, "x").unwrap();
        assert_eq!(read(&p).unwrap(), b"x");
        assert!(check_regular(dir.path()).is_ok());
        let e = open(&dir.path().join("absent")).unwrap_err().to_string();
        assert!(e.contains("absent"), "{e}");
    }
}
