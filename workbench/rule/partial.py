"""Variant P (partial narrowing): the int64 ``//`` and ``%`` sites a partial certificate names, computed in
int32 — and nothing else.

Stage: rule (variants). Input: an emitted kernel (a :class:`~workbench.capture.record.CapturedKernel`) and
the sites of its partial certificate (``n<i>`` node keys, ``Certificate.narrowed``). Output: the kernel's text
with each certified site ``x // d`` / ``x % d`` written ``(x.to(tl.int32) // d.to(tl.int32)).to(tl.int64)``;
every other operation — payload divisions on loaded data, int64 divisions the certificate does not name,
divisions inside helpers — the signature and the size arguments (``ks*`` int64) are unchanged.

One source of truth. The sites come from the certificate, by IR node; the text positions of a site come from
kir's own parse (:func:`workbench.kir.spans.division_spans`: the node kir built for each ``//``/``%`` of the
kernel's text), never from re-classifying text. After rewriting, :func:`validate` re-parses the new text with
kir and requires its IR to equal :func:`partial_kernel` of the certified sites (translation validation of the
rewrite): a site the text cannot realise, a division the rewrite touched that the certificate does not name, or
any other difference refuses (:class:`PartialError`). So the number of sites the certificate names and the
number the compiled text computes in int32 are the same by construction. The rule
(:func:`workbench.rule.narrowing`), ``rule show``, the timing variants and the oracle all take P's text from
:func:`rewrite_module` / :func:`partial_text` here.

Semantics: Triton's integer ``//`` and ``%`` are ``arith.divsi``/``remsi`` (truncating, C semantics) in
both widths, so on operands that fit int32 with a divisor >= 1 the int32 site computes W's value exactly
(whatever the signs). A literal operand stays a literal (it takes the int32 operand's type); one outside int32
makes the site unnarrowable. When P equals W is what ``workbench check --mode partial`` certifies; this
module proves nothing and refuses any text it cannot show is the certified P.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import replace
from typing import Any

from workbench import kir
from workbench.errors import UnsupportedError
from workbench.kir.build import IMPLICIT
from workbench.kir.canon import canonical_text
from workbench.kir.spans import Position, division_nodes, division_spans, node_keys, position

__all__ = ["PartialError", "candidate_sites", "certified_sites", "partial_body", "partial_kernel", "partial_sites",
           "partial_text", "partial_variant", "rewrite_module", "site_keys", "text_sites", "validate"]

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


class PartialError(UnsupportedError):
    """P cannot be built for these sites (a literal outside int32, a site without text, a rewrite that does not
    re-parse to the certified P)."""


# -- the sites ------------------------------------------------------------------------------------------------


def candidate_sites(k: kir.Kernel) -> tuple[str, ...]:
    """Every int64 ``//``/``%`` node of ``k`` (reachable from its roots), by node key in walk order."""
    return tuple(division_nodes(k, 64))


site_keys = candidate_sites  # the name the binding and older callers use


def text_sites(record: Any) -> tuple[str, ...]:
    """The candidate sites written as ``//``/``%`` in the kernel's own text (P can rewrite only those; a site
    a helper call computes, ``triton_helpers.div_floor_integer``, has no text to rewrite and stays wide)."""
    k, spans = division_spans(record)
    keys = node_keys(k)
    written = {keys[id(n)] for n in spans.values() if id(n) in keys}
    return tuple(s for s in candidate_sites(k) if s in written)


def certified_sites(record: Any) -> tuple[str, ...]:
    """The sites of ``record``'s partial certificate (the checker, now); :class:`PartialError` if the checker
    does not certify the kernel in partial mode."""
    from workbench.check.api import check_kernel
    from workbench.errors import WorkbenchError

    try:
        v = check_kernel(record, "partial", counterexample=False)
    except WorkbenchError as exc:
        raise PartialError(f"kernel {record.name}: the checker cannot check it in partial mode ({exc}); variant P "
                           "exists only for certified kernels") from None
    if not v.certified:
        raise PartialError(f"kernel {record.name}: not certified in partial mode ({v.verdict}: {v.reason[:200]}); "
                           "variant P exists only for certified kernels")
    return tuple(v.certificate.narrowed)


# -- P as IR ----------------------------------------------------------------------------------------------


def partial_kernel(k: kir.Kernel, sites: tuple[str, ...] | None = None) -> kir.Kernel:
    """The IR of P: each int64 ``//``/``%`` node of ``k`` whose key is in ``sites`` (default: every
    candidate) computed on int32 casts and cast back to int64; every other node as in ``k``."""
    keys = node_keys(k)
    chosen = set(candidate_sites(k) if sites is None else sites)
    unknown = chosen - set(candidate_sites(k))
    if unknown:
        raise PartialError(f"kernel {k.name}: {sorted(unknown)} are not int64 // or % nodes of the kernel")
    memo: dict[int, kir.Node] = {}

    def go(n: kir.Node) -> kir.Node:
        if id(n) in memo:
            return memo[id(n)]
        args = tuple(go(a) for a in n.args)
        if keys.get(id(n)) in chosen:
            x, d = (_narrow(a, k.name) for a in args)
            out = kir.node(kir.Op.CAST, kir.i64, (kir.node(n.op, kir.i32, (x, d)),), None)
        else:
            out = kir.node(n.op, n.type, args, n.attr)
        memo[id(n)] = out
        return out

    # bindings are mapped too: a division in a statement no access uses is part of the IR hash (kir.canon)
    return replace(k, loads=tuple(go(x) for x in k.loads), stores=tuple(go(x) for x in k.stores),
                   bindings=tuple(replace(b, node=go(b.node)) for b in k.bindings if isinstance(b.node, kir.Node)),
                   carries=tuple(replace(c, init=go(c.init), update=go(c.update)) for c in k.carries))


def _narrow(a: kir.Node, kname: str) -> kir.Node:
    if a.op is kir.Op.CAST and a.attr == IMPLICIT and a.args[0].type == kir.i32:
        return a.args[0]  # an int32 operand promoted only for this site
    if a.op is kir.Op.CONST and a.attr[1]:  # a weak literal: it takes the int32 operand's type
        if not INT32_MIN <= a.attr[0] <= INT32_MAX:
            raise PartialError(f"kernel {kname}: literal {a.attr[0]} in an int64 // or % does not fit int32")
        return kir.node(kir.Op.CONST, kir.i32, (), a.attr)
    return kir.node(kir.Op.CAST, kir.i32, (a,), None)


# -- P as text ------------------------------------------------------------------------------------------------


class _Rewrite(ast.NodeTransformer):
    """Rewrite the ``//``/``%`` at exactly the given source spans (kir's positions of the certified sites)."""

    def __init__(self, positions: set[Position], kname: str):
        self.positions, self.kname, self.done = positions, kname, set()

    def visit_BinOp(self, e: ast.BinOp) -> ast.expr:
        pos = position(e)
        self.generic_visit(e)
        if pos not in self.positions:
            return e
        self.done.add(pos)
        return _to(ast.BinOp(self._int32(e.left), e.op, self._int32(e.right)), "int64")

    def _int32(self, x: ast.expr) -> ast.expr:
        lit = x.operand if isinstance(x, ast.UnaryOp) and isinstance(x.op, (ast.USub, ast.UAdd)) else x
        if isinstance(lit, ast.Constant) and isinstance(lit.value, int):  # bool included: a Python literal
            value = -int(lit.value) if lit is not x and isinstance(x.op, ast.USub) else int(lit.value)
            if not INT32_MIN <= value <= INT32_MAX:
                raise PartialError(f"kernel {self.kname}: literal {value} in an int64 // or % does not fit "
                                   "int32; variant P cannot compute this site in int32")
            return x
        return _to(x, "int32")


def _to(x: ast.expr, dtype: str) -> ast.expr:
    tl = ast.Attribute(ast.Name("tl", ast.Load()), dtype, ast.Load())
    return ast.Call(ast.Attribute(x, "to", ast.Load()), [tl], [])


def _positions(record: Any, sites: tuple[str, ...]) -> set[Position]:
    k, spans = division_spans(record)
    keys = node_keys(k)
    unknown = set(sites) - set(candidate_sites(k))
    if unknown:
        raise PartialError(f"kernel {record.name}: the certificate names {sorted(unknown)}, which are not int64 // "
                           "or % nodes of this kernel")
    positions = {pos for pos, n in spans.items() if keys.get(id(n)) in set(sites)}
    written = {keys[id(spans[p])] for p in positions}
    missing = sorted(set(sites) - written, key=lambda s: int(s[1:]))
    if missing:
        raise PartialError(f"kernel {record.name}: certified sites {missing} are not written as // or % in the "
                           "kernel's text (a helper computes them); variant P cannot compute them in int32")
    return positions


_COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try, ast.FunctionDef,
             ast.AsyncFunctionDef, ast.ClassDef, ast.Match)


def _edits(record: Any, sites: tuple[str, ...]) -> list[tuple[int, int, str]]:
    """``(first line, last line, new text)`` in ``record.jit_source``'s lines (1-based): each simple statement
    holding a certified site, re-written with exactly those sites rewritten; every other line stays verbatim."""
    positions = _positions(record, sites)
    if not positions:
        return []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(record.jit_source)
    fn = next(s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == record.name)
    lines = record.jit_source.splitlines()
    edits, done = [], set()
    for stmt in ast.walk(fn):
        if not isinstance(stmt, ast.stmt) or isinstance(stmt, _COMPOUND):
            continue
        inside = {position(x) for x in ast.walk(stmt) if isinstance(x, ast.BinOp)} & positions
        if not inside:
            continue
        first = lines[stmt.lineno - 1]
        if first[: stmt.col_offset].strip() or lines[(stmt.end_lineno or stmt.lineno) - 1][stmt.end_col_offset or 0:].strip():
            raise PartialError(f"kernel {record.name}: line {stmt.lineno} holds more than one statement; variant P "
                               "rewrites whole statements only")
        rw = _Rewrite(inside, record.name)
        new = rw.visit(stmt)
        ast.fix_missing_locations(new)
        done |= rw.done
        edits.append((stmt.lineno, stmt.end_lineno or stmt.lineno, first[: stmt.col_offset] + ast.unparse(new)))
    if done != positions:  # a site in a compound statement's header (a loop bound): not rewritten here
        raise PartialError(f"kernel {record.name}: certified sites at {sorted(positions - done)} stand outside a "
                           "simple statement; variant P cannot rewrite them")
    return sorted(edits)


def _apply(lines: list[str], edits: list[tuple[int, int, str]], offset: int) -> list[str]:
    out = list(lines)
    for first, last, text in reversed(edits):
        end = out[last - 1 + offset][len(out[last - 1 + offset].rstrip("\r\n")):]
        out[first - 1 + offset : last + offset] = [text + (end or "\n")]
    return out


def partial_text(record: Any, sites: tuple[str, ...]) -> str:
    """The kernel function (``jit_source``) with exactly ``sites`` rewritten; not yet validated (see
    :func:`rewrite_module`, which validates)."""
    lines = record.jit_source.splitlines(keepends=True)
    return "".join(_apply(lines, _edits(record, sites), 0))


def partial_body(record: Any, sites: tuple[str, ...] | None = None) -> str:
    """The kernel function's text after its ``def`` line with P's rewrites of ``sites`` (default: the checker's
    certified sites now); validated against the certified P."""
    sites = certified_sites(record) if sites is None else tuple(sites)
    compiled = _validated(record, sites)
    text = compiled.jit_source
    return text[text.index("\n") + 1:]


def _def_line(record: Any) -> int:
    """The module line (1-based) of the kernel's ``def`` (``jit_source`` starts there)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(record.source)
    fns = [s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == record.name]
    if len(fns) != 1:
        raise PartialError(f"kernel {record.name}: the module defines it {len(fns)} times")
    return fns[0].lineno


def _replace(module: str, record: Any, edits: list[tuple[int, int, str]]) -> str:
    """``module`` (record.source line for line, possibly with Inductor's placeholder for the kernel name) with
    the edits applied at the kernel function's lines; everything else verbatim."""
    lines = module.splitlines(keepends=True)
    if len(lines) != len(record.source.splitlines(keepends=True)):
        raise PartialError(f"kernel {record.name}: the module text does not match its live record line for line; "
                           "variant P rewrites only a kernel it has parsed")
    return "".join(_apply(lines, edits, _def_line(record) - 1))


def validate(record: Any, sites: tuple[str, ...], compiled: Any) -> kir.Kernel:
    """Translation validation: ``compiled`` (a record of the text to be compiled) parses with kir to exactly
    :func:`partial_kernel` of ``record``'s IR at ``sites`` (canonical IR text, size facts aside). Returns the
    compiled IR; raises :class:`PartialError` naming the first difference otherwise."""
    want = canonical_text(partial_kernel(kir.parse(record, check_versions=False), tuple(sites)), facts=False)
    try:
        got_k = kir.parse(compiled, check_versions=False)
    except kir.RefusedConstruct as exc:
        raise PartialError(f"kernel {record.name}: P's text does not parse back into the IR ({exc})") from None
    except kir.KernelSourceError as exc:
        raise PartialError(f"kernel {record.name}: P's text is not a readable kernel ({exc})") from None
    got = canonical_text(got_k, facts=False)
    if got != want:
        a, b = got.splitlines(), want.splitlines()
        i = next((j for j, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        raise PartialError(
            f"kernel {record.name}: P's text is not the certified P (translation validation: IR line {i + 1} is "
            f"{a[i] if i < len(a) else '<end>'!r}, the certificate's P has {b[i] if i < len(b) else '<end>'!r}); "
            "the rule refuses to compile it")
    return got_k


def _validated(record: Any, sites: tuple[str, ...]) -> Any:
    """The record of P's module text, validated (:func:`validate`)."""
    compiled = replace(record, source=_replace(record.source, record, _edits(record, sites)))
    validate(record, sites, compiled)
    return compiled


def partial_record(record: Any, sites: tuple[str, ...] | None = None) -> Any:
    """``record`` with its module text replaced by P's (validated); ``sites`` default to the certified ones."""
    sites = certified_sites(record) if sites is None else tuple(sites)
    return _validated(record, sites)


def partial_variant(record_or_kernel: Any, sites: tuple[str, ...] | None = None) -> str:
    """P's text. A captured kernel record gives its kernel function (``jit_source``) with ``sites`` (default:
    the certified ones) rewritten and validated; a :class:`kir.Kernel` gives ``kir.render`` of
    :func:`partial_kernel` (default: every candidate site)."""
    if isinstance(record_or_kernel, kir.Kernel):
        return kir.render(partial_kernel(record_or_kernel, sites))
    compiled = partial_record(record_or_kernel, sites)
    return compiled.jit_source + "\n"


def rewrite_module(module: str, record: Any, sites: tuple[str, ...]) -> str:
    """``module`` (the kernel module text Inductor is about to define; ``record`` is its live record, made
    from the same text with the kernel named) with exactly ``sites`` rewritten. The record's version of the
    same rewrite is validated (:func:`validate`) before the module's is returned; decorators, signature and
    everything outside the body are kept verbatim."""
    edits = _edits(record, tuple(sites))
    _validated(record, tuple(sites))
    return _replace(module, record, edits)


def partial_sites(record: Any) -> dict[Position, kir.Type]:
    """Every ``//`` and ``%`` written in ``record``'s kernel text with the type kir derives for it (payload
    divisions included): a view of the text for reports, never the list P rewrites."""
    _, spans = division_spans(record)
    return {pos: n.type for pos, n in spans.items()}
