"""Lean stage (prove): emit per-kernel Lean instances of the narrowing theorem, talk to the Lean language
server, and check the Lake project in ``lean/``.

Modules: ``instance`` (the emitter's input), ``hand_built`` (instances transcribed from captured kernels),
``adapter`` (files and certificates to instances), ``emit`` (deterministic Lean text), ``steps`` (tactic
positions from text), ``session`` (language server over leanclient), ``check`` (``lake build`` and axioms),
``model`` (a Python mirror of the Lean semantics, for tests), ``cli``. Nothing in this package says a
statement is proved unless ``check`` ran Lean on it here; see ``docs/lean.md``.
"""
