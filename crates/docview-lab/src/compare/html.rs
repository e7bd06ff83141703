//! The comparison report as one self-contained HTML5 page: inline `<style>`, charts as inline
//! `<svg>` drawn by `plotters`' SVG backend (no script, no stylesheet, font or image to fetch).
//!
//! The markup is in askama templates, `crates/docview-lab/templates/compare/`, compiled into
//! the crate:
//!
//! - `page.html`: the page, its head and inline style, the lead naming the indexes; it includes
//!   the parts' partials in order;
//! - `size.html` (Part 1, index size), `query_cost.html` (Part 2, query cost),
//!   `retrieval.html` (Part 3, retrieval quality on a labelled set) and `ranking.html` (Part 4,
//!   ranked retrieval on a test collection: a chart per measure, the means with the cleaned
//!   indexes' p-values against fulltext, the topics that move most): each part's tables and
//!   charts, or a one-line note when the report lacks it;
//! - `figure.html`: one chart and its caption.
//!
//! This module computes what the templates lay out: each part's view (every number already
//! written for humans) and each chart's SVG. askama escapes every value of the report in the
//! page; the one exception is a chart's [`Svg`], which only plotters makes here and which
//! escapes the text and attribute values it writes. The page shows whatever indexes the report
//! lists, in the report's order.
//!
//! `plotters` is built without its `ttf` and `ab_glyph` features: it then lays text out with a
//! crude width estimate and writes `<text>` elements with a generic `sans-serif` family, which the
//! browser renders with whatever font it has. No font file is read, at build or at run time.

use std::collections::BTreeSet;

use askama::Template;
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::ranking::{IndexRanking, Measure, Ranking, TopicChange};
use super::report::{
    ByteSplit, CompareReport, IndexCost, IndexRetrieval, IndexSize, PageMiss, QueryCost, Retrieval,
    RetrievalScores,
};
use crate::index::IndexKind;

/// Renders `report` as a self-contained HTML5 page: Part 1 (index size), Part 2 (query cost),
/// Part 3 (retrieval quality) and Part 4 (ranked retrieval), each tables and charts with
/// captions; a missing part is a one-line note. The same report always gives the same bytes.
pub fn render_html(report: &CompareReport) -> String {
    let page = Page::of(report);
    match page.render() {
        Ok(html) => html,
        // Rendering writes to a String and no value's Display fails: not reached.
        Err(e) => format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>docview compare</title>\n</head>\n<body>\n<p>The page could not be \
             rendered: {}</p>\n</body>\n</html>\n",
            escape(&e.to_string())
        ),
    }
}

/// HTML-escapes `text` (only for the fallback page; the templates escape through askama).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    crate::output::escape_html_into(&mut out, text);
    out
}

// ---------------------------------------------------------------------------------------------
// The views the templates lay out

/// The page (`templates/compare/page.html`).
#[derive(Template)]
#[template(path = "compare/page.html", whitespace = "minimize")]
struct Page<'a> {
    /// The ingest directory compared.
    dir: &'a str,
    /// The `<h1>`: the indexes compared.
    headline: String,
    /// The indexes the report lists whose content the lead says, in the report's order.
    lead: Vec<IndexNote<'a>>,
    /// The DocView index's field weights, when the report lists it.
    weights: Option<String>,
    /// Part 1, if any index was found.
    size: Option<SizePart>,
    /// Part 2, if a query set was measured.
    query_cost: Option<CostPart<'a>>,
    /// Part 3, if a labelled set was given.
    retrieval: Option<RetrievalPart<'a>>,
    /// Part 4, if topics and qrels were given.
    ranking: Option<RankingPart<'a>>,
}

impl<'a> Page<'a> {
    fn of(report: &'a CompareReport) -> Self {
        let names = index_names(report);
        Page {
            dir: &report.dir,
            headline: headline(&names),
            lead: names
                .iter()
                .filter_map(|&name| {
                    Some(IndexNote {
                        name,
                        holds: holds(name)?,
                    })
                })
                .collect(),
            weights: names
                .contains(&IndexKind::Docview.as_str())
                .then(|| report.field_weights.to_string()),
            size: (!report.sizes.is_empty()).then(|| SizePart::of(&report.sizes)),
            query_cost: report.query_cost.as_ref().map(CostPart::of),
            retrieval: report.retrieval.as_ref().map(RetrievalPart::of),
            ranking: report.ranking.as_ref().map(RankingPart::of),
        }
    }
}

/// An index of the lead paragraph.
struct IndexNote<'a> {
    /// Its name.
    name: &'a str,
    /// What it indexes.
    holds: &'static str,
}

/// The index names of every part of `report`, each once, in the order they first appear
/// (fulltext first).
fn index_names(report: &CompareReport) -> Vec<&str> {
    let sizes = report.sizes.iter().map(|s| s.index.as_str());
    let cost = report
        .query_cost
        .iter()
        .flat_map(|c| c.per_index.iter().map(|i| i.index.as_str()));
    let retrieval = report
        .retrieval
        .iter()
        .flat_map(|r| r.per_index.iter().map(|i| i.index.as_str()));
    let ranking = report
        .ranking
        .iter()
        .flat_map(|r| r.indexes.iter().map(|i| i.index.as_str()));
    let mut seen = BTreeSet::new();
    sizes
        .chain(cost)
        .chain(retrieval)
        .chain(ranking)
        .filter(|name| seen.insert(*name))
        .collect()
}

/// `Fulltext, topic and abstract indexes compared`, for whatever indexes there are.
fn headline(names: &[&str]) -> String {
    let list = match names {
        [] => return "Indexes compared".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    let mut chars = list.chars();
    let capital: String = chars
        .next()
        .into_iter()
        .flat_map(char::to_uppercase)
        .collect();
    format!("{capital}{} indexes compared", chars.as_str())
}

/// What the index `name` holds, for the lead: the indexes docview builds; the lead leaves out
/// another name (the headline names it).
fn holds(name: &str) -> Option<&'static str> {
    match name {
        "fulltext" => Some("all visible text of the raw pages"),
        "topic" => Some("the cleaned topic content"),
        "abstract" => Some("the title, abstract and keywords of each DocView record"),
        "docview" => Some(
            "the title, keywords, abstract and topic content of each DocView record, each a \
             field of its own, searched together with field weights",
        ),
        _ => None,
    }
}

/// A chart and its caption (`templates/compare/figure.html`).
struct Figure {
    /// What the chart shows, for screen readers (`aria-label`).
    label: String,
    /// The caption under it.
    caption: String,
    /// The chart, or why it could not be drawn.
    svg: Result<Svg, String>,
}

impl Figure {
    fn new(svg: Result<String, String>, label: &str, caption: &str) -> Self {
        Figure {
            label: label.to_string(),
            caption: caption.to_string(),
            svg: svg.and_then(Svg::from_plotters),
        }
    }
}

/// An `<svg>` document that plotters drew, which the page holds as it is: plotters escapes the
/// text and attribute values it writes (`&`, `<`, `>`, `"`, `'`), so a label taken from the
/// report (an index name, a page type) cannot open an element. Only [`Svg::from_plotters`]
/// makes one, from the SVG backend's output.
struct Svg(String);

impl Svg {
    /// The SVG backend's output, which opens with `<svg `.
    fn from_plotters(svg: String) -> Result<Svg, String> {
        let svg = svg.trim();
        match svg.strip_prefix("<svg ") {
            Some(_) if svg.ends_with("</svg>") => Ok(Svg(svg.to_string())),
            _ => Err("plotters wrote no <svg> element".to_string()),
        }
    }

    /// What follows `<svg `: its attributes and content, for the template to open the element
    /// with its own attributes first.
    fn after_tag(&self) -> &str {
        self.0.get("<svg ".len()..).unwrap_or_default()
    }
}

/// Bytes on disk for a table cell: for humans, and exact (its title).
struct Bytes {
    /// `482 MB`.
    human: String,
    /// `482,300,112`.
    exact: String,
}

impl Bytes {
    fn of(bytes: u64) -> Self {
        Bytes {
            human: human_bytes(bytes),
            exact: thousands(bytes),
        }
    }
}

/// Part 1 (`templates/compare/size.html`).
struct SizePart {
    /// The names of the parts of the bytes, in the order of the columns.
    parts: Vec<&'static str>,
    /// A row per index.
    rows: Vec<SizeRow>,
    /// Bytes on disk by part.
    chart: Figure,
}

/// An index's row of Part 1.
struct SizeRow {
    index: String,
    docs: String,
    terms: String,
    terms_ratio: String,
    distinct_terms: String,
    total: Bytes,
    bytes_ratio: String,
    /// Bytes of each of [`BYTE_PARTS`].
    parts: Vec<Bytes>,
}

impl SizePart {
    fn of(sizes: &[IndexSize]) -> Self {
        SizePart {
            parts: BYTE_PARTS.iter().map(|(name, _)| *name).collect(),
            rows: sizes
                .iter()
                .map(|s| SizeRow {
                    index: s.index.clone(),
                    docs: thousands(s.docs),
                    terms: thousands(s.terms),
                    terms_ratio: percent(s.terms_ratio),
                    distinct_terms: thousands(s.distinct_terms),
                    total: Bytes::of(s.bytes.total),
                    bytes_ratio: percent(s.bytes_ratio),
                    parts: byte_parts(&s.bytes).into_iter().map(Bytes::of).collect(),
                })
                .collect(),
            chart: Figure::new(
                chart_bytes(sizes),
                "Bytes on disk of each index, by part",
                "Bytes on disk of each index, split by what they hold (stacked, in MB); the \
                 label at the end of each bar is its total and its share of fulltext's. \
                 Postings and positions grow with the indexed text, the store with the stored \
                 fields.",
            ),
        }
    }
}

/// Part 2 (`templates/compare/query_cost.html`).
struct CostPart<'a> {
    /// `1,000`.
    queries: String,
    /// Where they came from.
    source: &'a str,
    /// `5 warm runs`.
    runs: String,
    /// A row per index (none: a note).
    rows: Vec<CostRow<'a>>,
    /// Postings read and latency.
    chart: Figure,
}

/// An index's row of Part 2.
struct CostRow<'a> {
    index: &'a str,
    postings: String,
    posting_bytes: String,
    postings_ratio: String,
    p50: String,
    p95: String,
    matches: String,
}

impl<'a> CostPart<'a> {
    fn of(cost: &'a QueryCost) -> Self {
        CostPart {
            queries: thousands(cost.queries as u64),
            source: &cost.source,
            runs: format!(
                "{} warm run{}",
                thousands(cost.runs as u64),
                if cost.runs == 1 { "" } else { "s" }
            ),
            rows: cost
                .per_index
                .iter()
                .map(|c| CostRow {
                    index: &c.index,
                    postings: human_float(c.postings_per_query),
                    posting_bytes: human_bytes_f(c.posting_bytes_per_query),
                    postings_ratio: percent(c.postings_ratio),
                    p50: millis(c.latency_p50_ms),
                    p95: millis(c.latency_p95_ms),
                    matches: human_float(c.matches_per_query),
                })
                .collect(),
            chart: Figure::new(
                chart_cost(&cost.per_index),
                "Postings read per query and latency of each index",
                "Left: posting-list entries read per query (mean over the query set), the proxy \
                 for disk access; fewer is cheaper. Right: latency of one query in \
                 milliseconds, median (p50) and 95th percentile (p95) of the warm runs; lower \
                 is better.",
            ),
        }
    }
}

/// Part 3 (`templates/compare/retrieval.html`).
struct RetrievalPart<'a> {
    /// The labelled set.
    set: &'a str,
    pages: String,
    pages_missing: String,
    /// All pages, then by page type (none: a note).
    tables: Vec<ScoresTable<'a>>,
    /// hit@10 and false-hit@10 of all pages.
    chart: Figure,
    /// The pages the cleaned indexes lose most on.
    misses: Vec<&'a PageMiss>,
}

/// A table of retrieval scores.
struct ScoresTable<'a> {
    /// `All pages` or `By page type`.
    title: &'static str,
    /// Whether the rows have a page type.
    by_type: bool,
    rows: Vec<ScoresRow<'a>>,
}

/// An index's scores (on a page type).
struct ScoresRow<'a> {
    page_type: Option<&'a str>,
    index: &'a str,
    pages: String,
    with_queries: String,
    hit: String,
    without_queries: String,
    false_hit: String,
    titles: String,
    mrr: String,
}

impl<'a> ScoresRow<'a> {
    fn of(page_type: Option<&'a str>, index: &'a str, s: &RetrievalScores) -> Self {
        let rate = |n: usize, v: f64| {
            if n == 0 {
                "–".to_string()
            } else {
                percent(v)
            }
        };
        ScoresRow {
            page_type,
            index,
            pages: thousands(s.pages as u64),
            with_queries: thousands(s.with_queries as u64),
            hit: rate(s.with_queries, s.hit_at_10),
            without_queries: thousands(s.without_queries as u64),
            false_hit: rate(s.without_queries, s.false_hit_at_10),
            titles: thousands(s.title_queries as u64),
            mrr: if s.title_queries == 0 {
                "–".to_string()
            } else {
                format!("{:.3}", s.mrr_at_10)
            },
        }
    }
}

impl<'a> RetrievalPart<'a> {
    fn of(r: &'a Retrieval) -> Self {
        let mut tables = Vec::new();
        if !r.per_index.is_empty() {
            tables.push(ScoresTable {
                title: "All pages",
                by_type: false,
                rows: r
                    .per_index
                    .iter()
                    .map(|i| ScoresRow::of(None, &i.index, &i.overall))
                    .collect(),
            });
            let types: BTreeSet<&String> =
                r.per_index.iter().flat_map(|i| i.by_type.keys()).collect();
            if !types.is_empty() {
                tables.push(ScoresTable {
                    title: "By page type",
                    by_type: true,
                    rows: types
                        .iter()
                        .flat_map(|t| {
                            r.per_index.iter().filter_map(move |i| {
                                let s = i.by_type.get(*t)?;
                                Some(ScoresRow::of(Some(t.as_str()), &i.index, s))
                            })
                        })
                        .collect(),
                });
            }
        }
        RetrievalPart {
            set: &r.set,
            pages: thousands(r.pages as u64),
            pages_missing: thousands(r.pages_missing as u64),
            tables,
            chart: Figure::new(
                chart_retrieval(&r.per_index),
                "hit@10 and false-hit rate@10 of each index",
                "hit@10: share of content snippets for which the page is in the top 10; higher \
                 is better. False-hit rate@10: share of boilerplate snippets for which the page \
                 is in the top 10; lower is better. All pages of the labelled set together.",
            ),
            misses: r.misses.iter().collect(),
        }
    }
}

/// Part 4 (`templates/compare/ranking.html`).
struct RankingPart<'a> {
    judged_topics: String,
    topics_file: &'a str,
    unjudged_topics: String,
    qrels_file: &'a str,
    docid: &'a str,
    /// `1 judged document is`, `3 judged documents are`.
    judged_not_indexed: String,
    permutations: String,
    /// A chart per measure of [`Measure::ALL`].
    charts: Vec<Figure>,
    /// The measures' names, the table's columns.
    measures: Vec<&'static str>,
    /// A row per index (none: a note).
    rows: Vec<RankingRow<'a>>,
    /// Each cleaned index's topics that gain most, then those that lose most.
    movers: Vec<Movers<'a>>,
}

/// An index's means, with its p-values against fulltext.
struct RankingRow<'a> {
    index: &'a str,
    /// `0.9755 (p 0.031)`, a cell per measure.
    cells: Vec<String>,
}

/// The topics that move most on one index.
struct Movers<'a> {
    index: &'a str,
    /// `gains` or `loses`.
    what: &'static str,
    topics: Vec<MoverRow<'a>>,
}

/// A topic's nDCG@10 on fulltext and on the index.
struct MoverRow<'a> {
    qid: &'a str,
    query: &'a str,
    fulltext: String,
    index: String,
}

impl<'a> RankingPart<'a> {
    fn of(r: &'a Ranking) -> Self {
        let judged = thousands(r.judged_topics as u64);
        let charts = Measure::ALL
            .iter()
            .map(|&m| {
                Figure::new(
                    chart_measure(&r.indexes, m, r.judged_topics),
                    &format!("Mean {} of each index", m.label()),
                    &format!("{}: {}.", m.label(), what_measures(m)),
                )
            })
            .collect();
        let movers = r
            .indexes
            .iter()
            .flat_map(|i| {
                [("gains", &i.most_gained), ("loses", &i.most_lost)]
                    .into_iter()
                    .filter(|(_, topics)| !topics.is_empty())
                    .map(|(what, topics)| Movers {
                        index: &i.index,
                        what,
                        topics: topics.iter().map(MoverRow::of).collect(),
                    })
            })
            .collect();
        RankingPart {
            judged_topics: judged,
            topics_file: &r.topics_file,
            unjudged_topics: thousands(r.unjudged_topics.len() as u64),
            qrels_file: &r.qrels_file,
            docid: &r.docid,
            judged_not_indexed: match r.judged_not_indexed {
                1 => "1 judged document is".to_string(),
                n => format!("{} judged documents are", thousands(n as u64)),
            },
            permutations: thousands(r.permutations as u64),
            charts,
            measures: Measure::ALL.iter().map(|m| m.label()).collect(),
            rows: r
                .indexes
                .iter()
                .map(|i| RankingRow {
                    index: &i.index,
                    cells: Measure::ALL
                        .iter()
                        .map(|&m| match p_versus_fulltext(i, m) {
                            Some(p) => format!("{} ({})", four_decimals(m.of(&i.mean)), p_value(p)),
                            None => four_decimals(m.of(&i.mean)),
                        })
                        .collect(),
                })
                .collect(),
            movers,
        }
    }
}

impl<'a> MoverRow<'a> {
    fn of(t: &'a TopicChange) -> Self {
        MoverRow {
            qid: &t.qid,
            query: &t.query,
            fulltext: format!("{:.3}", t.fulltext),
            index: format!("{:.3}", t.index),
        }
    }
}

/// The p-value of `index`'s `measure` against fulltext's (none for fulltext).
fn p_versus_fulltext(index: &IndexRanking, measure: Measure) -> Option<f64> {
    index
        .versus_fulltext
        .iter()
        .find(|v| v.measure == measure)
        .map(|v| v.p_value)
}

/// A p-value for humans: `p 0.031`, `p < 0.001`.
fn p_value(p: f64) -> String {
    if !p.is_finite() {
        "p –".to_string()
    } else if p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p {p:.3}")
    }
}

/// What `measure` measures, for its chart's caption.
fn what_measures(measure: Measure) -> &'static str {
    match measure {
        Measure::Ndcg10 => {
            "the graded gain of the top 10, discounted by rank, over that of the ideal ranking; \
             higher is better"
        }
        Measure::P10 => "the relevant documents of the top 10, over 10; higher is better",
        Measure::Ap => {
            "average precision over the run's up to 1,000 documents (its mean is MAP); higher \
             is better"
        }
        Measure::Recall100 => {
            "the share of the topic's relevant documents in the top 100; higher is better"
        }
        Measure::Rr10 => {
            "one over the rank of the first relevant document in the top 10 (its mean is \
             MRR@10); higher is better"
        }
        Measure::Judged10 => {
            "the share of the top 10 that has a judgment: how far the qrels cover the run, not \
             a quality"
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Part 1: size

/// The parts of a [`ByteSplit`] in the order drawn, with their colour.
const BYTE_PARTS: [(&str, RGBColor); 6] = [
    ("postings", RGBColor(0x4e, 0x79, 0xa7)),
    ("positions", RGBColor(0xf2, 0x8e, 0x2b)),
    ("store", RGBColor(0xe1, 0x57, 0x59)),
    ("term dictionary", RGBColor(0x76, 0xb7, 0xb2)),
    ("fast fields + norms", RGBColor(0x59, 0xa1, 0x4f)),
    ("other", RGBColor(0xba, 0xb0, 0xac)),
];

fn byte_parts(b: &ByteSplit) -> [u64; 6] {
    [
        b.postings,
        b.positions,
        b.store,
        b.term_dictionary,
        b.fast_fields_and_norms,
        b.other,
    ]
}

fn chart_bytes(sizes: &[IndexSize]) -> Result<String, String> {
    let n = sizes.len();
    let height = 90 + 56 * n as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend) = root.split_horizontally(900);
        let rows: Vec<usize> = (0..n).collect();
        let mb = |b: u64| b as f64 / 1e6;
        let x_max = sizes
            .iter()
            .map(|s| mb(s.bytes.total.max(byte_parts(&s.bytes).iter().sum())))
            .fold(0.0, f64::max);
        let x_max = if x_max > 0.0 { x_max * 1.3 } else { 1.0 };
        // Rows go bottom-up in plotters: the first index (fulltext) on the top row.
        let row_of = |k: usize| n - 1 - k;
        let label_of = |v: &SegmentValue<&usize>| match v {
            SegmentValue::CenterOf(r) => sizes[n - 1 - **r].index.clone(),
            _ => String::new(),
        };
        let x_fmt = |v: &f64| format!("{} MB", trim_float(*v));
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(100)
            .build_cartesian_2d(0.0..x_max, rows.as_slice().into_segmented())
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .y_labels(n)
            .y_label_formatter(&label_of)
            .x_label_formatter(&x_fmt)
            .x_desc("bytes on disk (MB)")
            .label_style(("sans-serif", 18))
            .draw()
            .map_err(err)?;
        let pad = bar_padding(chart.plotting_area().dim_in_pixel().1, n, 0.22);
        for (k, s) in sizes.iter().enumerate() {
            let r = row_of(k);
            let (top, bottom) = (SegmentValue::Exact(&rows[r]), seg_end(&rows, r));
            let mut x = 0.0;
            for (part, (_, color)) in byte_parts(&s.bytes).into_iter().zip(BYTE_PARTS) {
                if part == 0 {
                    continue;
                }
                let x1 = x + mb(part);
                let mut bar =
                    Rectangle::new([(x, top.clone()), (x1, bottom.clone())], color.filled());
                bar.set_margin(pad, pad, 0, 0);
                chart.plotting_area().draw(&bar).map_err(err)?;
                x = x1;
            }
            let label = format!(
                "{} ({} of fulltext)",
                human_bytes(s.bytes.total),
                percent(s.bytes_ratio)
            );
            chart
                .plotting_area()
                .draw(&Text::new(
                    label,
                    (
                        x.max(mb(s.bytes.total)) + x_max * 0.01,
                        SegmentValue::CenterOf(&rows[r]),
                    ),
                    text_style(17, HPos::Left, VPos::Center),
                ))
                .map_err(err)?;
        }
        let names: Vec<(&str, RGBColor)> = BYTE_PARTS.to_vec();
        draw_legend(&legend, &names, (10, 16))?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

// ---------------------------------------------------------------------------------------------
// Part 2: query cost

const P50: RGBColor = RGBColor(0x4e, 0x79, 0xa7);
const P95: RGBColor = RGBColor(0xa0, 0xcb, 0xe8);

fn chart_cost(per_index: &[IndexCost]) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, 380)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (left, right) = root.split_horizontally(550);
        let postings: Vec<f64> = per_index
            .iter()
            .map(|c| finite(c.postings_per_query))
            .collect();
        let labels: Vec<String> = postings.iter().map(|&v| human_float(v)).collect();
        bar_panel(
            &left,
            per_index,
            "Postings read per query",
            "postings / query",
            &[(postings.as_slice(), labels.as_slice(), P50)],
            &[],
            &|v| trim_float(*v),
        )?;
        let (legend, right) = right.split_vertically(34);
        let p50: Vec<f64> = per_index.iter().map(|c| finite(c.latency_p50_ms)).collect();
        let p95: Vec<f64> = per_index.iter().map(|c| finite(c.latency_p95_ms)).collect();
        let p50_labels: Vec<String> = p50.iter().map(|&v| trim_float(v)).collect();
        let p95_labels: Vec<String> = p95.iter().map(|&v| trim_float(v)).collect();
        draw_legend_row(&legend, &[("p50", P50), ("p95", P95)], (70, 14))?;
        bar_panel(
            &right,
            per_index,
            "Latency per query",
            "milliseconds",
            &[
                (p50.as_slice(), p50_labels.as_slice(), P50),
                (p95.as_slice(), p95_labels.as_slice(), P95),
            ],
            &[],
            &|v| trim_float(*v),
        )?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

// ---------------------------------------------------------------------------------------------
// Part 3: retrieval quality

const HIT: RGBColor = RGBColor(0x59, 0xa1, 0x4f);
const FALSE_HIT: RGBColor = RGBColor(0xe1, 0x57, 0x59);

fn chart_retrieval(per_index: &[IndexRetrieval]) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, 380)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend) = root.split_horizontally(800);
        let hit: Vec<f64> = per_index
            .iter()
            .map(|i| 100.0 * finite(i.overall.hit_at_10))
            .collect();
        let false_hit: Vec<f64> = per_index
            .iter()
            .map(|i| 100.0 * finite(i.overall.false_hit_at_10))
            .collect();
        let hit_labels: Vec<String> = per_index
            .iter()
            .map(|i| percent(i.overall.hit_at_10))
            .collect();
        let false_labels: Vec<String> = per_index
            .iter()
            .map(|i| percent(i.overall.false_hit_at_10))
            .collect();
        bar_panel(
            &plot,
            per_index,
            "Retrieval quality, all pages",
            "% of snippets",
            &[
                (hit.as_slice(), hit_labels.as_slice(), HIT),
                (false_hit.as_slice(), false_labels.as_slice(), FALSE_HIT),
            ],
            &[],
            &|v| format!("{v:.0} %"),
        )?;
        draw_legend(
            &legend,
            &[
                ("hit@10 (higher is better)", HIT),
                ("false-hit@10 (lower is better)", FALSE_HIT),
            ],
            (10, 60),
        )?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

// ---------------------------------------------------------------------------------------------
// Part 4: ranked retrieval

/// The colour of Part 4's bars.
const MEAN: RGBColor = RGBColor(0x4e, 0x79, 0xa7);

/// The mean of `measure` on each index over `topics` judged topics, a bar each, with each
/// cleaned index's p-value against fulltext above its bar.
fn chart_measure(
    indexes: &[IndexRanking],
    measure: Measure,
    topics: usize,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (560, 360)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let means: Vec<f64> = indexes
            .iter()
            .map(|i| finite(measure.of(&i.mean)))
            .collect();
        let labels: Vec<String> = indexes
            .iter()
            .map(|i| four_decimals(measure.of(&i.mean)))
            .collect();
        let notes: Vec<String> = indexes
            .iter()
            .map(|i| p_versus_fulltext(i, measure).map_or_else(String::new, p_value))
            .collect();
        bar_panel(
            &root,
            indexes,
            measure.label(),
            &format!(
                "mean over {} topic{}",
                thousands(topics as u64),
                if topics == 1 { "" } else { "s" }
            ),
            &[(means.as_slice(), labels.as_slice(), MEAN)],
            &notes,
            // Every measure is from 0 to 1: the room above 1 is for the labels.
            &|v| {
                if *v > 1.0 {
                    String::new()
                } else {
                    trim_float(*v)
                }
            },
        )?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A measure's mean to four decimals, `–` if not a number.
fn four_decimals(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.4}")
    } else {
        "–".to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// Chart helpers

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// Something with an index name, to label a category.
trait Named {
    fn name(&self) -> &str;
}
impl Named for IndexCost {
    fn name(&self) -> &str {
        &self.index
    }
}
impl Named for IndexRetrieval {
    fn name(&self) -> &str {
        &self.index
    }
}
impl Named for IndexRanking {
    fn name(&self) -> &str {
        &self.index
    }
}

/// Vertical bars, one group per index, one bar per series (values, value labels, colour); the
/// value label above each bar, and above those a column's note, if `notes` has one (a p-value).
fn bar_panel<T: Named>(
    area: &Area<'_>,
    indexes: &[T],
    title: &str,
    y_desc: &str,
    series: &[(&[f64], &[String], RGBColor)],
    notes: &[String],
    y_fmt: &dyn Fn(&f64) -> String,
) -> Result<(), String> {
    let n = indexes.len();
    let cols: Vec<usize> = (0..n).collect();
    let y_max = series
        .iter()
        .flat_map(|s| s.0.iter().copied())
        .fold(0.0, f64::max);
    // Room above the highest bar for its label, and for a note.
    let room = if notes.iter().any(|n| !n.is_empty()) {
        1.3
    } else {
        1.15
    };
    let y_max = if y_max > 0.0 { y_max * room } else { 1.0 };
    let label_of = |v: &SegmentValue<&usize>| match v {
        SegmentValue::CenterOf(c) => indexes[**c].name().to_string(),
        _ => String::new(),
    };
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .caption(title, ("sans-serif", 22))
        .x_label_area_size(36)
        .y_label_area_size(80)
        .build_cartesian_2d(cols.as_slice().into_segmented(), 0.0..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE)
        .x_labels(n)
        .x_label_formatter(&label_of)
        .y_label_formatter(y_fmt)
        .y_desc(y_desc)
        .label_style(("sans-serif", 18))
        .draw()
        .map_err(err)?;
    let width = chart.plotting_area().dim_in_pixel().0 as f64 / n.max(1) as f64;
    let gap = width * 0.18;
    let bar_w = (width - 2.0 * gap) / series.len().max(1) as f64;
    for c in 0..n {
        for (j, (values, labels, color)) in series.iter().enumerate() {
            let left = gap + bar_w * j as f64;
            let right = width - left - bar_w;
            let mut bar = Rectangle::new(
                [
                    (SegmentValue::Exact(&cols[c]), 0.0),
                    (seg_end(&cols, c), values[c]),
                ],
                color.filled(),
            );
            bar.set_margin(0, 0, left.round() as u32, right.max(0.0).round() as u32);
            chart.plotting_area().draw(&bar).map_err(err)?;
            // The value above the bar, centred on it, placed from the column's left edge.
            let dx = (left + bar_w / 2.0).round() as i32;
            let label = EmptyElement::at((SegmentValue::Exact(&cols[c]), values[c]))
                + Text::new(
                    labels[c].clone(),
                    (dx, -4),
                    text_style(16, HPos::Center, VPos::Bottom),
                );
            chart.plotting_area().draw(&label).map_err(err)?;
        }
        if let Some(note) = notes.get(c).filter(|n| !n.is_empty()) {
            // Above the column's highest value label, centred on the column.
            let top = series.iter().map(|s| s.0[c]).fold(0.0, f64::max);
            let note = EmptyElement::at((SegmentValue::Exact(&cols[c]), top))
                + Text::new(
                    note.clone(),
                    ((width / 2.0).round() as i32, -24),
                    text_style(15, HPos::Center, VPos::Bottom).color(&NOTE),
                );
            chart.plotting_area().draw(&note).map_err(err)?;
        }
    }
    Ok(())
}

/// The colour of a note in a chart (a p-value).
const NOTE: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// A vertical legend: a colour swatch and a name per entry, from `origin` (pixels in `area`).
fn draw_legend(
    area: &Area<'_>,
    entries: &[(&str, RGBColor)],
    origin: (i32, i32),
) -> Result<(), String> {
    let (x, mut y) = origin;
    for (name, color) in entries {
        area.draw(&Rectangle::new([(x, y), (x + 14, y + 14)], color.filled()))
            .map_err(err)?;
        area.draw(&Text::new(
            name.to_string(),
            (x + 20, y + 7),
            text_style(17, HPos::Left, VPos::Center),
        ))
        .map_err(err)?;
        y += 24;
    }
    Ok(())
}

/// A horizontal legend, entries side by side from `origin`.
fn draw_legend_row(
    area: &Area<'_>,
    entries: &[(&str, RGBColor)],
    origin: (i32, i32),
) -> Result<(), String> {
    let (mut x, y) = origin;
    for (name, color) in entries {
        area.draw(&Rectangle::new([(x, y), (x + 14, y + 14)], color.filled()))
            .map_err(err)?;
        area.draw(&Text::new(
            name.to_string(),
            (x + 20, y + 7),
            text_style(17, HPos::Left, VPos::Center),
        ))
        .map_err(err)?;
        x += 40 + 9 * name.chars().count() as i32;
    }
    Ok(())
}

fn text_style(size: u32, h: HPos, v: VPos) -> TextStyle<'static> {
    TextStyle::from(("sans-serif", size).into_font())
        .color(&RGBColor(0x22, 0x22, 0x22))
        .pos(Pos::new(h, v))
}

/// The end of segment `i`: the start of the next one, or the end of the axis.
fn seg_end(items: &[usize], i: usize) -> SegmentValue<&usize> {
    match items.get(i + 1) {
        Some(next) => SegmentValue::Exact(next),
        None => SegmentValue::Last,
    }
}

/// Pixels to leave above and below a bar in a band of `rows` rows over `height` pixels.
fn bar_padding(height: u32, rows: usize, share: f64) -> u32 {
    (height as f64 / rows.max(1) as f64 * share).round() as u32
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

// ---------------------------------------------------------------------------------------------
// Numbers for humans

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count or mean for humans: thousands separators, one decimal below 100, `–` if not a number.
fn human_float(v: f64) -> String {
    if !v.is_finite() {
        return "–".to_string();
    }
    let sign = if v < 0.0 { "-" } else { "" };
    let a = v.abs();
    if a >= 100.0 {
        format!("{sign}{}", thousands(a.round() as u64))
    } else {
        format!("{sign}{a:.1}")
    }
}

/// A number without useless decimals, for axis ticks: `0`, `2.5`, `1,200`.
fn trim_float(v: f64) -> String {
    if !v.is_finite() {
        return "–".to_string();
    }
    if v.abs() >= 100.0 {
        return human_float(v);
    }
    // Two significant digits below 1 (latencies of a few microseconds stay apart), else two
    // decimals.
    let decimals = if v != 0.0 && v.abs() < 1.0 {
        (1 - v.abs().log10().floor() as i32).max(2) as usize
    } else {
        2
    };
    let s = format!("{v:.decimals$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// Bytes in B, KB, MB or GB (powers of 1000), three significant digits.
fn human_bytes(bytes: u64) -> String {
    human_bytes_f(bytes as f64)
}

fn human_bytes_f(bytes: f64) -> String {
    if !bytes.is_finite() || bytes < 0.0 {
        return "–".to_string();
    }
    if bytes < 1000.0 {
        return format!("{} B", bytes.round() as u64);
    }
    let (value, unit) = [(1e3, "KB"), (1e6, "MB"), (1e9, "GB"), (1e12, "TB")]
        .iter()
        .rev()
        .find(|(scale, _)| bytes >= *scale)
        .map(|(scale, unit)| (bytes / scale, *unit))
        .unwrap_or((bytes / 1e3, "KB"));
    if value >= 100.0 {
        format!("{} {unit}", thousands(value.round() as u64))
    } else if value >= 10.0 {
        format!("{value:.1} {unit}")
    } else {
        format!("{value:.2} {unit}")
    }
}

/// A share (0.423) as a percentage (`42.3 %`).
fn percent(share: f64) -> String {
    if !share.is_finite() {
        return "–".to_string();
    }
    format!("{:.1} %", share * 100.0)
}

/// A latency in milliseconds: thousands separators from 100, one decimal from 10, two from 1,
/// and two significant digits below 1 ms, so that latencies of a few microseconds stay apart
/// (`0.0030 ms`, not `0.00 ms`).
fn millis(ms: f64) -> String {
    if !ms.is_finite() {
        return "–".to_string();
    }
    if ms >= 100.0 {
        format!("{} ms", human_float(ms))
    } else if ms >= 10.0 {
        format!("{ms:.1} ms")
    } else if ms == 0.0 {
        "0 ms".to_string()
    } else if !(0.0..1.0).contains(&ms) {
        format!("{ms:.2} ms")
    } else {
        let decimals = (1 - ms.log10().floor() as i32).max(2) as usize;
        format!("{ms:.decimals$} ms")
    }
}

/// A value to draw: finite and not negative.
fn finite(v: f64) -> f64 {
    if v.is_finite() { v.max(0.0) } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    use super::*;
    use crate::compare::ranking::{Measures, Versus};

    const INDEXES: [&str; 3] = ["fulltext", "topic", "abstract"];

    fn split(total: u64, shares: [f64; 6]) -> ByteSplit {
        let part = |s: f64| (total as f64 * s) as u64;
        ByteSplit {
            total,
            postings: part(shares[0]),
            positions: part(shares[1]),
            store: part(shares[2]),
            term_dictionary: part(shares[3]),
            fast_fields_and_norms: part(shares[4]),
            other: part(shares[5]),
        }
    }

    fn sizes() -> Vec<IndexSize> {
        let rows = [
            (
                6_512_004u64,
                1_204_551u64,
                482_300_112u64,
                [0.21, 0.38, 0.31, 0.07, 0.02, 0.01],
            ),
            (
                2_450_320,
                640_120,
                201_004_776,
                [0.22, 0.36, 0.32, 0.07, 0.02, 0.01],
            ),
            (
                612_877,
                190_431,
                48_120_650,
                [0.18, 0.24, 0.44, 0.1, 0.03, 0.01],
            ),
        ];
        let (full_terms, full_bytes) = (rows[0].0 as f64, rows[0].2 as f64);
        INDEXES
            .iter()
            .zip(rows)
            .map(|(name, (terms, distinct, bytes, shares))| IndexSize {
                index: name.to_string(),
                docs: 48_213,
                terms,
                distinct_terms: distinct,
                bytes: split(bytes, shares),
                terms_ratio: terms as f64 / full_terms,
                bytes_ratio: bytes as f64 / full_bytes,
            })
            .collect()
    }

    fn query_cost() -> QueryCost {
        let rows = [
            (18_204.5, 41_880.0, 0.84, 3.9, 1_730.2),
            (7_310.2, 16_420.0, 0.41, 1.62, 640.8),
            (1_402.9, 3_310.0, 0.12, 0.35, 88.1),
        ];
        QueryCost {
            source: "vocabulary (seed 7)".to_string(),
            queries: 1_000,
            runs: 5,
            per_index: INDEXES
                .iter()
                .zip(rows)
                .map(|(name, (postings, bytes, p50, p95, matches))| IndexCost {
                    index: name.to_string(),
                    postings_per_query: postings,
                    posting_bytes_per_query: bytes,
                    postings_ratio: postings / rows[0].0,
                    latency_p50_ms: p50,
                    latency_p95_ms: p95,
                    matches_per_query: matches,
                })
                .collect(),
        }
    }

    fn scores(pages: usize, hit: f64, false_hit: f64, mrr: f64) -> RetrievalScores {
        RetrievalScores {
            pages,
            with_queries: pages * 3,
            hit_at_10: hit,
            without_queries: pages * 2,
            false_hit_at_10: false_hit,
            title_queries: pages,
            mrr_at_10: mrr,
        }
    }

    fn retrieval(page_type: &str) -> Retrieval {
        let rows = [(0.91, 0.43, 0.62), (0.87, 0.08, 0.66), (0.52, 0.02, 0.81)];
        Retrieval {
            set: "shared/labelled/set-a".to_string(),
            pages: 240,
            pages_missing: 12,
            misses: vec![PageMiss {
                index: "topic".to_string(),
                file_id: "0042".to_string(),
                page_type: page_type.to_string(),
                content_lost: 3,
                boilerplate_hits: 1,
            }],
            per_index: INDEXES
                .iter()
                .zip(rows)
                .map(|(name, (hit, false_hit, mrr))| IndexRetrieval {
                    index: name.to_string(),
                    overall: scores(240, hit, false_hit, mrr),
                    by_type: BTreeMap::from([
                        (
                            "hub".to_string(),
                            scores(60, hit - 0.1, false_hit + 0.05, mrr),
                        ),
                        (page_type.to_string(), scores(180, hit, false_hit, mrr)),
                    ]),
                })
                .collect(),
        }
    }

    /// The p-values of a cleaned index against fulltext, one per measure of [`Measure::ALL`].
    const P_VALUES: [f64; 6] = [0.031, 0.0004, 0.5, 1.0, 0.2, 0.07];

    fn change(qid: &str, query: &str, fulltext: f64, index: f64) -> TopicChange {
        TopicChange {
            qid: qid.to_string(),
            query: query.to_string(),
            fulltext,
            index,
        }
    }

    fn ranking(query: &str) -> Ranking {
        let rows = [
            [0.9799, 0.31, 0.95, 0.99, 0.97, 0.88],
            [0.9755, 0.3, 0.94, 0.99, 0.96, 0.91],
            [0.9785, 0.29, 0.95, 0.98, 0.97, 0.93],
        ];
        Ranking {
            topics_file: "trec/topics.tsv".to_string(),
            qrels_file: "trec/qrels.txt".to_string(),
            docid: "url".to_string(),
            judged_topics: 12,
            unjudged_topics: vec!["13".to_string()],
            judged_not_indexed: 1,
            permutations: 10_000,
            indexes: INDEXES
                .iter()
                .zip(rows)
                .enumerate()
                .map(|(k, (name, m))| IndexRanking {
                    index: name.to_string(),
                    mean: Measures {
                        ndcg_10: m[0],
                        p_10: m[1],
                        ap: m[2],
                        recall_100: m[3],
                        rr_10: m[4],
                        judged_10: m[5],
                    },
                    topics: Vec::new(),
                    versus_fulltext: if k == 0 {
                        Vec::new()
                    } else {
                        Measure::ALL
                            .iter()
                            .zip(P_VALUES)
                            .map(|(&measure, p_value)| Versus {
                                measure,
                                difference: -0.004,
                                p_value,
                            })
                            .collect()
                    },
                    most_gained: if k == 0 {
                        Vec::new()
                    } else {
                        vec![change("7", query, 0.5, 1.0)]
                    },
                    most_lost: if k == 0 {
                        Vec::new()
                    } else {
                        vec![change("3", "dry stone wall", 1.0, 0.631)]
                    },
                })
                .collect(),
        }
    }

    fn full_report() -> CompareReport {
        CompareReport {
            dir: "/data/ingest/run-2024".to_string(),
            sizes: sizes(),
            query_cost: Some(query_cost()),
            retrieval: Some(retrieval("topic")),
            ranking: Some(ranking("water mill")),
            field_weights: Default::default(),
        }
    }

    /// Every `<svg ...>...</svg>` of the page.
    fn svgs(html: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut rest = html;
        while let Some(start) = rest.find("<svg") {
            let end = rest[start..].find("</svg>").expect("an <svg> is closed") + start + 6;
            out.push(&rest[start..end]);
            rest = &rest[end..];
        }
        out
    }

    /// The text elements of an SVG, trimmed.
    fn svg_texts(svg: &str) -> Vec<String> {
        let tree = roxmltree::Document::parse(svg).expect("well-formed SVG");
        tree.descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(|t| t.trim().to_string())
            .collect()
    }

    #[test]
    fn full_report_has_every_part_and_one_svg_per_chart() {
        let html = render_html(&full_report());
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("/data/ingest/run-2024"));
        for section in [
            "Part 1: index size",
            "Part 2: query cost",
            "Part 3: retrieval quality",
            "Part 4: ranked retrieval",
        ] {
            assert!(html.contains(section), "missing {section}");
        }
        for index in INDEXES {
            assert!(
                html.contains(&format!("<td class=\"name\">{index}</td>")),
                "{index}"
            );
        }
        // Numbers for humans.
        assert!(html.contains("6,512,004"), "thousands separators");
        assert!(html.contains("482 MB"), "bytes in MB");
        assert!(
            html.contains("37.6 %"),
            "terms ratio of topic as a percentage"
        );
        assert!(
            html.contains("0.84 ms") && html.contains("3.90 ms"),
            "latency"
        );
        assert!(
            html.contains("91.0 %") && html.contains("43.0 %"),
            "hit and false-hit"
        );
        assert!(html.contains("By page type"));
        // MRR is a mean of reciprocal ranks, not a share: 0.620, never "62.0 %".
        assert!(
            html.contains("<td class=\"num\">0.620</td>"),
            "MRR as a number"
        );
        assert!(
            html.contains("<td class=\"num\">0.810</td>"),
            "MRR as a number"
        );
        assert!(html.contains("each requiring all its words (AND)"));
        // A chart for each of Parts 1 to 3, one per measure in Part 4.
        assert_eq!(svgs(&html).len(), 3 + Measure::ALL.len());
        assert_eq!(html.matches("<figcaption>").count(), 3 + Measure::ALL.len());
        assert!(html.contains("lower is better"));
        for note in ["No query set", "No labelled set", "No test collection"] {
            assert!(!html.contains(note), "{note}");
        }
        assert!(html.contains("<h1>Fulltext, topic and abstract indexes compared</h1>"));
        // Chart labels: the index names, values and legends are drawn as SVG text.
        let charts: Vec<Vec<String>> = svgs(&html).into_iter().map(svg_texts).collect();
        for texts in &charts {
            for index in INDEXES {
                assert!(
                    texts.iter().any(|t| t == index),
                    "{index} labelled: {texts:?}"
                );
            }
        }
        assert!(charts[0].iter().any(|t| t == "term dictionary"));
        assert!(charts[0].iter().any(|t| t == "201 MB (41.7 % of fulltext)"));
        assert!(charts[1].iter().any(|t| t == "p95"));
        assert!(charts[1].iter().any(|t| t == "18,205"));
        assert!(charts[2].iter().any(|t| t.starts_with("false-hit@10")));
        assert!(charts[2].iter().any(|t| t == "43.0 %"));
    }

    /// Part 4: a chart per measure, each index's mean a bar, the cleaned indexes' p-values
    /// against fulltext above theirs; the table of means with p; the topics that move most.
    #[test]
    fn ranking_has_a_chart_per_measure_with_p_values() {
        let html = render_html(&full_report());
        let part = &html[html.find("<h2 id=\"ranking\">").expect("Part 4")..];
        assert!(part.contains("12 judged topics of <code>trec/topics.tsv</code> (1 without"));
        assert!(part.contains("10,000 permutations"));
        let charts = svgs(part);
        assert_eq!(charts.len(), Measure::ALL.len(), "a chart per measure");
        for ((svg, m), p) in charts.iter().zip(Measure::ALL).zip(P_VALUES) {
            let texts = svg_texts(svg);
            assert!(
                texts.iter().any(|t| t == m.label()),
                "{m:?} titled: {texts:?}"
            );
            for index in INDEXES {
                assert!(texts.iter().any(|t| t == index), "{index}: {texts:?}");
            }
            // Each index's mean above its bar, and the p-value of topic and abstract.
            let report = full_report();
            for i in &report.ranking.as_ref().unwrap().indexes {
                let mean = format!("{:.4}", m.of(&i.mean));
                assert!(texts.contains(&mean), "{mean}: {texts:?}");
            }
            let ps: Vec<&String> = texts.iter().filter(|t| t.starts_with("p ")).collect();
            assert_eq!(ps.len(), 2, "a p-value per cleaned index: {texts:?}");
            assert!(ps.iter().all(|t| **t == p_value(p)), "{texts:?}");
        }
        assert!(svg_texts(charts[0]).contains(&"p 0.031".to_string()));
        assert!(svg_texts(charts[1]).contains(&"p < 0.001".to_string()));
        // The captions say what each measure is.
        assert!(part.contains("<figcaption>nDCG@10: the graded gain of the top 10"));
        assert!(part.contains("1 judged document is not in the indexes"));
        assert!(part.contains("MRR@10"));
        // The table of means: fulltext without p, the cleaned indexes with.
        assert!(part.contains("<th>nDCG@10</th><th>P@10</th>"));
        assert!(part.contains("<td class=\"name\">fulltext</td><td class=\"num\">0.9799</td>"));
        assert!(part.contains("<td class=\"num\">0.9755 (p 0.031)</td>"));
        let doc = scraper::Html::parse_document(part);
        assert!(
            texts_of(&doc, "td")
                .iter()
                .any(|t| t == "0.3000 (p < 0.001)")
        );
        // The topics that move most.
        assert!(part.contains("<h3>topic gains most in nDCG@10</h3>"));
        assert!(part.contains("<h3>abstract loses most in nDCG@10</h3>"));
        assert!(part.contains("<td>dry stone wall</td>"));
        assert!(!part.contains("fulltext gains"));
    }

    /// The page shows whatever indexes the report lists: a fourth one gets its rows, its bars
    /// and its place in the headline.
    #[test]
    fn renders_whatever_indexes_the_report_lists() {
        let mut report = full_report();
        let fourth = "docview";
        let mut size = report.sizes[1].clone();
        size.index = fourth.to_string();
        report.sizes.push(size);
        if let Some(cost) = report.query_cost.as_mut() {
            let mut c = cost.per_index[1].clone();
            c.index = fourth.to_string();
            cost.per_index.push(c);
        }
        if let Some(r) = report.retrieval.as_mut() {
            let mut i = r.per_index[1].clone();
            i.index = fourth.to_string();
            r.per_index.push(i);
        }
        if let Some(r) = report.ranking.as_mut() {
            let mut i = r.indexes[1].clone();
            i.index = fourth.to_string();
            r.indexes.push(i);
        }
        let html = render_html(&report);
        assert!(html.contains("<h1>Fulltext, topic, abstract and docview indexes compared</h1>"));
        assert!(html.contains(
            "<p class=\"lead\"><b>fulltext</b> indexes all visible text of the raw pages, \
             <b>topic</b> the cleaned topic content, <b>abstract</b> the title, abstract and \
             keywords of each DocView record, <b>docview</b> the title, keywords, abstract and \
             topic content of each DocView record, each a field of its own, searched together \
             with field weights.</p>"
        ));
        assert!(
            html.contains("field weights: <code>title=0.25,keywords=0,abstract=0,topic=1</code>")
        );
        // Sizes, cost, retrieval (all pages, two page types), ranking.
        let row = format!("<td class=\"name\">{fourth}</td>");
        assert_eq!(html.matches(&row).count(), 6);
        let charts = svgs(&html);
        assert_eq!(charts.len(), 3 + Measure::ALL.len());
        for svg in charts {
            assert!(svg_texts(svg).iter().any(|t| t == fourth));
        }
        let doc = scraper::Html::parse_document(&html);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    }

    #[test]
    fn page_is_self_contained() {
        let html = render_html(&full_report());
        let lower = html.to_ascii_lowercase();
        for banned in [
            "src=",
            "href=",
            "<script",
            "<link",
            "@import",
            "url(",
            "<img",
            "<iframe",
            "<object",
            "<embed",
            "@font-face",
        ] {
            assert!(!lower.contains(banned), "the page has {banned}");
        }
        // The only URL is the SVG namespace, which is a name, not something fetched.
        let namespace = "xmlns=\"http://www.w3.org/2000/svg\"";
        assert_eq!(
            lower.matches("http").count(),
            lower.matches(namespace).count()
        );
    }

    #[test]
    fn page_is_well_formed_html_with_valid_svg() {
        let html = render_html(&full_report());
        let doc = scraper::Html::parse_document(&html);
        assert!(doc.errors.is_empty(), "HTML parse errors: {:?}", doc.errors);
        let svg = scraper::Selector::parse("figure > svg").unwrap();
        assert_eq!(doc.select(&svg).count(), 3 + Measure::ALL.len());
        let cells = scraper::Selector::parse("table td").unwrap();
        assert!(doc.select(&cells).count() > 30);
        for svg in svgs(&html) {
            let tree = roxmltree::Document::parse(svg)
                .unwrap_or_else(|e| panic!("SVG is not well-formed XML: {e}\n{svg}"));
            let root = tree.root_element();
            assert_eq!(root.tag_name().name(), "svg");
            assert!(root.attribute("viewBox").is_some(), "scalable SVG");
            assert!(root.descendants().any(|n| n.has_tag_name("rect")));
            assert!(root.descendants().any(|n| n.has_tag_name("text")));
        }
    }

    #[test]
    fn missing_parts_are_notes() {
        let report = CompareReport {
            dir: "out".to_string(),
            sizes: sizes(),
            query_cost: None,
            retrieval: None,
            ranking: None,
            field_weights: Default::default(),
        };
        let html = render_html(&report);
        assert!(html.contains("Part 1: index size"));
        assert!(html.contains("No query set"));
        assert!(html.contains("No labelled set: run with <code>--corpus SET</code>"));
        assert!(html.contains("Part 4: ranked retrieval"));
        assert!(
            html.contains("No test collection: run with <code>--topics FILE --qrels FILE</code>")
        );
        assert_eq!(svgs(&html).len(), 1, "only the size chart");
        assert!(!html.contains("Postings read per query"));
        let doc = scraper::Html::parse_document(&html);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    }

    /// The texts of the elements `selector` selects.
    fn texts_of(doc: &scraper::Html, selector: &str) -> Vec<String> {
        let selector = scraper::Selector::parse(selector).unwrap();
        doc.select(&selector)
            .map(|e| e.text().collect::<String>())
            .collect()
    }

    #[test]
    fn text_is_escaped() {
        let mut report = full_report();
        report.dir = "/tmp/<dir> & \"more\"".to_string();
        report.retrieval = Some(retrieval("a<b&c"));
        report.sizes[1].index = "to<p>ic".to_string();
        if let Some(cost) = report.query_cost.as_mut() {
            cost.source = "file q<1>.txt".to_string();
        }
        report.ranking = Some(ranking("'a' & <b>"));
        let html = render_html(&report);
        for raw in ["<dir>", "a<b&c", "to<p>ic", "q<1>", "& <b>"] {
            assert!(!html.contains(raw), "{raw} unescaped");
        }
        let doc = scraper::Html::parse_document(&html);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        // What was escaped reads as it was.
        assert_eq!(texts_of(&doc, "p.dir code"), [report.dir.as_str()]);
        assert_eq!(
            texts_of(&doc, "title"),
            [format!("docview compare: {}", report.dir)]
        );
        let cells = texts_of(&doc, "td");
        for text in ["a<b&c", "to<p>ic", "'a' & <b>"] {
            assert!(cells.iter().any(|c| c == text), "{text}");
        }
        assert!(
            texts_of(&doc, "p.meta")
                .iter()
                .any(|p| p.contains("file q<1>.txt"))
        );
        for svg in svgs(&html) {
            roxmltree::Document::parse(svg).expect("escaped SVG text");
        }
        // In the charts too, by plotters.
        assert!(svg_texts(svgs(&html)[0]).iter().any(|t| t == "to<p>ic"));
    }

    /// A directory name, an index name, a query or a page type with a script stays text: no
    /// script element anywhere on the page, the charts' labels included.
    #[test]
    fn a_script_in_the_report_is_text() {
        let script = "<script>alert(1)</script>";
        let mut report = full_report();
        report.dir = format!("/tmp/{script}");
        report.sizes[2].index = script.to_string();
        if let Some(cost) = report.query_cost.as_mut() {
            cost.per_index[2].index = script.to_string();
            cost.source = format!("file {script}");
        }
        report.retrieval = Some(retrieval(script));
        if let Some(r) = report.retrieval.as_mut() {
            r.per_index[2].index = script.to_string();
            r.set = script.to_string();
        }
        let mut ranking = ranking(script);
        ranking.indexes[2].index = script.to_string();
        ranking.topics_file = script.to_string();
        report.ranking = Some(ranking);
        let html = render_html(&report);
        assert!(!html.to_ascii_lowercase().contains("<script"), "{html}");
        let doc = scraper::Html::parse_document(&html);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        assert_eq!(texts_of(&doc, "script").len(), 0);
        assert!(texts_of(&doc, "td").iter().any(|t| t == script));
        let charts = svgs(&html);
        assert_eq!(charts.len(), 3 + Measure::ALL.len());
        for svg in charts {
            // Each chart names the index, as text.
            assert!(svg_texts(svg).iter().any(|t| t == script), "{svg}");
        }
    }

    #[test]
    fn same_report_same_page() {
        assert_eq!(render_html(&full_report()), render_html(&full_report()));
    }

    #[test]
    fn odd_values_render() {
        // Zeros, NaN and empty parts: no panic, still well-formed.
        let mut report = full_report();
        for s in &mut report.sizes {
            s.bytes = ByteSplit::default();
            s.terms_ratio = f64::NAN;
        }
        if let Some(cost) = report.query_cost.as_mut() {
            for c in &mut cost.per_index {
                c.postings_per_query = 0.0;
                c.latency_p50_ms = f64::NAN;
                c.latency_p95_ms = f64::INFINITY;
            }
        }
        if let Some(r) = report.retrieval.as_mut() {
            r.per_index[0].overall = RetrievalScores::default();
        }
        if let Some(r) = report.ranking.as_mut() {
            r.indexes[0].mean.ndcg_10 = f64::NAN;
            r.indexes[1].mean = Measures::default();
            r.indexes[2].mean.ndcg_10 = f64::NAN;
            r.indexes[2].versus_fulltext[0].p_value = f64::NAN;
        }
        let html = render_html(&report);
        assert!(html.contains("<td class=\"num\">–</td>"));
        assert!(html.contains("<td class=\"num\">– (p –)</td>"));
        let doc = scraper::Html::parse_document(&html);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        for svg in svgs(&html) {
            roxmltree::Document::parse(svg).expect("well-formed SVG");
        }
        let empty = CompareReport {
            dir: String::new(),
            sizes: Vec::new(),
            query_cost: Some(QueryCost {
                per_index: Vec::new(),
                ..query_cost()
            }),
            retrieval: Some(Retrieval {
                per_index: Vec::new(),
                ..retrieval("topic")
            }),
            ranking: Some(Ranking {
                indexes: Vec::new(),
                ..ranking("q")
            }),
            field_weights: Default::default(),
        };
        let html = render_html(&empty);
        assert!(html.contains("No index found"));
        assert_eq!(html.matches("No index measured").count(), 3);
        assert!(html.contains("<h1>Indexes compared</h1>"));
        assert!(svgs(&html).is_empty());
    }

    #[test]
    fn numbers_for_humans() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1_500), "1.50 KB");
        assert_eq!(human_bytes(48_120_650), "48.1 MB");
        assert_eq!(human_bytes(482_300_112), "482 MB");
        assert_eq!(human_bytes(3_200_000_000), "3.20 GB");
        assert_eq!(percent(0.4231), "42.3 %");
        assert_eq!(percent(f64::NAN), "–");
        assert_eq!(human_float(18_204.5), "18,205");
        assert_eq!(human_float(88.14), "88.1");
        assert_eq!(millis(0.84), "0.84 ms");
        assert_eq!(millis(1_234.0), "1,234 ms");
        assert_eq!(trim_float(2.5), "2.5");
        assert_eq!(trim_float(3.0), "3");
    }

    /// Latencies of a few microseconds keep their significant digits (the terminal table
    /// prints 0.003 ms; the page once showed 0.00 ms for every index).
    #[test]
    fn latency_keeps_significant_digits() {
        assert_eq!(millis(0.003), "0.0030 ms");
        assert_eq!(millis(0.00412), "0.0041 ms");
        assert_eq!(millis(0.0456), "0.046 ms");
        assert_eq!(millis(0.84), "0.84 ms");
        assert_eq!(millis(2.5), "2.50 ms");
        assert_eq!(millis(12.34), "12.3 ms");
        assert_eq!(millis(0.0), "0 ms");
        assert_ne!(millis(0.003), millis(0.004));
    }

    /// `name` on PATH, if any.
    fn on_path(name: &str) -> Option<PathBuf> {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    }

    fn run_with_timeout(cmd: &mut Command, limit: Duration) -> Option<std::process::ExitStatus> {
        let mut child = cmd.spawn().expect("start chromium");
        let start = Instant::now();
        loop {
            if let Some(status) = child.try_wait().expect("wait for chromium") {
                return Some(status);
            }
            if start.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn png_size(path: &Path) -> Option<(u32, u32)> {
        let bytes = std::fs::read(path).ok()?;
        if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" {
            return None;
        }
        let be =
            |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        Some((be(16), be(20)))
    }

    /// Renders the page in headless Chromium when one is installed (`apt-get install -y
    /// --no-install-recommends chromium`); skips with a message otherwise.
    #[test]
    fn renders_in_headless_chromium() {
        let Some(chromium) = ["chromium", "chromium-browser", "google-chrome"]
            .iter()
            .find_map(|name| on_path(name))
        else {
            eprintln!("skipped: no chromium on PATH (apt-get install -y chromium)");
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("compare.html");
        let png = dir.path().join("compare.png");
        std::fs::write(&page, render_html(&full_report())).unwrap();
        let start = Instant::now();
        let status = run_with_timeout(
            Command::new(&chromium)
                .arg("--headless")
                .arg("--no-sandbox")
                .arg("--disable-gpu")
                .arg("--disable-dev-shm-usage")
                .arg("--no-first-run")
                .arg("--hide-scrollbars")
                .arg(format!(
                    "--user-data-dir={}",
                    dir.path().join("profile").display()
                ))
                .arg(format!("--screenshot={}", png.display()))
                // Tall enough for the whole page, Part 4's charts included.
                .arg("--window-size=1200,5200")
                .arg(format!("file://{}", page.display()))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
            Duration::from_secs(120),
        );
        let status = status.expect("chromium finished within 120 s");
        eprintln!(
            "chromium {} rendered the page in {:.1} s",
            chromium.display(),
            start.elapsed().as_secs_f64()
        );
        assert!(status.success(), "chromium failed: {status}");
        let size = std::fs::metadata(&png).expect("a screenshot").len();
        assert!(size > 20_000, "screenshot of {size} bytes");
        assert_eq!(png_size(&png), Some((1200, 5200)));
        if let Some(keep) = std::env::var_os("DOCVIEW_KEEP_SCREENSHOT") {
            std::fs::copy(&png, keep).unwrap();
        }
    }
}
