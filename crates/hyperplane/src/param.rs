//! Typed parameter schemas.
//!
//! Every settable component (a model's params, a vectorizer, the discretizer, the encoder,
//! the pipeline's own options) declares its parameters once, with [`params!`](crate::params): name, value
//! type, default, valid range and a one-line meaning, each bound to the field it sets. From
//! that one declaration come
//!
//! - the [`Params`] implementation: [`Params::schema`], [`Params::set_param`] (parse the text
//!   form, check the range), [`Params::param_values`] and [`Params::check_params`] (every
//!   value in range, for params built in code with the builder setters);
//! - the rustdoc parameter table of the struct;
//! - the command line's `--param` parsing, `tune`'s grid validation and the help listings
//!   (through [`pipeline::PipelineSpec`](crate::pipeline::PipelineSpec), which resolves
//!   `component.name` and bare names over the components of a pipeline).
//!
//! Values travel as text only at the edges (command line, grids, `inspect`); a fitted model
//! keeps its typed params.
//!
//! ```
//! use hyperplane::bayes::MultinomialNB;
//! use hyperplane::Params;
//!
//! let mut nb = MultinomialNB::default();
//! nb.set_param("alpha", "0.5")?;
//! assert_eq!(nb.alpha, 0.5);
//! assert!(nb.set_param("alpha", "-1").is_err()); // out of range, named in the error
//! let alpha = &nb.schema()[0];
//! assert_eq!((alpha.name, alpha.default.as_str(), alpha.range), ("alpha", "1", "finite, `>= 0`"));
//! # Ok::<(), hyperplane::Error>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// One parameter of a component, as its schema declares it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParamSpec {
    /// The name `set_param` and `--param` take.
    pub name: &'static str,
    /// The type of value: `number`, `integer`, `bool`, a list, or a choice.
    pub kind: &'static str,
    /// The default, in text form.
    pub default: String,
    /// The valid values, in words.
    pub range: &'static str,
    /// What it does, in one line.
    pub meaning: &'static str,
    /// The words of a choice parameter (empty for the others).
    pub choices: Vec<&'static str>,
    /// The forms a [`Value`] of it may take, in the order they are tried.
    pub forms: Vec<Form>,
    /// The range check `set_param` and `check_params` apply to numeric values (serialised
    /// as its bounds).
    #[serde(rename = "bounds")]
    pub check: Check,
}

impl ParamSpec {
    /// The text form of `value` (what [`Params::set_param`] parses): the word of an absent
    /// value, numbers as Rust writes them (`1.0`, `1e-8`: the same `f64` parsed back), lists
    /// comma-separated, maps as `key:value,...`.
    pub fn text_of(&self, value: &Value) -> Result<String> {
        let scalar = |v: &Value| match v {
            Value::Bool(b) => Ok(b.to_string()),
            Value::Int(i) => Ok(i.to_string()),
            Value::Float(x) => Ok(format!("{x:?}")), // `1.0` stays a fraction, not a count
            Value::Text(t) => Ok(t.clone()),
            other => Err(Error::param(
                self.name,
                other,
                format!("expected {} (a list holds numbers or words)", self.kind),
            )),
        };
        match value {
            Value::None => self
                .forms
                .iter()
                .find_map(|f| match f {
                    Form::Absent { word } => Some(word.to_string()),
                    _ => None,
                })
                .ok_or_else(|| Error::param(self.name, "None", format!("expected {}", self.kind))),
            Value::List(items) => Ok(items
                .iter()
                .map(scalar)
                .collect::<Result<Vec<_>>>()?
                .join(",")),
            Value::Map(map) => Ok(map
                .iter()
                .map(|(k, v)| Ok(format!("{k}:{}", scalar(v)?)))
                .collect::<Result<Vec<_>>>()?
                .join(",")),
            v => scalar(v),
        }
    }

    /// The value of the text form `text`, read by the first of [`ParamSpec::forms`] it
    /// fits (text that fits none, as a stop-word list set in code, stays text).
    pub fn value_of(&self, text: &str) -> Value {
        self.read(text).unwrap_or_else(|| Value::Text(text.into()))
    }

    /// The value of `text` by the first form it fits, if any.
    pub fn read(&self, text: &str) -> Option<Value> {
        let scalar = |of: Scalar, t: &str| match of {
            Scalar::Int => t.trim().parse().ok().map(Value::Int),
            Scalar::Float => t.trim().parse().ok().map(Value::Float),
        };
        let list = |of: Scalar| -> Option<Value> {
            if text.trim().is_empty() {
                return Some(Value::List(Vec::new()));
            }
            text.split(',')
                .map(|t| scalar(of, t))
                .collect::<Option<_>>()
                .map(Value::List)
        };
        self.forms.iter().find_map(|form| match form {
            Form::Absent { word } => (text == *word).then_some(Value::None),
            Form::Bool => match text {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            Form::Int => scalar(Scalar::Int, text),
            Form::Float => scalar(Scalar::Float, text),
            Form::Choice { words } => words.contains(&text).then(|| Value::Text(text.into())),
            Form::Text => Some(Value::Text(text.into())),
            Form::List { of } => list(*of),
            Form::Map { of } => text
                .split(',')
                .map(|pair| {
                    let (k, v) = pair.rsplit_once(':')?;
                    Some((k.to_string(), scalar(*of, v)?))
                })
                .collect::<Option<_>>()
                .map(Value::Map),
        })
    }
}

/// A parameter's value as data, for hosts that hold typed values (Python's `None`, `1.0`,
/// `"rbf"`, `(64, 32)`, `{"spam": 5}`); serialised untagged (`null`, `1`, `1.5`, `"rbf"`,
/// `[64, 32]`, `{"spam": 5}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// No value: the parameter's word for it (`none`, `auto`, `all`, `default`).
    None,
    /// `true` or `false`.
    Bool(bool),
    /// An integer (also accepted where a number is).
    Int(i64),
    /// A number.
    Float(f64),
    /// A word of a choice, or free text.
    Text(String),
    /// Numbers or words, in order.
    List(Vec<Value>),
    /// Numbers by key (class weights by label).
    Map(std::collections::BTreeMap<String, Value>),
}

impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Float(v)
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}

impl From<i32> for Value {
    fn from(v: i32) -> Self {
        Value::Int(v.into())
    }
}

impl From<usize> for Value {
    fn from(v: usize) -> Self {
        i64::try_from(v).map_or(Value::Float(v as f64), Value::Int)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Text(v.to_string())
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(v: Vec<T>) -> Self {
        Value::List(v.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::None, Into::into)
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| std::fmt::Error)?)
    }
}

/// One form a parameter's value may take, as a host builds a form or a signature from it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "form", rename_all = "snake_case")]
pub enum Form {
    /// [`Value::None`], written as `word`.
    Absent {
        /// `none`, `auto`, `all` or `default`.
        word: &'static str,
    },
    /// [`Value::Bool`].
    Bool,
    /// [`Value::Int`].
    Int,
    /// [`Value::Float`] (or [`Value::Int`]).
    Float,
    /// [`Value::Text`], one of `words`.
    Choice {
        /// The words.
        words: Vec<&'static str>,
    },
    /// [`Value::Text`], any (a regular expression).
    Text,
    /// [`Value::List`] of scalars (a pair is a list of two).
    List {
        /// The type of the items.
        of: Scalar,
    },
    /// [`Value::Map`] of scalars by key.
    Map {
        /// The type of the values.
        of: Scalar,
    },
}

/// The type of the items of a list or map [`Form`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scalar {
    /// Integers.
    Int,
    /// Numbers.
    Float,
}

/// A numeric range check, serialised as its [`Bounds`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Check {
    /// No numeric condition (choices are checked by parsing).
    Any,
    /// Finite.
    Finite,
    /// Finite and `> 0`.
    Positive,
    /// Finite and `>= 0`.
    NonNegative,
    /// `>= 1` (counts and budgets).
    AtLeast1,
    /// `>= 2`.
    AtLeast2,
    /// In `[0, 1]`.
    Unit,
    /// In `(0, 1]` (a fraction that must not vanish, as `nu`).
    Fraction,
}

/// A [`Check`] as data: every number of the value must be finite (when `finite`), and lie
/// above `min` and below `max` (bounds included when `*_inclusive`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Bounds {
    /// NaN and infinities are refused.
    pub finite: bool,
    /// The lower bound, if any.
    pub min: Option<f64>,
    /// Whether `min` itself is allowed.
    pub min_inclusive: bool,
    /// The upper bound, if any.
    pub max: Option<f64>,
    /// Whether `max` itself is allowed.
    pub max_inclusive: bool,
}

impl Serialize for Check {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.bounds().serialize(s)
    }
}

impl Check {
    /// The bounds this check applies.
    pub fn bounds(self) -> Bounds {
        let (finite, min, min_inclusive, max) = match self {
            Check::Any => (false, None, false, None),
            Check::Finite => (true, None, false, None),
            Check::Positive => (true, Some(0.0), false, None),
            Check::NonNegative => (true, Some(0.0), true, None),
            Check::AtLeast1 => (false, Some(1.0), true, None),
            Check::AtLeast2 => (false, Some(2.0), true, None),
            Check::Unit => (true, Some(0.0), true, Some(1.0)),
            Check::Fraction => (true, Some(0.0), false, Some(1.0)),
        };
        Bounds {
            finite,
            min,
            min_inclusive,
            max,
            max_inclusive: max.is_some(),
        }
    }

    /// Checks every number of a value against the range.
    pub fn apply(self, name: &str, values: &[f64]) -> Result<()> {
        for &v in values {
            let (ok, reason) = match self {
                Check::Any => (true, ""),
                Check::Finite => (v.is_finite(), "must be finite"),
                Check::Positive => (v.is_finite() && v > 0.0, "must be finite and > 0"),
                Check::NonNegative => (v.is_finite() && v >= 0.0, "must be finite and >= 0"),
                Check::AtLeast1 => (v >= 1.0, "must be >= 1"),
                Check::AtLeast2 => (v >= 2.0, "must be >= 2"),
                Check::Unit => ((0.0..=1.0).contains(&v), "must be in [0, 1]"),
                Check::Fraction => (v > 0.0 && v <= 1.0, "must be in (0, 1]"),
            };
            if !ok {
                return Err(Error::param(name, v, reason));
            }
        }
        Ok(())
    }
}

/// A component whose parameters can be listed, set and read by name.
///
/// Implemented by [`params!`](crate::params) for every params struct, and by delegation for the components that
/// hold one of several (a pipeline's `Learner`, a `Vectorizer`...).
pub trait Params {
    /// Every parameter with its type, default, range and meaning.
    fn schema(&self) -> Vec<ParamSpec>;
    /// Sets one parameter from its text form; an unknown name or a bad value is
    /// [`Error::InvalidParameter`] naming the valid choices.
    fn set_param(&mut self, name: &str, value: &str) -> Result<()>;
    /// Every parameter with its current value, in text form.
    fn param_values(&self) -> Vec<(String, String)>;
    /// Checks every value against its range (params built in code skip `set_param`).
    fn check_params(&self) -> Result<()>;
    /// Whether `name` is one of the parameters.
    fn has_param(&self, name: &str) -> bool {
        self.schema().iter().any(|p| p.name == name)
    }
    /// Sets one parameter from a typed value (checked as [`Params::set_param`] checks its
    /// text form, [`ParamSpec::text_of`]).
    fn set_value(&mut self, name: &str, value: &Value) -> Result<()> {
        let text = match self.schema().into_iter().find(|p| p.name == name) {
            Some(spec) => spec.text_of(value)?,
            None => value.to_string(), // refused by name below
        };
        self.set_param(name, &text)
    }
    /// The component with one parameter set from a typed value: one style of building for
    /// every kind, nested parameters too (`Svc::default().with("c", 10.0)?.with("kernel",
    /// "linear")?`), checked by name, type and range.
    fn with(mut self, name: &str, value: impl Into<Value>) -> Result<Self>
    where
        Self: Sized,
    {
        self.set_value(name, &value.into())?;
        Ok(self)
    }
    /// Every parameter with its current value, typed ([`ParamSpec::value_of`]).
    fn values(&self) -> Vec<(String, Value)> {
        let schema = self.schema();
        self.param_values()
            .into_iter()
            .map(|(name, text)| {
                let value = match schema.iter().find(|p| p.name == name) {
                    Some(spec) => spec.value_of(&text),
                    None => Value::Text(text),
                };
                (name, value)
            })
            .collect()
    }
}

/// A component made of params structs, one of several (an enum over learners) or several
/// together (a vectorizer and its tf-idf weighting): [`Params`] passes each call to the
/// part that has the parameter.
pub trait Composite {
    /// How errors name the component.
    fn component(&self) -> String;
    /// The parts, in the order their parameters are listed.
    fn parts(&self) -> Vec<&dyn Params>;
    /// The same parts, to set.
    fn parts_mut(&mut self) -> Vec<&mut dyn Params>;
}

impl<T: Composite> Params for T {
    fn schema(&self) -> Vec<ParamSpec> {
        self.parts().iter().flat_map(|p| p.schema()).collect()
    }
    fn set_param(&mut self, name: &str, value: &str) -> Result<()> {
        let component = self.component();
        let names: Vec<&str> = self.schema().iter().map(|p| p.name).collect();
        match self.parts_mut().into_iter().find(|p| p.has_param(name)) {
            Some(part) => part.set_param(name, value),
            None => Err(unknown_param(&component, name, &names)),
        }
    }
    fn param_values(&self) -> Vec<(String, String)> {
        self.parts().iter().flat_map(|p| p.param_values()).collect()
    }
    fn check_params(&self) -> Result<()> {
        self.parts().iter().try_for_each(|p| p.check_params())
    }
}

/// The text form of a parameter value.
pub trait ParamValue: Sized {
    /// The type of value, as the schema and help show it.
    const KIND: &'static str;
    /// Parses `text` as the value of parameter `name`.
    fn parse_value(name: &str, text: &str) -> Result<Self>;
    /// The value as text (parses back to the same value).
    fn to_text(&self) -> String;
    /// The numbers in the value, for the range check.
    fn numbers(&self) -> Vec<f64> {
        Vec::new()
    }
    /// The words of a choice type (empty for the others).
    fn choices() -> Vec<&'static str> {
        Vec::new()
    }
    /// The forms of its [`Value`]s.
    fn forms() -> Vec<Form>;
}

/// Parses a value of type `T` with `FromStr`, or says which parameter and why.
pub fn parse_param<T: std::str::FromStr>(name: &str, value: &str) -> Result<T>
where
    T::Err: std::fmt::Display,
{
    value
        .trim()
        .parse::<T>()
        .map_err(|e| Error::param(name, value, e.to_string()))
}

/// The error for a parameter name a component does not have.
pub fn unknown_param(component: &str, name: &str, valid: &[&str]) -> Error {
    Error::param(
        name,
        "?",
        format!(
            "{component} has no such parameter; valid names: {}",
            valid.join(", ")
        ),
    )
}

/// How a parameter's value is written as text: [`Plain`] (its [`ParamValue`] form) unless
/// the declaration names another codec (`=> field as Auto`).
pub trait Codec<T> {
    /// The type of value, as the schema and help show it.
    const KIND: &'static str;
    /// Parses `text` as the value of parameter `name`.
    fn parse(name: &str, text: &str) -> Result<T>;
    /// The value as text.
    fn text(value: &T) -> String;
    /// The numbers in the value, for the range check.
    fn numbers(value: &T) -> Vec<f64>;
    /// The words of a choice type.
    fn choices() -> Vec<&'static str> {
        Vec::new()
    }
    /// The forms of its [`Value`]s.
    fn forms() -> Vec<Form>;
}

/// The [`ParamValue`] form of a value.
pub struct Plain;

impl<T: ParamValue> Codec<T> for Plain {
    const KIND: &'static str = T::KIND;
    fn parse(name: &str, text: &str) -> Result<T> {
        T::parse_value(name, text)
    }
    fn text(value: &T) -> String {
        value.to_text()
    }
    fn numbers(value: &T) -> Vec<f64> {
        value.numbers()
    }
    fn choices() -> Vec<&'static str> {
        T::choices()
    }
    fn forms() -> Vec<Form> {
        T::forms()
    }
}

/// An optional value whose absence means "chosen automatically": written `auto`.
pub struct Auto;

impl<T> Codec<Option<T>> for Auto
where
    Option<T>: ParamValue,
{
    const KIND: &'static str = "auto or a value";
    fn parse(name: &str, text: &str) -> Result<Option<T>> {
        match text.trim() {
            "auto" => Ok(None),
            v => Option::<T>::parse_value(name, v),
        }
    }
    fn text(value: &Option<T>) -> String {
        match value {
            None => "auto".into(),
            v => v.to_text(),
        }
    }
    fn numbers(value: &Option<T>) -> Vec<f64> {
        value.numbers()
    }
    fn forms() -> Vec<Form> {
        let values = Option::<T>::forms()
            .into_iter()
            .filter(|f| !matches!(f, Form::Absent { .. }));
        std::iter::once(Form::Absent { word: "auto" })
            .chain(values)
            .collect()
    }
}

/// Parses `text` into the type of `_slot` with codec `C` (used by [`params!`](crate::params)).
#[doc(hidden)]
pub fn parse_with<C: Codec<T>, T>(_slot: &T, name: &str, text: &str) -> Result<T> {
    C::parse(name, text)
}

/// The text of `value` with codec `C`.
#[doc(hidden)]
pub fn text_with<C: Codec<T>, T>(value: &T) -> String {
    C::text(value)
}

/// The numbers of `value` with codec `C`.
#[doc(hidden)]
pub fn numbers_with<C: Codec<T>, T>(value: &T) -> Vec<f64> {
    C::numbers(value)
}

/// The kind of value of `_slot` with codec `C`.
#[doc(hidden)]
pub fn kind_with<C: Codec<T>, T>(_slot: &T) -> &'static str {
    C::KIND
}

/// The forms of `_slot` with codec `C`.
#[doc(hidden)]
pub fn forms_with<C: Codec<T>, T>(_slot: &T) -> Vec<Form> {
    C::forms()
}

/// The choices of `_slot` with codec `C`.
#[doc(hidden)]
pub fn choices_with<C: Codec<T>, T>(_slot: &T) -> Vec<&'static str> {
    C::choices()
}

/// The schema of a nested component with the defaults it has inside its owner.
#[doc(hidden)]
pub fn nested_schema<P: Params>(default: &P) -> Vec<ParamSpec> {
    let values = default.param_values();
    default
        .schema()
        .into_iter()
        .map(|mut p| {
            if let Some((_, v)) = values.iter().find(|(n, _)| n == p.name) {
                p.default = v.clone();
            }
            p
        })
        .collect()
}

impl ParamValue for f64 {
    const KIND: &'static str = "number";
    fn forms() -> Vec<Form> {
        vec![Form::Float]
    }
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        parse_param(name, text)
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn numbers(&self) -> Vec<f64> {
        vec![*self]
    }
}

macro_rules! integer_value {
    ($($t:ty),*) => {$(
        impl ParamValue for $t {
            const KIND: &'static str = "integer";
            fn forms() -> Vec<Form> {
                vec![Form::Int]
            }
            fn parse_value(name: &str, text: &str) -> Result<Self> {
                parse_param(name, text)
            }
            fn to_text(&self) -> String {
                self.to_string()
            }
            fn numbers(&self) -> Vec<f64> {
                vec![*self as f64]
            }
        }
    )*};
}
integer_value!(usize, u64);

impl ParamValue for bool {
    const KIND: &'static str = "bool";
    fn forms() -> Vec<Form> {
        vec![Form::Bool]
    }
    /// `true` / `false` (also `1` / `0`, `yes` / `no`, any case).
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Ok(true),
            "false" | "0" | "no" => Ok(false),
            _ => Err(Error::param(name, text, "expected true or false")),
        }
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
}

/// `none`, or a number.
impl ParamValue for Option<f64> {
    const KIND: &'static str = "number or none";
    fn forms() -> Vec<Form> {
        vec![Form::Absent { word: "none" }, Form::Float]
    }
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        match text.trim() {
            "none" | "auto" => Ok(None),
            v => parse_param(name, v).map(Some),
        }
    }
    fn to_text(&self) -> String {
        self.map_or("none".into(), |v| v.to_string())
    }
    fn numbers(&self) -> Vec<f64> {
        self.iter().copied().collect()
    }
}

/// `none`, or an integer.
impl ParamValue for Option<usize> {
    const KIND: &'static str = "integer or none";
    fn forms() -> Vec<Form> {
        vec![Form::Absent { word: "none" }, Form::Int]
    }
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        match text.trim() {
            "none" => Ok(None),
            v => parse_param(name, v).map(Some),
        }
    }
    fn to_text(&self) -> String {
        self.map_or("none".into(), |v| v.to_string())
    }
    fn numbers(&self) -> Vec<f64> {
        self.iter().map(|&v| v as f64).collect()
    }
}

/// `none` (also `zeros`), or comma-separated numbers.
impl ParamValue for Option<Vec<f64>> {
    const KIND: &'static str = "numbers or none";
    fn forms() -> Vec<Form> {
        vec![
            Form::Absent { word: "none" },
            Form::List { of: Scalar::Float },
        ]
    }
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        match text.trim() {
            "none" | "zeros" | "" => Ok(None),
            list => list
                .split(',')
                .map(|v| parse_param(name, v))
                .collect::<Result<Vec<f64>>>()
                .map(Some),
        }
    }
    fn to_text(&self) -> String {
        self.as_ref().map_or("none".into(), |w| join(w))
    }
    fn numbers(&self) -> Vec<f64> {
        self.clone().unwrap_or_default()
    }
}

/// `all`, or comma-separated indices.
impl ParamValue for Option<Vec<usize>> {
    const KIND: &'static str = "indices or all";
    fn forms() -> Vec<Form> {
        vec![Form::Absent { word: "all" }, Form::List { of: Scalar::Int }]
    }
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        match text.trim() {
            "all" => Ok(None),
            list => list
                .split(',')
                .map(|j| parse_param(name, j))
                .collect::<Result<Vec<usize>>>()
                .map(Some),
        }
    }
    fn to_text(&self) -> String {
        self.as_ref().map_or("all".into(), |c| join(c))
    }
}

/// Comma-separated integers (`100`, `64,32`); `none` for an empty list.
impl ParamValue for Vec<usize> {
    const KIND: &'static str = "integers or none";
    /// `none` is the empty list.
    fn forms() -> Vec<Form> {
        vec![
            Form::Absent { word: "none" },
            Form::List { of: Scalar::Int },
        ]
    }
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        match text.trim() {
            "none" | "" => Ok(Vec::new()),
            list => list.split(',').map(|v| parse_param(name, v)).collect(),
        }
    }
    fn to_text(&self) -> String {
        if self.is_empty() {
            "none".into()
        } else {
            join(self)
        }
    }
    fn numbers(&self) -> Vec<f64> {
        self.iter().map(|&v| v as f64).collect()
    }
}

/// `lo,hi`.
impl ParamValue for (f64, f64) {
    const KIND: &'static str = "two numbers";
    fn forms() -> Vec<Form> {
        vec![Form::List { of: Scalar::Float }]
    }
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        let Some((lo, hi)) = text.split_once(',') else {
            return Err(Error::param(name, text, "expected lo,hi such as 0,1"));
        };
        Ok((parse_param(name, lo)?, parse_param(name, hi)?))
    }
    fn to_text(&self) -> String {
        format!("{},{}", self.0, self.1)
    }
    fn numbers(&self) -> Vec<f64> {
        vec![self.0, self.1]
    }
}

fn join<T: ToString>(values: &[T]) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// How a choice type's `FromStr` error becomes an [`Error`] naming the parameter.
#[doc(hidden)]
pub trait ChoiceError {
    fn into_param_error(self, name: &str, text: &str) -> Error;
}

impl ChoiceError for String {
    fn into_param_error(self, name: &str, text: &str) -> Error {
        Error::param(name, text, self)
    }
}

impl ChoiceError for Error {
    fn into_param_error(self, _: &str, _: &str) -> Error {
        self
    }
}

/// [`ParamValue`] for choice types by their `FromStr` and `Display`, with the words of
/// their choices (`choice_value!(Order = ["cyclic", "random"])`) or a function giving them.
macro_rules! choice_value {
    ($t:ty = $choices:expr) => {
        $crate::param::choice_value!($t = $choices, forms vec![$crate::param::Form::Choice {
            words: $choices.into_iter().collect(),
        }]);
    };
    ($t:ty = $choices:expr, forms $forms:expr) => {
        impl $crate::param::ParamValue for $t {
            const KIND: &'static str = "choice";
            fn parse_value(name: &str, text: &str) -> $crate::error::Result<Self> {
                text.trim()
                    .parse::<$t>()
                    .map_err(|e| $crate::param::ChoiceError::into_param_error(e, name, text))
            }
            fn to_text(&self) -> String {
                self.to_string()
            }
            fn choices() -> Vec<&'static str> {
                $choices.into_iter().collect()
            }
            fn forms() -> Vec<$crate::param::Form> {
                $forms
            }
        }
    };
}
pub(crate) use choice_value;

/// Declares a choice type: an enum whose variants are written as the given words, with
/// `FromStr` (an unknown word lists the choices), `Display` and [`ParamValue`].
///
/// ```text
/// choice_enum! {
///     /// How numeric columns are scaled.
///     pub enum Scaling { #[default] None = "none", Standard = "standard" }
/// }
/// ```
#[macro_export]
macro_rules! choice_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> std::result::Result<Self, String> {
                match s.trim() {
                    $($text => Ok($name::$variant),)+
                    _ => Err(format!("choose one of {}", [$($text),+].join(", "))),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(match self {
                    $($name::$variant => $text),+
                })
            }
        }

        impl $crate::param::ParamValue for $name {
            const KIND: &'static str = "choice";
            fn parse_value(name: &str, text: &str) -> $crate::error::Result<Self> {
                $crate::param::parse_param(name, text)
            }
            fn to_text(&self) -> String {
                self.to_string()
            }
            fn choices() -> Vec<&'static str> {
                vec![$($text),+]
            }
            fn forms() -> Vec<$crate::param::Form> {
                vec![$crate::param::Form::Choice { words: vec![$($text),+] }]
            }
        }
    };
}

/// The words of a range token of [`params!`](crate::params).
#[doc(hidden)]
#[macro_export]
macro_rules! __param_range_text {
    (any) => {
        "any"
    };
    (bool) => {
        "`true`, `false`"
    };
    (finite) => {
        "finite"
    };
    (positive) => {
        "finite, `> 0`"
    };
    (non_negative) => {
        "finite, `>= 0`"
    };
    (at_least_1) => {
        "`>= 1`"
    };
    (at_least_2) => {
        "`>= 2`"
    };
    (unit) => {
        "`[0, 1]`"
    };
    (fraction) => {
        "`(0, 1]`"
    };
    ($text:literal) => {
        $text
    };
}

/// The codec of an entry of [`params!`](crate::params): [`Plain`] unless named.
#[doc(hidden)]
#[macro_export]
macro_rules! __param_codec {
    () => {
        $crate::param::Plain
    };
    ($codec:ident) => {
        $crate::param::$codec
    };
}

/// The [`Check`] of a range token of [`params!`](crate::params).
#[doc(hidden)]
#[macro_export]
macro_rules! __param_range_check {
    (finite) => {
        $crate::param::Check::Finite
    };
    (positive) => {
        $crate::param::Check::Positive
    };
    (non_negative) => {
        $crate::param::Check::NonNegative
    };
    (at_least_1) => {
        $crate::param::Check::AtLeast1
    };
    (at_least_2) => {
        $crate::param::Check::AtLeast2
    };
    (unit) => {
        $crate::param::Check::Unit
    };
    (fraction) => {
        $crate::param::Check::Fraction
    };
    ($other:tt) => {
        $crate::param::Check::Any
    };
}

/// Declares a params struct together with its parameter schema.
///
/// ```text
/// params! {
///     /// Docs of the struct (the parameter table is appended).
///     #[derive(Clone, Debug, PartialEq)]
///     pub struct Tokenizer { pub lowercase: bool, pub ngram_range: (usize, usize) }
///     schema "tokenizer" {
///         /// lowercase the text before tokenizing
///         lowercase = "true", bool => lowercase;
///         /// smallest n of the word n-grams
///         ngram_min = "1", at_least_1 => ngram_range.0;
///         ..training: Training;      // every parameter of a nested component
///     }
/// }
/// ```
///
/// Each entry is `name = "default", range => field path` (optionally `as Auto`, the
/// [`Codec`] that writes `None` as `auto`); the range is a token
/// (`any`, `bool`, `finite`, `positive`, `non_negative`, `at_least_1`, `at_least_2`, `unit`,
/// `fraction`)
/// or a literal describing the choices. The struct keeps its own `Default`; a test checks
/// that the declared defaults are its values.
#[macro_export]
macro_rules! params {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$fmeta:meta])* $fvis:vis $field:ident : $fty:ty),* $(,)?
        }
        schema $component:literal {
            $(
                $(#[doc = $doc:literal])*
                $param:ident = $default:literal, $range:tt => $first:ident $(. $rest:tt)* $(as $codec:ident)?;
            )*
            $(
                ..$group:ident : $gty:ty;
            )*
        }
    ) => {
        $(#[$meta])*
        #[doc = ""]
        #[doc = "| name | default | meaning | valid range |"]
        #[doc = "|---|---|---|---|"]
        $(
            #[doc = concat!("| `", stringify!($param), "` | `", $default, "` |", $($doc,)* " | ", $crate::__param_range_text!($range), " |")]
        )*
        $(
            #[doc = concat!("\nand every parameter of [`", stringify!($gty), "`].")]
        )*
        $vis struct $name {
            $($(#[$fmeta])* $fvis $field: $fty),*
        }

        impl $crate::param::Params for $name {
            fn schema(&self) -> Vec<$crate::param::ParamSpec> {
                let d = <Self as Default>::default();
                #[allow(unused_mut)]
                let mut schema = vec![$(
                    $crate::param::ParamSpec {
                        name: stringify!($param),
                        kind: $crate::param::kind_with::<$crate::__param_codec!($($codec)?), _>(&d.$first $(.$rest)*),
                        default: $default.to_string(),
                        range: $crate::__param_range_text!($range),
                        meaning: concat!($($doc),*).trim_start(),
                        choices: $crate::param::choices_with::<$crate::__param_codec!($($codec)?), _>(&d.$first $(.$rest)*),
                        forms: $crate::param::forms_with::<$crate::__param_codec!($($codec)?), _>(&d.$first $(.$rest)*),
                        check: $crate::__param_range_check!($range),
                    }
                ),*];
                $(schema.extend($crate::param::nested_schema(&d.$group));)*
                schema
            }

            fn set_param(&mut self, name: &str, value: &str) -> $crate::error::Result<()> {
                match name {
                    $(stringify!($param) => {
                        let v = $crate::param::parse_with::<$crate::__param_codec!($($codec)?), _>(
                            &self.$first $(.$rest)*, name, value,
                        )?;
                        $crate::__param_range_check!($range)
                            .apply(name, &$crate::param::numbers_with::<$crate::__param_codec!($($codec)?), _>(&v))?;
                        self.$first $(.$rest)* = v;
                        Ok(())
                    })*
                    _ => {
                        $(
                            if $crate::param::Params::has_param(&self.$group, name) {
                                return $crate::param::Params::set_param(&mut self.$group, name, value);
                            }
                        )*
                        let names: Vec<&str> = $crate::param::Params::schema(self)
                            .iter()
                            .map(|p| p.name)
                            .collect();
                        Err($crate::param::unknown_param($component, name, &names))
                    }
                }
            }

            fn param_values(&self) -> Vec<(String, String)> {
                #[allow(unused_mut)]
                let mut values: Vec<(String, String)> = vec![$(
                    (
                        stringify!($param).to_string(),
                        $crate::param::text_with::<$crate::__param_codec!($($codec)?), _>(&self.$first $(.$rest)*),
                    )
                ),*];
                $(values.extend($crate::param::Params::param_values(&self.$group));)*
                values
            }

            fn check_params(&self) -> $crate::error::Result<()> {
                $(
                    $crate::__param_range_check!($range).apply(
                        stringify!($param),
                        &$crate::param::numbers_with::<$crate::__param_codec!($($codec)?), _>(&self.$first $(.$rest)*),
                    )?;
                )*
                $($crate::param::Params::check_params(&self.$group)?;)*
                Ok(())
            }
        }
    };
}

/// Declares a plain params struct (every field a parameter) with its defaults as text:
/// derives the struct, `Default` (from the declared defaults), one builder setter per
/// field, the name `KIND`, and the schema through [`params!`](crate::params).
///
/// ```text
/// params_struct! {
///     /// Params of multinomial Naive Bayes.
///     #[derive(Serialize, Deserialize)]
///     pub struct MultinomialNB as "multinomial-nb" {
///         /// Lidstone smoothing strength (1 = Laplace, 0 = maximum likelihood)
///         pub alpha: f64 = "1", non_negative;
///     }
/// }
/// ```
#[macro_export]
macro_rules! params_struct {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident as $component:literal {
            $(
                $(#[doc = $doc:literal])*
                pub $field:ident : $fty:ty = $default:literal, $range:tt $(as $codec:ident)?;
            )*
        }
    ) => {
        $crate::params! {
            $(#[$meta])*
            #[derive(Clone, Debug, PartialEq)]
            $vis struct $name {
                $($(#[doc = $doc])* pub $field: $fty),*
            }
            schema $component {
                $($(#[doc = $doc])* $field = $default, $range => $field $(as $codec)?;)*
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $($field: $crate::param::declared_default::<$crate::__param_codec!($($codec)?), $fty>(
                        stringify!($field),
                        $default,
                    )),*
                }
            }
        }

        impl $name {
            /// The component's name; a model's kind, as `--model` spells it.
            pub const KIND: &'static str = $component;
            $(
                #[doc = concat!("Sets `", stringify!($field), "`:", $($doc),*)]
                pub fn $field(mut self, $field: $fty) -> Self {
                    self.$field = $field;
                    self
                }
            )*
        }
    };
}

/// The value of a declared default (used by [`params_struct!`](crate::params_struct)); a
/// default that does not parse is a defect of the declaration, which the schema tests of
/// every component catch.
#[doc(hidden)]
pub fn declared_default<C: Codec<T>, T>(name: &str, text: &str) -> T {
    match C::parse(name, text) {
        Ok(v) => v,
        Err(e) => panic!("the declared default of {name} does not parse: {e}"),
    }
}

/// Checks a component's schema: unique names, declared defaults that are the values of a
/// fresh component (`make()`) and parse back to themselves, and defaults within their
/// ranges. The test suite runs it on every component; a new params struct is checked by
/// adding it there.
pub fn check_schema<P: Params>(
    component: &str,
    make: impl Fn() -> P,
) -> std::result::Result<(), String> {
    let d = make();
    let schema = d.schema();
    let values = d.param_values();
    if schema.len() != values.len() {
        return Err(format!(
            "{component}: {} parameters in the schema, {} values",
            schema.len(),
            values.len()
        ));
    }
    for (i, p) in schema.iter().enumerate() {
        if schema[..i].iter().any(|q| q.name == p.name) {
            return Err(format!("{component}: parameter {} declared twice", p.name));
        }
        if p.meaning.is_empty() {
            return Err(format!("{component}: {} has no meaning", p.name));
        }
        let Some((_, v)) = values.iter().find(|(n, _)| n == p.name) else {
            return Err(format!("{component}: {} has no value", p.name));
        };
        if *v != p.default {
            return Err(format!(
                "{component}: default of {} is {v} but the schema says {}",
                p.name, p.default
            ));
        }
        for choice in &p.choices {
            let mut copy = make();
            copy.set_param(p.name, choice).map_err(|e| {
                format!(
                    "{component}: choice {choice} of {} does not parse: {e}",
                    p.name
                )
            })?;
            let back = copy.param_values().into_iter().find(|(n, _)| n == p.name);
            if back.as_ref().map(|(_, v)| v.as_str()) != Some(*choice) {
                return Err(format!(
                    "{component}: choice {choice} of {} reads back as {back:?}",
                    p.name
                ));
            }
        }
        let mut copy = make();
        copy.set_param(p.name, &p.default)
            .map_err(|e| format!("{component}: default of {} does not parse: {e}", p.name))?;
        if copy.param_values() != values {
            return Err(format!(
                "{component}: setting {} to its default changed the params",
                p.name
            ));
        }
    }
    d.check_params()
        .map_err(|e| format!("{component}: a default is out of range: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::params_struct! {
        /// A toy component.
        pub struct Toy as "toy" {
            /// a rate
            pub rate: f64 = "0.5", positive;
            /// a budget
            pub budget: Option<usize> = "auto", "`auto` or `>= 1`" as Auto;
            /// a list
            pub init: Option<Vec<f64>> = "none", finite;
        }
    }

    /// Every kind is built the same way, nested parameters included.
    #[test]
    fn every_kind_is_built_with_typed_values_in_one_style() {
        use crate::neural::Mlp;
        use crate::svm::{Gamma, KernelKind, Svc};
        let svc = Svc::default()
            .with("c", 10.0)
            .and_then(|s| s.with("kernel", "poly"))
            .and_then(|s| s.with("gamma", 0.5))
            .and_then(|s| s.with("degree", 2))
            .unwrap();
        assert_eq!(
            (svc.c, svc.dual.kernel, svc.dual.gamma, svc.dual.degree),
            (10.0, KernelKind::Poly, Gamma::Value(0.5), 2)
        );
        let mlp = Mlp::default().with("hidden", vec![64, 32]).unwrap();
        assert_eq!(mlp.training.hidden, vec![64, 32]);
        let e = Svc::default().with("c", 0).unwrap_err().to_string();
        assert!(e.contains("c = 0") && e.contains("> 0"), "{e}");
        let e = Svc::default().with("gama", 1.0).unwrap_err().to_string();
        assert!(e.contains("gama") && e.contains("gamma"), "{e}");
    }

    #[test]
    fn a_declaration_gives_parsing_ranges_text_and_a_schema() {
        let mut t = Toy::default();
        assert_eq!((t.rate, t.budget, t.init.clone()), (0.5, None, None));
        t.set_param("rate", "2").unwrap();
        t.set_param("budget", "7").unwrap();
        t.set_param("init", "1,-2.5").unwrap();
        assert_eq!(
            t.param_values(),
            [("rate", "2"), ("budget", "7"), ("init", "1,-2.5")]
                .map(|(n, v)| (n.to_string(), v.to_string()))
        );
        for (name, bad) in [
            ("rate", "0"),
            ("rate", "nan"),
            ("rate", "x"),
            ("init", "1,inf"),
        ] {
            let e = t.set_param(name, bad).unwrap_err().to_string();
            assert!(e.contains(name), "{e}");
        }
        assert_eq!(t.rate, 2.0, "a refused value leaves the params unchanged");
        let e = t.set_param("rat", "1").unwrap_err().to_string();
        assert!(
            e.contains("toy has no such parameter; valid names: rate, budget, init"),
            "{e}"
        );
        t.set_param("budget", "auto").unwrap();
        assert_eq!(t.budget, None);
        // builder values are checked by check_params
        assert!(Toy::default().rate(-1.0).check_params().is_err());
        let built = Toy::default().budget(Some(3)).init(Some(vec![f64::NAN]));
        let e = built.check_params().unwrap_err().to_string();
        assert!(e.contains("init") && e.contains("finite"), "{e}");
        let schema = t.schema();
        assert_eq!(schema[1].kind, "auto or a value");
        assert_eq!(schema[0].meaning, "a rate");
        assert_eq!(schema[0].range, "finite, `> 0`");
        check_schema(Toy::KIND, Toy::default).unwrap();
    }

    #[test]
    fn the_schema_check_catches_a_default_that_is_not_the_value() {
        crate::params! {
            #[derive(Debug)]
            pub struct Wrong {
                pub rate: f64,
            }
            schema "wrong" {
                /// a rate
                rate = "2", positive => rate;
            }
        }
        impl Default for Wrong {
            fn default() -> Self {
                Wrong { rate: 1.0 }
            }
        }
        let e = check_schema("wrong", Wrong::default).unwrap_err();
        assert!(
            e.contains("default of rate is 1 but the schema says 2"),
            "{e}"
        );
    }
}
