#!/usr/bin/env bash
# `make lean-check`: build lean/ where Lean exists and write a per-file table (workbench/lean/filecheck.py):
# every library file, then every generated instance, each built on its own (one error fails only the files
# that import it); for each built instance the axioms of `kernel_safe` and `narrowing_exact`. The table is
# printed and written to lean/.lake/lean-check.md. It checks the files as they are; regenerate them first
# with scripts/lean-regen.sh.
# Exit codes: 0 every file built and uses only propext/Classical.choice/Quot.sound; 1 some file failed or
# uses another axiom (sorryAx); 2 Lean is not installed here (one line says so: nothing was checked).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY=python3
PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" exec "$PY" -m workbench.lean.filecheck "$@"
