import Narrowing.Interval

/-!
# Decided conditions (DEAD_BRANCH) and comparisons known false

The checker (`workbench/check/trusted/uniform.py`) decides a lane-uniform comparison (constants and size
arguments only) when its side conditions prove it: such a comparison is a point `0` or `1` on every lane
(`Bounded.cmp_const`, its claim a `side_k`). A `tl.where` whose condition is decided takes the interval of
its live branch and needs nothing of the dead one (Inductor's `div_floor_integer`, whose branch under
`(ks1 - 1) < 0` has no bound when `ks1 ≥ 2`): `Bounded.select_true`, `Bounded.select_false`. An undecided
integer `tl.where` takes the hull of its branches (`Bounded.select`).

A case split on an undecided uniform comparison `u` (the checker's `agree:` choice: `Max(1, e)` printed
`1 * (1 >= e) + e * (e > 1)`) is a `by_cases` on `u`'s narrowed value in the generated proof: the `u` part
refines with `Expr.lt_of_cmp_ne_zero` and its kind, the `¬ u` part with the lemmas below (a comparison known
false bounds its operands the other way).

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`).

## Main results
* `Narrowing.Bounded.select_true`, `Narrowing.Bounded.select_false`, `Narrowing.Bounded.select`.
* `Narrowing.Expr.holds_false_of_cmp_not_ne_zero`, `Narrowing.Expr.ge_of_cmp_lt_not_ne_zero` (and `gt_of_`…`le`,
  `le_of_`…`gt`, `lt_of_`…`ge`).
-/

namespace Narrowing

variable {S : List Nat} {L : Lane}

/-- **A `tl.where` whose condition is decided true** (the checker's DEAD_BRANCH: a uniform comparison the
side conditions prove, `Bounded.cmp_const`): the interval of the live branch `a`; the dead branch `b` needs
no bound and no agreement (no lane of the launch takes it). -/
theorem Bounded.select_true {c a b : Expr} {la ha lo hi : Int}
    (hC : Bounded S L c 1 1) (hA : Bounded S L a la ha)
    (hw : WrapOK ((Expr.select c a b).ty .wide) ((Expr.select c a b).ty (.narrow S)) lo hi)
    (hlo : lo ≤ la) (hhi : ha ≤ hi) : Bounded S L (.select c a b) lo hi := by
  have c1 := hC.ge; have c2 := hC.le; have a1 := hA.ge; have a2 := hA.le
  have hc : c.eval (.narrow S) L ≠ 0 := by omega
  have hs := hw (a.eval (.narrow S) L) (by omega) (by omega)
  have hsw : SameWrap ((Expr.select c a b).ty .wide) ((Expr.select c a b).ty (.narrow S))
      (if c.eval (.narrow S) L ≠ 0 then a.eval (.narrow S) L else b.eval (.narrow S) L) := by
    rw [if_pos hc]; exact hs.1
  have hev : (Expr.select c a b).eval (.narrow S) L = a.eval (.narrow S) L := by
    show ((Expr.select c a b).ty (.narrow S)).wrap
      (if c.eval (.narrow S) L ≠ 0 then a.eval (.narrow S) L else b.eval (.narrow S) L) = a.eval (.narrow S) L
    rw [if_pos hc]; exact hs.2
  exact ⟨And.intro hC.agree (And.intro (fun _ => hA.agree) (And.intro (fun hz => absurd hz hc) hsw)),
    by omega, by omega⟩

/-- **A `tl.where` whose condition is decided false** (DEAD_BRANCH): the interval of the live branch `b`. -/
theorem Bounded.select_false {c a b : Expr} {lb hb lo hi : Int}
    (hC : Bounded S L c 0 0) (hB : Bounded S L b lb hb)
    (hw : WrapOK ((Expr.select c a b).ty .wide) ((Expr.select c a b).ty (.narrow S)) lo hi)
    (hlo : lo ≤ lb) (hhi : hb ≤ hi) : Bounded S L (.select c a b) lo hi := by
  have c1 := hC.ge; have c2 := hC.le; have b1 := hB.ge; have b2 := hB.le
  have hz : c.eval (.narrow S) L = 0 := by omega
  have hc : ¬ (c.eval (.narrow S) L ≠ 0) := fun h => h hz
  have hs := hw (b.eval (.narrow S) L) (by omega) (by omega)
  have hsw : SameWrap ((Expr.select c a b).ty .wide) ((Expr.select c a b).ty (.narrow S))
      (if c.eval (.narrow S) L ≠ 0 then a.eval (.narrow S) L else b.eval (.narrow S) L) := by
    rw [if_neg hc]; exact hs.1
  have hev : (Expr.select c a b).eval (.narrow S) L = b.eval (.narrow S) L := by
    show ((Expr.select c a b).ty (.narrow S)).wrap
      (if c.eval (.narrow S) L ≠ 0 then a.eval (.narrow S) L else b.eval (.narrow S) L) = b.eval (.narrow S) L
    rw [if_neg hc]; exact hs.2
  exact ⟨And.intro hC.agree (And.intro (fun hk => absurd hz hk) (And.intro (fun _ => hB.agree) hsw)),
    by omega, by omega⟩

/-- A `tl.where` with an undecided condition: the hull of both branches' intervals. -/
theorem Bounded.select {c a b : Expr} {la ha lb hb lo hi : Int}
    (hC : c.Agree S L) (hA : Bounded S L a la ha) (hB : Bounded S L b lb hb)
    (hw : WrapOK ((Expr.select c a b).ty .wide) ((Expr.select c a b).ty (.narrow S)) lo hi)
    (hlo1 : lo ≤ la) (hlo2 : lo ≤ lb) (hhi1 : ha ≤ hi) (hhi2 : hb ≤ hi) : Bounded S L (.select c a b) lo hi := by
  have a1 := hA.ge; have a2 := hA.le; have b1 := hB.ge; have b2 := hB.le
  have hag : (Expr.select c a b).Agree S L ∧ lo ≤ (Expr.select c a b).eval (.narrow S) L ∧
      (Expr.select c a b).eval (.narrow S) L ≤ hi := by
    by_cases hc : c.eval (.narrow S) L ≠ 0
    · have hs := hw (a.eval (.narrow S) L) (by omega) (by omega)
      have hsw : SameWrap ((Expr.select c a b).ty .wide) ((Expr.select c a b).ty (.narrow S))
          (if c.eval (.narrow S) L ≠ 0 then a.eval (.narrow S) L else b.eval (.narrow S) L) := by
        rw [if_pos hc]; exact hs.1
      have hev : (Expr.select c a b).eval (.narrow S) L = a.eval (.narrow S) L := by
        show ((Expr.select c a b).ty (.narrow S)).wrap
          (if c.eval (.narrow S) L ≠ 0 then a.eval (.narrow S) L else b.eval (.narrow S) L) = a.eval (.narrow S) L
        rw [if_pos hc]; exact hs.2
      exact And.intro (And.intro hC (And.intro (fun _ => hA.agree) (And.intro (fun _ => hB.agree) hsw)))
        (And.intro (by omega) (by omega))
    · have hs := hw (b.eval (.narrow S) L) (by omega) (by omega)
      have hsw : SameWrap ((Expr.select c a b).ty .wide) ((Expr.select c a b).ty (.narrow S))
          (if c.eval (.narrow S) L ≠ 0 then a.eval (.narrow S) L else b.eval (.narrow S) L) := by
        rw [if_neg hc]; exact hs.1
      have hev : (Expr.select c a b).eval (.narrow S) L = b.eval (.narrow S) L := by
        show ((Expr.select c a b).ty (.narrow S)).wrap
          (if c.eval (.narrow S) L ≠ 0 then a.eval (.narrow S) L else b.eval (.narrow S) L) = b.eval (.narrow S) L
        rw [if_neg hc]; exact hs.2
      exact And.intro (And.intro hC (And.intro (fun _ => hA.agree) (And.intro (fun _ => hB.agree) hsw)))
        (And.intro (by omega) (by omega))
  exact ⟨hag.1, hag.2.1, hag.2.2⟩

theorem Expr.holds_false_of_cmp_not_ne_zero {op : Cmp} {a b : Expr} {m : Mode}
    (h : ¬ ((Expr.cmp op a b).eval m L ≠ 0)) : op.holds (a.eval m L) (b.eval m L) = false := by
  cases hc : op.holds (a.eval m L) (b.eval m L)
  · rfl
  · exfalso
    apply h
    show (if op.holds (a.eval m L) (b.eval m L) = true then (1 : Int) else 0) ≠ 0
    simp [hc]

/-- A comparison known false (the `¬ u` part of a case split on `u = (a < b)`): `b ≤ a`. -/
theorem Expr.ge_of_cmp_lt_not_ne_zero {a b : Expr} {m : Mode} (h : ¬ ((Expr.cmp .lt a b).eval m L ≠ 0)) :
    b.eval m L ≤ a.eval m L := by
  have : ¬ (a.eval m L < b.eval m L) := of_decide_eq_false (Expr.holds_false_of_cmp_not_ne_zero h)
  omega

/-- `¬ (a <= b)`: `b < a`. -/
theorem Expr.gt_of_cmp_le_not_ne_zero {a b : Expr} {m : Mode} (h : ¬ ((Expr.cmp .le a b).eval m L ≠ 0)) :
    b.eval m L < a.eval m L := by
  have : ¬ (a.eval m L ≤ b.eval m L) := of_decide_eq_false (Expr.holds_false_of_cmp_not_ne_zero h)
  omega

/-- `¬ (a > b)`: `a ≤ b`. -/
theorem Expr.le_of_cmp_gt_not_ne_zero {a b : Expr} {m : Mode} (h : ¬ ((Expr.cmp .gt a b).eval m L ≠ 0)) :
    a.eval m L ≤ b.eval m L := by
  have : ¬ (b.eval m L < a.eval m L) := of_decide_eq_false (Expr.holds_false_of_cmp_not_ne_zero h)
  omega

/-- `¬ (a >= b)`: `a < b`. -/
theorem Expr.lt_of_cmp_ge_not_ne_zero {a b : Expr} {m : Mode} (h : ¬ ((Expr.cmp .ge a b).eval m L ≠ 0)) :
    a.eval m L < b.eval m L := by
  have : ¬ (b.eval m L ≤ a.eval m L) := of_decide_eq_false (Expr.holds_false_of_cmp_not_ne_zero h)
  omega

end Narrowing
