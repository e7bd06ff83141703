//! The comparison report as one self-contained HTML5 page: inline `<style>`, charts as inline
//! `<svg>` drawn by `plotters`' SVG backend (no script, no stylesheet, font or image to fetch).
//!
//! `plotters` is built without its `ttf` and `ab_glyph` features: it then lays text out with a
//! crude width estimate and writes `<text>` elements with a generic `sans-serif` family, which the
//! browser renders with whatever font it has. No font file is read, at build or at run time.

use std::fmt::Write as _;

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::output::escape_html_into;

use super::report::{
    ByteSplit, CompareReport, IndexCost, IndexRetrieval, IndexSize, PageMiss, QueryCost, Retrieval,
    RetrievalScores,
};

/// Renders `report` as a self-contained HTML5 page: Part 1 (index size), Part 2 (query cost) and
/// Part 3 (retrieval quality), each a table and a chart with a caption; a missing part is a
/// one-line note. The same report always gives the same bytes.
pub fn render_html(report: &CompareReport) -> String {
    let mut page = String::with_capacity(64 * 1024);
    let dir = esc(&report.dir);
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>docview compare: {dir}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>Fulltext, topic and abstract indexes compared</h1>\n\
         <p class=\"dir\">Ingest directory: <code>{dir}</code></p>\n\
         <p class=\"lead\"><b>fulltext</b> indexes all visible text of the raw pages, \
         <b>topic</b> the cleaned topic content, <b>abstract</b> the title, abstract and \
         keywords of each DocView record.</p>\n"
    );
    part_sizes(&mut page, &report.sizes);
    part_query_cost(&mut page, report.query_cost.as_ref());
    part_retrieval(&mut page, report.retrieval.as_ref());
    if let Some(ranking) = &report.ranking {
        part_ranking(&mut page, ranking);
    }
    page.push_str("</body>\n</html>\n");
    page
}

/// Part 4: ranked retrieval on a test collection: each index's means, the p-value of each
/// cleaned index against the full text, and the topics that move most.
fn part_ranking(page: &mut String, r: &super::ranking::Ranking) {
    use super::ranking::Measure;
    let _ = write!(
        page,
        "<h2>4. Ranked retrieval</h2>\n<p class=\"meta\">{} judged topics of <code>{}</code> \
         ({} without judgments left out), judgments <code>{}</code>, document ids from \
         <code>{}</code>; {} judged documents are not in the indexes. p: two-sided paired \
         randomization test against fulltext, {} permutations.</p>\n<table>\n<tr><th>index</th>",
        r.judged_topics,
        esc(&r.topics_file),
        r.unjudged_topics.len(),
        esc(&r.qrels_file),
        esc(&r.docid),
        r.judged_not_indexed,
        r.permutations
    );
    for m in Measure::ALL {
        let _ = write!(page, "<th>{}</th>", m.label());
    }
    page.push_str("</tr>\n");
    for i in &r.indexes {
        let _ = write!(page, "<tr><td class=\"name\">{}</td>", esc(&i.index));
        for m in Measure::ALL {
            let p = i
                .versus_fulltext
                .iter()
                .find(|v| v.measure == m)
                .map_or(String::new(), |v| format!(" (p {:.3})", v.p_value));
            let _ = write!(page, "<td class=\"num\">{:.4}{p}</td>", m.of(&i.mean));
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</table>\n");
    for i in &r.indexes {
        for (what, topics) in [("gains", &i.most_gained), ("loses", &i.most_lost)] {
            if topics.is_empty() {
                continue;
            }
            let _ = write!(
                page,
                "<h3>{} {what} most in nDCG@10</h3>\n<table>\n<tr><th>topic</th><th>query</th>\
                 <th>fulltext</th><th>{}</th></tr>\n",
                esc(&i.index),
                esc(&i.index)
            );
            for t in topics {
                let _ = writeln!(
                    page,
                    "<tr><td>{}</td><td>{}</td><td class=\"num\">{:.3}</td>\
                     <td class=\"num\">{:.3}</td></tr>",
                    esc(&t.qid),
                    esc(&t.query),
                    t.fulltext,
                    t.index
                );
            }
            page.push_str("</table>\n");
        }
    }
}

const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;\
margin:2em auto;max-width:1200px;padding:0 1em;color:#222;line-height:1.4}\
h1{font-size:1.6em;margin-bottom:.2em}h2{margin-top:2em;border-bottom:1px solid #ccc}\
h3{font-size:1.05em;margin-top:1.5em}\
code{background:#f3f3f3;padding:.1em .3em;border-radius:3px}\
p.lead,p.meta{color:#444}p.note{font-style:italic;color:#666}\
table{border-collapse:collapse;margin:1em 0;font-size:.92em}\
th,td{border:1px solid #ccc;padding:.3em .6em}th{background:#f3f3f3}\
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
td.name{font-weight:600}\
figure{margin:1.5em 0}figure svg{max-width:100%;height:auto;display:block}\
figcaption{color:#444;font-size:.92em;margin-top:.4em;max-width:60em}";

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

fn part_sizes(page: &mut String, sizes: &[IndexSize]) {
    page.push_str("<h2 id=\"size\">Part 1: index size</h2>\n");
    if sizes.is_empty() {
        page.push_str("<p class=\"note\">No index found.</p>\n");
        return;
    }
    page.push_str(
        "<p class=\"meta\">The paper's Table 3. Bytes are tantivy's space usage summed over \
         segments (1 MB = 1,000,000 bytes); ratios are to fulltext.</p>\n\
         <table>\n<thead>\n<tr><th rowspan=\"2\">index</th><th rowspan=\"2\">documents</th>\
         <th colspan=\"3\">terms</th><th colspan=\"8\">bytes on disk</th></tr>\n\
         <tr><th>sum</th><th>% of fulltext</th><th>distinct</th><th>total</th>\
         <th>% of fulltext</th><th>postings</th><th>positions</th><th>store</th>\
         <th>term dictionary</th><th>fast fields + norms</th><th>other</th></tr>\n\
         </thead>\n<tbody>\n",
    );
    for s in sizes {
        let _ = write!(
            page,
            "<tr><td class=\"name\">{}</td>{}{}{}{}{}{}",
            esc(&s.index),
            num_cell(&thousands(s.docs)),
            num_cell(&thousands(s.terms)),
            num_cell(&percent(s.terms_ratio)),
            num_cell(&thousands(s.distinct_terms)),
            bytes_cell(s.bytes.total),
            num_cell(&percent(s.bytes_ratio)),
        );
        for part in byte_parts(&s.bytes) {
            page.push_str(&bytes_cell(part));
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</tbody>\n</table>\n");
    figure(
        page,
        chart_bytes(sizes),
        "Bytes on disk of each index, by part",
        "Bytes on disk of each index, split by what they hold (stacked, in MB); the label at the \
         end of each bar is its total and its share of fulltext's. Postings and positions grow \
         with the indexed text, the store with the stored fields.",
    );
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

fn part_query_cost(page: &mut String, cost: Option<&QueryCost>) {
    page.push_str("<h2 id=\"query-cost\">Part 2: query cost</h2>\n");
    let Some(cost) = cost else {
        page.push_str("<p class=\"note\">No query set: query cost was not measured.</p>\n");
        return;
    };
    let _ = writeln!(
        page,
        "<p class=\"meta\">The paper's Figure 6. Queries: {} from {}, each requiring all its \
         words (AND); each timed over {} warm run{}. Postings read per query is the sum of the \
         query terms' document frequencies, the disk-access proxy.</p>",
        thousands(cost.queries as u64),
        esc(&cost.source),
        thousands(cost.runs as u64),
        if cost.runs == 1 { "" } else { "s" },
    );
    if cost.per_index.is_empty() {
        page.push_str("<p class=\"note\">No index measured.</p>\n");
        return;
    }
    page.push_str(
        "<table>\n<thead>\n<tr><th>index</th><th>postings read / query</th>\
         <th>posting bytes / query</th><th>postings, % of fulltext</th>\
         <th>latency p50</th><th>latency p95</th><th>matches / query</th></tr>\n\
         </thead>\n<tbody>\n",
    );
    for c in &cost.per_index {
        let _ = writeln!(
            page,
            "<tr><td class=\"name\">{}</td>{}{}{}{}{}{}</tr>",
            esc(&c.index),
            num_cell(&human_float(c.postings_per_query)),
            num_cell(&human_bytes_f(c.posting_bytes_per_query)),
            num_cell(&percent(c.postings_ratio)),
            num_cell(&millis(c.latency_p50_ms)),
            num_cell(&millis(c.latency_p95_ms)),
            num_cell(&human_float(c.matches_per_query)),
        );
    }
    page.push_str("</tbody>\n</table>\n");
    figure(
        page,
        chart_cost(&cost.per_index),
        "Postings read per query and latency of each index",
        "Left: posting-list entries read per query (mean over the query set), the proxy for \
         disk access; fewer is cheaper. Right: latency of one query in milliseconds, median \
         (p50) and 95th percentile (p95) of the warm runs; lower is better.",
    );
}

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
            &|v| trim_float(*v),
        )?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

// ---------------------------------------------------------------------------------------------
// Part 3: retrieval quality

fn part_retrieval(page: &mut String, retrieval: Option<&Retrieval>) {
    page.push_str("<h2 id=\"retrieval\">Part 3: retrieval quality</h2>\n");
    let Some(r) = retrieval else {
        page.push_str(
            "<p class=\"note\">No labelled set: run with <code>--corpus SET</code> to measure \
             retrieval quality.</p>\n",
        );
        return;
    };
    let _ = writeln!(
        page,
        "<p class=\"meta\">Labelled set {}: {} pages found among the ingested documents, {} \
         missing from the indexes (removed as replicas, skipped or not ingested). \
         <b>hit@10</b>: share of content snippets whose page is in the top 10 (higher is \
         better); <b>false-hit@10</b>: share of boilerplate snippets whose page is in the top \
         10 (lower is better); snippet queries require all their words (AND); \
         <b>MRR@10</b>: mean reciprocal rank of the page for its title, any of its words (OR), \
         from 0 to 1 (higher is better).</p>",
        esc(&r.set),
        thousands(r.pages as u64),
        thousands(r.pages_missing as u64),
    );
    if r.per_index.is_empty() {
        page.push_str("<p class=\"note\">No index measured.</p>\n");
        return;
    }
    page.push_str("<h3>All pages</h3>\n");
    scores_table(
        page,
        false,
        r.per_index.iter().map(|i| (None, i, &i.overall)),
    );
    let types: std::collections::BTreeSet<&String> =
        r.per_index.iter().flat_map(|i| i.by_type.keys()).collect();
    if !types.is_empty() {
        page.push_str("<h3>By page type</h3>\n");
        scores_table(
            page,
            true,
            types.iter().flat_map(|t| {
                r.per_index
                    .iter()
                    .filter_map(move |i| i.by_type.get(*t).map(|s| (Some(t.as_str()), i, s)))
            }),
        );
    }
    figure(
        page,
        chart_retrieval(&r.per_index),
        "hit@10 and false-hit rate@10 of each index",
        "hit@10: share of content snippets for which the page is in the top 10; higher is \
         better. False-hit rate@10: share of boilerplate snippets for which the page is in the \
         top 10; lower is better. All pages of the labelled set together.",
    );
    misses_table(page, &r.misses);
}

/// The pages the cleaned indexes lose most on.
fn misses_table(page: &mut String, misses: &[PageMiss]) {
    if misses.is_empty() {
        return;
    }
    page.push_str(
        "<h3>Pages the cleaned indexes lose most on</h3>\n<p>Content snippets that find the \
         page in fulltext's top 10 but not in this index's (cleaning dropped content), and \
         boilerplate snippets that still find it (cleaning kept boilerplate).</p>\n<table>\n\
         <tr><th>index</th><th>page</th><th>page type</th><th>content lost</th>\
         <th>boilerplate hits</th></tr>\n",
    );
    for m in misses {
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td></tr>",
            esc(&m.index),
            esc(&m.file_id),
            esc(&m.page_type),
            m.content_lost,
            m.boilerplate_hits
        );
    }
    page.push_str("</table>\n");
}

fn scores_table<'a>(
    page: &mut String,
    with_type: bool,
    rows: impl Iterator<Item = (Option<&'a str>, &'a IndexRetrieval, &'a RetrievalScores)>,
) {
    page.push_str("<table>\n<thead>\n<tr>");
    if with_type {
        page.push_str("<th>page type</th>");
    }
    page.push_str(
        "<th>index</th><th>pages</th><th>content snippets</th><th>hit@10</th>\
         <th>boilerplate snippets</th><th>false-hit@10</th><th>titles</th><th>MRR@10</th></tr>\n\
         </thead>\n<tbody>\n",
    );
    for (page_type, index, s) in rows {
        page.push_str("<tr>");
        if let Some(t) = page_type {
            let _ = write!(page, "<td>{}</td>", esc(t));
        }
        let rate = |n: usize, v: f64| {
            if n == 0 {
                "–".to_string()
            } else {
                percent(v)
            }
        };
        let _ = writeln!(
            page,
            "<td class=\"name\">{}</td>{}{}{}{}{}{}{}</tr>",
            esc(&index.index),
            num_cell(&thousands(s.pages as u64)),
            num_cell(&thousands(s.with_queries as u64)),
            num_cell(&rate(s.with_queries, s.hit_at_10)),
            num_cell(&thousands(s.without_queries as u64)),
            num_cell(&rate(s.without_queries, s.false_hit_at_10)),
            num_cell(&thousands(s.title_queries as u64)),
            num_cell(&if s.title_queries == 0 {
                "–".to_string()
            } else {
                format!("{:.3}", s.mrr_at_10)
            }),
        );
    }
    page.push_str("</tbody>\n</table>\n");
}

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

/// Vertical bars, one group per index, one bar per series (values, value labels, colour).
fn bar_panel<T: Named>(
    area: &Area<'_>,
    indexes: &[T],
    title: &str,
    y_desc: &str,
    series: &[(&[f64], &[String], RGBColor)],
    y_fmt: &dyn Fn(&f64) -> String,
) -> Result<(), String> {
    let n = indexes.len();
    let cols: Vec<usize> = (0..n).collect();
    let y_max = series
        .iter()
        .flat_map(|s| s.0.iter().copied())
        .fold(0.0, f64::max);
    let y_max = if y_max > 0.0 { y_max * 1.15 } else { 1.0 };
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
    }
    Ok(())
}

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

/// A chart with its caption; a chart that could not be drawn is a note.
fn figure(page: &mut String, svg: Result<String, String>, label: &str, caption: &str) {
    page.push_str("<figure>\n");
    match svg {
        Ok(svg) => {
            let svg = svg.trim();
            match svg.strip_prefix("<svg ") {
                Some(rest) => {
                    let _ = write!(
                        page,
                        "<svg role=\"img\" aria-label=\"{}\" {rest}",
                        esc(label)
                    );
                }
                None => page.push_str(svg),
            }
        }
        Err(e) => {
            let _ = write!(
                page,
                "<p class=\"note\">The chart could not be drawn: {}</p>",
                esc(&e)
            );
        }
    }
    let _ = writeln!(
        page,
        "\n<figcaption>{}</figcaption>\n</figure>",
        esc(caption)
    );
}

// ---------------------------------------------------------------------------------------------
// Text

/// HTML-escapes text for element content and double-quoted attribute values.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_html_into(&mut out, text);
    out
}

fn num_cell(text: &str) -> String {
    format!("<td class=\"num\">{}</td>", esc(text))
}

fn bytes_cell(bytes: u64) -> String {
    format!(
        "<td class=\"num\" title=\"{} bytes\">{}</td>",
        thousands(bytes),
        esc(&human_bytes(bytes))
    )
}

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

    fn full_report() -> CompareReport {
        CompareReport {
            dir: "/data/ingest/run-2024".to_string(),
            sizes: sizes(),
            query_cost: Some(query_cost()),
            retrieval: Some(retrieval("topic")),
            ranking: None,
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
        assert_eq!(svgs(&html).len(), 3, "one chart per part");
        assert_eq!(html.matches("<figcaption>").count(), 3);
        assert!(html.contains("lower is better"));
        assert!(!html.contains("No query set") && !html.contains("No labelled set"));
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
        assert_eq!(doc.select(&svg).count(), 3);
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
        assert_eq!(svgs(&html).len(), 1, "only the size chart");
        assert!(!html.contains("Postings read per query"));
        let doc = scraper::Html::parse_document(&html);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
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
        let html = render_html(&report);
        assert!(html.contains("<td>a&lt;b&amp;c</td>"));
        assert!(!html.contains("a<b&c"));
        assert!(html.contains("/tmp/&lt;dir&gt; &amp; &quot;more&quot;"));
        assert!(html.contains("to&lt;p&gt;ic"));
        assert!(!html.contains("to<p>ic"));
        assert!(html.contains("file q&lt;1&gt;.txt"));
        let doc = scraper::Html::parse_document(&html);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        for svg in svgs(&html) {
            roxmltree::Document::parse(svg).expect("escaped SVG text");
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
        let html = render_html(&report);
        assert!(html.contains("<td class=\"num\">–</td>"));
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
            ranking: None,
            field_weights: Default::default(),
        };
        let html = render_html(&empty);
        assert!(html.contains("No index found"));
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
                .arg("--window-size=1200,2000")
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
        assert_eq!(png_size(&png), Some((1200, 2000)));
        if let Some(keep) = std::env::var_os("DOCVIEW_KEEP_SCREENSHOT") {
            std::fs::copy(&png, keep).unwrap();
        }
    }
}
