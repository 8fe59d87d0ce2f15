"""The numbers the README and docs quote about the shipped floats tables, computed from their JSON (stage: floats).

``verdict_figures(doc)`` reads ``data/floats/verdicts.json`` (``floats check --all``), ``flags_figures(doc)``
reads ``data/floats/flags.json`` (``floats flags --all``). ``tests/floats/test_floats_readme.py`` compares
every figure the README's floats rows and docs/floats.md quote with these, so a regenerated table that
changes a number fails until the text is updated (issue 26: the README said 45/14 where the JSON had 47/12).
"""

from __future__ import annotations

from collections import Counter


def verdict_figures(doc: dict) -> dict[str, int]:
    vs = doc["verdicts"]
    status = Counter(v["status"] for v in vs)
    equivalent = [v for v in vs if v["status"] == "equivalent"]
    return {
        "kernels": len({(v["spec"], v["cuda_function"]) for v in vs}),
        "verdicts": len(vs),
        "equivalent": status["equivalent"],
        "equivalent_2**32": sum(1 for v in equivalent if v["exhaustive"] and v["cases"] == 1 << 32),
        "equivalent_2**16": sum(1 for v in equivalent if v["exhaustive"] and v["cases"] == 1 << 16),
        "equivalent_identity": sum(1 for v in equivalent if not v["exhaustive"]),
        "not equivalent": status["not equivalent"],
        "no counterexample": status["no counterexample"],
        "undecided": status["undecided"],
        "unsafe": sum(1 for v in vs if v["verdict"] == "unsafe"),
        "unsafe kernels": len({(v["spec"], v["cuda_function"]) for v in vs if v["verdict"] == "unsafe"}),
        "not fully written": sum(1 for v in vs if v["verdict"] == "output-not-fully-written"),
        "not fully written kernels": len({(v["spec"], v["cuda_function"]) for v in vs
                                          if v["verdict"] == "output-not-fully-written"}),
    }


def flags_figures(doc: dict) -> dict[str, int]:
    out: dict[str, int] = {"kernels": len(doc["kernels"])}
    for label in doc["flag_sets"]:
        rows = [r for k in doc["kernels"] for r in k["rows"] if r["flags"] == label]
        out[f"differs {label}"] = sum(1 for r in rows if r["status"] == "not equivalent")
        out[f"refused {label}"] = sum(1 for r in rows if r["status"] == "refused")
    return out


FLAG_VERDICTS = ("no-counterexample", "not-equivalent", "unsafe", "output-not-fully-written", "undecided", "refused",
                 "equivalent")


def flags_sentence(doc: dict) -> str:
    """docs/floats_ptx.md's count sentence, rendered from flags.json (the docs quote it verbatim)."""
    kind = "exhaustive" if doc["exhaustive"] else "quick"
    cells = []
    for label in doc["flag_sets"]:
        c = Counter(r["verdict"] for k in doc["kernels"] for r in k["rows"] if r["flags"] == label)
        cells.append(f"`{label}` {' / '.join(str(c[v]) for v in FLAG_VERDICTS)}")
    return (f"Counts ({kind} table, {len(doc['kernels'])} kernels), by verdict (no counterexample / not equivalent / "
            f"unsafe / output not fully written / undecided / refused / equivalent): " + "; ".join(cells) + ".")


__all__ = ["FLAG_VERDICTS", "flags_figures", "flags_sentence", "verdict_figures"]
