#!/usr/bin/env bash
# CI of the Python package (python/): formatting and lints of its crate, then the wheel built
# by maturin in a fresh virtual environment, installed in a second fresh one with pytest and
# jsonschema (and datatrove with its WARC reader's packages, when they install), and its tests
# run there.
# Called at the end of .ci/run; runs alone too (`bash python/ci.sh`). Any failure fails it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TERM_COLOR=never
# As .ci/run: the tests check behaviour, not speed, so no whole-program optimisation. The
# crate's own release profile (fat LTO, one code-generation unit) is for wheels to ship.
export CARGO_PROFILE_RELEASE_LTO="${CARGO_PROFILE_RELEASE_LTO:-false}"
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS="${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-16}"
# The root build's target folder: the docview crates and their dependencies built there for
# `cargo clippy` (the dev profile) and `cargo test --release` are not built again.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
PYTHON="${PYTHON:-python3}"
pip_quiet=(--quiet --disable-pip-version-check --no-input)

started=$SECONDS
say() { echo "python/ci.sh [$((SECONDS - started)) s]: $*"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

say "cargo fmt and clippy of python/"
cargo fmt --manifest-path python/Cargo.toml -- --check
cargo clippy --manifest-path python/Cargo.toml -- -D warnings
# python/Cargo.lock pins the module's dependencies; a dependency a crate gained since is
# resolved here (and said), so that a change under crates/ does not need one under python/.
if ! git diff --quiet -- python/Cargo.lock 2>/dev/null; then
  echo "python/ci.sh: note: python/Cargo.lock was out of date and has been updated for this run" \
    "(run \`cargo update --workspace --manifest-path python/Cargo.toml\` and commit it)"
fi

say "building the wheel with maturin (a fresh virtual environment)"
"$PYTHON" -m venv "$work/build"
"$work/build/bin/pip" install "${pip_quiet[@]}" "maturin>=1.9.4,<2"
"$work/build/bin/maturin" build --release --out "$work/wheels" \
  --interpreter "$work/build/bin/python"
wheels=("$work"/wheels/docview-*-cp39-abi3-*.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
  echo "python/ci.sh: expected one abi3 wheel in $work/wheels, found: $(ls "$work/wheels")" >&2
  exit 1
fi
say "built $(basename "${wheels[0]}")"

say "installing it with pytest (a second fresh virtual environment)"
"$PYTHON" -m venv "$work/test"
# jsonschema: the tests check every record an ingest writes against schema/docview.schema.json.
"$work/test/bin/pip" install "${pip_quiet[@]}" "${wheels[0]}" pytest jsonschema
# datatrove and what its WarcReader and JsonlWriter import: the example's test skips, saying
# so, when they do not install.
if ! "$work/test/bin/pip" install "${pip_quiet[@]}" datatrove warcio faust-cchardet python-magic orjson; then
  echo "python/ci.sh: datatrove did not install: the datatrove example's test will skip"
fi

say "pytest python/tests"
# From outside the source tree, so that `import docview` is the installed wheel's.
cd "$work"
"$work/test/bin/python" -c 'import docview; print("docview", docview.__version__, "from", docview.__file__)'
"$work/test/bin/python" -m pytest "$root/python/tests" -q -rs -p no:cacheprovider \
  --rootdir "$root/python"

# The wheel is abi3 for CPython 3.9 and later: where a 3.9 is on the machine, the tests run
# there too (without datatrove).
py39=""
for candidate in python3.9 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.9*/bin/python3.9; do
  if "$candidate" -c 'import venv' >/dev/null 2>&1; then
    py39=$candidate
    break
  fi
done
if [ -n "$py39" ]; then
  say "pytest python/tests on $("$py39" --version 2>&1)"
  "$py39" -m venv "$work/py39"
  "$work/py39/bin/pip" install "${pip_quiet[@]}" "${wheels[0]}" pytest jsonschema
  "$work/py39/bin/python" -m pytest "$root/python/tests" -q -p no:cacheprovider \
    --rootdir "$root/python"
else
  echo "python/ci.sh: no CPython 3.9 here: the tests ran on $("$PYTHON" --version 2>&1) only"
fi

# `pip install .` from the source tree, as a user installs it: pip builds the wheel through
# pyproject.toml and maturin in an isolated environment (the crates already built above).
say "pip install . (a third fresh virtual environment)"
"$PYTHON" -m venv "$work/source"
(cd "$root" && "$work/source/bin/pip" install "${pip_quiet[@]}" .)
"$work/source/bin/python" - <<'PY'
import docview
page = docview.extract(
    "<html><head><title>Tides</title></head><body><nav><a href='/'>Home</a></nav><article>"
    "<p>Twice a day the sea withdraws from the bay and leaves pools full of anemones, crabs "
    "and small fish among the rocks of the north shore.</p></article></body></html>"
)
assert page.text.startswith("Twice a day the sea withdraws"), page
assert page.title == "Tides" and page.page_type == "topic", page
print("pip install . gives", repr(page))
PY
say "done"
