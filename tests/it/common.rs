//! What the integration tests share: the paths of the binary and of the bundled and shared
//! corpora, an ingest of the bundled sample WARC, and the one check of an ingest's records
//! against the DocView schema, which every test that writes `docviews.jsonl` (an ingest, the
//! stages) runs on what it wrote ([`check_records`], [`ingest_checked`]), and Ctrl-C sent to a
//! running command ([`ctrl_c`]); running the binary ([`docview`], [`docview_succeeds`],
//! [`docview_ok`]).

use std::path::{Path, PathBuf};

use docview::pipeline::{IngestOptions, Silent, Summary, ingest};

pub use crate::schema::{check_records, record_schema};

/// The `docview` binary built for the tests.
pub const DOCVIEW: &str = env!("CARGO_BIN_EXE_docview");
/// The repository's root.
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// The bundled samples.
pub const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus-samples");
/// The labelled real pages beside the repository (tests that read them skip when absent).
pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");

/// `docview ARGS`: its output, whatever its exit status.
pub fn docview(args: &[&str]) -> std::process::Output {
    std::process::Command::new(DOCVIEW)
        .args(args)
        .output()
        .expect("run docview")
}

/// `docview ARGS`, which must succeed (else the test fails naming the arguments and what the
/// command printed on standard error): its output.
pub fn docview_succeeds(args: &[&str]) -> std::process::Output {
    let out = docview(args);
    assert!(
        out.status.success(),
        "docview {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `docview ARGS`, which must succeed ([`docview_succeeds`]): its standard output.
pub fn docview_ok(args: &[&str]) -> String {
    String::from_utf8(docview_succeeds(args).stdout).expect("docview's standard output is UTF-8")
}

/// Sends SIGINT (what Ctrl-C sends) to `child`, as a terminal would (with `kill`).
pub fn ctrl_c(child: &std::process::Child) {
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -INT {}", child.id());
}

/// The bundled sample WARC ingested into `dir/ingest` (its indexes for `query` and `compare`).
pub fn ingested(dir: &Path) -> PathBuf {
    let out = dir.join("ingest");
    let warc = Path::new(SAMPLES).join("warc/corpus-samples.warc.gz");
    ingest_checked(&IngestOptions::new(vec![warc], out.clone()));
    out
}

/// `docview::pipeline::ingest` of `options`, silent, its records then checked
/// ([`check_records`]); its summary.
pub fn ingest_checked(options: &IngestOptions) -> Summary {
    let summary = ingest(options, &Silent).expect("ingest");
    check_records(&options.out);
    summary
}
