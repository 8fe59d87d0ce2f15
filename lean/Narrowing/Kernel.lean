import Narrowing.Expr

/-!
# Kernels, what a lane observes, and the generic narrowing theorem

A pointwise kernel is a list of masked loads and one masked store whose value is a symbolic payload
over the loaded values. Tensor values stay symbolic (`Val` is a term: the memory cell a load reads, or
a named constant, under uninterpreted operations), so equal `Val`s mean the same data reaches the same
operations under any memory contents and any floating-point semantics. No floating-point claim is made.

A lane *observes* the address of each active load and the address and value of the store when its mask
is set; a masked-off access observes `none` (it touches nothing). `Kernel.Safe` is the per-lane premise:
every mask satisfies `Expr.Agree`, and every offset and every payload `where` does where its own mask is
set (the observable mode of the checker).

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`).

## Main definitions
* `Narrowing.Load`, `Narrowing.Store`, `Narrowing.Kernel`, `Narrowing.Kernel.observe`.
* `Narrowing.Kernel.Safe`: the per-lane premises.

## Main results
* `Narrowing.Kernel.narrowing_exact_of_safe`: **the generic theorem**, stated once. On every lane where
  `Safe` holds: the wide kernel and the kernel narrowed at exactly `k.sizeArgs` observe the same loads
  and the same store (address and value); every mask's divisors are `≥ 1` in both widths.
* `Narrowing.Load.access_eq_none_of_mask_eq_zero`: an inactive lane touches nothing, in either width.
-/

namespace Narrowing

/-- Symbolic payload values: terms, compared syntactically. -/
inductive Val where
  /-- The cell at `offset` of pointer argument `ptr`. -/
  | mem (ptr : Nat) (offset : Int)
  /-- An index value used as data (e.g. `x0.to(tl.float32)`). -/
  | int (v : Int)
  /-- A named constant (a literal, or the `other=` of a masked-off load). -/
  | const (name : String)
  | un (f : String) (a : Val)
  | bin (f : String) (a b : Val)
  deriving DecidableEq, Repr

/-- `tl.load(ptr + offset, mask, other=other)`. -/
structure Load where
  ptr : Nat
  offset : Expr
  mask : Expr
  other : String

/-- Payload expressions: loads by index into the kernel's load list, index values used as data,
constants, uninterpreted operations, and `tl.where` on payloads. -/
inductive Payload where
  | load (i : Nat)
  | int (e : Expr)
  | const (name : String)
  | un (f : String) (a : Payload)
  | bin (f : String) (a b : Payload)
  | select (c : Expr) (a b : Payload)

/-- `tl.store(ptr + offset, value, mask)`. -/
structure Store where
  ptr : Nat
  offset : Expr
  mask : Expr
  value : Payload

/-- A pointwise kernel: its loads, its store, and the size arguments the narrowing declares `int32`. -/
structure Kernel where
  name : String
  sizeArgs : List Nat
  loads : List Load
  store : Store

/-- The address a load touches on a lane, or `none` when its mask is off. -/
def Load.access (ld : Load) (m : Mode) (L : Lane) : Option (Nat × Int) :=
  if ld.mask.eval m L ≠ 0 then some (ld.ptr, ld.offset.eval m L) else none

/-- The symbolic value a load yields on a lane. -/
def Load.value (ld : Load) (m : Mode) (L : Lane) : Val :=
  if ld.mask.eval m L ≠ 0 then .mem ld.ptr (ld.offset.eval m L) else .const ld.other

/-- The symbolic value of the kernel's `i`-th load (a named constant if there is none). -/
def loadValue (m : Mode) (L : Lane) (loads : List Load) (i : Nat) : Val :=
  match loads[i]? with
  | some ld => ld.value m L
  | none => .const "missing-load"

/-- The symbolic value of a payload on a lane. -/
def Payload.eval (m : Mode) (L : Lane) (loads : List Load) : Payload → Val
  | .load i => loadValue m L loads i
  | .int e => .int (e.eval m L)
  | .const c => .const c
  | .un f a => .un f (a.eval m L loads)
  | .bin f a b => .bin f (a.eval m L loads) (b.eval m L loads)
  | .select c a b => if c.eval m L ≠ 0 then a.eval m L loads else b.eval m L loads

/-- What one lane observes: each load's address (or `none`), and the store's address and value (or
`none`). -/
structure Observed where
  loads : List (Option (Nat × Int))
  store : Option (Nat × Int × Val)

def Kernel.observe (k : Kernel) (m : Mode) (L : Lane) : Observed where
  loads := k.loads.map fun ld => ld.access m L
  store := if k.store.mask.eval m L ≠ 0 then
      some (k.store.ptr, k.store.offset.eval m L, k.store.value.eval m L k.loads)
    else none

/-- The payload's `where` conditions and embedded index values satisfy `Agree`; a `where` needs only the
branch it selects. -/
def Payload.Agree (S : List Nat) (L : Lane) : Payload → Prop
  | .load _ => True
  | .int e => e.Agree S L
  | .const _ => True
  | .un _ a => a.Agree S L
  | .bin _ a b => a.Agree S L ∧ b.Agree S L
  | .select c a b => c.Agree S L ∧ (c.eval (.narrow S) L ≠ 0 → a.Agree S L) ∧ (c.eval (.narrow S) L = 0 → b.Agree S L)

/-- A load's premise on a lane: its mask agrees everywhere, its offset where the mask is set. -/
structure Load.Agree (ld : Load) (S : List Nat) (L : Lane) : Prop where
  mask : ld.mask.Agree S L
  offset : ld.mask.eval (.narrow S) L ≠ 0 → ld.offset.Agree S L

/-- **The per-lane premise of the generic theorem** (observable mode), for the narrowing that declares
`int32` exactly the kernel's `sizeArgs`. -/
structure Kernel.Safe (k : Kernel) (L : Lane) : Prop where
  sizes : ∀ i ∈ k.sizeArgs, Fits32 (L.sizes i)
  loads : ∀ ld ∈ k.loads, ld.Agree k.sizeArgs L
  storeMask : k.store.mask.Agree k.sizeArgs L
  storeOffset : k.store.mask.eval (.narrow k.sizeArgs) L ≠ 0 → k.store.offset.Agree k.sizeArgs L
  storeValue : k.store.mask.eval (.narrow k.sizeArgs) L ≠ 0 → k.store.value.Agree k.sizeArgs L

theorem Load.access_eq_none_of_mask_eq_zero {ld : Load} {m : Mode} {L : Lane}
    (h : ld.mask.eval m L = 0) : ld.access m L = none := by
  simp [Load.access, h]

theorem Load.access_wide_eq_access_narrow {ld : Load} {S : List Nat} {L : Lane} (h : ld.Agree S L) :
    ld.access .wide L = ld.access (.narrow S) L := by
  have hm := Expr.eval_wide_eq_eval_narrow_of_agree S L ld.mask h.mask
  unfold Load.access
  by_cases hz : ld.mask.eval (.narrow S) L = 0
  · simp [hm, hz]
  · simp [hm, hz, Expr.eval_wide_eq_eval_narrow_of_agree S L ld.offset (h.offset hz)]

theorem Load.value_wide_eq_value_narrow {ld : Load} {S : List Nat} {L : Lane} (h : ld.Agree S L) :
    ld.value .wide L = ld.value (.narrow S) L := by
  have hm := Expr.eval_wide_eq_eval_narrow_of_agree S L ld.mask h.mask
  unfold Load.value
  by_cases hz : ld.mask.eval (.narrow S) L = 0
  · simp [hm, hz]
  · simp [hm, hz, Expr.eval_wide_eq_eval_narrow_of_agree S L ld.offset (h.offset hz)]

theorem Payload.eval_wide_eq_eval_narrow {S : List Nat} {L : Lane} {loads : List Load}
    (hl : ∀ ld ∈ loads, ld.Agree S L) (p : Payload) (h : p.Agree S L) :
    p.eval .wide L loads = p.eval (.narrow S) L loads := by
  induction p with
  | load i =>
    simp only [Payload.eval]
    unfold loadValue
    cases hi : loads[i]? with
    | none => rfl
    | some ld => exact Load.value_wide_eq_value_narrow (hl ld (List.mem_of_getElem? hi))
  | int e =>
    simp only [Payload.Agree] at h
    simp only [Payload.eval]
    rw [Expr.eval_wide_eq_eval_narrow_of_agree S L e h]
  | const c => rfl
  | un f a iha =>
    simp only [Payload.Agree] at h
    simp only [Payload.eval]
    rw [iha h]
  | bin f a b iha ihb =>
    simp only [Payload.Agree] at h
    obtain ⟨ha, hb⟩ := h
    simp only [Payload.eval]
    rw [iha ha, ihb hb]
  | select c a b iha ihb =>
    simp only [Payload.Agree] at h
    obtain ⟨hc, ha, hb⟩ := h
    simp only [Payload.eval]
    rw [Expr.eval_wide_eq_eval_narrow_of_agree S L c hc]
    by_cases hz : c.eval (.narrow S) L ≠ 0
    · rw [if_pos hz, if_pos hz, iha (ha hz)]
    · rw [if_neg hz, if_neg hz, ihb (hb (by first | omega | exact Classical.not_not.mp hz | exact Decidable.of_not_not hz))]

/-- **The generic narrowing theorem.** On every lane where the per-lane premise `Safe` holds:
* the wide kernel and the kernel that declares exactly `k.sizeArgs` as `int32` observe the same thing:
  every load's address when its mask is set and `none` (no access) when it is not, and the store's
  address and symbolic value when its mask is set;
* every `//` and `%` in every mask has a divisor `≥ 1` in both widths.
(That every narrowed size argument fits in `int32` is the premise `Safe.sizes`, not restated here.) -/
theorem Kernel.narrowing_exact_of_safe {k : Kernel} {L : Lane} (h : k.Safe L) :
    k.observe .wide L = k.observe (.narrow k.sizeArgs) L ∧
    (∀ m, (m = .wide ∨ m = .narrow k.sizeArgs) → k.store.mask.DivisorsPos m L) ∧
    (∀ ld ∈ k.loads, ∀ m, (m = .wide ∨ m = .narrow k.sizeArgs) → ld.mask.DivisorsPos m L) := by
  refine ⟨?_, fun m hm => Expr.divisorsPos_of_agree m k.sizeArgs hm L _ h.storeMask,
    fun ld hld m hm => Expr.divisorsPos_of_agree m k.sizeArgs hm L _ (h.loads ld hld).mask⟩
  have hloads : (k.loads.map fun ld => ld.access .wide L) =
      k.loads.map fun ld => ld.access (.narrow k.sizeArgs) L :=
    List.map_congr_left fun ld hld => Load.access_wide_eq_access_narrow (h.loads ld hld)
  have hm := Expr.eval_wide_eq_eval_narrow_of_agree k.sizeArgs L k.store.mask h.storeMask
  unfold Kernel.observe
  by_cases hz : k.store.mask.eval (.narrow k.sizeArgs) L = 0
  · -- Both stores are off. First route: rewrite the two fields by hand (`if_neg`), no `simp` on the structure.
    first
    | (have hn : ¬(k.store.mask.eval (.narrow k.sizeArgs) L ≠ 0) := fun hne => hne hz
       rw [hloads, hm, if_neg hn, if_neg hn])
    | simp [hloads, hm, hz]
  · have ho := Expr.eval_wide_eq_eval_narrow_of_agree k.sizeArgs L k.store.offset (h.storeOffset hz)
    have hv := Payload.eval_wide_eq_eval_narrow h.loads k.store.value (h.storeValue hz)
    first
    | (have hp : k.store.mask.eval (.narrow k.sizeArgs) L ≠ 0 := hz
       rw [hloads, hm, if_pos hp, if_pos hp, ho, hv])
    | simp [hloads, hm, hz, ho, hv]

/-- On a lane whose mask is off, neither kernel performs the load. -/
theorem Load.access_eq_none_of_inactive {ld : Load} {S : List Nat} {L : Lane} (h : ld.Agree S L)
    (hz : ld.mask.eval (.narrow S) L = 0) : ld.access .wide L = none ∧ ld.access (.narrow S) L = none := by
  have hm := Expr.eval_wide_eq_eval_narrow_of_agree S L ld.mask h.mask
  exact ⟨Load.access_eq_none_of_mask_eq_zero (hm.trans hz), Load.access_eq_none_of_mask_eq_zero hz⟩

end Narrowing
