import Narrowing.Kernel

/-!
# Intervals on one lane, and the lemmas that derive `Kernel.Safe` from side conditions

`Bounded S L e lo hi` says: on lane `L`, term `e` agrees (`Expr.Agree`: wide and narrowed evaluation give
the same value) and its narrowed value lies in `[lo, hi]`. Each lemma below is one interval rule of the
checker (`workbench/check/checker.py`), proved once: from the children's `Bounded` facts and arithmetic
premises on the endpoints, it concludes `Bounded` for the node. A generated instance (`Instances/`) applies
these lemmas node by node; every premise on an endpoint is closed by one of the instance's `side_k`
theorems (or by linear arithmetic), so the instance's `kernel_safe` derives `Kernel.Safe` from the shape
symbols' lower bounds, Inductor's guards, `L.sizes i = f_i s` and `LaneOK` alone.

The endpoints `lo`, `hi` are integers (in an instance: polynomials in the shape symbols, possibly with
`/ c` by a literal `c`); a rule never trusts an endpoint it is given, it requires the premise that makes it
valid.

Status: not checked by Lean where it was written (see `docs/lean.md`).

## Main definitions
* `Narrowing.LaneOK`: a launched lane (program ids in the grid, positions in their blocks, the linear
  index along each axis below `2^31`).
* `Narrowing.WrapOK`: on `[lo, hi]`, the narrowed result type does not wrap and the wide one agrees.
* `Narrowing.Bounded`.

## Main results
* `Narrowing.WrapOK.of_fits32`: an interval within `int32` gives `Fits32`, hence `SameWrap`.
* `Narrowing.Bounded.add`, `.sub`, `.mul_point_left`, `.mul_point_right`, `.mul_npoint_left`,
  `.mul_nonneg`, `.floordiv`, `.mod`, `.cast`, `.size`, `.weak`, `.xindex`, `.yindex` (`Grid2DWithYZOverflow`),
  `.yindex2d` (`Grid2D`): node rules.
* `Narrowing.Quot.numerator`, `.exact`, `.const`, `.literal`; `Narrowing.Rem.divisor`, `.numerator`: the quotient and
  remainder rules a certificate chooses between (truncating division is Euclidean division on a
  non-negative dividend: `Int.tdiv_eq_ediv_of_nonneg`, `Int.tmod_eq_emod_of_nonneg`).
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

/-- Mask refinement: a tighter upper bound proved on this lane. -/
theorem Bounded.le_of_le {e : Expr} {lo hi hi' : Int} (hB : Bounded S L e lo hi)
    (h : e.eval (.narrow S) L ≤ hi') : Bounded S L e lo hi' :=
  ⟨hB.agree, hB.ge, h⟩

/-- Mask refinement: a tighter lower bound proved on this lane. -/
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

/-! ### Product facts for side conditions (the monomials `∏ (x - lb) ≥ 0`, expanded) -/

/-- `(x - a) * (y - b) ≥ 0`, expanded so that `omega` reads `x * y` as one atom. -/
theorem shift_mul2 {x y a b : Int} (hx : a ≤ x) (hy : b ≤ y) :
    0 ≤ x * y - b * x - a * y + a * b := by
  have h := Int.mul_nonneg (Int.sub_nonneg.mpr hx) (Int.sub_nonneg.mpr hy)
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
  have h := Int.mul_nonneg h2 (Int.sub_nonneg.mpr hz)
  have e : (x * y - b * x - a * y + a * b) * (z - c) =
      x * y * z - c * (x * y) - b * (x * z) - a * (y * z) + b * c * x + a * c * y + a * b * z
        - a * b * c := by
    first
    | grind
    | (simp only [Int.add_mul, Int.sub_mul, Int.mul_sub, Int.mul_assoc, Int.mul_comm, Int.mul_left_comm]; omega)
  omega

end Narrowing
