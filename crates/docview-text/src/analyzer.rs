//! The terms of feature vectors (004 §3.2, Formula 2): [`Analyzer`] turns the text of a block
//! into features, words after stop-word removal. Chinese is segmented with jieba (dictionary
//! only, HMM off), Japanese at script changes (runs of kanji, runs of katakana); other text is
//! split at Unicode word boundaries, lowercased and stemmed with the Snowball stemmer of its
//! language. Ideographs inside other-language text go through jieba, and Latin words inside
//! Chinese or Japanese text through the English pipeline, so mixed text keeps all its words.
//! The jieba dictionary is loaded once per process, on first use.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::OnceLock;

use rust_stemmers::Stemmer;
use unicode_segmentation::UnicodeSegmentation;

use super::cache::WordCache;
use super::language::{Language, is_han, is_hangul, is_hiragana};
use super::segment::{for_each_jieba_word, for_each_run, join_wrapped_lines, too_long};
use super::sentence::{is_dotted_abbreviation, split_sentences};
use super::stopwords::{AggressiveStopWords, StopWords, stopwords};

/// French and Italian elided articles and prepositions (`l'homme` → `homme`).
const ELISIONS: &[&str] = &[
    "l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu", "un",
    "all", "dall", "dell", "nell", "sull", "coll", "quell", "quest", "v",
];

/// Turns text into terms: the features of the page's feature vector. Cheap to create and to
/// clone; `Send + Sync`, so one analyzer can serve a whole thread pool.
#[derive(Debug, Clone, Default)]
pub struct Analyzer {
    aggressive: AggressiveStopWords,
}

impl Analyzer {
    /// An analyzer with the generic stop-word lists only.
    pub fn new() -> Analyzer {
        Analyzer::default()
    }

    /// Sets the collection-wide stop-word list (replacing any previous one), applied on top of
    /// the language's list, to every language. Terms are matched lowercased, against both the
    /// word and its stem.
    pub fn with_aggressive_stopwords(mut self, terms: impl IntoIterator<Item = String>) -> Self {
        self.aggressive = AggressiveStopWords::new(terms);
        self
    }

    /// The collection-wide stop-word list.
    pub fn aggressive_stopwords(&self) -> &AggressiveStopWords {
        &self.aggressive
    }

    /// The terms of `text` in order, repeats included.
    pub fn terms(&self, text: &str, lang: Language) -> Vec<String> {
        let mut out = Vec::new();
        self.for_each_term(text, lang, |term| out.push(term.to_owned()));
        out
    }

    /// Adds the number of times each term occurs in `text` to `counts` (a block's term
    /// frequencies, `BTf` of Formula 2). Allocates only for terms new to `counts`.
    pub fn term_counts<S: BuildHasher>(
        &self,
        text: &str,
        lang: Language,
        counts: &mut HashMap<String, u32, S>,
    ) {
        self.for_each_term(text, lang, |term| count_term(counts, term));
    }

    /// Calls `emit` with each term of `text`, in order, without allocating per term.
    pub fn for_each_term(&self, text: &str, lang: Language, mut emit: impl FnMut(&str)) {
        let mut scratch = Scratch::default();
        let words = self.word_filter(lang);
        if !contains_han(text) {
            words.run(text, &mut scratch, &mut emit);
            return;
        }
        let han_stops = stopwords(han_stop_language(lang));
        let text = join_wrapped_lines(text);
        for_each_piece(&text, lang, |piece| match piece {
            Piece::Words(gap) => words.run(gap, &mut scratch, &mut emit),
            Piece::Han(word) => self.han_word(word, han_stops, &mut scratch.word, &mut emit),
        });
    }

    /// Calls `emit` with each word of `text` (Unicode words, as `unicode_words` cuts them, in
    /// order) and its term, or `None` for a word that gives none (a number, a stop word...): the
    /// terms are those of [`Analyzer::for_each_term`], one word giving at most one. Only text
    /// without ideographs is read word by word (in other text jieba cuts words across Unicode
    /// words); for such text it calls nothing and returns false.
    pub fn for_each_word_term(
        &self,
        text: &str,
        lang: Language,
        mut emit: impl FnMut(&str, Option<&str>),
    ) -> bool {
        if contains_han(text) {
            return false;
        }
        let words = self.word_filter(lang);
        let mut scratch = Scratch::default();
        for_each_word(text, |word| emit(word, words.term(word, &mut scratch)));
        true
    }

    /// The sentences of `text`, trimmed, in order, for abstracts.
    pub fn sentences<'a>(&self, text: &'a str) -> Vec<&'a str> {
        split_sentences(text)
    }

    /// True if `term` is a stop word of `lang` or on the collection-wide list. For Chinese and
    /// Japanese, a term without ideographs is checked against the English list too.
    pub fn is_stopword(&self, term: &str, lang: Language) -> bool {
        let mut buf = String::new();
        let word = normalize(term, &mut buf);
        if self.aggressive.contains(word) {
            return true;
        }
        if contains_han(word) {
            return stopwords(han_stop_language(lang)).contains(word);
        }
        stopwords(lang).contains(word)
            || (lang.writes_without_spaces() && stopwords(Language::English).contains(word))
    }

    /// A word holding an ideograph: kept unless it is a stop word or absurdly long.
    fn han_word(
        &self,
        word: &str,
        stops: &StopWords,
        buf: &mut String,
        emit: &mut impl FnMut(&str),
    ) {
        if too_long(word) {
            return;
        }
        let word = normalize(word, buf);
        if !stops.contains(word) && !self.aggressive.contains(word) {
            emit(word);
        }
    }

    /// The word pipeline for the non-ideograph words of `lang` text: for Chinese and Japanese,
    /// English's (stemmer and list) with the page language's list on top.
    fn word_filter(&self, lang: Language) -> WordFilter<'_> {
        let (word_lang, extra) = if lang.writes_without_spaces() {
            (Language::English, Some(stopwords(lang)))
        } else {
            (lang, None)
        };
        WordFilter {
            page_lang: lang,
            stops: stopwords(word_lang),
            extra,
            stemmer: stemmer(word_lang),
            elision: matches!(word_lang, Language::French | Language::Italian),
            aggressive: &self.aggressive,
        }
    }
}

/// The word pipeline of one language: Unicode words, lowercased, without numbers, single
/// letters and stop words, then stemmed.
struct WordFilter<'a> {
    /// The language of the page, which keys the term cache.
    page_lang: Language,
    stops: &'static StopWords,
    /// A second list (the page language's, when the words are English inside CJK text).
    extra: Option<&'static StopWords>,
    stemmer: Option<&'static Stemmer>,
    elision: bool,
    aggressive: &'a AggressiveStopWords,
}

impl WordFilter<'_> {
    fn run(&self, text: &str, scratch: &mut Scratch, emit: &mut impl FnMut(&str)) {
        for_each_word(text, |word| self.word(word, scratch, emit));
    }

    fn word(&self, word: &str, scratch: &mut Scratch, emit: &mut impl FnMut(&str)) {
        if let Some(term) = self.term(word, scratch) {
            emit(term);
        }
    }

    /// The term of one word, or `None` for a word that gives none (no letter, too long or
    /// short, a stop word).
    fn term<'s>(&self, word: &'s str, scratch: &'s mut Scratch) -> Option<&'s str> {
        if !has_letter(word) || too_long(word) || is_all_hiragana(word) {
            return None;
        }
        let Scratch { word: buf, stem } = scratch;
        let mut word = normalize(word, buf);
        if self.elision {
            word = strip_elision(word);
        }
        if is_too_short(word) || self.aggressive.contains(word) {
            return None;
        }
        let term = match self.stemmer {
            None if self.is_stop(word) => return None,
            None => word,
            Some(stemmer) => {
                let analyze = |w: &str| (!self.is_stop(w)).then(|| stemmer.stem(w).into_owned());
                if !cached_term(self.page_lang, word, stem, analyze) {
                    return None;
                }
                stem.as_str()
            }
        };
        (!self.aggressive.contains(term)).then_some(term)
    }

    /// True for a word on the language's generic list (or the extra one).
    fn is_stop(&self, word: &str) -> bool {
        self.stops.contains(word) || self.extra.is_some_and(|s| s.contains(word))
    }
}

/// Adds one occurrence of `term` to `counts`; allocates only for a term new to `counts`.
pub fn count_term<S: BuildHasher>(counts: &mut HashMap<String, u32, S>, term: &str) {
    match counts.get_mut(term) {
        Some(n) => *n = n.saturating_add(1),
        None => {
            counts.insert(term.to_owned(), 1);
        }
    }
}

/// Reusable buffers for one text.
#[derive(Default)]
struct Scratch {
    /// The normalized word, when it differs from the text.
    word: String,
    /// The stem.
    stem: String,
}

/// What a thread knows of a word in text of one language: `None` for a stop word, else its stem.
type TermCache = WordCache<Option<Box<str>>>;

thread_local! {
    /// The term of each word this thread saw lately, per page language: one lookup instead of
    /// the stop-list lookups and a Snowball run, which costs about ten lookups.
    static TERM_CACHE: RefCell<Vec<TermCache>> = const { RefCell::new(Vec::new()) };
}

/// Puts the term of `word` (in `lang` text) in `out` and returns true, or returns false for a
/// stop word. `analyze` gives the term, or `None` for a stop word; it runs only for words this
/// thread has not seen lately.
fn cached_term(
    lang: Language,
    word: &str,
    out: &mut String,
    analyze: impl Fn(&str) -> Option<String>,
) -> bool {
    out.clear();
    let compute = |w: &str| analyze(w).map(String::into_boxed_str);
    let mut read = |term: &Option<Box<str>>| term.as_deref().map(|t| out.push_str(t)).is_some();
    let cached = TERM_CACHE.try_with(|cell| {
        let mut caches = cell.try_borrow_mut().ok()?;
        if caches.len() < Language::COUNT {
            caches.resize_with(Language::COUNT, TermCache::default);
        }
        Some(caches[lang.index()].read(word, compute, &mut read))
    });
    match cached {
        Ok(Some(kept)) => kept,
        _ => read(&compute(word)),
    }
}

/// A piece of text with ideographs.
enum Piece<'a> {
    /// Text between ideograph words, for the word pipeline.
    Words(&'a str),
    /// A word holding an ideograph.
    Han(&'a str),
}

/// Cuts `text` into ideograph words and the text between them. Chinese text goes through jieba
/// whole; in other text only the runs of ideographs do; in Japanese (whose kanji jieba's
/// simplified-Chinese dictionary does not know) each run of kanji is one word.
fn for_each_piece<'a>(text: &'a str, lang: Language, mut f: impl FnMut(Piece<'a>)) {
    let mut gap_start = 0;
    let mut han = |start: usize, end: usize, f: &mut dyn FnMut(Piece<'a>)| {
        if let Some(gap) = text.get(gap_start..start).filter(|g| !g.is_empty()) {
            f(Piece::Words(gap));
        }
        if let Some(word) = text.get(start..end) {
            f(Piece::Han(word));
        }
        gap_start = end;
    };
    match lang {
        Language::Japanese => for_each_run(text, is_kanji, |start, end| han(start, end, &mut f)),
        Language::Chinese => for_each_jieba_word(text, |start, end| {
            if contains_han(&text[start..end]) {
                han(start, end, &mut f);
            }
        }),
        _ => for_each_run(text, is_kanji, |start, end| {
            for_each_jieba_word(&text[start..end], |s, e| han(start + s, start + e, &mut f));
        }),
    }
    if let Some(gap) = text.get(gap_start..).filter(|g| !g.is_empty()) {
        f(Piece::Words(gap));
    }
}

/// Calls `f` with each Unicode word of `text` (UAX #29, as `unicode_words`). Whitespace always
/// separates words, so the text is cut at ASCII whitespace around each non-ASCII stretch and
/// the ASCII spans between go through unicode-segmentation's much faster ASCII path.
pub(crate) fn for_each_word<'a>(text: &'a str, mut f: impl FnMut(&'a str)) {
    let bytes = text.as_bytes();
    let mut start = 0;
    while let Some(p) = bytes[start..].iter().position(|b| !b.is_ascii()) {
        let at = start + p;
        let chunk_start = bytes[start..at]
            .iter()
            .rposition(u8::is_ascii_whitespace)
            .map_or(start, |q| start + q + 1);
        let chunk_end = bytes[at..]
            .iter()
            .position(u8::is_ascii_whitespace)
            .map_or(bytes.len(), |q| at + q);
        for slice in [&text[start..chunk_start], &text[chunk_start..chunk_end]] {
            slice.unicode_words().for_each(&mut f);
        }
        start = chunk_end;
    }
    text[start..].unicode_words().for_each(f);
}

/// The Snowball stemmer of `lang`, if it has one.
pub fn stemmer(lang: Language) -> Option<&'static Stemmer> {
    static STEMMERS: OnceLock<Vec<Option<Stemmer>>> = OnceLock::new();
    let stemmers = STEMMERS.get_or_init(|| {
        Language::ALL
            .iter()
            .map(|l| l.stemmer_algorithm().map(Stemmer::create))
            .collect()
    });
    stemmers[lang.index()].as_ref()
}

/// The stop-word list for ideograph words in `lang` text: Japanese's for Japanese, else
/// Chinese's.
fn han_stop_language(lang: Language) -> Language {
    if lang == Language::Japanese {
        Language::Japanese
    } else {
        Language::Chinese
    }
}

/// An ideograph or the repeat mark 々, which belongs to the kanji word before it: the runs of
/// ideographs that jieba cuts (and, in Japanese, each such run is a word).
fn is_kanji(c: char) -> bool {
    is_han(c) || c == '々'
}

fn contains_han(text: &str) -> bool {
    // Ideographs are encoded with lead bytes E3..=E9 (U+3400..U+9FFF), EF (U+F900..U+FAFF) or
    // F0 (U+20000..): a byte scan rules most text out before the char scan.
    text.bytes().any(|b| (0xE3..=0xF0).contains(&b)) && text.chars().any(is_han)
}

/// True if `word` holds a letter: pure numbers ("2008", "3.5", "1,000") are not terms.
fn has_letter(word: &str) -> bool {
    word.bytes().any(|b| b.is_ascii_alphabetic())
        || (!word.is_ascii() && word.chars().any(char::is_alphabetic))
}

/// One character, unless it is an ideograph or a Hangul syllable (words on their own).
fn is_too_short(word: &str) -> bool {
    let mut chars = word.chars();
    match (chars.next(), chars.next()) {
        (None, _) => true,
        (Some(c), None) => !(is_han(c) || is_hangul(c)),
        _ => false,
    }
}

/// Hiragana-only words are Japanese particles and inflections, not features.
fn is_all_hiragana(word: &str) -> bool {
    !word.is_ascii() && word.chars().all(is_hiragana)
}

/// `word` lowercased, with `’` as `'`, full-width ASCII folded to ASCII and the periods of a
/// dotted abbreviation dropped (`U.S.A` → `usa`); borrowed when it is already so.
pub fn normalize<'a>(word: &'a str, buf: &'a mut String) -> &'a str {
    // One pass over the bytes tells periods, ASCII capitals and non-ASCII apart: most words
    // are ASCII, and need no copy or a byte-wise one.
    let (mut period, mut upper, mut ascii) = (false, false, true);
    for &b in word.as_bytes() {
        period |= b == b'.';
        upper |= b.is_ascii_uppercase();
        ascii &= b.is_ascii();
    }
    let dotted = period && is_dotted_abbreviation(word);
    if ascii {
        if !dotted && !upper {
            return word;
        }
        buf.clear();
        let kept = word.bytes().filter(|&b| !(dotted && b == b'.'));
        buf.extend(kept.map(|b| char::from(b.to_ascii_lowercase())));
        return buf;
    }
    if !dotted && !word.chars().any(needs_folding) {
        return word;
    }
    buf.clear();
    for c in word.chars().filter(|&c| !(dotted && c == '.')) {
        let c = fold_width(c);
        if c.is_uppercase() {
            buf.extend(c.to_lowercase());
        } else {
            buf.push(c);
        }
    }
    buf
}

fn needs_folding(c: char) -> bool {
    // U+3000..U+A63F (CJK, kana, Hangul, Yi) holds no cased letter: skip the case table there.
    if ('\u{3000}'..'\u{A640}').contains(&c) {
        return false;
    }
    c.is_uppercase() || c == '’' || ('\u{FF01}'..='\u{FF5E}').contains(&c)
}

/// Full-width ASCII (`Ａ`, `１`) as ASCII, and `’` as `'`.
fn fold_width(c: char) -> char {
    match c {
        '’' => '\'',
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    }
}

/// `word` without a French or Italian elided prefix (`l'homme` → `homme`).
fn strip_elision(word: &str) -> &str {
    match word.split_once('\'') {
        Some((head, tail)) if !tail.is_empty() && ELISIONS.contains(&head) => tail,
        _ => word,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift as next;

    fn terms(text: &str, lang: Language) -> Vec<String> {
        Analyzer::new().terms(text, lang)
    }

    #[test]
    fn english_terms() {
        let t = terms(
            "The 3 dogs were Running quickly across 42 gardens in 2024, e.g. a test.",
            Language::English,
        );
        assert!(t.contains(&"run".to_string()), "{t:?}");
        assert!(t.contains(&"dog".to_string()), "{t:?}");
        assert!(t.contains(&"garden".to_string()), "{t:?}");
        for gone in ["the", "were", "3", "42", "2024", "a", "e.g", "eg", "in"] {
            assert!(!t.contains(&gone.to_string()), "{gone} in {t:?}");
        }
    }

    #[test]
    fn chinese_terms() {
        let t = terms("中华人民共和国是一个伟大的国家", Language::Chinese);
        for kept in ["中华人民共和国", "伟大", "国家"] {
            assert!(t.contains(&kept.to_string()), "{kept} not in {t:?}");
        }
        for gone in ["的", "是", "一个"] {
            assert!(!t.contains(&gone.to_string()), "{gone} in {t:?}");
        }
        let t = terms("今天，天气很好！！\n\t我们。。。", Language::Chinese);
        assert!(
            t.iter().all(|w| w.chars().all(char::is_alphanumeric)),
            "{t:?}"
        );
    }

    #[test]
    fn hard_wrapped_chinese_lines_are_joined() {
        let t = terms(
            "他突然辞\n\n去总书记职务。\n\n张家界会议",
            Language::Chinese,
        );
        assert!(t.contains(&"总书记".to_string()), "{t:?}");
    }

    #[test]
    fn mixed_chinese_and_english() {
        let t = terms(
            "我们使用Rust和Python开发搜索引擎，Search Engines很重要。",
            Language::Chinese,
        );
        for kept in ["rust", "python", "搜索引擎", "search", "engin"] {
            assert!(t.contains(&kept.to_string()), "{kept} not in {t:?}");
        }
        let t = terms("The capital is 北京 and it is big.", Language::English);
        assert!(t.contains(&"北京".to_string()), "{t:?}");
        assert!(t.contains(&"capit".to_string()), "{t:?}");
    }

    #[test]
    fn japanese_terms() {
        let t = terms(
            "東京は日本の首都です。コンピュータを使います。",
            Language::Japanese,
        );
        assert!(t.contains(&"東京".to_string()), "{t:?}");
        assert!(t.contains(&"コンピュータ".to_string()), "{t:?}");
        assert!(!t.iter().any(|w| w.chars().all(is_hiragana)), "{t:?}");
    }

    #[test]
    fn other_languages() {
        let t = terms(
            "Die Katzen spielen im Garten mit den Kindern.",
            Language::German,
        );
        assert!(t.contains(&"katz".to_string()), "{t:?}");
        assert!(!t.contains(&"die".to_string()), "{t:?}");
        let t = terms("L'homme mange des pommes aujourd'hui.", Language::French);
        assert!(t.contains(&"homm".to_string()), "{t:?}");
        assert!(!t.iter().any(|w| w.starts_with("l'")), "{t:?}");
        let t = terms("Кошки играют в саду.", Language::Russian);
        assert!(t.contains(&"кошк".to_string()), "{t:?}");
        let t = terms("검색 엔진은 웹 페이지를 수집합니다", Language::Korean);
        assert!(t.contains(&"검색".to_string()), "{t:?}");
        let t = terms("Ｒｕｓｔ Programming", Language::Other);
        assert_eq!(t, vec!["rust", "programming"]);
    }

    #[test]
    fn aggressive_stopwords_remove_terms() {
        let text = "Breaking news: search engines index news pages";
        let plain = Analyzer::new().terms(text, Language::English);
        assert!(plain.contains(&"news".to_string()), "{plain:?}");
        let analyzer = Analyzer::new().with_aggressive_stopwords([
            "News".to_string(),
            "engin".to_string(),
            "新闻".into(),
        ]);
        let t = analyzer.terms(text, Language::English);
        assert!(!t.contains(&"news".to_string()), "{t:?}");
        assert!(!t.contains(&"engin".to_string()), "{t:?}");
        assert!(t.contains(&"search".to_string()), "{t:?}");
        let t = analyzer.terms("今日新闻很多", Language::Chinese);
        assert!(!t.contains(&"新闻".to_string()), "{t:?}");
        assert!(analyzer.is_stopword("NEWS", Language::German));
    }

    #[test]
    fn counts_accumulate() {
        let analyzer = Analyzer::new();
        let mut counts = HashMap::new();
        analyzer.term_counts(
            "Search engines search gardens.",
            Language::English,
            &mut counts,
        );
        analyzer.term_counts("搜索引擎 search", Language::Chinese, &mut counts);
        assert_eq!(counts.get("search"), Some(&3));
        assert_eq!(counts.get("搜索引擎"), Some(&1));
        assert_eq!(counts.get("garden"), Some(&1));
    }

    #[test]
    fn stopword_queries() {
        let analyzer = Analyzer::new();
        assert!(analyzer.is_stopword("The", Language::English));
        assert!(analyzer.is_stopword("的", Language::Chinese));
        assert!(analyzer.is_stopword("the", Language::Chinese));
        assert!(!analyzer.is_stopword("国家", Language::Chinese));
        assert!(!analyzer.is_stopword("running", Language::English));
    }

    #[test]
    fn sentences_delegate() {
        let analyzer = Analyzer::new();
        assert_eq!(
            analyzer
                .sentences("今天天气很好。我们去公园吧！你来吗？")
                .len(),
            3
        );
        assert_eq!(
            analyzer.sentences("Use tools, e.g. grep. Pi is about 3.14 here."),
            vec!["Use tools, e.g. grep.", "Pi is about 3.14 here."]
        );
    }

    #[test]
    fn bad_input_does_not_panic() {
        let analyzer = Analyzer::new();
        let long_word = "a".repeat(100_000);
        let nasty = [
            "",
            "\u{0}\u{1}\u{2}\u{7f}\u{1b}[31m",
            "\u{301}\u{301}\u{301} \u{301}a\u{301}",
            "\u{feff}\u{200b}\u{200d}\u{2028}\u{fffd}",
            "\u{d7ff}\u{e000}\u{10ffff}",
            "İSTANBUL ǅemal ΣΊΣΥΦΟΣ ß",
            long_word.as_str(),
            "中\u{301}文\u{0}英",
            "ｱｲｳｴｵ ㈱ ① ⅷ",
        ];
        for text in nasty {
            for lang in Language::ALL {
                let _ = analyzer.terms(text, lang);
                let _ = analyzer.sentences(text);
                let _ = analyzer.is_stopword(text, lang);
            }
        }
        assert!(analyzer.terms(&long_word, Language::English).is_empty());
    }

    #[test]
    fn megabyte_of_text_does_not_panic() {
        let analyzer = Analyzer::new();
        let en = "Search engines crawl pages; a 3.5% share, e.g. in 2004! ".repeat(20_000);
        assert!(en.len() > 1 << 20);
        assert!(!analyzer.terms(&en, Language::English).is_empty());
        let zh = "搜索引擎每天抓取网页，Rust很快。".repeat(2_000);
        assert!(!analyzer.terms(&zh, Language::Chinese).is_empty());
        assert!(!analyzer.sentences(&en).is_empty());
    }

    #[test]
    fn normalize_folds_ascii_bytewise_as_it_folds_characters() {
        // The rule character by character, for every input.
        fn slow(word: &str) -> String {
            let dotted = word.contains('.') && is_dotted_abbreviation(word);
            let mut out = String::new();
            for c in word.chars().filter(|&c| !(dotted && c == '.')) {
                let c = fold_width(c);
                if c.is_uppercase() {
                    out.extend(c.to_lowercase());
                } else {
                    out.push(c);
                }
            }
            out
        }
        let mut buf = String::new();
        for word in [
            "river",
            "River",
            "RIVERS",
            "U.S.A",
            "u.s",
            "e.g",
            "3.14",
            "a.b.c.d",
            "X_1",
            "",
            "Ärger",
            "Ｒｕｓｔ",
            "it’s",
            "İSTANBUL",
            "中文",
            "U.S.Ａ",
        ] {
            assert_eq!(normalize(word, &mut buf), slow(word), "{word}");
        }
        assert_eq!(normalize("U.S.A", &mut buf), "usa");
        let mut state = 0x2545_F491_4F6C_DD1D;
        let alphabet: Vec<char> = "aZ.9_Äé’Ｒ".chars().collect();
        for _ in 0..5_000 {
            let len = (next(&mut state) % 8) as usize;
            let word: String = (0..len)
                .map(|_| alphabet[(next(&mut state) % alphabet.len() as u64) as usize])
                .collect();
            assert_eq!(normalize(&word, &mut buf), slow(&word), "{word}");
        }
    }

    #[test]
    fn word_terms_are_the_terms_word_by_word() {
        let analyzer = Analyzer::new().with_aggressive_stopwords(["valley".to_string()]);
        for (text, lang) in [
            (
                "The rivers of the Valley rose again, e.g. 3.5 metres in 2004; U.S.A. l'eau",
                Language::English,
            ),
            (
                "L'homme mange des pommes aujourd'hui. Ärger!",
                Language::French,
            ),
            ("Кошки играют в саду.", Language::Russian),
            ("カタカナ ひらがな Rust", Language::Japanese),
        ] {
            let mut words = Vec::new();
            let mut terms = Vec::new();
            let read = analyzer.for_each_word_term(text, lang, |word, term| {
                words.push(word.to_string());
                terms.extend(term.map(str::to_string));
            });
            assert!(read, "{text}");
            let unicode: Vec<&str> = text.unicode_words().collect();
            assert_eq!(words, unicode, "{text}");
            assert_eq!(terms, analyzer.terms(text, lang), "{text}");
            assert!(!terms.is_empty(), "{text}");
        }
        let mut called = false;
        assert!(
            !analyzer.for_each_word_term("搜索引擎 rust", Language::Chinese, |_, _| {
                called = true
            })
        );
        assert!(!called);
    }

    #[test]
    fn word_split_matches_unicode_words() {
        let alphabet: Vec<char> = "ab Z1_.,;:'\"-\n\té中\u{301}\u{a0}’x".chars().collect();
        let mut state = 0x1234_5678_9ABC_DEF1;
        for _ in 0..5_000 {
            let len = (next(&mut state) % 24) as usize;
            let text: String = (0..len)
                .map(|_| alphabet[(next(&mut state) % alphabet.len() as u64) as usize])
                .collect();
            let mut ours = Vec::new();
            for_each_word(&text, |w| ours.push(w));
            let theirs: Vec<&str> = text.unicode_words().collect();
            assert_eq!(ours, theirs, "{text:?}");
        }
    }

    #[test]
    fn stemmers_survive_random_words() {
        const ALPHABETS: &[&str] = &[
            "abcdefghijklmnopqrstuvwxyzäöüßéèêàçñíóúõãåæøıİşğ'",
            "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
            "ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأؤإئةى",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15;
        for lang in Language::ALL {
            let Some(stemmer) = stemmer(lang) else {
                continue;
            };
            for alphabet in ALPHABETS {
                let chars: Vec<char> = alphabet.chars().collect();
                for _ in 0..3_000 {
                    let len = 1 + (next(&mut state) % 14) as usize;
                    let word: String = (0..len)
                        .map(|_| chars[(next(&mut state) % chars.len() as u64) as usize])
                        .collect();
                    let _ = stemmer.stem(&word);
                }
            }
        }
    }

    #[test]
    #[ignore = "timing print, run with --release -- --ignored --nocapture"]
    fn speed() {
        let analyzer = Analyzer::new();
        let en = "Search engines crawl millions of web pages every day, and the indexing \
            preprocessor cleans each page before it is indexed: running quickly matters. "
            .repeat(8_000);
        let zh = "搜索引擎每天抓取数以百万计的网页，每个网页在被索引之前都需要进行清洗，这很重要。"
            .repeat(1_000);
        let _ = analyzer.terms("预热", Language::Chinese);
        for (name, text, lang) in [
            ("en", &en, Language::English),
            ("zh", &zh, Language::Chinese),
        ] {
            let start = std::time::Instant::now();
            let n = analyzer.terms(text, lang).len();
            let secs = start.elapsed().as_secs_f64();
            let mb = text.len() as f64 / 1e6;
            println!("{name}: {mb:.2} MB, {n} terms, {:.1} MB/s", mb / secs);
        }
        let start = std::time::Instant::now();
        for _ in 0..100 {
            let _ = super::super::language::detect_language(&en[..20_000]);
        }
        println!("detect_language: {:?} per call", start.elapsed() / 100);
    }
}
