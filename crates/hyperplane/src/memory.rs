//! The memory budget: work whose size comes from input (a file's width, a parameter, a
//! command-line argument) is checked against it before anything is allocated, so an absurd
//! size is one clear error, not an abort or a machine that swaps.
//!
//! The budget is the [context](crate::context)'s ([`Context::memory_budget`]; the command
//! line's `--max-memory`), by default half of the physical memory (`MemTotal` of
//! `/proc/meminfo` on Linux; 4 GiB where it cannot be read). Checks count the main buffers a step needs, not every small allocation.

#[cfg(doc)]
use crate::context::Context;
use crate::error::{Error, Result};

/// The budget when `/proc/meminfo` cannot be read.
const FALLBACK: u64 = 4 << 30;

/// The memory budget of the current [context](crate::context), or [`default_budget`]
/// outside one that sets it.
pub fn budget() -> u64 {
    crate::context::budget_set().unwrap_or_else(default_budget)
}

/// Half of the physical memory (`MemTotal` of `/proc/meminfo`), or 4 GiB where it cannot
/// be read; at most half of the process's address-space limit (`ulimit -v`) when it has one.
pub fn default_budget() -> u64 {
    static DEFAULT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *DEFAULT.get_or_init(read_default_budget)
}

/// [`default_budget`], read from `/proc`.
fn read_default_budget() -> u64 {
    let physical = proc_value("/proc/meminfo", "MemTotal:")
        .map(|kib| kib.saturating_mul(1024))
        .filter(|&b| b > 0);
    let address_space = proc_value("/proc/self/limits", "Max address space");
    let half = |b: u64| (b / 2).max(1);
    match (physical, address_space) {
        (Some(p), Some(a)) => half(p.min(a)),
        (Some(p), None) => half(p),
        (None, Some(a)) => half(a).min(FALLBACK),
        (None, None) => FALLBACK,
    }
}

/// The number after `prefix` on the line of `file` that starts with it (`None` when absent
/// or not a number, as `unlimited`).
fn proc_value(file: &str, prefix: &str) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.starts_with(prefix))?;
    line[prefix.len()..].split_whitespace().next()?.parse().ok()
}

/// Parses a size: bytes, or a number with a binary suffix `K`, `M`, `G`, `T` (`512M`, `4G`,
/// `1.5G`; a trailing `B` or `iB` is allowed, case does not matter).
pub fn parse_size(text: &str) -> Result<u64> {
    let bad = || {
        Error::param(
            "max-memory",
            text,
            "expected a size such as 512M, 4G or 1.5G (K, M, G, T: powers of 1024)",
        )
    };
    let t = text.trim().to_ascii_uppercase();
    let t = t
        .strip_suffix("IB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(&t);
    let (number, shift) = match t.chars().last() {
        Some('K') => (&t[..t.len() - 1], 10),
        Some('M') => (&t[..t.len() - 1], 20),
        Some('G') => (&t[..t.len() - 1], 30),
        Some('T') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes >= u64::MAX as f64 {
        return Err(bad());
    }
    Ok(bytes as u64)
}

/// Checks that `counts` elements of `element_bytes` bytes each (the product of `counts`:
/// rows x columns, say) fit the budget; `what` names them in the error ("the polynomial
/// features of 100 columns to degree 5").
pub fn check(what: impl FnOnce() -> String, counts: &[usize], element_bytes: usize) -> Result<()> {
    let bytes = counts
        .iter()
        .try_fold(element_bytes as u64, |acc, &n| acc.checked_mul(n as u64));
    check_bytes(what, bytes)
}

/// Checks that `bytes` (`None`: more than `u64` counts) fit the budget.
pub fn check_bytes(what: impl FnOnce() -> String, bytes: Option<u64>) -> Result<()> {
    let limit = budget();
    match bytes {
        Some(b) if b <= limit => Ok(()),
        _ => Err(Error::MemoryBudget {
            what: what(),
            bytes,
            budget: limit,
        }),
    }
}

/// Memory the allocator keeps after a free, for the next allocation, instead of handing it
/// back to the system: 256 MiB (and blocks under 32 MiB from the heap, not their own
/// mappings). Iterative fits allocate and free the same buffers at every step (a batch's
/// activations, L-BFGS's full-data passes); with glibc's defaults each step maps fresh pages
/// and faults them in again, a third of L-BFGS's time on digits. Peak memory does not grow:
/// kept memory is what the next step reuses. Call once at start (the command line does); a
/// no-op where the C library is not glibc.
pub fn keep_freed_memory() {
    hyperplane_kernels::os::keep_freed_memory();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sizes() {
        assert_eq!(parse_size("512M").unwrap(), 512 << 20);
        assert_eq!(parse_size("4G").unwrap(), 4 << 30);
        assert_eq!(parse_size("4gib").unwrap(), 4 << 30);
        assert_eq!(parse_size("1.5K").unwrap(), 1536);
        assert_eq!(parse_size("1000").unwrap(), 1000);
        for bad in ["", "G", "-1G", "0", "lots", "1e30T", "nan"] {
            let e = parse_size(bad).unwrap_err().to_string();
            assert!(e.contains("max-memory") && e.contains("512M"), "{bad}: {e}");
        }
    }

    #[test]
    fn checks_against_the_budget() {
        assert!(default_budget() > 0);
        assert_eq!(budget(), default_budget(), "outside any context");
        assert!(check(|| "a few numbers".into(), &[10, 10], 8).is_ok());
        let e = check(|| "a huge table".into(), &[1 << 40, 1 << 30], 8)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("a huge table") && e.contains("--max-memory"),
            "{e}"
        );
        let e = check(|| "the weights".into(), &[1 << 40], 8)
            .unwrap_err()
            .to_string();
        assert!(e.contains("8.0 TiB"), "{e}");
    }
}
