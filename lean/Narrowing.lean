import Narrowing.Int
import Narrowing.Expr
import Narrowing.Kernel
import Narrowing.Interval
import Narrowing.Quotient
import Narrowing.Products
import Narrowing.Indirect
import Narrowing.Abs
import Narrowing.Uniform
import Narrowing.Reduction
import Narrowing.ReductionLanes
import Narrowing.Tactic
import Narrowing.BitVecBridge

/-!
# Narrowing: when declaring Inductor's size arguments `int32` is exact

Root of the library: imports every file, for `lake build Narrowing`. Status: stated; a proof is written;
**not checked by Lean here** (no toolchain where it was written); `make lean-check` (`scripts/lean-check.sh`)
builds and audits it where Lean exists.

Instances do not import this root: each imports only the files it uses (`Narrowing.Interval` and
`Narrowing.Tactic` always; `Quotient`, `Products`, `Indirect`, `Abs`, `Uniform`, `Reduction`,
`ReductionLanes` when its text uses them), so an error in one kernel class's file cannot fail the instances
of the others, and `BitVecBridge` (a link to core's `BitVec`, used by no instance) is imported by none.

## Main results
* `Narrowing.Kernel.narrowing_exact_of_safe`: the generic theorem, stated once.
* `Narrowing.Bounded` and its node lemmas (`Narrowing/Interval.lean`, `Quotient.lean`): the interval rules,
  stated once with written proofs, by which every generated instance derives `Kernel.Safe` from its side
  conditions.
* `Narrowing.AssertHolds`, `Narrowing.Bounded.assume` (`Narrowing/Indirect.lean`): a `tl.device_assert` on a
  loaded index as a premise about the inputs, and the interval it gives on lanes where its mask holds.
* `Narrowing.RKernel.narrowing_exact_of_safe` (`Narrowing/Reduction.lean`): the generic theorem for
  reduction kernels, a fold over reduction steps, by induction over the step list.
-/
