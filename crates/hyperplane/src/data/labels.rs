//! Class labels of any kind, encoded once.
//!
//! A [`Label`] is an integer (`0`, `7`, `-1`, `+1`) or a string (`"spam"`, `"1.5"`).
//! Text read from a file becomes an integer when it parses as one, so `+1` and `1`
//! are the same class. [`encode`] sorts the distinct labels (integers first, numerically;
//! then strings, lexicographically, as scikit-learn's `np.unique`) and maps each sample
//! to its class index; models keep the sorted list and give the labels back.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// One class label.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Label {
    Int(i64),
    Text(String),
}

impl Label {
    /// Reads a label from text: an integer when it parses as one, otherwise the text itself.
    pub fn parse(s: &str) -> Label {
        let t = s.trim();
        match t.parse::<i64>() {
            Ok(v) => Label::Int(v),
            Err(_) => Label::Text(t.to_string()),
        }
    }

    /// A label from a floating-point target, rejecting NaN and infinity; integral values
    /// become [`Label::Int`].
    pub fn from_f64(v: f64, row: usize) -> Result<Label> {
        if !v.is_finite() {
            return Err(Error::NonFinite {
                what: "y".into(),
                row,
                feature: 0,
                value: v,
            });
        }
        if v.fract() == 0.0 && v.abs() < 9.0e15 {
            Ok(Label::Int(v as i64))
        } else {
            Ok(Label::Text(v.to_string()))
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Int(v) => write!(f, "{v}"),
            Label::Text(s) => f.write_str(s),
        }
    }
}

impl Ord for Label {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Label::Int(a), Label::Int(b)) => a.cmp(b),
            (Label::Int(_), Label::Text(_)) => Ordering::Less,
            (Label::Text(_), Label::Int(_)) => Ordering::Greater,
            (Label::Text(a), Label::Text(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Label {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl From<i64> for Label {
    fn from(v: i64) -> Self {
        Label::Int(v)
    }
}
impl From<i32> for Label {
    fn from(v: i32) -> Self {
        Label::Int(v as i64)
    }
}
impl From<&str> for Label {
    fn from(s: &str) -> Self {
        Label::Text(s.to_string())
    }
}
impl From<String> for Label {
    fn from(s: String) -> Self {
        Label::Text(s)
    }
}

/// Sorted distinct classes and each sample's class index.
pub fn encode(labels: &[Label]) -> (Vec<Label>, Vec<usize>) {
    Labels::from(labels).encode()
}

/// The classes of labels given as distinct values (in code order) and a code per row:
/// the values sorted, and each row's index among them.
fn sorted_classes<'a>(
    distinct: impl Iterator<Item = &'a Label>,
    codes: &[u32],
) -> (Vec<Label>, Vec<usize>) {
    let mut distinct: Vec<(&Label, usize)> = distinct.zip(0..).collect();
    distinct.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut renumber = vec![0; distinct.len()];
    for (sorted, &(_, first)) in distinct.iter().enumerate() {
        renumber[first] = sorted;
    }
    (
        distinct.into_iter().map(|(l, _)| l.clone()).collect(),
        codes.iter().map(|&c| renumber[c as usize]).collect(),
    )
}

/// One label per row, interned: each distinct label once (in order of first appearance)
/// and a 4-byte code per row, so a million rows of text labels cost 4 MB, not a string each.
#[derive(Clone, Debug, Default)]
pub struct Labels {
    distinct: Vec<Label>,
    codes: Vec<u32>,
    index: HashMap<Label, u32>,
}

impl Labels {
    /// Appends a row labelled `label`.
    pub fn push(&mut self, label: &Label) {
        let code = self.code(label);
        self.codes.push(code);
    }
    /// Appends rows given as distinct labels and a code per row into them.
    pub(crate) fn extend_coded(&mut self, distinct: &[Label], codes: &[u32]) {
        let map: Vec<u32> = distinct.iter().map(|l| self.code(l)).collect();
        self.codes.extend(codes.iter().map(|&c| map[c as usize]));
    }
    /// The code of `label`, added as a new distinct label if unseen.
    fn code(&mut self, label: &Label) -> u32 {
        if let Some(&c) = self.index.get(label) {
            return c;
        }
        let c = self.distinct.len() as u32;
        self.index.insert(label.clone(), c);
        self.distinct.push(label.clone());
        c
    }
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.codes.len()
    }
    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }
    /// The label of each row, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Label> + '_ {
        self.codes.iter().map(|&c| &self.distinct[c as usize])
    }
    /// The distinct labels, in order of first appearance.
    pub fn distinct(&self) -> &[Label] {
        &self.distinct
    }
    /// Per row, the index of its label in [`Labels::distinct`].
    pub fn codes(&self) -> &[u32] {
        &self.codes
    }
    /// The sorted classes and each row's index among them, as [`encode`] gives them.
    pub fn encode(&self) -> (Vec<Label>, Vec<usize>) {
        sorted_classes(self.distinct.iter(), &self.codes)
    }
}

impl From<&[Label]> for Labels {
    fn from(labels: &[Label]) -> Self {
        let mut out = Labels::default();
        labels.iter().for_each(|l| out.push(l));
        out
    }
}

/// Maps labels to the indices of known `classes`; an unseen label is an error naming its row.
pub fn encode_with(classes: &[Label], labels: &[Label]) -> Result<Vec<usize>> {
    let index: HashMap<&Label, usize> = classes.iter().enumerate().map(|(i, c)| (c, i)).collect();
    labels
        .iter()
        .enumerate()
        .map(|(row, l)| {
            index.get(l).copied().ok_or_else(|| Error::UnknownClass {
                label: l.to_string(),
                row,
                classes: format_classes(classes),
            })
        })
        .collect()
}

/// `[a, b, c]` for messages.
pub fn format_classes(classes: &[Label]) -> String {
    let names: Vec<String> = classes.iter().map(|c| c.to_string()).collect();
    format!("[{}]", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_folds_signs_and_keeps_text() {
        assert_eq!(Label::parse("+1"), Label::Int(1));
        assert_eq!(Label::parse(" -1 "), Label::Int(-1));
        assert_eq!(Label::parse("spam"), Label::Text("spam".into()));
        assert_eq!(Label::parse("1.5"), Label::Text("1.5".into()));
    }

    #[test]
    fn encode_sorts_numerically_then_text() {
        let y: Vec<Label> = ["10", "2", "b", "-1", "a", "2"]
            .iter()
            .map(|s| Label::parse(s))
            .collect();
        let (classes, codes) = encode(&y);
        assert_eq!(
            classes,
            vec![
                Label::Int(-1),
                Label::Int(2),
                Label::Int(10),
                "a".into(),
                "b".into()
            ]
        );
        assert_eq!(codes, vec![2, 1, 4, 0, 3, 1]);
    }

    #[test]
    fn unknown_label_names_row_and_classes() {
        let classes = vec![Label::from("ham"), Label::from("spam")];
        let e = encode_with(&classes, &["ham".into(), "eggs".into()])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("eggs") && e.contains("row 2") && e.contains("[ham, spam]"),
            "{e}"
        );
    }

    #[test]
    fn from_f64_rejects_nan() {
        assert!(Label::from_f64(f64::NAN, 3)
            .unwrap_err()
            .to_string()
            .contains("row 4"));
        assert_eq!(Label::from_f64(-1.0, 0).unwrap(), Label::Int(-1));
    }
}
