"""Kernel classes, the indirect-indexing premises of a verdict, and why an int64-indexed kernel stays wide.

Stage: check (reporting; nothing here makes a verdict pass). One classification used by the corpus table
(``workbench check --all``) and the zoo table (``workbench.zoo.report``), read from the captured record
alone (name, index dtype, source text), so a kernel the IR cannot parse is still classified:

* ``int64-indexed``: Inductor chose ``tl.int64`` indices (some element count may exceed 2**31-1);
* ``persistent reduction`` (``triton_per_*``: the whole row in one block, no ``r0`` loop),
  ``reduction`` (``triton_red_*``: an ``r0`` loop with accumulators);
* ``indirect indexing``: a pointwise kernel that loads through a loaded index (it carries a
  ``tl.device_assert`` on a ``tmpN`` value, Inductor's bounds check of such an index);
* ``pointwise``: everything else Inductor emits as ``triton_poi_*``;
* ``other``: names outside Inductor's prefixes (hand-written or templated kernels).

The first matching class wins, in the order above.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from workbench.check.poly import INT32_MAX


# Inductor's bounds check of a loaded (CSE'd) index: ``tl.device_assert(((0 <= tmp0) & (tmp0 < ks1)) ...``.
# ``roll`` asserts on a pure index expression (no ``tmpN``): that is a pointwise kernel.
_INDIRECT_ASSERT = re.compile(r"tl\.device_assert\([^\n]*\btmp\d+\b")


class KernelClass(Enum):
    POINTWISE = "pointwise"
    INDIRECT = "indirect indexing"
    REDUCTION = "reduction"
    PERSISTENT = "persistent reduction"
    INT64 = "int64-indexed"
    OTHER = "other"


CLASS_ORDER = tuple(KernelClass)  # table order


def kernel_class(name: str, index_dtype: str, source: str = "") -> KernelClass:
    """The class of a kernel from its name, index dtype and source text (see the module docstring)."""
    if index_dtype in ("tl.int64", "int64"):
        return KernelClass.INT64
    if name.startswith("triton_per_"):
        return KernelClass.PERSISTENT
    if name.startswith("triton_red_"):
        return KernelClass.REDUCTION
    if name.startswith("triton_poi_"):
        return KernelClass.INDIRECT if _INDIRECT_ASSERT.search(source) else KernelClass.POINTWISE
    return KernelClass.OTHER


def record_class(record: Any) -> KernelClass:
    """:func:`kernel_class` of a captured kernel record."""
    return kernel_class(record.name, record.index_dtype, record.source)


def int64_reason(record: Any) -> str:
    """Why an int64-indexed kernel stays wide: the guard Inductor would need for int32 indices, per element
    count, and whether it is among the captured guards (it never is when Inductor picked int64: it adds
    ``numel <= 2**31-1`` exactly when it indexes in 32 bits)."""
    guards = {re.sub(r"\s+", "", g) for g in record.guards}
    missing = []
    for n in record.numels:
        if not n.expr:
            continue
        want = f"{n.expr} <= {INT32_MAX}"
        if re.sub(r"\s+", "", want) not in guards:
            missing.append(f"{n.name} = {n.expr}: `{want}` is not among Inductor's guards")  # noqa: E501
    why = "; ".join(missing) if missing else ("every element count's int32 guard is present, yet the record "
                                              "says int64: re-capture it")
    return (f"index dtype {record.index_dtype}: Inductor indexes in 64 bits because no guard keeps the element "
            f"counts in int32 ({why}); with int64 indices there is nothing to narrow, the kernel stays wide")


def premises_note(kernel: Any) -> str:
    """The device_assert premises a verdict on ``kernel`` (parsed) relies on, as one clause ("" if none)."""
    from workbench.kir.indirect import premises

    from workbench.check.asserts import assert_premises

    got = premises(kernel)
    if not got:
        return ""
    # The same premise with its bounds in the shape symbols (what a certificate states and the rule compares).
    symbolic = {(a.line, a.name): a for a in assert_premises(kernel)}

    def text(p) -> str:
        a = symbolic.get((p.line, p.name))
        return p.text + (f" (in the shape symbols: {a.text().split(' where ')[0].split(' (device_assert')[0]})" if a else "")

    return ("; premise on the inputs (tl.device_assert is compiled away, so it is assumed, not checked): "
            + "; ".join(text(p) for p in got))


def by_class(kernels) -> list[dict]:
    """Counts per class, in :data:`CLASS_ORDER`, for the corpus and zoo tables: ``kernels`` is an iterable
    of ``(class, strict verdict, observable verdict)`` (verdict text); a class with no kernel is omitted.
    *In class* = the checker models the kernel (certified or refused in observable mode)."""
    counts: dict[KernelClass, dict] = {}
    for cls, strict, observable in kernels:
        c = counts.setdefault(cls, {"class": cls.value, "kernels": 0, "in_class": 0, "strict": 0, "observable": 0})
        c["kernels"] += 1
        c["in_class"] += observable in ("certified", "refused")
        c["strict"] += strict == "certified"
        c["observable"] += observable == "certified"
    return [counts[c] for c in CLASS_ORDER if c in counts]


def class_table(rows: list[dict]) -> list[str]:
    """The by-class table as markdown lines (the same columns in both reports)."""
    out = ["| kernel class | kernels | in class | certified strict | certified observable |", "|---|---|---|---|---|"]
    out += [f"| {r['class']} | {r['kernels']} | {r['in_class']} | {r['strict']} | {r['observable']} |" for r in rows]
    return out


def outcome_class(name: str, index_dtype: str, out_of_class: str, kernel_class_text: str = "") -> KernelClass:
    """A zoo outcome's class: the one recorded at check time, else from its name, index dtype and (for
    results recorded before classes existed, which lack the source) its out-of-class reason."""
    if kernel_class_text:
        return KernelClass(kernel_class_text)
    if out_of_class in ("device assert", "indirect indexing"):
        return KernelClass.INDIRECT
    return kernel_class(name, index_dtype)
