import Narrowing.Kernel

/-!
# Intervals on one lane, and the lemmas that derive `Kernel.Safe` from side conditions

`Bounded S L e lo hi` says: on lane `L`, term `e` agrees (`Expr.Agree`: wide and narrowed evaluation give
the same value) and its narrowed value lies in `[lo, hi]`. Each lemma below is one interval rule of the
checker (`workbench/check/checker.py`), stated once with a written proof: from the children's `Bounded` facts and arithmetic
premises on the endpoints, it concludes `Bounded` for the node. A generated instance (`Instances/`) applies
these lemmas node by node; every premise on an endpoint is closed by one of the instance's `side_k`
theorems (or by linear arithmetic), so the instance's `kernel_safe` derives `Kernel.Safe` from the shape
symbols' lower bounds, Inductor's guards, `L.sizes i = f_i s` and `LaneOK` alone.

The endpoints `lo`, `hi` are integers (in an instance: polynomials in the shape symbols, possibly with
`/ c` by a literal `c`); a rule never trusts an endpoint it is given, it requires the premise that makes it
valid.

Status: stated; a proof is written; not checked by Lean here (see `docs/lean.md`).

## Main definitions
* `Narrowing.LaneOK`: a launched lane (program ids in the grid, positions in their blocks, the linear
  index along each axis below `2^31`).
* `Narrowing.WrapOK`: on `[lo, hi]`, the narrowed result type does not wrap and the wide one agrees.
* `Narrowing.Bounded`.

## Main results
* `Narrowing.WrapOK.of_fits32`: an interval within `int32` gives `Fits32`, hence `SameWrap`.
* `Narrowing.Bounded.add`, `.sub`, `.mul_point_left`, `.mul_point_right`, `.mul_npoint_left`,
  `.mul_nonneg`, `.cast`, `.size`, `.weak`, `.xindex`, `.yindex` (`Grid2DWithYZOverflow`),
  `.yindex2d` (`Grid2D`): node rules. `//` and `%` are in `Narrowing/Quotient.lean`, the product facts of
  side conditions in `Narrowing/Products.lean`: an instance imports them only when it uses them, so an error
  there cannot fail the instances that do not.
* `Narrowing.Expr.lt_of_cmp_ne_zero` (and `le`, `gt`, `ge`), `Narrowing.Expr.ne_zero_of_mand_ne_zero`: mask
  refinement (a set mask's comparison atoms hold on that lane).
* `Narrowing.Loads.agree_of_mem`, `Narrowing.SizesFit.fits_of_mem`: `Kernel.Safe`'s list premises from
  one fact per element.
-/

namespace Narrowing

/-- `v` is representable as a signed 64-bit integer. -/
def Fits64 (v : Int) : Prop := -9223372036854775808 ≤ v ∧ v ≤ 9223372036854775807

theorem wrap64_eq_self_of_fits64 {v : Int} (h : Fits64 v) : wrap64 v = v := by
  obtain ⟨h₁, h₂⟩ := h
  unfold wrap64
  omega

/-- A launched lane: program ids within the grid, positions within their blocks, and the linear element
index along each axis at most `2^31 - 1` (Inductor launches `ceil(numel / BLOCK)` blocks for an `int32`
index: the checker's assumption that launch indices do not wrap). Axis 1 and 2 and block 1 are those of
`Grid2DWithYZOverflow`; a 1-D launch satisfies them with one program along axes 1 and 2, a `Grid2D`
launch with one program along axis 2. -/
structure LaneOK (L : Lane) : Prop where
  pid_nonneg : ∀ a, 0 ≤ L.pid a
  pid_lt : ∀ a, L.pid a < L.nprog a
  block_pos : ∀ b, 1 ≤ L.block b
  pos_nonneg : ∀ b, 0 ≤ L.pos b
  pos_lt : ∀ b, L.pos b < L.block b
  x_le : L.pid 0 * L.block 0 + L.pos 0 ≤ 2147483647
  y_le : (L.pid 1 + L.pid 2 * L.nprog 1) * L.block 1 + L.pos 1 ≤ 2147483647

/-- On every value of `[lo, hi]`, wrapping to the narrowed result type `tn` changes nothing and the wide
result type `tw` gives the same value. -/
def WrapOK (tw tn : Ty) (lo hi : Int) : Prop :=
  ∀ v, lo ≤ v → v ≤ hi → SameWrap tw tn v ∧ tn.wrap v = v

/-- **Interval within `int32` ⇒ `Fits32` ⇒ `SameWrap`** (and no wrap in the narrowed type). -/
theorem WrapOK.of_fits32 {tw tn : Ty} {lo hi : Int} (hw : tw ≠ .i1) (hn : tn ≠ .i1)
    (hl : -2147483648 ≤ lo) (hh : hi ≤ 2147483647) : WrapOK tw tn lo hi := by
  intro v h1 h2
  have hf : Fits32 v := And.intro (by omega) (by omega)
  exact ⟨Or.inr ⟨hw, hn, hf⟩, Ty.wrap_eq_self_of_fits32 hn hf⟩

/-- Both kernels compute in `int64` (an explicit `.to(tl.int64)`): an interval within `int64` suffices. -/
theorem WrapOK.of_same64 {lo hi : Int} (hl : -9223372036854775808 ≤ lo) (hh : hi ≤ 9223372036854775807) :
    WrapOK .i64 .i64 lo hi := by
  intro v h1 h2
  exact ⟨Or.inl rfl, wrap64_eq_self_of_fits64 (And.intro (by omega) (by omega))⟩

/-- Python-integer arithmetic on weak literals never wraps. -/
theorem WrapOK.weak {lo hi : Int} : WrapOK .weak .weak lo hi :=
  fun _ _ _ => ⟨Or.inl rfl, rfl⟩

/-- A mask used as an integer (`1 * (ks0 >= 1)`): values `0`/`1` do not wrap. -/
theorem WrapOK.mask {lo hi : Int} (hl : 0 ≤ lo) (hh : hi ≤ 1) : WrapOK .i1 .i1 lo hi := by
  intro v h1 h2
  refine ⟨Or.inl rfl, ?_⟩
  show (if v = 0 then 0 else 1) = v
  split <;> omega

/-- On lane `L`, `e` agrees and its narrowed value lies in `[lo, hi]`. -/
structure Bounded (S : List Nat) (L : Lane) (e : Expr) (lo hi : Int) : Prop where
  agree : e.Agree S L
  ge : lo ≤ e.eval (.narrow S) L
  le : e.eval (.narrow S) L ≤ hi

variable {S : List Nat} {L : Lane}

theorem Bounded.weak (c : Int) : Bounded S L (.weak c) c c :=
  ⟨True.intro, Int.le_refl c, Int.le_refl c⟩

/-- A typed constant (`tl.full([1], c, tl.int64)`) that fits `int32`. -/
theorem Bounded.strong {t : Ty} {c : Int} (ht : t ≠ .i1) (h : Fits32 c) : Bounded S L (.strong t c) c c := by
  have hev : (Expr.strong t c).eval (.narrow S) L = c := Ty.wrap_eq_self_of_fits32 ht h
  exact ⟨True.intro, by omega, by omega⟩

/-- A comparison used as an integer: `0` or `1`, agreeing when its operands do. -/
theorem Bounded.cmp {op : Cmp} {a b : Expr} (hA : a.Agree S L) (hB : b.Agree S L) :
    Bounded S L (.cmp op a b) 0 1 := by
  have h : (Expr.cmp op a b).eval (.narrow S) L =
      if op.holds (a.eval (.narrow S) L) (b.eval (.narrow S) L) then 1 else 0 := rfl
  refine ⟨And.intro hA hB, ?_, ?_⟩ <;> (rw [h]; split <;> omega)

/-- A comparison that the operands' intervals decide (`1 >= ks0` with `ks0 ≥ 2`): a constant `0` or `1`. -/
theorem Bounded.cmp_const {op : Cmp} {a b : Expr} {la ha lb hb : Int}
    (hA : Bounded S L a la ha) (hB : Bounded S L b lb hb) (r : Bool)
    (hr : ∀ x y, la ≤ x → x ≤ ha → lb ≤ y → y ≤ hb → op.holds x y = r) :
    Bounded S L (.cmp op a b) (if r then 1 else 0) (if r then 1 else 0) := by
  have h : (Expr.cmp op a b).eval (.narrow S) L =
      if op.holds (a.eval (.narrow S) L) (b.eval (.narrow S) L) then 1 else 0 := rfl
  have e := hr _ _ hA.ge hA.le hB.ge hB.le
  rw [e] at h
  -- `omega` reads `if r then 1 else 0` as one atom on both sides.
  exact ⟨And.intro hA.agree hB.agree, by omega, by omega⟩

/-- Size argument `i` on a lane where the host passes `L.sizes i = v`. -/
theorem Bounded.size {i : Nat} {t : Ty} {v : Int} (hv : L.sizes i = v)
    (hw : WrapOK t (Mode.sizeTy (.narrow S) i t) v v) : Bounded S L (.size i t) v v := by
  obtain ⟨hs, he⟩ := hw v (Int.le_refl v) (Int.le_refl v)
  have hev : (Expr.size i t).eval (.narrow S) L = v := by
    show (Mode.sizeTy (.narrow S) i t).wrap (L.sizes i) = v
    rw [hv]; exact he
  have ha : (Expr.size i t).Agree S L := by
    show SameWrap t (Mode.sizeTy (.narrow S) i t) (L.sizes i)
    rw [hv]; exact hs
  exact ⟨ha, by omega, by omega⟩

/-- The 1-D launch index `program_id(0) * XBLOCK + arange(XBLOCK)` of a launched lane. -/
theorem Bounded.xindex (h : LaneOK L) :
    Bounded S L (.add (.mul (.programId 0) (.block 0)) (.arange 0)) 0 2147483647 := by
  have hp := h.pid_nonneg 0
  have hb := h.block_pos 0
  have hq := h.pos_nonneg 0
  have hx := h.x_le
  have hm : 0 ≤ L.pid 0 * L.block 0 := Int.mul_nonneg hp (by omega)
  have e1 : (Expr.mul (.programId 0) (.block 0)).eval (.narrow S) L = L.pid 0 * L.block 0 := by
    show wrap32 (L.pid 0 * L.block 0) = L.pid 0 * L.block 0
    exact wrap32_eq_self_of_fits32 (And.intro (by omega) (by omega))
  have e2 : (Expr.add (.mul (.programId 0) (.block 0)) (.arange 0)).eval (.narrow S) L =
      L.pid 0 * L.block 0 + L.pos 0 := by
    show wrap32 ((Expr.mul (.programId 0) (.block 0)).eval (.narrow S) L + L.pos 0) = _
    rw [e1]
    exact wrap32_eq_self_of_fits32 (And.intro (by omega) (by omega))
  have ha : (Expr.add (.mul (.programId 0) (.block 0)) (.arange 0)).Agree S L :=
    And.intro (And.intro True.intro (And.intro True.intro (Or.inl rfl))) (And.intro True.intro (Or.inl rfl))
  exact ⟨ha, by omega, by omega⟩

/-- The 2-D launch index `(program_id(1) + program_id(2) * num_programs(1)) * YBLOCK + arange(YBLOCK)`
(`Grid2DWithYZOverflow`) of a launched lane. -/
theorem Bounded.yindex (h : LaneOK L) :
    Bounded S L (.add (.mul (.add (.programId 1) (.mul (.programId 2) (.numPrograms 1))) (.block 1))
      (.arange 1)) 0 2147483647 := by
  have hp1 := h.pid_nonneg 1
  have hp2 := h.pid_nonneg 2
  have hn := h.pid_lt 1
  have hb := h.block_pos 1
  have hq := h.pos_nonneg 1
  have hy := h.y_le
  have hm2 : 0 ≤ L.pid 2 * L.nprog 1 := Int.mul_nonneg hp2 (by omega)
  have hm : (L.pid 1 + L.pid 2 * L.nprog 1) ≤ (L.pid 1 + L.pid 2 * L.nprog 1) * L.block 1 := by
    have := Int.mul_le_mul_of_nonneg_left (show (1 : Int) ≤ L.block 1 from hb)
      (show 0 ≤ L.pid 1 + L.pid 2 * L.nprog 1 by omega)
    rw [Int.mul_one] at this
    exact this
  have e1 : (Expr.mul (.programId 2) (.numPrograms 1)).eval (.narrow S) L = L.pid 2 * L.nprog 1 := by
    show wrap32 (L.pid 2 * L.nprog 1) = _
    exact wrap32_eq_self_of_fits32 (And.intro (by omega) (by omega))
  have e2 : (Expr.add (.programId 1) (.mul (.programId 2) (.numPrograms 1))).eval (.narrow S) L =
      L.pid 1 + L.pid 2 * L.nprog 1 := by
    show wrap32 (L.pid 1 + (Expr.mul (.programId 2) (.numPrograms 1)).eval (.narrow S) L) = _
    rw [e1]
    exact wrap32_eq_self_of_fits32 (And.intro (by omega) (by omega))
  have e3 : (Expr.mul (.add (.programId 1) (.mul (.programId 2) (.numPrograms 1))) (.block 1)).eval
      (.narrow S) L = (L.pid 1 + L.pid 2 * L.nprog 1) * L.block 1 := by
    show wrap32 ((Expr.add (.programId 1) (.mul (.programId 2) (.numPrograms 1))).eval (.narrow S) L *
      L.block 1) = _
    rw [e2]
    exact wrap32_eq_self_of_fits32 (And.intro (by omega) (by omega))
  have e4 : (Expr.add (.mul (.add (.programId 1) (.mul (.programId 2) (.numPrograms 1))) (.block 1))
      (.arange 1)).eval (.narrow S) L = (L.pid 1 + L.pid 2 * L.nprog 1) * L.block 1 + L.pos 1 := by
    show wrap32 ((Expr.mul (.add (.programId 1) (.mul (.programId 2) (.numPrograms 1))) (.block 1)).eval
      (.narrow S) L + L.pos 1) = _
    rw [e3]
    exact wrap32_eq_self_of_fits32 (And.intro (by omega) (by omega))
  have ha : (Expr.add (.mul (.add (.programId 1) (.mul (.programId 2) (.numPrograms 1))) (.block 1))
      (.arange 1)).Agree S L :=
    And.intro
      (And.intro
        (And.intro True.intro (And.intro (And.intro True.intro (And.intro True.intro (Or.inl rfl)))
          (Or.inl rfl)))
        (And.intro True.intro (Or.inl rfl)))
      (And.intro True.intro (Or.inl rfl))
  exact ⟨ha, by omega, by omega⟩

/-- The 2-D launch index `program_id(1) * YBLOCK + arange(YBLOCK)` of `Grid2D` (Inductor's 2-D grid without
z programs) of a launched lane: below `LaneOK.y_le`'s index, since `program_id(2) * num_programs(1) ≥ 0`
(a `Grid2D` launch has one z program, so the two coincide there). -/
theorem Bounded.yindex2d (h : LaneOK L) :
    Bounded S L (.add (.mul (.programId 1) (.block 1)) (.arange 1)) 0 2147483647 := by
  have hp1 := h.pid_nonneg 1
  have hp2 := h.pid_nonneg 2
  have hn := h.pid_lt 1
  have hb := h.block_pos 1
  have hq := h.pos_nonneg 1
  have hy := h.y_le
  have hm2 : 0 ≤ L.pid 2 * L.nprog 1 := Int.mul_nonneg hp2 (by omega)
  have hmono : L.pid 1 * L.block 1 ≤ (L.pid 1 + L.pid 2 * L.nprog 1) * L.block 1 :=
    Int.mul_le_mul_of_nonneg_right (by omega) (by omega)
  have hm : 0 ≤ L.pid 1 * L.block 1 := Int.mul_nonneg hp1 (by omega)
  have e1 : (Expr.mul (.programId 1) (.block 1)).eval (.narrow S) L = L.pid 1 * L.block 1 := by
    show wrap32 (L.pid 1 * L.block 1) = L.pid 1 * L.block 1
    exact wrap32_eq_self_of_fits32 (And.intro (by omega) (by omega))
  have e2 : (Expr.add (.mul (.programId 1) (.block 1)) (.arange 1)).eval (.narrow S) L =
      L.pid 1 * L.block 1 + L.pos 1 := by
    show wrap32 ((Expr.mul (.programId 1) (.block 1)).eval (.narrow S) L + L.pos 1) = _
    rw [e1]
    exact wrap32_eq_self_of_fits32 (And.intro (by omega) (by omega))
  have ha : (Expr.add (.mul (.programId 1) (.block 1)) (.arange 1)).Agree S L :=
    And.intro (And.intro True.intro (And.intro True.intro (Or.inl rfl))) (And.intro True.intro (Or.inl rfl))
  exact ⟨ha, by omega, by omega⟩

theorem Bounded.add {a b : Expr} {la ha lb hb lo hi : Int}
    (hA : Bounded S L a la ha) (hB : Bounded S L b lb hb)
    (hw : WrapOK ((Expr.add a b).ty .wide) ((Expr.add a b).ty (.narrow S)) lo hi)
    (hlo : lo ≤ la + lb) (hhi : ha + hb ≤ hi) : Bounded S L (.add a b) lo hi := by
  have h1 := hA.ge; have h2 := hA.le; have h3 := hB.ge; have h4 := hB.le
  obtain ⟨hs, he⟩ := hw (a.eval (.narrow S) L + b.eval (.narrow S) L) (by omega) (by omega)
  have hev : (Expr.add a b).eval (.narrow S) L = a.eval (.narrow S) L + b.eval (.narrow S) L := by
    first | exact he | (simp only [Expr.eval]; exact he)
  exact ⟨And.intro hA.agree (And.intro hB.agree hs), by omega, by omega⟩

theorem Bounded.sub {a b : Expr} {la ha lb hb lo hi : Int}
    (hA : Bounded S L a la ha) (hB : Bounded S L b lb hb)
    (hw : WrapOK ((Expr.sub a b).ty .wide) ((Expr.sub a b).ty (.narrow S)) lo hi)
    (hlo : lo ≤ la - hb) (hhi : ha - lb ≤ hi) : Bounded S L (.sub a b) lo hi := by
  have h1 := hA.ge; have h2 := hA.le; have h3 := hB.ge; have h4 := hB.le
  obtain ⟨hs, he⟩ := hw (a.eval (.narrow S) L - b.eval (.narrow S) L) (by omega) (by omega)
  have hev : (Expr.sub a b).eval (.narrow S) L = a.eval (.narrow S) L - b.eval (.narrow S) L := by
    first | exact he | (simp only [Expr.eval]; exact he)
  exact ⟨And.intro hA.agree (And.intro hB.agree hs), by omega, by omega⟩

/-- A non-negative point factor `p` (a size argument, a literal) times an interval: `[p*lb, p*hb]`. -/
theorem Bounded.mul_point_left {a b : Expr} {p lb hb lo hi : Int}
    (hA : Bounded S L a p p) (hB : Bounded S L b lb hb) (hp : 0 ≤ p)
    (hw : WrapOK ((Expr.mul a b).ty .wide) ((Expr.mul a b).ty (.narrow S)) lo hi)
    (hlo : lo ≤ p * lb) (hhi : p * hb ≤ hi) : Bounded S L (.mul a b) lo hi := by
  have h1 := hA.ge; have h2 := hA.le; have h3 := hB.ge; have h4 := hB.le
  have hae : a.eval (.narrow S) L = p := by omega
  have key : a.eval (.narrow S) L * b.eval (.narrow S) L = p * b.eval (.narrow S) L := by rw [hae]
  have m1 : p * lb ≤ p * b.eval (.narrow S) L := Int.mul_le_mul_of_nonneg_left h3 hp
  have m2 : p * b.eval (.narrow S) L ≤ p * hb := Int.mul_le_mul_of_nonneg_left h4 hp
  obtain ⟨hs, he⟩ := hw (a.eval (.narrow S) L * b.eval (.narrow S) L) (by omega) (by omega)
  have hev : (Expr.mul a b).eval (.narrow S) L = a.eval (.narrow S) L * b.eval (.narrow S) L := by
    first | exact he | (simp only [Expr.eval]; exact he)
  exact ⟨And.intro hA.agree (And.intro hB.agree hs), by omega, by omega⟩

/-- A non-positive point factor (a negative literal, `-1 * x`): `[p*hb, p*lb]`. -/
theorem Bounded.mul_npoint_left {a b : Expr} {p lb hb lo hi : Int}
    (hA : Bounded S L a p p) (hB : Bounded S L b lb hb) (hp : p ≤ 0)
    (hw : WrapOK ((Expr.mul a b).ty .wide) ((Expr.mul a b).ty (.narrow S)) lo hi)
    (hlo : lo ≤ p * hb) (hhi : p * lb ≤ hi) : Bounded S L (.mul a b) lo hi := by
  have h1 := hA.ge; have h2 := hA.le; have h3 := hB.ge; have h4 := hB.le
  have hae : a.eval (.narrow S) L = p := by omega
  have key : a.eval (.narrow S) L * b.eval (.narrow S) L = p * b.eval (.narrow S) L := by rw [hae]
  have m1 : p * hb ≤ p * b.eval (.narrow S) L := Int.mul_le_mul_of_nonpos_left hp h4
  have m2 : p * b.eval (.narrow S) L ≤ p * lb := Int.mul_le_mul_of_nonpos_left hp h3
  obtain ⟨hs, he⟩ := hw (a.eval (.narrow S) L * b.eval (.narrow S) L) (by omega) (by omega)
  have hev : (Expr.mul a b).eval (.narrow S) L = a.eval (.narrow S) L * b.eval (.narrow S) L := by
    first | exact he | (simp only [Expr.eval]; exact he)
  exact ⟨And.intro hA.agree (And.intro hB.agree hs), by omega, by omega⟩

/-- An interval times a non-negative point factor: `[lb*p, hb*p]`. -/
theorem Bounded.mul_point_right {a b : Expr} {la ha p lo hi : Int}
    (hA : Bounded S L a la ha) (hB : Bounded S L b p p) (hp : 0 ≤ p)
    (hw : WrapOK ((Expr.mul a b).ty .wide) ((Expr.mul a b).ty (.narrow S)) lo hi)
    (hlo : lo ≤ la * p) (hhi : ha * p ≤ hi) : Bounded S L (.mul a b) lo hi := by
  have h1 := hA.ge; have h2 := hA.le; have h3 := hB.ge; have h4 := hB.le
  have hbe : b.eval (.narrow S) L = p := by omega
  have key : a.eval (.narrow S) L * b.eval (.narrow S) L = a.eval (.narrow S) L * p := by rw [hbe]
  have m1 : la * p ≤ a.eval (.narrow S) L * p := Int.mul_le_mul_of_nonneg_right h1 hp
  have m2 : a.eval (.narrow S) L * p ≤ ha * p := Int.mul_le_mul_of_nonneg_right h2 hp
  obtain ⟨hs, he⟩ := hw (a.eval (.narrow S) L * b.eval (.narrow S) L) (by omega) (by omega)
  have hev : (Expr.mul a b).eval (.narrow S) L = a.eval (.narrow S) L * b.eval (.narrow S) L := by
    first | exact he | (simp only [Expr.eval]; exact he)
  exact ⟨And.intro hA.agree (And.intro hB.agree hs), by omega, by omega⟩

/-- Two non-negative factors: `[la*lb, ha*hb]`. -/
theorem Bounded.mul_nonneg {a b : Expr} {la ha lb hb lo hi : Int}
    (hA : Bounded S L a la ha) (hB : Bounded S L b lb hb) (hla : 0 ≤ la) (hlb : 0 ≤ lb)
    (hw : WrapOK ((Expr.mul a b).ty .wide) ((Expr.mul a b).ty (.narrow S)) lo hi)
    (hlo : lo ≤ la * lb) (hhi : ha * hb ≤ hi) : Bounded S L (.mul a b) lo hi := by
  have h1 := hA.ge; have h2 := hA.le; have h3 := hB.ge; have h4 := hB.le
  have m1 : la * lb ≤ a.eval (.narrow S) L * b.eval (.narrow S) L :=
    Int.mul_le_mul h1 h3 hlb (by omega)
  have m2 : a.eval (.narrow S) L * b.eval (.narrow S) L ≤ ha * hb :=
    Int.mul_le_mul h2 h4 (by omega) (by omega)
  obtain ⟨hs, he⟩ := hw (a.eval (.narrow S) L * b.eval (.narrow S) L) (by omega) (by omega)
  have hev : (Expr.mul a b).eval (.narrow S) L = a.eval (.narrow S) L * b.eval (.narrow S) L := by
    first | exact he | (simp only [Expr.eval]; exact he)
  exact ⟨And.intro hA.agree (And.intro hB.agree hs), by omega, by omega⟩

/-- `.to(t)` of a term whose interval fits `t`: same value, same interval. -/
theorem Bounded.cast {t : Ty} {a : Expr} {la ha : Int} (hA : Bounded S L a la ha) (hw : WrapOK t t la ha) :
    Bounded S L (.cast t a) la ha := by
  have h1 := hA.ge; have h2 := hA.le
  have he := (hw (a.eval (.narrow S) L) h1 h2).2
  have hev : (Expr.cast t a).eval (.narrow S) L = a.eval (.narrow S) L := he
  exact ⟨hA.agree, by omega, by omega⟩

theorem Bounded.cast_eval {t : Ty} {a : Expr} {la ha : Int} (hA : Bounded S L a la ha)
    (hw : WrapOK t t la ha) : (Expr.cast t a).eval (.narrow S) L = a.eval (.narrow S) L :=
  (hw (a.eval (.narrow S) L) hA.ge hA.le).2

/-- Mask refinement: a tighter upper bound, given as a premise on this lane. -/
theorem Bounded.le_of_le {e : Expr} {lo hi hi' : Int} (hB : Bounded S L e lo hi)
    (h : e.eval (.narrow S) L ≤ hi') : Bounded S L e lo hi' :=
  ⟨hB.agree, hB.ge, h⟩

/-- Mask refinement: a tighter lower bound, given as a premise on this lane. -/
theorem Bounded.ge_of_ge {e : Expr} {lo hi lo' : Int} (hB : Bounded S L e lo hi)
    (h : lo' ≤ e.eval (.narrow S) L) : Bounded S L e lo' hi :=
  ⟨hB.agree, h, hB.le⟩

/-! ### Masks: a set mask's atoms hold on that lane -/

theorem Expr.holds_of_cmp_ne_zero {op : Cmp} {a b : Expr} {m : Mode}
    (h : (Expr.cmp op a b).eval m L ≠ 0) : op.holds (a.eval m L) (b.eval m L) = true := by
  cases hc : op.holds (a.eval m L) (b.eval m L)
  · exfalso
    apply h
    show (if op.holds (a.eval m L) (b.eval m L) = true then (1 : Int) else 0) = 0
    simp [hc]
  · rfl

theorem Expr.lt_of_cmp_ne_zero {a b : Expr} {m : Mode} (h : (Expr.cmp .lt a b).eval m L ≠ 0) :
    a.eval m L < b.eval m L :=
  of_decide_eq_true (Expr.holds_of_cmp_ne_zero h)

theorem Expr.le_of_cmp_ne_zero {a b : Expr} {m : Mode} (h : (Expr.cmp .le a b).eval m L ≠ 0) :
    a.eval m L ≤ b.eval m L :=
  of_decide_eq_true (Expr.holds_of_cmp_ne_zero h)

theorem Expr.gt_of_cmp_ne_zero {a b : Expr} {m : Mode} (h : (Expr.cmp .gt a b).eval m L ≠ 0) :
    b.eval m L < a.eval m L :=
  of_decide_eq_true (Expr.holds_of_cmp_ne_zero h)

theorem Expr.ge_of_cmp_ne_zero {a b : Expr} {m : Mode} (h : (Expr.cmp .ge a b).eval m L ≠ 0) :
    b.eval m L ≤ a.eval m L :=
  of_decide_eq_true (Expr.holds_of_cmp_ne_zero h)

theorem Expr.ne_zero_of_mand_ne_zero {a b : Expr} {m : Mode} (h : (Expr.mand a b).eval m L ≠ 0) :
    a.eval m L ≠ 0 ∧ b.eval m L ≠ 0 := by
  by_cases hab : a.eval m L ≠ 0 ∧ b.eval m L ≠ 0
  · exact hab
  · exfalso
    apply h
    show (if a.eval m L ≠ 0 ∧ b.eval m L ≠ 0 then (1 : Int) else 0) = 0
    rw [if_neg hab]

/-! ### `Kernel.Safe`'s list premises, one fact per element -/

/-- Every load of the list agrees. -/
def Loads.Agree (S : List Nat) (L : Lane) : List Load → Prop
  | [] => True
  | ld :: ls => ld.Agree S L ∧ Loads.Agree S L ls

theorem Loads.agree_of_mem : ∀ {ls : List Load}, Loads.Agree S L ls → ∀ ld ∈ ls, ld.Agree S L
  | [], _, _, hm => nomatch hm
  | _ :: _, h, _, hm => by
    cases hm with
    | head => exact And.left h
    | tail _ hm' => exact Loads.agree_of_mem (And.right h) _ hm'

/-- Every listed size argument fits in `int32`. -/
def SizesFit (L : Lane) : List Nat → Prop
  | [] => True
  | i :: ns => Fits32 (L.sizes i) ∧ SizesFit L ns

theorem SizesFit.fits_of_mem : ∀ {ns : List Nat}, SizesFit L ns → ∀ i ∈ ns, Fits32 (L.sizes i)
  | [], _, _, hm => nomatch hm
  | _ :: _, h, _, hm => by
    cases hm with
    | head => exact And.left h
    | tail _ hm' => exact SizesFit.fits_of_mem (And.right h) _ hm'

end Narrowing
