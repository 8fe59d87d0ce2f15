import Narrowing.Int
import Narrowing.Expr
import Narrowing.Kernel
import Narrowing.Interval
import Narrowing.Indirect
import Narrowing.Abs
import Narrowing.Uniform
import Narrowing.Reduction
import Narrowing.ReductionLanes
import Narrowing.Tactic
import Narrowing.BitVecBridge

/-!
# Narrowing: when declaring Inductor's size arguments `int32` is exact

Root of the library. Status: written against Lean core v4.24.0 sources, **not checked by Lean** where it
was written (no toolchain there); `scripts/lean-check.sh` builds and audits it where Lean exists.

## Main results
* `Narrowing.Kernel.narrowing_exact_of_safe`: the generic theorem, stated once.
* `Narrowing.Bounded` and its node lemmas (`Narrowing/Interval.lean`): the interval rules, proved once, by
  which every generated instance derives `Kernel.Safe` from its side conditions.
* `Narrowing.AssertHolds`, `Narrowing.Bounded.assume` (`Narrowing/Indirect.lean`): a `tl.device_assert` on a
  loaded index as a premise about the inputs, and the interval it gives on lanes where its mask holds.
* `Narrowing.RKernel.narrowing_exact_of_safe` (`Narrowing/Reduction.lean`): the generic theorem for
  reduction kernels, a fold over reduction steps, by induction over the step list.
-/
