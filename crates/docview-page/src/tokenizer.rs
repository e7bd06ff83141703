//! docview's HTML tokenizer: the HTML standard's tokenization stage (13.2.5) run over a whole
//! document held in memory, feeding html5ever's tree builder.
//!
//! html5ever's own tokenizer is written for input that arrives in pieces: it steps one
//! character at a time through a state machine it can suspend anywhere, and builds every tag
//! name, attribute name and value character by character; profiles of `ingest` put it at a
//! fifth of all the work. docview always holds the whole page, so this tokenizer reads each
//! construct in one go, with a byte scan to its end: a run of text becomes one token that
//! shares the page's buffer (a tendril slice, so the DOM's text nodes grow without copying),
//! an attribute value is a slice of the page unless a character reference or a NUL forces a
//! copy, and a tag, comment or doctype is read by straight-line code over its bytes. Every
//! markup character is ASCII, so the scan works on UTF-8 bytes and cuts only at character
//! boundaries.
//!
//! The tokens are the ones html5ever's tokenizer gives its tree builder, state by state (its
//! deviations from the standard included, since the tree builder is tested against them),
//! except that:
//! - runs of text are cut in other places (the tree builder treats text character by
//!   character);
//! - parse errors are not reported (docview reads none, and the tree builder acts on none);
//! - the text of `<style>` elements and of scripts other than JSON-LD is passed over unread
//!   ([`crate::raw_text`]): the tag tree drops those elements whole;
//! - a byte order mark is dropped only at the start of the page (html5ever drops one again
//!   after each `</script>`, where its driver resumes it);
//! - the tokenizer counts how deep the tags nest, as [`crate::nesting`]'s scan counts, and stops
//!   when they pass the limit the caller gives (the page is then parsed again with the deepest
//!   elements unwrapped);
//! - a tag keeps its first [`MAX_ATTRIBUTES`] attributes (no name twice, as the standard has it);
//!   the rest are dropped and counted, so that no per-element step of the tree builder (the
//!   duplicate check, the copies of a formatting element's attributes it reopens, its
//!   comparisons of them) costs more than a constant;
//! - the tokenizer stops, ending the document there, when the tree builder has made more
//!   elements and attributes than the caller's budget (a budget in proportion to the page's
//!   size: only formatting elements reopened again and again pass it), so parsing stays linear
//!   in the page's size.
//!
//! Tests build the DOM both ways, through this tokenizer and through html5ever's, and compare
//! the trees on the standard's tricky cases, random markup and corpus pages.

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    CharacterTokens, CommentToken, Doctype, DoctypeToken, EOFToken, EndTag, NullCharacterToken,
    StartTag, Tag, TagKind, TagToken, Token, TokenSink, TokenSinkResult,
};
use html5ever::{Attribute, LocalName, QualName, local_name, ns};

use rustc_hash::FxHashSet;

use crate::nesting::nesting_step;
use crate::raw_text::{is_json_ld, rawtext_end, script_data_end};

/// The line number handed to the tree builder with every token: docview reads no positions.
const LINE: u64 = 1;

/// The replacement character, for a NUL in most places.
const REPLACEMENT: &str = "\u{FFFD}";

/// Most attributes a tag keeps: the first ones, duplicates aside. The pages of the labelled
/// sets have at most about 200 on an element; the rest of a longer list is dropped (and
/// counted: [`ParseCuts::attributes_dropped`](crate::ParseCuts::attributes_dropped)).
pub const MAX_ATTRIBUTES: usize = 256;

/// Attributes a tag holds before its names are looked up in a set rather than in a row.
const NAMES_IN_A_ROW: usize = 16;

/// How the tokenizer ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// At the end of the document, and the sink ended.
    Complete,
    /// Where the tags nested deeper than the caller's limit; the sink left unfinished.
    TooDeep,
    /// Where the tree builder had made more elements and attributes than the caller's budget:
    /// the document ended there (the sink ended), at this byte of the document parsed.
    OverBudget(usize),
}

/// What the tokenizer did with a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tokenized {
    /// How it ended.
    pub(crate) end: End,
    /// Attributes dropped past the first [`MAX_ATTRIBUTES`] of a tag (duplicates not counted).
    pub(crate) attributes_dropped: u64,
    /// Attribute names compared or looked up to find duplicates: the work of that check.
    pub(crate) name_probes: u64,
}

/// What the tree builder has made so far, and the most it may make, in elements and
/// attributes together: the tokenizer stops when `made` passes `budget`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget<'a> {
    /// Elements and attributes made so far (the sink counts them).
    pub(crate) made: &'a std::cell::Cell<usize>,
    /// The most it may make.
    pub(crate) budget: usize,
}

/// Tokenizes the whole document `html` into `sink` (html5ever's tree builder), then ends it;
/// stops early, with the sink left unfinished, when its tags nest deeper than `max_depth`
/// (counted as [`crate::nesting`] counts them), and ends the document early when the sink has
/// made more than `budget` allows.
pub(crate) fn tokenize<S: TokenSink>(
    html: &str,
    sink: &S,
    max_depth: usize,
    budget: Budget<'_>,
) -> Tokenized {
    // The standard's input stream preprocessing: a CR LF pair or a lone CR is a line feed.
    let normalised;
    let html = if memchr::memchr(b'\r', html.as_bytes()).is_some() {
        normalised = html.replace("\r\n", "\n").replace('\r', "\n");
        normalised.as_str()
    } else {
        html
    };
    // A byte order mark at the start is dropped (html5ever's `discard_bom`).
    let html = html.strip_prefix('\u{FEFF}').unwrap_or(html);
    let input = StrTendril::from_slice(html);
    let mut tokenizer = Tokenizer {
        input: &input,
        bytes: input.as_bytes(),
        sink,
        pos: 0,
        depth: 0,
        max_depth,
        budget,
        attributes_dropped: 0,
        name_probes: 0,
    };
    let end = tokenizer.run();
    if end != End::TooDeep {
        let _ = tokenizer.emit(EOFToken);
        sink.end();
    }
    Tokenized {
        end,
        attributes_dropped: tokenizer.attributes_dropped,
        name_probes: tokenizer.name_probes,
    }
}

/// The tokenizer's place in one document.
struct Tokenizer<'a, S> {
    /// The document; tokens slice it.
    input: &'a StrTendril,
    /// The document's bytes.
    bytes: &'a [u8],
    /// The tree builder.
    sink: &'a S,
    /// Where the next token starts.
    pos: usize,
    /// How deep the tags read so far nest, as [`crate::nesting`] counts.
    depth: usize,
    /// The deepest nesting read before the tokenizer gives up.
    max_depth: usize,
    /// What the tree builder may make.
    budget: Budget<'a>,
    /// Attributes dropped past [`MAX_ATTRIBUTES`].
    attributes_dropped: u64,
    /// The work of the duplicate checks ([`Tokenized::name_probes`]).
    name_probes: u64,
}

/// Whitespace as the tokenizer's states see it (carriage returns are gone by then).
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b' ')
}

/// The attribute names a tag has read, for the duplicate check: its attributes themselves
/// while they are few, then a set of every name read (kept or dropped past
/// [`MAX_ATTRIBUTES`]), so a tag of many attributes costs time in proportion to them.
#[derive(Default)]
struct Names {
    /// Every name read, once the tag has more than [`NAMES_IN_A_ROW`] attributes.
    set: Option<FxHashSet<LocalName>>,
    /// Names compared or looked up: the work of the check.
    probes: u64,
}

impl Names {
    /// True when `name` was read before (`attrs` are the tag's attributes kept so far).
    fn contains(&mut self, attrs: &[Attribute], name: &LocalName) -> bool {
        match &self.set {
            Some(set) => {
                self.probes += 1;
                set.contains(name)
            }
            None => {
                self.probes += attrs.len() as u64;
                attrs.iter().any(|a| a.name.local == *name)
            }
        }
    }

    /// Notes `name` as read (`attrs` as kept before it). A tag of few attributes copies no
    /// name: they are their own record.
    fn add(&mut self, attrs: &[Attribute], name: &LocalName) {
        match &mut self.set {
            Some(set) => {
                set.insert(name.clone());
            }
            None if attrs.len() >= NAMES_IN_A_ROW => {
                let mut set: FxHashSet<LocalName> =
                    attrs.iter().map(|a| a.name.local.clone()).collect();
                set.insert(name.clone());
                self.set = Some(set);
            }
            None => {}
        }
    }
}

/// The one or two characters a character reference stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CharRef {
    chars: [char; 2],
    len: usize,
}

impl CharRef {
    fn one(c: char) -> CharRef {
        CharRef {
            chars: [c, '\0'],
            len: 1,
        }
    }

    fn push_to(self, out: &mut String) {
        out.extend(&self.chars[..self.len]);
    }
}

/// Which identifier of a doctype a state reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Id {
    Public = 0,
    System = 1,
}

/// The doctype states after `<!DOCTYPE` (13.2.5.53 onwards, as html5ever has them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DoctypeState {
    Doctype,
    BeforeName,
    Name,
    AfterName,
    AfterKeyword(Id),
    BeforeId(Id),
    IdQuoted(Id, u8),
    AfterId(Id),
    Between,
    Bogus,
}

/// The comment states after `<!--` (13.2.5.43 onwards, as html5ever has them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CommentState {
    Start,
    StartDash,
    Comment,
    LessThan,
    LessThanBang,
    LessThanBangDash,
    LessThanBangDashDash,
    EndDash,
    End,
    EndBang,
}

impl<S: TokenSink> Tokenizer<'_, S> {
    fn emit(&self, token: Token) -> TokenSinkResult<S::Handle> {
        self.sink.process_token(token, LINE)
    }

    /// Emits the document's text from `from` to `to` as it is, if there is any.
    fn emit_slice(&self, from: usize, to: usize) {
        if to > from {
            let text = self.input.subtendril(from as u32, (to - from) as u32);
            // Text never switches the tokenizer's state.
            let _ = self.emit(CharacterTokens(text));
        }
    }

    fn emit_str(&self, text: &str) {
        if !text.is_empty() {
            let _ = self.emit(CharacterTokens(StrTendril::from_slice(text)));
        }
    }

    /// Emits the characters of a character reference.
    fn emit_ref(&self, chars: CharRef) {
        let mut text = String::new();
        chars.push_to(&mut text);
        self.emit_str(&text);
    }

    /// The data state: text, character references and NULs up to each tag, comment or doctype,
    /// to the end of the document, or until the tags nest too deep or the tree builder has
    /// made more than its budget.
    fn run(&mut self) -> End {
        let bytes = self.bytes;
        let mut start = self.pos;
        let mut at = self.pos;
        while let Some(off) = memchr::memchr3(b'<', b'&', 0, &bytes[at..]) {
            let p = at + off;
            match bytes[p] {
                b'<' => match bytes.get(p + 1) {
                    Some(b'!' | b'/' | b'?') => {}
                    Some(c) if c.is_ascii_alphabetic() => {}
                    // A `<` that starts nothing (at the end too) is text.
                    _ => {
                        at = p + 1;
                        continue;
                    }
                },
                b'&' => {
                    match self.char_ref(p + 1, false) {
                        Some((chars, end)) => {
                            self.emit_slice(start, p);
                            self.emit_ref(chars);
                            start = end;
                            at = end;
                        }
                        // Not a reference: the `&` is text.
                        None => at = p + 1,
                    }
                    continue;
                }
                _ => {
                    self.emit_slice(start, p);
                    let _ = self.emit(NullCharacterToken);
                    start = p + 1;
                    at = p + 1;
                    continue;
                }
            }
            self.emit_slice(start, p);
            self.markup(p);
            if self.depth > self.max_depth {
                return End::TooDeep;
            }
            if self.budget.made.get() > self.budget.budget {
                return End::OverBudget(self.pos);
            }
            start = self.pos;
            at = self.pos;
        }
        self.emit_slice(start, bytes.len());
        self.pos = bytes.len();
        End::Complete
    }

    /// Reads the markup that starts with the `<` at `p` (followed by `!`, `/`, `?` or a
    /// letter) and sets `pos` after it.
    fn markup(&mut self, p: usize) {
        let bytes = self.bytes;
        let q = p + 2;
        match bytes[p + 1] {
            b'!' => {
                let rest = &bytes[q..];
                if rest.starts_with(b"--") {
                    self.comment(q + 2);
                } else if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
                    self.doctype(q + 7);
                } else if rest.starts_with(b"[CDATA[")
                    && self
                        .sink
                        .adjusted_current_node_present_but_not_in_html_namespace()
                {
                    self.cdata(q + 7);
                } else {
                    self.bogus_comment(q);
                }
            }
            b'/' => match bytes.get(q) {
                Some(c) if c.is_ascii_alphabetic() => self.tag(q, EndTag),
                // `</>` is dropped.
                Some(b'>') => self.pos = q + 1,
                Some(_) => self.bogus_comment(q),
                None => {
                    self.emit_str("</");
                    self.pos = q;
                }
            },
            // A processing instruction is a bogus comment, its `?` included.
            b'?' => self.bogus_comment(p + 1),
            _ => self.tag(p + 1, StartTag),
        }
    }

    /// The name from `from` to `to` (a tag's or an attribute's) as the tag name and attribute
    /// name states build it: ASCII capitals lowered, a NUL replaced.
    fn name(&self, from: usize, to: usize) -> LocalName {
        let raw = &self.bytes[from..to];
        let text = &self.input[from..to];
        if raw.iter().any(|&b| b.is_ascii_uppercase() || b == 0) {
            LocalName::from(text.to_ascii_lowercase().replace('\0', REPLACEMENT))
        } else {
            LocalName::from(text)
        }
    }

    /// Reads a start or end tag whose name starts at `from` (a letter), emits it and sets
    /// `pos` after it (and after the raw text the tree builder may switch to). A tag the
    /// document ends inside is dropped.
    fn tag(&mut self, from: usize, kind: TagKind) {
        let bytes = self.bytes;
        let len = bytes.len();
        let mut q = from
            + bytes[from..]
                .iter()
                .position(|&b| is_space(b) || b == b'/' || b == b'>')
                .unwrap_or(len - from);
        if q == len {
            self.pos = len;
            return;
        }
        let name_end = q;
        let mut tag = Tag {
            kind,
            name: self.name(from, name_end),
            self_closing: false,
            attrs: Vec::new(),
            had_duplicate_attributes: false,
        };
        let mut names = Names::default();
        // Counted once the tag is read to its end (a tag the document ends inside is dropped
        // whole).
        let mut dropped = 0;
        // The before attribute name state, reached again after each attribute.
        loop {
            while q < len && is_space(bytes[q]) {
                q += 1;
            }
            let Some(&c) = bytes.get(q) else {
                self.pos = len;
                return;
            };
            match c {
                b'>' => {
                    q += 1;
                    break;
                }
                b'/' => {
                    // Self-closing start tag state; anything but `>` is reconsumed in the
                    // before attribute name state.
                    q += 1;
                    match bytes.get(q) {
                        None => {
                            self.pos = len;
                            return;
                        }
                        Some(b'>') => {
                            tag.self_closing = true;
                            q += 1;
                            break;
                        }
                        Some(_) => continue,
                    }
                }
                _ => {}
            }
            // The attribute name state: its first character is anything (`=` included), the
            // rest runs to a space, `/`, `>` or `=`.
            let name_from = q;
            q += 1;
            while q < len
                && !matches!(
                    bytes[q],
                    b'\t' | b'\n' | b'\x0C' | b' ' | b'/' | b'>' | b'='
                )
            {
                q += 1;
            }
            if q == len {
                self.pos = len;
                return;
            }
            let name_to = q;
            // After attribute name: spaces, then `=` for a value; anything else is what the
            // before attribute name state reads next.
            while q < len && is_space(bytes[q]) {
                q += 1;
            }
            let value = if bytes.get(q) == Some(&b'=') {
                q += 1;
                while q < len && is_space(bytes[q]) {
                    q += 1;
                }
                let Some(&c) = bytes.get(q) else {
                    self.pos = len;
                    return;
                };
                match c {
                    b'"' | b'\'' => {
                        // Quoted: to the closing quote. After it, the after attribute value
                        // (quoted) state does what the before attribute name state does.
                        let Some((value, end)) = self.quoted_value(q + 1, c) else {
                            self.pos = len;
                            return;
                        };
                        q = end + 1;
                        value
                    }
                    // `=` then `>`: an empty value, and the tag ends.
                    b'>' => StrTendril::new(),
                    _ => {
                        let Some((value, end)) = self.unquoted_value(q) else {
                            self.pos = len;
                            return;
                        };
                        q = end;
                        value
                    }
                }
            } else {
                StrTendril::new()
            };
            // html5ever's finish_attribute: a name the tag already has is dropped; so is a
            // name past the first MAX_ATTRIBUTES (counted).
            let name = self.name(name_from, name_to);
            if names.contains(&tag.attrs, &name) {
                tag.had_duplicate_attributes = true;
            } else if tag.attrs.len() >= MAX_ATTRIBUTES {
                dropped += 1;
                names.add(&tag.attrs, &name);
            } else {
                names.add(&tag.attrs, &name);
                tag.attrs.push(Attribute {
                    name: QualName::new(None, ns!(), name),
                    value,
                });
            }
        }
        self.name_probes += names.probes;
        self.attributes_dropped += dropped;
        // The nesting guard counts the tag as its scan would: self-closing when `/` is before
        // the `>`.
        self.depth = nesting_step(
            self.depth,
            &bytes[from..name_end],
            kind == EndTag,
            bytes[q - 2] == b'/',
        );
        if self.depth > self.max_depth {
            return;
        }
        self.emit_tag(tag, &bytes[from..name_end], q);
    }

    /// A quoted attribute value from `from` to the `quote` that closes it: the value and the
    /// quote's offset, or nothing when the document ends first.
    fn quoted_value(&self, from: usize, quote: u8) -> Option<(StrTendril, usize)> {
        let bytes = self.bytes;
        let mut decoded: Option<String> = None;
        let mut copied = from;
        let mut at = from;
        loop {
            let p = at + memchr::memchr3(quote, b'&', 0, &bytes[at..])?;
            match bytes[p] {
                b'&' => match self.char_ref(p + 1, true) {
                    Some((chars, end)) => {
                        let out = decoded.get_or_insert_with(String::new);
                        out.push_str(&self.input[copied..p]);
                        chars.push_to(out);
                        copied = end;
                        at = end;
                    }
                    None => at = p + 1,
                },
                0 => {
                    let out = decoded.get_or_insert_with(String::new);
                    out.push_str(&self.input[copied..p]);
                    out.push_str(REPLACEMENT);
                    copied = p + 1;
                    at = p + 1;
                }
                _ => return Some((self.value(decoded, copied, from, p), p)),
            }
        }
    }

    /// An unquoted attribute value from `from`: the value and the offset of the space or `>`
    /// that ends it, or nothing when the document ends first.
    fn unquoted_value(&self, from: usize) -> Option<(StrTendril, usize)> {
        let bytes = self.bytes;
        let mut decoded: Option<String> = None;
        let mut copied = from;
        let mut at = from;
        loop {
            let b = *bytes.get(at)?;
            match b {
                b'\t' | b'\n' | b'\x0C' | b' ' | b'>' => {
                    return Some((self.value(decoded, copied, from, at), at));
                }
                b'&' => match self.char_ref(at + 1, true) {
                    Some((chars, end)) => {
                        let out = decoded.get_or_insert_with(String::new);
                        out.push_str(&self.input[copied..at]);
                        chars.push_to(out);
                        copied = end;
                        at = end;
                    }
                    None => at += 1,
                },
                0 => {
                    let out = decoded.get_or_insert_with(String::new);
                    out.push_str(&self.input[copied..at]);
                    out.push_str(REPLACEMENT);
                    at += 1;
                    copied = at;
                }
                _ => at += 1,
            }
        }
    }

    /// An attribute value ending at `end`: a slice of the document from `from` when nothing
    /// was decoded, else what was decoded and the document from `copied`.
    fn value(&self, decoded: Option<String>, copied: usize, from: usize, end: usize) -> StrTendril {
        match decoded {
            None => self.input.subtendril(from as u32, (end - from) as u32),
            Some(mut out) => {
                out.push_str(&self.input[copied..end]);
                StrTendril::from(out)
            }
        }
    }

    /// Emits `tag`, which ends before `end`, and reads the raw text the tree builder switches
    /// to after it (`name` is the tag's name as written, to find the raw text's end tag).
    fn emit_tag(&mut self, tag: Tag, name: &[u8], end: usize) {
        let keep_script =
            tag.kind == StartTag && tag.name == local_name!("script") && is_json_ld(&tag.attrs);
        let bytes = self.bytes;
        self.pos = end;
        let result = self.emit(TagToken(tag));
        let rest = &bytes[end..];
        match result {
            TokenSinkResult::RawData(RawKind::Rcdata) => {
                let stop = end + rawtext_end(rest, name);
                self.rcdata(end, stop);
                self.pos = stop;
            }
            TokenSinkResult::RawData(RawKind::Rawtext) => {
                let stop = end + rawtext_end(rest, name);
                // A style sheet is passed over; the text of `<noscript>`, `<xmp>`, `<iframe>`,
                // `<noembed>` and `<noframes>` is kept.
                if !name.eq_ignore_ascii_case(b"style") {
                    self.raw_text(end, stop);
                }
                self.pos = stop;
            }
            TokenSinkResult::RawData(RawKind::ScriptData | RawKind::ScriptDataEscaped(_)) => {
                let stop = end + script_data_end(rest);
                if keep_script {
                    self.raw_text(end, stop);
                }
                self.pos = stop;
            }
            TokenSinkResult::Plaintext => {
                self.raw_text(end, bytes.len());
                self.pos = bytes.len();
            }
            // `Script` comes at a script's end tag, after which the data state goes on.
            TokenSinkResult::Continue
            | TokenSinkResult::Script(_)
            | TokenSinkResult::EncodingIndicator(_) => {}
        }
    }

    /// Emits RAWTEXT, script data or PLAINTEXT from `from` to `to`: the text as it is, a NUL
    /// replaced.
    fn raw_text(&self, from: usize, to: usize) {
        let mut start = from;
        while let Some(off) = memchr::memchr(0, &self.bytes[start..to]) {
            self.emit_slice(start, start + off);
            self.emit_str(REPLACEMENT);
            start += off + 1;
        }
        self.emit_slice(start, to);
    }

    /// Emits RCDATA (a title's or a text area's) from `from` to `to`: character references
    /// decoded, a NUL replaced.
    fn rcdata(&self, from: usize, to: usize) {
        let mut start = from;
        let mut at = from;
        while let Some(off) = memchr::memchr2(b'&', 0, &self.bytes[at..to]) {
            let p = at + off;
            if self.bytes[p] == 0 {
                self.emit_slice(start, p);
                self.emit_str(REPLACEMENT);
                start = p + 1;
                at = p + 1;
                continue;
            }
            match self.char_ref(p + 1, false) {
                Some((chars, end)) => {
                    self.emit_slice(start, p);
                    self.emit_ref(chars);
                    start = end;
                    at = end;
                }
                None => at = p + 1,
            }
        }
        self.emit_slice(start, to);
    }

    /// The character reference after the `&` at `from - 1`: its characters and where it ends,
    /// or nothing when the `&` is text (html5ever's char_ref tokenizer). `in_attribute` applies
    /// the historical rule for attribute values: `&amp=` or `&ampx` is not a reference there.
    fn char_ref(&self, from: usize, in_attribute: bool) -> Option<(CharRef, usize)> {
        let bytes = self.bytes;
        match *bytes.get(from)? {
            b'#' => self.numeric_ref(from + 1),
            c if c.is_ascii_alphanumeric() => {
                // The longest name in the table that the text starts with (the table holds
                // every prefix of a name, with no characters, so the walk stops where no name
                // goes on).
                let mut best = None;
                let mut at = from;
                while at < bytes.len() && bytes[at].is_ascii() {
                    match NAMED_ENTITIES.get(&self.input[from..=at]) {
                        Some(&(c1, c2)) => {
                            at += 1;
                            if c1 != 0 {
                                best = Some((c1, c2, at));
                            }
                        }
                        None => break,
                    }
                }
                let (c1, c2, end) = best?;
                if in_attribute
                    && bytes[end - 1] != b';'
                    && bytes
                        .get(end)
                        .is_some_and(|&b| b == b'=' || b.is_ascii_alphanumeric())
                {
                    return None;
                }
                let mut chars = CharRef::one(char::from_u32(c1)?);
                if c2 != 0 {
                    chars.chars[1] = char::from_u32(c2)?;
                    chars.len = 2;
                }
                Some((chars, end))
            }
            _ => None,
        }
    }

    /// A numeric character reference whose `&#` ends before `from`: its character and where it
    /// ends, or nothing when no digit follows (the `&#` is text then).
    fn numeric_ref(&self, from: usize) -> Option<(CharRef, usize)> {
        let bytes = self.bytes;
        let (base, digits_from) = match bytes.get(from) {
            Some(b'x' | b'X') => (16, from + 1),
            _ => (10, from),
        };
        let mut num: u32 = 0;
        let mut too_big = false;
        let mut at = digits_from;
        while let Some(d) = bytes.get(at).and_then(|&b| (b as char).to_digit(base)) {
            num = num.wrapping_mul(base);
            if num > 0x10FFFF {
                too_big = true;
            }
            num = num.wrapping_add(d);
            at += 1;
        }
        if at == digits_from {
            return None;
        }
        if bytes.get(at) == Some(&b';') {
            at += 1;
        }
        let c = match num {
            n if n > 0x10FFFF || too_big => '\u{FFFD}',
            0x00 | 0xD800..=0xDFFF => '\u{FFFD}',
            0x80..=0x9F => C1_REPLACEMENTS[(num - 0x80) as usize]
                .or_else(|| char::from_u32(num))
                .unwrap_or('\u{FFFD}'),
            n => char::from_u32(n).unwrap_or('\u{FFFD}'),
        };
        Some((CharRef::one(c), at))
    }

    /// A bogus comment from `from` to the next `>`: emitted, `pos` after it.
    fn bogus_comment(&mut self, from: usize) {
        let bytes = self.bytes;
        let (end, next) = match memchr::memchr(b'>', &bytes[from..]) {
            Some(off) => (from + off, from + off + 1),
            None => (bytes.len(), bytes.len()),
        };
        let text = &self.input[from..end];
        let data = if text.contains('\0') {
            StrTendril::from(text.replace('\0', REPLACEMENT))
        } else {
            StrTendril::from_slice(text)
        };
        let _ = self.emit(CommentToken(data));
        self.pos = next;
    }

    /// A comment whose `<!--` ends before `from`: emitted, `pos` after it.
    fn comment(&mut self, from: usize) {
        use CommentState as C;
        let bytes = self.bytes;
        let mut data: Vec<u8> = Vec::new();
        let mut state = C::Start;
        let mut q = from;
        loop {
            if state == C::Comment {
                // Nothing but `<`, `-` and NUL matters here.
                match memchr::memchr3(b'<', b'-', 0, &bytes[q..]) {
                    Some(off) => {
                        data.extend_from_slice(&bytes[q..q + off]);
                        q += off;
                    }
                    None => {
                        data.extend_from_slice(&bytes[q..]);
                        q = bytes.len();
                    }
                }
            }
            let Some(&c) = bytes.get(q) else {
                // The end of the document ends the comment, in every state.
                break;
            };
            q += 1;
            state = match (state, c) {
                (C::Start, b'-') => C::StartDash,
                (C::Start | C::StartDash | C::End, b'>') => break,
                (C::Comment, b'<') => {
                    data.push(c);
                    C::LessThan
                }
                (C::Comment, b'-') => C::EndDash,
                (C::Start | C::Comment, 0) => {
                    data.extend_from_slice(REPLACEMENT.as_bytes());
                    C::Comment
                }
                (C::Start | C::Comment, _) => {
                    data.push(c);
                    C::Comment
                }
                (C::StartDash | C::EndDash, b'-') => C::End,
                (C::StartDash | C::EndDash, _) => {
                    data.push(b'-');
                    if c == 0 {
                        data.extend_from_slice(REPLACEMENT.as_bytes());
                    } else {
                        data.push(c);
                    }
                    C::Comment
                }
                (C::LessThan, b'!') => {
                    data.push(c);
                    C::LessThanBang
                }
                (C::LessThan, b'<') => {
                    data.push(c);
                    C::LessThan
                }
                (C::LessThanBang, b'-') => C::LessThanBangDash,
                (C::LessThanBangDash, b'-') => C::LessThanBangDashDash,
                (C::LessThan | C::LessThanBang, _) => {
                    q -= 1;
                    C::Comment
                }
                (C::LessThanBangDash, _) => {
                    q -= 1;
                    C::EndDash
                }
                (C::LessThanBangDashDash, _) => {
                    q -= 1;
                    C::End
                }
                (C::End, b'!') => C::EndBang,
                (C::End, b'-') => {
                    data.push(b'-');
                    C::End
                }
                (C::End, _) => {
                    data.extend_from_slice(b"--");
                    q -= 1;
                    C::Comment
                }
                (C::EndBang, b'-') => {
                    data.extend_from_slice(b"--!");
                    C::EndDash
                }
                (C::EndBang, b'>') => break,
                (C::EndBang, _) => {
                    data.extend_from_slice(b"--!");
                    if c == 0 {
                        data.extend_from_slice(REPLACEMENT.as_bytes());
                    } else {
                        data.push(c);
                    }
                    C::Comment
                }
            };
        }
        let _ = self.emit(CommentToken(tendril_of(data)));
        self.pos = q;
    }

    /// A doctype whose `<!DOCTYPE` ends before `from`: emitted, `pos` after it.
    fn doctype(&mut self, from: usize) {
        use DoctypeState as D;
        let bytes = self.bytes;
        let mut name: Option<Vec<u8>> = None;
        // The public and the system identifier.
        let mut ids: [Option<Vec<u8>>; 2] = [None, None];
        let mut quirks = false;
        let mut state = D::Doctype;
        let mut q = from;
        loop {
            let Some(&c) = bytes.get(q) else {
                // The end of the document: quirks unless the doctype was bogus already.
                if state != D::Bogus {
                    quirks = true;
                }
                break;
            };
            q += 1;
            state = match state {
                D::Doctype => {
                    if !is_space(c) {
                        q -= 1;
                    }
                    D::BeforeName
                }
                D::BeforeName => match c {
                    _ if is_space(c) => D::BeforeName,
                    b'>' => {
                        quirks = true;
                        break;
                    }
                    _ => {
                        name = Some(doctype_char(Vec::new(), c.to_ascii_lowercase()));
                        D::Name
                    }
                },
                D::Name => match c {
                    _ if is_space(c) => D::AfterName,
                    b'>' => break,
                    _ => {
                        name = name.map(|n| doctype_char(n, c.to_ascii_lowercase()));
                        D::Name
                    }
                },
                D::AfterName => {
                    q -= 1;
                    let rest = &bytes[q..];
                    let keyword = |word: &[u8]| {
                        rest.len() >= word.len() && rest[..word.len()].eq_ignore_ascii_case(word)
                    };
                    if keyword(b"public") {
                        q += 6;
                        D::AfterKeyword(Id::Public)
                    } else if keyword(b"system") {
                        q += 6;
                        D::AfterKeyword(Id::System)
                    } else {
                        q += 1;
                        match c {
                            _ if is_space(c) => D::AfterName,
                            b'>' => break,
                            _ => {
                                quirks = true;
                                q -= 1;
                                D::Bogus
                            }
                        }
                    }
                }
                D::AfterKeyword(which) | D::BeforeId(which) => match c {
                    _ if is_space(c) => D::BeforeId(which),
                    b'"' | b'\'' => {
                        ids[which as usize] = Some(Vec::new());
                        D::IdQuoted(which, c)
                    }
                    b'>' => {
                        quirks = true;
                        break;
                    }
                    _ => {
                        quirks = true;
                        q -= 1;
                        D::Bogus
                    }
                },
                D::IdQuoted(which, quote) => match c {
                    _ if c == quote => D::AfterId(which),
                    b'>' => {
                        quirks = true;
                        break;
                    }
                    _ => {
                        let slot = &mut ids[which as usize];
                        *slot = slot.take().map(|v| doctype_char(v, c));
                        D::IdQuoted(which, quote)
                    }
                },
                D::AfterId(Id::Public) | D::Between => match c {
                    _ if is_space(c) => D::Between,
                    b'>' => break,
                    b'"' | b'\'' => {
                        ids[Id::System as usize] = Some(Vec::new());
                        D::IdQuoted(Id::System, c)
                    }
                    _ => {
                        quirks = true;
                        q -= 1;
                        D::Bogus
                    }
                },
                D::AfterId(Id::System) => match c {
                    _ if is_space(c) => D::AfterId(Id::System),
                    b'>' => break,
                    _ => {
                        q -= 1;
                        D::Bogus
                    }
                },
                D::Bogus => match c {
                    b'>' => break,
                    _ => D::Bogus,
                },
            };
        }
        let [public, system] = ids;
        let _ = self.emit(DoctypeToken(Doctype {
            name: name.map(tendril_of),
            public_id: public.map(tendril_of),
            system_id: system.map(tendril_of),
            force_quirks: quirks,
        }));
        self.pos = q;
    }

    /// A CDATA section (in foreign content) whose `<![CDATA[` ends before `from`: its text
    /// emitted (a NUL as a NUL character token), `pos` after its `]]>`.
    fn cdata(&mut self, from: usize) {
        let bytes = self.bytes;
        let (end, next) = match memchr::memmem::find(&bytes[from..], b"]]>") {
            Some(off) => (from + off, from + off + 3),
            None => (bytes.len(), bytes.len()),
        };
        let mut start = from;
        while let Some(off) = memchr::memchr(0, &bytes[start..end]) {
            self.emit_slice(start, start + off);
            let _ = self.emit(NullCharacterToken);
            start += off + 1;
        }
        self.emit_slice(start, end);
        self.pos = next;
    }
}

/// `text` with the doctype character `c` pushed, a NUL replaced.
fn doctype_char(mut text: Vec<u8>, c: u8) -> Vec<u8> {
    if c == 0 {
        text.extend_from_slice(REPLACEMENT.as_bytes());
    } else {
        text.push(c);
    }
    text
}

/// The tendril of bytes gathered from the document (whole characters, so UTF-8).
fn tendril_of(bytes: Vec<u8>) -> StrTendril {
    match String::from_utf8(bytes) {
        Ok(text) => StrTendril::from(text),
        Err(err) => StrTendril::from(String::from_utf8_lossy(err.as_bytes()).into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use crate::dom::Dom;

    fn assert_same_tree(html: &str) {
        assert_eq!(
            Dom::parse(html).shape(),
            Dom::parse_whole(html).shape(),
            "{html:?}"
        );
    }

    #[test]
    fn raw_text_passed_over_leaves_the_tree_html5ever_builds() {
        for html in [
            "<script>a</script>b",
            "<p>1<script>if (a<b) x = '</scr' + 'ipt>';</script>2<p>x",
            "<script><!-- document.write('<script>x</script>'); --></script><p>after",
            "<script><!--<script>x</script>--></script><p>after</p>",
            "<script><!--<script>x</script>y</script>z<p>after",
            "<script><!-- </script> --><p>p</p>",
            "<script><!--->x</script><p>",
            "<script><!-->x</script><p>",
            "<script><!-- <script --> </script>q",
            "<script><!-- <SCRIPT/>-<</script>-></script>q</script>r",
            "<script><!--<script>--></script>q</script>r",
            "<script><!--<script>-<</script >x</script>y",
            "<script><!--<scriptx>--></script>q",
            "<script><!--</scrip></script>q",
            "<script><!-- -- > </script>q",
            "<SCRIPT>x</SCRIPT ><p>a",
            "<script>x</script/><p>a",
            "<script>x</script\r><p>a",
            "<script>x</scriptx></script><p>a",
            "<script>x</script",
            "<script>unterminated <p>never",
            "<script><!--<script>unterminated",
            "<style>p{}</style><p>x",
            "<style>a</styles></style>b",
            "<STYLE>x</Style\t>y",
            "<style>x</style",
            "<svg><script>s<b>b</b></script><style>t</style></svg><p>",
            "<math><style>m</style></math>x",
            "<table><script>x</script><tr><td>c</td></tr><style>s</style></table>",
            "<select><script>x</script><option>o</select>",
            "<template><script>x</script><style>y</style></template>z",
            "<noscript><script>x</script></noscript>y",
            "<head><script type=application/ld+json>{\"a\":1}</script></head>",
            "<script type=' Application/LD+JSON'>not json-ld</script>",
            "<head><script>x</script><style>y</style></head><body>b",
            "</head><script>x</script><p>after head",
            "<frameset><script>x</script></frameset>",
            "<textarea><script>x</script></textarea><title><style>t</style></title>",
            "<!-- <script> -->x<script>y</script>",
            "<p><script>a\0b</script>c",
            "<script src=a></script><script>",
            "<html><script>1</script><body><script>2</script></body><script>3</script></html><script>4",
            "a &amp; b &lt;c&gt; &notin; &notit; &noti &AMP &ampx &#65;&#x42;&#X43 &#; &#x; &",
            "&#0;&#128;&#129;&#x80;&#xD800;&#x110000;&#99999999999;&#x0D;&#11;&#xFFFE;",
            "<a href='?a=1&amp;b=2&copy=3&copy;&lt=x&ltx&gt'>x</a>",
            "<a title=&amp;x&=y& b=&#38;>z</a>",
            "<p CLASS=A Class=b id=\"a\0b\" \0x=1 =eq \"q'=1 <x=2>t",
            "<p a b = c d=\"\" e='' f=g/h i/ j>t",
            "<br/><br / ><img src=x/><p/x>",
            "<div\0x>a</div\0x>",
            "<P>upper</P><DiV ID=X>y</dIv>",
            "</>x</ p></3>y</#z>",
            "<?xml version='1.0'?><p>x",
            "<!x><!><!-><!--><!---><!-- a -- b --!><!-- c --!d --><!--<!-- e --><p>",
            "<!-- <!-- nested --> -->q<!--a--!>b<!--x-",
            "<!--\0--><!--a\0b-\0--!\0-->z",
            "<!DOCTYPE html><table><p>",
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"><p><table>",
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \"http://www.w3.org/TR/html4/loose.dtd\"><p><table>",
            "<!doctype html system 'about:legacy-compat'><p><table>",
            "<!DOCTYPE html PUBLIC><p><table>",
            "<!DOCTYPEhtml><p><table>",
            "<!DOCTYPE><p><table>",
            "<!DOCTYPE html x><p><table>",
            "<!DOCTYPE html PUBLIC 'a' x><p><table>",
            "<!DOCTYPE html SYSTEM 'a' x><p><table>",
            "<!DOCTYPE \0HTML\0><p><table>",
            "<!DOCTYPE html PUBLIC \"a>",
            "<!DOCTYPE html PUBLIC\"a\"\"b\"><p><table>",
            "<!DOCTYPE html",
            "<svg><![CDATA[a<b>]]]>c</svg><![CDATA[x]]>",
            "<math><mi><![CDATA[y]]></mi><![CDATA[z\0w]]></math>",
            "<svg><![CDATA[unterminated",
            "<title>a &amp; <b> &lt;</title ><title>\0</TITLE>",
            "<textarea>\nx &amp; </textarea><textarea>&#10;y</textarea><pre>\n\nz</pre>",
            "<pre>&#10;a</pre><listing>\nb</listing>",
            "<xmp><b>&amp;</b></xmp><iframe><p>x</iframe><noembed>&lt;</noembed><noframes>a</noframes>",
            "<head><noscript><p>x</p></noscript></head><noscript>&amp;<b>y</b></noscript>",
            "<plaintext><p>&amp;</plaintext>\0",
            "<table>a<tr>b<td>c</td>d</tr>e</table>",
            "<table> \n <tr>  <td>c</td>\0</tr></table>",
            "\u{FEFF}<p>bom</p>",
            "a\r\nb\rc\n\r<p title='x\ry'\r>d</p>",
            "<p>a\0b</p><svg>c\0d</svg>",
            "<a href=x",
            "<a href='x",
            "<a href=",
            "<a href",
            "<a ",
            "<a/",
            "<a",
            "</a",
            "</",
            "<",
            "&",
            "<p>x</p",
            "<p>é<b é=é>ü</b>&eacute;&#233;</p>",
        ] {
            assert_same_tree(html);
        }
    }

    #[test]
    fn random_markup_builds_the_tree_html5ever_builds() {
        const PIECES: &[&str] = &[
            "<script>",
            "</script>",
            "</SCRIPT ",
            "<script",
            "<style>",
            "</style>",
            "</style",
            "<!--",
            "-->",
            "--",
            "-",
            "<",
            "</",
            "/",
            ">",
            "x",
            " ",
            "\r",
            "\n",
            "<p>",
            "</p>",
            "<svg>",
            "</svg>",
            "<table>",
            "<td>",
            "<select>",
            "<template>",
            "</template>",
            "<noscript>",
            "<!",
            "<scrip",
            "script",
            "<script type=application/ld+json>",
            "<b>",
            "</b>",
            "<textarea>",
            "<a href='</script>'>",
            "\0",
            "é",
            "&",
            "&amp",
            "&amp;",
            "&notin;",
            "&noti",
            "&#",
            "&#x",
            "&#X41;",
            "&#128",
            "&#0;",
            "&#1114112;",
            "&lt=",
            " a=",
            " B='x'",
            " c=\"&amp;y\"",
            " d=&gt",
            " e=\"v\"",
            "'",
            "\"",
            "=",
            "<!DOCTYPE html>",
            "<!doctype html public \"-//W3C//DTD HTML 4.01 Transitional//EN\">",
            "<!DOCTYPE",
            "<![CDATA[",
            "]]>",
            "]",
            "<?",
            "<!-",
            "--!>",
            "<DIV",
            "<title>",
            "</title>",
            "<plaintext>",
            "<xmp>",
            "<pre>",
            "<math>",
            "<iframe>",
            "\r\n",
            "\t",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = 1 + next() % 32;
            let html: String = (0..len)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            assert_same_tree(&html);
        }
    }

    /// Every `step`th page of each set in `../shared/corpus`, or all with
    /// `DOCVIEW_TOKENIZER_ALL` set, parses to the tree html5ever's own tokenizer gives.
    #[test]
    fn corpus_pages_build_the_tree_html5ever_builds() {
        use std::io::Read;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
        let Ok(sets) = std::fs::read_dir(&root) else {
            eprintln!("skipping: {} not found", root.display());
            return;
        };
        let step = if std::env::var_os("DOCVIEW_TOKENIZER_ALL").is_some() {
            1
        } else {
            25
        };
        let mut checked = 0;
        let mut sets: Vec<_> = sets.filter_map(Result::ok).map(|e| e.path()).collect();
        sets.sort();
        for set in sets {
            let Ok(pages) = std::fs::read_dir(set.join("html")) else {
                continue;
            };
            let mut pages: Vec<_> = pages.filter_map(Result::ok).map(|e| e.path()).collect();
            pages.sort();
            for page in pages.iter().step_by(step) {
                let file = std::fs::File::open(page).expect("page");
                let mut bytes = Vec::new();
                if page.extension().is_some_and(|e| e == "gz") {
                    flate2::read::GzDecoder::new(file)
                        .read_to_end(&mut bytes)
                        .expect("gzip");
                } else {
                    std::io::BufReader::new(file)
                        .read_to_end(&mut bytes)
                        .expect("read");
                }
                let html = String::from_utf8_lossy(&bytes);
                assert!(
                    Dom::parse(&html).shape() == Dom::parse_whole(&html).shape(),
                    "{} parses to another tree",
                    page.display()
                );
                checked += 1;
            }
        }
        assert!(checked > 0, "no page found under {}", root.display());
        eprintln!("{checked} corpus pages parse to html5ever's tree");
    }

    /// A sink that keeps the attribute count of each start tag and nothing else.
    #[derive(Default)]
    struct StartTags(std::cell::RefCell<Vec<usize>>);

    impl super::TokenSink for StartTags {
        type Handle = ();

        fn process_token(&self, token: super::Token, _line: u64) -> super::TokenSinkResult<()> {
            if let super::TagToken(tag) = token
                && tag.kind == super::StartTag
            {
                self.0.borrow_mut().push(tag.attrs.len());
            }
            super::TokenSinkResult::Continue
        }
    }

    /// The attribute counts of the start tags of `html`, and what the tokenizer did.
    fn start_tags(html: &str) -> (Vec<usize>, super::Tokenized) {
        let sink = StartTags::default();
        let made = std::cell::Cell::new(0);
        let budget = super::Budget {
            made: &made,
            budget: usize::MAX,
        };
        let tokenized = super::tokenize(html, &sink, usize::MAX, budget);
        (sink.0.into_inner(), tokenized)
    }

    #[test]
    fn a_tag_of_many_attributes_costs_work_in_proportion_to_them() {
        const N: usize = 200_000;
        let names: String = (0..N).map(|i| format!(" a{i}=x")).collect();
        // Distinct names: the first MAX_ATTRIBUTES kept, the rest dropped and counted, each
        // looked up once (before, each was compared with every name before it: N²/2).
        let (tags, done) = start_tags(&format!("<div{names}>text</div>"));
        assert_eq!(tags, [super::MAX_ATTRIBUTES]);
        assert_eq!(done.attributes_dropped, (N - super::MAX_ATTRIBUTES) as u64);
        assert!(done.name_probes <= 2 * N as u64, "{}", done.name_probes);
        // One name again and again: kept once, the duplicates dropped as the standard drops
        // them (not counted as cut).
        let (tags, done) = start_tags(&format!("<div{}>text</div>", " a=x".repeat(N)));
        assert_eq!((tags, done.attributes_dropped), (vec![1], 0));
        assert!(done.name_probes <= N as u64, "{}", done.name_probes);
        // A few names, duplicated in turn: the set takes over past NAMES_IN_A_ROW.
        let cycle: String = (0..N).map(|i| format!(" n{}=x", i % 300)).collect();
        let (tags, done) = start_tags(&format!("<p{cycle}>"));
        assert_eq!(tags, [super::MAX_ATTRIBUTES]);
        assert_eq!(done.attributes_dropped, 300 - super::MAX_ATTRIBUTES as u64);
        assert!(done.name_probes <= 2 * N as u64, "{}", done.name_probes);
        // An ordinary tag: every attribute, in order.
        let (tags, done) = start_tags("<a href=/x class=c id=i href=/y>");
        assert_eq!((tags, done.attributes_dropped), (vec![3], 0));
        assert_eq!(done.end, super::End::Complete);
    }
}
