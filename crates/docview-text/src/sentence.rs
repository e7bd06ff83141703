//! Sentence splitting for abstracts: Chinese full-width terminators (。！？；) always end a
//! sentence; Western `.`, `!`, `?` and `…` end one only before whitespace, a CJK character or the
//! end of the text, and a period does not after an abbreviation ("e.g.", "Dr.", "U.S.") or
//! before a lowercase word. A blank line ends a sentence too. Sentences are trimmed, and those
//! without a letter or digit are dropped.

use super::segment::is_cjk_wrap;
use super::tokens::is_cjk;

/// Words that a period follows without ending the sentence.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "gen", "gov", "sen", "rep", "rev",
    "capt", "col", "lt", "sgt", "hon", "vs", "cf", "approx", "dept", "est", "inc", "ltd", "corp",
    "bzw", "ca", "nr", "usw",
];

/// Words that a period follows without ending the sentence when a number comes next.
const NUMBER_ABBREVIATIONS: &[&str] = &[
    "no", "nos", "fig", "figs", "vol", "vols", "pp", "p", "ch", "sec", "eq", "art", "jan", "feb",
    "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
];

/// How a character ends a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Terminator {
    /// Full-width Chinese punctuation: always a boundary.
    Strong,
    /// `!`, `?` and the like: a boundary before whitespace, CJK or the end.
    Weak,
    /// `.` and `…`: like `Weak`, unless an abbreviation or a lowercase word says otherwise.
    Period,
}

fn terminator(c: char) -> Option<Terminator> {
    match c {
        '。' | '！' | '？' | '；' | '．' | '｡' => Some(Terminator::Strong),
        '!' | '?' | '؟' | '।' | '॥' | '۔' => Some(Terminator::Weak),
        '.' | '…' => Some(Terminator::Period),
        _ => None,
    }
}

/// Closing quotes and brackets that stay with the sentence they close.
fn is_closer(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | ')'
            | ']'
            | '}'
            | '”'
            | '’'
            | '»'
            | '」'
            | '』'
            | '）'
            | '】'
            | '》'
            | '〉'
            | '〕'
    )
}

/// The sentences of `text`, trimmed, in order.
pub(crate) fn split_sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\n' && blank_line_follows(&text[i + 1..]) && !is_cjk_wrap(text, i) {
            push_sentence(&mut out, &text[start..i]);
            start = i;
            continue;
        }
        let Some(mut kind) = terminator(c) else {
            continue;
        };
        let mut end = i + c.len_utf8();
        let mut single_period = c == '.';
        while let Some(&(j, d)) = chars.peek() {
            match terminator(d) {
                Some(k) => {
                    kind = stronger(kind, k);
                    single_period = false;
                }
                None if is_closer(d) => {}
                None => break,
            }
            end = j + d.len_utf8();
            chars.next();
        }
        if is_boundary(text, i, end, kind, single_period) {
            push_sentence(&mut out, &text[start..end]);
            start = end;
        }
    }
    push_sentence(&mut out, &text[start..]);
    out
}

fn stronger(a: Terminator, b: Terminator) -> Terminator {
    match (a, b) {
        (Terminator::Strong, _) | (_, Terminator::Strong) => Terminator::Strong,
        (Terminator::Weak, _) | (_, Terminator::Weak) => Terminator::Weak,
        _ => Terminator::Period,
    }
}

/// True if the rest of a line is blank up to another line break.
fn blank_line_follows(rest: &str) -> bool {
    for c in rest.chars() {
        match c {
            '\n' => return true,
            ' ' | '\t' | '\r' => {}
            _ => return false,
        }
    }
    false
}

/// Does the terminator run `text[at..end]` (closers included) end a sentence?
fn is_boundary(text: &str, at: usize, end: usize, kind: Terminator, single_period: bool) -> bool {
    if kind == Terminator::Strong {
        return true;
    }
    let rest = &text[end..];
    match rest.chars().next() {
        None => return true,
        Some(c) if c.is_whitespace() || is_cjk(c) => {}
        Some(_) => return false,
    }
    if kind == Terminator::Weak {
        return true;
    }
    let next = rest.trim_start().chars().next();
    if next.is_some_and(char::is_lowercase) {
        return false;
    }
    !(single_period && is_abbreviation(word_before(text, at), next))
}

/// The word (letters, digits and inner periods) that ends at byte `at`.
fn word_before(text: &str, at: usize) -> &str {
    let head = &text[..at];
    let start = head
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_alphanumeric() || c == '.'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    &head[start..]
}

/// True for "e.g", "U.S", "Dr", a single initial, or "No" before a number.
fn is_abbreviation(word: &str, next: Option<char>) -> bool {
    if word.is_empty() {
        return false;
    }
    if word.contains('.') {
        return is_dotted_abbreviation(word);
    }
    let mut chars = word.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return c.is_uppercase();
    }
    if word.len() > 6 {
        return false;
    }
    let lower = word.to_ascii_lowercase();
    ABBREVIATIONS.contains(&lower.as_str())
        || (next.is_some_and(|c| c.is_ascii_digit())
            && NUMBER_ABBREVIATIONS.contains(&lower.as_str()))
}

/// True for letters in groups of one or two joined by periods: "e.g", "U.S", "Ph.D".
pub(crate) fn is_dotted_abbreviation(word: &str) -> bool {
    word.split('.').all(|part| {
        let mut n = 0;
        part.chars().all(|c| {
            n += 1;
            c.is_alphabetic()
        }) && (1..=2).contains(&n)
    })
}

fn push_sentence<'a>(out: &mut Vec<&'a str>, sentence: &'a str) {
    let sentence = sentence.trim();
    if sentence.chars().any(char::is_alphanumeric) {
        out.push(sentence);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_punctuation() {
        assert_eq!(
            split_sentences("今天天气很好。我们去公园吧！你来吗？"),
            vec!["今天天气很好。", "我们去公园吧！", "你来吗？"]
        );
        assert_eq!(
            split_sentences("他说：“你好。”然后走了；我们……没说话"),
            vec!["他说：“你好。”", "然后走了；", "我们……", "没说话"]
        );
    }

    #[test]
    fn abbreviations_and_decimals() {
        let text = "Some fruits, e.g. apples, cost 3.5 dollars. Dr. Smith agrees! Does he? Yes.";
        assert_eq!(
            split_sentences(text),
            vec![
                "Some fruits, e.g. apples, cost 3.5 dollars.",
                "Dr. Smith agrees!",
                "Does he?",
                "Yes."
            ]
        );
        assert_eq!(
            split_sentences("The U.S. Army won. J. Smith saw it. See Fig. 3 now."),
            vec!["The U.S. Army won.", "J. Smith saw it.", "See Fig. 3 now."]
        );
        assert_eq!(
            split_sentences("It is version 3.5. Next one."),
            vec!["It is version 3.5.", "Next one."]
        );
    }

    #[test]
    fn quotes_and_urls() {
        assert_eq!(
            split_sentences("He said \"stop.\" Then he left. Visit example.com today."),
            vec![
                "He said \"stop.\"",
                "Then he left.",
                "Visit example.com today."
            ]
        );
        assert_eq!(
            split_sentences("Wait... what? ok"),
            vec!["Wait... what?", "ok"]
        );
    }

    #[test]
    fn blank_lines_and_empty_pieces() {
        assert_eq!(
            split_sentences("Title\n\nFirst line\nstill first. Second."),
            vec!["Title", "First line\nstill first.", "Second."]
        );
        assert_eq!(
            split_sentences("他突然辞\n\n去总书记职务。\n\n标题\n\nNext"),
            vec!["他突然辞\n\n去总书记职务。", "标题", "Next"]
        );
        assert!(split_sentences("").is_empty());
        assert!(split_sentences("  \n\n . !! 。。 ").is_empty());
    }

    #[test]
    fn odd_input_does_not_panic() {
        let _ = split_sentences("\u{0}\u{301}.\u{301}!\u{feff}?");
        let _ = split_sentences(&".".repeat(10_000));
        let _ = split_sentences(&"a. ".repeat(10_000));
        let _ = split_sentences("。".repeat(1000).as_str());
    }
}
