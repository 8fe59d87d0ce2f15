"""The compiler rule: narrow a kernel's size arguments to int32 only when a certificate binds to the live
compilation (see :mod:`workbench.rule.binding`), and report 1's kernel variants (:mod:`workbench.rule.variants`).

``with workbench.rule.narrowing(): torch.compile(fn, dynamic=True)(*inputs)`` hooks Inductor's kernel
definition for the duration of the block: each kernel Inductor defines is parsed, hashed and matched against
the certificate store; a kernel that binds gets its proven size arguments declared ``i32`` in its signature,
every other kernel is untouched (``narrowing(mode="partial")`` applies variant P instead: the int64 ``//`` and
``%`` sites its certificate names computed in int32, signature unchanged). The text handed to Inductor comes from
:func:`workbench.rule.compiled.compiled_module` and is validated against the certificate first; a text that
cannot be shown to be the certified kernel is refused (the binding reports ``compiled text: ...``). Leaving the block restores Inductor exactly (the hook is a ``mock.patch``;
the FX graph cache is off inside so a cached graph can neither skip the decision nor carry it out of the
block).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from workbench.rule.binding import Binding, CertifiedKernel, bind

__all__ = ["Binding", "CertifiedKernel", "Decisions", "bind", "best_binding", "narrowing", "load_store"]


@dataclass
class Decisions:
    """What the rule decided inside one ``narrowing()`` block, in order."""

    bindings: list[Binding] = field(default_factory=list)

    @property
    def narrowed(self) -> list[Binding]:
        return [b for b in self.bindings if b.bound]


def live_ir_hash(record) -> str:
    """The IR hash of a kernel's body (cached by its text: Inductor defines the same body many times)."""
    from workbench import kir

    return kir.canonical_hash(kir.parse(record, check_versions=False), facts=False)


def _facts_key(live) -> tuple:
    return (live.source_hash, tuple(sorted(live.signature.items())), live.size_args, live.numels,
            tuple((s.name, s.lower, s.upper) for s in live.symbols), live.guards, live.index_dtype, live.grid_type)


_BIND_CACHE: dict[tuple, Binding] = {}


def best_binding(store: Sequence[CertifiedKernel], live, ir_hash: str | None = None) -> Binding:
    """Bind ``live`` (a CapturedKernel) to a certificate whose body and premises all match; else the refusal
    that got furthest (the most premises matched). Results are cached by the live facts, so a kernel
    Inductor defines again binds by a dictionary lookup."""
    from workbench.errors import WorkbenchError

    key = (tuple(c.content_hash for c in store), _facts_key(live), ir_hash)  # by content, never id()
    hit = _BIND_CACHE.get(key)
    if hit is not None:
        return dataclasses.replace(hit, kernel=live.name)
    if ir_hash is None:
        try:
            ir_hash = live_ir_hash(live)
        except WorkbenchError as exc:
            return Binding(False, live.name, None, (), (), f"body: not in the IR's class ({exc})", (),
                           store[0].mode if store else "")
    candidates = [c for c in store if c.ir_hash == ir_hash]
    best: Binding | None = None
    for cert in candidates:
        b = bind(cert, live, ir_hash)
        if b.bound:
            best = b
            break
        if best is None or len(b.matched) > len(best.matched):
            best = b
    if best is None:
        best = Binding(False, live.name, None, (), (),
                       f"body: no certificate in the store ({len(store)}) has IR hash {ir_hash[:12]}", ())
    if len(_BIND_CACHE) > 4096:
        _BIND_CACHE.clear()
    _BIND_CACHE[key] = best
    return best


@contextlib.contextmanager
def narrowing(store: Sequence[CertifiedKernel] | None = None, mode: str = "observable") -> Iterator[Decisions]:
    """Narrow proven size arguments of kernels Inductor defines inside the block (see module docstring).
    Only certificates of ``mode`` bind (a given store is filtered to it); with ``mode="partial"`` a bound
    kernel gets variant P instead (:func:`workbench.rule.partial.rewrite_module`: the certified int64 ``//``
    and ``%`` sites computed on int32 operands, the size arguments left ``i64``)."""
    import torch

    from workbench.capture.integration import kernel_definition_hook

    store = load_store(mode=mode) if store is None else [c for c in store if c.mode == mode]
    decisions = Decisions()

    def decide(live):
        from workbench.capture.integration import Recompile
        from workbench.rule.compiled import CompileRefused, compiled_module

        b = best_binding(store, live.record)
        if not b.bound:
            decisions.bindings.append(b)
            return None
        # What Inductor compiles is produced from the certificate's own list (size arguments, or P's sites by
        # IR node) and validated against it before anything is handed over (rule/compiled.py); a text that
        # cannot be shown to be the certified kernel is refused and the emitted kernel compiles unchanged.
        try:
            compiled_module(live.record, b.mode, b.narrow)
        except CompileRefused as exc:
            decisions.bindings.append(dataclasses.replace(
                b, bound=False, failed=f"compiled text: {exc}", narrow=()))
            return None
        decisions.bindings.append(b)
        retype = {} if b.mode == "partial" else {a: "i32" for a in b.narrow}
        label = {"body": f"P: {len(b.narrow)} sites"} if b.mode == "partial" else retype
        return Recompile(lambda module: compiled_module(live.record, b.mode, b.narrow, module), retype, label)

    def named(name: str) -> None:
        decisions.bindings[-1] = dataclasses.replace(decisions.bindings[-1], kernel=name)

    with torch._inductor.config.patch(fx_graph_cache=False), kernel_definition_hook(decide, on_defined=named):
        yield decisions


def load_store(path=None, mode: str = "observable") -> list[CertifiedKernel]:
    """Kernels certified in ``mode`` by the current checker, from the kernel records under ``path``
    (default ``data/kernels/``)."""
    from workbench.rule.store import load

    return load(path, mode)
