//! What readers produce before any transform: a table, documents, or a feature matrix.

use std::path::PathBuf;

use crate::data::features::Features;
use crate::data::labels::Label;
use crate::error::{Error, Result};
use crate::intern::TermIndex;

/// One column of a delimited table.
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    /// Every value parsed as a number.
    Numeric(Vec<f64>),
    /// At least one value is not a number: the column is categorical.
    Categorical(Categories),
}

/// The values of a categorical column, interned: each distinct text once (its level) and
/// one level code per row. Two columns are equal when their rows hold the same texts,
/// whatever the order of their levels.
#[derive(Clone, Debug, Default)]
pub struct Categories {
    levels: Vec<String>,
    codes: Vec<u32>,
}

impl Categories {
    /// The column whose row `i` is `levels[codes[i]]`; a code out of range is an error.
    pub fn new(levels: Vec<String>, codes: Vec<u32>) -> Result<Self> {
        match codes.iter().position(|&c| c as usize >= levels.len()) {
            Some(i) => Err(Error::data(format!(
                "category code {} of row {} is out of range: there are {} levels",
                codes[i],
                i + 1,
                levels.len()
            ))),
            None => Ok(Categories { levels, codes }),
        }
    }
    /// The distinct texts, in order of first appearance (a row selection may leave some
    /// unused).
    pub fn levels(&self) -> &[String] {
        &self.levels
    }
    /// Per row, the index of its text in [`Categories::levels`].
    pub fn codes(&self) -> &[u32] {
        &self.codes
    }
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.codes.len()
    }
    /// True when the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }
    /// The text of row `i`.
    pub fn get(&self, i: usize) -> &str {
        &self.levels[self.codes[i] as usize]
    }
    /// The texts of the rows, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.codes.iter().map(|&c| self.levels[c as usize].as_str())
    }
    /// The rows `rows` (in that order, repeats allowed), sharing these levels.
    pub fn select_rows(&self, rows: &[usize]) -> Categories {
        Categories {
            levels: self.levels.clone(),
            codes: rows.iter().map(|&i| self.codes[i]).collect(),
        }
    }
}

impl PartialEq for Categories {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<S: AsRef<str>> FromIterator<S> for Categories {
    fn from_iter<I: IntoIterator<Item = S>>(values: I) -> Self {
        let mut column = Interner::default();
        for v in values {
            column.push(v.as_ref());
        }
        column.finish()
    }
}

/// Builds [`Categories`] row by row: a hash index from text to level code, so a repeated
/// text costs one lookup and no allocation.
#[derive(Debug, Default)]
pub(crate) struct Interner {
    index: TermIndex,
    codes: Vec<u32>,
}

impl Interner {
    /// Appends a row holding `value`.
    #[inline]
    pub(crate) fn push(&mut self, value: &str) {
        let code = self.index.get_or_insert(value);
        self.codes.push(code);
    }
    /// Appends a row holding the text of bytes `value`; `false` (nothing appended) when
    /// they are not UTF-8.
    #[inline]
    pub(crate) fn push_bytes(&mut self, value: &[u8]) -> bool {
        let Some(code) = self.index.get_or_insert_bytes(value) else {
            return false;
        };
        self.codes.push(code);
        true
    }
    /// Appends the rows of `other`, looking each of its levels up once.
    pub(crate) fn extend(&mut self, other: &Categories) {
        let map: Vec<u32> = other
            .levels
            .iter()
            .map(|l| self.index.get_or_insert(l))
            .collect();
        self.codes
            .extend(other.codes.iter().map(|&c| map[c as usize]));
    }
    /// The column.
    pub(crate) fn finish(self) -> Categories {
        Categories {
            levels: self.index.into_terms(),
            codes: self.codes,
        }
    }
}

impl Column {
    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Column::Numeric(v) => v.len(),
            Column::Categorical(v) => v.len(),
        }
    }
    /// True when the column holds no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Feature columns read from a CSV file (the label column removed).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Column names (from the header, or `x1`, `x2`... when there is none).
    pub names: Vec<String>,
    /// The columns, all of the same length.
    pub columns: Vec<Column>,
    /// File line of data row 0 (1-based), so later errors can name the line.
    pub first_line: usize,
}

impl Table {
    /// Number of data rows.
    pub fn n_rows(&self) -> usize {
        self.columns.first().map_or(0, Column::len)
    }
}

/// The raw form of a data set, before vectorizing or encoding.
#[derive(Clone, Debug, PartialEq)]
pub enum RawInput {
    /// Tabular data (CSV).
    Table(Table),
    /// One document per sample, in memory (TSV text).
    Text(Vec<String>),
    /// One document per sample, each in its own file (a folder of files), read only when
    /// vectorized so that a corpus is never in memory at once. A vectorizer treats it
    /// exactly as the [`RawInput::Text`] of the files' text.
    Files(Vec<PathBuf>),
    /// Numeric features ready to use (LIBSVM / SVMlight).
    Matrix(Features<'static>),
}

impl RawInput {
    /// Number of samples.
    pub fn n_rows(&self) -> usize {
        match self {
            RawInput::Table(t) => t.n_rows(),
            RawInput::Text(d) => d.len(),
            RawInput::Files(f) => f.len(),
            RawInput::Matrix(m) => m.n_rows(),
        }
    }
}

/// A reader's result: the raw samples, their labels when the file has them, and the source.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledInput {
    pub input: RawInput,
    pub labels: Option<Vec<Label>>,
    pub source: PathBuf,
}

impl Table {
    /// The rows `rows` (in that order) as a new table; `first_line` is kept for messages
    /// only when the rows are a prefix-preserving identity, otherwise line numbers refer to
    /// the selection.
    pub fn select_rows(&self, rows: &[usize]) -> Table {
        let columns = self
            .columns
            .iter()
            .map(|c| match c {
                Column::Numeric(v) => Column::Numeric(rows.iter().map(|&i| v[i]).collect()),
                Column::Categorical(v) => Column::Categorical(v.select_rows(rows)),
            })
            .collect();
        Table {
            names: self.names.clone(),
            columns,
            first_line: self.first_line,
        }
    }
}

impl RawInput {
    /// The samples `rows` (in that order, repeats allowed).
    pub fn select_rows(&self, rows: &[usize]) -> RawInput {
        match self {
            RawInput::Table(t) => RawInput::Table(t.select_rows(rows)),
            RawInput::Text(d) => RawInput::Text(rows.iter().map(|&i| d[i].clone()).collect()),
            RawInput::Files(f) => RawInput::Files(rows.iter().map(|&i| f[i].clone()).collect()),
            RawInput::Matrix(m) => RawInput::Matrix(m.select_rows(rows)),
        }
    }
}

impl LabelledInput {
    /// The labels, or an error naming the source and what needed them (`purpose`, e.g.
    /// "training needs one label per row").
    pub fn require_labels(&self, purpose: &str) -> Result<&[Label]> {
        self.labels.as_deref().ok_or_else(|| {
            Error::data(format!(
                "{} has no labels; {purpose} (see --label-col)",
                self.source.display()
            ))
        })
    }
}
