"""Derive ``RKernel.Safe`` for a reduction kernel, lane by lane and step by step (stage: prove).

The proof of a reduction instance's

    kernel_safe : ∀ s, Bounds s → Guards s → ∀ L, LaneOK L → SizesAt s L →
                  ∀ rs js, RowOK L rs → StepsOK L js → kernel.Safe L rs js

(``lean/Narrowing/Reduction.lean``, ``ReductionLanes.lean``) is the pointwise derivation
(``workbench.lean.derive``) run at the lanes of each reduction step: for every loop ``ℓ`` (``intro ℓ … j hj``,
then one case per loop), every r position of the row (``intro r hr``) at the step lane ``L.step j r``
(``StepLaneOK.of_row``: a launched lane, ``r0_offset`` and ``r0_index`` in ``int32``), the loop's loads, its
stores' masks, offsets and values, and its accumulator updates; the inits at ``L.step 0 r``; the accesses
after the loops likewise. New leaf rules: ``r0_index = r0_offset + tl.arange(0, R0_BLOCK)``
(``Bounded.rindex``), ``r0_offset`` (``Bounded.loopOffset``), ``tl.arange(0, R0_BLOCK)`` (``Bounded.rpos``).
Payloads add ``acc`` (nothing to prove), ``reduce`` and ``scan`` (the operand at every r position of the row:
a new lane scope per position). Each filtered access list is computed by ``rfl`` and its premise given as one
fact per element (``AllOf.of_mem``).

Nothing here runs Lean: the text is a proof only once ``lake build`` accepts it (docs/lean.md).
"""

from __future__ import annotations

from contextlib import contextmanager

import sympy

from workbench.errors import UnsupportedError
from workbench.lean.derive import Derivation
from workbench.lean.scope import IMAX, Scope
from workbench.lean.indirect import premise_text
from workbench.lean.instance import Payload, PayloadOp
from workbench.lean.reduction import RKernelTerms


def _chain(facts: list[str]) -> str:
    """``And.intro f0 (And.intro f1 … True.intro)``: an ``AllOf`` conjunction."""
    out = "True.intro"
    for f in reversed(facts):
        out = f"(And.intro {f} {out})"
    return out


class RDerivation(Derivation):
    """The derivation of ``RKernel.Safe``; lane-dependent state (``lane``, ``lane_ok``, ``step_ok``) moves
    to each step lane in turn."""

    def __init__(self, inst, render, poly_text, side_args: str) -> None:
        super().__init__(inst, render, poly_text, side_args)
        if inst.reduction is None:
            raise UnsupportedError(f"{inst.kernel}: not a reduction kernel")
        self.rk: RKernelTerms = inst.reduction
        self.row = "L.step 0"  # the row of the current step: `L.step j` in a loop, `L.step 0` after it
        self.step_of = ""  # how a step lane's `StepLaneOK` is obtained from `hr`, e.g. `StepLaneOK.of_row … {hr} hj`
        # The step (`j` or `0`) and the proof of `j ∈ js ∨ j = 0` for the premise `hA` at the current row.
        self.step_j = ("0", "(Or.inr rfl)")

    @contextmanager
    def at(self, r: str, hr: str, scope: Scope):
        """Facts about lane ``row r`` in a fresh scope (facts of another lane must not be reused); its lines
        are appended to ``scope`` when the block ends."""
        saved = (self.lane, self.lane_ok, self.step_ok, self.premises)
        hs = self.fresh("hS")
        scope.w(f"have {hs} : StepLaneOK ({self.row} {r}) := {self.step_of.format(hr=hr)}")
        self.lane, self.lane_ok, self.step_ok = f"({self.row} {r})", f"{hs}.lane", hs
        if self.assumes:  # the device_assert premises at this step lane (an assumption about the inputs)
            names = [self.fresh("pa") for _ in self.assumes]
            texts = [premise_text(t, self.render, self.lane) for t in self.assumes]
            j, hj = self.step_j
            got = f"hA {j} {r} {hj} {hr}"
            if len(names) == 1:
                scope.w(f"have {names[0]} : {texts[0]} := {got}")
            else:
                scope.w(f"obtain ⟨{', '.join(names)}⟩ : {' ∧ '.join(texts)} := {got}")
            self.premises = dict(zip(self.assumes, names))
        inner = Scope(scope.indent)
        try:
            yield inner
        finally:
            scope.lines.extend(inner.lines)
            self.lane, self.lane_ok, self.step_ok, self.premises = saved

    # -- payloads of reduction kernels (Narrowing.RPayload.Agree) ---------------------------------------------
    def agree_payload(self, p: Payload, scope: Scope) -> None:
        match p.op:
            case PayloadOp.CONST | PayloadOp.ACC:
                scope.w("exact True.intro")
            case PayloadOp.LOAD:
                if p.index is None or not 0 <= p.index < len(self.rk.loads):
                    scope.w("exact True.intro")
                    return
                ld = self.rk.loads[p.index].load
                scope.w(f"show load{p.index}.Agree kernel.sizeArgs {self.lane}")
                self.access(ld.mask, ld.offset, scope)
            case PayloadOp.INT | PayloadOp.UN | PayloadOp.BIN | PayloadOp.WHERE:
                self.agree_payload_structure(p, scope)
            case PayloadOp.REDUCE | PayloadOp.SCAN:
                r, hr = self.fresh("r"), self.fresh("hr")
                scope.w(f"intro {r} {hr}")
                with self.at(r, hr, scope) as inner:
                    self.agree_payload(p.args[0], inner)

    # -- one row: `StepSafe` -----------------------------------------------------------------------------------
    def step_safe(self, loop: int, scope: Scope) -> None:
        rk = self.rk
        loads = [i for i, ld in enumerate(rk.loads) if ld.loop == loop]
        stores = [i for i, st in enumerate(rk.stores) if st.loop == loop]
        scope.w("refine ⟨?_, ?_, ?_, ?_, ?_⟩")
        parts = [("loads", "rload", loads), ("stores", "rstore", stores), ("stores", "rstore", stores),
                 ("stores", "rstore", stores), ("carries", "carry", list(range(len(rk.carries))))]
        for field, (lst, prefix, idx) in zip(("loads", "storeMask", "storeOffset", "storeValue", "carries"), parts):
            s = scope.child("  ")
            s.w("intro r hr")
            if field != "carries":
                listed = ", ".join(f"{prefix}{i}" for i in idx)
                unfold = ", ".join(["kernel", *(f"{prefix}{i}" for i in range(len(getattr(rk, lst))))])
                s.w(f"have hfl : kernel.{lst}.filter (fun x => x.loop == {loop}) = [{listed}] := by first | rfl | simp [{unfold}]")
                s.w("rw [hfl]")
            facts = []
            with self.at("r", "hr", s) as inner:
                for i in idx:
                    name = f"F{self.fresh('f')}"
                    facts.append(name)
                    self.step_fact(field, loop, i, name, inner)
            s.w(f"exact AllOf.of_mem {_chain(facts)}")
            scope.bullet(s)

    def step_fact(self, field: str, loop: int, i: int, name: str, scope: Scope) -> None:
        """``have name : <the premise of element i>`` with its proof, at the current lane."""
        rk, lane, c = self.rk, self.lane, scope.child("  ")
        match field:
            case "loads":
                ld = rk.loads[i].load
                scope.w(f"have {name} : load{i}.Agree kernel.sizeArgs {lane} := by")
                self.access(ld.mask, ld.offset, c)
            case "storeMask":
                scope.w(f"have {name} : rstore{i}.mask.Agree kernel.sizeArgs {lane} := by")
                self.agree(rk.stores[i].store.mask, c)
            case "storeOffset" | "storeValue":
                st = rk.stores[i].store
                what = (f"rstore{i}.offset.Agree kernel.sizeArgs {lane}" if field == "storeOffset" else
                        f"RPayload.Agree kernel.sizeArgs kernel.lds rs ({self.row}) rstore{i}.value r")
                scope.w(f"have {name} : rstore{i}.mask.eval (.narrow kernel.sizeArgs) {lane} ≠ 0 → {what} := by")
                hm = self.fresh("hm")
                c.w(f"intro {hm}")
                self.split(st.mask, hm, c)
                if field == "storeOffset":
                    self.agree(st.offset, c)
                else:
                    self.agree_payload(st.value, c)
            case "carries":
                carry = rk.carries[i]
                scope.w(f"have {name} : carry{i}.loop = {loop} → "
                        f"RPayload.Agree kernel.sizeArgs kernel.lds rs ({self.row}) carry{i}.update r := by")
                c.w("intro hcl")
                if carry.loop == loop:
                    self.agree_payload(carry.update, c)
                else:
                    c.w(f"exact absurd hcl (by first | decide | simp [carry{i}])")
            case _:
                raise UnsupportedError(f"no StepSafe field {field}")  # pragma: no cover - every field is listed
        scope.lines.extend(c.lines)

    # -- the whole proof ---------------------------------------------------------------------------------------
    def safe_proof(self) -> list[str]:
        """The tactic lines of ``kernel_safe`` (``RKernel.Safe L rs js``) after the premises are unpacked."""
        rk, top = self.rk, Scope("  ")
        top.w(f"have hkl : kernel.loops = {rk.loops} := rfl")
        fits = []
        for a in sorted(self.inst.size_args, key=lambda a: a.index):
            if a.narrowed:
                v = self.sizes[a.index]
                fits.append(f"(And.intro {self.close(sympy.Integer(-(2**31)), v, f'size argument {a.index} fits int32')} "
                            f"{self.close(v, sympy.Integer(IMAX), f'size argument {a.index} fits int32')})")
        top.w(f"refine ⟨SizesFit.fits_of_mem (ns := kernel.sizeArgs) {_chain(fits)}, ?_, ?_, ?_⟩")
        # Every step of every loop.
        s = top.child("  ")
        if rk.loops == 0:
            s.w("intro ℓ h1 h2")
            s.w("exfalso")
            s.w("omega")
        else:
            s.w("intro ℓ h1 h2 j hj")
            self.row, self.step_of = "L.step j", "StepLaneOK.of_row hL hrs hjs {hr} hj"
            self.step_j = ("j", "(Or.inl hj)")
            if rk.loops == 1:
                s.w("obtain rfl : ℓ = 1 := by omega")
                self.step_safe(1, s)
            else:
                s.w(f"have hℓ : {' ∨ '.join(f'ℓ = {k}' for k in range(1, rk.loops + 1))} := by omega")
                s.w("rcases hℓ with " + " | ".join(["rfl"] * rk.loops))
                for loop in range(1, rk.loops + 1):
                    b = s.child("  ")
                    self.step_safe(loop, b)
                    s.bullet(b)
        top.bullet(s)
        # The accumulators' inits, at the first row.
        self.row, self.step_of = "L.step 0", "StepLaneOK.of_after hL hrs {hr}"
        self.step_j = ("0", "(Or.inr rfl)")
        s = top.child("  ")
        s.w("intro r hr")
        facts = []
        with self.at("r", "hr", s) as inner:
            for i, carry in enumerate(rk.carries):
                name = f"I{i}"
                facts.append(name)
                inner.w(f"have {name} : RPayload.Agree kernel.sizeArgs kernel.lds rs (L.step 0) carry{i}.init r := by")
                c = inner.child("  ")
                self.agree_payload(carry.init, c)
                inner.lines.extend(c.lines)
        s.w(f"exact AllOf.of_mem {_chain(facts)}")
        top.bullet(s)
        # The accesses after the loops.
        s = top.child("  ")
        self.step_safe(0, s)
        top.bullet(s)
        return top.lines


__all__ = ["RDerivation"]
