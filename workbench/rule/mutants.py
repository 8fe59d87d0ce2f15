"""Weakened premises: for a certified kernel and its live compilation, the variants the rule must refuse —
each guard the certificate uses dropped, or weakened (a larger bound), each shape symbol's lower bound
lowered to 0 or 1, and each ``tl.device_assert`` premise's upper bound put on another size argument or
doubled (a different assumption about the inputs). Used by the binding tests and to list refusals in
notebook 01."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator

import sympy

from workbench.capture.record import CapturedKernel
from workbench.rule.binding import Binding, CertifiedKernel, bind
from workbench.symexpr import parse_any, parse_relation


def weakenings(guard: str) -> list[str]:
    """Strictly weaker forms of an inequality guard (none for an equality: it can only be dropped)."""
    g = parse_relation(guard, where="guard to weaken")
    if isinstance(g, (sympy.LessThan, sympy.StrictLessThan)):
        return [str(type(g)(g.lhs, g.rhs + 1)), str(type(g)(g.lhs, 2 * g.rhs + 1))]
    if isinstance(g, (sympy.GreaterThan, sympy.StrictGreaterThan)):
        return [str(type(g)(g.lhs, g.rhs - 1))]
    return []


def premise_mutants(cert: CertifiedKernel, live: CapturedKernel) -> Iterator[tuple[str, CapturedKernel]]:
    """(description, mutated live record) for every weakened premise of ``cert`` (which must bind ``live``)."""
    b = bind(cert, live, cert.ir_hash)
    if not b.bound:
        raise ValueError(f"{live.name} does not bind to {cert.record.name}: {b.failed}")
    subs = {sympy.Symbol(a): sympy.Symbol(c) for a, c in b.renaming}
    for g in cert.guards_used:
        live_g = parse_any(g, where="certified guard").xreplace(subs)
        rest = tuple(x for x in live.guards if parse_any(x, where="live guard") != live_g)
        yield f"drop guard {live_g}", dataclasses.replace(live, guards=rest)
        for w in weakenings(str(live_g)):
            yield f"weaken guard to {w}", dataclasses.replace(live, guards=rest + (w,))
    for i, s in enumerate(live.symbols):
        for lo in (0, 1):
            syms = live.symbols[:i] + (dataclasses.replace(s, lower=lo),) + live.symbols[i + 1 :]
            yield f"lower bound of {s.name} lowered to {lo}", dataclasses.replace(live, symbols=syms)
    if cert.asserts:
        yield from assert_mutants(live)


def assert_mutants(live: CapturedKernel) -> Iterator[tuple[str, CapturedKernel]]:
    """The live kernel with one ``tl.device_assert``'s upper bound ``v < hi`` rewritten in its text: ``hi`` on
    another size argument (a bound on a different symbol) and ``2*hi`` (a weaker bound). Only the assert
    changes: a rule that compared the body alone would bind these to the certificate's proof."""
    from workbench.capture.record import source_hash

    lines = live.source.splitlines(keepends=True)
    sizes = [a.name for a in live.size_args]
    for i, line in enumerate(lines):
        text = line.strip()
        if not text.startswith("tl.device_assert("):
            continue
        call = ast.parse(text).body[0].value
        for node in ast.walk(call.args[0]):
            if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Lt)):
                continue
            v, hi = (ast.get_source_segment(text, x) for x in (node.left, node.comparators[0]))
            old = f"({v} < {hi})"
            for what, new in [(f"bound on {other} instead of {hi}", other) for other in sizes if other != hi] + \
                    [(f"bound weakened to 2*{hi}", f"2*{hi}")]:
                if old not in line:
                    continue
                source = "".join(lines[:i] + [line.replace(old, f"({v} < {new})", 1)] + lines[i + 1:])
                yield (f"device_assert at line {i + 1}: {what}",
                       dataclasses.replace(live, source=source, source_hash=source_hash(source, live.name)))


def live_records(program: str) -> list[CapturedKernel]:
    """The kernels of ``program`` as the rule sees them: live, at Inductor's kernel definition."""
    from workbench.capture import capture
    from workbench.capture.integration import kernel_definition_hook

    seen: list[CapturedKernel] = []

    def decide(k):
        seen.append(k.record)
        return None

    with kernel_definition_hook(decide):
        capture(program)
    return seen


def refusals(cert: CertifiedKernel, live: CapturedKernel) -> list[tuple[str, Binding]]:
    """Each weakened premise and the rule's answer to it."""
    return [(what, bind(cert, m, cert.ir_hash)) for what, m in premise_mutants(cert, live)]
