//! Delimited tables (`,` `;` or tab separated) read into typed columns.
//!
//! **Delimiter.** Unless given, it is sniffed among `,` `;` and tab from the first 20 non-blank
//! lines (counting outside double quotes): the candidate that occurs the same, non-zero number
//! of times on every line wins, the most frequent first; a tie goes to `,`; a file with none of
//! them is one column.
//!
//! **Header.** Unless given, the first row is a header when (a) some field of it is not a
//! number while every present value of the same column in the next 50 rows is a number, or
//! (b) all its fields are non-numeric and distinct and either it is the only row or some
//! value in the next rows is a number. A table whose columns are all text is therefore read
//! without a header unless `header = Some(true)`.
//!
//! **Missing values** are an empty field, `?` or `NA`; see [`MissingPolicy`].
//!
//! **Typing.** Fields are trimmed. A column is [`Column::Numeric`] when every present value
//! of its first 1,000 data rows parses as an `f64`, otherwise [`Column::Categorical`]
//! holding the text interned: each distinct value once, found by hash from the field's
//! bytes, and a level code per row. In a numeric column a later value that is not a number, or is `nan` or
//! `inf` (non-finite values are not data), is an error naming its line and column.
//!
//! **Streaming, in parallel.** [`read`] reads the file in chunks and parses each chunk's
//! blocks of records on every thread of rayon's current pool (one block per thread, each
//! with its own interned levels, merged in file order): numbers are parsed from the bytes of
//! their fields, so a numeric table costs the memory of its `f64` values, never of its text,
//! and a categorical column 4 bytes a row plus its distinct values. Any thread count gives
//! the same table, and the same first error. For training, the
//! [`TabularEncoder`](crate::transform::TabularEncoder) encodes the blocks as they arrive
//! instead of building a table ([`fit_transform_file`](crate::transform::TabularEncoder::fit_transform_file)).

use std::collections::HashSet;
use std::io::{BufRead, Read, Seek, SeekFrom};
use std::path::Path;

use ::csv::{ReaderBuilder, StringRecord, Trim};
use rayon::prelude::*;

use crate::data::input::{Categories, Column, Interner, LabelledInput, RawInput, Table};
use crate::data::labels::{Label, Labels};
use crate::data::options::{LabelColumn, MissingPolicy, ReadOptions};
use crate::error::{Error, Result};

/// Rows after the first that header detection looks at.
const SNIFF_ROWS: usize = 50;
/// Non-blank lines that delimiter sniffing looks at.
const SNIFF_LINES: usize = 20;
/// Bytes of a file that [`sniff`] reads.
const SNIFF_BYTES: u64 = 1 << 16;
/// Data rows whose values decide each column's type (numeric or categorical).
const TYPE_ROWS: usize = 1000;
/// How a missing value is stored in a categorical column under [`MissingPolicy::AsCategory`].
const MISSING: &str = "?";

/// The layout of a delimited file: what [`sniff`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvShape {
    /// Field separator.
    pub delimiter: u8,
    /// Whether the first row is a header.
    pub has_header: bool,
    /// Names of all columns, label included (`x1`, `x2`... without a header).
    pub names: Vec<String>,
}

/// Finds the delimiter, header and column names of `path` from its first 64 KiB (its first
/// line whole when that is longer), honouring `opts.delimiter` and `opts.header` when given.
pub fn sniff(path: &Path, opts: &ReadOptions) -> Result<CsvShape> {
    let mut file = crate::data::file::open(path)?;
    let mut prefix = Vec::new();
    (&mut file)
        .take(SNIFF_BYTES)
        .read_to_end(&mut prefix)
        .map_err(|e| Error::io(path, e))?;
    if prefix.len() as u64 == SNIFF_BYTES {
        match prefix.iter().rposition(|&b| b == b'\n') {
            Some(end) => prefix.truncate(end + 1),
            // the columns past the prefix would have no name: the first line is read whole
            None => {
                // one byte past the budget tells a line over it
                std::io::BufReader::new(file.take(crate::memory::budget().saturating_add(1)))
                    .read_until(b'\n', &mut prefix)
                    .map_err(|e| Error::io(path, e))?;
                crate::memory::check_bytes(
                    || format!("the first line of {}", path.display()),
                    Some(prefix.len() as u64),
                )?;
            }
        }
    }
    sniff_bytes(strip_bom(&prefix), path, opts)
}

/// Reads a delimited file into a [`RawInput::Table`] and its labels, streaming: the file is
/// never in memory as text, and numbers are parsed from the bytes of their fields.
pub fn read(path: &Path, opts: &ReadOptions) -> Result<LabelledInput> {
    let (table, labels) = read_table(path, opts)?;
    Ok(LabelledInput {
        input: RawInput::Table(table),
        labels: labels.map(|l| l.iter().cloned().collect()),
        source: path.to_path_buf(),
    })
}

/// [`read`], with the labels interned.
pub(crate) fn read_table(path: &Path, opts: &ReadOptions) -> Result<(Table, Option<Labels>)> {
    let mut table = TableBuilder::default();
    let head = read_blocks(path, opts, |block, _| {
        table.append(block);
        Ok(())
    })?;
    Ok(table.finish(head))
}

/// Parses delimited text held in memory; `file` names the source in error messages.
pub fn parse(bytes: &[u8], file: &Path, opts: &ReadOptions) -> Result<(Table, Option<Vec<Label>>)> {
    parse_in_blocks(bytes, file, opts, BLOCK_BYTES)
}

/// [`parse`], `block_bytes` at a time per thread.
fn parse_in_blocks(
    bytes: &[u8],
    file: &Path,
    opts: &ReadOptions,
    block_bytes: usize,
) -> Result<(Table, Option<Vec<Label>>)> {
    let bytes = strip_bom(bytes);
    let shape = sniff_bytes(bytes, file, opts)?;
    let mut table = TableBuilder::default();
    let head = parse_blocks(bytes, &shape, file, opts, block_bytes, |block, _| {
        table.append(block);
        Ok(())
    })?;
    let (table, labels) = table.finish(head);
    Ok((table, labels.map(|l| l.iter().cloned().collect())))
}

/// Parses the data rows of the delimited file `path` and hands them to `each` block by block,
/// in file order, with the bytes each block spans (see `parse_blocks`); returns what the
/// table's rows share.
pub(crate) fn read_blocks(
    path: &Path,
    opts: &ReadOptions,
    each: impl FnMut(Block, usize) -> Result<()>,
) -> Result<Head> {
    let shape = sniff(path, opts)?;
    let mut file = crate::data::file::open(path)?;
    let mut head = [0u8; 3];
    let n = file.read(&mut head).map_err(|e| Error::io(path, e))?;
    let start = if head[..n] == BOM[..] { 3 } else { 0 };
    file.seek(SeekFrom::Start(start))
        .map_err(|e| Error::io(path, e))?;
    parse_blocks(file, &shape, path, opts, BLOCK_BYTES, each)
}

/// What the rows of a table share: its feature names and the file line of its first row.
pub(crate) struct Head {
    pub(crate) names: Vec<String>,
    pub(crate) first_line: usize,
}

/// The rows of one block of a file, parsed: the kept rows' values by feature column (text
/// interned in the block's own levels) and their label texts, interned likewise.
pub(crate) struct Block {
    pub(crate) columns: Vec<Column>,
    pub(crate) labels: Option<Categories>,
    /// File line of the first row kept.
    first_line: Option<usize>,
    /// Data rows read, kept or dropped.
    n_read: usize,
}

impl Block {
    /// The labels of the kept rows: each distinct text once, read as a label, and a code per
    /// row.
    pub(crate) fn append_labels_to(&self, labels: &mut Labels) {
        if let Some(texts) = &self.labels {
            let distinct: Vec<Label> = texts.levels().iter().map(|t| Label::parse(t)).collect();
            labels.extend_coded(&distinct, texts.codes());
        }
    }
}

/// Collects blocks into a [`Table`]: each categorical column's levels in order of first
/// appearance in the file, as if it were read row by row.
#[derive(Default)]
pub(crate) struct TableBuilder {
    columns: Vec<Building>,
    labels: Option<Labels>,
}

impl TableBuilder {
    /// Appends the rows of `block`.
    pub(crate) fn append(&mut self, block: Block) {
        if self.columns.is_empty() {
            self.columns = block
                .columns
                .iter()
                .map(|c| match c {
                    Column::Numeric(_) => Building::Numeric(Vec::new()),
                    Column::Categorical(_) => Building::Categorical(Interner::default()),
                })
                .collect();
            self.labels = block.labels.as_ref().map(|_| Labels::default());
        }
        if let Some(labels) = &mut self.labels {
            block.append_labels_to(labels);
        }
        for (to, from) in self.columns.iter_mut().zip(block.columns) {
            match (to, from) {
                (Building::Numeric(v), Column::Numeric(w)) => v.extend(w),
                (Building::Categorical(c), Column::Categorical(d)) => c.extend(&d),
                _ => unreachable!("every block has the columns' types"),
            }
        }
    }

    /// The table and its labels.
    pub(crate) fn finish(self, head: Head) -> (Table, Option<Labels>) {
        let table = Table {
            names: head.names,
            columns: self.columns.into_iter().map(Building::finish).collect(),
            first_line: head.first_line,
        };
        (table, self.labels)
    }
}

/// Bytes a thread parses at a time: the file is read in chunks of this much per thread, each
/// chunk split into one block per thread at record boundaries.
const BLOCK_BYTES: usize = 1 << 18;

/// Parses the records of `input` (the header, if any, first) into typed columns, handing
/// the data rows to `each` block by block in file order, with the bytes each spans.
///
/// Each column's type is decided on the first [`TYPE_ROWS`] data rows; a later value that
/// does not fit is an error naming its line and column. The rest is read in chunks of
/// `block_bytes` per thread of rayon's current pool; a chunk is cut into blocks after a
/// newline, the blocks are parsed in parallel (each with its own levels), and a block whose
/// start was not a record boundary (a quoted field spanning the cut) is parsed again from
/// there to the chunk's end. Errors name the file line, counted through the blocks before,
/// and the first error in file order is the one returned; one thread gives the same rows.
fn parse_blocks<R: Read>(
    mut input: R,
    shape: &CsvShape,
    file: &Path,
    opts: &ReadOptions,
    block_bytes: usize,
    mut each: impl FnMut(Block, usize) -> Result<()>,
) -> Result<Head> {
    let label = label_index(shape, &opts.label, file)?;
    let n_fields = shape.names.len();
    let features: Vec<usize> = (0..n_fields).filter(|&j| Some(j) != label).collect();
    if features.is_empty() {
        return Err(Error::data(format!(
            "{} has only the label column {:?}: there are no feature columns",
            file.display(),
            shape.names[0]
        )));
    }
    let threads = rayon::current_num_threads();
    let mut chunk = Chunk {
        bytes: Vec::new(),
        eof: false,
    };
    let mut want = block_bytes * threads;
    let sample = loop {
        chunk.fill(&mut input, want, file)?;
        match sample_types(&chunk, shape, &features, file)? {
            Some(found) => break found,
            None => want *= 2,
        }
    };
    let (mut start, mut lines) = (sample.start, sample.lines);
    let mut file_start = start == 0;
    let layout = Layout {
        file,
        shape,
        opts,
        label,
        features,
        numeric: sample.numeric,
        n_fields: sample.n_fields,
    };
    let (mut n_read, mut first_line) = (0, None);
    loop {
        chunk.drain(start);
        start = 0;
        chunk.fill(&mut input, want, file)?;
        let Some(end) = chunk.end() else {
            want *= 2; // no cut in the chunk: one record spans it
            continue;
        };
        let cuts = chunk.cuts(end, threads);
        let at_file_start = file_start;
        let parse = |i: usize, to: usize| {
            let at_eof = chunk.eof && to == chunk.bytes.len();
            parse_block(
                &layout,
                &chunk.bytes[cuts[i]..to],
                at_eof,
                at_file_start && i == 0,
            )
        };
        let parsed: Vec<Result<Parsed>> = (0..cuts.len())
            .into_par_iter()
            .map(|i| parse(i, cuts.get(i + 1).copied().unwrap_or(end)))
            .collect();
        let n = parsed.len();
        for (i, mut block) in parsed.into_iter().enumerate() {
            // a later cut inside a record: the rest of the chunk is parsed as one block
            let cut_inside = i + 1 < n && block.as_ref().is_ok_and(|b| b.partial);
            if cut_inside {
                block = parse(i, end);
            }
            let Parsed {
                mut block,
                consumed,
                newlines,
                ..
            } = block.map_err(|e| below_lines(e, lines))?;
            n_read += block.n_read;
            if first_line.is_none() {
                first_line = block.first_line.map(|l| l + lines);
            }
            block.first_line = None;
            start = cuts[i] + consumed;
            lines += newlines;
            each(block, consumed)?;
            if cut_inside {
                break;
            }
        }
        file_start = at_file_start && start == 0;
        if chunk.eof && start == chunk.bytes.len() {
            break;
        }
        if start == 0 {
            want *= 2; // a record longer than the chunk
        }
    }
    let Some(first_line) = first_line else {
        let why = if n_read > 0 {
            format!("all {n_read} rows have a missing value and were dropped")
        } else if shape.has_header {
            "it has a header but no data rows".to_string()
        } else {
            "it has no data rows".to_string()
        };
        return Err(Error::data(format!("{}: {why}", file.display())));
    };
    Ok(Head {
        names: layout
            .features
            .iter()
            .map(|&j| shape.names[j].clone())
            .collect(),
        first_line,
    })
}

/// The bytes of a file read so far and not yet parsed.
struct Chunk {
    bytes: Vec<u8>,
    /// The bytes reach the end of the file.
    eof: bool,
}

impl Chunk {
    /// Reads until at least `want` bytes are held or the file ends.
    fn fill<R: Read>(&mut self, input: &mut R, want: usize, file: &Path) -> Result<()> {
        if !self.eof && self.bytes.len() < want {
            let asked = want - self.bytes.len();
            self.bytes.reserve_exact(asked);
            let got = input
                .take(asked as u64)
                .read_to_end(&mut self.bytes)
                .map_err(|e| Error::io(file, e))?;
            self.eof = got < asked;
        }
        Ok(())
    }

    /// Drops the first `n` bytes (parsed).
    fn drain(&mut self, n: usize) {
        self.bytes.drain(..n);
    }

    /// Where parsing may stop: the end of the file, or after the last newline.
    fn end(&self) -> Option<usize> {
        if self.eof {
            return Some(self.bytes.len());
        }
        Some(self.bytes.iter().rposition(|&b| b == b'\n')? + 1)
    }

    /// Starts of up to `n` blocks of `bytes[..end]` of about equal size, each after a
    /// newline.
    fn cuts(&self, end: usize, n: usize) -> Vec<usize> {
        let mut cuts = vec![0];
        for k in 1..n {
            let from = (end * k / n).max(cuts[cuts.len() - 1]);
            let next = self.bytes[from..end]
                .iter()
                .position(|&b| b == b'\n')
                .map(|i| from + i + 1)
                .filter(|&c| c < end);
            match next {
                Some(c) => cuts.push(c),
                None => break,
            }
        }
        cuts
    }
}

/// What the first rows of a file say.
struct Sample {
    /// Per feature, whether it is numeric.
    numeric: Vec<bool>,
    /// The fields of the first record, which every record must have.
    n_fields: usize,
    /// The byte where the data rows start, and the newlines before it.
    start: usize,
    lines: usize,
}

/// Each feature's type from the first [`TYPE_ROWS`] data rows held in `chunk`; `None` when
/// the chunk ends before those rows do.
fn sample_types(
    chunk: &Chunk,
    shape: &CsvShape,
    features: &[usize],
    file: &Path,
) -> Result<Option<Sample>> {
    let mut records = Records::new(shape.delimiter, &chunk.bytes, chunk.eof, true);
    let mut n_fields = None;
    let mut check = |records: &Records, line: usize| {
        let expected = *n_fields.get_or_insert(records.len());
        check_fields(records, expected, file, line)
    };
    let mut start = (0, 0);
    if shape.has_header {
        match records.next() {
            Some(line) => check(&records, line)?,
            None if !chunk.eof => return Ok(None),
            None => {}
        }
        start = (records.pos, records.newlines);
    }
    // per feature: `None` until a value is present, then whether all present are numbers
    let mut numeric: Vec<Option<bool>> = vec![None; features.len()];
    for _ in 0..TYPE_ROWS {
        let Some(line) = records.next() else {
            if !chunk.eof {
                return Ok(None);
            }
            break;
        };
        check(&records, line)?;
        for (&j, numeric) in features.iter().zip(&mut numeric) {
            let field = records.field(j);
            if !is_missing(field) {
                *numeric = Some(numeric.unwrap_or(true) && number(field).is_some());
            }
        }
    }
    Ok(Some(Sample {
        numeric: numeric.into_iter().map(|n| n == Some(true)).collect(),
        n_fields: n_fields.unwrap_or(shape.names.len()),
        start: start.0,
        lines: start.1,
    }))
}

/// An error of a block, its line moved down by the `lines` newlines before the block.
fn below_lines(mut e: Error, lines: usize) -> Error {
    if let Error::Parse { line, .. } = &mut e {
        *line += lines;
    }
    e
}

/// The record at `line` unless it has `expected` fields (the first record's); the error names
/// the first field missing or extra.
fn check_fields(records: &Records, expected: usize, file: &Path, line: usize) -> Result<()> {
    let len = records.len();
    if len == expected {
        return Ok(());
    }
    Err(Error::Parse {
        file: file.to_path_buf(),
        line,
        column: expected.min(len) + 1,
        expected: format!("{expected} fields, as in the first row"),
        found: format!("{len} fields"),
    })
}

/// The records of bytes that start at a record boundary, parsed by `csv_core` as the `csv`
/// crate reads them (`"` quotes a field and is doubled inside one; `\n`, `\r\n` or `\r` ends
/// a record; blank lines are skipped), each field trimmed of ASCII whitespace.
struct Records<'a> {
    core: csv_core::Reader,
    input: &'a [u8],
    /// The input ends the file, so a last record needs no terminator.
    at_eof: bool,
    /// Where the next record (or blank line) starts.
    pos: usize,
    /// Newlines before `pos`.
    newlines: usize,
    /// The input ended inside a record (at `pos`) that the file goes on with.
    partial: bool,
    /// The current record's fields, unquoted, one after another; `ends` of each.
    fields: Vec<u8>,
    ends: Vec<usize>,
    n_fields: usize,
}

impl<'a> Records<'a> {
    /// The records of `input`; `file_start` when it begins the file, where (as in the `csv`
    /// crate) a byte-order mark is skipped.
    fn new(delimiter: u8, input: &'a [u8], at_eof: bool, file_start: bool) -> Self {
        let mut core = csv_core::ReaderBuilder::new().delimiter(delimiter).build();
        if !file_start {
            // a parser skips a byte-order mark only before its first read: one blank line
            // read first keeps a mark at this block's start as data
            core.read_record(b"\n", &mut [], &mut []);
        }
        Records {
            core,
            input,
            at_eof,
            pos: 0,
            newlines: 0,
            partial: false,
            fields: vec![0; 1024],
            ends: vec![0; 32],
            n_fields: 0,
        }
    }

    /// Parses the next record and returns its 1-based line within the input; `None` at the
    /// end of the input, or before a record the input ends inside of (`partial`).
    fn next(&mut self) -> Option<usize> {
        while let Some(&b) = self.input.get(self.pos) {
            match b {
                b'\n' => self.newlines += 1,
                b'\r' => {}
                _ => break,
            }
            self.pos += 1;
        }
        let start = self.pos;
        if start == self.input.len() {
            return None;
        }
        let lines_before = self.core.line();
        let (mut out, mut end) = (0, 0);
        let mut at = start;
        loop {
            let rest = &self.input[at..];
            if rest.is_empty() && !self.at_eof {
                self.partial = true;
                return None;
            }
            let (result, read, wrote, ended) =
                self.core
                    .read_record(rest, &mut self.fields[out..], &mut self.ends[end..]);
            at += read;
            out += wrote;
            end += ended;
            match result {
                csv_core::ReadRecordResult::InputEmpty => {}
                csv_core::ReadRecordResult::OutputFull => {
                    self.fields.resize(2 * self.fields.len(), 0)
                }
                csv_core::ReadRecordResult::OutputEndsFull => {
                    self.ends.resize(2 * self.ends.len(), 0)
                }
                csv_core::ReadRecordResult::Record => break,
                csv_core::ReadRecordResult::End => return None,
            }
        }
        self.pos = at;
        self.n_fields = end;
        let line = 1 + self.newlines;
        self.newlines += (self.core.line() - lines_before) as usize;
        Some(line)
    }

    /// Number of fields of the current record.
    fn len(&self) -> usize {
        self.n_fields
    }

    /// Field `j` of the current record, trimmed (empty past the last field).
    fn field(&self, j: usize) -> &[u8] {
        if j >= self.n_fields {
            return &[];
        }
        let from = if j == 0 { 0 } else { self.ends[j - 1] };
        self.fields[from..self.ends[j]].trim_ascii()
    }

    /// Field `j` of the current record as text, if it is UTF-8 (for messages: the values of
    /// categorical columns and labels go to their interners as bytes, checked once per
    /// distinct value).
    fn text(&self, j: usize) -> Option<&str> {
        std::str::from_utf8(self.field(j)).ok()
    }

    /// The first field of the current record holding a NUL byte.
    fn nul_field(&self) -> Option<usize> {
        let all = &self.fields[..self.ends[..self.n_fields].last().copied().unwrap_or(0)];
        let at = all.iter().position(|&b| b == 0)?;
        self.ends[..self.n_fields].iter().position(|&e| at < e)
    }
}

/// What parsing any block of a file needs: the layout and each feature's type.
struct Layout<'a> {
    file: &'a Path,
    shape: &'a CsvShape,
    opts: &'a ReadOptions,
    label: Option<usize>,
    /// The fields that are features, in order.
    features: Vec<usize>,
    /// Per feature, whether it is numeric.
    numeric: Vec<bool>,
    /// The fields every record has.
    n_fields: usize,
}

/// A block parsed, and where its parse stopped.
struct Parsed {
    block: Block,
    /// Bytes parsed: the whole input, or up to the record it ends inside of.
    consumed: usize,
    /// Newlines in the bytes parsed.
    newlines: usize,
    /// The input ends inside a record.
    partial: bool,
}

/// The rows of `input` (which starts at a record boundary, at the file's start when
/// `file_start`), with lines counted from the input's start (line 1).
fn parse_block(layout: &Layout, input: &[u8], at_eof: bool, file_start: bool) -> Result<Parsed> {
    let mut records = Records::new(layout.shape.delimiter, input, at_eof, file_start);
    let mut rows = Rows {
        layout,
        columns: layout
            .numeric
            .iter()
            .map(|&n| {
                if n {
                    Building::Numeric(Vec::new())
                } else {
                    Building::Categorical(Interner::default())
                }
            })
            .collect(),
        labels: layout.label.map(|_| Interner::default()),
        first_line: None,
        n_read: 0,
    };
    while let Some(line) = records.next() {
        check_fields(&records, layout.n_fields, layout.file, line)?;
        rows.push(&records, line)?;
    }
    Ok(Parsed {
        block: Block {
            columns: rows.columns.into_iter().map(Building::finish).collect(),
            labels: rows.labels.map(Interner::finish),
            first_line: rows.first_line,
            n_read: rows.n_read,
        },
        consumed: records.pos,
        newlines: records.newlines,
        partial: records.partial,
    })
}

/// A feature column as its rows arrive.
enum Building {
    Numeric(Vec<f64>),
    Categorical(Interner),
}

impl Building {
    fn finish(self) -> Column {
        match self {
            Building::Numeric(v) => Column::Numeric(v),
            Building::Categorical(c) => Column::Categorical(c.finish()),
        }
    }
}

/// The rows of a block as they arrive.
struct Rows<'a> {
    layout: &'a Layout<'a>,
    /// One per feature.
    columns: Vec<Building>,
    /// The label texts.
    labels: Option<Interner>,
    /// The line of the first row kept.
    first_line: Option<usize>,
    /// Data rows read, kept or dropped.
    n_read: usize,
}

impl Rows<'_> {
    /// Adds the current record of `records` (at `line`) to the columns, or drops it (a
    /// missing value under [`MissingPolicy::DropRows`]).
    fn push(&mut self, records: &Records, line: usize) -> Result<()> {
        self.n_read += 1;
        let layout = self.layout;
        let names = &layout.shape.names;
        let at = |j: usize, expected: String, found: String| Error::Parse {
            file: layout.file.to_path_buf(),
            line,
            column: j + 1,
            expected,
            found,
        };
        if let Some(j) = records.nul_field() {
            return Err(at(j, "text".into(), "a NUL byte (binary data)".into()));
        }
        let invalid_utf8 = |j: usize| at(j, "UTF-8 text".into(), "invalid UTF-8 bytes".into());
        let text = |j: usize| -> Result<&str> { records.text(j).ok_or_else(|| invalid_utf8(j)) };
        if let Some(li) = layout.label {
            if is_missing(records.field(li)) {
                return Err(at(
                    li,
                    format!("a label in column {:?}", names[li]),
                    format!("the missing value {:?}", text(li)?),
                ));
            }
        }
        for (&j, column) in layout.features.iter().zip(&self.columns) {
            if !is_missing(records.field(j)) {
                continue;
            }
            let found = format!("the missing value {:?}", text(j)?);
            match (layout.opts.missing, column) {
                (MissingPolicy::Error, _) => {
                    return Err(at(
                        j,
                        format!(
                            "a value in column {:?} (to accept missing values, read with \
                             --missing drop or --missing category)",
                            names[j]
                        ),
                        found,
                    ))
                }
                (MissingPolicy::DropRows, _) => return Ok(()),
                (MissingPolicy::AsCategory, Building::Numeric(_)) => {
                    return Err(at(
                        j,
                        format!(
                            "a number in numeric column {:?} (a missing value can be a category \
                             only in a text column; read with --missing drop)",
                            names[j]
                        ),
                        found,
                    ))
                }
                (MissingPolicy::AsCategory, Building::Categorical(_)) => {}
            }
        }
        for (&j, column) in layout.features.iter().zip(&mut self.columns) {
            let field = records.field(j);
            match column {
                Building::Numeric(values) => match number(field) {
                    Some(v) if v.is_finite() => values.push(v),
                    Some(_) => {
                        return Err(at(
                            j,
                            format!("a finite number in numeric column {:?}", names[j]),
                            format!("{:?}", text(j)?),
                        ))
                    }
                    None => {
                        return Err(at(
                            j,
                            format!(
                                "a number in column {:?} (its first {TYPE_ROWS} rows are \
                                 numbers, so it is a numeric column)",
                                names[j]
                            ),
                            format!("{:?}", text(j)?),
                        ))
                    }
                },
                Building::Categorical(values) => {
                    let value = if is_missing(field) {
                        MISSING.as_bytes()
                    } else {
                        field
                    };
                    if !values.push_bytes(value) {
                        return Err(invalid_utf8(j));
                    }
                }
            }
        }
        if let (Some(li), Some(labels)) = (layout.label, &mut self.labels) {
            if !labels.push_bytes(records.field(li)) {
                return Err(invalid_utf8(li));
            }
        }
        self.first_line.get_or_insert(line);
        Ok(())
    }
}

/// An empty field, `?` or `NA`.
fn is_missing(s: &[u8]) -> bool {
    s.is_empty() || s == b"?" || s == b"NA"
}

/// The number a field holds, if it is one. Up to 15 digits alone are read directly: such a
/// whole number is exact in an `f64`, so it is the value `parse` gives.
fn number(field: &[u8]) -> Option<f64> {
    if !field.is_empty() && field.len() <= 15 && field.iter().all(u8::is_ascii_digit) {
        let n = field
            .iter()
            .fold(0u64, |n, &d| 10 * n + u64::from(d - b'0'));
        return Some(n as f64);
    }
    std::str::from_utf8(field).ok()?.parse().ok()
}

fn is_number(s: &str) -> bool {
    number(s.as_bytes()).is_some()
}

const BOM: &[u8; 3] = b"\xEF\xBB\xBF";

fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// A reader of records of any length, for sniffing.
fn reader<R: Read>(input: R, delimiter: u8) -> ::csv::Reader<R> {
    ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .trim(Trim::All)
        .from_reader(input)
}

/// A CSV crate error as ours: a UTF-8 error becomes [`Error::Parse`].
fn csv_error(e: ::csv::Error, file: &Path) -> Error {
    let message = e.to_string();
    let line = |pos: Option<&::csv::Position>| pos.map_or(0, |p| p.line() as usize);
    match e.into_kind() {
        ::csv::ErrorKind::Io(err) => Error::io(file, err),
        ::csv::ErrorKind::Utf8 { pos, err } => Error::Parse {
            file: file.to_path_buf(),
            line: line(pos.as_ref()),
            column: err.field() + 1,
            expected: "UTF-8 text".into(),
            found: "invalid UTF-8 bytes".into(),
        },
        _ => Error::data(format!("{}: {message}", file.display())),
    }
}

/// Delimiter, header and names from the start of `bytes`.
fn sniff_bytes(bytes: &[u8], file: &Path, opts: &ReadOptions) -> Result<CsvShape> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::data(format!("{} is empty", file.display())));
    }
    let delimiter = opts.delimiter.unwrap_or_else(|| sniff_delimiter(bytes));
    let rows = reader(bytes, delimiter)
        .into_records()
        .take(SNIFF_ROWS + 1)
        .collect::<std::result::Result<Vec<StringRecord>, _>>()
        .map_err(|e| csv_error(e, file))?;
    // the reader skips a byte-order mark of its own: a second one can leave no record
    let Some(first) = rows.first() else {
        return Err(Error::data(format!("{} is empty", file.display())));
    };
    let has_header = opts.header.unwrap_or_else(|| detect_header(&rows));
    let names = if has_header {
        first.iter().map(str::to_string).collect()
    } else {
        (1..=first.len()).map(|j| format!("x{j}")).collect()
    };
    Ok(CsvShape {
        delimiter,
        has_header,
        names,
    })
}

/// The candidate (`,` `;` tab) occurring the same non-zero number of times on each of the first
/// lines, the most frequent first; `,` when none occurs.
fn sniff_delimiter(bytes: &[u8]) -> u8 {
    const CANDIDATES: [u8; 3] = [b',', b';', b'\t'];
    let lines: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|l| !l.is_empty())
        .take(SNIFF_LINES)
        .collect();
    let count = |line: &[u8], d: u8| {
        let mut quoted = false;
        line.iter()
            .filter(|&&b| {
                quoted ^= b == b'"';
                b == d && !quoted
            })
            .count()
    };
    let mut best = (false, 0usize, b',');
    for d in CANDIDATES {
        let first = lines.first().map_or(0, |l| count(l, d));
        let consistent = first > 0 && lines.iter().all(|l| count(l, d) == first);
        if (consistent, first) > (best.0, best.1) {
            best = (consistent, first, d);
        }
    }
    best.2
}

/// Whether the first of `rows` is a header (rules in the module documentation).
fn detect_header(rows: &[StringRecord]) -> bool {
    let Some((first, rest)) = rows.split_first() else {
        return false;
    };
    let is_label = |h: &str| !is_missing(h.as_bytes()) && !is_number(h);
    let numeric_below = first.iter().enumerate().any(|(j, h)| {
        let mut present = rest
            .iter()
            .filter_map(|r| r.get(j))
            .filter(|s| !is_missing(s.as_bytes()))
            .peekable();
        is_label(h) && present.peek().is_some() && present.all(is_number)
    });
    let distinct: HashSet<&str> = first.iter().collect();
    numeric_below
        || (first.iter().all(is_label)
            && distinct.len() == first.len()
            && (rest.is_empty() || rest.iter().any(|r| r.iter().any(is_number))))
}

/// The 0-based label column, or `None` for [`LabelColumn::None`].
fn label_index(shape: &CsvShape, label: &LabelColumn, file: &Path) -> Result<Option<usize>> {
    let n = shape.names.len();
    match label {
        LabelColumn::None => Ok(None),
        LabelColumn::Last => Ok(Some(n - 1)),
        LabelColumn::Index(i) if *i < n => Ok(Some(*i)),
        LabelColumn::Index(i) => Err(Error::param(
            "label",
            i,
            format!(
                "{} has {n} columns, so a 0-based label index must be below {n}",
                file.display()
            ),
        )),
        LabelColumn::Name(name) => match shape.names.iter().position(|c| c == name) {
            Some(i) => Ok(Some(i)),
            None => {
                let hint = if shape.has_header {
                    ""
                } else {
                    " (no header row was detected; read with header = true if the first row is one)"
                };
                Err(Error::param(
                    "label",
                    name,
                    format!(
                        "{} has no such column; its columns are: {}{hint}",
                        file.display(),
                        shape.names.join(", ")
                    ),
                ))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_line_longer_than_the_sniffed_prefix_names_every_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("wide.csv");
        let row: String = (0..20_000).map(|j| format!("{j},")).collect();
        std::fs::write(&path, format!("{row}a\n{row}b\n")).unwrap();
        assert!(row.len() as u64 > SNIFF_BYTES);
        let shape = sniff(&path, &ReadOptions::default()).unwrap();
        assert_eq!(shape.names.len(), 20_001);
    }

    use std::path::PathBuf;

    fn parse_str(s: &str, opts: &ReadOptions) -> Result<(Table, Option<Vec<Label>>)> {
        parse(s.as_bytes(), Path::new("t.csv"), opts)
    }

    fn err(s: &str, opts: &ReadOptions) -> String {
        parse_str(s, opts).unwrap_err().to_string()
    }

    fn with_missing(missing: MissingPolicy) -> ReadOptions {
        ReadOptions {
            missing,
            ..Default::default()
        }
    }

    fn adult(opts: &ReadOptions) -> Result<LabelledInput> {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/adult_sample.csv");
        read(&path, opts)
    }

    #[test]
    fn adult_missing_values_error_by_default() {
        let e = adult(&ReadOptions::default()).unwrap_err().to_string();
        // line 6, field 2 (workclass) is the first `?`
        assert!(
            e.contains("adult_sample.csv:6:2:")
                && e.contains("\"workclass\"")
                && e.contains("--missing drop or --missing category")
                && e.contains("\"?\""),
            "{e}"
        );
    }

    #[test]
    fn adult_as_category_reads_14_typed_columns() {
        let got = adult(&with_missing(MissingPolicy::AsCategory)).unwrap();
        let RawInput::Table(t) = &got.input else {
            panic!("expected a table")
        };
        assert_eq!(t.names.len(), 14);
        assert!(!t.names.contains(&"income".to_string()));
        assert_eq!(t.names[0], "age");
        let numeric: Vec<&str> = t
            .names
            .iter()
            .zip(&t.columns)
            .filter(|(_, c)| matches!(c, Column::Numeric(_)))
            .map(|(n, _)| n.as_str())
            .collect();
        assert_eq!(
            numeric,
            [
                "age",
                "fnlwgt",
                "education-num",
                "capital-gain",
                "capital-loss",
                "hours-per-week"
            ]
        );
        assert_eq!(t.n_rows(), 299);
        assert_eq!(t.first_line, 2);
        let Column::Categorical(workclass) = &t.columns[1] else {
            panic!("workclass should be categorical")
        };
        assert_eq!(workclass.get(4), "?");
        assert_eq!(workclass.get(0), "Private");
        // interned: each distinct text once, a code per row
        assert_eq!(workclass.levels()[0], "Private");
        assert_eq!(workclass.codes().len(), 299);
        assert!(workclass.levels().len() < 10);
        let y = got.labels.unwrap();
        assert_eq!(y.len(), 299);
        assert_eq!(y[0], Label::from("<=50K"));
        assert_eq!(y.iter().filter(|l| **l == Label::from(">50K")).count(), 70);
    }

    #[test]
    fn adult_drop_rows_keeps_complete_rows() {
        let got = adult(&with_missing(MissingPolicy::DropRows)).unwrap();
        let RawInput::Table(t) = &got.input else {
            panic!("expected a table")
        };
        assert_eq!(t.n_rows(), 299 - 24);
        assert_eq!(got.labels.unwrap().len(), 275);
        for c in &t.columns {
            if let Column::Categorical(v) = c {
                assert!(v.iter().all(|s| s != "?"));
                assert!(!v.levels().iter().any(|s| s == "?"));
            }
        }
    }

    #[test]
    fn adult_label_by_name_and_sniff() {
        let opts = ReadOptions {
            label: LabelColumn::Name("sex".into()),
            missing: MissingPolicy::AsCategory,
            ..Default::default()
        };
        let got = adult(&opts).unwrap();
        assert_eq!(got.labels.unwrap()[0], Label::from("Male"));
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/adult_sample.csv");
        let shape = sniff(&path, &ReadOptions::default()).unwrap();
        assert_eq!(shape.delimiter, b',');
        assert!(shape.has_header);
        assert_eq!(shape.names.len(), 15);
        assert_eq!(shape.names.last().unwrap(), "income");
    }

    #[test]
    fn semicolon_wine_format() {
        let text = "\"fixed acidity\";\"volatile acidity\";\"pH\";\"quality\"\n\
                    7.4;0.7;3.51;5\n7.8;0.88;3.2;5\n11.2;0.28;3.16;6\n";
        let (t, y) = parse_str(text, &ReadOptions::default()).unwrap();
        assert_eq!(t.names, ["fixed acidity", "volatile acidity", "pH"]);
        assert_eq!(t.columns[2], Column::Numeric(vec![3.51, 3.2, 3.16]));
        assert_eq!(
            y.unwrap(),
            vec![Label::Int(5), Label::Int(5), Label::Int(6)]
        );
        assert_eq!(sniff_delimiter(text.as_bytes()), b';');
    }

    #[test]
    fn delimiter_sniffing() {
        assert_eq!(sniff_delimiter(b"a\tb\tc\n1\t2\t3\n"), b'\t');
        assert_eq!(sniff_delimiter(b"a,b;c\n1,2;3\n"), b',');
        assert_eq!(sniff_delimiter(b"\"x,y\";z\n\"1,2\";3\n"), b';');
        assert_eq!(sniff_delimiter(b"single\n1\n"), b',');
    }

    #[test]
    fn no_header_numeric_file_and_explicit_overrides() {
        let (t, y) = parse_str("1,2,0\n3,4,1\n", &ReadOptions::default()).unwrap();
        assert_eq!(t.names, ["x1", "x2"]);
        assert_eq!(t.first_line, 1);
        assert_eq!(y.unwrap(), vec![Label::Int(0), Label::Int(1)]);
        // an all-text table has no detected header; header = true forces it
        let text = "colour,size,label\nred,big,a\nblue,small,b\n";
        let (t, _) = parse_str(text, &ReadOptions::default()).unwrap();
        assert_eq!(t.n_rows(), 3);
        let opts = ReadOptions {
            header: Some(true),
            ..Default::default()
        };
        let (t, y) = parse_str(text, &opts).unwrap();
        assert_eq!(t.names, ["colour", "size"]);
        assert_eq!(y.unwrap(), vec![Label::from("a"), Label::from("b")]);
        // explicit delimiter and label index, no label
        let opts = ReadOptions {
            delimiter: Some(b'|'),
            label: LabelColumn::Index(0),
            ..Default::default()
        };
        let (t, y) = parse_str("y|a\n1| 2.5 \n0|3\n", &opts).unwrap();
        assert_eq!(t.columns, vec![Column::Numeric(vec![2.5, 3.0])]);
        assert_eq!(y.unwrap(), vec![Label::Int(1), Label::Int(0)]);
        let opts = ReadOptions {
            label: LabelColumn::None,
            ..Default::default()
        };
        let (t, y) = parse_str("a,b\n1,x\n2,y\n", &opts).unwrap();
        assert!(y.is_none());
        assert_eq!(t.names, ["a", "b"]);
        assert_eq!(
            t.columns[1],
            Column::Categorical(["x", "y"].into_iter().collect())
        );
    }

    #[test]
    fn header_detected_by_all_text_distinct_first_row() {
        // no column is all numbers below, so rule (a) does not fire; rule (b) does
        let (t, y) = parse_str("id,v\na,1\nb,x\n", &ReadOptions::default()).unwrap();
        assert_eq!(t.names, ["id"]);
        assert_eq!(y.unwrap(), vec![Label::Int(1), Label::from("x")]);
        // a mixed first row over text rows is data
        let (t, _) = parse_str("a,1\nb,x\n", &ReadOptions::default()).unwrap();
        assert_eq!(t.n_rows(), 2);
    }

    #[test]
    fn wrong_field_count_names_line_and_counts() {
        let e = err("a,b,y\n1,2,0\n3,4\n", &ReadOptions::default());
        assert!(
            e.contains("t.csv:3:3:") && e.contains("expected 3 fields") && e.contains("found 2"),
            "{e}"
        );
        let e = err("1,2\n3,4,5\n", &ReadOptions::default());
        assert!(
            e.contains("t.csv:2:3:") && e.contains("found 3 fields"),
            "{e}"
        );
    }

    #[test]
    fn non_finite_values_are_parse_errors() {
        for bad in ["nan", "inf", "-Infinity"] {
            let e = err(&format!("a,y\n1,0\n{bad},1\n"), &ReadOptions::default());
            assert!(
                e.contains("t.csv:3:1:")
                    && e.contains("a finite number in numeric column \"a\"")
                    && e.contains(bad),
                "{e}"
            );
        }
    }

    #[test]
    fn missing_values_under_each_policy() {
        let text = "a,b,y\n1,x,0\nNA,y,1\n3,,1\n4,?,0\n";
        let e = err(text, &ReadOptions::default());
        assert!(
            e.contains("t.csv:3:1:") && e.contains("column \"a\"") && e.contains("\"NA\""),
            "{e}"
        );
        // a missing value in a numeric column stays an error under --missing category
        let e = err(text, &with_missing(MissingPolicy::AsCategory));
        assert!(
            e.contains("t.csv:3:1:")
                && e.contains("numeric column \"a\"")
                && e.contains("--missing drop)"),
            "{e}"
        );
        let (t, y) = parse_str(text, &with_missing(MissingPolicy::DropRows)).unwrap();
        assert_eq!(t.columns[0], Column::Numeric(vec![1.0]));
        assert_eq!(y.unwrap(), vec![Label::Int(0)]);
        let text = "a,b,y\n1,x,0\n2,,1\n3,NA,1\n";
        let (t, _) = parse_str(text, &with_missing(MissingPolicy::AsCategory)).unwrap();
        assert_eq!(
            t.columns[1],
            Column::Categorical(["x", "?", "?"].into_iter().collect())
        );
    }

    #[test]
    fn missing_label_is_an_error_under_every_policy() {
        for p in [
            MissingPolicy::Error,
            MissingPolicy::DropRows,
            MissingPolicy::AsCategory,
        ] {
            let e = err("a,y\n1,0\n2,?\n", &with_missing(p));
            assert!(
                e.contains("t.csv:3:2:") && e.contains("a label in column \"y\""),
                "{e}"
            );
        }
    }

    #[test]
    fn label_name_not_in_header_lists_names() {
        let opts = ReadOptions {
            label: LabelColumn::Name("target".into()),
            ..Default::default()
        };
        let e = err("a,b,y\n1,2,0\n", &opts);
        assert!(
            e.contains("t.csv") && e.contains("target") && e.contains("a, b, y"),
            "{e}"
        );
        let e = err("1,2,0\n3,4,1\n", &opts);
        assert!(
            e.contains("x1, x2, x3") && e.contains("header = true"),
            "{e}"
        );
        let opts = ReadOptions {
            label: LabelColumn::Index(3),
            ..Default::default()
        };
        let e = err("a,b,y\n1,2,0\n", &opts);
        assert!(
            e.contains("t.csv has 3 columns") && e.contains("below 3"),
            "{e}"
        );
    }

    #[test]
    fn empty_inputs_are_invalid_data_naming_the_file() {
        let cases = [
            ("", "t.csv is empty"),
            (" \n\n", "t.csv is empty"),
            ("a,b,y\n", "header but no data rows"),
            ("y\n1\n", "only the label column"),
        ];
        for (text, want) in cases {
            let e = parse_str(text, &ReadOptions::default()).unwrap_err();
            assert!(matches!(e, Error::InvalidData(_)), "{e}");
            assert!(
                e.to_string().contains(want) && e.to_string().contains("t.csv"),
                "{e}"
            );
        }
        let e = err("a,y\n?,0\n,1\n", &with_missing(MissingPolicy::DropRows));
        assert!(e.contains("t.csv") && e.contains("all 2 rows"), "{e}");
    }

    #[test]
    fn invalid_utf8_and_nul_bytes_name_line_and_field() {
        for (text, what) in [
            (&b"a,b,y\n1,2,0\n3,\xff\xfe,1\n"[..], "UTF-8"),
            (&b"a,b,y\n1,2,0\n3,4\x00,1\n"[..], "NUL byte"),
        ] {
            let e = parse(text, Path::new("t.csv"), &ReadOptions::default())
                .unwrap_err()
                .to_string();
            assert!(e.contains("t.csv:3:2:") && e.contains(what), "{e}");
        }
        // a category and a label, which go to their interners as bytes
        for (text, at) in [
            (&b"a,b,y\nx,2,0\nx,2,1\n\xff,2,1\n"[..], "t.csv:4:1:"),
            (&b"a,y\n1,ok\n2,ok\n3,\xfe\n"[..], "t.csv:4:2:"),
        ] {
            let e = parse(text, Path::new("t.csv"), &ReadOptions::default())
                .unwrap_err()
                .to_string();
            assert!(e.contains(at) && e.contains("UTF-8"), "{e}");
        }
    }

    #[test]
    fn byte_order_marks_alone_are_an_empty_file() {
        // found by the csv fuzz target: the reader skips the second mark itself
        let twice = b"\xef\xbb\xbf\xef\xbb\xbf";
        let e = parse(twice, Path::new("f.csv"), &ReadOptions::default()).unwrap_err();
        assert_eq!(e.to_string(), "invalid data: f.csv is empty");
    }

    #[test]
    fn bom_and_crlf_are_handled() {
        let (t, _) = parse_str("\u{feff}a,y\r\n1,0\r\n2,1\r\n", &ReadOptions::default()).unwrap();
        assert_eq!(t.names, ["a"]);
        assert_eq!(t.columns[0], Column::Numeric(vec![1.0, 2.0]));
    }

    #[test]
    fn types_come_from_the_first_rows_and_a_later_misfit_names_its_place() {
        let mut text = String::from("a,b,y\n");
        for i in 0..TYPE_ROWS + 5 {
            text.push_str(&format!("{i},c{},{}\n", i % 3, i % 2));
        }
        let (t, _) = parse_str(&text, &ReadOptions::default()).unwrap();
        assert_eq!(t.n_rows(), TYPE_ROWS + 5);
        assert!(matches!(&t.columns[0], Column::Numeric(v) if v[TYPE_ROWS + 4] == 1004.0));
        assert!(
            matches!(&t.columns[1], Column::Categorical(v) if v.get(7) == "c1" && v.levels().len() == 3)
        );
        text.push_str("twelve,c0,1\n");
        let e = err(&text, &ReadOptions::default());
        let line = TYPE_ROWS + 7;
        assert!(
            e.contains(&format!("t.csv:{line}:1:"))
                && e.contains("its first 1000 rows are numbers")
                && e.contains("\"twelve\""),
            "{e}"
        );
    }

    #[test]
    fn read_streams_a_file_with_a_bom_and_crlf() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.csv");
        std::fs::write(&path, "\u{feff}a,b,y\r\n1,x,0\r\n2.5,y,1\r\n").unwrap();
        let got = read(&path, &ReadOptions::default()).unwrap();
        let RawInput::Table(t) = got.input else {
            panic!("expected a table")
        };
        assert_eq!(t.names, ["a", "b"]);
        assert_eq!(t.columns[0], Column::Numeric(vec![1.0, 2.5]));
        assert_eq!(got.labels.unwrap(), vec![Label::Int(0), Label::Int(1)]);
    }

    proptest::proptest! {
        #[test]
        fn blocks_of_any_size_on_any_threads_give_the_rows_and_error_of_one_block(
            rows in proptest::collection::vec(
                (proptest::collection::vec(0usize..12, 3), 0usize..4, 0usize..30),
                1..40,
            ),
            missing in 0usize..3,
        ) {
            const FIELDS: [&str; 12] = [
                "1", "2.5", "a", "\"x,y\"", "\"p\nq\"", "", "?", " b ", "\"\"\"\"", "-0",
                "\u{feff}c", "\"u\"v",
            ];
            const ENDS: [&str; 4] = ["\n", "\r\n", "\n\n", "\r"];
            let mut text = String::from("a,b,c\n");
            for (fields, end, short) in &rows {
                // now and then a row of two fields
                let n = if *short == 0 { 2 } else { 3 };
                let fields: Vec<&str> = fields[..n].iter().map(|&f| FIELDS[f]).collect();
                text.push_str(&fields.join(","));
                text.push_str(ENDS[*end]);
            }
            let opts = with_missing(
                [MissingPolicy::Error, MissingPolicy::DropRows, MissingPolicy::AsCategory][missing],
            );
            let outcome = |block_bytes: usize, threads: usize| {
                crate::threads::Threads::Count(threads)
                    .run(|| {
                        parse_in_blocks(text.as_bytes(), Path::new("t.csv"), &opts, block_bytes)
                            .map_err(|e| e.to_string())
                    })
                    .unwrap()
            };
            let whole = outcome(BLOCK_BYTES, 1);
            for (block_bytes, threads) in [(1, 2), (5, 3), (16, 2), (64, 4)] {
                proptest::prop_assert_eq!(&outcome(block_bytes, threads), &whole);
            }
        }
    }

    #[test]
    fn lines_count_blank_lines_and_crlf() {
        let e = err("a,y\r\n1,0\r\n2\r\n", &ReadOptions::default());
        assert!(e.contains("t.csv:3:2:"), "{e}");
        let e = err("a,y\n1,0\n\n\n2\n", &ReadOptions::default());
        assert!(e.contains("t.csv:5:2:"), "{e}");
    }

    #[test]
    fn sniff_reports_a_missing_file() {
        let e = sniff(Path::new("/nonexistent/x.csv"), &ReadOptions::default()).unwrap_err();
        assert!(matches!(e, Error::Io { .. }) && e.to_string().contains("/nonexistent/x.csv"));
    }
}
