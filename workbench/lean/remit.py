"""Emit the Lean text of a reduction kernel's instance (stage: prove; deterministic, no Lean needed).

The parts that differ from a pointwise instance (``workbench.lean.emit`` writes the rest: header, premises,
side conditions): the kernel as a ``Narrowing.RKernel`` (``def load*``, ``def rload*`` with its loop,
``def rstore*``, ``def carry*``, ``def kernel : RKernel``), the derivation (``workbench.lean.rderive``), and
the two theorems

    kernel_safe     : Bounds s → Guards s → ∀ L, LaneOK L → SizesAt s L →
                      ∀ rs js, RowOK L rs → StepsOK L js → kernel.Safe L rs js
    narrowing_exact : (same premises) → kernel.observe .wide L rs js = kernel.observe (.narrow kernel.sizeArgs) L rs js

(``RKernel.narrowing_exact_of_safe``, ``lean/Narrowing/Reduction.lean``): no per-lane hypothesis; the row
and the steps are quantified, bounded only by ``tl.arange(0, R0_BLOCK)`` and the loop's range in ``int32``.
"""

from __future__ import annotations

from workbench.lean.instance import LeanInstance, Term
from workbench.lean.reduction import RKernelTerms
from workbench.lean.render import _render_payload, _string, definition_lines, reduction_roots

RED_PREMISES = "(rs : List Int) (js : List Nat) (hrs : RowOK L rs) (hjs : StepsOK L js)"
# The device_assert premises of a reduction kernel, at every step lane the theorem is about: every r position
# of the row at every listed step and at r0_offset = 0 (the inits and the accesses after the loops).
RED_ASSERTS = "(hA : ∀ (j : Nat) (r : Int), j ∈ js ∨ j = 0 → r ∈ rs → Asserts (L.step j r))"


def red_premises(rk: RKernelTerms) -> str:
    """The row and step premises; a kernel that fixes ``R0_BLOCK: tl.constexpr = B`` is launched with it."""
    return RED_PREMISES + (f" (hB : L.block 2 = {rk.static_block})" if rk.static_block is not None else "")


def roots(rk: RKernelTerms) -> list[Term]:
    """Every index term of the kernel, in a fixed order (loads, stores, carries), for shared-subterm names."""
    return reduction_roots(rk)


def kernel_lines(inst: LeanInstance, namer) -> list[str]:
    """``def e*``, ``def load*``, ``def rload*``, ``def rstore*``, ``def carry*`` and ``def kernel : RKernel``."""
    rk: RKernelTerms = inst.reduction
    lines = definition_lines(namer)
    w = lines.append
    for i, rl in enumerate(rk.loads):
        ld = rl.load
        w(f"/-- Load {i} ({'loop ' + str(rl.loop) if rl.loop else 'outside the loops'}). -/")
        w(f"def load{i} : Load := {{ ptr := {ld.ptr}, offset := {namer.render(ld.offset)},")
        w(f"  mask := {namer.render(ld.mask)}, other := {_string(ld.other)} }}")
        w("")
        w(f"def rload{i} : RLoad := {{ load := load{i}, loop := {rl.loop} }}")
        w("")
    for i, rs in enumerate(rk.stores):
        st = rs.store
        w(f"/-- Store {i} ({'loop ' + str(rs.loop) if rs.loop else 'outside the loops'}). -/")
        w(f"def rstore{i} : RStore := {{ ptr := {st.ptr}, offset := {namer.render(st.offset)},")
        w(f"  mask := {namer.render(st.mask)},")
        w(f"  value := {_render_payload(st.value, namer.render)}, loop := {rs.loop} }}")
        w("")
    for i, c in enumerate(rk.carries):
        w(f"/-- Accumulator {i} of loop {c.loop}: its value before the loop and after one step. -/")
        w(f"def carry{i} : RCarry := {{ loop := {c.loop}, init := {_render_payload(c.init, namer.render)},")
        w(f"  update := {_render_payload(c.update, namer.render)} }}")
        w("")
    narrowed = sorted(a.index for a in inst.size_args if a.narrowed)
    w(f"/-- The reduction kernel `{inst.kernel}` ({rk.loops} loop(s); 0: persistent) and the size arguments "
      "narrowed to `int32`. -/")
    w("def kernel : RKernel where")
    w(f"  name := {_string(inst.kernel)}")
    w(f"  sizeArgs := [{', '.join(str(i) for i in narrowed)}]")
    w(f"  loops := {rk.loops}")
    w(f"  loads := [{', '.join(f'rload{i}' for i in range(len(rk.loads)))}]")
    w(f"  stores := [{', '.join(f'rstore{i}' for i in range(len(rk.stores)))}]")
    w(f"  carries := [{', '.join(f'carry{i}' for i in range(len(rk.carries)))}]")
    w("")
    return lines


def theorem_lines(binders: str, args: str, rk: RKernelTerms, asserts: bool = False) -> tuple[list[str], list[str]]:
    """The statement of ``kernel_safe`` (its proof follows) and the whole ``narrowing_exact``; ``asserts``: the
    kernel has device_assert premises (``RED_ASSERTS``, an assumption about the inputs)."""
    prem = red_premises(rk) + (" " + RED_ASSERTS if asserts else "")
    hb = " hB" if rk.static_block is not None else ""
    ha = " hA" if asserts else ""
    doc = ["/-- **Narrowing is exact for this reduction kernel**: under the lower bounds and guards, on every launched",
           "`x` lane whose size arguments are the recorded expressions, for every row of `tl.arange(0, R0_BLOCK)` and",
           "every step list of the loop whose offsets stay in `int32`, the wide and narrowed kernels observe the same",
           "loads and stores at every step of every loop and after the loops. No per-lane hypothesis. -/"]
    if asserts:
        doc = ["/-- **Narrowing is exact for this reduction kernel**: under the lower bounds and guards and the",
               "`tl.device_assert` premises `Asserts` at every step lane (an assumption about the inputs: the asserts",
               "are compiled away, nothing checks them), on every launched `x` lane whose size arguments are the",
               "recorded expressions, for every row of `tl.arange(0, R0_BLOCK)` and every step list of the loop whose",
               "offsets stay in `int32`, the wide and narrowed kernels observe the same loads and stores at every step",
               "of every loop and after the loops. No `Safe` hypothesis. -/"]
    safe = [
        "/-- **Every lane of every reduction step satisfies the per-lane premise**, from the premises alone. -/",
        f"theorem kernel_safe {binders} (hb : Bounds {args}) (hg : Guards {args})",
        f"    (L : Lane) (hL : LaneOK L) (hs : SizesAt {args} L) {prem} :",
        "    kernel.Safe L rs js := by",
    ]
    exact = doc + [
        f"theorem narrowing_exact {binders} (hb : Bounds {args}) (hg : Guards {args})",
        f"    (L : Lane) (hL : LaneOK L) (hs : SizesAt {args} L) {prem} :",
        "    kernel.observe .wide L rs js = kernel.observe (.narrow kernel.sizeArgs) L rs js :=",
        f"  RKernel.narrowing_exact_of_safe (kernel_safe {args} hb hg L hL hs rs js hrs hjs{hb}{ha})",
    ]
    return safe, exact


__all__ = ["RED_ASSERTS", "RED_PREMISES", "kernel_lines", "red_premises", "roots", "theorem_lines"]
