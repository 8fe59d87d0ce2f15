"""``workbench figures``: draw every shipped figure from the shipped data, into the workspace by default.

Stage: figures. The checkout's ``figures/`` is written only by ``workbench figures --regenerate`` (``make
figures``), a developer command whose result is committed on purpose; notebooks and every other command draw
into ``<workspace>/figures``. The figures come from ``data/`` alone (run records, ``static/static.json``,
``zoo/zoo.json``): nothing is measured or compiled here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.paths import DATA, FIGURES
from workbench.workspace import add_argument as add_workspace


def draw_all(out: Path) -> list[Path]:
    """Every figure (and report Markdown) the checkout ships, drawn from ``data/`` into ``out``."""
    import json

    from workbench import figures
    from workbench.bench import report
    from workbench.bench.static import Row
    from workbench.zoo import figures as zoo_figures

    written: list[Path] = []
    for record in sorted((DATA / "runs").glob("*.json")):
        r = report.report(record, out)
        written += [r.markdown, *r.figures]
    rows = [Row.from_json(r) for r in json.loads((DATA / "static" / "static.json").read_text())["rows"]]
    arches = tuple(dict.fromkeys(r.arch for r in rows))
    written.append(figures.static_change(rows, "sm_89" if "sm_89" in arches else arches[0], out))
    zoo = json.loads((DATA / "zoo" / "zoo.json").read_text())
    written += [zoo_figures.verdict_mix(zoo, out / "zoo-verdict-mix.png"),
                zoo_figures.out_of_class_histogram(zoo, out / "zoo-out-of-class.png")]
    return written


def _figures(args: argparse.Namespace) -> int:
    from workbench.workspace import figures

    out = FIGURES if args.regenerate else figures(args.workspace)
    written = draw_all(out)
    where = "the checkout's figures/ (commit the diff on purpose)" if args.regenerate else str(out)
    print(f"wrote {len(written)} files into {where}", file=sys.stderr)
    return 0


def register(sub) -> None:
    p = sub.add_parser("figures", help="draw the report figures from data/ (into the workspace; "
                                       "--regenerate rewrites the checkout's figures/)")
    p.add_argument("--regenerate", action="store_true",
                   help="write into the checkout's figures/ instead of <workspace>/figures (developers: the "
                        "shipped figures; commit the result on purpose)")
    add_workspace(p)
    p.set_defaults(func=_figures)
