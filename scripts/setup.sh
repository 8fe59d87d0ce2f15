#!/usr/bin/env bash
# Set up the workbench on a fresh machine: a local virtual environment with the pinned dependencies
# (requirements.txt), the package installed editable, and JupyterLab settings. With --browser, also Debian's
# chromium for the real-browser test (needs root or sudo; Playwright drives it, no browser download).
# Idempotent: a second run installs nothing new.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv with $($PYTHON --version)"
    "$PYTHON" -m venv .venv
fi
if ! .venv/bin/python -m pip install -q -r requirements.txt; then
    echo "setup: pip could not install requirements.txt (see the error above); torch==2.13.0 and triton==3.7.1 are required" >&2
    exit 1
fi
.venv/bin/python -m pip install -q --no-deps -e .
# The zoo extra (torchvision, transformers, dask[distributed]) is pinned in requirements.txt too, so the line
# above installed it; this re-check keeps torch at its pin (the extra must never move torch or triton).
grep -E '^(torch|triton)==' requirements.txt > .venv/torch-pins.txt
if ! .venv/bin/python -m pip install -q -e ".[zoo]" -c .venv/torch-pins.txt; then
    echo "setup: pip could not install the zoo extra (pyproject.toml [zoo]); the demo does not need it, tests/zoo do" >&2
    exit 1
fi

# JupyterLab: run widget comms on the main kernel thread (commsOverSubshells off); with the default, widget
# callbacks race a running cell under ipykernel 7 and matplotlib figures come out blank (jupyterlab#19719).
settings=.venv/share/jupyter/lab/settings
mkdir -p "$settings"
cat > "$settings/overrides.json" <<'JSON'
{
  "@jupyterlab/apputils-extension:kernels-settings": {"commsOverSubshells": "disabled"},
  "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"}
}
JSON

if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then
    echo "setup: installing Debian's chromium for the browser test"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
echo "setup: ready (.venv: torch $(.venv/bin/python -c 'import torch; print(torch.__version__)'))"
