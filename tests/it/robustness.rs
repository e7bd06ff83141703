//! No panic on any input: every page gives either a clear error naming the input, or a
//! best-effort result. Empty and binary input, truncated markup, a 50 MB page, 100,000 levels of
//! nesting, lying charset declarations and random tag soup.

use std::path::Path;

use docview::clean::{Framework, PageType};
use docview::extract::{Extraction, extract_page};
use docview::input::read_page_bytes;

const SITES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus-samples/sites");

/// A fixed-seed xorshift64 generator, so every run sees the same "random" input.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn extract(bytes: &[u8], input: &str) -> docview::Result<Extraction> {
    Ok(extract_page(bytes, None, input, &Framework::default())?)
}

/// Extraction that must fail: the error message names the input.
fn assert_err_names_input(bytes: &[u8], input: &str) {
    match extract(bytes, input) {
        Ok(page) => panic!(
            "{input}: expected an error, got a page of type {:?} with text {:?}",
            page.cleaned.page_type, page.cleaned.topic_text
        ),
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.contains(input),
                "error for {input} does not name it: {msg}"
            );
        }
    }
}

fn sample(site: &str, file: &str) -> Vec<u8> {
    read_page_bytes(&Path::new(SITES).join(site).join(file)).expect("read sample page")
}

/// The topic text and all of the tree's text, for "does this string appear anywhere" checks.
fn texts(page: &Extraction) -> (String, String) {
    (page.cleaned.topic_text.clone(), page.tree.all_text())
}

#[test]
fn empty_input_is_an_error_naming_it() {
    assert_err_names_input(b"", "empty.html");
}

#[test]
fn whitespace_only_input_is_an_error_naming_it() {
    assert_err_names_input(b"  \n\t\r\n   \n", "blank.html");
    assert_err_names_input(&b" ".repeat(100_000), "spaces.html");
}

#[test]
fn png_with_random_bytes_is_an_error_naming_it() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend((0..8192).map(|_| rng.next() as u8));
    assert_err_names_input(&bytes, "photo.png");
}

#[test]
fn nul_bytes_are_an_error_naming_them() {
    assert_err_names_input(&[0u8; 4096], "zeros.bin");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
    for i in 0..50 {
        let len = 1 + rng.below(4096);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let name = format!("random-{i}.bin");
        if let Err(e) = extract(&bytes, &name) {
            assert!(e.to_string().contains(&name), "{name}: {e}");
        }
    }
}

#[test]
fn truncated_pages_give_some_text() {
    // A UTF-8 HTML5 page, a GB2312 table page and an ISO-8859-1 page, each cut at several
    // offsets: in the head, mid-tag, mid-attribute, and inside a multibyte character.
    for (site, file) in [
        ("xinyu-daily", "night-market.html"),
        ("lanting-news", "bridge.html"),
        ("harbor-gazette", "ferry.html"),
        ("fieldnotes", "dawn-chorus.html"),
    ] {
        let bytes = sample(site, file);
        let mut cuts: Vec<usize> = vec![bytes.len() / 2, bytes.len() * 3 / 4, bytes.len() - 1];
        // Mid-tag: just after a '<' in the second half of the page.
        if let Some(p) = bytes[bytes.len() / 2..].iter().position(|&b| b == b'<') {
            cuts.push(bytes.len() / 2 + p + 1);
            cuts.push(bytes.len() / 2 + p + 3);
        }
        // Mid-attribute value: just after `="`.
        if let Some(p) = bytes[bytes.len() / 2..]
            .windows(2)
            .position(|w| w == b"=\"")
        {
            cuts.push(bytes.len() / 2 + p + 3);
        }
        // Mid-character: after the first byte of a multibyte character in the body.
        if let Some(p) = bytes[bytes.len() / 2..].iter().position(|&b| b >= 0x80) {
            cuts.push(bytes.len() / 2 + p + 1);
        }
        for cut in cuts {
            let name = format!("{site}/{file}[..{cut}]");
            let page = extract(&bytes[..cut], &name)
                .unwrap_or_else(|e| panic!("{name}: truncated page gave an error: {e}"));
            let (topic, all) = texts(&page);
            assert!(
                !topic.trim().is_empty(),
                "{name}: no topic text (page text: {} chars)",
                all.len()
            );
            assert!(
                topic.matches('\u{FFFD}').count() <= 1,
                "{name}: truncation broke the decoding: {topic:?}"
            );
        }
    }
}

#[test]
fn truncated_inside_a_multibyte_character_keeps_the_charset() {
    // Cut a UTF-8 Chinese page one byte into a three-byte character: still UTF-8, not a guess.
    let bytes = sample("xinyu-daily", "night-market.html");
    let start = bytes.len() / 2;
    let p = start
        + bytes[start..]
            .iter()
            .position(|&b| b >= 0xE0)
            .expect("a CJK character in the second half");
    let page = extract(&bytes[..p + 1], "cut-utf8").expect("truncated page");
    assert_eq!(page.charset, "UTF-8");
    assert!(page.cleaned.topic_text.chars().any(docview::text::is_cjk));
}

#[test]
fn a_50_mb_page_is_cleaned() {
    let nav: String = (0..40)
        .map(|i| format!("<li><a href=\"/section/{i}\">Section number {i}</a></li>"))
        .collect();
    let para = "<p>The harbour commission met on Tuesday evening to discuss the new ferry \
                timetable, and residents of the east shore asked again for an earlier \
                morning crossing so that commuters can reach the station before seven.</p>";
    let block = format!(
        "<div class=\"story\"><h2>Harbour news</h2>{}</div>\n<ul class=\"nav\">{nav}</ul>\n",
        para.repeat(8)
    );
    let mut html = String::with_capacity(51 << 20);
    html.push_str("<!DOCTYPE html><html><head><title>Big page</title></head><body>");
    html.push_str(&format!("<nav><ul>{nav}</ul></nav><div id=\"content\">"));
    while html.len() < 50 << 20 {
        html.push_str(&block);
    }
    html.push_str("</div><footer>Copyright footer text</footer></body></html>");
    let page = extract(html.as_bytes(), "big.html").expect("50 MB page");
    assert!(
        page.cleaned
            .topic_text
            .contains("residents of the east shore asked again"),
        "topic text of the 50 MB page lacks the article text ({} chars)",
        page.cleaned.topic_text.len()
    );
}

/// Issue 41 item 5: a page of one element with 200,000 attributes (3.4 MB; 16.6 s before) and
/// pages whose formatting elements the parser reopens over and over (a `<b>` of 20,000
/// attributes copied for each of 2,000 blocks: 12 s and 1.6 GB for 200 KB) cost work in
/// proportion to their size: what the parser leaves out to stay so is in `truncated`, and the
/// tree's `cuts` count it.
#[test]
fn many_attributes_and_reopened_formatting_cost_work_in_proportion() {
    let n = 200_000;
    let attrs: String = (0..n).map(|i| format!(" a{i}=x")).collect();
    let wide = format!("<html><body><div{attrs}>The text of the wide element.</div></body></html>");
    let page = extract(wide.as_bytes(), "wide.html").expect("wide page");
    let max = docview::page::MAX_ATTRIBUTES;
    assert_eq!(page.tree.cuts.attributes_dropped, (n - max) as u64);
    let why = page.truncated.expect("said");
    assert!(
        why.contains(&format!(
            "{} attributes dropped past the first {max}",
            n - max
        )),
        "{why}"
    );
    assert!(
        page.tree
            .all_text()
            .contains("The text of the wide element.")
    );
    let copied: String = (0..20_000).map(|i| format!(" a{i}=x")).collect();
    let reopened = format!(
        "<html><body><div><b{copied}></div>{}<p>last</p></body></html>",
        "<div>x</div>".repeat(2_000)
    );
    let page = extract(reopened.as_bytes(), "reopened.html").expect("reopened page");
    let stopped = page.tree.cuts.stopped_at.expect("stopped");
    assert!(stopped < reopened.len());
    assert!(
        page.truncated
            .expect("said")
            .contains("HTML parsed up to byte")
    );
    // The sample pages lose nothing.
    let files = std::fs::read_dir(SITES)
        .unwrap()
        .flat_map(|site| std::fs::read_dir(site.unwrap().path()).unwrap());
    for entry in files {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let bytes = read_page_bytes(&path).unwrap();
            let page = extract(&bytes, &path.display().to_string()).unwrap();
            assert!(
                page.tree.cuts.is_none(),
                "{}: {:?}",
                path.display(),
                page.tree.cuts
            );
            assert_eq!(page.truncated, None, "{}", path.display());
        }
    }
}

/// `open` x `levels`, then text, then the closing tags (or none when `close` is empty).
fn nested(open: &str, close: &str, levels: usize) -> String {
    let mut html = String::from("<html><body>");
    html.push_str(&open.repeat(levels));
    html.push_str("Deep text at the very bottom of the nesting.");
    html.push_str(&close.repeat(levels));
    html.push_str("</body></html>");
    html
}

/// Cleans a page of `levels` nested `open` elements: no error, no stack overflow, and the text
/// at the bottom survives somewhere in the tree.
fn check_nesting(name: &str, open: &str, close: &str, levels: usize) {
    let html = nested(open, close, levels);
    let input = format!("nested-{name}-{levels}.html");
    let t = std::time::Instant::now();
    let page = extract(html.as_bytes(), &input)
        .unwrap_or_else(|e| panic!("{input}: nested page gave an error: {e}"));
    eprintln!("{input}: cleaned in {:?}", t.elapsed());
    let (topic, all) = texts(&page);
    assert!(
        topic.contains("Deep text at the very bottom") || all.contains("Deep text"),
        "{input}: the text at the bottom is lost"
    );
}

const LEVELS: usize = 100_000;

#[test]
fn deep_div_nesting() {
    check_nesting("div", "<div>", "</div>", LEVELS);
}

#[test]
fn deep_unclosed_div_nesting() {
    check_nesting("div-unclosed", "<div>", "", LEVELS);
}

#[test]
fn deep_inline_and_table_nesting() {
    check_nesting("b", "<b>", "</b>", LEVELS);
    check_nesting("span", "<span>", "</span>", LEVELS);
    check_nesting("table", "<table>", "</table>", LEVELS);
    check_nesting(
        "table-tr-td",
        "<table><tr><td>",
        "</td></tr></table>",
        LEVELS,
    );
}

// html5ever's "has an element in (list item / button) scope" checks scan the whole stack of
// open elements for every <li> and <p> start tag, so these nestings would cost time quadratic in
// their depth (about 100 s for ul/li at 100,000 levels); page::cap_nesting unwraps elements
// nested deeper than page::MAX_PARSE_DEPTH before parsing, so they take well under a second.
#[test]
fn deep_list_and_paragraph_nesting() {
    check_nesting("ul-li", "<ul><li>", "</li></ul>", LEVELS);
    check_nesting("section-p", "<section><p>", "</p></section>", LEVELS);
}

#[test]
fn deep_nesting_through_page_build() {
    // The tree builder alone, straight from text.
    let tree = docview::page::build(&nested("<div>", "</div>", LEVELS));
    assert!(!tree.nodes.is_empty());
    assert!(tree.all_text().contains("Deep text at the very bottom"));
}

#[test]
fn utf8_page_declaring_latin1_is_read_as_utf8() {
    let zh = "清溪大桥今日正式通车，守候在两岸的数百名市民响起热烈的掌声。";
    let fr = "Le café de la rivière ouvre à l’aube, été comme hiver.";
    let html = format!(
        "<!DOCTYPE html><html><head><meta charset=\"iso-8859-1\"><title>Test</title></head>\
         <body><article><h1>Titre</h1><p>{zh}</p><p>{fr}</p><p>{zh}{zh}</p></article></body></html>"
    );
    let page = extract(html.as_bytes(), "lying-latin1.html").expect("page");
    assert_eq!(page.charset, "UTF-8");
    let (topic, all) = texts(&page);
    assert!(
        topic.contains(zh) || all.contains(zh),
        "Chinese text decoded wrong: {all:?}"
    );
    assert!(
        topic.contains(fr) || all.contains(fr),
        "accented text decoded wrong: {all:?}"
    );
}

#[test]
fn gb2312_page_without_declaration_is_detected() {
    let paras = [
        "本报讯（记者 周文涛）10月18日上午，历时两年零三个月建设的清溪大桥正式通车。",
        "上午九时，随着第一辆公交车缓缓驶上桥面，守候在两岸的数百名市民响起热烈的掌声。",
        "从此，清溪河南北两岸的居民过河不再需要绕行老城区的浮桥，车程缩短到十五分钟左右。",
        "清溪大桥全长一千二百六十米，主桥为三跨连续钢构，桥面宽二十四米，双向四车道。",
    ];
    let body: String = paras.iter().map(|p| format!("　　{p}<br><br>\n")).collect();
    let html = format!(
        "<html><head><title>清溪大桥今日正式通车</title></head><body><table><tr>\
         <td width=\"600\">{body}</td></tr></table></body></html>"
    );
    let (bytes, _, unmappable) = encoding_rs::GBK.encode(&html);
    assert!(!unmappable);
    let page = extract(&bytes, "undeclared-gb2312.html").expect("page");
    assert!(
        page.charset == "GBK" || page.charset == "gb18030",
        "charset {}",
        page.charset
    );
    let (topic, all) = texts(&page);
    for p in paras {
        assert!(
            topic.contains(p) || all.contains(p),
            "GB2312 text decoded wrong, missing {p:?} in {all:?}"
        );
    }
}

#[test]
fn random_tag_soup_never_panics() {
    const FRAGMENTS: &[&str] = &[
        "<",
        ">",
        "</",
        "</div",
        "</div>",
        "<div>",
        "<div class=\"nav\">",
        "<div style=\"display:none\">",
        "<table>",
        "</table>",
        "<tr>",
        "<td>",
        "</td>",
        "<p>",
        "</p>",
        "<b>",
        "</b>",
        "<a href=\"/x\">",
        "</a>",
        "<img src=x alt=\"",
        "<br>",
        "<h1>",
        "</h2>",
        "\"",
        "'",
        "=",
        "&amp;",
        "&",
        "&#",
        "&#x1F600;",
        "&#99999999;",
        "&nbsp",
        "<!--",
        "-->",
        "<![CDATA[",
        "<!DOCTYPE html>",
        "<script>",
        "</script>",
        "<style>",
        "</style>",
        "<noscript>",
        "</noscript>",
        "<meta charset=\"gb2312\">",
        "<title>",
        "<select><option>",
        "<template>",
        "<svg><foreignObject>",
        "<math>",
        "<frameset>",
        "<plaintext>",
        "<textarea>",
        " ",
        "\n",
        "\u{3000}\u{3000}",
        "word ",
        "the quick brown fox ",
        "中文段落文字，",
        "\u{FEFF}",
    ];
    let mut rng = XorShift(0x0123_4567_89AB_CDEF);
    for i in 0..200 {
        let pieces = 1 + rng.below(400);
        let mut soup = String::new();
        for _ in 0..pieces {
            if rng.below(6) == 0 {
                // A random non-control Unicode scalar value.
                let c = loop {
                    let c = char::from_u32(rng.below(0x11_0000) as u32);
                    if let Some(c) = c.filter(|c| !c.is_control()) {
                        break c;
                    }
                };
                soup.push(c);
            } else {
                soup.push_str(FRAGMENTS[rng.below(FRAGMENTS.len())]);
            }
        }
        let name = format!("soup-{i}.html");
        match extract(soup.as_bytes(), &name) {
            Ok(page) => {
                assert_eq!(page.cleaned.decisions.len(), page.tree.nodes.len());
                assert!(matches!(
                    page.cleaned.page_type,
                    PageType::Topic | PageType::Hub | PageType::Image
                ));
            }
            Err(e) => assert!(e.to_string().contains(&name), "{name}: {e}"),
        }
    }
}

/// Every cleaner, and the site-aware path (a site model learnt from these pages, then each
/// page cleaned with it), on trees of 100,000 nested elements and on a page of 150,000
/// sibling blocks: no panic, one decision per node.
#[test]
fn every_cleaner_survives_deep_nesting_and_wide_pages() {
    let pages = [
        nested("<div>", "</div>", LEVELS),
        nested("<table><tr><td>", "</td></tr></table>", LEVELS),
        nested("<div><p>", "</p></div>", LEVELS),
        format!(
            "<body>{}</body>",
            "<p>x y</p><div><a href=/>link</a><img src=z></div><h2>h</h2>".repeat(50_000)
        ),
    ];
    let trees: Vec<docview::page::TagTree> =
        pages.iter().map(|p| docview::page::build(p)).collect();
    for kind in docview::clean::CleanerKind::ALL {
        let cleaner = docview::clean::cleaner_of(kind).expect("known cleaner");
        for tree in &trees {
            let cleaned = cleaner.clean(tree);
            assert_eq!(cleaned.decisions.len(), tree.nodes.len(), "{kind}");
            let _ = cleaner.explain(tree);
        }
        if let Some(mut learner) = cleaner.site_learner() {
            // Each page three times: a template of three pages or more has a model
            // (infodiscoverer's page clusters are the pages of one template).
            for tree in trees.iter().flat_map(|t| [t, t, t]) {
                learner.add(tree);
            }
            let model = learner.finish();
            assert!(model.is_some(), "{kind}: twelve pages make a site");
            if kind.name().starts_with("infodiscoverer") {
                assert!(
                    trees
                        .iter()
                        .all(|t| cleaner.uses_site_model(t, model.as_ref()))
                );
            }
            for tree in &trees {
                let cleaned = cleaner.clean_in_site(tree, model.as_ref());
                assert_eq!(cleaned.decisions.len(), tree.nodes.len(), "{kind}");
                let _ = cleaner.explain_in_site(tree, model.as_ref());
            }
        }
    }
}
