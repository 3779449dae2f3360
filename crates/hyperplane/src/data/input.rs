//! What readers produce before any transform: a table, documents, or a feature matrix.

use std::path::PathBuf;

use crate::data::labels::Label;
use crate::data::matrix::Features;

/// One column of a delimited table.
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    /// Every value parsed as a number.
    Numeric(Vec<f64>),
    /// At least one value is not a number: the column is categorical.
    Categorical(Vec<String>),
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
                Column::Categorical(v) => {
                    Column::Categorical(rows.iter().map(|&i| v[i].clone()).collect())
                }
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
    pub fn require_labels(&self, purpose: &str) -> crate::error::Result<&[Label]> {
        self.labels.as_deref().ok_or_else(|| {
            crate::error::Error::data(format!(
                "{} has no labels; {purpose} (see --label-col)",
                self.source.display()
            ))
        })
    }
}
