//! The repository's scripts, run as a user runs them: `scripts/spark_smoke.sh` with a binary
//! given in `DOCVIEW_BIN` (no build), its Spark driver stood in for by the local pool (PySpark is
//! a 300 MB download, not part of the tests), and the driver's report of a failed task;
//! `scripts/bench.sh` with a stand-in for the shared side-by-side script (the real one runs the
//! peers for minutes).

use crate::common::{DOCVIEW, ROOT};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

fn executable(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A `PATH` whose first folder, `DIR/bin`, holds a `cargo` that fails saying it was called: a
/// script given a binary must not build one.
fn path_without_cargo(dir: &Path) -> String {
    let bin = dir.join("bin");
    executable(
        &bin.join("cargo"),
        "#!/bin/sh\necho 'cargo was called' >&2\nexit 3\n",
    );
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn spark_smoke_uses_the_binary_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    // A virtual environment whose pip installs nothing and whose "Spark driver" runs the
    // stages with the local pool of the binary it is handed (`--docview`), and a `java`.
    let venv = dir.path().join("venv");
    executable(&venv.join("bin/pip"), "#!/bin/sh\nexit 0\n");
    executable(
        &venv.join("bin/python"),
        "#!/bin/sh\n# scripts/spark_stages.py --work W --docview D --master M\n\
         work=\"$3\"; docview=\"$5\"\n\
         echo \"driver ran $docview\" >&2\n\
         exec \"$docview\" stages pool --quiet --work \"$work\"\n",
    );
    // The script must not build when it is given a binary.
    let path = path_without_cargo(dir.path());
    executable(&dir.path().join("bin/java"), "#!/bin/sh\nexit 0\n");
    let smoke = |docview: &str| {
        Command::new("bash")
            .arg(Path::new(ROOT).join("scripts/spark_smoke.sh"))
            .env("DOCVIEW_BIN", docview)
            .env("VENV", &venv)
            .env("PATH", &path)
            .output()
            .unwrap()
    };
    let out = smoke(DOCVIEW);
    let (said, printed) = (
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout),
    );
    assert!(out.status.success(), "{said}\n{printed}");
    assert!(said.contains(&format!("driver ran {DOCVIEW}")), "{said}");
    for file in ["docviews.jsonl", "replicas.jsonl", "docviews.parquet"] {
        assert!(
            printed.contains(&format!("{file}: the same as one process")),
            "{printed}"
        );
    }
    // A path that is no binary is refused at once, naming it.
    let out = smoke("/nonexistent/docview");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("DOCVIEW_BIN=/nonexistent/docview"), "{said}");
}

/// The Spark driver's report of a failed task (`scripts/spark_stages.py`'s `run_task`, run by
/// `python3` without Spark: the function needs none) names the stage, the task and how its
/// process ended: the exit status and what it said, or the signal that killed it (which says
/// nothing), and the task's output when it succeeds.
#[test]
fn the_spark_driver_reports_how_a_failed_task_ended() {
    let python_found = Command::new("python3").arg("--version").output().is_ok();
    if !python_found {
        eprintln!("skipped: no python3 to run scripts/spark_stages.py with");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let killed = dir.path().join("killed");
    executable(&killed, "#!/bin/sh\nkill -KILL $$\n");
    let failed = dir.path().join("failed");
    executable(
        &failed,
        "#!/bin/sh\necho 'docview: W: no plan' >&2\nexit 1\n",
    );
    let fine = dir.path().join("fine");
    executable(&fine, "#!/bin/sh\necho \"$3 $7: done\" >&2\n");
    let run_task = |docview: &Path| {
        let out = Command::new("python3")
            .arg("-c")
            .arg(
                "import sys; sys.path.insert(0, sys.argv[1]); import spark_stages\n\
                 try:\n    print(spark_stages.run_task(sys.argv[2], 'W', 'pages', 1))\n\
                 except RuntimeError as e:\n    print('RuntimeError:', e)",
            )
            .arg(Path::new(ROOT).join("scripts"))
            .arg(docview)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    assert_eq!(
        run_task(&killed),
        "RuntimeError: pages 1: killed by SIGKILL"
    );
    assert_eq!(
        run_task(&failed),
        "RuntimeError: pages 1: exit status 1: docview: W: no plan"
    );
    assert_eq!(run_task(&fine), "('pages', 1, 'pages 1: done')");
}

#[test]
fn bench_runs_the_side_by_side_script_with_the_binary_and_set_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    // A stand-in for ../shared/bench/side_by_side.sh that shows what it was handed.
    let bench = dir.path().join("bench");
    executable(
        &bench.join("side_by_side.sh"),
        "#!/bin/sh\necho \"side by side: $1 BIN=$BIN SET=$SET ROUNDS=$ROUNDS\"\n",
    );
    let set = dir.path().join("set");
    std::fs::create_dir_all(set.join("html")).unwrap();
    let path = path_without_cargo(dir.path());
    let run = |args: &[&str], docview: &str, set: &Path| {
        Command::new("bash")
            .arg(Path::new(ROOT).join("scripts/bench.sh"))
            .args(args)
            .env("DOCVIEW_BIN", docview)
            .env("BENCH", &bench)
            .env("SET", set)
            .env("ROUNDS", "2")
            .env("PATH", &path)
            .output()
            .unwrap()
    };
    let out = run(&["e2e"], DOCVIEW, &set);
    let (said, printed) = (
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout),
    );
    assert!(out.status.success(), "{said}\n{printed}");
    let mut lines = printed.lines();
    let head = lines.next().unwrap_or_default();
    // The conditions head the figures: date, cores, load, version, set, rounds.
    assert!(head.starts_with("# 20"), "{printed}");
    for part in [" cores, load ", "docview ", "2 rounds on core 1"] {
        assert!(head.contains(part), "{head}");
    }
    assert_eq!(
        lines.next(),
        Some(
            format!(
                "side by side: e2e BIN={DOCVIEW} SET={} ROUNDS=2",
                set.display()
            )
            .as_str()
        ),
        "{printed}"
    );
    // Wrong arguments and inputs are refused at once, naming what was wrong.
    let refused = |out: std::process::Output, what: &str| {
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{said}");
        assert!(said.contains(what), "{said}");
    };
    refused(run(&["speed"], DOCVIEW, &set), "unknown comparison 'speed'");
    refused(
        run(&["e2e"], "/nonexistent/docview", &set),
        "DOCVIEW_BIN=/nonexistent/docview",
    );
    refused(
        run(&["e2e"], DOCVIEW, &dir.path().join("nothing")),
        "nothing/html: SET must be a labelled set",
    );
}
