//! The documentation: every relative link of `README.md` and `docs/**/*.md` resolves to a file
//! of the repository (and a `#anchor` to a heading of that file, by GitHub's rules), and every
//! command `README.md` shows in its `sh` blocks runs through the built binary on the bundled
//! samples and exits 0 (`cargo test`, `cargo install`, `pip` and `python` lines are skipped).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use crate::common::{DOCVIEW, ROOT};

/// The two commands of the README's first screen, as they are: CI and the guide rely on them.
const FIRST_COMMANDS: [&str; 2] = [
    "cargo run --release -- ingest corpus-samples/warc/corpus-samples.warc.gz --out target/samples --overwrite   # main job",
    "cargo test --release   # tests",
];

/// The lines of the README's first screen.
const FIRST_SCREEN: usize = 40;

fn readme() -> PathBuf {
    Path::new(ROOT).join("README.md")
}

/// `README.md` and every `.md` file under `docs/`, sorted.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![readme()];
    let mut dirs = vec![Path::new(ROOT).join("docs")];
    while let Some(dir) = dirs.pop() {
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// Whether a line opens or closes a fenced code block (also inside a list item).
fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// The lines outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if is_fence(line) {
            fenced = !fenced;
        } else if !fenced {
            lines.push((i + 1, line));
        }
    }
    lines
}

/// The line without its code spans (a run of backticks up to the next run of the same length).
fn without_code_spans(line: &str) -> String {
    let bytes = line.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            let mut j = i + run;
            let mut close = None;
            while j < bytes.len() {
                if bytes[j] == b'`' {
                    let r = bytes[j..].iter().take_while(|&&b| b == b'`').count();
                    if r == run {
                        close = Some(j + r);
                        break;
                    }
                    j += r;
                } else {
                    j += 1;
                }
            }
            match close {
                Some(end) => {
                    out.push(' ');
                    i = end;
                }
                None => {
                    out.push_str(&line[i..i + run]);
                    i += run;
                }
            }
        } else {
            let ch = line[i..].chars().next().expect("a char");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The targets of a line's inline links and images, `[text](target "title")`, and of a
/// reference definition, `[label]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut targets = Vec::new();
    let trimmed = line.trim_start();
    if trimmed.starts_with('[')
        && let Some(end) = trimmed.find("]:")
        && !trimmed[1..end].contains(']')
    {
        if let Some(target) = trimmed[end + 2..].split_whitespace().next() {
            targets.push(target.trim_matches(['<', '>']).to_string());
        }
        return targets;
    }
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let mut depth = 0usize;
        let mut end = after.len();
        for (k, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = k;
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let inside = after[..end].trim();
        let target = if let Some(stripped) = inside.strip_prefix('<') {
            stripped.split('>').next().unwrap_or("")
        } else {
            inside.split_whitespace().next().unwrap_or("")
        };
        targets.push(target.to_string());
        rest = &after[end.min(after.len())..];
    }
    targets
}

/// Whether a link target names a scheme (`https:`, `mailto:`): not a file of the repository.
fn has_scheme(target: &str) -> bool {
    match target.find(':') {
        Some(colon) => {
            let scheme = &target[..colon];
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                && !target[..colon].contains('/')
        }
        None => false,
    }
}

/// A heading's text as GitHub renders it: code spans' backticks, emphasis marks and link
/// targets dropped.
fn rendered(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        match after.find("](").and_then(|mid| {
            after[mid + 2..]
                .find(')')
                .map(|close| (mid, mid + 2 + close))
        }) {
            Some((mid, close)) => {
                text.push_str(rest[..open].trim_end_matches('!'));
                text.push_str(&after[..mid]);
                rest = &after[close + 1..];
            }
            None => {
                text.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    text.push_str(rest);
    text.chars().filter(|&c| c != '`' && c != '*').collect()
}

/// GitHub's anchor of a heading: lowercased; letters, digits, `-` and `_` kept; spaces made
/// `-`; everything else dropped.
fn slug(heading: &str) -> String {
    rendered(heading)
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings; a repeated one gets `-1`, `-2`, … as on GitHub.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let heading = line[hashes..].trim().trim_end_matches('#').trim();
        let base = slug(heading);
        let n = seen.entry(base.clone()).or_insert(0);
        anchors.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    anchors
}

/// A path without its `.` and `..` components (the link may climb out of its folder).
fn normalised(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let root = normalised(Path::new(ROOT));
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = read(&file);
        let shown = file
            .strip_prefix(ROOT)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (number, line) in prose_lines(&text) {
            for target in link_targets(line) {
                if target.is_empty() || has_scheme(&target) || target.starts_with("//") {
                    continue;
                }
                checked += 1;
                let (path_part, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target.as_str(), None),
                };
                let linked = if path_part.is_empty() {
                    file.clone()
                } else {
                    normalised(&file.parent().expect("a folder").join(path_part))
                };
                if !linked.starts_with(&root) {
                    broken.push(format!(
                        "{shown}:{number}: {target}: outside the repository"
                    ));
                    continue;
                }
                if !linked.exists() {
                    broken.push(format!("{shown}:{number}: {target}: no such file"));
                    continue;
                }
                if let Some(anchor) = anchor {
                    if linked.extension().is_none_or(|e| e != "md") {
                        broken.push(format!(
                            "{shown}:{number}: {target}: an anchor into a file that is not Markdown"
                        ));
                    } else if !anchors(&read(&linked)).contains(anchor) {
                        broken.push(format!(
                            "{shown}:{number}: {target}: no heading with that anchor"
                        ));
                    }
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} relative links found: is the parser broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// A shell line split into words as `sh` would, for the simple lines the README shows: quotes
/// grouped, a `#` that starts a word ends the line. Pipes, redirections, `;`, `&&`, `$` and
/// globs are refused, so that every README line is one call the test can make.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some(q) => word.push(q),
                        None => return Err(format!("unclosed {c} quote")),
                    }
                }
            }
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '|' | '>' | '<' | ';' | '&' | '$' | '`' | '*' | '?' => {
                return Err(format!(
                    "`{c}` outside quotes: show one plain command a line"
                ));
            }
            '\\' => return Err("a backslash: write the command on one line".to_string()),
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// One command of the README: its line number, its text and the arguments of `docview`.
struct ReadmeCommand {
    line: usize,
    text: String,
    args: Vec<String>,
}

/// The `docview` calls of README.md's `sh` blocks, in order: `docview ARGS` and
/// `cargo run --release -- ARGS`. Lines of `cargo test`, `cargo install`, `pip` and `python`
/// are skipped; any other line fails the test.
fn readme_commands() -> Vec<ReadmeCommand> {
    let text = read(&readme());
    let mut commands = Vec::new();
    let mut in_sh = false;
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        if is_fence(line) {
            if fenced {
                fenced = false;
                in_sh = false;
            } else {
                fenced = true;
                let info = line.trim_start().trim_start_matches(['`', '~']).trim();
                in_sh = matches!(info, "sh" | "bash" | "shell");
            }
            continue;
        }
        if !in_sh || line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let words = shell_words(line).unwrap_or_else(|e| panic!("README.md:{number}: {e}: {line}"));
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let args = match words.as_slice() {
            ["cargo", "test", ..] | ["cargo", "install", ..] => continue,
            [first, ..] if ["pip", "pip3", "python", "python3"].contains(first) => continue,
            ["cargo", "run", "--release", "--", args @ ..] | ["docview", args @ ..] => args,
            _ => panic!(
                "README.md:{number}: not a command this test knows how to run \
                 (docview ..., cargo run --release -- ..., or a skipped cargo test, \
                 cargo install, pip or python line): {line}"
            ),
        };
        commands.push(ReadmeCommand {
            line: number,
            text: line.trim().to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
        });
    }
    commands
}

/// Copies `from` (a file or a folder) to `to`.
fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        fs::create_dir_all(to).expect("create folder");
        let mut entries: Vec<PathBuf> = fs::read_dir(from)
            .expect("read folder")
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            copy_tree(&entry, &to.join(entry.file_name().expect("a name")));
        }
    } else {
        fs::copy(from, to)
            .unwrap_or_else(|e| panic!("copy {} to {}: {e}", from.display(), to.display()));
    }
}

/// The top-level entries of the repository an argument names (`corpus-samples` for
/// `corpus-samples/labelled`), so that the run's folder holds a copy of them.
fn repository_entry(arg: &str) -> Option<String> {
    let value = arg.split_once('=').map_or(arg, |(_, v)| v);
    if value.starts_with('-') || value.starts_with('/') {
        return None;
    }
    let first = Path::new(value).components().next()?;
    let Component::Normal(name) = first else {
        return None;
    };
    let name = name.to_str()?.to_string();
    // target/ is where the commands write; it starts empty in the run's folder.
    (name != "target" && Path::new(ROOT).join(&name).exists()).then_some(name)
}

#[test]
fn the_readme_shows_its_two_commands_on_its_first_screen() {
    let text = read(&readme());
    let lines: Vec<&str> = text.lines().collect();
    for command in FIRST_COMMANDS {
        let at = lines.iter().position(|l| *l == command);
        assert!(
            at.is_some_and(|i| i < FIRST_SCREEN),
            "README.md must show, as it is, in its first {FIRST_SCREEN} lines: {command}"
        );
    }
}

#[test]
fn every_readme_command_runs_on_the_samples() {
    let commands = readme_commands();
    assert!(
        commands.len() >= 5,
        "only {} commands found in README.md's sh blocks",
        commands.len()
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let mut copied = BTreeSet::new();
    for command in &commands {
        for arg in &command.args {
            if let Some(entry) = repository_entry(arg)
                && copied.insert(entry.clone())
            {
                copy_tree(&Path::new(ROOT).join(&entry), &dir.path().join(&entry));
            }
        }
        let out = Command::new(DOCVIEW)
            .args(&command.args)
            .current_dir(dir.path())
            .output()
            .unwrap_or_else(|e| panic!("run {DOCVIEW}: {e}"));
        assert!(
            out.status.success(),
            "README.md:{}: `{}` exited with {}\nstdout:\n{}\nstderr:\n{}",
            command.line,
            command.text,
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn anchors_follow_githubs_rules() {
    let text = "# docview\n## What `docview ingest` writes\n### The DocView elements (paper §6)\n\
                ## Incremental crawls: `--earlier`\n## Examples\n## Examples\n```sh\n# not a heading\n```\n\
                ## See [the papers](data.md#x)\n";
    let got = anchors(text);
    for want in [
        "docview",
        "what-docview-ingest-writes",
        "the-docview-elements-paper-6",
        "incremental-crawls---earlier",
        "examples",
        "examples-1",
        "see-the-papers",
    ] {
        assert!(got.contains(want), "{want} not in {got:?}");
    }
    assert!(!got.contains("not-a-heading"));
    assert_eq!(
        link_targets("a [b](c.md#d) and ![e](f.png \"t\") and `[g](h)`"),
        vec!["c.md#d".to_string(), "f.png".to_string()]
    );
    assert_eq!(
        link_targets("[label]: ../x.md"),
        vec!["../x.md".to_string()]
    );
    assert!(has_scheme("https://example.com/") && !has_scheme("../a.md#b:c"));
    assert_eq!(
        shell_words(r#"docview query DIR "a b" -k 3   # comment"#).unwrap(),
        vec!["docview", "query", "DIR", "a b", "-k", "3"]
    );
    assert!(shell_words("docview extract x | head").is_err());
}
