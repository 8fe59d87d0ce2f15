import Narrowing.Interval

/-!
# Indirect indexing: the `tl.device_assert` premise

Inductor indexes through a tensor of indices (embedding, `index_select`, `gather`, `x[idx]`) by loading an
integer (`Expr.load`) and using it in a later address, and guards each such use with
`tl.device_assert(((lo <= v) & (v < hi)) | ~(mask), "index out of bounds: ...")`. Triton compiles the assert
away unless the kernel is built in debug mode, so nothing checks it when the kernel runs: the IR
(`workbench/kir/indirect.py`) reads it as an `Expr.assume` node whose value is `v`, unchecked, and the
bounds become a **premise about the inputs** (`AssertHolds`): on a lane, wherever the assert's mask holds in
the kernel as emitted, the caller passed an index within the bounds. A generated instance takes one such
premise per assert node as a hypothesis (`Asserts L`) and uses it exactly where the checker does
(`workbench/check/trusted/intervals.py`, rule for `ASSUME`): to bound the asserted value on lanes where the
assert's mask is set, from its bound operands' own intervals.

The premise is stated on the wide kernel (the kernel Inductor emitted and asserted); agreement of the
value, the mask and the bounds carries it to the narrowed one (`Bounded.assume`).

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`).

## Main definitions
* `Narrowing.AssertHolds`: the premise one `tl.device_assert` states about the inputs on one lane.

## Main results
* `Narrowing.Bounded.assume`: on a lane where the premise holds and the assert's mask is set, the asserted
  value lies in `[lo, hi - 1]` of its bound operands' intervals (and agrees).
* `Narrowing.Expr.agree_load_of_mask`: a loaded index agrees where its mask is set and its offset agrees.
* `Narrowing.Expr.mand_ne_zero_of_ne_zero`: both conjuncts set ⇒ the conjunction is set (masks the assert's mask implies).
-/

namespace Narrowing

/-- **The premise a `tl.device_assert` states about the inputs**, on one lane (its memory included):
wherever the assert's `mask` holds in the kernel as emitted (`.wide`), the asserted value `v` lies within
the stated bounds (`lo ≤ v` when `hasLo`, `v < hi` when `hasHi`, compared as the integers they denote).
Triton compiles `tl.device_assert` away outside debug mode, so this is an **assumption** that the caller
passes valid indices, never something the kernel checks. -/
def AssertHolds (L : Lane) (v mask lo hi : Expr) (hasLo hasHi : Bool) : Prop :=
  mask.eval .wide L ≠ 0 →
    (hasLo = true → lo.eval .wide L ≤ v.eval .wide L) ∧ (hasHi = true → v.eval .wide L < hi.eval .wide L)

variable {S : List Nat} {L : Lane}

/-- **The asserted index is bounded by its premise**: on a lane where `AssertHolds` (an assumption about
the inputs) and where the assert's mask is set, an asserted value that agrees lies in `[llo, hhi - 1]`,
`llo` the lower bound operand's lower end and `hhi` the upper bound operand's upper end; the node agrees.
The premise is read in the wide kernel and carried to the narrowed one by the agreement of `v`, `mask`,
`lo` and `hi` (the checker's rule for `ASSUME`). -/
theorem Bounded.assume {v mask lo hi : Expr} {llo hlo lhi hhi : Int}
    (hP : AssertHolds L v mask lo hi true true) (hv : v.Agree S L) (hm : mask.Agree S L)
    (hset : mask.eval (.narrow S) L ≠ 0) (hLo : Bounded S L lo llo hlo) (hHi : Bounded S L hi lhi hhi) :
    Bounded S L (.assume v mask lo hi true true) llo (hhi - 1) := by
  have ev := Expr.eval_wide_eq_eval_narrow_of_agree S L v hv
  have em := Expr.eval_wide_eq_eval_narrow_of_agree S L mask hm
  have el := Expr.eval_wide_eq_eval_narrow_of_agree S L lo hLo.agree
  have eh := Expr.eval_wide_eq_eval_narrow_of_agree S L hi hHi.agree
  have hw : mask.eval .wide L ≠ 0 := by rw [em]; exact hset
  unfold AssertHolds at hP
  obtain ⟨h1, h2⟩ := hP hw
  have a1 := h1 rfl
  have a2 := h2 rfl
  have l1 := hLo.ge
  have u1 := hHi.le
  have e : (Expr.assume v mask lo hi true true).eval (.narrow S) L = v.eval (.narrow S) L := rfl
  have ha : (Expr.assume v mask lo hi true true).Agree S L := by
    first | exact hv | (simp only [Expr.Agree]; exact hv)
  refine ⟨ha, ?_, ?_⟩
  · rw [e]; omega
  · rw [e]; omega

/-- A loaded index agrees on a lane where its mask is set and agrees and its offset agrees: both kernels
read the same cell of the same memory (`Lane.mem`), wrapped to the same element type. -/
theorem Expr.agree_load_of_mask {p : Nat} {t : Ty} {off mask : Expr} {other : Option Int}
    (hm : mask.Agree S L) (hset : mask.eval (.narrow S) L ≠ 0) (ho : off.Agree S L) :
    (Expr.load p t off mask other).Agree S L :=
  And.intro hm (And.intro (fun _ => ho) (fun hz => absurd hz hset))

/-- Both conjuncts of a mask set ⇒ the mask is set (the assert's mask `xmask & ymask` on a lane where each
atom is known). -/
theorem Expr.mand_ne_zero_of_ne_zero {a b : Expr} {m : Mode} (ha : a.eval m L ≠ 0) (hb : b.eval m L ≠ 0) :
    (Expr.mand a b).eval m L ≠ 0 := by
  show (if a.eval m L ≠ 0 ∧ b.eval m L ≠ 0 then (1 : Int) else 0) ≠ 0
  rw [if_pos (And.intro ha hb)]
  first | decide | omega

end Narrowing
