import Narrowing.Interval

/-!
# Quotients and remainders on one lane: `Bounded.floordiv`, `Bounded.mod` and their rules

`x // d` and `x % d` (truncating: `arith.divsi`, `arith.remsi`) on a non-negative dividend and a divisor
`≥ 1`, where truncating division is Euclidean division (`Int.tdiv_eq_ediv_of_nonneg`,
`Int.tmod_eq_emod_of_nonneg`). The quotient and remainder rules are the ones a certificate chooses between
(`workbench/check`): `Quot.numerator`, `.exact`, `.const`, `.literal`; `Rem.divisor`, `.numerator`.
Split from `Interval.lean` so that an instance without `//` or `%` does not import it.

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`).

## Main results
* `Narrowing.Bounded.floordiv`, `Narrowing.Bounded.mod`
* `Narrowing.Quot.numerator`, `.exact`, `.const`, `.literal`; `Narrowing.Rem.divisor`, `.numerator`
-/

namespace Narrowing

variable {S : List Nat} {L : Lane}

/-- A quotient rule: on a dividend in `[lx, hx]` and a divisor in `[ld, hd]`, the Euclidean quotient
lies in `[qlo, qhi]`. -/
def QuotRule (lx hx ld hd qlo qhi : Int) : Prop :=
  ∀ X D, lx ≤ X → X ≤ hx → ld ≤ D → D ≤ hd → qlo ≤ X / D ∧ X / D ≤ qhi

/-- Rule `numerator`: `0 ≤ x // d ≤ hi(x)`. -/
theorem Quot.numerator {lx hx ld hd : Int} (hx0 : 0 ≤ lx) (hd1 : 1 ≤ ld) : QuotRule lx hx ld hd 0 hx := by
  intro X D h1 h2 h3 h4
  exact ⟨Int.ediv_nonneg (by omega) (by omega), Int.le_trans (Int.ediv_le_self D (by omega)) h2⟩

/-- Rule `exact`: a point divisor `p` with `hi(x) < Q * p` gives `0 ≤ x // p ≤ Q - 1`. -/
theorem Quot.exact {lx hx p : Int} (Q : Int) (hx0 : 0 ≤ lx) (hp : 1 ≤ p) (hq : hx < Q * p) :
    QuotRule lx hx p p 0 (Q - 1) := by
  intro X D h1 h2 h3 h4
  have hD : D = p := by omega
  have hq' : hx < Q * D := by rw [hD]; exact hq
  have hlt : X < Q * D := by omega
  have := Int.ediv_lt_of_lt_mul (show 0 < D by omega) hlt
  exact ⟨Int.ediv_nonneg (by omega) (by omega), by omega⟩

/-- Rule `const`: a literal divisor `c ≥ 1`: `[lo(x) / c, hi(x) / c]` (Euclidean division is monotone). -/
theorem Quot.const {lx hx : Int} (c : Int) (hc : 1 ≤ c) : QuotRule lx hx c c (lx / c) (hx / c) := by
  intro X D h1 h2 h3 h4
  have hD : D = c := by omega
  rw [hD]
  exact ⟨Int.ediv_le_ediv (by omega) h1, Int.ediv_le_ediv (by omega) h2⟩

/-- Rule `literal`: a literal divisor `c ≥ 1` and any endpoints `qlo`, `qhi` (polynomials in the shape
symbols, say the auxiliary atom that Inductor's guards pin to `floor(s / 2)`) with `c * qlo ≤ lo(x)` and
`hi(x) < (qhi + 1) * c`: the quotient lies in `[qlo, qhi]`. Unlike `Quot.const` its endpoints carry no
`/ c`, so a product of the quotient with another interval stays a polynomial (`pixel_shuffle`'s
`2 * x1 * (ks0 // 2)`). Euclidean division is monotone (`Int.ediv_le_ediv`) and `(c * q) / c = q`
(`Int.mul_ediv_cancel_left`); `X < b * c → X / c < b` (`Int.ediv_lt_of_lt_mul`). -/
theorem Quot.literal {lx hx : Int} (c qlo qhi : Int) (hc : 1 ≤ c) (hlo : c * qlo ≤ lx)
    (hhi : hx < (qhi + 1) * c) : QuotRule lx hx c c qlo qhi := by
  intro X D h1 h2 h3 h4
  have hD : D = c := by omega
  rw [hD]
  have hc0 : (0 : Int) < c := by omega
  have l1 : (c * qlo) / c ≤ X / c := Int.ediv_le_ediv hc0 (Int.le_trans hlo h1)
  rw [Int.mul_ediv_cancel_left qlo (show c ≠ 0 by omega)] at l1
  have u1 : X / c < qhi + 1 := Int.ediv_lt_of_lt_mul hc0 (Int.lt_of_le_of_lt h2 hhi)
  exact ⟨l1, by omega⟩

/-- `x // d` (truncating, `arith.divsi`) on a non-negative dividend and a divisor `≥ 1` (**`lo ≥ 1` ⇒ the
divisor premise** of `Expr.Agree`), by a quotient rule. -/
theorem Bounded.floordiv {x d : Expr} {lx hx ld hd qlo qhi lo hi : Int}
    (hX : Bounded S L x lx hx) (hD : Bounded S L d ld hd) (hx0 : 0 ≤ lx) (hd1 : 1 ≤ ld)
    (hq : QuotRule lx hx ld hd qlo qhi)
    (hw : WrapOK ((Expr.floordiv x d).ty .wide) ((Expr.floordiv x d).ty (.narrow S)) lo hi)
    (hlo : lo ≤ qlo) (hhi : qhi ≤ hi) : Bounded S L (.floordiv x d) lo hi := by
  have h1 := hX.ge; have h2 := hX.le; have h3 := hD.ge; have h4 := hD.le
  have ht : Int.tdiv (x.eval (.narrow S) L) (d.eval (.narrow S) L) =
      x.eval (.narrow S) L / d.eval (.narrow S) L := Int.tdiv_eq_ediv_of_nonneg (by omega)
  obtain ⟨q1, q2⟩ := hq _ _ h1 h2 h3 h4
  obtain ⟨hs, he⟩ := hw (Int.tdiv (x.eval (.narrow S) L) (d.eval (.narrow S) L)) (by omega) (by omega)
  have hev : (Expr.floordiv x d).eval (.narrow S) L =
      Int.tdiv (x.eval (.narrow S) L) (d.eval (.narrow S) L) := by
    first | exact he | (simp only [Expr.eval]; exact he)
  exact ⟨And.intro hX.agree (And.intro hD.agree (And.intro (by omega) hs)), by omega, by omega⟩

/-- A remainder rule: on a dividend in `[lx, hx]` and a divisor in `[ld, hd]`, the Euclidean remainder
lies in `[0, rhi]`. -/
def RemRule (lx hx ld hd rhi : Int) : Prop :=
  ∀ X D, lx ≤ X → X ≤ hx → ld ≤ D → D ≤ hd → X % D ≤ rhi

/-- Rule `divisor`: `x % d ≤ hi(d) - 1` (`Int.emod_lt_of_pos`). -/
theorem Rem.divisor {lx hx ld hd : Int} (hd1 : 1 ≤ ld) : RemRule lx hx ld hd (hd - 1) := by
  intro X D h1 h2 h3 h4
  have := Int.emod_lt_of_pos X (show 0 < D by omega)
  omega

/-- Rule `numerator`: `x % d ≤ hi(x)` for `x ≥ 0` (`x % d = x - d * (x / d)`). -/
theorem Rem.numerator {lx hx ld hd : Int} (hx0 : 0 ≤ lx) (hd1 : 1 ≤ ld) : RemRule lx hx ld hd hx := by
  intro X D h1 h2 h3 h4
  have e := Int.emod_def X D
  have := Int.mul_nonneg (show 0 ≤ D by omega) (Int.ediv_nonneg (show 0 ≤ X by omega) (show 0 ≤ D by omega))
  omega

/-- `x % d` (truncating, `arith.remsi`) on a non-negative dividend and a divisor `≥ 1`, by a remainder
rule: `[0, rhi]` (`Int.emod_nonneg`). -/
theorem Bounded.mod {x d : Expr} {lx hx ld hd rhi lo hi : Int}
    (hX : Bounded S L x lx hx) (hD : Bounded S L d ld hd) (hx0 : 0 ≤ lx) (hd1 : 1 ≤ ld)
    (hr : RemRule lx hx ld hd rhi)
    (hw : WrapOK ((Expr.mod x d).ty .wide) ((Expr.mod x d).ty (.narrow S)) lo hi)
    (hlo : lo ≤ 0) (hhi : rhi ≤ hi) : Bounded S L (.mod x d) lo hi := by
  have h1 := hX.ge; have h2 := hX.le; have h3 := hD.ge; have h4 := hD.le
  have ht : Int.tmod (x.eval (.narrow S) L) (d.eval (.narrow S) L) =
      x.eval (.narrow S) L % d.eval (.narrow S) L := Int.tmod_eq_emod_of_nonneg (by omega)
  have r0 := Int.emod_nonneg (x.eval (.narrow S) L) (show d.eval (.narrow S) L ≠ 0 by omega)
  have r1 := hr _ _ h1 h2 h3 h4
  obtain ⟨hs, he⟩ := hw (Int.tmod (x.eval (.narrow S) L) (d.eval (.narrow S) L)) (by omega) (by omega)
  have hev : (Expr.mod x d).eval (.narrow S) L =
      Int.tmod (x.eval (.narrow S) L) (d.eval (.narrow S) L) := by
    first | exact he | (simp only [Expr.eval]; exact he)
  exact ⟨And.intro hX.agree (And.intro hD.agree (And.intro (by omega) hs)), by omega, by omega⟩

end Narrowing
