/-!
# The uniform tactic for generated side conditions

Every side condition of every generated instance (`Instances/`) is closed by `narrowing_side`, after the
product facts the emitter states (`shift_mul2`, `shift_mul3`): linear
integer arithmetic (`omega`) first, then `grind`, whose commutative-ring normaliser expands products so
that the monomial facts the emitter supplies (each `0 ≤ ∏ (x - lb)` by `Int.mul_nonneg`) and the guards
combine linearly (grind's `cutsat` treats nonlinear monomials as atoms).

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`).

## Main definitions
* `narrowing_side`
-/

/-- Closes a generated side condition: `omega` over the product facts the instance states (each monomial
one atom), else `grind`. -/
macro "narrowing_side" : tactic => `(tactic| first | omega | grind)

/-- Closes a product-expansion premise of an interval lemma (`p * hb ≤ hi` with `hi` the expanded
polynomial): `omega`; else distribute and `omega`; else also normalise products up to associativity and
commutativity (the same normal form on both sides) and `omega`; else `grind`. -/
macro "narrowing_poly" : tactic =>
  `(tactic| first
    | omega
    | (simp only [Int.mul_add, Int.add_mul, Int.mul_sub, Int.sub_mul, Int.mul_one, Int.one_mul,
        Int.mul_zero, Int.zero_mul, Int.mul_assoc]; omega)
    | (simp only [Int.mul_add, Int.add_mul, Int.mul_sub, Int.sub_mul, Int.mul_one, Int.one_mul,
        Int.mul_zero, Int.zero_mul, Int.mul_assoc, Int.mul_comm, Int.mul_left_comm]; omega)
    | grind)
