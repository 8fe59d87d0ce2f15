import Narrowing.Kernel

/-!
# Reduction kernels: a fold over reduction steps, and the narrowing theorem for it

Inductor's reduction kernels (`triton_red_*` with `for r0_offset in tl.range(0, r0_numel, R0_BLOCK):`,
persistent `triton_per_*` without a loop) run, for each `x` lane, a row of `r` lanes (`r0_base =
tl.arange(0, R0_BLOCK)`, block `2` of `Narrowing.Lane`) through the steps of each loop. A lane of such a
kernel is an `(x, r)` pair at one step: `Lane.step L r j` is lane `L` at r position `r` with
`r0_offset = j * R0_BLOCK` (`Lane.roff`, read by `Expr.loopOffset`). Per `(x, r, step)` the kernel loads
and stores as a pointwise kernel does; in addition it carries *accumulators* from step to step
(`_tmp2 = tl.where(r0_mask & xmask, _tmp2 + tmp1, _tmp2)`: a `RCarry`, updated once per step, each
accumulator at its own r position), *reduces* a row (`tl.sum(_tmp2, 1)`, `triton_helpers.select_one`:
`RPayload.reduce`, the combination of an operand over every r position of the row) and *scans* it
(`tl.associative_scan((tmp2,), 1, combine)`: `RPayload.scan`, at r position `r` the combination of the operand
over the positions `r' ≤ r` of the row, masked-off ones included).

Values stay symbolic (`Val`), as for pointwise kernels: an accumulator's value after `n` steps is the
term built by folding its update over the steps, and a row reduction is the term folding its operand's
values over the row, in one fixed order (whatever order the hardware uses, it is the same function in
both kernels, so equal operands give equal results); a scan's value at `r` folds the operand's values at
the row's positions up to `r` the same way (its combine helper is pure payload: `workbench/kir/scan.py`
checks that it reads no memory and no size argument, so it is the same function in both kernels). No
floating-point claim is made.

What a lane observes (`RKernel.observe`): for every loop `ℓ = 1, …, loops`, every step `j` of the step
list and every r position, the address of each of the loop's loads when its mask is set (`none`
otherwise) and the address and value of each of its stores; then, with the accumulators' final values, the
same for the accesses outside every loop (`loop = 0`: a persistent kernel's accesses, a looped kernel's
stores after its loop). A persistent kernel has `loops = 0`.

The semantics is a fold over the step list (`RKernel.loopTrace`, `RKernel.loopState`); the theorem is by
induction over it: if every step's masks, addresses and stored values agree wide vs narrowed on every
`(x, r, step)` (`RKernel.Safe`), the two folds observe the same loads and stores, step by step.

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`).

## Main definitions
* `Narrowing.Lane.step`, `Narrowing.RPayload` (payloads with accumulators and row reductions),
  `Narrowing.RLoad`, `Narrowing.RStore`, `Narrowing.RCarry`, `Narrowing.RKernel`.
* `Narrowing.RKernel.step` (one step of a loop on the accumulators), `Narrowing.RKernel.loopTrace` and
  `Narrowing.RKernel.loopState` (the fold over a step list), `Narrowing.RKernel.observe`.
* `Narrowing.RKernel.StepSafe`, `Narrowing.RKernel.Safe`: the per-`(x, r, step)` premises.

## Main results
* `Narrowing.RPayload.eval_wide_eq_eval_narrow_of_agree`: a payload (accumulators and row reductions
  included) has the same value in both kernels for the same accumulator values.
* `Narrowing.RKernel.loopTrace_wide_eq_narrow_of_safe`, `Narrowing.RKernel.loopState_wide_eq_narrow_of_safe`:
  **by induction over the step list**, both kernels observe the same thing at every step and reach the
  same accumulators.
* `Narrowing.RKernel.narrowing_exact_of_safe`: **the generic theorem for reduction kernels**: under
  `RKernel.Safe` the wide kernel and the kernel narrowed at `k.sizeArgs` observe the same loads and stores
  at every step of every loop and after the loops.
-/

namespace Narrowing

/-- Lane `L` at r position `r` (its element of `tl.arange(0, R0_BLOCK)`) with `r0_offset = off`. -/
def Lane.atR (L : Lane) (r off : Int) : Lane :=
  { L with pos := fun b => if b = 2 then r else L.pos b, roff := off }

/-- The row of step `j` of a loop: r position `r` with `r0_offset = j * R0_BLOCK`
(`tl.range(0, r0_numel, R0_BLOCK)` yields `0, R0_BLOCK, 2 * R0_BLOCK, …`). -/
def Lane.step (L : Lane) (j : Nat) : Int → Lane :=
  fun r => L.atR r ((j : Int) * L.block 2)

/-- The accumulators of one row: `A r i` is accumulator `i`'s value at r position `r`. -/
abbrev Accs := Int → Nat → Val

/-- Payloads of a reduction kernel: those of `Narrowing.Payload`, plus an accumulator's value before the
current step (`acc i`; after its loop, its final value), a row reduction (`reduce f a`: `a` at every
r position of the row, combined by the uninterpreted `f`, `"sum"`, `"max"`, …) and a row scan (`scan f a`:
at r position `r`, `a` at the row's positions `r' ≤ r` combined by the uninterpreted `f`). -/
inductive RPayload where
  | load (i : Nat)
  | int (e : Expr)
  | const (name : String)
  | acc (i : Nat)
  | reduce (f : String) (a : RPayload)
  | scan (f : String) (a : RPayload)
  | un (f : String) (a : RPayload)
  | bin (f : String) (a b : RPayload)
  | select (c : Expr) (a b : RPayload)

/-- The value of a payload at r position `r` of the row `row` (the lanes of one step), with the kernel's
loads `loads`, the accumulators `A` and the row's r positions `rs`. -/
def RPayload.eval (m : Mode) (loads : List Load) (A : Accs) (rs : List Int) (row : Int → Lane) :
    RPayload → Int → Val
  | .load i, r => loadValue m (row r) loads i
  | .int e, r => .int (e.eval m (row r))
  | .const c, _ => .const c
  | .acc i, r => A r i
  | .reduce f a, _ => (rs.map fun r' => RPayload.eval m loads A rs row a r').foldl (Val.bin f) (.const f)
  | .scan f a, r => ((rs.filter fun r' => decide (r' ≤ r)).map fun r' => RPayload.eval m loads A rs row a r').foldl
      (Val.bin f) (.const f)
  | .un f a, r => .un f (RPayload.eval m loads A rs row a r)
  | .bin f a b, r => .bin f (RPayload.eval m loads A rs row a r) (RPayload.eval m loads A rs row b r)
  | .select c a b, r =>
    if c.eval m (row r) ≠ 0 then RPayload.eval m loads A rs row a r else RPayload.eval m loads A rs row b r

/-- A payload's premise at r position `r`: the loads it reads agree there, its index values and `where`
conditions agree (a `where` needs only the branch it selects), and a row reduction's or a scan's operand
agrees at every r position of the row (the checker's rule for row operations: a scan reads only positions
`r' ≤ r`, asking for all of them is stronger, and it is what `workbench/check/trusted/reduction.py` asks). -/
def RPayload.Agree (S : List Nat) (loads : List Load) (rs : List Int) (row : Int → Lane) :
    RPayload → Int → Prop
  | .load i, r => match loads[i]? with
    | some ld => ld.Agree S (row r)
    | none => True
  | .int e, r => e.Agree S (row r)
  | .const _, _ => True
  | .acc _, _ => True
  | .reduce _ a, _ => ∀ r', r' ∈ rs → RPayload.Agree S loads rs row a r'
  | .scan _ a, _ => ∀ r', r' ∈ rs → RPayload.Agree S loads rs row a r'
  | .un _ a, r => RPayload.Agree S loads rs row a r
  | .bin _ a b, r => RPayload.Agree S loads rs row a r ∧ RPayload.Agree S loads rs row b r
  | .select c a b, r => c.Agree S (row r) ∧
      (c.eval (.narrow S) (row r) ≠ 0 → RPayload.Agree S loads rs row a r) ∧
      (c.eval (.narrow S) (row r) = 0 → RPayload.Agree S loads rs row b r)

theorem RPayload.eval_wide_eq_eval_narrow_of_agree {S : List Nat} {loads : List Load} {A : Accs}
    {rs : List Int} {row : Int → Lane} (p : RPayload) :
    ∀ r, RPayload.Agree S loads rs row p r →
      RPayload.eval .wide loads A rs row p r = RPayload.eval (.narrow S) loads A rs row p r := by
  induction p with
  | load i =>
    intro r h
    revert h
    first
    | -- No hand-written `match`: unfold both definitions by their equation lemmas, then split on the lookup.
      (simp only [RPayload.Agree, RPayload.eval, loadValue]
       cases loads[i]? with
       | none => intro _; rfl
       | some ld => intro h; exact Load.value_wide_eq_value_narrow h)
    | (show (match loads[i]? with | some ld => ld.Agree S (row r) | none => True) →
         loadValue .wide (row r) loads i = loadValue (.narrow S) (row r) loads i
       unfold loadValue
       cases loads[i]? with
       | none => intro _; rfl
       | some ld => intro h; exact Load.value_wide_eq_value_narrow h)
  | int e =>
    intro r h
    simp only [RPayload.Agree] at h
    simp only [RPayload.eval]
    rw [Expr.eval_wide_eq_eval_narrow_of_agree S (row r) e h]
  | const c => intro r _; rfl
  | acc i => intro r _; rfl
  | reduce f a ih =>
    intro r h
    simp only [RPayload.Agree] at h
    have hm : (rs.map fun r' => RPayload.eval .wide loads A rs row a r') =
        rs.map fun r' => RPayload.eval (.narrow S) loads A rs row a r' :=
      List.map_congr_left fun r' hr' => ih r' (h r' hr')
    show (rs.map fun r' => RPayload.eval .wide loads A rs row a r').foldl (Val.bin f) (.const f) =
      (rs.map fun r' => RPayload.eval (.narrow S) loads A rs row a r').foldl (Val.bin f) (.const f)
    rw [hm]
  | scan f a ih =>
    intro r h
    simp only [RPayload.Agree] at h
    have hm : ((rs.filter fun r' => decide (r' ≤ r)).map fun r' => RPayload.eval .wide loads A rs row a r') =
        (rs.filter fun r' => decide (r' ≤ r)).map fun r' => RPayload.eval (.narrow S) loads A rs row a r' :=
      List.map_congr_left fun r' hr' => ih r' (h r' (List.mem_filter.mp hr').1)
    show ((rs.filter fun r' => decide (r' ≤ r)).map fun r' => RPayload.eval .wide loads A rs row a r').foldl
        (Val.bin f) (.const f) =
      ((rs.filter fun r' => decide (r' ≤ r)).map fun r' => RPayload.eval (.narrow S) loads A rs row a r').foldl
        (Val.bin f) (.const f)
    rw [hm]
  | un f a ih =>
    intro r h
    simp only [RPayload.Agree] at h
    show Val.un f (RPayload.eval .wide loads A rs row a r) = Val.un f (RPayload.eval (.narrow S) loads A rs row a r)
    rw [ih r h]
  | bin f a b iha ihb =>
    intro r h
    simp only [RPayload.Agree] at h
    obtain ⟨ha, hb⟩ := h
    show Val.bin f (RPayload.eval .wide loads A rs row a r) (RPayload.eval .wide loads A rs row b r) =
      Val.bin f (RPayload.eval (.narrow S) loads A rs row a r) (RPayload.eval (.narrow S) loads A rs row b r)
    rw [iha r ha, ihb r hb]
  | select c a b iha ihb =>
    intro r h
    simp only [RPayload.Agree] at h
    obtain ⟨hc, ha, hb⟩ := h
    simp only [RPayload.eval]
    rw [Expr.eval_wide_eq_eval_narrow_of_agree S (row r) c hc]
    by_cases hz : c.eval (.narrow S) (row r) ≠ 0
    · rw [if_pos hz, if_pos hz, iha r (ha hz)]
    · rw [if_neg hz, if_neg hz,
        ihb r (hb (by first | omega | exact Classical.not_not.mp hz | exact Decidable.of_not_not hz))]

/-- `tl.load` in a reduction kernel, with the loop it sits in (`1, 2, …`; `0`: outside every loop). -/
structure RLoad where
  load : Load
  loop : Nat

/-- `tl.store(ptr + offset, value, mask)` in a reduction kernel, with its loop (`0`: outside every loop). -/
structure RStore where
  ptr : Nat
  offset : Expr
  mask : Expr
  value : RPayload
  loop : Nat

/-- A loop-carried accumulator of loop `loop`: `init` its value before the loop, `update` its value after
one step in terms of `acc` leaves (the accumulators before the step). -/
structure RCarry where
  loop : Nat
  init : RPayload
  update : RPayload

/-- A reduction kernel: its accesses and accumulators (`RPayload.load i` reads `loads[i]`, `acc i`
reads `carries[i]`), the number of its loops (`0`: persistent) and the size arguments the narrowing
declares `int32`. -/
structure RKernel where
  name : String
  sizeArgs : List Nat
  loops : Nat
  loads : List RLoad
  stores : List RStore
  carries : List RCarry

/-- The loads as `RPayload.load` indexes them. -/
def RKernel.lds (k : RKernel) : List Load := k.loads.map RLoad.load

/-- The accumulators before any loop (never read: every accumulator is initialised by its loop). -/
def RKernel.initial : Accs := fun _ _ => .const "undef"

/-- Loop `ℓ` starts: each of its accumulators takes its `init` at every r position of the row. -/
def RKernel.initLoop (k : RKernel) (m : Mode) (rs : List Int) (L : Lane) (ℓ : Nat) (A : Accs) : Accs :=
  fun r i => match k.carries[i]? with
    | some c => if c.loop = ℓ ∧ r ∈ rs then RPayload.eval m k.lds A rs (L.step 0) c.init r else A r i
    | none => A r i

/-- **One step** `j` of loop `ℓ`: each of its accumulators takes its `update` at its own r position
(all from the values before the step); the other accumulators keep theirs. -/
def RKernel.step (k : RKernel) (m : Mode) (rs : List Int) (L : Lane) (ℓ : Nat) (A : Accs) (j : Nat) :
    Accs :=
  fun r i => match k.carries[i]? with
    | some c => if c.loop = ℓ ∧ r ∈ rs then RPayload.eval m k.lds A rs (L.step j) c.update r else A r i
    | none => A r i

/-- What one r position of a row observes: each load's address (or `none`) and each store's address and
value (or `none`), for the accesses of loop `ℓ`. -/
structure RObs where
  loads : List (Option (Nat × Int))
  stores : List (Option (Nat × Int × Val))

def RStore.observe (st : RStore) (m : Mode) (loads : List Load) (A : Accs) (rs : List Int)
    (row : Int → Lane) (r : Int) : Option (Nat × Int × Val) :=
  if st.mask.eval m (row r) ≠ 0 then
    some (st.ptr, st.offset.eval m (row r), RPayload.eval m loads A rs row st.value r)
  else none

def RKernel.observeAt (k : RKernel) (m : Mode) (rs : List Int) (ℓ : Nat) (A : Accs) (row : Int → Lane)
    (r : Int) : RObs where
  loads := (k.loads.filter fun ld => ld.loop == ℓ).map fun ld => ld.load.access m (row r)
  stores := (k.stores.filter fun st => st.loop == ℓ).map fun st => st.observe m k.lds A rs row r

/-- **The fold's trace**: loop `ℓ` over the step list, from accumulators `A`; at each step, what every r
position observes (with the accumulators before the step), then the step's update. -/
def RKernel.loopTrace (k : RKernel) (m : Mode) (rs : List Int) (L : Lane) (ℓ : Nat) :
    Accs → List Nat → List (List RObs)
  | _, [] => []
  | A, j :: js => (rs.map fun r => k.observeAt m rs ℓ A (L.step j) r) ::
      k.loopTrace m rs L ℓ (k.step m rs L ℓ A j) js

/-- **The fold's state**: the accumulators after loop `ℓ` over the step list. -/
def RKernel.loopState (k : RKernel) (m : Mode) (rs : List Int) (L : Lane) (ℓ : Nat) (A : Accs)
    (js : List Nat) : Accs :=
  js.foldl (k.step m rs L ℓ) A

/-- Loops `ℓ, ℓ + 1, …` (`c` of them) in order, each over the step list: their traces and the final
accumulators. -/
def RKernel.runLoops (k : RKernel) (m : Mode) (rs : List Int) (L : Lane) (js : List Nat) :
    Nat → Nat → Accs → List (List (List RObs)) × Accs
  | _, 0, A => ([], A)
  | ℓ, c + 1, A =>
    (k.loopTrace m rs L ℓ (k.initLoop m rs L ℓ A) js ::
        (k.runLoops m rs L js (ℓ + 1) c (k.loopState m rs L ℓ (k.initLoop m rs L ℓ A) js)).1,
      (k.runLoops m rs L js (ℓ + 1) c (k.loopState m rs L ℓ (k.initLoop m rs L ℓ A) js)).2)

/-- What an `x` lane observes: per loop, per step, per r position; then the accesses outside every loop
at each r position (`r0_offset = 0`), with the accumulators' final values. -/
structure RObserved where
  loops : List (List (List RObs))
  after : List RObs

/-- The observation of `x` lane `L` over the row `rs` (`0, …, R0_BLOCK - 1`) and the step list `js`
(`0, …, ceil(r0_numel / R0_BLOCK) - 1`; `[0]` for a persistent kernel). -/
def RKernel.observe (k : RKernel) (m : Mode) (L : Lane) (rs : List Int) (js : List Nat) : RObserved where
  loops := (k.runLoops m rs L js 1 k.loops RKernel.initial).1
  after := rs.map fun r => k.observeAt m rs 0 (k.runLoops m rs L js 1 k.loops RKernel.initial).2 (L.step 0) r

/-- The premise at one row of lanes (one step of loop `ℓ`, or `ℓ = 0` after the loops), for the
narrowing at `k.sizeArgs`: at every r position of the row, the loop's loads agree (mask everywhere,
offset where the mask is set), its stores' masks agree and their offsets and values where the mask is
set, and the loop's accumulator updates agree. -/
structure RKernel.StepSafe (k : RKernel) (rs : List Int) (ℓ : Nat) (row : Int → Lane) : Prop where
  loads : ∀ r ∈ rs, ∀ ld ∈ k.loads.filter (fun ld => ld.loop == ℓ), ld.load.Agree k.sizeArgs (row r)
  storeMask : ∀ r ∈ rs, ∀ st ∈ k.stores.filter (fun st => st.loop == ℓ), st.mask.Agree k.sizeArgs (row r)
  storeOffset : ∀ r ∈ rs, ∀ st ∈ k.stores.filter (fun st => st.loop == ℓ),
    st.mask.eval (.narrow k.sizeArgs) (row r) ≠ 0 → st.offset.Agree k.sizeArgs (row r)
  storeValue : ∀ r ∈ rs, ∀ st ∈ k.stores.filter (fun st => st.loop == ℓ),
    st.mask.eval (.narrow k.sizeArgs) (row r) ≠ 0 → RPayload.Agree k.sizeArgs k.lds rs row st.value r
  carries : ∀ r ∈ rs, ∀ c ∈ k.carries, c.loop = ℓ → RPayload.Agree k.sizeArgs k.lds rs row c.update r

/-- **The per-`(x, r, step)` premise of the generic theorem for reduction kernels**: the narrowed size
arguments fit in `int32`; every step of every loop satisfies `StepSafe`; every accumulator's `init`
agrees at the first row; the accesses outside the loops satisfy `StepSafe` at `r0_offset = 0`. -/
structure RKernel.Safe (k : RKernel) (L : Lane) (rs : List Int) (js : List Nat) : Prop where
  sizes : ∀ i ∈ k.sizeArgs, Fits32 (L.sizes i)
  steps : ∀ ℓ, 1 ≤ ℓ → ℓ ≤ k.loops → ∀ j ∈ js, k.StepSafe rs ℓ (L.step j)
  inits : ∀ r ∈ rs, ∀ c ∈ k.carries, RPayload.Agree k.sizeArgs k.lds rs (L.step 0) c.init r
  after : k.StepSafe rs 0 (L.step 0)

theorem RStore.observe_wide_eq_observe_narrow_of_agree {st : RStore} {S : List Nat} {loads : List Load}
    {A : Accs} {rs : List Int} {row : Int → Lane} {r : Int} (hm : st.mask.Agree S (row r))
    (ho : st.mask.eval (.narrow S) (row r) ≠ 0 → st.offset.Agree S (row r))
    (hv : st.mask.eval (.narrow S) (row r) ≠ 0 → RPayload.Agree S loads rs row st.value r) :
    st.observe .wide loads A rs row r = st.observe (.narrow S) loads A rs row r := by
  have em := Expr.eval_wide_eq_eval_narrow_of_agree S (row r) st.mask hm
  unfold RStore.observe
  by_cases hz : st.mask.eval (.narrow S) (row r) = 0
  · simp [em, hz]
  · have eo := Expr.eval_wide_eq_eval_narrow_of_agree S (row r) st.offset (ho hz)
    have ev := RPayload.eval_wide_eq_eval_narrow_of_agree (A := A) st.value r (hv hz)
    simp [em, hz, eo, ev]

/-- At one r position of a row satisfying `StepSafe`, both kernels observe the same loads and stores. -/
theorem RKernel.observeAt_wide_eq_narrow_of_safe {k : RKernel} {rs : List Int} {ℓ : Nat} {A : Accs}
    {row : Int → Lane} (h : k.StepSafe rs ℓ row) (r : Int) (hr : r ∈ rs) :
    k.observeAt .wide rs ℓ A row r = k.observeAt (.narrow k.sizeArgs) rs ℓ A row r := by
  have hl : ((k.loads.filter fun ld => ld.loop == ℓ).map fun ld => ld.load.access .wide (row r)) =
      (k.loads.filter fun ld => ld.loop == ℓ).map fun ld => ld.load.access (.narrow k.sizeArgs) (row r) :=
    List.map_congr_left fun ld hld => Load.access_wide_eq_access_narrow (h.loads r hr ld hld)
  have hs : ((k.stores.filter fun st => st.loop == ℓ).map fun st => st.observe .wide k.lds A rs row r) =
      (k.stores.filter fun st => st.loop == ℓ).map fun st => st.observe (.narrow k.sizeArgs) k.lds A rs row r :=
    List.map_congr_left fun st hst => RStore.observe_wide_eq_observe_narrow_of_agree
      (h.storeMask r hr st hst) (h.storeOffset r hr st hst) (h.storeValue r hr st hst)
  exact congr (congrArg RObs.mk hl) hs

/-- One step gives the same accumulators in both kernels (from the same accumulators before it). -/
theorem RKernel.step_wide_eq_step_narrow_of_safe {k : RKernel} {rs : List Int} {L : Lane} {ℓ : Nat}
    {j : Nat} (h : ∀ r ∈ rs, ∀ c ∈ k.carries, c.loop = ℓ →
      RPayload.Agree k.sizeArgs k.lds rs (L.step j) c.update r) (A : Accs) :
    k.step .wide rs L ℓ A j = k.step (.narrow k.sizeArgs) rs L ℓ A j := by
  funext r i
  simp only [RKernel.step]
  cases hi : k.carries[i]? with
  | none => rfl
  | some c =>
    by_cases hc : c.loop = ℓ ∧ r ∈ rs
    · have e := RPayload.eval_wide_eq_eval_narrow_of_agree (A := A) c.update r
        (h r hc.2 c (List.mem_of_getElem? hi) hc.1)
      first
      | (show (if c.loop = ℓ ∧ r ∈ rs then _ else _) = (if c.loop = ℓ ∧ r ∈ rs then _ else _); rw [if_pos hc, if_pos hc]; exact e)
      | simp [hc, e]
    · first
      | (show (if c.loop = ℓ ∧ r ∈ rs then _ else _) = (if c.loop = ℓ ∧ r ∈ rs then _ else _); rw [if_neg hc, if_neg hc])
      | simp [hc]

/-- A loop starts from the same accumulators in both kernels. -/
theorem RKernel.initLoop_wide_eq_initLoop_narrow_of_safe {k : RKernel} {rs : List Int} {L : Lane}
    {ℓ : Nat} (h : ∀ r ∈ rs, ∀ c ∈ k.carries, RPayload.Agree k.sizeArgs k.lds rs (L.step 0) c.init r)
    (A : Accs) : k.initLoop .wide rs L ℓ A = k.initLoop (.narrow k.sizeArgs) rs L ℓ A := by
  funext r i
  simp only [RKernel.initLoop]
  cases hi : k.carries[i]? with
  | none => rfl
  | some c =>
    by_cases hc : c.loop = ℓ ∧ r ∈ rs
    · have e := RPayload.eval_wide_eq_eval_narrow_of_agree (A := A) c.init r
        (h r hc.2 c (List.mem_of_getElem? hi))
      first
      | (show (if c.loop = ℓ ∧ r ∈ rs then _ else _) = (if c.loop = ℓ ∧ r ∈ rs then _ else _); rw [if_pos hc, if_pos hc]; exact e)
      | simp [hc, e]
    · first
      | (show (if c.loop = ℓ ∧ r ∈ rs then _ else _) = (if c.loop = ℓ ∧ r ∈ rs then _ else _); rw [if_neg hc, if_neg hc])
      | simp [hc]

/-- **The fold observes the same thing at every step**, by induction over the step list: if every step
of loop `ℓ` satisfies `StepSafe`, then from the same accumulators both kernels' traces are equal. -/
theorem RKernel.loopTrace_wide_eq_narrow_of_safe {k : RKernel} {rs : List Int} {L : Lane} {ℓ : Nat}
    (js : List Nat) (h : ∀ j ∈ js, k.StepSafe rs ℓ (L.step j)) :
    ∀ A, k.loopTrace .wide rs L ℓ A js = k.loopTrace (.narrow k.sizeArgs) rs L ℓ A js := by
  induction js with
  | nil => intro A; rfl
  | cons j js ih =>
    intro A
    have hj : k.StepSafe rs ℓ (L.step j) := h j (by simp)
    have ho : (rs.map fun r => k.observeAt .wide rs ℓ A (L.step j) r) =
        rs.map fun r => k.observeAt (.narrow k.sizeArgs) rs ℓ A (L.step j) r :=
      List.map_congr_left fun r hr => RKernel.observeAt_wide_eq_narrow_of_safe hj r hr
    have hs := RKernel.step_wide_eq_step_narrow_of_safe hj.carries A
    have hrest := ih (fun j' hj' => h j' (by simp [hj'])) (k.step (.narrow k.sizeArgs) rs L ℓ A j)
    show (rs.map fun r => k.observeAt .wide rs ℓ A (L.step j) r) ::
        k.loopTrace .wide rs L ℓ (k.step .wide rs L ℓ A j) js =
      (rs.map fun r => k.observeAt (.narrow k.sizeArgs) rs ℓ A (L.step j) r) ::
        k.loopTrace (.narrow k.sizeArgs) rs L ℓ (k.step (.narrow k.sizeArgs) rs L ℓ A j) js
    rw [ho, hs, hrest]

/-- **The fold reaches the same accumulators**, by induction over the step list. -/
theorem RKernel.loopState_wide_eq_narrow_of_safe {k : RKernel} {rs : List Int} {L : Lane} {ℓ : Nat}
    (js : List Nat) (h : ∀ j ∈ js, k.StepSafe rs ℓ (L.step j)) :
    ∀ A, k.loopState .wide rs L ℓ A js = k.loopState (.narrow k.sizeArgs) rs L ℓ A js := by
  induction js with
  | nil => intro A; rfl
  | cons j js ih =>
    intro A
    have hs := RKernel.step_wide_eq_step_narrow_of_safe (h j (by simp)).carries A
    have hrest := ih (fun j' hj' => h j' (by simp [hj'])) (k.step (.narrow k.sizeArgs) rs L ℓ A j)
    show k.loopState .wide rs L ℓ (k.step .wide rs L ℓ A j) js =
      k.loopState (.narrow k.sizeArgs) rs L ℓ (k.step (.narrow k.sizeArgs) rs L ℓ A j) js
    rw [hs, hrest]

/-- Loops `ℓ, …, ℓ + c - 1` (within `1, …, k.loops`) give the same traces and accumulators in both
kernels, by induction over the loops. -/
theorem RKernel.runLoops_wide_eq_narrow_of_safe {k : RKernel} {L : Lane} {rs : List Int}
    {js : List Nat} (h : k.Safe L rs js) :
    ∀ c ℓ A, 1 ≤ ℓ → ℓ + c ≤ k.loops + 1 →
      k.runLoops .wide rs L js ℓ c A = k.runLoops (.narrow k.sizeArgs) rs L js ℓ c A := by
  intro c
  induction c with
  | zero => intro ℓ A _ _; rfl
  | succ c ih =>
    intro ℓ A h1 h2
    have hsteps : ∀ j ∈ js, k.StepSafe rs ℓ (L.step j) := h.steps ℓ h1 (by omega)
    have hi := RKernel.initLoop_wide_eq_initLoop_narrow_of_safe (ℓ := ℓ) h.inits A
    have ht := RKernel.loopTrace_wide_eq_narrow_of_safe js hsteps (k.initLoop (.narrow k.sizeArgs) rs L ℓ A)
    have hst := RKernel.loopState_wide_eq_narrow_of_safe js hsteps (k.initLoop (.narrow k.sizeArgs) rs L ℓ A)
    have hr := ih (ℓ + 1) (k.loopState (.narrow k.sizeArgs) rs L ℓ (k.initLoop (.narrow k.sizeArgs) rs L ℓ A) js)
      (by omega) (by omega)
    show (k.loopTrace .wide rs L ℓ (k.initLoop .wide rs L ℓ A) js ::
          (k.runLoops .wide rs L js (ℓ + 1) c (k.loopState .wide rs L ℓ (k.initLoop .wide rs L ℓ A) js)).1,
        (k.runLoops .wide rs L js (ℓ + 1) c (k.loopState .wide rs L ℓ (k.initLoop .wide rs L ℓ A) js)).2) =
      (k.loopTrace (.narrow k.sizeArgs) rs L ℓ (k.initLoop (.narrow k.sizeArgs) rs L ℓ A) js ::
          (k.runLoops (.narrow k.sizeArgs) rs L js (ℓ + 1) c
            (k.loopState (.narrow k.sizeArgs) rs L ℓ (k.initLoop (.narrow k.sizeArgs) rs L ℓ A) js)).1,
        (k.runLoops (.narrow k.sizeArgs) rs L js (ℓ + 1) c
          (k.loopState (.narrow k.sizeArgs) rs L ℓ (k.initLoop (.narrow k.sizeArgs) rs L ℓ A) js)).2)
    rw [hi, ht, hst, hr]

/-- **The generic narrowing theorem for reduction kernels.** For an `x` lane `L`, its row `rs` and the
step list `js`, if `RKernel.Safe` holds (every `(x, r, step)` of every loop, and the accesses after the
loops), the wide kernel and the kernel that declares exactly `k.sizeArgs` as `int32` observe the same
thing: at every step of every loop and every r position, the same load addresses (`none` where the mask
is off) and the same store addresses and symbolic values; after the loops, the same again with the
same final accumulators and row reductions. -/
theorem RKernel.narrowing_exact_of_safe {k : RKernel} {L : Lane} {rs : List Int} {js : List Nat}
    (h : k.Safe L rs js) : k.observe .wide L rs js = k.observe (.narrow k.sizeArgs) L rs js := by
  have hr := RKernel.runLoops_wide_eq_narrow_of_safe h k.loops 1 RKernel.initial (by omega) (by omega)
  have ha : (rs.map fun r => k.observeAt .wide rs 0
        (k.runLoops (.narrow k.sizeArgs) rs L js 1 k.loops RKernel.initial).2 (L.step 0) r) =
      rs.map fun r => k.observeAt (.narrow k.sizeArgs) rs 0
        (k.runLoops (.narrow k.sizeArgs) rs L js 1 k.loops RKernel.initial).2 (L.step 0) r :=
    List.map_congr_left fun r hr' => RKernel.observeAt_wide_eq_narrow_of_safe h.after r hr'
  show RObserved.mk (k.runLoops .wide rs L js 1 k.loops RKernel.initial).1
      (rs.map fun r => k.observeAt .wide rs 0 (k.runLoops .wide rs L js 1 k.loops RKernel.initial).2
        (L.step 0) r) =
    RObserved.mk (k.runLoops (.narrow k.sizeArgs) rs L js 1 k.loops RKernel.initial).1
      (rs.map fun r => k.observeAt (.narrow k.sizeArgs) rs 0
        (k.runLoops (.narrow k.sizeArgs) rs L js 1 k.loops RKernel.initial).2 (L.step 0) r)
  rw [hr, ha]

end Narrowing
