//! How to read an input: its [`Format`] and, for CSV, the [`LabelColumn`] and the
//! [`MissingPolicy`], gathered in [`ReadOptions`] for [`read`](crate::data::read::read) and
//! the readers it dispatches to.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

/// An input file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Delimited table.
    Csv,
    /// LIBSVM / SVMlight sparse rows.
    Libsvm,
    /// `label<TAB>text` documents.
    Tsv,
    /// A folder of class folders of documents.
    Dir,
}

impl FromStr for Format {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "csv" => Ok(Format::Csv),
            "libsvm" => Ok(Format::Libsvm),
            "tsv" => Ok(Format::Tsv),
            "dir" => Ok(Format::Dir),
            _ => Err(Error::param(
                "format",
                s,
                "expected one of csv, libsvm, tsv, dir",
            )),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Csv => "csv",
            Format::Libsvm => "libsvm",
            Format::Tsv => "tsv",
            Format::Dir => "dir",
        })
    }
}

/// Which CSV column holds the label.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LabelColumn {
    /// The last column.
    #[default]
    Last,
    /// The column at this 0-based index.
    Index(usize),
    /// The column with this header name.
    Name(String),
    /// No label column (prediction input).
    None,
}

impl FromStr for LabelColumn {
    type Err = Error;
    /// `last`, `none`, a 0-based column number, or otherwise a header name.
    fn from_str(s: &str) -> Result<Self> {
        let t = s.trim();
        if t.is_empty() {
            return Err(Error::param(
                "label",
                s,
                "expected last, none, a 0-based column number or a column name",
            ));
        }
        Ok(match t.to_ascii_lowercase().as_str() {
            "last" => LabelColumn::Last,
            "none" => LabelColumn::None,
            _ => match t.parse::<usize>() {
                Ok(i) => LabelColumn::Index(i),
                Err(_) => LabelColumn::Name(t.to_string()),
            },
        })
    }
}

/// What to do with a missing CSV value (an empty field, `?` or `NA`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MissingPolicy {
    /// A missing value is a parse error naming its line and column.
    #[default]
    Error,
    /// Rows with a missing feature value are dropped.
    DropRows,
    /// In a categorical column a missing value is the category `?`; in a numeric column it is
    /// still an error.
    AsCategory,
}

impl FromStr for MissingPolicy {
    type Err = Error;
    /// `error`, `drop` (or `drop-rows`), `category` (or `as-category`): the first
    /// spellings are the command line's (`--missing drop`), and the ones messages use.
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "error" => Ok(MissingPolicy::Error),
            "drop-rows" | "drop" => Ok(MissingPolicy::DropRows),
            "as-category" | "category" => Ok(MissingPolicy::AsCategory),
            _ => Err(Error::param(
                "missing",
                s,
                "expected one of error, drop, category",
            )),
        }
    }
}

impl fmt::Display for MissingPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MissingPolicy::Error => "error",
            MissingPolicy::DropRows => "drop",
            MissingPolicy::AsCategory => "category",
        })
    }
}

/// How to read an input.
///
/// | name | default | meaning | valid range |
/// |---|---|---|---|
/// | `format` | `None` | input format; `None` guesses with [`guess_format`](crate::data::read::guess_format) | any [`Format`] |
/// | `delimiter` | `None` | CSV field separator; `None` sniffs among `,` `;` tab | one ASCII byte |
/// | `header` | `None` | whether the first CSV row is a header; `None` detects it | bool |
/// | `label` | `Last` | the CSV label column | any [`LabelColumn`] |
/// | `missing` | `Error` | CSV missing-value policy | any [`MissingPolicy`] |
/// | `n_features` | `None` | LIBSVM width; `None` = largest index seen | >= largest index |
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    pub format: Option<Format>,
    pub delimiter: Option<u8>,
    pub header: Option<bool>,
    pub label: LabelColumn,
    pub missing: MissingPolicy,
    pub n_features: Option<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_from_str_lists_choices() {
        assert_eq!("LibSVM".parse::<Format>().unwrap(), Format::Libsvm);
        assert_eq!("dir".parse::<Format>().unwrap(), Format::Dir);
        let e = "parquet".parse::<Format>().unwrap_err().to_string();
        assert!(
            e.contains("parquet") && e.contains("csv, libsvm, tsv, dir"),
            "{e}"
        );
    }

    #[test]
    fn label_column_from_str() {
        assert_eq!("last".parse::<LabelColumn>().unwrap(), LabelColumn::Last);
        assert_eq!("None".parse::<LabelColumn>().unwrap(), LabelColumn::None);
        assert_eq!("3".parse::<LabelColumn>().unwrap(), LabelColumn::Index(3));
        assert_eq!(
            "income".parse::<LabelColumn>().unwrap(),
            LabelColumn::Name("income".into())
        );
        assert!("  ".parse::<LabelColumn>().is_err());
    }

    #[test]
    fn missing_policy_from_str() {
        assert_eq!(
            "drop".parse::<MissingPolicy>().unwrap(),
            MissingPolicy::DropRows
        );
        assert_eq!(
            "as_category".parse::<MissingPolicy>().unwrap(),
            MissingPolicy::AsCategory
        );
        let e = "ignore".parse::<MissingPolicy>().unwrap_err().to_string();
        assert!(e.contains("error, drop, category"), "{e}");
        assert_eq!(MissingPolicy::DropRows.to_string(), "drop");
        assert_eq!(MissingPolicy::AsCategory.to_string(), "category");
        for p in [
            MissingPolicy::Error,
            MissingPolicy::DropRows,
            MissingPolicy::AsCategory,
        ] {
            assert_eq!(p.to_string().parse::<MissingPolicy>().unwrap(), p);
        }
    }
}
