//! Tabular encoding: a [`Table`] of numeric and categorical columns to a feature matrix.
//!
//! Numeric columns pass through. A categorical column with sorted categories
//! `c_0 < ... < c_{k-1}` (byte order of the text) becomes either
//! - **one-hot**: `k` indicator columns named `column=c_i`, `x_i = [value == c_i]`; an unseen
//!   category gives all zeros (the model sees "none of the known values"), or
//! - **ordinal**: one column holding the index `i` of the value; an unseen category maps to
//!   `k`, one past the known ones, which categorical Naive Bayes smooths like any category
//!   it saw zero times.
//!
//! **Storage.** One-hot output of a table with a categorical column is CSR (at most one
//! indicator per categorical column per row, and the non-zero numbers), so its memory is
//! O(non-zeros); ordinal output, and a table of numbers only, is dense. Columns keep the
//! table's order either way: a numeric column's feature sits where the column is. Encoded
//! straight from a file for training, a CSR whose values are all exact in `f32` (indicators,
//! small integers) keeps them so, in 8 bytes an entry instead of 12 ([`CsrMatrix32`]).
//!
//! At transform time the table must hold exactly the training columns. They are matched by
//! name; when either the training or the new table had no header (its names are the
//! generated `x1, x2, ...`) they are matched by position instead and only the count must
//! agree. A column numeric at fit whose new values are not all numbers is an
//! [`Error::Parse`] naming the line, the column and the value. A column categorical at fit
//! that the reader now parsed as numbers is turned back into text with [`number_text`], and
//! a number also matches a category whose text parses to the same value (`3` matches `3.0`).

use std::borrow::Cow;
use std::path::Path;

use ndarray::Array2;
use serde::{Deserialize, Serialize};

use crate::data::csv::{self, Block, Head, TableBuilder};
use crate::data::labels::Labels;
use crate::data::read::ReadOptions;
use crate::data::{Column, CsrBuilder, CsrMatrix, CsrMatrix32, Features, OwnedFeatures, Table};
use crate::error::{Error, Result};
use crate::intern::TermIndex;

/// How categorical columns are encoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CategoricalEncoding {
    /// One 0/1 column per category (for linear models, SVMs, Bernoulli NB).
    #[default]
    OneHot,
    /// One column holding the category index (for categorical NB).
    Ordinal,
}

impl std::str::FromStr for CategoricalEncoding {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim() {
            "onehot" | "one-hot" => Ok(CategoricalEncoding::OneHot),
            "ordinal" => Ok(CategoricalEncoding::Ordinal),
            _ => Err(Error::param(
                "categorical",
                s,
                "valid encodings: onehot, ordinal",
            )),
        }
    }
}

impl std::fmt::Display for CategoricalEncoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CategoricalEncoding::OneHot => "onehot",
            CategoricalEncoding::Ordinal => "ordinal",
        })
    }
}

crate::param::choice_value!(CategoricalEncoding = ["onehot", "ordinal"]);

crate::params! {
    /// Encodes a [`Table`] into a feature matrix (see the [module docs](self)).
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
    pub struct TabularEncoder {
        pub categorical: CategoricalEncoding,
    }
    schema "encoder" {
        /// encoding of categorical columns
        categorical = "onehot", "`onehot`, `ordinal`" => categorical;
    }
}

impl TabularEncoder {
    /// The default params.
    pub fn new() -> Self {
        Self::default()
    }
    /// Sets the encoding of categorical columns.
    pub fn categorical(mut self, encoding: CategoricalEncoding) -> Self {
        self.categorical = encoding;
        self
    }

    /// Learns the schema of the training table: column names, which are numeric, and the
    /// sorted categories of each categorical column.
    pub fn fit(&self, table: &Table) -> Result<FittedTabularEncoder> {
        check_shape(table)?;
        if table.columns.is_empty() {
            return Err(Error::data("the table has 0 feature columns"));
        }
        if table.n_rows() == 0 {
            return Err(Error::data("the table has 0 rows; at least 1 is required"));
        }
        check_unique(&table.names)?;
        let columns = table
            .names
            .iter()
            .zip(&table.columns)
            .enumerate()
            .map(|(j, (name, col))| {
                let kind = match col {
                    Column::Numeric(v) => {
                        check_finite_column(v, name, j, table.first_line)?;
                        ColumnKind::Numeric
                    }
                    Column::Categorical(v) => {
                        // the levels some row holds (a row selection may leave others)
                        let mut used = vec![false; v.levels().len()];
                        for &c in v.codes() {
                            used[c as usize] = true;
                        }
                        let mut cats: Vec<String> = v
                            .levels()
                            .iter()
                            .zip(used)
                            .filter(|&(_, u)| u)
                            .map(|(l, _)| l.clone())
                            .collect();
                        cats.sort_unstable();
                        cats.dedup();
                        ColumnKind::Categorical(cats)
                    }
                };
                Ok(FittedColumn {
                    name: name.clone(),
                    kind,
                })
            })
            .collect::<Result<_>>()?;
        Ok(FittedTabularEncoder {
            encoding: self.categorical,
            columns,
        })
    }
}

impl TabularEncoder {
    /// Reads the delimited file `path` for training and encodes it as it is read: the fitted
    /// encoder, the features and the labels (interned). The same encoder and features as
    /// [`fit`](Self::fit) then [`transform`](FittedTabularEncoder::transform) on the table
    /// [`csv::read`] gives, but one-hot rows are built straight from the file's blocks (a
    /// value's column numbered when first met, renumbered at the end), so the file's values
    /// are never all held as columns beside the matrix; and when every value is exact in
    /// `f32`, as one-hot indicators and integers are, they are stored so
    /// ([`CsrMatrix32`]: two thirds of the memory, the same `f64`s read back).
    pub fn fit_transform_file(
        &self,
        path: &Path,
        opts: &ReadOptions,
    ) -> Result<(FittedTabularEncoder, OwnedFeatures, Option<Labels>)> {
        let file_bytes = crate::data::file::check_regular(path)?;
        let one_hot = self.categorical == CategoricalEncoding::OneHot;
        let mut sink = None;
        let head = csv::read_blocks(path, opts, |block, bytes| {
            let sink = sink.get_or_insert_with(|| {
                if one_hot
                    && block
                        .columns
                        .iter()
                        .any(|c| matches!(c, Column::Categorical(_)))
                {
                    Sink::OneHot(OneHotRows::new(&block, bytes, file_bytes))
                } else {
                    Sink::Table(TableBuilder::default())
                }
            });
            match sink {
                Sink::Table(t) => t.append(block),
                Sink::OneHot(rows) => rows.append(block),
            }
            Ok(())
        })?;
        match sink {
            Some(Sink::OneHot(rows)) => rows.finish(self, head),
            Some(Sink::Table(t)) => {
                let (table, labels) = t.finish(head);
                let fitted = self.fit(&table)?;
                let x = fitted.transform_source(&table, path)?;
                Ok((fitted, OwnedFeatures::Features(x), labels))
            }
            None => Err(Error::data(format!("{} has no rows", path.display()))),
        }
    }
}

/// Where the blocks of a file go: a table, or one-hot rows.
enum Sink {
    Table(TableBuilder),
    OneHot(OneHotRows),
}

/// One-hot rows as the blocks of a file arrive. Each numeric column and each level of a
/// categorical column (in order of first appearance) gets a value id; a row holds the ids of
/// its values, which become output columns once every level is known.
struct OneHotRows {
    columns: Vec<ValueIds>,
    n_ids: u32,
    indptr: Vec<usize>,
    indices: Vec<u32>,
    values: Values,
    labels: Option<Labels>,
}

/// The stored values of one-hot rows: `f32` while every value is exactly one (half the
/// memory), `f64` from the first that is not.
enum Values {
    F32(Vec<f32>),
    F64(Vec<f64>),
}

impl Values {
    #[inline]
    fn push(&mut self, v: f64) {
        match self {
            Values::F32(s) if f64::from(v as f32) == v => s.push(v as f32),
            Values::F32(s) => {
                let mut wide = Vec::with_capacity(s.capacity());
                wide.extend(s.iter().map(|&v| f64::from(v)));
                wide.push(v);
                *self = Values::F64(wide);
            }
            Values::F64(s) => s.push(v),
        }
    }
}

/// A column's value ids.
enum ValueIds {
    Numeric(u32),
    /// The levels met so far and each one's id.
    Categorical(TermIndex, Vec<u32>),
}

impl OneHotRows {
    /// Rows for the columns of `first` (a block of `bytes` bytes of a file of `file_bytes`),
    /// with room for the rows and entries the file's size suggests.
    fn new(first: &Block, bytes: usize, file_bytes: u64) -> Self {
        let mut n_ids = 0;
        let columns = first
            .columns
            .iter()
            .map(|c| match c {
                Column::Numeric(_) => {
                    n_ids += 1;
                    ValueIds::Numeric(n_ids - 1)
                }
                Column::Categorical(_) => ValueIds::Categorical(TermIndex::default(), Vec::new()),
            })
            .collect();
        let n_rows = first.columns[0].len();
        let nnz: usize = first
            .columns
            .iter()
            .map(|c| match c {
                Column::Numeric(v) => v.iter().filter(|&&v| v != 0.0).count(),
                Column::Categorical(c) => c.len(),
            })
            .sum();
        // a quarter over the first block's density: room that is never touched costs no memory
        let scale = |n: usize| (n as f64 * 1.25 * file_bytes as f64 / bytes.max(1) as f64) as usize;
        let mut indptr = Vec::with_capacity(scale(n_rows) + 1);
        indptr.push(0);
        OneHotRows {
            columns,
            n_ids,
            indptr,
            indices: Vec::with_capacity(scale(nnz)),
            values: Values::F32(Vec::with_capacity(scale(nnz))),
            labels: first.labels.as_ref().map(|_| Labels::default()),
        }
    }

    /// Appends the rows of `block`.
    fn append(&mut self, block: Block) {
        if let Some(labels) = &mut self.labels {
            block.append_labels_to(labels);
        }
        // each of the block's levels to its value id
        let ids: Vec<Vec<u32>> = self
            .columns
            .iter_mut()
            .zip(&block.columns)
            .map(|(to, from)| match (to, from) {
                (ValueIds::Categorical(index, ids), Column::Categorical(c)) => c
                    .levels()
                    .iter()
                    .map(|l| {
                        let code = index.get_or_insert(l) as usize;
                        if code == ids.len() {
                            ids.push(self.n_ids);
                            self.n_ids += 1;
                        }
                        ids[code]
                    })
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        for i in 0..block.columns[0].len() {
            for ((to, from), ids) in self.columns.iter().zip(&block.columns).zip(&ids) {
                match (to, from) {
                    (ValueIds::Numeric(id), Column::Numeric(v)) if v[i] != 0.0 => {
                        self.indices.push(*id);
                        self.values.push(v[i]);
                    }
                    (_, Column::Categorical(c)) => {
                        self.indices.push(ids[c.codes()[i] as usize]);
                        self.values.push(1.0);
                    }
                    _ => {}
                }
            }
            self.indptr.push(self.indices.len());
        }
    }

    /// The fitted encoder (each column's levels sorted), and the rows with each value id
    /// replaced by its output column.
    fn finish(
        mut self,
        params: &TabularEncoder,
        head: Head,
    ) -> Result<(FittedTabularEncoder, OwnedFeatures, Option<Labels>)> {
        check_unique(&head.names)?;
        let mut output = vec![0u32; self.n_ids as usize];
        let mut offset = 0;
        let columns = head
            .names
            .into_iter()
            .zip(self.columns)
            .map(|(name, ids)| {
                let kind = match ids {
                    ValueIds::Numeric(id) => {
                        output[id as usize] = offset;
                        offset += 1;
                        ColumnKind::Numeric
                    }
                    ValueIds::Categorical(index, ids) => {
                        let mut levels: Vec<(String, u32)> =
                            index.into_terms().into_iter().zip(ids).collect();
                        levels.sort_unstable();
                        for (rank, (_, id)) in levels.iter().enumerate() {
                            output[*id as usize] = offset + rank as u32;
                        }
                        offset += levels.len() as u32;
                        ColumnKind::Categorical(levels.into_iter().map(|(l, _)| l).collect())
                    }
                };
                FittedColumn { name, kind }
            })
            .collect();
        let fitted = FittedTabularEncoder {
            encoding: params.categorical,
            columns,
        };
        let n_cols = offset as usize;
        let small = |n: usize| i32::try_from(n).is_ok();
        let x = match self.values {
            Values::F32(mut values) if small(values.len()) && small(n_cols) => {
                values.shrink_to_fit();
                // reuses the buffer of `indices` (same size and alignment), then trims it
                let mut indices: Vec<i32> = (self.indices.into_iter())
                    .map(|j| output[j as usize] as i32)
                    .collect();
                indices.shrink_to_fit();
                let indptr = self.indptr.iter().map(|&p| p as i32).collect();
                drop(self.indptr);
                OwnedFeatures::Csr32(CsrMatrix32::new(n_cols, indptr, indices, values)?)
            }
            values => {
                let mut values = match values {
                    Values::F32(v) => v.into_iter().map(f64::from).collect(),
                    Values::F64(v) => v,
                };
                values.shrink_to_fit();
                for j in &mut self.indices {
                    *j = output[*j as usize];
                }
                self.indices.shrink_to_fit();
                self.indptr.shrink_to_fit();
                let x = CsrMatrix::new(n_cols, self.indptr, self.indices, values)?;
                OwnedFeatures::Features(Features::Sparse(x))
            }
        };
        Ok((fitted, x, self.labels))
    }
}

/// Rejects a column name that appears twice, naming both columns.
fn check_unique(names: &[String]) -> Result<()> {
    let mut first = std::collections::HashMap::with_capacity(names.len());
    for (j, name) in names.iter().enumerate() {
        if let Some(k) = first.insert(name.as_str(), j) {
            return Err(Error::data(format!(
                "column name {name:?} appears twice (columns {} and {}); names must be unique",
                k + 1,
                j + 1
            )));
        }
    }
    Ok(())
}

/// The canonical text of a number read into a column that was categorical at fit: Rust's
/// shortest round-trip formatting, which writes whole numbers without a fraction
/// (`3.0` -> `"3"`, `2.5` -> `"2.5"`, `1e-7` -> `"0.0000001"`), with `-0` written `"0"`.
pub fn number_text(v: f64) -> String {
    if v == 0.0 {
        "0".to_string()
    } else {
        v.to_string()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum ColumnKind {
    Numeric,
    /// Sorted, distinct categories.
    Categorical(Vec<String>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct FittedColumn {
    name: String,
    kind: ColumnKind,
}

/// A fitted [`TabularEncoder`]: the training table's schema, saved inside model files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedTabularEncoder {
    encoding: CategoricalEncoding,
    columns: Vec<FittedColumn>,
}

/// A fitted column's values for a table's rows (see `FittedTabularEncoder::encoded_columns`).
enum Encoded<'t> {
    /// A number per row: a numeric column's, or an ordinal category code.
    Numeric(Cow<'t, [f64]>),
    /// The output column of each row's indicator, `u32::MAX` for an unseen category.
    Indicator(Vec<u32>),
}

impl FittedTabularEncoder {
    /// The encoding of categorical columns.
    pub fn encoding(&self) -> CategoricalEncoding {
        self.encoding
    }
    /// Names of the training columns, in order.
    pub fn column_names(&self) -> Vec<&str> {
        self.columns.iter().map(|c| c.name.as_str()).collect()
    }
    /// Each categorical column's name and sorted categories (for display).
    pub fn categorical_columns(&self) -> Vec<(&str, &[String])> {
        self.columns
            .iter()
            .filter_map(|c| match &c.kind {
                ColumnKind::Categorical(cats) => Some((c.name.as_str(), cats.as_slice())),
                ColumnKind::Numeric => None,
            })
            .collect()
    }
    /// Number of table columns the encoder was fitted on.
    pub fn n_features_in(&self) -> usize {
        self.columns.len()
    }
    /// Number of output features.
    pub fn n_features_out(&self) -> usize {
        self.columns.iter().map(|c| self.width(c)).sum()
    }

    fn width(&self, c: &FittedColumn) -> usize {
        match (&c.kind, self.encoding) {
            (ColumnKind::Categorical(cats), CategoricalEncoding::OneHot) => cats.len(),
            _ => 1,
        }
    }

    /// Names of the output features: a numeric or ordinal column keeps its name, a one-hot
    /// indicator is named `column=category`.
    pub fn feature_names(&self) -> Vec<String> {
        let mut names = Vec::with_capacity(self.n_features_out());
        for c in &self.columns {
            match (&c.kind, self.encoding) {
                (ColumnKind::Categorical(cats), CategoricalEncoding::OneHot) => {
                    names.extend(cats.iter().map(|v| format!("{}={v}", c.name)))
                }
                _ => names.push(c.name.clone()),
            }
        }
        names
    }

    /// Per output feature, the number of categories: `Some(k)` for an ordinal column with
    /// `k` known categories (values `0..k`, and `k` for an unseen one), `Some(2)` for a
    /// one-hot indicator (values 0 and 1), `None` for a numeric column.
    pub fn n_categories(&self) -> Vec<Option<usize>> {
        let mut out = Vec::with_capacity(self.n_features_out());
        for c in &self.columns {
            match (&c.kind, self.encoding) {
                (ColumnKind::Numeric, _) => out.push(None),
                (ColumnKind::Categorical(cats), CategoricalEncoding::Ordinal) => {
                    out.push(Some(cats.len()))
                }
                (ColumnKind::Categorical(cats), CategoricalEncoding::OneHot) => {
                    out.extend(std::iter::repeat_n(Some(2), cats.len()))
                }
            }
        }
        out
    }

    /// Output indices of the numeric (passed-through) features: the ones to scale or bin.
    pub fn numeric_features(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut offset = 0;
        for c in &self.columns {
            if c.kind == ColumnKind::Numeric {
                out.push(offset);
            }
            offset += self.width(c);
        }
        out
    }

    /// Encodes a table with the training schema. A parse error carries an empty file
    /// path; use [`transform_source`](Self::transform_source) to name the file.
    pub fn transform(&self, table: &Table) -> Result<Features<'static>> {
        self.transform_source(table, Path::new(""))
    }

    /// Encodes a table read from `source` (named in parse errors).
    pub fn transform_source(&self, table: &Table, source: &Path) -> Result<Features<'static>> {
        let order = self.match_columns(table)?;
        if self.encoding == CategoricalEncoding::OneHot
            && self
                .columns
                .iter()
                .any(|c| matches!(c.kind, ColumnKind::Categorical(_)))
        {
            return self.one_hot_csr(table, &order, source);
        }
        let columns = self.encoded_columns(table, &order, source)?;
        let p = self.n_features_out();
        let mut out = Array2::zeros((table.n_rows(), p));
        if p == 0 {
            return Ok(Features::from(out));
        }
        // The table is held by columns and the matrix by rows: copied block of rows by block
        // of rows, so the rows being written stay in cache while every column is read.
        const ROWS: usize = 64;
        let flat = out.as_slice_mut().expect("standard layout");
        for (b, block) in flat.chunks_mut(ROWS * p).enumerate() {
            let rows = b * ROWS..b * ROWS + block.len() / p;
            for (at, c) in &columns {
                let cells = block.chunks_mut(p).zip(rows.clone());
                match c {
                    Encoded::Numeric(v) => cells.for_each(|(row, i)| row[*at] = v[i]),
                    Encoded::Indicator(k) => cells
                        .filter(|&(_, i)| k[i] != u32::MAX)
                        .for_each(|(row, i)| row[k[i] as usize] = 1.0),
                }
            }
        }
        Ok(Features::from(out))
    }

    /// The one-hot encoding as CSR: per row, the non-zero numeric values and one indicator
    /// per categorical column (none for an unseen category), in output column order.
    fn one_hot_csr(
        &self,
        table: &Table,
        order: &[usize],
        source: &Path,
    ) -> Result<Features<'static>> {
        let columns = self.encoded_columns(table, order, source)?;
        let mut out = CsrBuilder::new(self.n_features_out());
        // exactly the non-zeros, counted first: no spare capacity in the largest buffers
        out.reserve(
            columns
                .iter()
                .map(|(_, c)| match c {
                    Encoded::Numeric(v) => v.iter().filter(|&&v| v != 0.0).count(),
                    Encoded::Indicator(k) => k.iter().filter(|&&k| k != u32::MAX).count(),
                })
                .sum(),
        );
        for i in 0..table.n_rows() {
            out.push_sorted_row(columns.iter().filter_map(|(at, c)| match c {
                Encoded::Numeric(v) => (v[i] != 0.0).then_some((*at, v[i])),
                Encoded::Indicator(k) => (k[i] != u32::MAX).then_some((k[i] as usize, 1.0)),
            }));
        }
        Ok(Features::Sparse(out.finish()))
    }

    /// Each fitted column's values for the table's rows, beside its first output column:
    /// numbers (checked finite), one-hot indicators or ordinal codes.
    fn encoded_columns<'t>(
        &self,
        table: &'t Table,
        order: &[usize],
        source: &Path,
    ) -> Result<Vec<(usize, Encoded<'t>)>> {
        let mut columns = Vec::with_capacity(self.columns.len());
        let mut offset = 0;
        for (fitted, &src) in self.columns.iter().zip(order) {
            let column = &table.columns[src];
            let encoded = match &fitted.kind {
                ColumnKind::Numeric => {
                    let values = numeric_values(column, &fitted.name, src, table, source)?;
                    check_finite_column(&values, &fitted.name, src, table.first_line)?;
                    Encoded::Numeric(values)
                }
                ColumnKind::Categorical(cats) => {
                    let codes = category_codes(column, cats).into_iter();
                    match self.encoding {
                        CategoricalEncoding::OneHot => Encoded::Indicator(
                            codes
                                .map(|k| k.map_or(u32::MAX, |k| (offset + k) as u32))
                                .collect(),
                        ),
                        // an unseen category is `k`, one past the known ones
                        CategoricalEncoding::Ordinal => Encoded::Numeric(Cow::Owned(
                            codes.map(|k| k.unwrap_or(cats.len()) as f64).collect(),
                        )),
                    }
                }
            };
            columns.push((offset, encoded));
            offset += self.width(fitted);
        }
        Ok(columns)
    }

    /// For each fitted column, the index of the table column that holds it.
    fn match_columns(&self, table: &Table) -> Result<Vec<usize>> {
        check_shape(table)?;
        let fitted_names: Vec<&str> = self.column_names();
        let generated = |names: &[&str]| {
            names
                .iter()
                .enumerate()
                .all(|(i, n)| *n == format!("x{}", i + 1))
        };
        let table_names: Vec<&str> = table.names.iter().map(String::as_str).collect();
        if table_names == fitted_names || generated(&table_names) || generated(&fitted_names) {
            if table.columns.len() != self.columns.len() {
                return Err(Error::FeatureCount {
                    expected: self.columns.len(),
                    found: table.columns.len(),
                });
            }
            return Ok((0..self.columns.len()).collect());
        }
        let quote = |v: Vec<&str>| {
            v.iter()
                .map(|n| format!("{n:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let missing: Vec<&str> = fitted_names
            .iter()
            .filter(|n| !table_names.contains(n))
            .copied()
            .collect();
        if !missing.is_empty() {
            return Err(Error::data(format!(
                "the input lacks the training column(s) {}",
                quote(missing)
            )));
        }
        let extra: Vec<&str> = table_names
            .iter()
            .filter(|n| !fitted_names.contains(n))
            .copied()
            .collect();
        if !extra.is_empty() {
            return Err(Error::data(format!(
                "the input has column(s) {} that the model was not trained on",
                quote(extra)
            )));
        }
        if table_names.len() != fitted_names.len() {
            return Err(Error::data(
                "the input repeats a column name; names must be unique",
            ));
        }
        Ok(fitted_names
            .iter()
            .map(|n| table_names.iter().position(|t| t == n).unwrap_or_default())
            .collect())
    }
}

/// Checks that names and columns agree in number and every column has the same length.
fn check_shape(table: &Table) -> Result<()> {
    if table.names.len() != table.columns.len() {
        return Err(Error::data(format!(
            "the table has {} column names but {} columns",
            table.names.len(),
            table.columns.len()
        )));
    }
    let n = table.n_rows();
    if let Some((name, c)) = table
        .names
        .iter()
        .zip(&table.columns)
        .find(|(_, c)| c.len() != n)
    {
        return Err(Error::data(format!(
            "column {name:?} has {} values but the first column has {n}",
            c.len()
        )));
    }
    Ok(())
}

/// Rejects NaN and infinity in numeric column `j`, naming the column and its file line.
fn check_finite_column(values: &[f64], name: &str, j: usize, first_line: usize) -> Result<()> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(row) => Err(Error::NonFinite {
            what: format!("column {name:?} (line {})", first_line + row),
            row,
            feature: j,
            value: values[row],
        }),
        None => Ok(()),
    }
}

/// The values of a column fitted as numeric; text that is not a number is a parse error.
/// Each distinct text is parsed once.
fn numeric_values<'t>(
    column: &'t Column,
    name: &str,
    j: usize,
    table: &Table,
    source: &Path,
) -> Result<Cow<'t, [f64]>> {
    match column {
        Column::Numeric(v) => Ok(Cow::Borrowed(v)),
        Column::Categorical(text) => {
            let parsed: Vec<Option<f64>> = text
                .levels()
                .iter()
                .map(|s| s.trim().parse::<f64>().ok())
                .collect();
            text.codes()
                .iter()
                .enumerate()
                .map(|(row, &c)| {
                    parsed[c as usize].ok_or_else(|| Error::Parse {
                        file: source.to_path_buf(),
                        line: table.first_line + row,
                        column: j + 1,
                        expected: format!(
                            "a number in column {name:?} (numeric in the training data)"
                        ),
                        found: format!("{:?}", text.get(row)),
                    })
                })
                .collect()
        }
    }
}

/// The index of each value in the sorted categories `cats` (`None` when unseen). Each
/// level of a categorical column is looked up once.
fn category_codes(column: &Column, cats: &[String]) -> Vec<Option<usize>> {
    match column {
        Column::Categorical(text) => {
            let fitted: Vec<Option<usize>> = text
                .levels()
                .iter()
                .map(|l| cats.binary_search(l).ok())
                .collect();
            text.codes().iter().map(|&c| fitted[c as usize]).collect()
        }
        Column::Numeric(values) => {
            // Categories that read as numbers, by value; on equal values the first in
            // sorted text order wins.
            let mut by_value: Vec<(f64, usize)> = cats
                .iter()
                .enumerate()
                .filter_map(|(k, c)| c.trim().parse::<f64>().ok().map(|v| (v, k)))
                .collect();
            by_value.sort_by(|a, b| a.0.total_cmp(&b.0));
            values
                .iter()
                .map(|&v| {
                    cats.binary_search(&number_text(v)).ok().or_else(|| {
                        let p = by_value.partition_point(|e| e.0 < v);
                        by_value.get(p).filter(|e| e.0 == v).map(|e| e.1)
                    })
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Label, RawInput};
    use crate::param::Params;
    use ndarray::array;
    use std::path::PathBuf;

    fn text(v: &[&str]) -> Column {
        Column::Categorical(v.iter().collect())
    }

    fn table(names: &[&str], columns: Vec<Column>) -> Table {
        Table {
            names: names.iter().map(|s| s.to_string()).collect(),
            columns,
            first_line: 2,
        }
    }

    fn train() -> Table {
        table(
            &["age", "colour"],
            vec![
                Column::Numeric(vec![30.0, 41.5, 25.0]),
                text(&["red", "blue", "red"]),
            ],
        )
    }

    #[test]
    fn one_hot_by_hand() {
        let f = TabularEncoder::new().fit(&train()).unwrap();
        assert_eq!(f.feature_names(), ["age", "colour=blue", "colour=red"]);
        assert_eq!(f.n_features_in(), 2);
        assert_eq!(f.n_features_out(), 3);
        assert_eq!(f.n_categories(), [None, Some(2), Some(2)]);
        assert_eq!(f.numeric_features(), [0]);
        let c = f.categorical_columns();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].0, "colour");
        assert_eq!(c[0].1, ["blue", "red"]);
        let x = f.transform(&train()).unwrap();
        assert!(x.is_sparse());
        assert_eq!(x.nnz(), 6);
        assert_eq!(
            x.to_dense(),
            array![[30.0, 0.0, 1.0], [41.5, 1.0, 0.0], [25.0, 0.0, 1.0]]
        );
    }

    #[test]
    fn one_hot_is_csr_of_the_non_zeros_and_numbers_only_stay_dense() {
        let t = table(
            &["colour", "n", "size"],
            vec![
                text(&["red", "blue", "green"]),
                Column::Numeric(vec![0.0, -2.0, 0.0]),
                text(&["S", "L", "S"]),
            ],
        );
        let f = TabularEncoder::new().fit(&t).unwrap();
        let new = table(
            &["colour", "n", "size"],
            vec![
                text(&["blue", "pink"]),
                Column::Numeric(vec![0.0, 3.5]),
                text(&["S", "M"]),
            ],
        );
        let Features::Sparse(x) = f.transform(&new).unwrap() else {
            panic!("one-hot output should be CSR")
        };
        // features: colour=blue, colour=green, colour=red, n, size=L, size=S
        assert_eq!(x.row(0), (&[0, 5][..], &[1.0, 1.0][..]));
        assert_eq!(x.row(1), (&[3][..], &[3.5][..]));
        let numbers = table(&["a"], vec![Column::Numeric(vec![0.0, 1.0])]);
        let g = TabularEncoder::new().fit(&numbers).unwrap();
        assert!(!g.transform(&numbers).unwrap().is_sparse());
        let ordinal = TabularEncoder::new()
            .categorical(CategoricalEncoding::Ordinal)
            .fit(&t)
            .unwrap();
        assert!(!ordinal.transform(&t).unwrap().is_sparse());
    }

    #[test]
    fn dense_output_is_copied_by_blocks_of_rows_exactly() {
        // 150 rows: two full blocks of 64 and a short one
        let n = 150;
        let levels = ["x", "y", "z"];
        let t = table(
            &["a", "b", "c"],
            vec![
                Column::Numeric((0..n).map(|i| i as f64).collect()),
                text(&(0..n).map(|i| levels[i % 3]).collect::<Vec<_>>()),
                Column::Numeric((0..n).map(|i| -(i as f64) / 2.0).collect()),
            ],
        );
        let f = TabularEncoder::new()
            .categorical(CategoricalEncoding::Ordinal)
            .fit(&t)
            .unwrap();
        let Features::Dense(x) = f.transform(&t).unwrap() else {
            panic!("ordinal output should be dense")
        };
        assert_eq!(x.dim(), (n, 3));
        for i in 0..n {
            let row = [i as f64, (i % 3) as f64, -(i as f64) / 2.0];
            assert_eq!(x.row(i).to_vec(), row, "row {i}");
        }
    }

    #[test]
    fn a_file_encoded_as_read_is_its_table_encoded_on_any_threads() {
        use crate::data::read::{LabelColumn, MissingPolicy, ReadOptions};
        use crate::threads::Threads;
        // over a megabyte: many blocks, levels first met in late blocks, zeros, missing values
        let mut text = String::from("n,colour,size,y\n");
        for i in 0..40_000u32 {
            let colour = ["red", "blue", "?", "green"][(i % 7 % 4) as usize];
            let size = if i < 30_000 {
                format!("s{}", i % 3)
            } else {
                format!("late{}", i % 5)
            };
            text.push_str(&format!(
                "{},{colour},{size},{}\n",
                i % 4,
                ["no", "yes"][(i % 3 % 2) as usize]
            ));
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.csv");
        std::fs::write(&path, &text).unwrap();
        for missing in [MissingPolicy::AsCategory, MissingPolicy::DropRows] {
            let opts = ReadOptions {
                label: LabelColumn::Name("y".into()),
                missing,
                ..ReadOptions::default()
            };
            let data = crate::data::csv::read(&path, &opts).unwrap();
            let RawInput::Table(table) = &data.input else {
                panic!("a table")
            };
            let fitted = TabularEncoder::new().fit(table).unwrap();
            let x = fitted.transform(table).unwrap();
            for threads in [1, 3] {
                let (f, y, labels) = Threads::Count(threads)
                    .run(|| TabularEncoder::new().fit_transform_file(&path, &opts))
                    .unwrap()
                    .unwrap();
                assert_eq!(f, fitted);
                // small integers and indicators: stored as f32, read back the same
                assert!(matches!(y, OwnedFeatures::Csr32(_)));
                assert_eq!(y.into_features(), x);
                let labels: Vec<Label> = labels.unwrap().iter().cloned().collect();
                assert_eq!(Some(labels), data.labels);
            }
        }
    }

    #[test]
    fn values_not_exact_in_f32_are_stored_as_f64_from_any_row() {
        use crate::data::read::{LabelColumn, ReadOptions};
        // a value f32 cannot hold, first met in the last row, in the middle, in the first
        for late in [19_999, 10_000, 0] {
            for odd in [0.1, 16_777_217.0, 1e-300] {
                let mut text = String::from("n,colour,y\n");
                for i in 0..20_000u32 {
                    let n = if i == late { odd } else { f64::from(i % 9) };
                    text.push_str(&format!("{n:e},c{},{}\n", i % 3, i % 2));
                }
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join("odd.csv");
                std::fs::write(&path, &text).unwrap();
                let opts = ReadOptions {
                    label: LabelColumn::Name("y".into()),
                    ..ReadOptions::default()
                };
                let (_, x, _) = TabularEncoder::new()
                    .fit_transform_file(&path, &opts)
                    .unwrap();
                let OwnedFeatures::Features(Features::Sparse(x)) = x else {
                    panic!("f64 storage for {odd} in row {late}")
                };
                let data = crate::data::csv::read(&path, &opts).unwrap();
                let RawInput::Table(table) = &data.input else {
                    panic!("a table")
                };
                let expected = TabularEncoder::new().fit(table).unwrap().transform(table);
                assert_eq!(
                    Features::Sparse(x),
                    expected.unwrap(),
                    "{odd} in row {late}"
                );
            }
        }
    }

    #[test]
    fn ordinal_by_hand_with_unseen_category() {
        let f = TabularEncoder::new()
            .categorical(CategoricalEncoding::Ordinal)
            .fit(&train())
            .unwrap();
        assert_eq!(f.feature_names(), ["age", "colour"]);
        assert_eq!(f.n_categories(), [None, Some(2)]);
        let t = table(
            &["age", "colour"],
            vec![Column::Numeric(vec![1.0, 2.0]), text(&["green", "red"])],
        );
        // green is unseen: index k = 2.
        assert_eq!(
            f.transform(&t).unwrap().to_dense(),
            array![[1.0, 2.0], [2.0, 1.0]]
        );
    }

    #[test]
    fn unseen_one_hot_category_is_all_zeros() {
        let f = TabularEncoder::new().fit(&train()).unwrap();
        let t = table(
            &["age", "colour"],
            vec![Column::Numeric(vec![1.0]), text(&["green"])],
        );
        assert_eq!(f.transform(&t).unwrap().to_dense(), array![[1.0, 0.0, 0.0]]);
    }

    #[test]
    fn columns_match_by_name_in_any_order() {
        let f = TabularEncoder::new().fit(&train()).unwrap();
        let t = table(
            &["colour", "age"],
            vec![text(&["blue"]), Column::Numeric(vec![7.0])],
        );
        assert_eq!(f.transform(&t).unwrap().to_dense(), array![[7.0, 1.0, 0.0]]);
    }

    #[test]
    fn missing_and_extra_columns_are_named() {
        let f = TabularEncoder::new().fit(&train()).unwrap();
        let t = table(&["age"], vec![Column::Numeric(vec![1.0])]);
        let e = f.transform(&t).unwrap_err().to_string();
        assert!(e.contains("\"colour\"") && e.contains("lacks"), "{e}");
        let t = table(
            &["age", "colour", "size"],
            vec![
                Column::Numeric(vec![1.0]),
                text(&["red"]),
                Column::Numeric(vec![3.0]),
            ],
        );
        let e = f.transform(&t).unwrap_err().to_string();
        assert!(
            e.contains("\"size\"") && e.contains("not trained on"),
            "{e}"
        );
    }

    #[test]
    fn headerless_tables_match_by_position() {
        let f = TabularEncoder::new().fit(&train()).unwrap();
        let t = table(
            &["x1", "x2"],
            vec![Column::Numeric(vec![5.0]), text(&["red"])],
        );
        assert_eq!(f.transform(&t).unwrap().to_dense(), array![[5.0, 0.0, 1.0]]);
        let t = table(&["x1"], vec![Column::Numeric(vec![5.0])]);
        assert!(matches!(
            f.transform(&t),
            Err(Error::FeatureCount {
                expected: 2,
                found: 1
            })
        ));
        // Trained without a header, applied to a file with one.
        let g = TabularEncoder::new()
            .fit(&table(&["x1"], vec![Column::Numeric(vec![1.0])]))
            .unwrap();
        let t = table(&["height"], vec![Column::Numeric(vec![4.0])]);
        assert_eq!(g.transform(&t).unwrap().to_dense(), array![[4.0]]);
    }

    #[test]
    fn text_in_a_numeric_column_is_a_parse_error_naming_line_field_value() {
        let f = TabularEncoder::new().fit(&train()).unwrap();
        let t = table(
            &["age", "colour"],
            vec![text(&["12", " 13 ", "old"]), text(&["red", "red", "red"])],
        );
        match f.transform_source(&t, Path::new("new.csv")).unwrap_err() {
            Error::Parse {
                file,
                line,
                column,
                found,
                expected,
            } => {
                assert_eq!(file, PathBuf::from("new.csv"));
                assert_eq!(line, 4); // first_line 2 + row 2
                assert_eq!(column, 1);
                assert_eq!(found, "\"old\"");
                assert!(expected.contains("age"), "{expected}");
            }
            e => panic!("{e}"),
        }
        let t = table(
            &["age", "colour"],
            vec![text(&["12", " 13 "]), text(&["red", "blue"])],
        );
        assert_eq!(
            f.transform(&t).unwrap().to_dense(),
            array![[12.0, 0.0, 1.0], [13.0, 1.0, 0.0]]
        );
    }

    #[test]
    fn numbers_in_a_categorical_column_match_their_text() {
        let t = table(&["size"], vec![text(&["3", "2.5", "L", "4.0"])]);
        let f = TabularEncoder::new()
            .categorical(CategoricalEncoding::Ordinal)
            .fit(&t)
            .unwrap();
        // sorted categories: "2.5", "3", "4.0", "L"
        let c = f.categorical_columns();
        assert_eq!(c[0].1, ["2.5", "3", "4.0", "L"]);
        let t = table(&["size"], vec![Column::Numeric(vec![3.0, 2.5, 4.0, 7.0])]);
        assert_eq!(
            f.transform(&t).unwrap().to_dense().column(0).to_vec(),
            vec![1.0, 0.0, 2.0, 4.0]
        );
    }

    #[test]
    fn number_text_is_canonical() {
        assert_eq!(number_text(3.0), "3");
        assert_eq!(number_text(-0.0), "0");
        assert_eq!(number_text(-12.0), "-12");
        assert_eq!(number_text(2.5), "2.5");
        assert_eq!(number_text(0.1), "0.1");
        assert_eq!(number_text(1e-7), "0.0000001");
    }

    #[test]
    fn fit_and_transform_reject_bad_tables() {
        let enc = TabularEncoder::new();
        let nan = table(&["a"], vec![Column::Numeric(vec![1.0, f64::NAN])]);
        let e = enc.fit(&nan).unwrap_err().to_string();
        assert!(e.contains("\"a\"") && e.contains("line 3"), "{e}");
        let dup = table(
            &["a", "a"],
            vec![Column::Numeric(vec![1.0]), Column::Numeric(vec![2.0])],
        );
        assert!(enc.fit(&dup).unwrap_err().to_string().contains("twice"));
        let ragged = table(
            &["a", "b"],
            vec![Column::Numeric(vec![1.0]), Column::Numeric(vec![2.0, 3.0])],
        );
        assert!(enc.fit(&ragged).unwrap_err().to_string().contains("\"b\""));
        assert!(enc.fit(&table(&[], vec![])).is_err());
        assert!(enc
            .fit(&table(&["a"], vec![Column::Numeric(vec![])]))
            .is_err());
        let f = enc.fit(&train()).unwrap();
        let inf = table(
            &["age", "colour"],
            vec![Column::Numeric(vec![f64::INFINITY]), text(&["red"])],
        );
        assert!(matches!(f.transform(&inf), Err(Error::NonFinite { .. })));
    }

    #[test]
    fn fitted_encoder_round_trips_through_serde() {
        let f = TabularEncoder::new()
            .categorical(CategoricalEncoding::Ordinal)
            .fit(&train())
            .unwrap();
        let back: FittedTabularEncoder =
            serde_json::from_str(&serde_json::to_string(&f).unwrap()).unwrap();
        assert_eq!(back, f);
        assert_eq!(
            back.transform(&train()).unwrap(),
            f.transform(&train()).unwrap()
        );
    }

    #[test]
    fn params_by_name() {
        let mut p = TabularEncoder::new();
        p.set_param("categorical", "ordinal").unwrap();
        assert_eq!(p.categorical, CategoricalEncoding::Ordinal);
        assert!(p.set_param("categorical", "binary").is_err());
        assert!(p.set_param("bins", "3").is_err());
        assert_eq!(p.param_values(), [("categorical".into(), "ordinal".into())]);
    }

    proptest::proptest! {
        #[test]
        fn training_rows_encode_one_indicator_per_categorical_column(
            rows in proptest::collection::vec((0u8..5, 0u8..3, -1e3f64..1e3), 1..30),
        ) {
            let t = table(
                &["a", "b", "n"],
                vec![
                    Column::Categorical(rows.iter().map(|r| format!("a{}", r.0)).collect()),
                    Column::Categorical(rows.iter().map(|r| r.1.to_string()).collect()),
                    Column::Numeric(rows.iter().map(|r| r.2).collect()),
                ],
            );
            let onehot = TabularEncoder::new().fit(&t).unwrap();
            let x = onehot.transform(&t).unwrap().to_dense();
            proptest::prop_assert_eq!(x.ncols(), onehot.feature_names().len());
            let n = onehot.numeric_features()[0];
            for (i, row) in x.rows().into_iter().enumerate() {
                let ones = row.iter().enumerate().filter(|&(j, &v)| j != n && v == 1.0).count();
                let zeros = row.iter().enumerate().filter(|&(j, &v)| j != n && v == 0.0).count();
                proptest::prop_assert_eq!((ones, ones + zeros), (2, row.len() - 1));
                proptest::prop_assert_eq!(row[n], rows[i].2);
            }
            let ordinal = TabularEncoder::new()
                .categorical(CategoricalEncoding::Ordinal)
                .fit(&t)
                .unwrap();
            let x = ordinal.transform(&t).unwrap().to_dense();
            for (j, k) in ordinal.n_categories().into_iter().enumerate() {
                if let Some(k) = k {
                    proptest::prop_assert!(x.column(j).iter().all(|&v| v >= 0.0 && v < k as f64));
                }
            }
        }
    }
}
