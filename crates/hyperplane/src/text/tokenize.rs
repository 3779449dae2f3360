//! Tokenization: a document -> its terms, as scikit-learn's `CountVectorizer(analyzer="word")`.
//!
//! The steps, in scikit-learn's order:
//! 1. lowercase the whole document (full Unicode mapping, `str::to_lowercase`), if asked;
//! 2. find the tokens: by default maximal runs of at least 2 *word characters*
//!    (scikit-learn's `(?u)\b\w\w+\b`), else the matches of a custom regular expression
//!    (or of its one capturing group);
//! 3. drop stop words;
//! 4. form word n-grams for `n` in `ngram_range`: all 1-grams, then all 2-grams... each
//!    `n`-gram being `n` consecutive tokens joined by one space.
//!
//! A word character is `_` or a char with [`char::is_alphanumeric`] (Unicode `Alphabetic`
//! or `Numeric`). This equals Python's `\w` except for the `Other_Alphabetic` marks
//! (Indic vowel signs, Arabic harakat, circled letters such as `ⓐ`): Python splits words at
//! them, hyperplane keeps such words whole. The default scanner is hand-written (an ASCII
//! table, decoding only non-ASCII bytes; an ASCII document skips decoding altogether) and
//! allocates nothing per token.

use regex::Regex;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};
use crate::intern::TermIndex;
use crate::param::ParamValue;

crate::params! {
    /// How documents are split into terms.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct Tokenizer {
        pub lowercase: bool,
        pub pattern: Option<String>,
        pub ngram_range: (usize, usize),
        pub stop_words: Option<Vec<String>>,
    }
    schema "tokenizer" {
        /// lowercase the document before tokenizing
        lowercase = "true", bool => lowercase;
        /// regular expression (Rust `regex` syntax) whose matches are the tokens; with one capturing group, the group is the token; `default`: runs of 2+ word characters
        pattern = "default", "`default`, or a regex with at most 1 group" => pattern;
        /// the shortest word n-grams produced
        ngram_min = "1", at_least_1 => ngram_range.0;
        /// the longest word n-grams produced
        ngram_max = "1", "`>= ngram_min`" => ngram_range.1;
        /// tokens removed before forming n-grams (compared after lowercasing)
        stop_words = "none", "`none`, `english` (scikit-learn's list)" => stop_words;
    }
}

impl Default for Tokenizer {
    fn default() -> Self {
        Tokenizer {
            lowercase: true,
            pattern: None,
            ngram_range: (1, 1),
            stop_words: None,
        }
    }
}

/// scikit-learn's `ENGLISH_STOP_WORDS` (318 words, from the Glasgow Information Retrieval
/// Group's list), sorted.
const ENGLISH_STOP_WORDS: [&str; 318] = [
    "a",
    "about",
    "above",
    "across",
    "after",
    "afterwards",
    "again",
    "against",
    "all",
    "almost",
    "alone",
    "along",
    "already",
    "also",
    "although",
    "always",
    "am",
    "among",
    "amongst",
    "amoungst",
    "amount",
    "an",
    "and",
    "another",
    "any",
    "anyhow",
    "anyone",
    "anything",
    "anyway",
    "anywhere",
    "are",
    "around",
    "as",
    "at",
    "back",
    "be",
    "became",
    "because",
    "become",
    "becomes",
    "becoming",
    "been",
    "before",
    "beforehand",
    "behind",
    "being",
    "below",
    "beside",
    "besides",
    "between",
    "beyond",
    "bill",
    "both",
    "bottom",
    "but",
    "by",
    "call",
    "can",
    "cannot",
    "cant",
    "co",
    "con",
    "could",
    "couldnt",
    "cry",
    "de",
    "describe",
    "detail",
    "do",
    "done",
    "down",
    "due",
    "during",
    "each",
    "eg",
    "eight",
    "either",
    "eleven",
    "else",
    "elsewhere",
    "empty",
    "enough",
    "etc",
    "even",
    "ever",
    "every",
    "everyone",
    "everything",
    "everywhere",
    "except",
    "few",
    "fifteen",
    "fifty",
    "fill",
    "find",
    "fire",
    "first",
    "five",
    "for",
    "former",
    "formerly",
    "forty",
    "found",
    "four",
    "from",
    "front",
    "full",
    "further",
    "get",
    "give",
    "go",
    "had",
    "has",
    "hasnt",
    "have",
    "he",
    "hence",
    "her",
    "here",
    "hereafter",
    "hereby",
    "herein",
    "hereupon",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "however",
    "hundred",
    "i",
    "ie",
    "if",
    "in",
    "inc",
    "indeed",
    "interest",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "keep",
    "last",
    "latter",
    "latterly",
    "least",
    "less",
    "ltd",
    "made",
    "many",
    "may",
    "me",
    "meanwhile",
    "might",
    "mill",
    "mine",
    "more",
    "moreover",
    "most",
    "mostly",
    "move",
    "much",
    "must",
    "my",
    "myself",
    "name",
    "namely",
    "neither",
    "never",
    "nevertheless",
    "next",
    "nine",
    "no",
    "nobody",
    "none",
    "noone",
    "nor",
    "not",
    "nothing",
    "now",
    "nowhere",
    "of",
    "off",
    "often",
    "on",
    "once",
    "one",
    "only",
    "onto",
    "or",
    "other",
    "others",
    "otherwise",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "part",
    "per",
    "perhaps",
    "please",
    "put",
    "rather",
    "re",
    "same",
    "see",
    "seem",
    "seemed",
    "seeming",
    "seems",
    "serious",
    "several",
    "she",
    "should",
    "show",
    "side",
    "since",
    "sincere",
    "six",
    "sixty",
    "so",
    "some",
    "somehow",
    "someone",
    "something",
    "sometime",
    "sometimes",
    "somewhere",
    "still",
    "such",
    "system",
    "take",
    "ten",
    "than",
    "that",
    "the",
    "their",
    "them",
    "themselves",
    "then",
    "thence",
    "there",
    "thereafter",
    "thereby",
    "therefore",
    "therein",
    "thereupon",
    "these",
    "they",
    "thick",
    "thin",
    "third",
    "this",
    "those",
    "though",
    "three",
    "through",
    "throughout",
    "thru",
    "thus",
    "to",
    "together",
    "too",
    "top",
    "toward",
    "towards",
    "twelve",
    "twenty",
    "two",
    "un",
    "under",
    "until",
    "up",
    "upon",
    "us",
    "very",
    "via",
    "was",
    "we",
    "well",
    "were",
    "what",
    "whatever",
    "when",
    "whence",
    "whenever",
    "where",
    "whereafter",
    "whereas",
    "whereby",
    "wherein",
    "whereupon",
    "wherever",
    "whether",
    "which",
    "while",
    "whither",
    "who",
    "whoever",
    "whole",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "within",
    "without",
    "would",
    "yet",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

impl Tokenizer {
    /// The default tokenizer (see the table above).
    pub fn new() -> Self {
        Self::default()
    }
    /// Sets `lowercase`.
    pub fn lowercase(mut self, yes: bool) -> Self {
        self.lowercase = yes;
        self
    }
    /// Sets `pattern` (`None`: the default word scanner).
    pub fn pattern(mut self, pattern: Option<String>) -> Self {
        self.pattern = pattern;
        self
    }
    /// Sets `ngram_range = (min_n, max_n)`.
    pub fn ngram_range(mut self, min_n: usize, max_n: usize) -> Self {
        self.ngram_range = (min_n, max_n);
        self
    }
    /// Sets `stop_words`.
    pub fn stop_words(mut self, words: Option<Vec<String>>) -> Self {
        self.stop_words = words;
        self
    }
    /// scikit-learn's built-in English stop-word list (318 words).
    pub fn english_stop_words() -> Vec<String> {
        ENGLISH_STOP_WORDS.iter().map(|w| w.to_string()).collect()
    }

    /// Validates the params and compiles the pattern and the stop-word set.
    pub fn compile(&self) -> Result<CompiledTokenizer> {
        let (lo, hi) = self.ngram_range;
        if lo == 0 || lo > hi {
            return Err(Error::param(
                "ngram_range",
                format!("({lo}, {hi})"),
                "need 1 <= min_n <= max_n",
            ));
        }
        let matcher = match &self.pattern {
            None => Matcher::Words,
            Some(p) => {
                let regex = Regex::new(p).map_err(|e| Error::param("pattern", p, e.to_string()))?;
                match regex.captures_len() {
                    1 => Matcher::Regex {
                        regex,
                        group: false,
                    },
                    2 => Matcher::Regex { regex, group: true },
                    _ => {
                        return Err(Error::param(
                            "pattern",
                            p,
                            "more than one capturing group; use (?:...) for the others",
                        ))
                    }
                }
            }
        };
        let stop = self.stop_words.as_ref().map(|words| {
            let mut set = TermIndex::with_capacity(words.len());
            words.iter().for_each(|w| {
                set.get_or_insert(w);
            });
            set
        });
        Ok(CompiledTokenizer {
            params: self.clone(),
            matcher,
            stop,
        })
    }

    /// The terms of `doc`, in scikit-learn's order.
    pub fn tokens(&self, doc: &str) -> Result<Vec<String>> {
        Ok(self.compile()?.tokens(doc))
    }
}

/// `default` (the built-in word scanner), or a regular expression.
impl ParamValue for Option<String> {
    const KIND: &'static str = "regex or default";
    fn forms() -> Vec<crate::param::Form> {
        use crate::param::Form;
        vec![Form::Absent { word: "default" }, Form::Text]
    }
    fn parse_value(_: &str, text: &str) -> Result<Self> {
        Ok(match text {
            "default" => None,
            p => Some(p.to_string()),
        })
    }
    fn to_text(&self) -> String {
        self.clone().unwrap_or_else(|| "default".into())
    }
}

/// A stop-word list: `none`, or `english` (scikit-learn's list); a list set in code shows
/// as `custom (N words)`.
impl ParamValue for Option<Vec<String>> {
    const KIND: &'static str = "choice";
    fn forms() -> Vec<crate::param::Form> {
        use crate::param::Form;
        vec![
            Form::Absent { word: "none" },
            Form::Choice {
                words: vec!["english"],
            },
        ]
    }
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        match text.trim() {
            "english" => Ok(Some(Tokenizer::english_stop_words())),
            "none" => Ok(None),
            _ => Err(Error::param(name, text, "expected english or none")),
        }
    }
    fn to_text(&self) -> String {
        match self {
            None => "none".to_string(),
            Some(w) if w.iter().map(String::as_str).eq(ENGLISH_STOP_WORDS) => "english".into(),
            Some(w) => format!("custom ({} words)", w.len()),
        }
    }
}

/// How tokens are found.
#[derive(Clone, Debug)]
enum Matcher {
    /// Maximal runs of 2+ word characters (the hand-written scanner).
    Words,
    /// Matches of `regex` (of its group 1 when `group`).
    Regex { regex: Regex, group: bool },
}

impl Matcher {
    /// Calls `emit(start, end)` with the byte range of each token of `text`, in order;
    /// `ascii` says `text` is ASCII (the word scanner then takes its fast path).
    #[inline]
    fn scan(&self, text: &str, ascii: bool, mut emit: impl FnMut(usize, usize)) {
        match self {
            Matcher::Words if ascii => scan_ascii_words(text.as_bytes(), emit),
            Matcher::Words => scan_words(text, emit),
            Matcher::Regex {
                regex,
                group: false,
            } => regex.find_iter(text).for_each(|m| emit(m.start(), m.end())),
            Matcher::Regex { regex, group: true } => {
                for c in regex.captures_iter(text) {
                    if let Some(m) = c.get(1) {
                        emit(m.start(), m.end());
                    }
                }
            }
        }
    }
}

/// `ASCII_WORD[b]`: byte `b < 128` is `[0-9A-Za-z_]`.
const ASCII_WORD: [bool; 128] = {
    let mut t = [false; 128];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        t[i] = b.is_ascii_alphanumeric() || b == b'_';
        i += 1;
    }
    t
};

/// Is the char starting at byte `i` of `text` a word character, and its length in bytes.
#[inline(always)]
fn word_char_at(text: &str, i: usize) -> (bool, usize) {
    let b = text.as_bytes()[i];
    if b < 0x80 {
        return (ASCII_WORD[b as usize], 1);
    }
    match text[i..].chars().next() {
        Some(c) => (c == '_' || c.is_alphanumeric(), c.len_utf8()),
        None => (false, 1),
    }
}

/// Byte ranges of the maximal runs of at least 2 word characters (`\b\w\w+\b`).
#[inline]
fn scan_words(text: &str, mut emit: impl FnMut(usize, usize)) {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut i = 0;
    while i < n {
        let (word, first) = word_char_at(text, i);
        let start = i;
        i += first;
        if !word {
            continue;
        }
        loop {
            // ASCII word bytes, the common case, in a tight loop.
            while i < n && bytes[i] < 0x80 && ASCII_WORD[bytes[i] as usize] {
                i += 1;
            }
            if i == n || bytes[i] < 0x80 {
                break;
            }
            let (word, len) = word_char_at(text, i);
            if !word {
                break;
            }
            i += len;
        }
        // At least 2 chars <=> more bytes than the first char.
        if i - start > first {
            emit(start, i);
        }
    }
}

/// `ASCII_ONLY_WORD[b]`: byte `b` is `[0-9A-Za-z_]`; every byte `>= 0x80` is not (the
/// table of [`scan_ascii_words`], which only sees ASCII text).
const ASCII_ONLY_WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        t[i] = ASCII_WORD[i];
        i += 1;
    }
    t
};

/// [`scan_words`] for ASCII text: every char is one byte, so no UTF-8 decoding and one
/// table lookup per byte. Two tight loops, skip the separators then take the word, with
/// one branch each per byte.
#[inline]
fn scan_ascii_words(text: &[u8], mut emit: impl FnMut(usize, usize)) {
    debug_assert!(text.is_ascii());
    let n = text.len();
    let mut i = 0;
    loop {
        while i < n && !ASCII_ONLY_WORD[text[i] as usize] {
            i += 1;
        }
        if i == n {
            return;
        }
        let start = i;
        i += 1;
        while i < n && ASCII_ONLY_WORD[text[i] as usize] {
            i += 1;
        }
        if i - start >= 2 {
            emit(start, i);
        }
    }
}

/// `doc` lowercased into `out` (bytewise for ASCII, full Unicode mapping otherwise).
fn lowercase_into(doc: &str, ascii: bool, out: &mut String) {
    if ascii {
        out.clear();
        out.push_str(doc);
        out.make_ascii_lowercase();
    } else {
        *out = doc.to_lowercase();
    }
}

/// A validated [`Tokenizer`] with its pattern compiled and its stop words indexed.
///
/// Serialized as its [`Tokenizer`] params; compiled again on load.
#[derive(Clone, Debug)]
pub struct CompiledTokenizer {
    params: Tokenizer,
    matcher: Matcher,
    stop: Option<TermIndex>,
}

impl PartialEq for CompiledTokenizer {
    fn eq(&self, other: &Self) -> bool {
        self.params == other.params
    }
}

impl CompiledTokenizer {
    /// The params it was compiled from.
    pub fn params(&self) -> &Tokenizer {
        &self.params
    }

    /// A scanner with its own scratch buffers (one per thread).
    pub fn scanner(&self) -> Scanner<'_> {
        Scanner {
            tokenizer: self,
            lower: String::new(),
            spans: Vec::new(),
            gram: String::new(),
        }
    }

    /// Calls `f` with each term of `doc`, in scikit-learn's order.
    pub fn for_each_token(&self, doc: &str, f: impl FnMut(&str)) {
        self.scanner().for_each_token(doc, f);
    }

    /// The terms of `doc`, in scikit-learn's order.
    pub fn tokens(&self, doc: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.for_each_token(doc, |t| out.push(t.to_string()));
        out
    }
}

impl Serialize for CompiledTokenizer {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.params.serialize(s)
    }
}

impl<'de> Deserialize<'de> for CompiledTokenizer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Tokenizer::deserialize(d)?
            .compile()
            .map_err(serde::de::Error::custom)
    }
}

/// Tokenizes documents one after another, reusing its buffers: no allocation per token.
#[derive(Debug)]
pub struct Scanner<'a> {
    tokenizer: &'a CompiledTokenizer,
    /// The lowercased document.
    lower: String,
    /// Byte ranges of the kept tokens (for n-grams).
    spans: Vec<(usize, usize)>,
    /// The n-gram being emitted.
    gram: String,
}

impl Scanner<'_> {
    /// Calls `f` with each term of `doc`, in scikit-learn's order.
    pub fn for_each_token(&mut self, doc: &str, mut f: impl FnMut(&str)) {
        let Scanner {
            tokenizer,
            lower,
            spans,
            gram,
        } = self;
        let params = &tokenizer.params;
        // Lowercasing an ASCII document is a vectorised byte copy, far cheaper than folding
        // token by token; an ASCII document is also scanned without UTF-8 decoding.
        let ascii = doc.is_ascii();
        let text: &str = if params.lowercase {
            lowercase_into(doc, ascii, lower);
            lower
        } else {
            doc
        };
        let stop = tokenizer.stop.as_ref();
        let keep = |t: &str| stop.is_none_or(|s| s.get(t).is_none());
        let (lo, hi) = params.ngram_range;
        if hi == 1 {
            tokenizer.matcher.scan(text, ascii, |a, b| {
                let t = &text[a..b];
                if keep(t) {
                    f(t);
                }
            });
            return;
        }
        spans.clear();
        tokenizer.matcher.scan(text, ascii, |a, b| {
            if keep(&text[a..b]) {
                spans.push((a, b));
            }
        });
        for n in lo..=hi.min(spans.len()) {
            for window in spans.windows(n) {
                if n == 1 {
                    f(&text[window[0].0..window[0].1]);
                    continue;
                }
                gram.clear();
                for (k, &(a, b)) in window.iter().enumerate() {
                    if k > 0 {
                        gram.push(' ');
                    }
                    gram.push_str(&text[a..b]);
                }
                f(gram);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::param::Params;
    use proptest::prelude::*;

    fn toks(t: &Tokenizer, doc: &str) -> Vec<String> {
        t.tokens(doc).unwrap()
    }

    #[test]
    fn default_tokens_match_scikit_learn() {
        // Expected lists from scikit-learn 1.9.1 `CountVectorizer().build_analyzer()`.
        let t = Tokenizer::new();
        assert_eq!(
            toks(&t, "Café naïve 12 a b_c"),
            ["café", "naïve", "12", "b_c"]
        );
        assert_eq!(
            toks(&t, "İstanbul ΑΣ ΑΣ'Α x²y ½ ⅷ ℌello"),
            ["stanbul", "ας", "ασ", "x²y", "ℌello"]
        );
        assert_eq!(
            toks(&t, "Hello, WORLD! it's e-mail: x@y.com $100 __init__"),
            ["hello", "world", "it", "mail", "com", "100", "__init__"]
        );
        assert_eq!(toks(&t, ""), Vec::<String>::new());
        assert_eq!(toks(&t, "東京 日本語テキスト"), ["東京", "日本語テキスト"]);
    }

    #[test]
    fn lowercase_off_keeps_case() {
        let t = Tokenizer::new().lowercase(false);
        assert_eq!(toks(&t, "Free MONEY now"), ["Free", "MONEY", "now"]);
    }

    #[test]
    fn ngrams_follow_scikit_learn_order() {
        // scikit-learn, ngram_range=(1, 3): all 1-grams, then 2-grams, then 3-grams.
        let t = Tokenizer::new().ngram_range(1, 3);
        assert_eq!(
            toks(&t, "The quick brown fox"),
            [
                "the",
                "quick",
                "brown",
                "fox",
                "the quick",
                "quick brown",
                "brown fox",
                "the quick brown",
                "quick brown fox"
            ]
        );
        let t = Tokenizer::new().ngram_range(2, 2);
        assert_eq!(toks(&t, "a bb cc"), ["bb cc"]);
        assert_eq!(toks(&t, "only"), Vec::<String>::new());
    }

    #[test]
    fn stop_words_are_removed_before_ngrams() {
        let t = Tokenizer::new()
            .stop_words(Some(Tokenizer::english_stop_words()))
            .ngram_range(1, 2);
        // scikit-learn: ['quick', 'fox', 'lazy', 'dog', 'quick fox', 'fox lazy', 'lazy dog']
        assert_eq!(
            toks(&t, "The quick fox and THE lazy dog"),
            [
                "quick",
                "fox",
                "lazy",
                "dog",
                "quick fox",
                "fox lazy",
                "lazy dog"
            ]
        );
        let list = Tokenizer::english_stop_words();
        assert_eq!(list.len(), 318);
        assert!(list.windows(2).all(|w| w[0] < w[1]));
        assert!(list.iter().any(|w| w == "amoungst"));
    }

    #[test]
    fn custom_pattern_and_group() {
        let t = Tokenizer::new().pattern(Some(r"\S+".into()));
        assert_eq!(toks(&t, "a b-c  D!"), ["a", "b-c", "d!"]);
        let t = Tokenizer::new().pattern(Some(r"#(\w+)".into()));
        assert_eq!(toks(&t, "#Rust and #ml"), ["rust", "ml"]);
        let bad = Tokenizer::new().pattern(Some("(".into()));
        assert!(
            matches!(bad.compile(), Err(Error::InvalidParameter { ref name, .. }) if name == "pattern")
        );
        let two = Tokenizer::new().pattern(Some("(a)(b)".into()));
        assert!(two.compile().is_err());
        assert!(Tokenizer::new().ngram_range(2, 1).compile().is_err());
        assert!(Tokenizer::new().ngram_range(0, 1).compile().is_err());
    }

    #[test]
    fn compiled_tokenizer_round_trips_and_recompiles() {
        let t = Tokenizer::new()
            .pattern(Some(r"\w+".into()))
            .stop_words(Some(vec!["x".into()]));
        let c = t.compile().unwrap();
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(json, serde_json::to_string(&t).unwrap());
        let back: CompiledTokenizer = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);
        assert_eq!(back.tokens("a x b"), ["a", "b"]);
        let broken = json.replace(r"\\w+", "(");
        assert!(serde_json::from_str::<CompiledTokenizer>(&broken).is_err());
    }

    #[test]
    fn params_by_name() {
        let mut t = Tokenizer::new();
        t.set_param("ngram_max", "2").unwrap();
        t.set_param("stop_words", "english").unwrap();
        t.set_param("lowercase", "false").unwrap();
        assert_eq!(t.ngram_range, (1, 2));
        assert!(!t.lowercase);
        let values = t.param_values();
        assert!(values.contains(&("stop_words".into(), "english".into())));
        assert!(values.contains(&("pattern".into(), "default".into())));
        assert!(t.set_param("stop_words", "french").is_err());
        assert!(t.set_param("ngram", "2").is_err());
        t.set_param("stop_words", "none").unwrap();
        assert_eq!(t.stop_words, None);
    }

    fn spans(scan: impl Fn(&mut dyn FnMut(usize, usize))) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        scan(&mut |a, b| out.push((a, b)));
        out
    }

    #[test]
    fn ascii_scanner_handles_edges() {
        let doc = "a bb_ c9 __ x";
        assert_eq!(
            spans(|e| scan_ascii_words(doc.as_bytes(), e)),
            [(2, 5), (6, 8), (9, 11)]
        );
        assert!(spans(|e| scan_ascii_words(b"", e)).is_empty());
        assert_eq!(spans(|e| scan_ascii_words(b"ab", e)), [(0, 2)]);
    }

    proptest! {
        /// The ASCII fast path finds exactly the spans of the general scanner, on any ASCII
        /// text (every byte value below 128, words of every length at either end).
        #[test]
        fn ascii_scanner_equals_general_scanner(doc in "[\\x00-\\x7f]{0,120}") {
            prop_assert_eq!(
                spans(|e| scan_ascii_words(doc.as_bytes(), e)),
                spans(|e| scan_words(&doc, e))
            );
        }

        /// Tokens of an ASCII document (fast path) equal those of the same document with one
        /// non-ASCII separator appended (general path, which cannot change the tokens).
        #[test]
        fn ascii_tokens_equal_general_tokens(
            doc in "[a-zA-Z0-9_ .,;'!\\-\t\n]{0,80}",
            lowercase in any::<bool>(),
            ngram_max in 1usize..3,
        ) {
            let t = Tokenizer::new().lowercase(lowercase).ngram_range(1, ngram_max);
            prop_assert_eq!(toks(&t, &doc), toks(&t, &format!("{doc}\u{a0}")));
        }

        /// On ASCII and Latin-1 text (where Rust's and Python's `\w` agree) the hand-made
        /// scanner equals the regex `(?u)\b\w\w+\b`.
        #[test]
        fn scanner_equals_reference_regex(doc in "[a-zA-Z0-9_ .,;'!\\-\t\néèÉßøŒ]{0,80}") {
            let reference = Regex::new(r"(?u)\b\w\w+\b").unwrap();
            let expected: Vec<String> =
                reference.find_iter(&doc.to_lowercase()).map(|m| m.as_str().to_string()).collect();
            prop_assert_eq!(toks(&Tokenizer::new(), &doc), expected);
        }
    }
}
