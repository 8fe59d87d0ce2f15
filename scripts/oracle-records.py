#!/usr/bin/env python3
"""Run the independent oracle over captured kernel records outside ``data/kernels`` (e.g. the zoo reductions in
``tests/kir/data/reduction``): the checker decides which modes are certified, the oracle then runs those.

    scripts/oracle-records.py OUT_DIR RECORD.json... [-- ORACLE_ARGS...]

1. ``workbench check RECORD --json`` for each record (a separate process: the oracle never imports the checker);
2. writes ``OUT_DIR/results.json`` (a ``workbench.check_results/1`` table of those verdicts) and copies each
   record to ``OUT_DIR/kernels/<program>/<kernel>.json`` (records with the same program/kernel and source are
   kept once; the same name with a different source is an error);
3. runs ``workbench oracle --all --table OUT_DIR/results.json --kernels OUT_DIR/kernels`` with ORACLE_ARGS
   (e.g. ``--json``, ``--write OUT_DIR/oracle``) and exits with its code.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def _workbench(*args: str, capture: bool) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=capture, text=True)


def main(argv: list[str]) -> int:
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1:]
    else:
        extra = []
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out, records = Path(argv[0]), [Path(p) for p in argv[1:]]
    rows: dict[tuple[str, str], dict] = {}
    sources: dict[tuple[str, str], str] = {}
    for path in records:
        data = json.loads(path.read_text())
        key = (data["program"], data["name"])
        if key in sources:
            if sources[key] != data["source"]:
                print(f"{path}: {key[0]}/{key[1]} is already listed with a different source", file=sys.stderr)
                return 2
            continue
        done = _workbench("check", str(path), "--json", capture=True)
        if done.returncode not in (0, 1):
            print(f"{path}: workbench check failed: {done.stderr.strip()}", file=sys.stderr)
            return 2
        verdicts = {v["mode"]: v for v in json.loads(done.stdout)["verdicts"]}
        rows[key] = {"program": key[0], "kernel": key[1], "strict": verdicts["strict"],
                     "observable": verdicts["observable"]}
        sources[key] = data["source"]
        target = out / "kernels" / key[0] / f"{key[1]}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text())
        modes = [m for m in ("strict", "observable") if verdicts[m]["verdict"] == "certified"]
        print(f"{key[0]}/{key[1]}: certified {', '.join(modes) or 'in no mode'}", file=sys.stderr)
    table = {"schema": "workbench.check_results/1", "summary": {}, "kernels": [rows[k] for k in sorted(rows)]}
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    return _workbench("oracle", "--all", "--table", str(out / "results.json"), "--kernels", str(out / "kernels"),
                      *extra, capture=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
