import Narrowing.Int

/-!
# Index expressions of Inductor's pointwise kernels, evaluated wide and narrowed

One constructor per integer op of the workbench IR (`workbench/kir`): `tl.program_id(axis)`,
`tl.num_programs(axis)`, a lane's element of `tl.arange` along a block, the block-size constexprs (`XBLOCK`,
`YBLOCK`), size arguments, weak and strong constants, `+ - * // %`, comparisons, `& |` on masks,
`tl.where`, `.to(dtype)`, integer `tl_math.abs` (two's complement: `INT_MIN` stays `INT_MIN`) and an integer
computed from an index value in floating point (`Expr.fconv`); and, for indirect indexing, an integer loaded from an index tensor (`Expr.load`,
read from the lane's memory `Lane.mem`) and a `tl.device_assert` premise on such a value (`Expr.assume`,
whose value is the asserted value: Triton compiles the assert away). `Expr.eval` evaluates a term on one lane in one `Mode`: `wide` passes
the size arguments with their declared type (Inductor's `int64`), `narrow S` passes the size arguments
listed in `S` (the kernel's `sizeArgs`) as `int32` (wrapped by the launcher) and the others as declared. Every operation wraps to its result type (`Narrowing.Ty.wrap`).

Grids: a `Lane` carries all three program ids, the grid (`num_programs`) and one position per block, so one
model covers Inductor's `Grid1D` (`x = program_id(0) * XBLOCK + arange(XBLOCK)`) and
`Grid2DWithYZOverflow` (additionally `y = (program_id(1) + program_id(2) * num_programs(1)) * YBLOCK +
arange(YBLOCK)`); the kernel's own terms compute `x` and `y`, with every `int32` wrap Triton performs.
Blocks are numbered `0 = XBLOCK` (the `x` axis) and `1 = YBLOCK` (the `y` axis).

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`).

## Main definitions
* `Narrowing.Expr`, `Narrowing.Expr.ty`, `Narrowing.Expr.eval`.
* `Narrowing.Expr.Agree`: on one lane, every node's narrowed result is representable in both result
  types (`SameWrap`), every divisor is at least 1, every narrowed size argument fits in `int32`. As in the
  checker (`workbench/check/checker.py`), `a & b` needs `b` only where `a` holds (or the other way round),
  `a | b` needs `b` only where `a` is false, and `tl.where(c, a, b)` needs only the branch `c` selects.

## Main results
* `Narrowing.Expr.eval_wide_eq_eval_narrow_of_agree`: under `Agree`, wide and narrowed evaluation give
  the same value.
* `Narrowing.Expr.divisorsPos_of_agree`: under `Agree`, every `//` and `%` has a divisor `≥ 1` in both
  widths.
-/

namespace Narrowing

/-- Comparison operators; each yields an `i1` mask. -/
inductive Cmp where
  | lt
  | le
  | gt
  | ge
  | eq
  | ne
  deriving DecidableEq, Repr

/-- Whether a comparison holds. Operands are compared as the signed values they denote, which is what
sign extension to the promoted type does. -/
def Cmp.holds : Cmp → Int → Int → Bool
  | .lt, a, b => decide (a < b)
  | .le, a, b => decide (a ≤ b)
  | .gt, a, b => decide (b < a)
  | .ge, a, b => decide (b ≤ a)
  | .eq, a, b => decide (a = b)
  | .ne, a, b => !decide (a = b)

/-- Which kernel is evaluated: `wide` gives each size argument its declared type; `narrow S` declares
`int32` exactly the size arguments listed in `S` (the kernel's `sizeArgs`) and leaves the others as
declared. -/
inductive Mode where
  | wide
  | narrow (sizeArgs : List Nat)
  deriving DecidableEq, Repr

/-- The type size argument `i`, declared `t`, has in a mode: its own in `wide`; in `narrow S`, `int32`
when `i ∈ S` and its own otherwise. -/
def Mode.sizeTy : Mode → Nat → Ty → Ty
  | .wide, _, t => t
  | .narrow S, i, t => if i ∈ S then .i32 else t

/-- One lane of the launch grid: its program ids `tl.program_id(axis)` (axes `0, 1, 2`), the grid
`tl.num_programs(axis)`, its position along each block (`pos 0` in `tl.arange(0, XBLOCK)`, `pos 1` in
`tl.arange(0, YBLOCK)`, `pos 2` in `r0_base = tl.arange(0, R0_BLOCK)`), the block sizes (`block 0 = XBLOCK`,
`block 1 = YBLOCK`, `block 2 = R0_BLOCK`), the size arguments' values as the host computes them (exact
integers), `roff`, the current reduction step's `r0_offset` (a reduction kernel's lane is an
`(x, r)` pair at one step: `Narrowing/Reduction.lean`; pointwise kernels never read it), `mem`, the integer
contents of the memory the kernel's index tensors live in (`mem p a` is the cell at offset `a` of pointer
argument `p`, before wrapping to the tensor's element type), and `undef`, the unspecified value a
masked-off integer load without `other=` yields in each kernel (it may differ between the two compiled
kernels, so `Expr.Agree` never relies on it), and `fn`, the integer functions an index value goes through
in floating point (`fn f v`: the float computation named `f` applied to the integer value `v`, then
converted back to an integer: `Expr.fconv`). A 1-D lane uses axis and block `0` only; a 2-D lane is
the position `(x, y)` its kernel computes from these. Theorems quantify over every lane, so over every
memory content and every such function too. -/
structure Lane where
  pid : Nat → Int
  nprog : Nat → Int
  pos : Nat → Int
  block : Nat → Int
  sizes : Nat → Int
  roff : Int
  mem : Nat → Int → Int
  undef : Mode → Nat → Int
  fn : String → Int → Int

/-- Integer index expressions, one constructor per op of the workbench IR. -/
inductive Expr where
  /-- `tl.program_id(axis)` (`int32`). -/
  | programId (axis : Nat)
  /-- `tl.num_programs(axis)` (`int32`). -/
  | numPrograms (axis : Nat)
  /-- This lane's element of `tl.arange(0, B)` for block `b` (`0`: `B = XBLOCK`, `1`: `B = YBLOCK`; `int32`). -/
  | arange (b : Nat)
  /-- The block-size constexpr of block `b` (`0`: `XBLOCK`, `1`: `YBLOCK`, `2`: `R0_BLOCK`; a weak integer). -/
  | block (b : Nat)
  /-- The current reduction step's `r0_offset` in `for r0_offset in tl.range(0, r0_numel, R0_BLOCK)` (`int32`:
  the loop's bound `r0_numel` is an `int32` argument, so the induction variable is `int32` in both kernels). -/
  | loopOffset
  /-- Size argument `i`, declared with type `wideTy` by Inductor (`i64` for `ks*`, `i32` for `xnumel`). -/
  | size (i : Nat) (wideTy : Ty)
  /-- An untyped Python literal or `tl.constexpr` (weak). -/
  | weak (c : Int)
  /-- A typed constant such as `tl.full([1], c, tl.int64)` (strong). -/
  | strong (t : Ty) (c : Int)
  | add (a b : Expr)
  | sub (a b : Expr)
  | mul (a b : Expr)
  /-- Triton `//` on integers: truncating division (`arith.divsi`). -/
  | floordiv (a b : Expr)
  /-- Triton `%` on integers: remainder with the sign of the dividend (`arith.remsi`). -/
  | mod (a b : Expr)
  /-- `tl_math.abs` on a signed integer (`math.absi`: `llvm.abs` with `is_int_min_poison = false`): the exact
  `|a|` wrapped to `a`'s type, so `INT_MIN` stays `INT_MIN` (two's complement). -/
  | abs (a : Expr)
  | cmp (op : Cmp) (a b : Expr)
  /-- `&` on masks. -/
  | mand (a b : Expr)
  /-- `|` on masks. -/
  | mor (a b : Expr)
  /-- `tl.where(c, a, b)`. -/
  | select (c a b : Expr)
  /-- `.to(t)`. -/
  | cast (t : Ty) (a : Expr)
  /-- An integer computed from an index value through floating point (`a.to(tl.float32)`, float math, then
  `.to(t)`: T5's relative-position bucket `log(|d| / 8) * c` as an `int64`): `L.fn f` of `a`'s value, wrapped to
  `t`. The float computation `f` (named by its text) is the same in both kernels and depends on `a`'s value
  only (converting an integer to float depends on the value, not on the width it was held in), so it is an
  uninterpreted function of that value. A float-to-integer conversion out of range (poison in LLVM) is
  modelled as some value, the same in both kernels: a modelling choice, not a theorem. -/
  | fconv (f : String) (t : Ty) (a : Expr)
  /-- An integer loaded from an index tensor, `tl.load(ptr + offset, mask, other=other)` with pointer
  argument `ptr` of element type `t` (`*i64` for Inductor's indices): the cell's contents `L.mem ptr
  offset` wrapped to `t` where the mask is set; `other` where it is not (`none`: no `other=`, so the value
  is unspecified: `L.undef`). Only the value of an asserted index (`assume`) reads it. -/
  | load (ptr : Nat) (t : Ty) (offset mask : Expr) (other : Option Int)
  /-- `tl.device_assert(((lo <= v) & (v < hi)) | ~(mask))` on a loaded index `v` (`hasLo`/`hasHi`: which
  bounds the assert states; an absent one is a placeholder term). Triton compiles the assert away outside
  debug mode, so the node's value is `v`, unchecked: the bounds are a premise about the inputs
  (`Narrowing.AssertHolds`, `Narrowing/Indirect.lean`), never a check the kernel performs. -/
  | assume (v mask lo hi : Expr) (hasLo hasHi : Bool)
  deriving Repr

/-- The result type of a node in a mode. Only size arguments depend on the mode. -/
def Expr.ty (m : Mode) : Expr → Ty
  | .programId _ => .i32
  | .numPrograms _ => .i32
  | .arange _ => .i32
  | .block _ => .weak
  | .loopOffset => .i32
  | .size i t => m.sizeTy i t
  | .weak _ => .weak
  | .strong t _ => t
  | .add a b => (a.ty m).promote (b.ty m)
  | .sub a b => (a.ty m).promote (b.ty m)
  | .mul a b => (a.ty m).promote (b.ty m)
  | .floordiv a b => (a.ty m).promote (b.ty m)
  | .mod a b => (a.ty m).promote (b.ty m)
  | .abs a => a.ty m
  | .cmp _ _ _ => .i1
  | .mand _ _ => .i1
  | .mor _ _ => .i1
  | .select _ a b => (a.ty m).promote (b.ty m)
  | .cast t _ => t
  | .fconv _ t _ => t
  | .load _ t _ _ _ => t
  | .assume v _ _ _ _ _ => v.ty m

/-- Evaluation on one lane, wrapping every result to its type. -/
def Expr.eval (m : Mode) (L : Lane) : Expr → Int
  | .programId a => L.pid a
  | .numPrograms a => L.nprog a
  | .arange b => L.pos b
  | .block b => L.block b
  | .loopOffset => L.roff
  | .size i t => ((Expr.size i t).ty m).wrap (L.sizes i)
  | .weak c => c
  | .strong t c => t.wrap c
  | .add a b => ((Expr.add a b).ty m).wrap (a.eval m L + b.eval m L)
  | .sub a b => ((Expr.sub a b).ty m).wrap (a.eval m L - b.eval m L)
  | .mul a b => ((Expr.mul a b).ty m).wrap (a.eval m L * b.eval m L)
  | .floordiv a b => ((Expr.floordiv a b).ty m).wrap (Int.tdiv (a.eval m L) (b.eval m L))
  | .mod a b => ((Expr.mod a b).ty m).wrap (Int.tmod (a.eval m L) (b.eval m L))
  | .abs a => ((Expr.abs a).ty m).wrap (iabs (a.eval m L))
  | .cmp op a b => if op.holds (a.eval m L) (b.eval m L) then 1 else 0
  | .mand a b => if a.eval m L ≠ 0 ∧ b.eval m L ≠ 0 then 1 else 0
  | .mor a b => if a.eval m L ≠ 0 ∨ b.eval m L ≠ 0 then 1 else 0
  | .select c a b =>
    ((Expr.select c a b).ty m).wrap (if c.eval m L ≠ 0 then a.eval m L else b.eval m L)
  | .cast t a => t.wrap (a.eval m L)
  | .fconv f t a => t.wrap (L.fn f (a.eval m L))
  | .load p t off mask other =>
    if mask.eval m L ≠ 0 then t.wrap (L.mem p (off.eval m L))
    else match other with
      | some c => t.wrap c
      | none => t.wrap (L.undef m p)
  | .assume v _ _ _ _ _ => v.eval m L

/-- The per-lane premise of the generic theorem for one term: at every node, the exact result computed
from the narrowed operands gives the same value in the wide and the narrow result type (`SameWrap`);
every divisor is at least 1; every size argument narrowed from a wider type fits in `int32`. A loaded
index agrees where its mask is set and its offset agrees (both kernels read the same cell of the same
memory), and never where it is masked off without `other=` (the unspecified value is not relied on, as the
checker's `DEFINED_VALUE`); an asserted index agrees when its value does (the premise is not needed for
agreement: it bounds the value, `Narrowing.Bounded.assume`). -/
def Expr.Agree (S : List Nat) (L : Lane) : Expr → Prop
  | .programId _ => True
  | .numPrograms _ => True
  | .arange _ => True
  | .block _ => True
  | .loopOffset => True
  | .size i t => SameWrap t (Mode.sizeTy (.narrow S) i t) (L.sizes i)
  | .weak _ => True
  | .strong _ _ => True
  | .add a b => a.Agree S L ∧ b.Agree S L ∧
      SameWrap ((Expr.add a b).ty .wide) ((Expr.add a b).ty (.narrow S))
        (a.eval (.narrow S) L + b.eval (.narrow S) L)
  | .sub a b => a.Agree S L ∧ b.Agree S L ∧
      SameWrap ((Expr.sub a b).ty .wide) ((Expr.sub a b).ty (.narrow S))
        (a.eval (.narrow S) L - b.eval (.narrow S) L)
  | .mul a b => a.Agree S L ∧ b.Agree S L ∧
      SameWrap ((Expr.mul a b).ty .wide) ((Expr.mul a b).ty (.narrow S))
        (a.eval (.narrow S) L * b.eval (.narrow S) L)
  | .floordiv a b => a.Agree S L ∧ b.Agree S L ∧ 1 ≤ b.eval (.narrow S) L ∧
      SameWrap ((Expr.floordiv a b).ty .wide) ((Expr.floordiv a b).ty (.narrow S))
        (Int.tdiv (a.eval (.narrow S) L) (b.eval (.narrow S) L))
  | .mod a b => a.Agree S L ∧ b.Agree S L ∧ 1 ≤ b.eval (.narrow S) L ∧
      SameWrap ((Expr.mod a b).ty .wide) ((Expr.mod a b).ty (.narrow S))
        (Int.tmod (a.eval (.narrow S) L) (b.eval (.narrow S) L))
  | .abs a => a.Agree S L ∧
      SameWrap ((Expr.abs a).ty .wide) ((Expr.abs a).ty (.narrow S)) (iabs (a.eval (.narrow S) L))
  | .cmp _ a b => a.Agree S L ∧ b.Agree S L
  | .mand a b => (a.Agree S L ∧ (a.eval (.narrow S) L ≠ 0 → b.Agree S L)) ∨
      (b.Agree S L ∧ (b.eval (.narrow S) L ≠ 0 → a.Agree S L))
  | .mor a b => (a.Agree S L ∧ (a.eval (.narrow S) L = 0 → b.Agree S L)) ∨
      (b.Agree S L ∧ (b.eval (.narrow S) L = 0 → a.Agree S L))
  | .select c a b => c.Agree S L ∧ (c.eval (.narrow S) L ≠ 0 → a.Agree S L) ∧
      (c.eval (.narrow S) L = 0 → b.Agree S L) ∧
      SameWrap ((Expr.select c a b).ty .wide) ((Expr.select c a b).ty (.narrow S))
        (if c.eval (.narrow S) L ≠ 0 then a.eval (.narrow S) L else b.eval (.narrow S) L)
  | .cast _ a => a.Agree S L
  | .fconv _ _ a => a.Agree S L
  | .load _ _ off mask other => mask.Agree S L ∧ (mask.eval (.narrow S) L ≠ 0 → off.Agree S L) ∧
      (mask.eval (.narrow S) L = 0 → other.isSome = true)
  | .assume v _ _ _ _ _ => v.Agree S L

/-- Every `//` and `%` in the term has a divisor of at least 1 when evaluated in mode `m` (a loaded index's
offset only where its mask is set; an assert's mask and bounds are not evaluated: the assert is compiled
away). -/
def Expr.DivisorsPos (m : Mode) (L : Lane) : Expr → Prop
  | .programId _ => True
  | .numPrograms _ => True
  | .arange _ => True
  | .block _ => True
  | .loopOffset => True
  | .size _ _ => True
  | .weak _ => True
  | .strong _ _ => True
  | .add a b => a.DivisorsPos m L ∧ b.DivisorsPos m L
  | .sub a b => a.DivisorsPos m L ∧ b.DivisorsPos m L
  | .mul a b => a.DivisorsPos m L ∧ b.DivisorsPos m L
  | .floordiv a b => a.DivisorsPos m L ∧ b.DivisorsPos m L ∧ 1 ≤ b.eval m L
  | .mod a b => a.DivisorsPos m L ∧ b.DivisorsPos m L ∧ 1 ≤ b.eval m L
  | .abs a => a.DivisorsPos m L
  | .cmp _ a b => a.DivisorsPos m L ∧ b.DivisorsPos m L
  | .mand a b => (a.DivisorsPos m L ∧ (a.eval m L ≠ 0 → b.DivisorsPos m L)) ∨
      (b.DivisorsPos m L ∧ (b.eval m L ≠ 0 → a.DivisorsPos m L))
  | .mor a b => (a.DivisorsPos m L ∧ (a.eval m L = 0 → b.DivisorsPos m L)) ∨
      (b.DivisorsPos m L ∧ (b.eval m L = 0 → a.DivisorsPos m L))
  | .select c a b => c.DivisorsPos m L ∧ (c.eval m L ≠ 0 → a.DivisorsPos m L) ∧
      (c.eval m L = 0 → b.DivisorsPos m L)
  | .cast _ a => a.DivisorsPos m L
  | .fconv _ _ a => a.DivisorsPos m L
  | .load _ _ off mask _ => mask.DivisorsPos m L ∧ (mask.eval m L ≠ 0 → off.DivisorsPos m L)
  | .assume v _ _ _ _ _ => v.DivisorsPos m L

/-- **Wide and narrowed evaluation agree** on a lane where the term's premise `Agree` holds. -/
theorem Expr.eval_wide_eq_eval_narrow_of_agree (S : List Nat) (L : Lane) (e : Expr) (h : e.Agree S L) :
    e.eval .wide L = e.eval (.narrow S) L := by
  induction e with
  | programId a => rfl
  | numPrograms a => rfl
  | arange b => rfl
  | block b => rfl
  | loopOffset => rfl
  | size i t =>
    simp only [Expr.Agree] at h
    -- `Mode.sizeTy .wide i t` is `t` by definition; the narrowed side keeps `Mode.sizeTy (.narrow S) i t`.
    exact SameWrap.wrap_eq h
  | weak c => rfl
  | strong t c => rfl
  | add a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb, hs⟩ := h
    simp only [Expr.eval]
    rw [iha ha, ihb hb]
    exact SameWrap.wrap_eq hs
  | sub a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb, hs⟩ := h
    simp only [Expr.eval]
    rw [iha ha, ihb hb]
    exact SameWrap.wrap_eq hs
  | mul a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb, hs⟩ := h
    simp only [Expr.eval]
    rw [iha ha, ihb hb]
    exact SameWrap.wrap_eq hs
  | floordiv a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb, _, hs⟩ := h
    simp only [Expr.eval]
    rw [iha ha, ihb hb]
    exact SameWrap.wrap_eq hs
  | mod a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb, _, hs⟩ := h
    simp only [Expr.eval]
    rw [iha ha, ihb hb]
    exact SameWrap.wrap_eq hs
  | abs a iha =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hs⟩ := h
    simp only [Expr.eval]
    rw [iha ha]
    exact SameWrap.wrap_eq hs
  | cmp op a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb⟩ := h
    simp only [Expr.eval]
    rw [iha ha, ihb hb]
  | mand a b iha ihb =>
    simp only [Expr.Agree] at h
    simp only [Expr.eval]
    rcases h with ⟨ha, hb⟩ | ⟨hb, ha⟩
    · rw [iha ha]
      by_cases hz : a.eval (.narrow S) L = 0
      · simp [hz]
      · rw [ihb (hb hz)]
    · rw [ihb hb]
      by_cases hz : b.eval (.narrow S) L = 0
      · simp [hz]
      · rw [iha (ha hz)]
  | mor a b iha ihb =>
    simp only [Expr.Agree] at h
    simp only [Expr.eval]
    rcases h with ⟨ha, hb⟩ | ⟨hb, ha⟩
    · rw [iha ha]
      by_cases hz : a.eval (.narrow S) L = 0
      · rw [ihb (hb hz)]
      · simp [hz]
    · rw [ihb hb]
      by_cases hz : b.eval (.narrow S) L = 0
      · rw [iha (ha hz)]
      · simp [hz]
  | select c a b ihc iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨hc, ha, hb, hs⟩ := h
    simp only [Expr.eval]
    rw [ihc hc]
    by_cases hz : c.eval (.narrow S) L ≠ 0
    · rw [if_pos hz, if_pos hz, iha (ha hz)]
      rw [if_pos hz] at hs
      exact SameWrap.wrap_eq hs
    · rw [if_neg hz, if_neg hz, ihb (hb (by first | omega | exact Classical.not_not.mp hz | exact Decidable.of_not_not hz))]
      rw [if_neg hz] at hs
      exact SameWrap.wrap_eq hs
  | cast t a iha =>
    simp only [Expr.Agree] at h
    simp only [Expr.eval]
    rw [iha h]
  | fconv f t a iha =>
    simp only [Expr.Agree] at h
    show t.wrap (L.fn f (a.eval .wide L)) = t.wrap (L.fn f (a.eval (.narrow S) L))
    rw [iha h]
  | load p t off mask other iho ihm =>
    simp only [Expr.Agree] at h
    obtain ⟨hm, ho, hother⟩ := h
    simp only [Expr.eval]
    rw [ihm hm]
    by_cases hz : mask.eval (.narrow S) L ≠ 0
    · rw [if_pos hz, if_pos hz, iho (ho hz)]
    · have h0 : mask.eval (.narrow S) L = 0 := by
        first | omega | exact Classical.not_not.mp hz | exact Decidable.of_not_not hz
      rw [if_neg hz, if_neg hz]
      cases other with
      | some c => rfl
      | none => exact absurd (hother h0) (by first | decide | simp)
  | assume v mask lo hi hasLo hasHi ihv _ _ _ =>
    simp only [Expr.Agree] at h
    show v.eval .wide L = v.eval (.narrow S) L
    exact ihv h

/-- **No division by zero in either width**: under `Agree`, every divisor is at least 1. -/
theorem Expr.divisorsPos_of_agree (m : Mode) (S : List Nat) (hm : m = .wide ∨ m = .narrow S) (L : Lane)
    (e : Expr) (h : e.Agree S L) :
    e.DivisorsPos m L := by
  induction e with
  | programId a => exact True.intro
  | numPrograms a => exact True.intro
  | arange b => exact True.intro
  | block b => exact True.intro
  | loopOffset => exact True.intro
  | size i t => exact True.intro
  | weak c => exact True.intro
  | strong t c => exact True.intro
  | add a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb, _⟩ := h
    simp only [Expr.DivisorsPos]
    exact ⟨iha ha, ihb hb⟩
  | sub a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb, _⟩ := h
    simp only [Expr.DivisorsPos]
    exact ⟨iha ha, ihb hb⟩
  | mul a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb, _⟩ := h
    simp only [Expr.DivisorsPos]
    exact ⟨iha ha, ihb hb⟩
  | floordiv a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb, hd, _⟩ := h
    simp only [Expr.DivisorsPos]
    refine ⟨iha ha, ihb hb, ?_⟩
    rcases hm with rfl | rfl
    · rw [Expr.eval_wide_eq_eval_narrow_of_agree S L b hb]; exact hd
    · exact hd
  | mod a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb, hd, _⟩ := h
    simp only [Expr.DivisorsPos]
    refine ⟨iha ha, ihb hb, ?_⟩
    rcases hm with rfl | rfl
    · rw [Expr.eval_wide_eq_eval_narrow_of_agree S L b hb]; exact hd
    · exact hd
  | abs a iha =>
    simp only [Expr.Agree] at h
    show a.DivisorsPos m L
    exact iha h.1
  | cmp op a b iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨ha, hb⟩ := h
    simp only [Expr.DivisorsPos]
    exact ⟨iha ha, ihb hb⟩
  | mand a b iha ihb =>
    simp only [Expr.Agree] at h
    simp only [Expr.DivisorsPos]
    rcases h with ⟨ha, hb⟩ | ⟨hb, ha⟩
    · have he : a.eval m L = a.eval (.narrow S) L := by
        rcases hm with rfl | rfl
        · exact Expr.eval_wide_eq_eval_narrow_of_agree S L a ha
        · rfl
      exact Or.inl ⟨iha ha, fun hz => ihb (hb (by rw [← he]; exact hz))⟩
    · have he : b.eval m L = b.eval (.narrow S) L := by
        rcases hm with rfl | rfl
        · exact Expr.eval_wide_eq_eval_narrow_of_agree S L b hb
        · rfl
      exact Or.inr ⟨ihb hb, fun hz => iha (ha (by rw [← he]; exact hz))⟩
  | mor a b iha ihb =>
    simp only [Expr.Agree] at h
    simp only [Expr.DivisorsPos]
    rcases h with ⟨ha, hb⟩ | ⟨hb, ha⟩
    · have he : a.eval m L = a.eval (.narrow S) L := by
        rcases hm with rfl | rfl
        · exact Expr.eval_wide_eq_eval_narrow_of_agree S L a ha
        · rfl
      exact Or.inl ⟨iha ha, fun hz => ihb (hb (by rw [← he]; exact hz))⟩
    · have he : b.eval m L = b.eval (.narrow S) L := by
        rcases hm with rfl | rfl
        · exact Expr.eval_wide_eq_eval_narrow_of_agree S L b hb
        · rfl
      exact Or.inr ⟨ihb hb, fun hz => iha (ha (by rw [← he]; exact hz))⟩
  | select c a b ihc iha ihb =>
    simp only [Expr.Agree] at h
    obtain ⟨hc, ha, hb, _⟩ := h
    simp only [Expr.DivisorsPos]
    have he : c.eval m L = c.eval (.narrow S) L := by
      rcases hm with rfl | rfl
      · exact Expr.eval_wide_eq_eval_narrow_of_agree S L c hc
      · rfl
    exact ⟨ihc hc, fun hz => iha (ha (by rw [← he]; exact hz)),
      fun hz => ihb (hb (by rw [← he]; exact hz))⟩
  | cast t a iha =>
    simp only [Expr.Agree] at h
    exact iha h
  | fconv f t a iha =>
    simp only [Expr.Agree] at h
    show a.DivisorsPos m L
    exact iha h
  | load p t off mask other iho ihm =>
    simp only [Expr.Agree] at h
    obtain ⟨hk, ho, _⟩ := h
    simp only [Expr.DivisorsPos]
    have he : mask.eval m L = mask.eval (.narrow S) L := by
      rcases hm with rfl | rfl
      · exact Expr.eval_wide_eq_eval_narrow_of_agree S L mask hk
      · rfl
    exact ⟨ihm hk, fun hz => iho (ho (by rw [← he]; exact hz))⟩
  | assume v mask lo hi hasLo hasHi ihv _ _ _ =>
    simp only [Expr.Agree] at h
    show v.DivisorsPos m L
    exact ihv h

end Narrowing
