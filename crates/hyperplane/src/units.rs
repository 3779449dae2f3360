//! Quantities for people: byte counts in binary units.

/// `bytes` for people: `512 B`, `1.5 KiB`, `16.0 GiB` (powers of 1024, one decimal).
pub fn format_size(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_sizes() {
        assert_eq!(format_size(100), "100 B");
        assert_eq!(format_size(1536), "1.5 KiB");
        assert_eq!(format_size(16 << 30), "16.0 GiB");
    }
}
