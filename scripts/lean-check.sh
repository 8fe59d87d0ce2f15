#!/usr/bin/env bash
# Build lean/ (the Narrowing library and every generated instance in lean/Instances) and list the axioms each
# theorem uses. It checks the files as they are; regenerate them first with
#   scripts/lean-regen.sh
# Exit codes: 0 all theorems use only propext/Classical.choice/Quot.sound; 1 some use sorryAx or other axioms;
# 2 Lean is not installed here (nothing was checked) or the build failed.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
if ! command -v lake >/dev/null 2>&1; then
  echo "lean-check: Lean is not installed here (no \`lake\` on PATH), so nothing was checked by Lean." >&2
  echo "lean-check: install elan: curl https://elan.lean-lang.org/elan-init.sh -sSf | sh -s -- -y --default-toolchain none" >&2
  echo "lean-check: then rerun this script (elan fetches the toolchain pinned in lean/lean-toolchain)." >&2
  exit 2
fi
exec "$PY" -m workbench.cli lean check
