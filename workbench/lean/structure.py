"""Structure checks of an emitted instance that need no Lean (stage: prove; what CI can check here).

``check_structure(text, inst)`` reads a generated ``Instances/*.lean`` file as text and returns the list of
problems (empty when it passes):

* the final theorem ``narrowing_exact`` has no ``Safe`` hypothesis (its binders are exactly the shape
  symbols, ``Bounds``, ``Guards``, a lane, ``LaneOK`` and ``SizesAt``), and its proof term applies ``kernel_safe``;
* every ``side_k`` theorem is referenced by the proof of ``kernel_safe``, and ``kernel_safe`` cites no
  theorem that is not declared;
* the shape and lane premises are exactly the captured ones: ``Bounds`` states each symbol's lower bound,
  ``Guards`` each guard, ``SizesAt`` each size argument's recorded expression, and nothing else;
* the kernel term (``def e*``, ``def load*``, ``def kernel``) is the one rendered from the kernel the
  certificate's hash names (``expected_kernel_text``), and the header carries that hash;
* a kernel with ``tl.device_assert`` premises (assume nodes) states exactly one ``AssertHolds`` per node in
  ``Asserts`` (same value, mask, bounds and flags as the node: none dropped, weakened or added), both
  theorems take ``(hA : Asserts L)`` and nothing else beyond the premises above, and ``narrowing_exact``'s
  docstring says the premise is an assumption about the inputs; a kernel without one has no ``Asserts``;
* no ``sorry``, ``admit`` or ``axiom``, and the header says Lean did not check it.

Passing these checks says the file has the right *shape*; only Lean says its proofs are proofs.
"""

from __future__ import annotations

import re

from workbench.lean.instance import LeanInstance

_DECL = re.compile(r"^(?:(?:theorem|def|lemma|abbrev|instance|axiom|structure|inductive|end|namespace|set_option|open)\b|/--)",
                   re.M)


def declarations(text: str) -> dict[str, str]:
    """``name -> full text`` of every top-level ``theorem``/``def`` (until the next top-level declaration)."""
    starts = [m.start() for m in _DECL.finditer(text)] + [len(text)]
    out: dict[str, str] = {}
    for a, b in zip(starts, starts[1:]):
        chunk = text[a:b]
        m = re.match(r"(theorem|def)\s+([A-Za-z_][A-Za-z0-9_'.]*)", chunk)
        if m:
            out[m.group(2)] = chunk.rstrip()
    return out


def _statement(decl: str) -> str:
    """A theorem's binders and statement: everything before its first ``:=``."""
    return decl.split(":=", 1)[0]


def _conjuncts(decl: str) -> list[str]:
    body = decl.split(":=", 1)[1].strip()
    return [] if body == "True" else [c.strip() for c in body.split(" ∧ ")]


def expected_kernel_text(inst: LeanInstance) -> str:
    """The ``def e*``/``def load*``/``def kernel`` block the emitter writes for ``inst``'s terms."""
    from workbench.lean.emit import kernel_lines

    return kernel_block("\n".join(kernel_lines(inst)) + "\n")


def kernel_block(text: str) -> str:
    decls = declarations(text)
    keys = [k for k in decls if re.fullmatch(r"e\d+|r?load\d+|rstore\d+|carry\d+|kernel", k)]
    return "\n".join(decls[k] for k in keys)


def _docstring(text: str, decl: str) -> str:
    """The ``/-- … -/`` comment right before ``decl`` (empty when there is none)."""
    at = text.find(decl)
    start = text.rfind("/--", 0, at) if at >= 0 else -1
    end = text.rfind("-/", 0, at)
    return text[start:end] if 0 <= start < end and not text[end + 2:at].strip() else ""


def expected_asserts(inst: LeanInstance) -> list[str]:
    """The ``AssertHolds`` conjuncts the emitter writes for ``inst``'s assume nodes (names as in the file)."""
    from workbench.lean.render import TermNamer as _TermNamer, term_roots
    from workbench.lean.indirect import premise_text
    from workbench.lean.instance import assumes_in

    roots = term_roots(inst)
    namer = _TermNamer(roots)
    return [premise_text(t, namer.render) for t in assumes_in(roots)]


def check_structure(text: str, inst: LeanInstance, expected_kernel: str | None = None) -> list[str]:
    """Problems with an emitted instance's structure (see the module docstring); ``[]`` when it passes."""
    from workbench.lean.emit import LEAN_STATUS_LINE, render_expr, render_poly

    problems: list[str] = []
    decls = declarations(text)
    names = inst.symbol_names()
    for word in ("sorry", "admit"):
        if re.search(rf"\b{word}\b", text):
            problems.append(f"the file contains `{word}`")
    if re.search(r"^axiom\b", text, re.M):
        problems.append("the file declares an axiom")
    if LEAN_STATUS_LINE not in text:
        problems.append("the header does not say whether Lean checked the file (expected the NOT RUN line)")
    if f"kernel hash: `{inst.hash}`" not in text:
        problems.append(f"the header does not carry the certificate's kernel hash {inst.hash}")
    final = decls.get("narrowing_exact")
    safe = decls.get("kernel_safe")
    if final is None or safe is None:
        return problems + ["missing `narrowing_exact` or `kernel_safe`"]
    args = " ".join(names)
    premises = (f"(hb : Bounds {args}) (hg : Guards {args}) (L : Lane) (hL : LaneOK L) (hs : SizesAt {args} L)")
    allowed = {*names, "hb", "hg", "L", "hL", "hs"}
    want_asserts = expected_asserts(inst)
    if want_asserts:
        allowed.add("hA")
        got = _conjuncts(decls["Asserts"]) if "Asserts" in decls else None
        if got != want_asserts:
            problems.append(f"`Asserts` states {got}, the kernel's device_assert premises are {want_asserts}")
        if "assumption about the inputs" not in _docstring(text, "theorem narrowing_exact"):
            problems.append("`narrowing_exact`'s docstring does not say that `Asserts L` is an assumption about the inputs")
    elif "Asserts" in decls:
        problems.append("`Asserts` is declared, but the kernel has no device_assert premise")
    if inst.reduction is not None:
        # Reduction kernels: every row of tl.arange(0, R0_BLOCK) and every step list of the loop's range
        # whose offsets stay in int32 (Narrowing/ReductionLanes.lean), and nothing else.
        from workbench.lean.remit import red_premises

        premises += " " + red_premises(inst.reduction)
        allowed |= {"rs", "js", "hrs", "hjs"} | ({"hB"} if inst.reduction.static_block is not None else set())
        if f"  loops := {inst.reduction.loops}" not in text:
            problems.append(f"`kernel` does not state the kernel's {inst.reduction.loops} loop(s)")
    if want_asserts:
        from workbench.lean.remit import RED_ASSERTS

        # The premise on the inputs, at the lane (pointwise) or at every step lane of the theorem (reductions).
        premises += " " + (RED_ASSERTS if inst.reduction is not None else "(hA : Asserts L)")
        if inst.reduction is not None:
            allowed |= {"j", "r"}  # bound inside RED_ASSERTS's `∀ (j : Nat) (r : Int)`
    for label, decl in (("narrowing_exact", final), ("kernel_safe", safe)):
        stmt = " ".join(_statement(decl).split())
        binders = re.findall(r"\((\w+) : ([^()]*)\)", stmt)
        if any("Safe" in ty for _, ty in binders) or (label == "narrowing_exact" and "Safe" in stmt):
            problems.append(f"`{label}` takes a `Safe` hypothesis")
        if premises not in stmt:
            problems.append(f"`{label}`'s premises are not exactly the shape symbols, Bounds, Guards, LaneOK, SizesAt"
                            + (", RowOK, StepsOK" if inst.reduction is not None else ""))
        extra = {b for b, _ in binders} - allowed
        if extra:
            problems.append(f"`{label}` has extra hypotheses {sorted(extra)}")
    if "kernel_safe" not in final.split(":=", 1)[1]:
        problems.append("`narrowing_exact`'s proof does not apply `kernel_safe`")
    sides = sorted((k for k in decls if re.fullmatch(r"side_\d+", k)), key=lambda k: int(k[5:]))
    body = safe.split(":=", 1)[1]
    for k in sides:
        if not re.search(rf"\b{k}\b", body):
            problems.append(f"`{k}` is not used by `kernel_safe`")
    for k in set(re.findall(r"\bside_\d+\b", body)) - set(sides):
        problems.append(f"`kernel_safe` cites `{k}`, which is not declared")
    want_bounds = [f"{s.lower} ≤ {s.name}" for s in inst.symbols]
    want_guards = [f"0 ≤ {render_poly(g, names)}" for g in inst.guards]
    want_sizes = [f"L.sizes {a.index} = {render_expr(a.expr, names)}" for a in sorted(inst.size_args, key=lambda a: a.index)]
    for label, want in (("Bounds", want_bounds), ("Guards", want_guards), ("SizesAt", want_sizes)):
        got = _conjuncts(decls[label]) if label in decls else None
        if got != want:
            problems.append(f"`{label}` states {got}, the captured premises are {want}")
    if expected_kernel is not None and kernel_block(text) != expected_kernel:
        problems.append("the kernel term differs from the one rendered from the kernel the certificate's hash names")
    return problems


__all__ = ["check_structure", "declarations", "expected_asserts", "expected_kernel_text", "kernel_block"]
