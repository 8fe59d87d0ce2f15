import Narrowing.Int

/-!
# `wrap32`/`wrap64` are core Lean's two's-complement bit vectors

Links this library's `Int`-based wraparound to core's `BitVec`. No instance imports this file (only the
root `Narrowing.lean` does), so its riskiest step, unfolding `Int.bmod`, cannot fail an instance.: core proves
`BitVec.toInt_ofInt : (BitVec.ofInt n i).toInt = i.bmod (2^n)` (`Init/Data/BitVec/Lemmas.lean`), and
`Int.bmod x m` is `x % m` shifted into `[-m/2, m/2)` (`Init/Data/Int/DivMod.lean`). Nothing else in the
library depends on this file; it documents that `wrap32`/`wrap64` are the semantics of `Int32`/`Int64`
arithmetic rather than a re-invention.

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`); the proofs try a `simp only` route
first and a full-`simp` route second.

## Main results
* `Narrowing.wrap32_eq_toInt_ofInt`
* `Narrowing.wrap64_eq_toInt_ofInt`
-/

namespace Narrowing

/-- Our `wrap32` is `BitVec.ofInt 32` read back as a signed integer. -/
theorem wrap32_eq_toInt_ofInt (v : Int) : wrap32 v = (BitVec.ofInt 32 v).toInt := by
  first
  | (simp only [BitVec.toInt_ofInt, Nat.reducePow, Int.bmod, wrap32]; split <;> omega)
  | (rw [BitVec.toInt_ofInt]; unfold Int.bmod wrap32; simp only [Nat.reducePow]; split <;> omega)
  | (simp [BitVec.toInt_ofInt, Int.bmod, wrap32]; split <;> omega)

/-- Our `wrap64` is `BitVec.ofInt 64` read back as a signed integer. -/
theorem wrap64_eq_toInt_ofInt (v : Int) : wrap64 v = (BitVec.ofInt 64 v).toInt := by
  first
  | (simp only [BitVec.toInt_ofInt, Nat.reducePow, Int.bmod, wrap64]; split <;> omega)
  | (rw [BitVec.toInt_ofInt]; unfold Int.bmod wrap64; simp only [Nat.reducePow]; split <;> omega)
  | (simp [BitVec.toInt_ofInt, Int.bmod, wrap64]; split <;> omega)

end Narrowing
