//! Model files: a versioned JSON envelope around serde data, written atomically.
//!
//! ```text
//! {"format": "hyperplane-model", "format_version": 1, "model_kind": "multinomial-nb",
//!  "crate_version": "0.1.0", "model": { ... }}
//! ```
//!
//! Saving writes a temporary file in the target's folder, fsyncs it, renames it over the
//! target and fsyncs the folder, so a crash leaves either the old file or the new one,
//! never a mix. A failed write (a full disk, say) removes its temporary file, leaves the
//! target as it was and names the target, the step and the cause. Loading rejects, each
//! with its own message: a file that is not JSON or is truncated, a JSON file that is not
//! a hyperplane model, a format version newer than this build reads, and a model of
//! another kind than the caller expects.
//!
//! The temporary file of target `m.json` is `.m.json.hyperplane-tmp.<pid>.<n>` (`n`
//! counts the process's saves). A process killed mid-write leaves its temporary file
//! behind; the next save of the same target removes those of processes no longer running
//! (on Linux, where `/proc` tells) and any not modified for a day, and leaves every other
//! file alone.
//!
//! JSON has no infinities, yet fitted models may hold `-inf` (the log of a zero
//! probability when smoothing is off): fields that can be non-finite use
//! [`nonfinite`] so they survive the round trip bit for bit.

pub mod nonfinite;

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

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

impl<'a, T> EnvelopeOut<'a, T> {
    /// The envelope this build writes around `model` of kind `model_kind`.
    fn of(model_kind: &'a str, model: &'a T) -> Self {
        EnvelopeOut {
            format: FORMAT_NAME,
            format_version: FORMAT_VERSION,
            model_kind,
            crate_version: env!("CARGO_PKG_VERSION"),
            model,
        }
    }
}

/// Writes `model` to `path` in the envelope, atomically.
pub fn save<T: Serialize>(path: &Path, model_kind: &str, model: &T) -> Result<()> {
    let envelope = EnvelopeOut::of(model_kind, model);
    write_atomically_with(path, |w| {
        serde_json::to_writer(w, &envelope).map_err(io::Error::from)
    })
}

/// The bytes [`save`] writes, in memory (for a host that stores models itself: a pickle,
/// a Spark model folder); [`load_bytes`] reads them back.
pub fn to_bytes<T: Serialize>(model_kind: &str, model: &T) -> Result<Vec<u8>> {
    serde_json::to_vec(&EnvelopeOut::of(model_kind, model))
        .map_err(|e| Error::data(format!("the {model_kind} model cannot be written: {e}")))
}

/// Reads a model file written by [`save`], checking the envelope first.
pub fn load<T: DeserializeOwned>(path: &Path) -> Result<(FileInfo, T)> {
    load_bytes(&crate::data::file::read(path)?, path)
}

/// [`load`] of a model file's bytes held in memory; `path` names it in error messages.
pub fn load_bytes<T: DeserializeOwned>(bytes: &[u8], path: &Path) -> Result<(FileInfo, T)> {
    let info = read_head(path, bytes)?;
    let body: EnvelopeIn<T> = serde_json::from_slice(bytes).map_err(|e| Error::ModelFile {
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
    write_atomically_with(path, |w| w.write_all(bytes))
}

/// Marks our temporary files: `.<target name>` + this + `.<pid>.<n>`.
const TMP_MARK: &str = ".hyperplane-tmp.";

/// A temporary file of ours this old is stale whatever its process.
const STALE_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// The saves this process has started, numbering its temporary files.
static SAVES: AtomicU64 = AtomicU64::new(0);

/// [`write_atomically`] with the content written by `write` into the temporary file.
fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| Error::data(format!("{} is not a file path", path.display())))?;
    remove_stale_temporaries(&dir, name);
    let tmp_name = format!(
        ".{}{TMP_MARK}{}.{}",
        name.to_string_lossy(),
        std::process::id(),
        SAVES.fetch_add(1, Ordering::Relaxed)
    );
    let tmp = dir.join(&tmp_name);
    let fail = |what: String, e: io::Error| {
        let _ = fs::remove_file(&tmp);
        let kept = if path.exists() {
            "the file there is unchanged"
        } else {
            "nothing was saved"
        };
        Error::io(
            path,
            io::Error::new(e.kind(), format!("{what}: {e}; {kept}")),
        )
    };
    let mut w = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map(BufWriter::new)
        .map_err(|e| {
            fail(
                format!("cannot create the temporary file {tmp_name} beside it"),
                e,
            )
        })?;
    let written = write(&mut w)
        .and_then(|()| w.into_inner().map_err(io::IntoInnerError::into_error))
        .and_then(|f| f.sync_all());
    written.map_err(|e| fail(format!("cannot write the temporary file {tmp_name}"), e))?;
    fs::rename(&tmp, path).map_err(|e| fail(format!("cannot rename {tmp_name} over it"), e))?;
    // Make the rename itself durable; not every platform can open a folder.
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Removes, best effort, the temporary files of target `name` in `dir` that no save is
/// still writing: their process has ended, or they have not changed for [`STALE_AGE`].
fn remove_stale_temporaries(dir: &Path, name: &OsStr) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{}{TMP_MARK}", name.to_string_lossy());
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_string_lossy()
            .strip_prefix(&prefix)
            .and_then(temporary_pid)
        else {
            continue;
        };
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age >= STALE_AGE));
        if old || process_ended(pid) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The pid of a temporary file's `<pid>.<n>` suffix; `None` for any other name.
fn temporary_pid(suffix: &str) -> Option<u32> {
    let (pid, n) = suffix.split_once('.')?;
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (number(pid) && number(n)).then(|| pid.parse().ok())?
}

/// Whether process `pid` is known to have ended (on Linux, by `/proc`; elsewhere never).
fn process_ended(pid: u32) -> bool {
    cfg!(target_os = "linux")
        && Path::new("/proc/self").exists()
        && !Path::new("/proc").join(pid.to_string()).exists()
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

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_save_removes_only_stale_temporary_files_of_its_own_target() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.json");
        let ended = u32::MAX; // above any pid_max
        let me = std::process::id();
        let touch = |name: String| {
            fs::write(dir.path().join(&name), "partial").unwrap();
            name
        };
        let dead = touch(format!(".m.json{TMP_MARK}{ended}.3"));
        let live = touch(format!(".m.json{TMP_MARK}{me}.999999"));
        let old = touch(format!(".m.json{TMP_MARK}{me}.999998"));
        File::options()
            .write(true)
            .open(dir.path().join(&old))
            .unwrap()
            .set_modified(SystemTime::now() - STALE_AGE - Duration::from_secs(60))
            .unwrap();
        let kept = [
            touch(format!(".n.json{TMP_MARK}{ended}.0")), // another target's
            touch(format!(".m.json{TMP_MARK}notes")),
            touch(format!(".m.json{TMP_MARK}{ended}.0.bak")),
            touch(format!(".m.json{TMP_MARK}+{ended}.0")),
            touch(format!(".m.json.tmp{ended}")),
        ];
        save(&p, "toy", &1).unwrap();
        let left = names(dir.path());
        if cfg!(target_os = "linux") {
            assert!(!left.contains(&dead), "{left:?}");
        }
        assert!(!left.contains(&old), "{left:?}");
        assert!(left.contains(&live), "{left:?}");
        for k in &kept {
            assert!(left.contains(k), "{k} removed: {left:?}");
        }
        assert!(left.contains(&"m.json".to_string()));
        assert_eq!(
            left.iter()
                .filter(|n| n.contains(&format!("{TMP_MARK}{me}.")))
                .count(),
            1,
            "only the live one of this process: {left:?}"
        );
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.json");
        save(&p, "toy", &Toy { w: vec![1.0] }).unwrap();
        let before = fs::read(&p).unwrap();
        let e = write_atomically_with(&p, |w| {
            w.write_all(b"{\"format\": \"hyperplane-mo")?;
            Err(io::Error::new(
                io::ErrorKind::StorageFull,
                "no space left on device",
            ))
        })
        .unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with(&p.display().to_string()), "{text}");
        for part in [
            "cannot write the temporary file",
            "no space left",
            "unchanged",
        ] {
            assert!(text.contains(part), "{part}: {text}");
        }
        assert!(
            matches!(&e, Error::Io { source, .. } if source.kind() == io::ErrorKind::StorageFull)
        );
        assert_eq!(fs::read(&p).unwrap(), before);
        assert_eq!(
            names(dir.path()),
            ["m.json"],
            "the temporary file is removed"
        );

        // a new target that cannot be written leaves nothing behind either
        let q = dir.path().join("new.json");
        let e = write_atomically_with(&q, |_| Err(io::ErrorKind::StorageFull.into())).unwrap_err();
        assert!(e.to_string().contains("nothing was saved"), "{e}");
        assert_eq!(names(dir.path()), ["m.json"]);

        // so does a rename that fails: the target is a folder
        fs::create_dir(&q).unwrap();
        let e = save(&q, "toy", &1).unwrap_err().to_string();
        assert!(
            e.contains("cannot rename") && e.contains("unchanged"),
            "{e}"
        );
        assert_eq!(names(dir.path()), ["m.json", "new.json"]);
    }

    #[test]
    fn missing_folder_is_an_io_error() {
        let e = save(Path::new("/nonexistent-dir/m.json"), "toy", &1).unwrap_err();
        assert!(e.to_string().contains("/nonexistent-dir/m.json"));
    }
}
