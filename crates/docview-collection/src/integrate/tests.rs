use super::*;
use crate::clean::Framework;
use crate::extract::extract_page;
use crate::measure::text_feature_vector;
use crate::stats::{StatsBuilder, StopwordParams};

pub(crate) fn page(html: &str) -> TopicPage {
    TopicPage::of(&extract_page(html.as_bytes(), None, "test.html", &Framework::default()).unwrap())
}

fn docview(html: &str, url: &str, stats: &CollectionStats, params: IntegrateParams) -> DocView {
    let p = page(html);
    let analyzer = Analyzer::new();
    let cx = Context {
        analyzer: &analyzer,
        stats,
        params,
        classifier: None,
    };
    integrate(&PageUrl::parse(url), &p, cx).docview
}

const ARTICLE: &str = "<html lang=en><head><title>TITLE</title></head><body>\
    <nav><a href='/'>Home</a> <a href='/sport'>Sport</a> <a href='/weather'>Weather</a></nav>\
    <article><h1>The rivers rise</h1>\
    <p>The rivers of the valley rose again last night after three days of rain. \
    Farmers moved their cattle to higher fields before dawn. \
    The river authority said the water would stay high until Friday.</p>\
    <p>Boats were tied to the old bridge, and the ferry stopped running. \
    Schools near the rivers closed early. \
    Read the <a href='/floods/history.html#top'>history of the valley floods</a> for more.</p>\
    </article>\
    <aside><ul><li><a href='https://other.example/rivers-flood-warning'>River flood warning for the valley rivers</a></li>\
    <li><a href='/rivers-rain-record'>Rivers and rain: the valley record</a></li></ul></aside>\
    <aside><ul><li><a href='/shop'>Shop cheap shoes</a></li><li><a href='/casino'>Casino bonus offers</a></li></ul></aside>\
    <footer>Copyright 2024 <a href='mailto:x@y.example'>mail us</a></footer></body></html>";

fn article(title: &str) -> String {
    ARTICLE.replace("TITLE", title)
}

/// The default classifiers fill an article's genre (its class by the trees trained on
/// wcxb-dev's page types) and its subject, whose code is the classification code, each with
/// the model's name.
#[test]
fn the_embedded_classifiers_fill_the_genre_and_the_classification_code() {
    let model = docview_classify::PageClassifier::embedded().unwrap();
    let name = classifier_name(&model, &docview_classify::model_digest(None).unwrap());
    let subjects = docview_classify::SubjectClassifier::embedded().unwrap();
    let subject_name = subject_model_name(
        &subjects,
        &docview_classify::SubjectClassifier::digest(None).unwrap(),
    );
    let p = page(&article("Valley floods: the rivers rise"));
    let analyzer = Analyzer::new();
    let stats = CollectionStats::default();
    let cx = Context {
        analyzer: &analyzer,
        stats: &stats,
        params: IntegrateParams::default(),
        classifier: Some(ClassifierRef {
            model: &model,
            name: &name,
            subjects: Some(SubjectRef {
                model: &subjects,
                name: &subject_name,
            }),
        }),
    };
    // A news story's address, as crawled (the trees read the URL as well as the page).
    let url = "http://rivers.example/news/2026/03/12/valley-floods-the-rivers-rise";
    let d = integrate(&PageUrl::parse(url), &p, cx).docview;
    let s = d.subject.expect("a subject record");
    assert_eq!(s.scheme, "iptc-mediatopic");
    assert!(
        s.model.starts_with("docview-subject-classifier v1 "),
        "{}",
        s.model
    );
    assert_eq!(d.classification_code, s.code.clone().unwrap_or_default());
    match (&s.code, &s.label, s.reason) {
        (Some(code), Some(label), None) => {
            assert_eq!(&subjects.scheme.subject(code).unwrap().label, label);
            assert!(s.score >= subjects.threshold, "{s:?}");
        }
        (None, None, Some(NoSubject::BelowThreshold)) => assert!(s.score < subjects.threshold),
        _ => panic!("{s:?}"),
    }
    let c = d.genre.expect("a genre");
    assert_eq!(
        (c.scheme.as_str(), c.class.as_str()),
        ("page_type", "article")
    );
    assert!(!c.prior && c.score > 0.0 && c.score <= 1.0, "{c:?}");
    assert!(
        c.model.starts_with("docview-classifier-trees v1 "),
        "{}",
        c.model
    );
    // A page of no word the model knows is classified by its signals, not by prior.
    let unknown = page("<html><body><p>xqzzv wqkkp</p></body></html>");
    let d = integrate(
        &PageUrl::parse("http://rivers.example/b.html"),
        &unknown,
        cx,
    )
    .docview;
    let c = d.genre.expect("a genre");
    assert!(!c.prior, "{c:?}");
    // ... and has no subject: no term of it is one the subject model knows.
    let s = d.subject.expect("a subject record");
    assert_eq!((s.code, s.reason), (None, Some(NoSubject::NoKnownTerm)));
    assert_eq!(d.classification_code, "");
}

#[test]
fn identifier_type_code_and_meaningful_title() {
    let d = docview(
        &article("Valley floods: the rivers rise"),
        "http://rivers.example/news/rise.html",
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    assert_eq!(d.identifier, "http://rivers.example/news/rise.html");
    assert_eq!(d.page_type, PageType::Topic);
    assert_eq!(d.classification_code, "", "no classifier in this context");
    assert_eq!((d.genre, d.subject), (None, None));
    assert_eq!(d.title, "Valley floods: the rivers rise");
    assert!(!d.title_from_keywords);
    assert_eq!(d.language, "en");
    assert!(d.topic_content.contains("Farmers moved their cattle"));
    assert!(!d.topic_content.contains("Casino"));
}

#[test]
fn keywords_are_the_heaviest_features_as_words_of_the_page() {
    let d = docview(
        &article("x"),
        "http://rivers.example/a.html",
        &CollectionStats::default(),
        IntegrateParams {
            keywords: 3,
            ..IntegrateParams::default()
        },
    );
    assert_eq!(d.keywords.len(), 3);
    // "rivers" occurs five times (once in the heading): the heaviest feature, shown as the
    // page's own word rather than the stem "river".
    assert_eq!(d.keywords[0], "rivers", "{:?}", d.keywords);
    assert!(
        d.keywords.contains(&"valley".to_string()),
        "{:?}",
        d.keywords
    );
}

/// The article without its headline.
fn article_without_headline(title: &str) -> String {
    article(title).replace("<h1>The rivers rise</h1>", "")
}

#[test]
fn meaningless_titles_are_replaced_by_the_top_two_keywords() {
    for title in [
        "",
        "Untitled Document",
        "New Page",
        "Home",
        "  untitled document  ",
    ] {
        let d = docview(
            &article_without_headline(title),
            "http://rivers.example/a.html",
            &CollectionStats::default(),
            IntegrateParams::default(),
        );
        assert!(d.title_from_keywords, "{title:?}");
        assert_eq!(d.title, format!("{} {}", d.keywords[0], d.keywords[1]));
        assert_eq!(d.original_title, title.trim());
    }
    // A site name that every page of the site carries is no title either.
    let mut b = StatsBuilder::new();
    b.add_page(Some("rivers.example"), "Rivers Daily", Vec::new());
    b.add_page(Some("rivers.example"), "Rivers Daily", Vec::new());
    let stats = b.finish(StopwordParams::default());
    let d = docview(
        &article_without_headline("Rivers Daily"),
        "http://rivers.example/a.html",
        &stats,
        IntegrateParams::default(),
    );
    assert!(d.title_from_keywords);
    assert_eq!(d.title, "rivers valley", "{:?}", d.keywords);
}

/// Issue 25: an editor's default title gives way to the page's headline (its h1, or the bold
/// line heading the topic content) before its keywords.
#[test]
fn meaningless_titles_are_replaced_by_the_headline_first() {
    let d = docview(
        &article("New Page 1"),
        "http://rivers.example/a.html",
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    assert_eq!(d.title, "The rivers rise");
    assert!(!d.title_from_keywords);
    assert_eq!(d.original_title, "New Page 1");
    // A 2003 page: no h1, a bold headline in a font tag under a kicker.
    let old = "<html><head><title>New Page 1</title></head><body><table><tr><td>\
        PUBLIC NOTICES<br><font size=5><b>Harbor dredging to close the town landing</b></font>\
        <br>Posted by the Harbor Master<br>\
        <p>The town landing and the north float will be closed to all boats for two weeks \
        while a contractor dredges the channel between the landing and the breakwater.</p>\
        <p>Dinghies may tie up at the east side of the fuel dock during the closure, and the \
        harbor launch will run from the yacht club pier every half hour.</p>\
        </td></tr></table></body></html>";
    let d = docview(
        old,
        "http://harbor.example/notices/dredging.html",
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    assert_eq!(d.title, "Harbor dredging to close the town landing");
    assert!(!d.title_from_keywords);
    // A meaningful title stays, headline or not.
    let d = docview(
        &article("Valley floods"),
        "http://rivers.example/a.html",
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    assert_eq!(d.title, "Valley floods");
}

#[test]
fn abstract_takes_delta_sentences_weighed_by_keywords() {
    let d = docview(
        &article("x"),
        "http://rivers.example/a.html",
        &CollectionStats::default(),
        IntegrateParams {
            sentences: 2,
            ..IntegrateParams::default()
        },
    );
    // Two sentences, one from each body paragraph (about equal size), the ones that name the
    // heaviest keywords ("rivers", then "valley"): not the paragraphs' other sentences.
    assert_eq!(
        d.abstract_text,
        "The rivers of the valley rose again last night after three days of rain. \
         Schools near the rivers closed early.",
        "{:?}",
        d.keywords
    );
}

#[test]
fn sentences_are_allotted_by_paragraph_size() {
    // Sizes 10, 30, 60 terms, 10 sentences each: δ 10 gives 1, 3, 6.
    assert_eq!(
        allot_sentences(&[(10, 10), (30, 10), (60, 10)], 10),
        [1, 3, 6]
    );
    // A paragraph cannot give more than it holds; its share goes to the others.
    assert_eq!(allot_sentences(&[(90, 2), (10, 10)], 6), [2, 4]);
    // Fewer sentences than δ: all of them.
    assert_eq!(allot_sentences(&[(5, 1), (5, 2)], 15), [1, 2]);
    assert_eq!(allot_sentences(&[], 15), Vec::<usize>::new());
    assert_eq!(allot_sentences(&[(10, 3)], 0), [0]);
}

#[test]
fn chinese_abstract_splits_at_chinese_punctuation() {
    let html = "<html lang=zh-CN><head><title>无标题文档</title></head><body>\
        <div class=nav><a href='/'>首页</a> <a href='/n'>新闻</a></div>\
        <div class=content><p>兰亭大桥今天正式通车。大桥全长一千二百米，连接江南和江北两岸。\
        市民们一早就来到桥上参观！大桥通车以后，两岸交通时间缩短一半。</p>\
        <p>据介绍，大桥施工历时三年。工程队克服了洪水和严寒等困难？建设者们表示非常自豪。</p></div>\
        </body></html>";
    let d = docview(
        html,
        "http://lanting.example/bridge.html",
        &CollectionStats::default(),
        IntegrateParams {
            sentences: 3,
            ..IntegrateParams::default()
        },
    );
    assert_eq!(d.language, "zh");
    assert!(d.title_from_keywords, "无标题文档 is meaningless");
    assert!(d.keywords.iter().any(|k| k == "大桥"), "{:?}", d.keywords);
    assert!(d.title.starts_with(&d.keywords[0]) && !d.title.contains(' '));
    // Three whole sentences, each ending in Chinese punctuation, joined without spaces.
    let ends = d.abstract_text.matches(['。', '！', '？']).count();
    assert_eq!(ends, 3, "{}", d.abstract_text);
    assert!(!d.abstract_text.contains(' '), "{}", d.abstract_text);
    assert!(
        d.abstract_text.contains("兰亭大桥今天正式通车。"),
        "{}",
        d.abstract_text
    );
}

#[test]
fn relevant_links_are_topic_links_and_close_hub_blocks() {
    let d = docview(
        &article("x"),
        "http://rivers.example/news/rise.html",
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    let urls: Vec<(&str, LinkSourceName)> = d
        .relevant_links
        .iter()
        .map(|l| (l.url.as_str(), l.source.into()))
        .collect();
    assert_eq!(
        urls,
        [
            (
                "http://rivers.example/floods/history.html",
                LinkSourceName::Topic
            ),
            (
                "https://other.example/rivers-flood-warning",
                LinkSourceName::Hub
            ),
            (
                "http://rivers.example/rivers-rain-record",
                LinkSourceName::Hub
            ),
        ],
        "navigation, shop and mail links are not relevant"
    );
    assert_eq!(
        d.relevant_links[0].anchor_text,
        "history of the valley floods"
    );
    assert!(d.relevant_links[1].similarity.unwrap() > 0.1);
    // With β at 1 no hub block is close enough.
    let strict = docview(
        &article("x"),
        "http://rivers.example/news/rise.html",
        &CollectionStats::default(),
        IntegrateParams {
            beta: 1.0,
            ..IntegrateParams::default()
        },
    );
    assert_eq!(strict.relevant_links.len(), 1);
}

/// Issue 25: a page does not relate to itself. Its own address (fragment and trailing slash
/// aside) and the links that mail, share or print it are no relevant links; links that only
/// look alike stay.
#[test]
fn relevant_links_leave_out_the_page_itself_and_its_mail_and_share_links() {
    let html = "<html><body><article><h1>The rivers rise</h1>\
        <p>The rivers of the valley rose again last night after three days of rain. \
        Farmers moved their cattle to higher fields before dawn. \
        <a href='/news/rise/#comments'>Comments</a> \
        <a href='http://rivers.example/news/rise'>Permalink</a> \
        <a href='/cgi-bin/mailstory.pl?s=/news/rise'>E-mail this story</a> \
        <a href='https://social.example/share?u=http%3A%2F%2Frivers.example%2Fnews%2Frise'>Share</a> \
        <a href='/print/news/rise'>Print</a></p>\
        <p>Boats were tied to the old bridge, and the ferry stopped running. \
        <a href='/tag/email/'>Email tips</a> \
        <a href='/news/shareholders-meet'>Shareholders meet</a> \
        <a href='/news/rise/photos'>Photos of the rise</a></p>\
        </article></body></html>";
    let d = docview(
        html,
        "http://rivers.example/news/rise",
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    let urls: Vec<&str> = d.relevant_links.iter().map(|l| l.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "http://rivers.example/tag/email/",
            "http://rivers.example/news/shareholders-meet",
            "http://rivers.example/news/rise/photos",
        ]
    );
}

fn topic_link_and_base(head: &str, url: &str) -> (String, String, LinkBaseSource) {
    let html = article("x").replace("</head>", &format!("{head}</head>"));
    let d = docview(
        &html,
        url,
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    (
        d.relevant_links[0].url.clone(),
        d.link_base,
        d.link_base_source,
    )
}

#[test]
fn links_resolve_against_base_href_then_the_url() {
    let (link, base, source) = topic_link_and_base(
        "<base href='https://archive.rivers.example/2024/'>",
        "http://rivers.example/news/rise.html",
    );
    assert_eq!(link, "https://archive.rivers.example/floods/history.html");
    assert_eq!(base, "https://archive.rivers.example/2024/");
    assert_eq!(source, LinkBaseSource::BaseHref);
    // A relative base resolves against the page's address.
    let (link, base, _) = topic_link_and_base(
        "<base href='../old/'>",
        "http://rivers.example/news/rise.html",
    );
    assert_eq!(link, "http://rivers.example/floods/history.html");
    assert_eq!(base, "http://rivers.example/old/");
    // No base: the record's URL (a canonical link does not move a web page's links).
    let (link, base, source) = topic_link_and_base(
        "<link rel=canonical href='https://elsewhere.example/x/y.html'>",
        "http://rivers.example/news/rise.html",
    );
    assert_eq!(link, "http://rivers.example/floods/history.html");
    assert_eq!(base, "http://rivers.example/news/rise.html");
    assert_eq!(source, LinkBaseSource::Url);
}

#[test]
fn local_files_resolve_against_their_canonical_address() {
    let (link, base, source) = topic_link_and_base(
        "<link rel='Canonical' href='https://rivers.example/news/rise.html'>",
        "file:///data/saved/rise.html",
    );
    assert_eq!(link, "https://rivers.example/floods/history.html");
    assert_eq!(base, "https://rivers.example/news/rise.html");
    assert_eq!(source, LinkBaseSource::Canonical);
    // Without one, a local file's links stay local.
    let (link, _, source) = topic_link_and_base("", "file:///data/saved/rise.html");
    assert_eq!(link, "file:///floods/history.html");
    assert_eq!(source, LinkBaseSource::Url);
    // A link to the canonical address is a link to the page itself.
    let html = article("x").replace(
        "</head>",
        "<link rel=canonical href='https://rivers.example/floods/history.html'></head>",
    );
    let d = docview(
        &html,
        "file:///data/saved/rise.html",
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    assert!(
        d.relevant_links
            .iter()
            .all(|l| l.url != "https://rivers.example/floods/history.html"),
        "{:?}",
        d.relevant_links
    );
}

#[test]
fn dates_and_durations_are_not_keywords() {
    let mut html = String::from("<html lang=en><body><ul>");
    for (i, film) in [
        "Harbour",
        "Lighthouse",
        "Tidewater",
        "Ferryman",
        "Saltmarsh",
    ]
    .iter()
    .enumerate()
    {
        html.push_str(&format!(
            "<li><h3>{film} {i}</h3><span>Mar 0{i}</span><span>{i}h 5{i}m</span>\
             <span>4 min read</span><p>A film about the {film} keepers of the northern coast \
             and the ferry that crosses to the island every morning.</p></li>"
        ));
    }
    html.push_str("</ul></body></html>");
    let d = docview(
        &html,
        "http://films.example/list",
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    assert!(d.keywords.iter().any(|k| k == "ferry"), "{:?}", d.keywords);
    for not in ["mar", "min", "1h", "2h"] {
        assert!(
            !d.keywords.iter().any(|k| k == not),
            "{not} in {:?}",
            d.keywords
        );
    }
    for glued in ["03h", "01h", "11h"] {
        assert!(
            !d.topic_content.contains(glued),
            "{glued} in {:?}",
            d.topic_content
        );
    }
}

#[test]
fn empty_topic_content_is_flagged() {
    let d = docview(
        "<html><body><script>render()</script><img src=a.jpg></body></html>",
        "http://rivers.example/empty.html",
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    assert!(d.topic_content_empty, "{:?}", d.topic_content);
    // Its language is undetermined, written as `extract --format json` writes it.
    assert_eq!(d.language, "und");
    let extracted = extract_page(
        b"<html><body><script>render()</script><img src=a.jpg></body></html>",
        None,
        "empty.html",
        &Framework::default(),
    )
    .unwrap();
    let report =
        serde_json::to_value(extracted.report("empty.html", None, &Framework::default())).unwrap();
    assert_eq!(report["language"], d.language.as_str());
    let d = docview(
        &article("Rivers"),
        "http://rivers.example/a.html",
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    assert!(!d.topic_content_empty);
}

#[derive(Debug, PartialEq)]
enum LinkSourceName {
    Topic,
    Hub,
}

impl From<links::LinkSource> for LinkSourceName {
    fn from(s: links::LinkSource) -> Self {
        match s {
            links::LinkSource::TopicContent => LinkSourceName::Topic,
            links::LinkSource::HubBlock => LinkSourceName::Hub,
        }
    }
}

#[test]
fn records_serialise_with_the_eight_element_names() {
    let d = docview(
        &article("Rivers"),
        "http://rivers.example/a.html",
        &CollectionStats::default(),
        IntegrateParams::default(),
    );
    let json = serde_json::to_value(&d).unwrap();
    for key in [
        "identifier",
        "type",
        "classification_code",
        "title",
        "keywords",
        "abstract",
        "topic_content",
        "relevant_links",
    ] {
        assert!(json.get(key).is_some(), "{key} missing in {json}");
    }
    assert_eq!(json["type"], "topic");
    let back: DocView = serde_json::from_value(json).unwrap();
    assert_eq!(back, d);
}

/// The surface forms as integration found them before it read the topic content once: every
/// Unicode word lowercased and analysed alone.
fn surface_forms_word_by_word(
    text: &str,
    lang: Language,
    analyzer: &Analyzer,
    ranked: &[(String, f32)],
) -> HashMap<String, String> {
    if lang.writes_without_spaces() && !text.is_ascii() {
        return HashMap::new();
    }
    let mut forms = SurfaceForms::new(ranked);
    for word in unicode_segmentation::UnicodeSegmentation::unicode_words(text) {
        forms.word(word, lang, analyzer);
    }
    forms.finish(ranked)
}

/// One reading of the topic content gives the term counts and surface forms that a count over
/// the whole text and a word-by-word analysis gave, on the sample sites' pages (English and
/// Chinese) and on mixed text, with and without collection stop words.
#[test]
fn one_reading_gives_the_term_counts_and_surface_forms_of_two() {
    let root = format!("{}/../../corpus-samples/sites", env!("CARGO_MANIFEST_DIR"));
    let mut texts: Vec<(String, Language)> = Vec::new();
    for site in [
        "fieldnotes",
        "harbor-gazette",
        "lanting-news",
        "xinyu-daily",
    ] {
        let mut names: Vec<_> = std::fs::read_dir(format!("{root}/{site}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        for path in names {
            let bytes = std::fs::read(&path).unwrap();
            let name = path.display().to_string();
            let extracted = extract_page(&bytes, None, &name, &Framework::default()).unwrap();
            let p = TopicPage::of(&extracted);
            texts.push((p.topic_text, p.language));
        }
    }
    for (text, lang) in [
        (
            "Ärger im Café: Straßen-Bahnen fahren wieder. ÄRGER! Ärger.",
            Language::German,
        ),
        (
            "Rivers of 中国 rise; the RIVER's banks. Rivers!",
            Language::English,
        ),
        (
            "Ｒｕｓｔ U.S.A. rust l'homme L'HOMME hommes",
            Language::French,
        ),
        ("ΟΔΟΣ οδός Δρόμος ΚΟΣΜΟΣ", Language::Other),
        ("КОШКИ играют, Кошки!", Language::Russian),
        ("搜索引擎 Search engines search", Language::Chinese),
    ] {
        texts.push((text.to_string(), lang));
    }
    assert!(texts.iter().any(|t| t.1 == Language::Chinese));
    for analyzer in [
        Analyzer::new(),
        Analyzer::new().with_aggressive_stopwords(["river".to_string(), "tide".into()]),
    ] {
        for (text, lang) in &texts {
            let features = text_feature_vector([(text.as_str(), 1.0)], &analyzer, *lang);
            let ranked = features.top(15);
            let got = topic_terms(text, *lang, &analyzer, &ranked);
            let mut counts = HashMap::new();
            analyzer.term_counts(text, *lang, &mut counts);
            let mut expected: Vec<(String, u32)> = counts.into_iter().collect();
            expected.sort_unstable();
            assert_eq!(got.term_counts, expected, "{text}");
            let expected = surface_forms_word_by_word(text, *lang, &analyzer, &ranked);
            assert_eq!(got.surfaces, expected, "{text}");
        }
    }
}
