//! Charset decoding on the real development corpora in `../shared/corpus`: the old Chinese pages
//! of zh-news-dev (many GB2312) must decode cleanly, and no page of wcxb-dev or dragnet-dev may
//! come out with more than 1% U+FFFD. Skipped when the corpus is not there.

use crate::common::CORPUS;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use docview::input::{decode_html, looks_binary, read_page_bytes};
use docview::text::is_cjk;
use rayon::prelude::*;

/// What decoding one page gave.
struct PageStats {
    name: String,
    source: &'static str,
    encoding: &'static str,
    chars: usize,
    replacements: usize,
    cjk: usize,
    binary: bool,
}

impl PageStats {
    fn replacement_share(&self) -> f64 {
        self.replacements as f64 / self.chars.max(1) as f64
    }
}

fn set_dir(set: &str) -> Option<PathBuf> {
    let dir = Path::new(CORPUS).join(set).join("html");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!(
            "skipping: ../shared/corpus not found ({} missing)",
            dir.display()
        );
        None
    }
}

fn decode_set(dir: &Path) -> Vec<PageStats> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read html dir")
        .map(|entry| entry.expect("dir entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
        .collect();
    paths.sort();
    paths.par_iter().map(|p| decode_page(p)).collect()
}

fn decode_page(path: &Path) -> PageStats {
    let bytes = read_page_bytes(path).expect("read page");
    let decoded = decode_html(&bytes, None);
    let (mut chars, mut replacements, mut cjk) = (0, 0, 0);
    for c in decoded.text.chars() {
        chars += 1;
        replacements += usize::from(c == '\u{FFFD}');
        cjk += usize::from(is_cjk(c));
    }
    PageStats {
        name: path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        source: decoded.source.as_str(),
        encoding: decoded.encoding.name(),
        chars,
        replacements,
        cjk,
        binary: looks_binary(&bytes),
    }
}

fn print_summary(set: &str, pages: &[PageStats]) {
    let mut by_source: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for p in pages {
        *by_source.entry((p.source, p.encoding)).or_default() += 1;
    }
    println!("{set}: {} pages decoded", pages.len());
    for ((source, encoding), n) in &by_source {
        println!("  {source:<10} {encoding:<14} {n:>5}");
    }
    let with_replacements: Vec<_> = pages.iter().filter(|p| p.replacements > 0).collect();
    println!("  pages with any U+FFFD: {}", with_replacements.len());
    for p in with_replacements {
        println!(
            "    {} {} {}: {} of {} chars ({:.4}%)",
            p.name,
            p.source,
            p.encoding,
            p.replacements,
            p.chars,
            100.0 * p.replacement_share()
        );
    }
}

#[test]
fn zh_news_pages_decode_to_chinese() {
    let Some(dir) = set_dir("zh-news-dev") else {
        return;
    };
    let pages = decode_set(&dir);
    print_summary("zh-news-dev", &pages);
    assert!(!pages.is_empty());
    for p in &pages {
        assert!(!p.binary, "{} looks binary", p.name);
        assert!(
            p.replacement_share() < 0.001,
            "{}: {} U+FFFD in {} chars ({} from {})",
            p.name,
            p.replacements,
            p.chars,
            p.encoding,
            p.source
        );
        assert!(
            p.cjk > 0,
            "{}: no CJK ideograph ({} from {})",
            p.name,
            p.encoding,
            p.source
        );
    }
}

#[test]
fn wcxb_pages_decode_cleanly() {
    let Some(dir) = set_dir("wcxb-dev") else {
        return;
    };
    let pages = decode_set(&dir);
    print_summary("wcxb-dev", &pages);
    assert_eq!(pages.len(), 1495);
    for p in &pages {
        assert!(!p.binary, "{} looks binary", p.name);
        assert!(
            p.replacement_share() <= 0.01,
            "{}: {} U+FFFD in {} chars ({} from {})",
            p.name,
            p.replacements,
            p.chars,
            p.encoding,
            p.source
        );
    }
}

#[test]
fn dragnet_pages_decode_cleanly() {
    let Some(dir) = set_dir("dragnet-dev") else {
        return;
    };
    let pages = decode_set(&dir);
    print_summary("dragnet-dev", &pages);
    for p in &pages {
        assert!(!p.binary, "{} looks binary", p.name);
        assert!(
            p.replacement_share() <= 0.01,
            "{}: {:.3}% U+FFFD",
            p.name,
            100.0 * p.replacement_share()
        );
    }
}
