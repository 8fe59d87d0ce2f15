#!/usr/bin/env bash
# Developer command: regenerate the shipped Lean instances (lean/Instances, lean/Instances.lean) and the
# Lean goldens (tests/lean/golden) from the captured corpus. Run-time commands never write there.
#   scripts/lean-regen.sh            then review `git diff` and commit
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY=python3
PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" exec "$PY" -m workbench.lean.regen "$@"
