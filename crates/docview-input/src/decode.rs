//! From the bytes of a page to text in its real charset.
//!
//! The order of evidence is: a byte order mark; bytes that are valid UTF-8 with some non-ASCII
//! (then they are UTF-8, whatever is declared: pages declaring gb2312 or latin-1 are often UTF-8);
//! the HTTP header charset; the `<meta>` declaration; detection with chardetng. A declaration is
//! only believed when decoding with it does not turn a large share of the text into U+FFFD.
//! Decoding itself never fails: malformed sequences become U+FFFD.

use encoding_rs::{
    BIG5, DecoderResult, EUC_JP, EUC_KR, Encoding, GBK, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE,
};
use serde::Serialize;

use super::prescan::{charset_in_content, prescan_meta_charset, usable_label};

/// How many leading bytes chardetng sees when the charset has to be guessed.
pub(crate) const DETECT_BYTES: usize = 64 << 10;

/// How many leading bytes [`looks_binary`] (and the UTF-16 check) look at.
pub(crate) const SNIFF_BYTES: usize = 1024;

/// Where the charset of a page came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CharsetSource {
    /// A UTF-8, UTF-16LE or UTF-16BE byte order mark.
    Bom,
    /// The bytes are valid UTF-8 and hold non-ASCII characters, or hold no declaration and are
    /// pure ASCII.
    Utf8Valid,
    /// The charset given by the HTTP `Content-Type` header.
    HttpHeader,
    /// The `<meta>` charset declaration of the page.
    MetaTag,
    /// Guessed from the bytes: chardetng, or UTF-16 without a byte order mark, or UTF-8 with a
    /// few stray bytes of another charset.
    Detected,
}

impl CharsetSource {
    /// The lowercase name used in JSON and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            CharsetSource::Bom => "bom",
            CharsetSource::Utf8Valid => "utf8valid",
            CharsetSource::HttpHeader => "httpheader",
            CharsetSource::MetaTag => "metatag",
            CharsetSource::Detected => "detected",
        }
    }
}

/// A page decoded to text.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The text, NUL characters removed.
    pub text: String,
    /// The encoding the bytes were decoded with.
    pub encoding: &'static Encoding,
    /// Why that encoding was chosen.
    pub source: CharsetSource,
}

/// Decodes the bytes of an HTML page. `http_charset` is the charset of the HTTP `Content-Type`
/// header, either the label alone (`gb2312`) or the whole header value
/// (`text/html; charset=gb2312`).
///
/// Order: byte order mark; UTF-16 without one (NUL bytes every other byte); valid UTF-8 with
/// non-ASCII bytes (an incomplete character at the very end, as left by truncation, is
/// dropped); the HTTP charset; the `<meta>` declaration of the first
/// 4096 bytes (`PRESCAN_BYTES`); detection. Pure ASCII without a declaration is
/// UTF-8. A declared UTF-16 means UTF-8 (real UTF-16 was recognised by its NULs), a declared
/// `replacement` encoding is ignored.
///
/// Declarations lie, so one is not believed when at least 8, and more than 2%, of the non-ASCII
/// characters come out malformed under it (a page declaring UTF-8 that really is GBK); a
/// declared UTF-8 is still believed when at least half of them are well-formed. A disbelieved
/// declaration is used only if detection does no better.
///
/// Detection: UTF-8 with stray bytes of another charset (see `mostly_utf8`), else chardetng
/// on the first 64 KiB (`DETECT_BYTES`); when chardetng settles for a single-byte encoding
/// because a few malformed sequences ruled out the CJK encoding of the page, that encoding is
/// found again with those sequences blanked out.
pub fn decode_html(bytes: &[u8], http_charset: Option<&str>) -> Decoded {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        return decode_with(&bytes[bom_len..], encoding, CharsetSource::Bom).decoded;
    }
    if let Some(encoding) = utf16_by_nuls(bytes) {
        return decode_with(bytes, encoding, CharsetSource::Detected).decoded;
    }
    let ascii = match utf8_prefix(bytes) {
        Utf8::Valid(text) => return utf8_text(text),
        Utf8::Ascii => true,
        Utf8::Invalid => false,
    };
    let declared = [
        (http_charset.and_then(http_label), CharsetSource::HttpHeader),
        (prescan_meta_charset(bytes), CharsetSource::MetaTag),
    ];
    let mut disbelieved: Option<Attempt> = None;
    for (encoding, source) in declared {
        let Some(encoding) = encoding else { continue };
        let attempt = decode_with(bytes, encoding, source);
        if attempt.believable() {
            return attempt.decoded;
        }
        disbelieved.get_or_insert(attempt);
    }
    if ascii {
        return decode_with(bytes, UTF_8, CharsetSource::Utf8Valid).decoded;
    }
    let detected = detect(bytes);
    match disbelieved {
        Some(declared) if declared.malformed_share() <= detected.malformed_share() => {
            declared.decoded
        }
        _ => detected.decoded,
    }
}

/// True when `bytes` look like a binary file rather than a page: a known binary signature
/// (PDF, images, archives, executables, fonts) or many NUL or control bytes in the first
/// 1024 bytes (`SNIFF_BYTES`; at least 4, and over 3% NULs or over 10% control bytes). UTF-16
/// text (with or without a byte order mark) is not binary.
pub fn looks_binary(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(SNIFF_BYTES)];
    if sample.is_empty() || Encoding::for_bom(sample).is_some() || utf16_by_nuls(sample).is_some() {
        return false;
    }
    if BINARY_SIGNATURES.iter().any(|sig| sample.starts_with(sig)) {
        return true;
    }
    let nuls = sample.iter().filter(|&&b| b == 0).count();
    let controls = sample.iter().filter(|&&b| is_binary_control(b)).count();
    (nuls >= 4 && nuls * 32 > sample.len()) || (controls >= 4 && controls * 10 > sample.len())
}

/// File signatures that no HTML page starts with.
const BINARY_SIGNATURES: &[&[u8]] = &[
    b"%PDF-",
    b"\x89PNG\r\n\x1a\n",
    b"\xff\xd8\xff",
    b"GIF87a",
    b"GIF89a",
    b"RIFF",
    b"PK\x03\x04",
    b"\x1f\x8b",
    b"7z\xbc\xaf\x27\x1c",
    b"\xfd7zXZ\x00",
    b"\x28\xb5\x2f\xfd",
    b"BZh91AY&SY",
    b"\x7fELF",
    b"OggS",
    b"ID3",
    b"\x1a\x45\xdf\xa3",
    b"wOFF",
    b"wOF2",
];

/// Control bytes that text does not hold (tab, LF, FF, CR and ESC, used by ISO-2022-JP, are
/// fine).
fn is_binary_control(b: u8) -> bool {
    (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | 0x1b)) || b == 0x7f
}

/// One way of decoding a page, with what is needed to judge it.
struct Attempt {
    decoded: Decoded,
    /// U+FFFD produced by malformed input (0 when decoding had no errors).
    malformed: usize,
    /// Non-ASCII characters in the text (only counted when decoding had errors).
    non_ascii: usize,
}

impl Attempt {
    /// Malformed characters as a share of the non-ASCII characters.
    fn malformed_share(&self) -> f64 {
        if self.malformed == 0 {
            0.0
        } else {
            self.malformed as f64 / self.non_ascii.max(1) as f64
        }
    }

    /// A declaration is believed unless at least 8 characters, and more than 2% of the non-ASCII
    /// ones, come out malformed. UTF-8 is self-checking (legacy text almost never forms valid
    /// multi-byte sequences; GBK text forms about one per four malformed ones), so a declared
    /// UTF-8 is also believed when at least half the non-ASCII characters are well-formed: a
    /// UTF-8 page with some Latin-1 pasted in.
    fn believable(&self) -> bool {
        self.malformed < 8
            || self.malformed * 50 <= self.non_ascii
            || (self.decoded.encoding == UTF_8 && self.malformed * 2 <= self.non_ascii)
    }
}

/// Valid UTF-8 as a [`Decoded`], NUL characters dropped.
fn utf8_text(text: &str) -> Decoded {
    let mut text = text.to_owned();
    if text.contains('\0') {
        text.retain(|c| c != '\0');
    }
    Decoded {
        text,
        encoding: UTF_8,
        source: CharsetSource::Utf8Valid,
    }
}

/// Decodes `bytes` (without a byte order mark) with `encoding`, dropping NUL characters.
fn decode_with(bytes: &[u8], encoding: &'static Encoding, source: CharsetSource) -> Attempt {
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    let mut text = text.into_owned();
    if text.contains('\0') {
        text.retain(|c| c != '\0');
    }
    let (malformed, non_ascii) = if had_errors {
        count_malformed(&text)
    } else {
        (0, 0)
    };
    Attempt {
        decoded: Decoded {
            text,
            encoding,
            source,
        },
        malformed,
        non_ascii,
    }
}

/// U+FFFD characters and non-ASCII characters of `text`.
fn count_malformed(text: &str) -> (usize, usize) {
    text.chars()
        .filter(|c| !c.is_ascii())
        .fold((0, 0), |(bad, all), c| {
            (bad + usize::from(c == '\u{FFFD}'), all + 1)
        })
}

/// The encoding named by an HTTP charset, given alone or as a whole `Content-Type` value.
/// True when `label` names a charset docview decodes with (a WHATWG encoding label, as an
/// HTTP `Content-Type` gives it: `utf-8`, `gbk`, `windows-1252`, `text/html; charset=utf-8`).
pub fn known_charset(label: &str) -> bool {
    http_label(label).is_some()
}

fn http_label(http_charset: &str) -> Option<&'static Encoding> {
    let lower = http_charset.trim().to_ascii_lowercase();
    let label = charset_in_content(lower.as_bytes()).unwrap_or(lower.as_bytes());
    usable_label(label)
}

/// Guesses the charset of bytes that are not valid UTF-8 and declare none believable.
fn detect(bytes: &[u8]) -> Attempt {
    if mostly_utf8(bytes) {
        return decode_with(bytes, UTF_8, CharsetSource::Detected);
    }
    let prefix = &bytes[..bytes.len().min(DETECT_BYTES)];
    let last = prefix.len() == bytes.len();
    let guess = chardetng_guess(prefix, last);
    let encoding = if CJK_MULTI_BYTE.contains(&guess) {
        guess
    } else {
        cjk_despite_errors(prefix, last).unwrap_or(guess)
    };
    decode_with(bytes, encoding, CharsetSource::Detected)
}

/// The multi-byte legacy encodings of Chinese, Japanese and Korean pages.
const CJK_MULTI_BYTE: [&Encoding; 5] = [GBK, BIG5, SHIFT_JIS, EUC_JP, EUC_KR];

fn chardetng_guess(prefix: &[u8], last: bool) -> &'static Encoding {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(prefix, last);
    detector.guess(None, chardetng::Utf8Detection::Allow)
}

/// chardetng rules out an encoding at its first malformed sequence, so an old GBK page with one
/// title cut in the middle of a character is guessed as windows-1252. This retries each CJK
/// encoding under which the bytes are malformed in at most 1% of the (at least 32) non-ASCII
/// characters, with those sequences blanked out; an encoding chardetng then picks is kept, the
/// one with the fewest malformed sequences if several are.
fn cjk_despite_errors(prefix: &[u8], last: bool) -> Option<&'static Encoding> {
    let mut best: Option<(&'static Encoding, usize)> = None;
    for encoding in CJK_MULTI_BYTE {
        let blanked = blank_malformed(prefix, encoding, last);
        let plausible = blanked.malformed > 0
            && blanked.non_ascii >= 32
            && blanked.malformed * 100 <= blanked.non_ascii;
        if !plausible || best.is_some_and(|(_, fewest)| fewest <= blanked.malformed) {
            continue;
        }
        if chardetng_guess(&blanked.bytes, last) == encoding {
            best = Some((encoding, blanked.malformed));
        }
    }
    best.map(|(encoding, _)| encoding)
}

/// Bytes with the sequences malformed in some encoding replaced by spaces.
struct Blanked {
    bytes: Vec<u8>,
    malformed: usize,
    non_ascii: usize,
}

fn blank_malformed(bytes: &[u8], encoding: &'static Encoding, last: bool) -> Blanked {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = vec![0u8; 16 << 10];
    let mut blanked = Blanked {
        bytes: bytes.to_vec(),
        malformed: 0,
        non_ascii: 0,
    };
    let mut pos = 0;
    loop {
        let (result, read, written) =
            decoder.decode_to_utf8_without_replacement(&bytes[pos..], &mut out, last);
        pos += read;
        blanked.non_ascii += count_lead_bytes(&out[..written]);
        match result {
            DecoderResult::InputEmpty => return blanked,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(bad, after) => {
                let end = pos.saturating_sub(usize::from(after));
                let start = end.saturating_sub(usize::from(bad));
                blanked.bytes[start..end].fill(b' ');
                blanked.malformed += 1;
                blanked.non_ascii += 1;
            }
        }
    }
}

/// What a strict UTF-8 check says about the bytes of a page.
enum Utf8<'a> {
    /// Valid UTF-8 with non-ASCII characters: the bytes to decode (a character cut by
    /// truncation at the very end is left out).
    Valid(&'a str),
    /// Only ASCII bytes.
    Ascii,
    /// Not UTF-8.
    Invalid,
}

/// Strict UTF-8 check, tolerating only an incomplete character at the very end.
fn utf8_prefix(bytes: &[u8]) -> Utf8<'_> {
    let valid = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) if e.error_len().is_none() => match std::str::from_utf8(&bytes[..e.valid_up_to()]) {
            Ok(text) => text,
            Err(_) => return Utf8::Invalid,
        },
        Err(_) => return Utf8::Invalid,
    };
    if !valid.is_ascii() {
        Utf8::Valid(valid)
    } else if valid.len() == bytes.len() {
        Utf8::Ascii
    } else {
        Utf8::Invalid
    }
}

/// True when the bytes are UTF-8 but for some stray bytes of another charset: at least 8
/// well-formed multi-byte characters and at most one malformed sequence per 4 of them. Text in
/// a legacy charset forms far fewer UTF-8 sequences by chance (GBK text: about 1 per 4
/// malformed).
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut good, mut bad) = (0usize, 0usize);
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(_) => {
                good += count_lead_bytes(rest);
                break;
            }
            Err(e) => {
                good += count_lead_bytes(&rest[..e.valid_up_to()]);
                bad += 1;
                match e.error_len() {
                    Some(len) => rest = &rest[e.valid_up_to() + len..],
                    None => break,
                }
            }
        }
    }
    good >= 8 && bad * 4 <= good
}

/// Multi-byte characters in valid UTF-8: the count of their lead bytes.
fn count_lead_bytes(valid: &[u8]) -> usize {
    valid.iter().filter(|&&b| b >= 0xc0).count()
}

/// UTF-16 without a byte order mark, told by its NUL bytes: in the first [`SNIFF_BYTES`] bytes,
/// at least 40% of the high bytes of 16-bit units are NUL (the ASCII of the markup) and at most
/// 5% of the low bytes are.
fn utf16_by_nuls(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let units = sample.len() / 2;
    if units < 4 {
        return None;
    }
    let (mut even, mut odd) = (0, 0);
    for pair in sample.chunks_exact(2) {
        even += usize::from(pair[0] == 0);
        odd += usize::from(pair[1] == 0);
    }
    let mostly = |n: usize| n * 10 >= units * 4;
    let rarely = |n: usize| n * 20 <= units;
    if mostly(odd) && rarely(even) {
        Some(UTF_16LE)
    } else if mostly(even) && rarely(odd) {
        Some(UTF_16BE)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use encoding_rs::{GB18030, GBK, WINDOWS_1252};

    use super::*;

    const CHINESE: &str = "我们在湖南张家界开了一个全省教学研究会议，会议安排了一天时间，\
        让与会者去风景点游玩观赏。张家界的春天，美得让人眩目，看不完的奇山异峰，山涧涓流，名花异草。";

    fn encode(encoding: &'static Encoding, text: &str) -> Vec<u8> {
        let (bytes, used, unmappable) = encoding.encode(text);
        assert_eq!(used, encoding);
        assert!(!unmappable, "{text} is not all in {}", encoding.name());
        bytes.into_owned()
    }

    fn page(head: &str, body: &str) -> String {
        format!("<html><head>{head}<title>t</title></head><body><p>{body}</p></body></html>")
    }

    #[test]
    fn gb2312_label_is_gbk_decoded_as_gb18030() {
        assert_eq!(Encoding::for_label(b"gb2312"), Some(GBK));
        assert_eq!(Encoding::for_label(b"GB_2312-80"), Some(GBK));
        // encoding_rs decodes GBK with the GB18030 decoder: four-byte sequences work too.
        let four_byte = encode(GB18030, "€𠀀");
        assert_eq!(GBK.decode_without_bom_handling(&four_byte).0, "€𠀀");
    }

    #[test]
    fn gb2312_meta_page() {
        let bytes = encode(GBK, &page(r#"<meta charset="gb2312">"#, CHINESE));
        let d = decode_html(&bytes, None);
        assert_eq!(d.source, CharsetSource::MetaTag);
        assert_eq!(d.encoding, GBK);
        assert!(d.text.contains(CHINESE));
    }

    #[test]
    fn declared_gb2312_but_utf8() {
        let bytes = page(
            r#"<meta http-equiv="Content-Type" content="text/html; charset=gb2312">"#,
            CHINESE,
        );
        let d = decode_html(bytes.as_bytes(), Some("gb2312"));
        assert_eq!(d.source, CharsetSource::Utf8Valid);
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.text, bytes);
    }

    #[test]
    fn windows_1252_by_http_equiv() {
        let html = page(
            r#"<META HTTP-EQUIV='content-type' CONTENT='text/html;charset=ISO-8859-1'>"#,
            "Le café est très bon, déjà vu.",
        );
        let bytes = encode(WINDOWS_1252, &html);
        let d = decode_html(&bytes, None);
        assert_eq!(d.source, CharsetSource::MetaTag);
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.contains("café est très bon, déjà"));
    }

    #[test]
    fn http_header_charset() {
        let bytes = encode(WINDOWS_1252, &page("", "naïve résumé"));
        let d = decode_html(&bytes, Some("text/html; charset=latin1"));
        assert_eq!(d.source, CharsetSource::HttpHeader);
        assert!(d.text.contains("naïve résumé"));
        let d = decode_html(&bytes, Some(" ISO-8859-1 "));
        assert_eq!(d.source, CharsetSource::HttpHeader);
        // An unknown label is ignored.
        let d = decode_html(&bytes, Some("no-such-charset"));
        assert_eq!(d.source, CharsetSource::Detected);
        assert!(d.text.contains("naïve résumé"));
    }

    #[test]
    fn http_header_wins_over_meta() {
        let bytes = encode(GBK, &page("<meta charset=big5>", CHINESE));
        let d = decode_html(&bytes, Some("gbk"));
        assert_eq!(d.source, CharsetSource::HttpHeader);
        assert!(d.text.contains(CHINESE));
    }

    #[test]
    fn undeclared_gbk_is_detected() {
        let bytes = encode(GBK, &page("", CHINESE));
        let d = decode_html(&bytes, None);
        assert_eq!(d.source, CharsetSource::Detected);
        assert!(
            d.encoding == GBK || d.encoding == GB18030,
            "{}",
            d.encoding.name()
        );
        assert!(d.text.contains(CHINESE));
    }

    #[test]
    fn undeclared_gbk_with_a_cut_character_is_still_gbk() {
        // A title cut in the middle of a character: a lone lead byte before ASCII.
        let mut bytes = encode(GBK, "<title>新闻标题");
        bytes.push(0xd6);
        bytes.extend_from_slice(&encode(GBK, &page("", &CHINESE.repeat(3))));
        let d = decode_html(&bytes, None);
        assert_eq!(d.source, CharsetSource::Detected);
        assert!(
            d.encoding == GBK || d.encoding == GB18030,
            "{}",
            d.encoding.name()
        );
        assert!(d.text.contains(CHINESE));
        assert!(d.text.starts_with("<title>新闻标题\u{FFFD}"));
    }

    #[test]
    fn declared_utf8_with_some_latin1_stays_utf8() {
        let mut bytes = page("<meta charset=utf-8>", &"“quoted” ".repeat(6)).into_bytes();
        bytes.extend_from_slice(&b" caf\xe9 na\xefve ".repeat(4));
        let d = decode_html(&bytes, None);
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::MetaTag));
    }

    #[test]
    fn declared_utf8_but_gbk_is_detected() {
        let bytes = encode(GBK, &page("<meta charset=utf-8>", CHINESE));
        let d = decode_html(&bytes, None);
        assert_eq!(d.source, CharsetSource::Detected);
        assert!(d.text.contains(CHINESE));
    }

    #[test]
    fn mostly_utf8_with_a_stray_latin1_byte() {
        let mut bytes = b"<p>caf\xe9</p>".to_vec();
        bytes.extend_from_slice(page("", &"Ünïcödé façade “quoted” ".repeat(4)).as_bytes());
        let d = decode_html(&bytes, None);
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.source, CharsetSource::Detected);
        assert!(d.text.contains("Ünïcödé façade “quoted”"));
    }

    #[test]
    fn boms() {
        let d = decode_html(b"\xef\xbb\xbf<p>caf\xc3\xa9</p>", Some("gbk"));
        assert_eq!(
            (d.source, d.encoding, d.text.as_str()),
            (CharsetSource::Bom, UTF_8, "<p>café</p>")
        );

        let mut le = vec![0xff, 0xfe];
        le.extend("<p>中文</p>".encode_utf16().flat_map(u16::to_le_bytes));
        let d = decode_html(&le, None);
        assert_eq!(
            (d.source, d.encoding, d.text.as_str()),
            (CharsetSource::Bom, UTF_16LE, "<p>中文</p>")
        );

        let mut be = vec![0xfe, 0xff];
        be.extend("<p>中文</p>".encode_utf16().flat_map(u16::to_be_bytes));
        let d = decode_html(&be, None);
        assert_eq!(
            (d.source, d.encoding, d.text.as_str()),
            (CharsetSource::Bom, UTF_16BE, "<p>中文</p>")
        );
    }

    #[test]
    fn utf16_without_bom() {
        let html = page("<meta charset=utf-16>", "héllo 中文");
        let le: Vec<u8> = html.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let d = decode_html(&le, None);
        assert_eq!((d.encoding, d.text.as_str()), (UTF_16LE, html.as_str()));
        let be: Vec<u8> = html.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode_html(&be, None).text, html);
        assert!(!looks_binary(&le));
    }

    #[test]
    fn meta_utf16_on_ascii_bytes_means_utf8() {
        let d = decode_html(page("<meta charset=utf-16>", "plain").as_bytes(), None);
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::MetaTag));
    }

    #[test]
    fn ascii_is_utf8_unless_declared() {
        let html = page("", "plain text");
        let d = decode_html(html.as_bytes(), None);
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Utf8Valid));
        assert_eq!(d.text, html);
        let d = decode_html(page("<meta charset=gbk>", "x").as_bytes(), None);
        assert_eq!((d.encoding, d.source), (GBK, CharsetSource::MetaTag));
    }

    #[test]
    fn empty_input() {
        let d = decode_html(b"", None);
        assert_eq!((d.text.as_str(), d.encoding), ("", UTF_8));
        assert!(!looks_binary(b""));
    }

    #[test]
    fn nuls_are_removed() {
        let d = decode_html(b"<p>a\0b</p>", None);
        assert_eq!(d.text, "<p>ab</p>");
        let d = decode_html(b"<p>caf\xc3\xa9\0</p>", None);
        assert_eq!(d.text, "<p>café</p>");
    }

    #[test]
    fn truncated_last_character_is_still_utf8() {
        let mut bytes = "<p>中文中文</p>中".as_bytes().to_vec();
        bytes.pop();
        let d = decode_html(&bytes, None);
        assert_eq!(
            (d.source, d.text.as_str()),
            (CharsetSource::Utf8Valid, "<p>中文中文</p>")
        );
    }

    #[test]
    fn malformed_bytes_never_panic() {
        let junk: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        let d = decode_html(&junk, Some("utf-8"));
        assert!(!d.text.contains('\0'));
        for label in [
            "gbk",
            "big5",
            "shift_jis",
            "euc-kr",
            "utf-16le",
            "iso-2022-jp",
        ] {
            decode_html(&junk, Some(label));
        }
    }

    #[test]
    fn binary_detection() {
        assert!(looks_binary(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"));
        assert!(looks_binary(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"));
        assert!(looks_binary(&[0u8; 100]));
        let mut elf_like = b"\x01\x02\x03\x04".repeat(50);
        elf_like.extend_from_slice(b"some text");
        assert!(looks_binary(&elf_like));
        assert!(!looks_binary(page("", CHINESE).as_bytes()));
        assert!(!looks_binary(&encode(GBK, &page("", CHINESE))));
        assert!(!looks_binary(b"\x1b$B8@8l\x1b(B plain iso-2022-jp"));
        assert!(!looks_binary(b"<p>one stray\0nul</p>"));
    }

    #[test]
    fn source_names_are_lowercase() {
        let json = serde_json::to_string(&CharsetSource::Utf8Valid).unwrap();
        assert_eq!(json, "\"utf8valid\"");
        for s in [
            CharsetSource::Bom,
            CharsetSource::Utf8Valid,
            CharsetSource::HttpHeader,
            CharsetSource::MetaTag,
            CharsetSource::Detected,
        ] {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.as_str()));
        }
    }
}
