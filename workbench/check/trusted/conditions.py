"""Side-condition emission of the trusted checker: every obligation with its structural identity
(reason, node, interval end, lane class as node keys) and its rendering for people (source names, line).

Stage: check (trusted). A mixin of :class:`~workbench.check.trusted.analysis.Analysis`. Identity never
depends on rendered text: two lane classes that render alike (``t & xmask`` after ``t`` is rebound) are
different keys, and a key never drops a condition with a different claim.
"""

from __future__ import annotations

from workbench.check.poly import Poly
from workbench.check.sidecond import Origin, Reason, SideCondition
from workbench.check.trusted.interval import EMPTY, LaneClass
from workbench.kir import Node, Op


class ConditionRules:
    """``need`` emits a condition; ``describe``/``origin`` render where it comes from."""

    def describe(self, n: Node, depth: int = 0) -> str:
        if id(n) in self.names and depth > 0:
            return self.names[id(n)][0]
        a = n.args
        match n.op:
            case Op.CONST:
                return str(n.attr[0])
            case Op.ARG | Op.CONSTEXPR:
                return str(n.attr)
            case Op.PROGRAM_ID:
                return f"tl.program_id({n.attr})"
            case Op.NUM_PROGRAMS:
                return f"tl.num_programs({n.attr})"
            case Op.ARANGE:
                return f"tl.arange({n.attr[0]}, {n.attr[1]})"
            case Op.NEG:
                return f"-{self.describe(a[0], depth + 1)}"
            case Op.ABS:
                return f"tl_math.abs({self.describe(a[0], depth + 1)})"
            case Op.CAST:
                return self.describe(a[0], depth) if n.attr else f"({self.describe(a[0], depth + 1)}).to({n.type})"
            case Op.BROADCAST:
                return self.describe(a[0], depth)
            case Op.LOAD:
                return f"tl.load({n.attr} + ({self.describe(a[0], depth + 1)}), {self.describe(a[1], depth + 1)})"
            case Op.STORE:
                return f"tl.store({n.attr} + ({self.describe(a[0], depth + 1)}), ...)"
        from workbench.kir.ops import BINARY_SYMBOL

        if n.op in BINARY_SYMBOL:
            return f"({self.describe(a[0], depth + 1)} {BINARY_SYMBOL[n.op]} {self.describe(a[1], depth + 1)})"
        return f"{n.op.name.lower()}({', '.join(self.describe(x, depth + 1) for x in a)})"

    def class_text(self, c: LaneClass) -> str:
        if not c:
            return "launched lanes"
        parts = []
        for key, pol in sorted(c):
            n = self.by_key[key]
            parts.append(("" if pol else "not ") + self.describe(n, 1 if id(n) in self.names else 0))
        return " & ".join(parts)

    def origin(self, n: Node, c: LaneClass, bound: str = "") -> Origin:
        name, line = self.names.get(id(n), ("", 0))
        sub = self.describe(n)
        if name:
            sub = f"{name} = {sub}"
        return Origin(self.key.get(id(n), "-"), sub, line, self.class_text(c), bound, self.class_key(c) or "all")

    def need(self, claim: Poly | None, reason: Reason, n: Node, c: LaneClass, bound: str = "") -> None:
        """Emit ``claim >= 0``. Identity is structural (reason, node, end, lane class); the same obligation
        emitted twice is one condition, two different claims under one key are both kept (never dropped).
        On the empty class (no lane) every obligation holds: nothing is emitted."""
        if c == EMPTY:
            return
        sc = SideCondition(claim, reason, self.origin(n, c, bound))
        self.generated.add((sc.key, claim))
        key, i = sc.key, 1
        while key in self.conditions and self.conditions[key].claim != claim:
            i += 1
            key = f"{sc.key}#{i}"
        self.conditions.setdefault(key, sc)
        self.where.setdefault(key, (n, c))

    def class_key(self, c: LaneClass) -> str:
        return ",".join(f"{k}{'+' if p else '-'}" for k, p in sorted(c))

