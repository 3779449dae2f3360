//! Model files: a versioned JSON envelope around serde data, written atomically.
//!
//! ```text
//! {"format": "hyperplane-model", "format_version": 1, "model_kind": "multinomial-nb",
//!  "crate_version": "0.1.0", "model": { ... }}
//! ```
//!
//! Saving writes a temporary file in the target's folder, fsyncs it, renames it over the
//! target and fsyncs the folder, so a crash leaves either the old file or the new one,
//! never a mix. Loading rejects, each with its own message: a file that is not JSON or is
//! truncated, a JSON file that is not a hyperplane model, a format version newer than this
//! build reads, and a model of another kind than the caller expects.
//!
//! JSON has no infinities, yet fitted models may hold `-inf` (the log of a zero
//! probability when smoothing is off): fields that can be non-finite use
//! [`nonfinite`] so they survive the round trip bit for bit.

pub mod nonfinite;

use std::fs::{self, File};
use std::io::Write;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The `format` field of every hyperplane model file.
pub const FORMAT_NAME: &str = "hyperplane-model";
/// The envelope version this build writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Serialize)]
struct EnvelopeOut<'a, T> {
    format: &'a str,
    format_version: u32,
    model_kind: &'a str,
    crate_version: &'a str,
    model: &'a T,
}

#[derive(Deserialize)]
struct EnvelopeHead {
    format: Option<String>,
    format_version: Option<u32>,
    model_kind: Option<String>,
    crate_version: Option<String>,
}

#[derive(Deserialize)]
struct EnvelopeIn<T> {
    model: T,
}

/// What a model file says about itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileInfo {
    pub format_version: u32,
    pub model_kind: String,
    pub crate_version: String,
}

/// Writes `model` to `path` in the envelope, atomically.
pub fn save<T: Serialize>(path: &Path, model_kind: &str, model: &T) -> Result<()> {
    let envelope = EnvelopeOut {
        format: FORMAT_NAME,
        format_version: FORMAT_VERSION,
        model_kind,
        crate_version: env!("CARGO_PKG_VERSION"),
        model,
    };
    let bytes = serde_json::to_vec(&envelope).map_err(|e| Error::ModelFile {
        path: path.to_path_buf(),
        reason: format!("cannot serialize the model: {e}"),
    })?;
    write_atomically(path, &bytes)
}

/// Reads a model file written by [`save`], checking the envelope first.
pub fn load<T: DeserializeOwned>(path: &Path) -> Result<(FileInfo, T)> {
    let bytes = fs::read(path).map_err(|e| Error::io(path, e))?;
    let info = read_head(path, &bytes)?;
    let body: EnvelopeIn<T> = serde_json::from_slice(&bytes).map_err(|e| Error::ModelFile {
        path: path.to_path_buf(),
        reason: format!(
            "the {} model inside is damaged or from an incompatible build: {e}",
            info.model_kind
        ),
    })?;
    Ok((info, body.model))
}

fn read_head(path: &Path, bytes: &[u8]) -> Result<FileInfo> {
    let fail = |reason: String| Error::ModelFile {
        path: path.to_path_buf(),
        reason,
    };
    if bytes.is_empty() {
        return Err(fail("the file is empty".into()));
    }
    let head: EnvelopeHead = serde_json::from_slice(bytes).map_err(|e| {
        if e.is_eof() {
            fail("the file is truncated (it ends in the middle of the JSON)".into())
        } else {
            fail(format!("not a hyperplane model file (not valid JSON: {e})"))
        }
    })?;
    match head.format.as_deref() {
        Some(FORMAT_NAME) => {}
        Some(other) => {
            return Err(fail(format!(
                "not a hyperplane model file (format {other:?}, expected {FORMAT_NAME:?})"
            )))
        }
        None => {
            return Err(fail(format!(
                "not a hyperplane model file (no \"format\": {FORMAT_NAME:?} field)"
            )))
        }
    }
    let version = head
        .format_version
        .ok_or_else(|| fail("the envelope has no format_version".into()))?;
    if version > FORMAT_VERSION {
        return Err(fail(format!(
            "written by a newer hyperplane ({}; model format version {version}); this build ({}) reads up to version {FORMAT_VERSION}",
            head.crate_version.as_deref().unwrap_or("unknown version"),
            env!("CARGO_PKG_VERSION")
        )));
    }
    Ok(FileInfo {
        format_version: version,
        model_kind: head
            .model_kind
            .ok_or_else(|| fail("the envelope has no model_kind".into()))?,
        crate_version: head.crate_version.unwrap_or_default(),
    })
}

/// Writes `bytes` to `path` so that readers see either the old file or the new one:
/// temporary file in the same folder, fsync, rename, fsync of the folder.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| Error::data(format!("{} is not a file path", path.display())))?;
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        // Make the rename itself durable; not every platform can open a folder.
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e: std::io::Error| {
        let _ = fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Toy {
        w: Vec<f64>,
    }

    #[test]
    fn round_trip_and_envelope_errors() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.json");
        let toy = Toy {
            w: vec![0.1, 1.0 / 3.0, -2.5e-300],
        };
        save(&p, "toy", &toy).unwrap();
        let (info, back): (FileInfo, Toy) = load(&p).unwrap();
        assert_eq!(back, toy);
        assert_eq!(info.model_kind, "toy");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temp file left"
        );

        let text = fs::read_to_string(&p).unwrap();
        let err = |content: &str| {
            fs::write(&p, content).unwrap();
            load::<Toy>(&p).unwrap_err().to_string()
        };
        assert!(err(&text[..text.len() / 2]).contains("truncated"));
        assert!(err("").contains("empty"));
        assert!(err("hello").contains("not valid JSON"));
        assert!(err(r#"{"format":"other"}"#).contains("not a hyperplane model"));
        let newer = text.replace("\"format_version\":1", "\"format_version\":99");
        assert!(err(&newer).contains("newer"));
        let damaged = text.replace("\"w\"", "\"v\"");
        assert!(err(&damaged).contains("damaged"));
    }

    #[test]
    fn missing_folder_is_an_io_error() {
        let e = save(Path::new("/nonexistent-dir/m.json"), "toy", &1).unwrap_err();
        assert!(e.to_string().contains("/nonexistent-dir/m.json"));
    }
}
