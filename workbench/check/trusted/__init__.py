"""The trust boundary of the checker: read this folder alone to answer "is a certificate sound?".

Stage: check (trusted). :mod:`.interval` (the interval type and its laws), :mod:`.launch` (exact launch
forms), :mod:`.intervals` (interval rules), :mod:`.agreement` (agreement and structural rules),
:mod:`.conditions` (side-condition emission, structural identity), :mod:`.payload` (retyped integer
payload), :mod:`.reduction` (reduction kernels: the loop, accumulators by induction over steps, reductions
over a row), :mod:`.uniform` (lane-uniform comparisons: decided by the premises with DEAD_BRANCH conditions,
empty lane classes, case splits), :mod:`.analysis` (one run over a kernel from a set of choices), :mod:`.exact` (the exact non-negativity procedure with given multipliers) and
:mod:`.recheck` (a certificate re-checked from its choices and multipliers alone). Pure functions and
per-run state only: no caches across runs, no search, no solver. The search, memoisation, z3,
counterexamples and reporting live outside (``workbench.check.checker``, ``api``, ``discharge``) and pass
in only choices.
"""
