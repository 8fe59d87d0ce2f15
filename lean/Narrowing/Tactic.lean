/-!
# The uniform tactic for generated side conditions

Every side condition of every generated instance (`Instances/`) is closed by `narrowing_side`: linear
integer arithmetic (`omega`) first, then `grind`, whose commutative-ring normaliser expands products so
that the monomial facts the emitter supplies (each `0 ≤ ∏ (x - lb)` by `Int.mul_nonneg`) and the guards
combine linearly (grind's `cutsat` treats nonlinear monomials as atoms).

Status: not checked by Lean where it was written (see `docs/lean.md`).

## Main definitions
* `narrowing_side`
-/

/-- Closes a generated side condition: `omega`, else `grind`. -/
macro "narrowing_side" : tactic => `(tactic| first | omega | grind)
