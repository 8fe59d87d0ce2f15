/-!
# Product facts for side conditions: `shift_mul2`, `shift_mul3`

`0 ≤ (x - a) * (y - b)` and `0 ≤ (x - a) * (y - b) * (z - c)` for `x ≥ a`, `y ≥ b`, `z ≥ c`, stated already
expanded so that `omega` reads each monomial (`x * y`, `x * y * z`) as one atom. A generated side condition
cites them for the monomials of its certificate (`workbench/lean/polytext.py`); an instance imports this
file only when it does. It imports nothing but core.

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`). The cubic identity is
the riskiest step: three routes are tried in turn (distribute with core's `Int.mul_sub`, `Int.add_mul`,
`Int.sub_mul` one instance at a time, name the five monomials that differ only by associativity or
commutativity with `Int.mul_assoc`/`Int.mul_comm` at explicit arguments, then `omega` over the atoms;
`grind`'s ring normaliser; `simp only` with the AC lemmas, then `omega`).

## Main results
* `Narrowing.shift_mul2`, `Narrowing.shift_mul3`
-/

namespace Narrowing

/-! ### Product facts for side conditions (the monomials `∏ (x - lb) ≥ 0`, expanded) -/

/-- `(x - a) * (y - b) ≥ 0`, expanded so that `omega` reads `x * y` as one atom. -/
theorem shift_mul2 {x y a b : Int} (hx : a ≤ x) (hy : b ≤ y) :
    0 ≤ x * y - b * x - a * y + a * b := by
  have h := Int.mul_nonneg (Int.sub_nonneg_of_le hx) (Int.sub_nonneg_of_le hy)
  have e : (x - a) * (y - b) = x * y - b * x - a * y + a * b := by
    first
    | (rw [Int.sub_mul, Int.mul_sub, Int.mul_sub, Int.mul_comm x b]; omega)
    | grind
  omega

/-- `(x - a) * (y - b) * (z - c) ≥ 0`, expanded (atoms `x * y * z`, `x * y`, `x * z`, `y * z`). -/
theorem shift_mul3 {x y z a b c : Int} (hx : a ≤ x) (hy : b ≤ y) (hz : c ≤ z) :
    0 ≤ x * y * z - c * (x * y) - b * (x * z) - a * (y * z) + b * c * x + a * c * y + a * b * z
      - a * b * c := by
  have h2 := shift_mul2 hx hy
  have h := Int.mul_nonneg h2 (Int.sub_nonneg_of_le hz)
  have e : (x * y - b * x - a * y + a * b) * (z - c) =
      x * y * z - c * (x * y) - b * (x * z) - a * (y * z) + b * c * x + a * c * y + a * b * z
        - a * b * c := by
    first
    | (have e1 : x * y * c = c * (x * y) := Int.mul_comm (x * y) c
       have e2 : b * x * z = b * (x * z) := Int.mul_assoc b x z
       have e3 : a * y * z = a * (y * z) := Int.mul_assoc a y z
       have e4 : b * x * c = b * c * x := by
         rw [Int.mul_assoc b x c, Int.mul_comm x c, ← Int.mul_assoc b c x]
       have e5 : a * y * c = a * c * y := by
         rw [Int.mul_assoc a y c, Int.mul_comm y c, ← Int.mul_assoc a c y]
       rw [Int.mul_sub, Int.add_mul, Int.add_mul, Int.sub_mul, Int.sub_mul, Int.sub_mul, Int.sub_mul]
       omega)
    | grind
    | (simp only [Int.add_mul, Int.sub_mul, Int.mul_sub, Int.mul_assoc, Int.mul_comm, Int.mul_left_comm]; omega)
  omega

end Narrowing
