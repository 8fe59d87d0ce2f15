"""Emit a Lean instance file from a ``LeanInstance`` (stage: prove; deterministic text, no Lean needed).

The file states one kernel's narrowing theorem and its proof (docs/lean.md, "Generated instances"):

* the kernel's loads and store as ``Narrowing.Expr`` terms (subterms used more than once become named
  definitions, in order of first post-order occurrence): ``kernel_lines``;
* ``Bounds``, ``Guards``, ``SizesAt``: the captured lower bounds, guards and size expressions;
* one theorem ``side_k`` per side condition of the derivation (``workbench.lean.derive``), ``0 ≤ p`` over
  the shape symbols, closed by ``narrowing_side`` after the product facts ``polytext`` plans (a claim
  without a linear certificate is refused here, before Lean);
* ``kernel_safe`` (the derivation's proof: every ``side_k`` is cited) and ``narrowing_exact``, which has no
  per-lane hypothesis.

Determinism: sorted symbols and monomials, no clocks, no random numbers; golden files in
``tests/lean/golden``. Honesty: the header says the text was emitted without running Lean.
"""

from __future__ import annotations

import re
from pathlib import Path

import sympy

from workbench.lean import remit
from workbench.lean.derive import Derivation
from workbench.lean.errors import InstanceError
from workbench.lean.polytext import (  # re-exported: the emitter's public names
    Discharge,
    _expr_text,
    _hint_lines,
    _monomial_text,
    plan_discharge,
    render_expr,
    render_poly,
    side_plan,
)
from workbench.lean.indirect import premise_text
from workbench.lean.instance import LeanInstance, SideCondition
from workbench.lean.render import (  # re-exported: callers print terms through the emitter's names
    CMP_NAME,
    LEAN_TY,
    TermNamer,
    _doc,
    _payload_terms,
    _render_payload,
    _string,
    _TermNamer,
    definition_lines,
    term_roots,
)
from workbench.lean.rderive import RDerivation

LEAN_STATUS_LINE = (
    "Lean check: NOT RUN. Stated; a proof is written; not checked by Lean here. Only `make lean-check` "
    "(scripts/lean-check.sh) or `workbench lean check` on a machine with Lean can check it, and its record lists "
    "the axioms used."
)
LEAN_CHECKED_HERE = "stated; a proof is written; not checked by Lean here"
NOTHING_TO_NARROW = (
    "Nothing to narrow: the certificate narrows no size argument (`sizeArgs := []`), so the wide and the "
    "narrowed kernel are the same kernel and `narrowing_exact` holds trivially; counted apart from the instances "
    "that narrow something."
)
# The library files an instance imports when its text uses one of their names (``imports_for``); every
# instance imports ``Narrowing.Interval`` (and through it ``Int``, ``Expr``, ``Kernel``) and ``Narrowing.Tactic``.
# ``tests/lean/test_lean_library.py`` checks this table against the declarations in ``lean/Narrowing/``.
LIBRARY_USES = (
    ("Narrowing.Quotient", r"\b(?:Quot|Rem)\.\w+|\bBounded\.(?:floordiv|mod)\b"),
    ("Narrowing.Products", r"\bshift_mul[23]\b"),
    ("Narrowing.Indirect", r"\b(?:AssertHolds|Bounded\.assume|Expr\.agree_load_of_mask|Expr\.mand_ne_zero_of_ne_zero)\b"),
    ("Narrowing.Abs", r"\bBounded\.abs(?:_nonneg|_nonpos)?\b"),
    ("Narrowing.Uniform", r"\bBounded\.select(?:_true|_false)?\b|\bExpr\.holds_false_of_cmp_not_ne_zero\b"
                          r"|\bExpr\.(?:ge_of_cmp_lt|gt_of_cmp_le|le_of_cmp_gt|lt_of_cmp_ge)_not_ne_zero\b"),
    ("Narrowing.Reduction", r"\b(?:RKernel|RLoad|RStore|RCarry|RPayload)\b"),
    ("Narrowing.ReductionLanes", r"\b(?:RowOK|StepsOK|StepLaneOK|AllOf)\b"
                                 r"|\bBounded\.(?:rindex|loopOffset|rpos|rpos_block|rblock|rblock_fixed)\b"),
)
ALWAYS_IMPORTED = ("Narrowing.Interval", "Narrowing.Tactic")


def imports_for(body: str) -> list[str]:
    """The library modules an instance's Lean text (after its header) uses, in a fixed order: an instance
    imports only these, never the root ``Narrowing`` (so ``BitVecBridge`` and the files of other kernel
    classes are not built for it, and an error there cannot fail it)."""
    return [*ALWAYS_IMPORTED, *(m for m, pattern in LIBRARY_USES if re.search(pattern, body))]


def module_name(inst: LeanInstance) -> str:
    """``nested_cat_add`` + ``triton_poi_fused_add_cat_0`` -> ``NestedCatAdd_PoiFusedAddCat0``."""
    kernel = re.sub(r"^triton_", "", inst.kernel)
    return f"{_camel(inst.program)}_{_camel(kernel)}"


def _camel(text: str) -> str:
    parts = [p for p in re.split(r"[^0-9A-Za-z]+", text) if p]
    if not parts:
        raise InstanceError(f"cannot make a Lean module name from {text!r}: give the program a name with letters")
    out = "".join(p[:1].upper() + p[1:] for p in parts)
    return out if out[0].isalpha() else "K" + out


def derive(inst: LeanInstance):
    """Run the node-by-node derivation of ``kernel_safe`` (``workbench.lean.derive``): its side conditions
    and proof lines, with this module's renderers."""
    names = inst.symbol_names()
    roots = term_roots(inst)
    namer = TermNamer(roots)
    side_args = " ".join([*names, *(f"h_{n}" for n in names), *(f"g{j}" for j in range(len(inst.guards)))])
    kind = RDerivation if inst.reduction is not None else Derivation
    d = kind(inst, namer.render, lambda e: render_expr(e, names), side_args)
    proof = d.safe_proof()
    return namer, d, proof


def kernel_lines(inst: LeanInstance, namer: TermNamer | None = None) -> list[str]:
    """The ``def e*``, ``def load*`` and ``def kernel`` declarations of an instance (its kernel term)."""
    if inst.reduction is not None:
        return remit.kernel_lines(inst, namer or TermNamer(term_roots(inst)))
    if namer is None:
        namer = TermNamer(term_roots(inst))
    lines = definition_lines(namer)
    w = lines.append
    for i, ld in enumerate(inst.loads):
        w(f"/-- Load {i}. -/")
        w(f"def load{i} : Load := {{ ptr := {ld.ptr}, offset := {namer.render(ld.offset)},")
        w(f"  mask := {namer.render(ld.mask)}, other := {_string(ld.other)} }}")
        w("")
    narrowed = sorted(a.index for a in inst.size_args if a.narrowed)
    w(f"/-- The kernel `{inst.kernel}`: loads, store and the size arguments narrowed to `int32`. -/")
    w("def kernel : Kernel where")
    w(f"  name := {_string(inst.kernel)}")
    w(f"  sizeArgs := [{', '.join(str(i) for i in narrowed)}]")
    w(f"  loads := [{', '.join(f'load{i}' for i in range(len(inst.loads)))}]")
    w(f"  store := {{ ptr := {inst.store.ptr}, offset := {namer.render(inst.store.offset)},")
    w(f"    mask := {namer.render(inst.store.mask)},")
    w(f"    value := {_render_payload(inst.store.value, namer.render)} }}")
    w("")
    return lines


def _conj(parts: list[str]) -> str:
    return " ∧ ".join(parts) if parts else "True"


def _unpack(name: str, hyp: str, parts: list[tuple[str, str]], w) -> None:
    """``obtain`` the conjuncts of a premise, each with its stated type (so that ``omega`` sees it)."""
    if not parts:
        return
    if len(parts) == 1:
        w(f"  have {parts[0][0]} : {parts[0][1]} := {hyp}")
        return
    w(f"  obtain ⟨{', '.join(n for n, _ in parts)}⟩ := {hyp}")


def emit_instance(inst: LeanInstance) -> str:
    """The Lean text of one instance file (deterministic)."""
    names = inst.symbol_names()
    if len(set(names)) != len(names):
        raise InstanceError(f"{inst.kernel}: duplicate shape symbols in {list(names)}")
    for n in names:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n):
            raise InstanceError(f"{inst.kernel}: symbol name {n!r} is not a Lean identifier; rename it in the certificate")
    mod = module_name(inst)
    lower = {s.name: s.lower for s in inst.symbols}
    namer, d, proof = derive(inst)
    sides = sorted(d.sides.values(), key=lambda sd: sd.index)
    lines: list[str] = []
    w = lines.append
    binders = " ".join(f"({n} : Int)" for n in names)
    args = " ".join(names)
    bounds = [(f"h_{n}", f"{lower[n]} ≤ {n}") for n in names]
    guards = [(f"g{j}", f"0 ≤ {render_poly(g, names)}") for j, g in enumerate(inst.guards)]
    sizes = [(f"z{a.index}", f"L.sizes {a.index} = {render_expr(d.sizes[a.index], names)}")
             for a in sorted(inst.size_args, key=lambda a: a.index)]
    premises = [(d.premises[t], premise_text(t, namer.render)) for t in d.assumes]
    ha = " (hA : Asserts L)" if premises else ""

    w("/-!")
    w(f"# Narrowing instance: `{_doc(inst.program)}` kernel `{_doc(inst.kernel)}`")
    w("")
    w("Generated by `workbench lean emit`; do not edit (regenerate instead).")
    w("")
    w(f"* kernel hash: `{_doc(inst.hash)}`")
    w(f"* mode: {_doc(inst.mode)}; source: {_doc(inst.source)}")
    w(f"* {LEAN_STATUS_LINE}")
    w("")
    w("Shape symbols and lower bounds: " + ", ".join(f"`{s.name} ≥ {s.lower}`" for s in inst.symbols) + ".")
    w("Guards (each `≥ 0`): " + (", ".join(f"`{render_poly(g, names)}`" for g in inst.guards) or "none") + ".")
    w("Size arguments: " + ", ".join(
        f"`{a.name}` = `{_expr_text(a.expr, names)}` (`sizes {a.index}`, declared {a.wide_type}"
        + (", narrowed to i32)" if a.narrowed else ")") for a in inst.size_args) + ".")
    if narrows_nothing(inst):
        w(f"**{NOTHING_TO_NARROW}**")
    for note in inst.notes:
        w(f"Note: {_doc(note)}")
    if inst.splits:
        atoms = {u for _, us in inst.splits for u in us}
        w(f"Case splits (the certificate's `agree:` choices): {len(inst.splits)} offset(s) handled by cases on "
          f"{len(atoms)} uniform comparison(s) (`by_cases` in `kernel_safe`; every lane is in one part).")
    if d.rule_use:
        same = sum(1 for want, got in d.rule_use if want == got)
        w(f"Quotient/remainder rules: {same} of {len(d.rule_use)} division steps of `kernel_safe` apply the certificate's "
          "recorded rule; the others apply the first rule whose premises hold (any rule is sound: Lean checks them).")
    w("")
    w("What a check by Lean would establish: `kernel_safe` derives the per-lane premise `Kernel.Safe` on every")
    w("launched lane (`LaneOK`) from the lower bounds, the guards and the size arguments' values alone, by the")
    w("interval lemmas of `Narrowing/Interval.lean`, each endpoint premise closed by a `side_k`; and")
    if premises:
        w("`narrowing_exact` has no `Safe` hypothesis (only the premise on the inputs below). Trusted: the capture")
        w("of Inductor's facts, the IR parser, Triton's lowering (see docs/lean.md).")
    else:
        w("`narrowing_exact` has no per-lane hypothesis. Trusted: the capture of Inductor's facts, the IR parser,")
        w("Triton's lowering (see docs/lean.md).")
    if premises:
        w("")
        w(f"**Premise on the inputs** (`Asserts L`, {len(premises)} `tl.device_assert` on loaded indices): the")
        w("theorems assume that the index tensors hold indices within the asserted bounds wherever each assert's")
        w("mask holds. Triton compiles `tl.device_assert` away outside debug mode, so this is an assumption about")
        w("the caller's inputs, not something the kernel checks; `kernel_safe` uses it only to bound each asserted")
        w("index on lanes where its mask is set (`Bounded.assume`), as the checker does.")
    w("")
    w("## Main results")
    for sd in sides:
        w(f"* `side_{sd.index}`: {_doc('; '.join(sd.reasons))[:160]}.")
    if inst.reduction is not None:
        w("* `kernel_safe`: `Bounds s → Guards s → LaneOK L → SizesAt s L → RowOK L rs → StepsOK L js →")
        w(("  (∀ j r, j ∈ js ∨ j = 0 → r ∈ rs → Asserts (L.step j r)) → " if premises else "  ")
          + "kernel.Safe L rs js` (every step lane `L.step j r`, the inits, the accesses after the loops).")
        w("* `narrowing_exact`: under the same premises, the wide kernel and the kernel narrowed at")
        w("  `kernel.sizeArgs` observe the same loads and stores at every step of every loop and after them")
        w("  (`Narrowing.RKernel.narrowing_exact_of_safe`).")
    else:
        w(f"* `kernel_safe`: `Bounds s → Guards s → LaneOK L → SizesAt s L → {'Asserts L → ' if premises else ''}kernel.Safe L`.")
        w("* `narrowing_exact`: under the same premises, the wide kernel and the kernel narrowed at")
        w("  `kernel.sizeArgs` observe the same loads and store (`Narrowing.Kernel.narrowing_exact_of_safe`).")
    w("-/")
    w("")
    w("set_option linter.unusedVariables false")
    w("set_option maxHeartbeats 4000000")
    w("")
    w(f"namespace Instances.{mod}")
    w("")
    w("open Narrowing")
    w("")
    lines.extend(kernel_lines(inst, namer))
    w("/-- The shape symbols' lower bounds (Inductor's `var_to_range`). -/")
    w(f"def Bounds {binders} : Prop := {_conj([t for _, t in bounds])}")
    w("")
    w("/-- Inductor's guards, each `0 ≤ g` (Dynamo re-checks them on every call). -/")
    w(f"def Guards {binders} : Prop := {_conj([t for _, t in guards])}")
    w("")
    w("/-- The host passes each size argument as its recorded expression in the shape symbols. -/")
    w(f"def SizesAt {binders} (L : Lane) : Prop := {_conj([t for _, t in sizes])}")
    w("")
    if premises:
        w("/-- **The `tl.device_assert` premises, assumed about the inputs**: on lane `L` (its memory `L.mem`")
        w("included), wherever an assert's mask holds in the kernel as emitted, the loaded index it asserts lies")
        w("within its bounds. Triton compiles the asserts away outside debug mode, so nothing checks this at run")
        w("time: it is an assumption that the caller passes valid indices (one conjunct per assert node, in the")
        w("order of the kernel's terms). -/")
        w(f"def Asserts (L : Lane) : Prop := {_conj([t for _, t in premises])}")
        w("")
    lb_hyps = " ".join(f"({n} : {t})" for n, t in bounds)
    guard_hyps = " ".join(f"({n} : {t})" for n, t in guards)
    for sd in sides:
        plan = side_plan(sd.claim, inst, f"{inst.kernel} side condition {sd.index}")
        w(f"/-- {_doc('; '.join(sd.reasons))}. -/")
        w(f"theorem side_{sd.index} {binders}")
        w(f"    {lb_hyps}")
        if guard_hyps:
            w(f"    {guard_hyps}")
        w(f"    : 0 ≤ {render_expr(sd.claim, names)} := by")
        for k, exps in enumerate(plan.hints):
            w(_hint_lines(exps, names, lower, k))
        used = [f"{lam:g} * g{j}" for j, lam in enumerate(plan.guard_multipliers) if lam > 1e-9]
        w("  -- certificate: claim = " + (" + ".join(used) if used else "0 * guards")
          + (" + nonnegative multiples of the lower-bound shifts" + (" and m0.." if plan.hints else "")) )
        unused = [f"g{j}" for j, lam in enumerate(plan.guard_multipliers) if lam <= 1e-9]
        if unused:  # omega over the guards the certificate uses first (fewer facts), then everything
            w("  first")
            w(f"  | (clear {' '.join(unused)}; omega)")
            w("  | narrowing_side")
        else:
            w("  narrowing_side")
        w("")
    if inst.reduction is not None:
        safe_head, exact_lines = remit.theorem_lines(binders, args, inst.reduction, bool(premises))
    else:
        assumed = (" and the `tl.device_assert` premises `Asserts L` (an assumption about the inputs: the asserts "
                   "are compiled away, nothing checks them)" if premises else "")
        safe_head = [
            "/-- **Every launched lane satisfies the per-lane premise**, from the premises alone"
            + (" (the shape premises and the device_assert premises on the inputs, `Asserts L`)" if premises else "")
            + ". -/",
            f"theorem kernel_safe {binders} (hb : Bounds {args}) (hg : Guards {args})",
            f"    (L : Lane) (hL : LaneOK L) (hs : SizesAt {args} L){ha} : kernel.Safe L := by"]
        doc = [
            "/-- **Narrowing is exact for this kernel**: under the lower bounds and guards, on every launched lane",
            "whose size arguments are the recorded expressions, the wide and narrowed kernels observe the same loads",
            "and the same store. No per-lane hypothesis. -/"] if not premises else [
            "/-- **Narrowing is exact for this kernel**: under the lower bounds and guards" + assumed + ", on every",
            "launched lane whose size arguments are the recorded expressions, the wide and narrowed kernels observe",
            "the same loads and the same store. No `Safe` hypothesis. -/"]
        exact_lines = doc + [
            f"theorem narrowing_exact {binders} (hb : Bounds {args}) (hg : Guards {args})",
            f"    (L : Lane) (hL : LaneOK L) (hs : SizesAt {args} L){ha} :",
            "    kernel.observe .wide L = kernel.observe (.narrow kernel.sizeArgs) L :=",
            f"  (Kernel.narrowing_exact_of_safe (kernel_safe {args} hb hg L hL hs{' hA' if premises else ''})).1"]
    lines.extend(safe_head)
    _unpack("bounds", "hb", bounds, w)
    _unpack("guards", "hg", guards, w)
    _unpack("sizes", "hs", sizes, w)
    if inst.reduction is None:  # a reduction kernel's premise is unpacked at each step lane (rderive)
        _unpack("asserts", "hA", premises, w)
    lines.extend(proof)
    w("")
    lines.extend(exact_lines)
    w("")
    w(f"end Instances.{mod}")
    body = "\n".join(lines) + "\n"
    after_header = body.split("\n-/\n", 1)[1]
    # The status comes first (a comment may precede the imports): whoever reads only the top of the file, or a
    # truncated print of it (`workbench demo`), sees that Lean did not check it.
    top = f"/- Generated by `workbench lean emit`. Lean check: NOT RUN ({LEAN_CHECKED_HERE}). -/\n"
    return top + "".join(f"import {m}\n" for m in imports_for(after_header)) + "\n" + body


def narrows_nothing(inst: LeanInstance) -> bool:
    """The certificate narrows no size argument: ``sizeArgs := []``, wide and narrowed kernel coincide."""
    return not any(a.narrowed for a in inst.size_args)


def index_text(modules: list[str], refused: list[str] = (), trivial: list[str] = ()) -> str:
    """``lean/Instances.lean``: imports every instance module, sorted; lists the instances that narrow nothing
    (``trivial``) and the kernels without an instance."""
    body = "\n".join(f"import Instances.{m}" for m in sorted(modules))
    out = (body + "\n\n" if body else "") + "/-!\n# Generated narrowing instances\n\nImports every file of `Instances/` " \
        "(regenerated by `scripts/lean-regen.sh`).\n\n" + LEAN_STATUS_LINE + "\n"
    if trivial:
        out += (f"\nInstances that narrow nothing ({len(trivial)} of {len(modules)}: `sizeArgs := []`, the wide and the "
                "narrowed kernel are the same, so their `narrowing_exact` is trivial):\n")
        out += "".join(f"* {m}\n" for m in sorted(trivial))
    if refused:
        out += "\nKernels without an instance (the checker refused them, or the Lean derivation has no rule yet):\n"
        out += "".join(f"* {_doc(r)}\n" for r in refused)
    return out + "-/\n"


def write_instance(inst: LeanInstance, out_dir: Path) -> Path:
    """Write the instance file into ``out_dir`` (created); the checkout's ``lean/`` is written only by
    ``workbench.lean.regen``."""
    out_dir = Path(out_dir)
    text = emit_instance(inst)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{module_name(inst)}.lean"
    path.write_text(text)
    return path


def instance_summary(inst: LeanInstance) -> dict:
    """What the CLI reports for an emitted instance (JSON-ready)."""
    _, d, _ = derive(inst)
    return {"program": inst.program, "name": inst.kernel, "module": module_name(inst), "hash": inst.hash,
            "side_conditions": len(d.sides), "checker_side_conditions": len(inst.side_conditions)}


def side_condition_table(inst: LeanInstance) -> list[dict]:
    """Rows for notebooks and widgets: each side condition of the derivation in Lean syntax, with its plan."""
    names = inst.symbol_names()
    _, d, _ = derive(inst)
    rows = []
    for sd in sorted(d.sides.values(), key=lambda sd: sd.index):
        plan = side_plan(sd.claim, inst, f"{inst.kernel} side condition {sd.index}")
        rows.append({
            "theorem": f"side_{sd.index}",
            "claim": f"0 ≤ {render_expr(sd.claim, names)}",
            "reason": "; ".join(sd.reasons),
            "origin": "kernel_safe",
            "product_facts": len(plan.hints),
            "guard_multipliers": list(plan.guard_multipliers),
            "lean_checked": False,
        })
    return rows


__all__ = ["emit_instance", "index_text", "module_name", "plan_discharge", "render_poly", "side_condition_table",
           "write_instance", "SideCondition"]
