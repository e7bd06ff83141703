//! The code's layout rules that the compiler does not keep (ARCHITECTURE.md, issue 29): the
//! pipeline crate's `lib.rs` and every `mod.rs` only declare modules and re-export, so no
//! module can import from a module that contains it; the stage files and the binary's
//! `main.rs` stay small; a cleaner's name is written in one place; the collection layer and
//! the lab do not depend on the pipeline.

use std::path::{Path, PathBuf};

use crate::common::ROOT;

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The statements of a Rust file that are not module declarations, `use` lines, attributes or
/// comments.
fn items_besides_modules_and_uses(text: &str) -> Vec<String> {
    let code: String = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && !l.starts_with("#[") && !l.starts_with("#!["))
        .collect::<Vec<_>>()
        .join(" ");
    code.split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .filter(|s| {
            let s = s.strip_prefix("pub(crate) ").unwrap_or(s);
            let s = s.strip_prefix("pub ").unwrap_or(s);
            !(s.starts_with("mod ") || s.starts_with("use "))
        })
        .map(|s| s.chars().take(80).collect())
        .collect()
}

#[test]
fn pipeline_modules_never_import_from_a_module_that_contains_them() {
    let src = Path::new(ROOT).join("crates/docview-pipeline/src");
    let facades: Vec<PathBuf> = rust_files(&src)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n == "lib.rs" || n == "mod.rs")
        })
        .collect();
    assert!(facades.len() >= 3, "{facades:?}");
    for file in facades {
        let text = std::fs::read_to_string(&file).unwrap();
        let items = items_besides_modules_and_uses(&text);
        assert!(
            items.is_empty(),
            "{} declares items besides modules and re-exports, which its modules could import \
             upward: {items:?}",
            file.display()
        );
    }
}

#[test]
fn stage_files_and_the_binary_s_main_stay_small() {
    let stages = Path::new(ROOT).join("crates/docview-pipeline/src/stages");
    let mut checked = 0;
    for file in rust_files(&stages) {
        let lines = std::fs::read_to_string(&file).unwrap().lines().count();
        assert!(lines <= 500, "{}: {lines} lines", file.display());
        checked += 1;
    }
    assert!(checked > 3, "one file per stage: {checked} files");
    let main = std::fs::read_to_string(Path::new(ROOT).join("src/main.rs")).unwrap();
    assert!(
        main.lines().count() <= 300,
        "src/main.rs: {} lines",
        main.lines().count()
    );
}

#[test]
fn a_cleaner_s_name_is_written_once() {
    let mut found = Vec::new();
    for dir in ["crates", "src"] {
        for file in rust_files(&Path::new(ROOT).join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap();
            for (i, line) in text.lines().enumerate() {
                if line.contains("\"learned\"") {
                    found.push(format!("{}:{}", file.display(), i + 1));
                }
            }
        }
    }
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("docview-clean/src/kind.rs"), "{found:?}");
}

#[test]
fn the_collection_layer_and_the_lab_do_not_depend_on_the_pipeline() {
    for krate in ["docview-collection", "docview-lab"] {
        let manifest = std::fs::read_to_string(
            Path::new(ROOT)
                .join("crates")
                .join(krate)
                .join("Cargo.toml"),
        )
        .unwrap();
        assert!(
            !manifest.contains("docview-pipeline"),
            "{krate} depends on the pipeline"
        );
    }
}
