"""What the oracle checks: the kernels the shipped checker table certifies, and each one's record as data.

Stage: oracle. Reads ``data/check/results.json`` (written by ``workbench check --all``) and the kernel records
under ``data/kernels/<program>/<kernel>.json`` as plain JSON (:mod:`workbench.jsonfile`) — not through the
checker's or the capture stage's loaders, so that nothing the oracle believes comes from the code it tests.
A kernel is a target when some mode's verdict is ``certified``; the arguments narrowed are that mode's
``narrowable_size_args``. Modes that narrow the same arguments share one target (the oracle's claim — agreement
on active lanes — is the same for both modes).

A guard may name a size the record does not list among its symbols (a guard of the whole graph on another
input's size); such a symbol gets Dynamo's range for a dynamic size, ``[2, oo)``.

Limits: the table's layout is read as ``workbench.check_results/1`` documents it; a missing key is an input
error naming the file and the fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.jsonfile import read_json
from workbench.oracle.source import OracleInputError
from workbench.oracle.symbolic import Fact, expression, relation
from workbench.paths import DATA, KERNELS

TABLE = DATA / "check" / "results.json"
MODES = ("strict", "observable")
DYNAMIC_LOWER = 2  # the smallest size Dynamo keeps dynamic (0 and 1 are specialised)
CERTIFIED = "certified"


@dataclass(frozen=True, slots=True)
class Symbol:
    name: str
    lower: int
    upper: int | None


@dataclass(frozen=True, slots=True)
class Record:
    """A kernel record's facts, parsed (never evaluated as Python)."""

    program: str
    name: str
    source: str
    grid_type: str
    signature: tuple[tuple[str, str], ...]
    symbols: tuple[Symbol, ...]
    guards: tuple[Fact, ...]
    numels: tuple[tuple[str, Fact], ...]  # ("xnumel", fact), ("ynumel", fact)
    size_args: tuple[tuple[str, Fact], ...]  # ("ks0", fact), ...
    path: str

    @property
    def key(self) -> str:
        return f"{self.program}/{self.name}"


@dataclass(frozen=True, slots=True)
class Witness:
    """A counterexample the checker recorded for a mode it refused (a shape and a lane): the oracle runs it
    too, since a kernel certified in the other mode must still agree there on active lanes."""

    mode: str
    values: tuple[tuple[str, int], ...]
    lane: tuple[tuple[str, int], ...]  # ("xindex", i) / ("yindex", j)


@dataclass(frozen=True, slots=True)
class Target:
    """A certified kernel and the size arguments its narrowed text declares ``i32``. ``text``: the narrowed
    module text to run instead of the oracle's own :func:`~workbench.oracle.source.narrow` (the text the rule
    compiles, handed over as data by ``workbench rule texts``; variant P's text for a partial certificate)."""

    record: Record
    modes: tuple[str, ...]
    narrowed: tuple[str, ...]
    witnesses: tuple[Witness, ...] = ()
    text: str | None = None


def _witness(mode: str, entry: dict) -> Witness | None:
    cex = entry.get("counterexample")
    if not isinstance(cex, dict) or not isinstance(cex.get("shape"), dict):
        return None
    shape, lane = cex["shape"], cex.get("lane") or {}
    if not all(isinstance(v, int) for v in (*shape.values(), *lane.values())):
        return None
    return Witness(mode, tuple(sorted(shape.items())), tuple(sorted(lane.items())))


def _need(d: dict, key: str, where: str, fix: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise OracleInputError(f"{where}: missing {key!r}; {fix}")
    return d[key]


def parse_record(data: dict, where: str) -> Record:
    """A record from its JSON object (a captured kernel or a hand-written one of the same schema)."""
    fix = "re-capture the kernel with `workbench capture PROGRAM`"
    syms = []
    for s in _need(data, "symbols", where, fix):
        lower = s.get("lower")
        syms.append(Symbol(str(_need(s, "name", where, fix)), int(lower) if lower is not None else 0,
                           None if s.get("upper") is None else int(s["upper"])))
    guards = tuple(relation(g, f"{where}: guard") for g in _need(data, "guards", where, fix))
    # Guards of the whole graph can name sizes of other inputs the record does not list (groupnorm's s54):
    # they get Dynamo's range for a dynamic size, [2, oo), and are searched like the others (as the checker
    # gives them 2).
    listed = {x.name for x in syms}
    for name in sorted(set().union(*(g.symbols for g in guards)) - listed):
        syms.append(Symbol(name, DYNAMIC_LOWER, None))
    numels = tuple((str(_need(n, "name", where, fix)), expression(_need(n, "expr", where, fix), f"{where}: numel"))
                   for n in _need(data, "numels", where, fix))
    size_args = tuple((str(_need(a, "name", where, fix)), expression(_need(a, "expr", where, fix),
                                                                       f"{where}: size argument"))
                      for a in _need(data, "size_args", where, fix))
    replacements = data.get("replacements") or {}
    if replacements:
        raise OracleInputError(f"{where}: precomputed replacements {sorted(replacements)} are not modelled by the "
                               "oracle; inline them or extend workbench/oracle/corpus.py")
    sig = _need(data, "signature", where, fix)
    return Record(
        program=str(_need(data, "program", where, fix)),
        name=str(_need(data, "name", where, fix)),
        source=str(_need(data, "source", where, fix)),
        grid_type=str(_need(data, "grid_type", where, fix)),
        signature=tuple(sorted((str(k), str(v)) for k, v in sig.items())),
        symbols=tuple(syms),
        guards=guards,
        numels=numels,
        size_args=size_args,
        path=where,
    )


def load_record(path: str | Path) -> Record:
    data = read_json(path, OracleInputError, "kernel record", "capture it with `workbench capture PROGRAM`")
    return parse_record(data, str(path))


def targets(table: str | Path = TABLE, kernels: str | Path = KERNELS) -> list[Target]:
    """Every kernel certified in some mode of the checker table, in the table's (sorted) order."""
    fix = "regenerate it with `workbench check --all --out data/check`"
    doc = read_json(table, OracleInputError, "checker table", fix)
    where = str(table)
    out = []
    for row in _need(doc, "kernels", where, fix):
        program, kernel = _need(row, "program", where, fix), _need(row, "kernel", where, fix)
        by_args: dict[tuple[str, ...], list[str]] = {}
        witnesses = []
        for mode in MODES:
            entry = _need(row, mode, where, fix)
            if _need(entry, "verdict", where, fix) == CERTIFIED:
                args = tuple(sorted(_need(entry, "narrowable_size_args", where, fix)))
                cert = entry.get("certificate") or {}
                if "narrowed" in cert and tuple(sorted(cert["narrowed"])) != args:
                    raise OracleInputError(f"{where}: {program}/{kernel} [{mode}] narrows {list(args)} but its "
                                           f"certificate narrows {sorted(cert['narrowed'])}; {fix}")
                by_args.setdefault(args, []).append(mode)
            elif (w := _witness(mode, entry)) is not None:
                witnesses.append(w)
        if not by_args:
            continue
        record = load_record(Path(kernels) / program / f"{kernel}.json")
        for args, modes in sorted(by_args.items()):
            out.append(Target(record, tuple(modes), args, tuple(witnesses)))
    return out


def select(all_targets: list[Target], names: list[str]) -> list[Target]:
    """Targets whose program or kernel is named (``program/kernel`` also works); unknown names are errors."""
    from workbench.errors import UsageError

    out = []
    for name in names:
        hit = [t for t in all_targets if name in (t.record.program, t.record.name, t.record.key)]
        if not hit:
            raise UsageError(f"no kernel certified in the checker table is named {name!r}; "
                             "`workbench oracle --all` lists the certified ones")
        out.extend(t for t in hit if t not in out)
    return out


TEXTS_SCHEMA = "workbench.rule-texts/1"
TEXT_MODES = ("strict", "observable", "partial")


def text_targets(path: str | Path, kernels: str | Path = KERNELS) -> list[Target]:
    """Targets from a ``workbench.rule-texts/1`` document (``workbench rule texts --out FILE``): for each
    certified (kernel, mode), the module text the rule compiles. The text is data to the oracle: parsed with
    ``ast`` and run under the interpreter like any narrowed text, its body checked first (source.read)."""
    fix = "write it with `workbench rule texts --out FILE`"
    doc = read_json(path, OracleInputError, "rule texts", fix)
    where = str(path)
    if not isinstance(doc, dict) or doc.get("schema") != TEXTS_SCHEMA:
        raise OracleInputError(f"{where}: not a {TEXTS_SCHEMA} document; {fix}")
    out = []
    for i, row in enumerate(_need(doc, "texts", where, fix)):
        at = f"{where}: texts[{i}]"
        program, kernel = str(_need(row, "program", at, fix)), str(_need(row, "kernel", at, fix))
        mode, text = _need(row, "mode", at, fix), _need(row, "text", at, fix)
        narrowed = _need(row, "narrowed", at, fix)
        if mode not in TEXT_MODES or not isinstance(text, str) or not isinstance(narrowed, list):
            raise OracleInputError(f"{at}: mode {mode!r} (one of {TEXT_MODES}), text (a string) and narrowed (a "
                                   f"list) expected; {fix}")
        record = load_record(Path(kernels) / program / f"{kernel}.json")
        # P narrows no argument (its sites are inside the text); N modes narrow the listed size arguments
        args = () if mode == "partial" else tuple(sorted(str(a) for a in narrowed))
        out.append(Target(record, (mode,), args, (), text))
    return out
