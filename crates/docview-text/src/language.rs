//! The language of a text (004 §3.2): which segmenter, stop-word list and stemmer its terms go
//! through. Owns the [`Language`] enum, a cheap script-first detector ([`detect_language`]) and
//! the reading of HTML `lang` attributes ([`language_from_tag`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::tokens::is_cjk;

/// Characters of a text the detector looks at.
const SAMPLE_CHARS: usize = 4_000;

/// Characters of the sample handed to whatlang: its trigram model is accurate well before this
/// and costs time in proportion to the text.
const WHATLANG_CHARS: usize = 1_500;

/// A language the analyzer knows: Chinese is segmented with jieba, Japanese at script changes,
/// the others at Unicode word boundaries and, where Snowball has a stemmer, stemmed.
///
/// Serialized as its lowercase ISO 639-1 code (`"en"`, `"zh"`); [`Language::Other`] as
/// `"und"` (BCP 47's undetermined), the one code of every output for it (`"other"` is still
/// read).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Language {
    /// Chinese, simplified or traditional (`zh`).
    #[serde(rename = "zh")]
    Chinese,
    /// Japanese (`ja`).
    #[serde(rename = "ja")]
    Japanese,
    /// Korean (`ko`).
    #[serde(rename = "ko")]
    Korean,
    /// English (`en`).
    #[serde(rename = "en")]
    English,
    /// German (`de`).
    #[serde(rename = "de")]
    German,
    /// French (`fr`).
    #[serde(rename = "fr")]
    French,
    /// Spanish (`es`).
    #[serde(rename = "es")]
    Spanish,
    /// Italian (`it`).
    #[serde(rename = "it")]
    Italian,
    /// Portuguese (`pt`).
    #[serde(rename = "pt")]
    Portuguese,
    /// Dutch (`nl`).
    #[serde(rename = "nl")]
    Dutch,
    /// Russian (`ru`).
    #[serde(rename = "ru")]
    Russian,
    /// Swedish (`sv`).
    #[serde(rename = "sv")]
    Swedish,
    /// Danish (`da`).
    #[serde(rename = "da")]
    Danish,
    /// Norwegian (`no`).
    #[serde(rename = "no")]
    Norwegian,
    /// Finnish (`fi`).
    #[serde(rename = "fi")]
    Finnish,
    /// Hungarian (`hu`).
    #[serde(rename = "hu")]
    Hungarian,
    /// Romanian (`ro`).
    #[serde(rename = "ro")]
    Romanian,
    /// Turkish (`tr`).
    #[serde(rename = "tr")]
    Turkish,
    /// Arabic (`ar`).
    #[serde(rename = "ar")]
    Arabic,
    /// Any other or undetermined language: English stop words, no stemming.
    #[serde(rename = "und", alias = "other")]
    Other,
}

impl Language {
    /// Number of languages, [`Language::Other`] included.
    pub const COUNT: usize = 20;

    /// Every language, in declaration order.
    pub const ALL: [Language; Language::COUNT] = [
        Language::Chinese,
        Language::Japanese,
        Language::Korean,
        Language::English,
        Language::German,
        Language::French,
        Language::Spanish,
        Language::Italian,
        Language::Portuguese,
        Language::Dutch,
        Language::Russian,
        Language::Swedish,
        Language::Danish,
        Language::Norwegian,
        Language::Finnish,
        Language::Hungarian,
        Language::Romanian,
        Language::Turkish,
        Language::Arabic,
        Language::Other,
    ];

    /// The lowercase ISO 639-1 code (`"und"` for [`Language::Other`]).
    pub const fn code(self) -> &'static str {
        match self {
            Language::Chinese => "zh",
            Language::Japanese => "ja",
            Language::Korean => "ko",
            Language::English => "en",
            Language::German => "de",
            Language::French => "fr",
            Language::Spanish => "es",
            Language::Italian => "it",
            Language::Portuguese => "pt",
            Language::Dutch => "nl",
            Language::Russian => "ru",
            Language::Swedish => "sv",
            Language::Danish => "da",
            Language::Norwegian => "no",
            Language::Finnish => "fi",
            Language::Hungarian => "hu",
            Language::Romanian => "ro",
            Language::Turkish => "tr",
            Language::Arabic => "ar",
            Language::Other => "und",
        }
    }

    /// The language of an ISO 639-1 or 639-2/3 code (`"en"`, `"deu"`, `"chi"`), case-insensitive;
    /// `None` for a code this enum does not name.
    pub fn from_code(code: &str) -> Option<Language> {
        let mut buf = [0u8; 3];
        let code = ascii_lower(code, &mut buf)?;
        let lang = match code {
            "zh" | "zho" | "chi" | "cmn" | "yue" | "wuu" | "lzh" => Language::Chinese,
            "ja" | "jpn" => Language::Japanese,
            "ko" | "kor" => Language::Korean,
            "en" | "eng" => Language::English,
            "de" | "deu" | "ger" | "gsw" => Language::German,
            "fr" | "fra" | "fre" => Language::French,
            "es" | "spa" => Language::Spanish,
            "it" | "ita" => Language::Italian,
            "pt" | "por" => Language::Portuguese,
            "nl" | "nld" | "dut" => Language::Dutch,
            "ru" | "rus" => Language::Russian,
            "sv" | "swe" => Language::Swedish,
            "da" | "dan" => Language::Danish,
            "no" | "nb" | "nn" | "nor" | "nob" | "nno" => Language::Norwegian,
            "fi" | "fin" => Language::Finnish,
            "hu" | "hun" => Language::Hungarian,
            "ro" | "ron" | "rum" | "mo" => Language::Romanian,
            "tr" | "tur" => Language::Turkish,
            "ar" | "ara" | "arb" => Language::Arabic,
            "und" | "other" => Language::Other,
            _ => return None,
        };
        Some(lang)
    }

    /// Position in [`Language::ALL`], for per-language tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// True for Chinese and Japanese, written without spaces between words: their ideographs
    /// are cut into words (with jieba for Chinese), and the Latin words in their text are taken
    /// as English.
    pub const fn writes_without_spaces(self) -> bool {
        matches!(self, Language::Chinese | Language::Japanese)
    }

    /// The Snowball stemmer of the language, if it has one (Greek's is left out: the
    /// rust-stemmers 1.2 Greek stemmer panics on some words).
    pub const fn stemmer_algorithm(self) -> Option<rust_stemmers::Algorithm> {
        use rust_stemmers::Algorithm as A;
        Some(match self {
            Language::English => A::English,
            Language::German => A::German,
            Language::French => A::French,
            Language::Spanish => A::Spanish,
            Language::Italian => A::Italian,
            Language::Portuguese => A::Portuguese,
            Language::Dutch => A::Dutch,
            Language::Russian => A::Russian,
            Language::Swedish => A::Swedish,
            Language::Danish => A::Danish,
            Language::Norwegian => A::Norwegian,
            Language::Finnish => A::Finnish,
            Language::Hungarian => A::Hungarian,
            Language::Romanian => A::Romanian,
            Language::Turkish => A::Turkish,
            Language::Arabic => A::Arabic,
            Language::Chinese | Language::Japanese | Language::Korean | Language::Other => {
                return None;
            }
        })
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// `code` lowercased into `buf` if it is 2 or 3 ASCII letters (or the word `other`).
fn ascii_lower<'b>(code: &str, buf: &'b mut [u8; 3]) -> Option<&'b str> {
    if code.eq_ignore_ascii_case("other") {
        return Some("other");
    }
    if code.len() < 2 || !code.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    ascii_lower_into(code, buf)
}

/// The language an HTML `lang` (or `xml:lang`, `Content-Language`) value names: `"en-US"`,
/// `"zh_CN"`, `"zh-Hant-TW"`, `"DE"`. A well-formed code of a language this enum does not name
/// gives [`Language::Other`]; an empty, malformed or deliberately unspecific value (`und`,
/// `mul`, `zxx`, `x-…`) gives `None`, so the caller falls back to [`detect_language`].
pub fn language_from_tag(lang_attr: &str) -> Option<Language> {
    let first = lang_attr.split(',').next().unwrap_or("");
    let primary = first.trim().split(['-', '_']).next().unwrap_or("");
    if ["und", "mul", "zxx", "mis"]
        .iter()
        .any(|u| primary.eq_ignore_ascii_case(u))
    {
        return None;
    }
    if let Some(lang) = Language::from_code(primary) {
        return Some(lang);
    }
    let well_formed =
        (2..=3).contains(&primary.len()) && primary.bytes().all(|b| b.is_ascii_alphabetic());
    well_formed.then_some(Language::Other)
}

/// The language of `text`, cheaply: by script on the first ~4,000 characters, then whatlang's
/// trigram model for alphabetic scripts. Text without letters gives [`Language::Other`]; an
/// unreliable guess gives [`Language::English`] for ASCII-heavy Latin text, else
/// [`Language::Other`].
pub fn detect_language(text: &str) -> Language {
    let sample = prefix_chars(text, SAMPLE_CHARS);
    let scripts = ScriptCounts::of(sample);
    if scripts.letters == 0 {
        return Language::Other;
    }
    if let Some(lang) = scripts.cjk_language() {
        return lang;
    }
    if looks_english(sample) {
        return Language::English;
    }
    match whatlang::detect(prefix_chars(sample, WHATLANG_CHARS)) {
        Some(info) if info.is_reliable() => from_whatlang(info.lang()),
        _ => scripts.fallback(),
    }
}

/// True for running English prose: at least a tenth of its words are common English function
/// words (about a fifth in English prose, a few hundredths in other languages; words such as
/// "on", "was", "to" and "for", common in other languages too, are not counted). It spares
/// most English pages whatlang, whose cost does not shrink with the sample.
fn looks_english(sample: &str) -> bool {
    let (mut words, mut hits) = (0usize, 0usize);
    for word in sample.split(|c: char| !c.is_alphabetic()) {
        if word.is_empty() {
            continue;
        }
        words += 1;
        if is_english_function_word(word) {
            hits += 1;
        }
    }
    words >= 30 && hits * 10 >= words
}

fn is_english_function_word(word: &str) -> bool {
    let mut buf = [0u8; 5];
    let Some(word) = ascii_lower_into(word, &mut buf) else {
        return false;
    };
    matches!(
        word,
        "the"
            | "of"
            | "and"
            | "that"
            | "it"
            | "with"
            | "this"
            | "are"
            | "from"
            | "by"
            | "have"
            | "not"
            | "but"
            | "they"
            | "you"
            | "which"
            | "were"
            | "has"
            | "their"
            | "would"
            | "been"
            | "there"
    )
}

/// `word` lowercased into `buf` if it is ASCII and fits.
fn ascii_lower_into<'b, const N: usize>(word: &str, buf: &'b mut [u8; N]) -> Option<&'b str> {
    let bytes = word.as_bytes();
    if bytes.len() > N || !word.is_ascii() {
        return None;
    }
    for (dst, src) in buf.iter_mut().zip(bytes) {
        *dst = src.to_ascii_lowercase();
    }
    std::str::from_utf8(&buf[..bytes.len()]).ok()
}

/// The first `n` characters of `text` (all of it if shorter).
fn prefix_chars(text: &str, n: usize) -> &str {
    if text.len() <= n {
        return text;
    }
    match text.char_indices().nth(n) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// Letters of a sample, by script.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct ScriptCounts {
    /// All alphabetic characters, ideographs included.
    letters: usize,
    /// ASCII letters.
    ascii: usize,
    /// CJK ideographs.
    han: usize,
    /// Hiragana and katakana.
    kana: usize,
    /// Hangul syllables and jamo.
    hangul: usize,
}

impl ScriptCounts {
    fn of(sample: &str) -> ScriptCounts {
        let mut counts = ScriptCounts::default();
        for c in sample.chars() {
            counts.add(c);
        }
        counts
    }

    fn add(&mut self, c: char) {
        if c.is_ascii() {
            if c.is_ascii_alphabetic() {
                self.letters += 1;
                self.ascii += 1;
            }
            return;
        }
        if is_kana(c) {
            self.kana += 1;
        } else if is_hangul(c) {
            self.hangul += 1;
        } else if is_han(c) {
            self.han += 1;
        } else if !c.is_alphabetic() {
            return;
        }
        self.letters += 1;
    }

    /// Chinese, Japanese or Korean when their characters are at least a quarter of the letters
    /// (an ideograph carries about as much as a short Latin word, so a quarter is a clear
    /// majority of the text's words).
    fn cjk_language(&self) -> Option<Language> {
        let cjk = self.han + self.kana + self.hangul;
        if cjk == 0 || cjk * 4 < self.letters {
            return None;
        }
        let lang = if self.hangul * 2 >= cjk {
            Language::Korean
        } else if self.kana * 10 >= self.han + self.kana {
            Language::Japanese
        } else {
            Language::Chinese
        };
        Some(lang)
    }

    /// English for text that is mostly ASCII letters, else Other.
    fn fallback(&self) -> Language {
        if self.ascii * 10 >= self.letters * 9 {
            Language::English
        } else {
            Language::Other
        }
    }
}

/// The enum's language for one of whatlang's.
fn from_whatlang(lang: whatlang::Lang) -> Language {
    use whatlang::Lang as W;
    match lang {
        W::Cmn => Language::Chinese,
        W::Jpn => Language::Japanese,
        W::Kor => Language::Korean,
        W::Eng => Language::English,
        W::Deu => Language::German,
        W::Fra => Language::French,
        W::Spa => Language::Spanish,
        W::Ita => Language::Italian,
        W::Por => Language::Portuguese,
        W::Nld => Language::Dutch,
        W::Rus => Language::Russian,
        W::Swe => Language::Swedish,
        W::Dan => Language::Danish,
        W::Nob => Language::Norwegian,
        W::Fin => Language::Finnish,
        W::Hun => Language::Hungarian,
        W::Ron => Language::Romanian,
        W::Tur => Language::Turkish,
        W::Ara => Language::Arabic,
        _ => Language::Other,
    }
}

/// True for a CJK ideograph (the characters jieba segments).
#[inline]
pub fn is_han(c: char) -> bool {
    is_cjk(c) && !is_kana(c) && !is_hangul(c)
}

/// True for hiragana or katakana (the prolonged sound mark included).
#[inline]
pub(crate) fn is_kana(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F)
}

/// True for hiragana only.
#[inline]
pub(crate) fn is_hiragana(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x309F)
}

/// True for Hangul syllables and jamo.
#[inline]
pub(crate) fn is_hangul(c: char) -> bool {
    matches!(c as u32, 0xAC00..=0xD7AF | 0x1100..=0x11FF | 0x3130..=0x318F)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: &str = "The quick brown fox jumps over the lazy dog. Search engines index \
        millions of web pages every day, and each page is cleaned before it is indexed.";
    const DE: &str = "Die Suchmaschine durchsucht jeden Tag Millionen von Webseiten. Jede Seite \
        wird bereinigt, bevor sie in den Index aufgenommen wird, und das ist wichtig.";
    const FR: &str = "Le moteur de recherche parcourt chaque jour des millions de pages web. \
        Chaque page est nettoyée avant d'être ajoutée à l'index, ce qui est important.";
    const ZH: &str = "搜索引擎每天都会抓取数以百万计的网页，每个网页在被索引之前都需要进行清洗。";
    const JA: &str = "検索エンジンは毎日何百万ものウェブページを収集し、それぞれのページは索引付けの前に整理されます。";
    const KO: &str =
        "검색 엔진은 매일 수백만 개의 웹 페이지를 수집하고 각 페이지는 색인 전에 정리됩니다.";

    #[test]
    fn detects_by_script_and_trigrams() {
        assert_eq!(detect_language(EN), Language::English);
        assert_eq!(detect_language(DE), Language::German);
        assert_eq!(detect_language(FR), Language::French);
        assert_eq!(detect_language(ZH), Language::Chinese);
        assert_eq!(detect_language(JA), Language::Japanese);
        assert_eq!(detect_language(KO), Language::Korean);
    }

    #[test]
    fn english_prose_shortcut() {
        let prose = EN.repeat(3);
        assert!(looks_english(&prose));
        assert_eq!(detect_language(&prose), Language::English);
        for other in [DE, FR] {
            assert!(!looks_english(&other.repeat(3)), "{other}");
        }
        assert!(!looks_english("the of and"));
    }

    #[test]
    fn chinese_with_some_english_is_chinese() {
        let text = format!("{ZH} Rust 和 Python 都是编程语言。{ZH}");
        assert_eq!(detect_language(&text), Language::Chinese);
    }

    #[test]
    fn no_letters_is_other() {
        for text in [
            "",
            "   \n\t ",
            "12345 678.9",
            "!!! ??? ...",
            "\u{0301}\u{0301}",
        ] {
            assert_eq!(detect_language(text), Language::Other, "{text:?}");
        }
    }

    #[test]
    fn short_ascii_falls_back_to_english() {
        assert_eq!(detect_language("ok"), Language::English);
        assert_eq!(detect_language("Home | Login"), Language::English);
    }

    #[test]
    fn long_and_odd_input_does_not_panic() {
        let long = "é".repeat(1 << 20);
        let _ = detect_language(&long);
        let _ = detect_language("\u{0}\u{1}\u{7f}\u{200b}\u{feff}a\u{0301}");
    }

    #[test]
    fn reads_html_lang_attributes() {
        assert_eq!(language_from_tag("en-US"), Some(Language::English));
        assert_eq!(language_from_tag(" zh-CN "), Some(Language::Chinese));
        assert_eq!(language_from_tag("zh_Hant_TW"), Some(Language::Chinese));
        assert_eq!(language_from_tag("DE"), Some(Language::German));
        assert_eq!(language_from_tag("ja-JP"), Some(Language::Japanese));
        assert_eq!(language_from_tag("nb-NO"), Some(Language::Norwegian));
        assert_eq!(language_from_tag("fr-CA, en"), Some(Language::French));
        assert_eq!(language_from_tag("pl"), Some(Language::Other));
        assert_eq!(language_from_tag(""), None);
        assert_eq!(language_from_tag("und"), None);
        assert_eq!(language_from_tag("x-klingon"), None);
        assert_eq!(language_from_tag("english"), None);
        assert_eq!(language_from_tag("中文"), None);
    }

    #[test]
    fn codes_round_trip() {
        for (i, lang) in Language::ALL.iter().enumerate() {
            assert_eq!(lang.index(), i);
            assert_eq!(Language::from_code(lang.code()), Some(*lang));
            let json = serde_json::to_string(lang).unwrap();
            assert_eq!(json, format!("\"{}\"", lang.code()));
            assert_eq!(serde_json::from_str::<Language>(&json).unwrap(), *lang);
        }
        // One code for a language docview does not know, in every output: BCP 47's `und`.
        assert_eq!(Language::Other.code(), "und");
        assert_eq!(
            serde_json::from_str::<Language>("\"other\"").unwrap(),
            Language::Other
        );
    }

    #[test]
    fn script_classes() {
        assert!(is_han('中') && !is_han('の') && !is_han('한') && !is_han('a'));
        assert!(is_kana('の') && is_kana('ー') && is_kana('ア'));
        assert!(is_hiragana('の') && !is_hiragana('ア'));
        assert!(is_hangul('한'));
    }
}
