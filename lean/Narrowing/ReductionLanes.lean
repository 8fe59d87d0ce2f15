import Narrowing.Interval
import Narrowing.Reduction

/-!
# Lanes of reduction steps: their premises, and the interval rules of the loop's leaves

A generated instance of a reduction kernel derives `RKernel.Safe L rs js` for every launched `x` lane
`L` (`LaneOK`), every row `rs` of r positions (`RowOK`: positions of `tl.arange(0, R0_BLOCK)`) and every
step list `js` whose offsets stay in `int32` (`StepsOK`). It does so lane by lane with the interval lemmas
of `Narrowing/Interval.lean`, applied at the step lanes `L.step j r`, which are launched lanes too
(`StepLaneOK.of_row`), with three more leaf rules: `r0_index = r0_offset + tl.arange(0, R0_BLOCK)`
(`Bounded.rindex`), `r0_offset` (`Bounded.loopOffset`) and `tl.arange(0, R0_BLOCK)` alone (`Bounded.rpos`,
persistent kernels). `AllOf` states a premise for each element of a (filtered) list, one fact per element.

`StepsOK` is a launch assumption like `LaneOK`'s `x_le`: the loop's induction variable does not wrap
(`r0_offset + R0_BLOCK ≤ 2^31`). It follows from the checker's `LOOP_BOUND` side condition
(`r0_numel ≤ 2^31 - 2^20`) and Triton's `R0_BLOCK ≤ 2^20` (`TRITON_MAX_TENSOR_NUMEL`) for the steps
`tl.range(0, r0_numel, R0_BLOCK)` runs; the theorem is stated for every such step list.

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`).

## Main definitions
* `Narrowing.RowOK`, `Narrowing.StepsOK`, `Narrowing.StepLaneOK`, `Narrowing.AllOf`.

## Main results
* `Narrowing.StepLaneOK.of_row`: a step lane of a launched lane is launched.
* `Narrowing.Bounded.rindex`, `Narrowing.Bounded.loopOffset`, `Narrowing.Bounded.rpos`,
  `Narrowing.Bounded.rpos_block`, `Narrowing.Bounded.rblock`, `Narrowing.Bounded.rblock_fixed`: leaf rules.
* `Narrowing.AllOf.of_mem`: a premise for every element from one fact per element.
-/

namespace Narrowing

/-- The row's r positions are positions of `tl.arange(0, R0_BLOCK)`, and `R0_BLOCK ≤ 2^31` (Triton bounds
it by `2^20`). -/
def RowOK (L : Lane) (rs : List Int) : Prop :=
  L.block 2 ≤ 2147483648 ∧ ∀ r ∈ rs, 0 ≤ r ∧ r < L.block 2

/-- Every step's `r0_offset + R0_BLOCK` stays within `2^31` (the induction variable does not wrap). -/
def StepsOK (L : Lane) (js : List Nat) : Prop :=
  ∀ j ∈ js, (j : Int) * L.block 2 + L.block 2 ≤ 2147483648

/-- A lane of one reduction step: launched, with its offset and its row's last index in `int32`. -/
structure StepLaneOK (L : Lane) : Prop where
  lane : LaneOK L
  roff_nonneg : 0 ≤ L.roff
  rindex_le : L.roff + L.block 2 ≤ 2147483648

/-- Lane `L.step j r` of a launched lane, with `r` in the row and the step's offset in `int32`. -/
theorem StepLaneOK.of_offset {L : Lane} {rs : List Int} (hL : LaneOK L) (hr : RowOK L rs) {r : Int}
    (hrm : r ∈ rs) (j : Nat) (hj : (j : Int) * L.block 2 + L.block 2 ≤ 2147483648) :
    StepLaneOK (L.step j r) := by
  have hb := hL.block_pos 2
  have hrr := hr.2 r hrm
  refine ⟨⟨fun a => hL.pid_nonneg a, fun a => hL.pid_lt a, fun b => hL.block_pos b, ?_, ?_, ?_, ?_⟩, ?_, ?_⟩
  · intro b
    show 0 ≤ (if b = 2 then r else L.pos b)
    split
    · exact hrr.1
    · exact hL.pos_nonneg b
  · intro b
    show (if b = 2 then r else L.pos b) < L.block b
    split
    · rename_i h
      subst h
      exact hrr.2
    · exact hL.pos_lt b
  · show L.pid 0 * L.block 0 + (if (0 : Nat) = 2 then r else L.pos 0) ≤ 2147483647
    have h02 : ¬ ((0 : Nat) = 2) := by decide
    rw [if_neg h02]
    exact hL.x_le
  · show (L.pid 1 + L.pid 2 * L.nprog 1) * L.block 1 + (if (1 : Nat) = 2 then r else L.pos 1) ≤ 2147483647
    have h12 : ¬ ((1 : Nat) = 2) := by decide
    rw [if_neg h12]
    exact hL.y_le
  · show 0 ≤ (j : Int) * L.block 2
    exact Int.mul_nonneg (by omega) (by omega)
  · show (j : Int) * L.block 2 + L.block 2 ≤ 2147483648
    exact hj

/-- The lanes of a step of the step list. -/
theorem StepLaneOK.of_row {L : Lane} {rs : List Int} {js : List Nat} (hL : LaneOK L) (hr : RowOK L rs)
    (hj : StepsOK L js) {r : Int} (hrm : r ∈ rs) {j : Nat} (hjm : j ∈ js) : StepLaneOK (L.step j r) :=
  StepLaneOK.of_offset hL hr hrm j (hj j hjm)

/-- The lanes after the loops (`r0_offset = 0`). -/
theorem StepLaneOK.of_after {L : Lane} {rs : List Int} (hL : LaneOK L) (hr : RowOK L rs) {r : Int}
    (hrm : r ∈ rs) : StepLaneOK (L.step 0 r) :=
  StepLaneOK.of_offset hL hr hrm 0 (by have := hr.1; first | omega | simp [this])

variable {S : List Nat} {L : Lane}

/-- `r0_index = r0_offset + tl.arange(0, R0_BLOCK)` on a step lane: in `[0, 2^31 - 1]`, `int32` in both
kernels (no premise: both compute it alike). -/
theorem Bounded.rindex (h : StepLaneOK L) : Bounded S L (.add .loopOffset (.arange 2)) 0 2147483647 := by
  have h0 := h.roff_nonneg
  have h1 := h.rindex_le
  have hq := h.lane.pos_nonneg 2
  have hq2 := h.lane.pos_lt 2
  have e : (Expr.add .loopOffset (.arange 2)).eval (.narrow S) L = L.roff + L.pos 2 := by
    show wrap32 (L.roff + L.pos 2) = L.roff + L.pos 2
    exact wrap32_eq_self_of_fits32 (And.intro (by omega) (by omega))
  exact ⟨And.intro True.intro (And.intro True.intro (Or.inl rfl)), by omega, by omega⟩

/-- `r0_offset` on a step lane: in `[0, 2^31 - 1]`. -/
theorem Bounded.loopOffset (h : StepLaneOK L) : Bounded S L .loopOffset 0 2147483647 := by
  have h0 := h.roff_nonneg
  have h1 := h.rindex_le
  have hb := h.lane.block_pos 2
  have e : Expr.eval (.narrow S) L .loopOffset = L.roff := rfl
  exact ⟨True.intro, by omega, by omega⟩

/-- `tl.arange(0, R0_BLOCK)` alone (a persistent kernel's `r0_index`): in `[0, 2^31 - 1]`. -/
theorem Bounded.rpos (h : StepLaneOK L) : Bounded S L (.arange 2) 0 2147483647 := by
  have h0 := h.roff_nonneg
  have h1 := h.rindex_le
  have hq := h.lane.pos_nonneg 2
  have hq2 := h.lane.pos_lt 2
  have e : (Expr.arange 2).eval (.narrow S) L = L.pos 2 := rfl
  exact ⟨True.intro, by omega, by omega⟩

/-- `tl.arange(0, R0_BLOCK)` in a kernel that fixes `R0_BLOCK: tl.constexpr = B` (a persistent kernel over a
static row): in `[0, B - 1]`. -/
theorem Bounded.rpos_block (h : StepLaneOK L) {B : Int} (hB : L.block 2 = B) :
    Bounded S L (.arange 2) 0 (B - 1) := by
  have hq := h.lane.pos_nonneg 2
  have hq2 := h.lane.pos_lt 2
  have e : (Expr.arange 2).eval (.narrow S) L = L.pos 2 := rfl
  exact ⟨True.intro, by omega, by omega⟩

/-- The block constexpr `R0_BLOCK` (its alias `RBLOCK`, as in `select_one`'s `rbase == (RBLOCK - 1)`) on a
step lane: a weak literal in `[1, 2^31]` (`tl.arange(0, R0_BLOCK)` bounds it by `2^20`; `StepLaneOK`'s
`r0_offset + R0_BLOCK ≤ 2^31` is what is used here). -/
theorem Bounded.rblock (h : StepLaneOK L) : Bounded S L (.block 2) 1 2147483648 := by
  have h0 := h.roff_nonneg
  have h1 := h.rindex_le
  have hb := h.lane.block_pos 2
  have e : (Expr.block 2).eval (.narrow S) L = L.block 2 := rfl
  exact ⟨True.intro, by omega, by omega⟩

/-- `R0_BLOCK` in a kernel that fixes `R0_BLOCK: tl.constexpr = B`: the point `B`. -/
theorem Bounded.rblock_fixed {B : Int} (hB : L.block 2 = B) : Bounded S L (.block 2) B B := by
  have e : (Expr.block 2).eval (.narrow S) L = L.block 2 := rfl
  exact ⟨True.intro, by omega, by omega⟩

/-- `P` holds for every element of the list (one fact per element, as a conjunction). -/
def AllOf {α : Type} (P : α → Prop) : List α → Prop
  | [] => True
  | a :: as => P a ∧ AllOf P as

theorem AllOf.of_mem {α : Type} {P : α → Prop} : ∀ {l : List α}, AllOf P l → ∀ a ∈ l, P a
  | [], _, _, hm => nomatch hm
  | _ :: _, h, _, hm => by
    cases hm with
    | head => exact And.left h
    | tail _ hm' => exact AllOf.of_mem (And.right h) _ hm'

end Narrowing
