"""Run a planned sharded docview ingest on Spark: one Spark task per docview task.

    docview stages plan INPUTS... --out OUT --work WORK --shards N [ingest flags]
    spark-submit scripts/spark_stages.py --work WORK [--docview /path/to/docview]

Each stage (as `docview stages list` gives them, in order) becomes one Spark job of as many
tasks as the stage has; each task runs `docview stages run STAGE --work WORK --task T` on an
executor. Only the task numbers and the work folder's path move through Spark; the stages read
and write their files (Parquet and JSON) in WORK, which must be on a file system every executor
sees under the same path (NFS, a mounted object store). A task whose completion marker exists
is skipped, so Spark's retries, and a rerun of this script after a failure, redo only what was
not done (Spark retries a failed task on a cluster and in `local[N,F]`, never in `local[N]`).
A task runs in one process at a time: a second copy (Spark's speculative one) is refused while
the first runs. The docview binary must be on every executor (same path, same version), and
the executors' Python is `PYSPARK_PYTHON`'s (set it to the same Python version as the
driver's). A failed task is reported with its process's exit status or the signal that
killed it.
"""

import argparse
import json
import signal
import subprocess
import sys
import time


def stage_list(docview, work):
    """[(stage, tasks)] in run order, from the plan in WORK."""
    out = subprocess.run(
        [docview, "stages", "list", "--work", work, "--json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [(s["stage"], s["tasks"]) for s in json.loads(out)]


def ended(returncode):
    """How a process ended, from its return code: `exit status N`, or the signal that killed it
    (`killed by SIGKILL`: subprocess gives -N for signal N)."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"killed by {name}"
    return f"exit status {returncode}"


def failure(stage, task, returncode, stderr):
    """The message of a failed task: the stage, the task, how its process ended and what it
    said (a process killed by a signal says nothing)."""
    said = stderr.strip()
    return f"{stage} {task}: {ended(returncode)}" + (f": {said}" if said else "")


def run_task(docview, work, stage, task):
    """One docview task; raises (so that Spark retries, then fails the job) when it fails."""
    done = subprocess.run(
        [docview, "stages", "run", stage, "--work", work, "--task", str(task)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(failure(stage, task, done.returncode, done.stderr))
    return (stage, task, done.stderr.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True, help="the work folder of a docview plan")
    parser.add_argument("--docview", default="docview", help="the docview binary on every node")
    parser.add_argument("--master", default=None, help="Spark master (default: spark-submit's)")
    args = parser.parse_args()

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("docview-stages")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    docview, work = args.docview, args.work
    started = time.time()
    for stage, tasks in stage_list(docview, work):
        t0 = time.time()
        results = (
            sc.parallelize(range(tasks), tasks)
            .map(lambda t, stage=stage: run_task(docview, work, stage, t))
            .collect()
        )
        for _, task, said in results:
            print(said, file=sys.stderr)
        print(f"stage {stage}: {tasks} tasks in {time.time() - t0:.1f} s", file=sys.stderr)
    print(f"all stages done in {time.time() - started:.1f} s")
    spark.stop()


if __name__ == "__main__":
    main()
