import Narrowing.Interval

/-!
# Integer `tl_math.abs`: its interval rule

`tl_math.abs` on a signed integer is `math.absi`, lowered to `llvm.abs(x, is_int_min_poison = false)`: the
exact `|x|` wrapped to `x`'s type, so `|INT_MIN|` is `INT_MIN` again (`Narrowing.Expr.abs`, `Narrowing.iabs`).
The checker's rule (`workbench/check/trusted/interval.py`, `iabs`): `|v| ≤ max(hi, -lo)` for `v ∈ [lo, hi]`,
`[lo, hi]` itself when `lo ≥ 0`, `[-hi, -lo]` when `hi ≤ 0`; the node's fit condition asks the exact `|v|`
to fit the narrowed type, which rules out the wrap of `INT_MIN` on every lane it covers.

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`).

## Main results
* `Narrowing.Bounded.abs_nonneg`, `Narrowing.Bounded.abs_nonpos`, `Narrowing.Bounded.abs`.
-/

namespace Narrowing

variable {S : List Nat} {L : Lane}

/-- `tl_math.abs` of a non-negative interval: `[la, ha]` (`|v| = v`). -/
theorem Bounded.abs_nonneg {a : Expr} {la ha lo hi : Int} (hA : Bounded S L a la ha) (h0 : 0 ≤ la)
    (hw : WrapOK ((Expr.abs a).ty .wide) ((Expr.abs a).ty (.narrow S)) lo hi)
    (hlo : lo ≤ la) (hhi : ha ≤ hi) : Bounded S L (.abs a) lo hi := by
  have h1 := hA.ge; have h2 := hA.le
  have e : iabs (a.eval (.narrow S) L) = a.eval (.narrow S) L := iabs_of_nonneg (by omega)
  obtain ⟨hs, he⟩ := hw (iabs (a.eval (.narrow S) L)) (by omega) (by omega)
  have hev : (Expr.abs a).eval (.narrow S) L = iabs (a.eval (.narrow S) L) := by
    first | exact he | (simp only [Expr.eval]; exact he)
  exact ⟨And.intro hA.agree hs, by omega, by omega⟩

/-- `tl_math.abs` of a non-positive interval: `[-ha, -la]` (`|v| = -v`). -/
theorem Bounded.abs_nonpos {a : Expr} {la ha lo hi : Int} (hA : Bounded S L a la ha) (h0 : ha ≤ 0)
    (hw : WrapOK ((Expr.abs a).ty .wide) ((Expr.abs a).ty (.narrow S)) lo hi)
    (hlo : lo ≤ -ha) (hhi : -la ≤ hi) : Bounded S L (.abs a) lo hi := by
  have h1 := hA.ge; have h2 := hA.le
  have e : iabs (a.eval (.narrow S) L) = -a.eval (.narrow S) L := iabs_of_nonpos (by omega)
  obtain ⟨hs, he⟩ := hw (iabs (a.eval (.narrow S) L)) (by omega) (by omega)
  have hev : (Expr.abs a).eval (.narrow S) L = iabs (a.eval (.narrow S) L) := by
    first | exact he | (simp only [Expr.eval]; exact he)
  exact ⟨And.intro hA.agree hs, by omega, by omega⟩

/-- `tl_math.abs` of any interval: `|v| ∈ [0, M]` for every `M ≥ max(ha, -la)` (the checker's `iabs`:
`[0, hi]`, `[0, -lo]` or `[0, hi - lo]`, whichever its premises show). Two's complement `abs` wraps
`|INT_MIN|` back to `INT_MIN`; `hw` asks the exact `|v|` to fit the narrowed type, so that cannot happen. -/
theorem Bounded.abs {a : Expr} {la ha lo hi : Int} (hA : Bounded S L a la ha)
    (hw : WrapOK ((Expr.abs a).ty .wide) ((Expr.abs a).ty (.narrow S)) lo hi)
    (hlo : lo ≤ 0) (hhi1 : ha ≤ hi) (hhi2 : -la ≤ hi) : Bounded S L (.abs a) lo hi := by
  have h1 := hA.ge; have h2 := hA.le
  have n0 := iabs_nonneg (a.eval (.narrow S) L)
  have n1 : iabs (a.eval (.narrow S) L) ≤ hi := iabs_le h1 h2 hhi1 hhi2
  obtain ⟨hs, he⟩ := hw (iabs (a.eval (.narrow S) L)) (by omega) (by omega)
  have hev : (Expr.abs a).eval (.narrow S) L = iabs (a.eval (.narrow S) L) := by
    first | exact he | (simp only [Expr.eval]; exact he)
  exact ⟨And.intro hA.agree hs, by omega, by omega⟩

end Narrowing
