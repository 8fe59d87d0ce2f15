"""Lean stage (prove): emit per-kernel Lean instances of the narrowing theorem, talk to the Lean language
server, and check the Lake project in ``lean/``.

Modules: ``instance`` (the emitter's input), ``hand_built`` (instances transcribed from captured kernels),
``adapter`` (files and certificates to instances), ``emit`` (deterministic Lean text), ``steps`` (tactic
positions from text), ``session`` (language server over leanclient), ``check`` (``lake build`` and axioms),
``model`` (a Python mirror of the Lean semantics, for tests), ``cli``. Nothing in this package calls a
statement checked unless ``check`` ran Lean on it here: a theorem is "stated; a proof is written; not checked
by Lean here", a side condition of the Python checker "discharged by the checker (exact / z3)"; see
``docs/lean.md``.
"""
