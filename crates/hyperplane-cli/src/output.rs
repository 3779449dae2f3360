//! Plain-text tables for people; JSON goes through serde_json.

/// Renders rows as columns aligned by width; the first row is the header, underlined.
/// Columns after the first are right-aligned (numbers).
pub fn table(rows: &[Vec<String>]) -> String {
    aligned(rows, false)
}

/// [`table`] with every column left-aligned (text).
pub fn text_table(rows: &[Vec<String>]) -> String {
    aligned(rows, true)
}

fn aligned(rows: &[Vec<String>], all_left: bool) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
        .map(|j| {
            rows.iter()
                .filter_map(|r| r.get(j))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(j, c)| {
                if j == 0 || all_left {
                    format!("{c:<w$}", w = widths[j])
                } else {
                    format!("{c:>w$}", w = widths[j])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
        if i == 0 {
            let total = widths.iter().sum::<usize>() + 2 * n.saturating_sub(1);
            out.push_str(&"-".repeat(total));
            out.push('\n');
        }
    }
    out
}

/// `name=value name=value ...`, as parameters are written on the command line.
pub fn assignments(pairs: &[(String, String)]) -> String {
    let parts: Vec<String> = pairs.iter().map(|(n, v)| format!("{n}={v}")).collect();
    parts.join(" ")
}

/// A value as pretty JSON, with a final newline.
pub fn json_text(value: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("JSON values always serialize");
    s.push('\n');
    s
}

/// Appends one formatted line to a `String` (commands build their whole output, then
/// [`emit`] writes it).
#[macro_export]
macro_rules! outln {
    ($out:expr) => {
        $out.push('\n')
    };
    ($out:expr, $($arg:tt)*) => {{
        let _ = ::std::fmt::Write::write_fmt(&mut $out, format_args!($($arg)*));
        $out.push('\n');
    }};
}

/// Writes a command's output to stdout. A closed pipe (`hyperplane predict ... | head`) is
/// not an error: the reader has what it wanted.
pub fn emit(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_aligns_columns() {
        let t = super::table(&[
            vec!["class".into(), "n".into()],
            vec!["spam".into(), "12".into()],
            vec!["ham".into(), "3".into()],
        ]);
        assert_eq!(t, "class   n\n---------\nspam   12\nham     3\n");
    }
}
