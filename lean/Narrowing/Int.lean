/-!
# Signed 32/64-bit integer semantics of Triton index arithmetic

Triton lowers integer `+ - *` to LLVM's wrapping two's-complement instructions, `//` to `arith.divsi`
and `%` to `arith.remsi` (truncating division, remainder with the sign of the dividend), and a binary
operation on an `int32` and an `int64` operand sign-extends to `int64`. An untyped Python literal is
*weak*: it takes the type of the other operand. This file models exactly that on `Int`:

* a value of type `int32`/`int64` is an `Int` kept in range by `wrap32`/`wrap64` after every operation;
* truncating division and remainder are core Lean's `Int.tdiv` and `Int.tmod`;
* masks (`i1`) are `0`/`1`.

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`).

## Main definitions
* `Narrowing.Ty`: the integer types of an index expression (`weak`, `i1`, `i32`, `i64`).
* `Narrowing.Ty.promote`: Triton's binary promotion.
* `Narrowing.Ty.wrap`: two's-complement wraparound to a type.
* `Narrowing.Fits32`: a value lies in `[-2^31, 2^31 - 1]`.
* `Narrowing.Size32`: a bound-carrying `int32` size argument, in the style of core's `Int32.ofIntLE`.
* `Narrowing.iabs`: the exact absolute value (before wrapping: `Expr.abs` wraps it to its type, so
  `INT_MIN` stays `INT_MIN`, as `llvm.abs` with `is_int_min_poison = false` does).

## Main results
* `Narrowing.wrap32_eq_self_of_fits32`, `Narrowing.wrap64_eq_self_of_fits32`: wrapping a value that fits
  in `int32` changes nothing.
* `Narrowing.Ty.wrap_eq_self_of_fits32`: the same for every non-mask type.
* `Narrowing.SameWrap.wrap_eq`: the condition under which the wide and narrow result types give the same
  value.
* `Narrowing.iabs_of_nonneg`, `Narrowing.iabs_of_nonpos`, `Narrowing.iabs_nonneg`, `Narrowing.iabs_le`:
  `|v|` on an interval (`|v| ≤ max(hi, -lo)`).
-/

namespace Narrowing

/-- Integer types of index expressions. `weak` is an untyped Python literal (Triton's weak typing: it
adopts the other operand's type); `i1` is a mask. -/
inductive Ty where
  | weak
  | i1
  | i32
  | i64
  deriving DecidableEq, Repr

/-- Triton's result type of a binary integer operation: a weak literal adopts the other operand's type,
otherwise the wider type wins (`int32` with `int64` sign-extends to `int64`). -/
def Ty.promote : Ty → Ty → Ty
  | .weak, t => t
  | t, .weak => t
  | .i64, _ => .i64
  | _, .i64 => .i64
  | .i32, _ => .i32
  | _, .i32 => .i32
  | .i1, .i1 => .i1

/-- Two's-complement wraparound to 32 bits, written with `%` by a literal so that `omega` reasons
about it directly. -/
def wrap32 (v : Int) : Int := (v + 2147483648) % 4294967296 - 2147483648

/-- Two's-complement wraparound to 64 bits. -/
def wrap64 (v : Int) : Int :=
  (v + 9223372036854775808) % 18446744073709551616 - 9223372036854775808

/-- The value an operation of result type `t` produces from its exact result `v`. Weak literals are
Python integers (no wrap); masks are normalised to `0`/`1`. -/
def Ty.wrap : Ty → Int → Int
  | .weak, v => v
  | .i1, v => if v = 0 then 0 else 1
  | .i32, v => wrap32 v
  | .i64, v => wrap64 v

/-- `v` is representable as a signed 32-bit integer. -/
def Fits32 (v : Int) : Prop := -2147483648 ≤ v ∧ v ≤ 2147483647

/-- A size argument passed as `int32`, carrying its bounds (the style of core's `Int32.ofIntLE`). -/
structure Size32 where
  val : Int
  ge : -2147483648 ≤ val
  le : val ≤ 2147483647

/-- Builds a `Size32` from an integer known to be in range. -/
def Size32.ofIntLE (v : Int) (hl : -2147483648 ≤ v) (hr : v ≤ 2147483647) : Size32 := ⟨v, hl, hr⟩

theorem Size32.fits32 (s : Size32) : Fits32 s.val := And.intro s.ge s.le

theorem wrap32_eq_self_of_fits32 {v : Int} (h : Fits32 v) : wrap32 v = v := by
  obtain ⟨h₁, h₂⟩ := h
  unfold wrap32
  omega

theorem wrap64_eq_self_of_fits32 {v : Int} (h : Fits32 v) : wrap64 v = v := by
  obtain ⟨h₁, h₂⟩ := h
  unfold wrap64
  omega

theorem Ty.wrap_eq_self_of_fits32 {t : Ty} {v : Int} (ht : t ≠ .i1) (h : Fits32 v) :
    t.wrap v = v := by
  cases t with
  | weak => rfl
  | i1 => exact absurd rfl ht
  | i32 => exact wrap32_eq_self_of_fits32 h
  | i64 => exact wrap64_eq_self_of_fits32 h

/-- The wide and narrow kernels compute the same value at a node whose result types are `tw` and `tn` and
whose exact result is `v`: either the types agree, or neither is a mask and `v` fits in `int32`. -/
def SameWrap (tw tn : Ty) (v : Int) : Prop :=
  tw = tn ∨ (tw ≠ .i1 ∧ tn ≠ .i1 ∧ Fits32 v)

theorem SameWrap.wrap_eq {tw tn : Ty} {v : Int} (h : SameWrap tw tn v) : tw.wrap v = tn.wrap v := by
  rcases h with rfl | ⟨hw, hn, hv⟩
  · rfl
  · rw [Ty.wrap_eq_self_of_fits32 hw hv, Ty.wrap_eq_self_of_fits32 hn hv]

/-- The exact absolute value of an integer, before any wrap (`tl_math.abs` on a signed integer computes it
and wraps it to the operand's type: `Narrowing.Expr.abs`). -/
def iabs (v : Int) : Int := if v < 0 then -v else v

theorem iabs_of_nonneg {v : Int} (h : 0 ≤ v) : iabs v = v := by
  unfold iabs
  first
  | (split <;> omega)
  | (by_cases hv : v < 0 <;> simp [hv] <;> omega)

theorem iabs_of_nonpos {v : Int} (h : v ≤ 0) : iabs v = -v := by
  unfold iabs
  first
  | (split <;> omega)
  | (by_cases hv : v < 0 <;> simp [hv] <;> omega)

theorem iabs_nonneg (v : Int) : 0 ≤ iabs v := by
  unfold iabs
  first
  | (split <;> omega)
  | (by_cases hv : v < 0 <;> simp [hv] <;> omega)

/-- `|v| ≤ max(hi, -lo)` for `v ∈ [lo, hi]`: any `M` above both bounds `|v|`. -/
theorem iabs_le {v lo hi M : Int} (h1 : lo ≤ v) (h2 : v ≤ hi) (hM1 : hi ≤ M) (hM2 : -lo ≤ M) : iabs v ≤ M := by
  unfold iabs
  first
  | (split <;> omega)
  | (by_cases hv : v < 0 <;> simp [hv] <;> omega)

end Narrowing
