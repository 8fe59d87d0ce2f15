"""Launch indices of the trusted checker: the *exact* forms Inductor writes, which alone get the launch
bound ``[0, 2**31-1]`` and the range masks (issue 11: ``2 * xindex`` or ``xindex + 1000`` are ordinary
int32 terms, bounded by interval arithmetic like any other).

Stage: check (trusted). A mixin of :class:`~workbench.check.trusted.analysis.Analysis`.
"""

from __future__ import annotations

from workbench import kir
from workbench.check.errors import OutOfClassError
from workbench.check.poly import Poly
from workbench.check.sidecond import Reason
from workbench.kir import Node, Op


# torch/_inductor/runtime/hints.py (torch 2.13.0): TRITON_MAX_BLOCK["X"] = 4096. Inductor's launcher never
# launches a pointwise kernel with a larger XBLOCK, and its code generator writes ``xmask = tl.full(..., True)``
# (no range mask) exactly when it knows xnumel is a multiple of it (simd.py, ``_has_constant_mask``).
X_BLOCK_MAX = 4096
# TRITON_MAX_BLOCK["Y"] = 1024 (the same file): the launcher's check_max_block asserts YBLOCK <= it, and the code
# generator drops ``yindex < ynumel`` (``ymask = tl.full(..., True)``) when ynumel is a multiple of it.
Y_BLOCK_MAX = 1024


def _multiple_of(v: Poly, m: int) -> bool:
    """``v`` (a polynomial in the shape symbols, which are integers) is a nonzero multiple of ``m`` for every
    shape: every coefficient an integer multiple of ``m``."""
    return bool(v.terms) and all(c.denominator == 1 and c.numerator % m == 0 for c in v.terms.values())


class LaunchRules:
    """Recognise ``xindex``/``yindex`` and the range masks ``xindex < xnumel``, ``yindex < ynumel``."""

    def is_uniform(self, n: Node) -> bool:
        """Lane-invariant and data-free: built from constants and scalar arguments only."""
        got = self._uniform.get(id(n))
        if got is None:
            if n.op in (Op.CONST, Op.ARG):
                got = True
            elif n.args and n.op not in (Op.LOAD, Op.PAYLOAD, Op.UNDEF, Op.FCONST):
                got = all(self.is_uniform(a) for a in n.args)
            else:
                got = False
            self._uniform[id(n)] = got
        return got

    def launch_axis(self, n: Node) -> str | None:
        """The axis (``x``/``y``) when ``n`` is *exactly* a launch index as Inductor writes it, else None:

        * ``xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)``;
        * ``yindex = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK + tl.arange(0, YBLOCK)``
          (``Grid2DWithYZOverflow``), or ``tl.program_id(1) * YBLOCK + tl.arange(0, YBLOCK)`` (``Grid2D``)

        (operands of ``+``/``*`` in either order; names are aliases of the same node). Only these get the
        launch bound: ``2 * xindex`` or ``xindex + 1000`` are ordinary int32 terms, bounded by interval
        arithmetic in their type like any other."""
        got = self._launch.get(id(n))
        if got is None:
            got = self._launch[id(n)] = self._launch_axis(n)
        return got or None

    def _launch_axis(self, n: Node) -> str:
        if n.op is not Op.ADD:
            return ""
        for off, ar in (n.args, n.args[::-1]):
            if ar.op is Op.ARANGE and ar.attr[0] == 0:
                axis = self.offset_axis(off, ar.attr[1])
                if axis:
                    return axis
        return ""

    def offset_axis(self, n: Node, block: str) -> str:
        """``tl.program_id(0) * XBLOCK`` -> ``x``; ``(pid(1) + pid(2) * num_programs(1)) * YBLOCK`` -> ``y``."""
        if n.op is not Op.MUL:
            return ""
        for pid, blk in (n.args, n.args[::-1]):
            if blk.op is not Op.CONSTEXPR or blk.attr != block:
                continue
            if block == "XBLOCK" and pid.op is Op.PROGRAM_ID and pid.attr == 0:
                return "x"
            if block == "YBLOCK" and (self._y_block_id(pid) or (
                    pid.op is Op.PROGRAM_ID and pid.attr == 1 and self.p.grid_type == "Grid2D")):
                return "y"  # Grid2D: the y block id is program_id(1) itself (no z overflow)
        return ""

    def check_literal_numels(self) -> None:
        """A literal extent in the body (``xnumel = 1024``) is the range masks' bound and the evaluator's
        launch extent, but the launcher sizes the grid from the record's numel: the two must be the same
        number, or the lanes past the literal are launched and unmasked (red team red5: ``xnumel = 1024`` over
        a record numel of ``3*s27`` put lanes past ``2**31`` under the launch bound). Inductor writes a
        literal only for a static extent, and its record says the same literal."""
        for b in self.k.bindings:
            if b.name not in ("xnumel", "ynumel") or b.node.op is not Op.CONST:
                continue
            literal = b.node.attr[0]
            try:
                value = self.p.size_value(b.name)
            except KeyError:
                raise OutOfClassError(f"{self.k.name}, line {b.line}: the body fixes {b.name} = {literal} but "
                                      f"the record gives no {b.name} for the launch; recapture the kernel") from None
            if not (value.is_const() and value.const_value() == literal):
                raise OutOfClassError(
                    f"{self.k.name}, line {b.line}: the body fixes {b.name} = {literal} but the launcher sizes the "
                    f"grid from the record's {b.name} = {value}; the masks and the launch would disagree, so the "
                    "kernel is outside what the checker models (recapture it)")

    def check_launch(self) -> None:
        """LAUNCH_BOUND: ``Grid2DWithYZOverflow`` launches ``y_grid * z_grid`` y blocks with ``z_grid =
        cdiv(cdiv(ynumel, YBLOCK), 65535)`` and ``y_grid = cdiv(cdiv(ynumel, YBLOCK), z_grid)``, up to
        ``z_grid - 1`` more than ``cdiv(ynumel, YBLOCK)`` (``torch/_inductor/runtime/triton_heuristics.py``).
        Their lanes' ``yindex`` passes ``ynumel``, and near ``2**31`` it wraps negative in int32, where
        ``yindex < ynumel`` holds (red team red4-yz-overflow-extra-y-blocks). The launch bound ``yindex <=
        2**31 - 1`` holds when ``ynumel <= 2**31 - 2**22``: the last y lane is below ``(cdiv(ynumel, B) +
        z_grid) * B <= ynumel + ynumel/65535 + 2*B + 1 < 2**31`` for any block ``B <= 2**20`` (Triton's
        largest tensor). ``Grid1D`` and ``Grid2D`` launch exactly ``cdiv(numel, BLOCK)`` blocks per axis."""
        if self.p.grid_type != "Grid2DWithYZOverflow" or not any(self.launch_axis(n) == "y" for n in self.nodes):
            return
        name = "ynumel"  # the record's: the launcher sizes the grid from it (a body literal equals it)
        origin = kir.node(Op.ARG, kir.IntType(32), (), name)
        value = self.p.size_value(name)
        self.key.setdefault(id(origin), f"arg:{name}")
        imax = 2 ** (self.w.int32 - 1) - 1
        self.need(Poly.const(imax - (imax >> 9)) - value, Reason.LAUNCH_BOUND, origin, frozenset(), "upper")

    @staticmethod
    def _y_block_id(n: Node) -> bool:
        if n.op is not Op.ADD:
            return False
        for p1, rest in (n.args, n.args[::-1]):
            if p1.op is Op.PROGRAM_ID and p1.attr == 1 and rest.op is Op.MUL:
                for p2, np1 in (rest.args, rest.args[::-1]):
                    if p2.op is Op.PROGRAM_ID and p2.attr == 2 and np1.op is Op.NUM_PROGRAMS and np1.attr == 1:
                        return True
        return False

    def no_x_tail(self) -> bool:
        """A 1-D pointwise kernel without an x range mask whose ``xnumel`` is, in the shape symbols, a multiple
        of :data:`X_BLOCK_MAX` (every coefficient an integer multiple of it): then it launches no tail lane.
        Premise (stated in the verdict, :func:`launch_premise`): the launch's XBLOCK is at most
        ``X_BLOCK_MAX``. XBLOCK sizes ``tl.arange``, so it is a power of two (Triton's rule), hence divides
        ``X_BLOCK_MAX`` and so ``xnumel``: the grid ``cdiv(xnumel, XBLOCK)`` covers exactly the lanes
        ``[0, xnumel)``, every launched lane is active, and the missing range mask hides no lane."""
        if self.p.grid_type != "Grid1D" or self.k.reduction is not None or self.range_atoms:
            return False
        if any(axis != "x" for _, axis in self.k.blocks):
            return False
        p = self.params.get("xnumel")
        if p is None or p.kind != "numel":
            return False
        try:
            v = self.p.size_value("xnumel")
        except KeyError:  # no fact for it: nothing to show the multiple from
            return False
        return _multiple_of(v, X_BLOCK_MAX)

    def no_y_tail(self) -> Poly | None:
        """``ynumel`` when a ``Grid2D`` pointwise kernel has no y range atom and ``ynumel`` (the body's literal,
        or the parameter's value in the shape symbols) is a multiple of :data:`Y_BLOCK_MAX` (every
        coefficient): then every launched y lane is below it, and ``yindex`` is bounded by ``ynumel - 1``.
        Premise (stated in the verdict): YBLOCK <= ``Y_BLOCK_MAX``; YBLOCK sizes ``tl.arange``, so it is a
        power of two and divides ynumel, and ``Grid2D`` launches ``cdiv(ynumel, YBLOCK)`` blocks on y
        (``Grid2D.generate`` in torch/_inductor/runtime/triton_heuristics.py). Not for
        ``Grid2DWithYZOverflow``, whose split of the y blocks over two grid axes may launch more blocks than
        ``cdiv(ynumel, YBLOCK)``. None otherwise."""
        if self.p.grid_type != "Grid2D" or self.k.reduction is not None:
            return None
        if any(self.launch_axis(a.args[0]) == "y" for a in self.range_atoms):
            return None
        literal = {b.name: b.node for b in self.k.bindings if b.name == "ynumel"}
        if "ynumel" in literal:
            node = literal["ynumel"]
            if node.op is not Op.CONST:
                return None
            v = Poly.const(node.attr[0])
        else:
            p = self.params.get("ynumel")
            if p is None or p.kind != "numel":
                return None
            try:
                v = self.p.size_value("ynumel")
            except KeyError:
                return None
        return v if _multiple_of(v, Y_BLOCK_MAX) else None

    def _find_range_atoms(self) -> tuple[Node, ...]:
        """``xindex < xnumel`` (and ``yindex < ynumel``): an exact launch index of an axis compared with that
        axis's element-count parameter."""
        atoms = []
        literal = {b.name: b.node for b in self.k.bindings if b.name in ("xnumel", "ynumel")}
        for n in self.nodes:
            if n.op is not Op.LT:
                continue
            axis = self.launch_axis(n.args[0])
            if n.args[1].op is Op.CONST:
                # ``xnumel = 192`` (a literal element count, Builder.assigned): the same int32 constant in W
                # and N, and the launch's own extent (evaluator.launch reads the same binding)
                if axis and literal.get(f"{axis}numel") is n.args[1]:
                    atoms.append(n)
                continue
            if n.args[1].op is not Op.ARG:
                continue
            p = self.params.get(n.args[1].attr)
            if axis and p is not None and p.kind == "numel" and p.name.startswith(axis):
                atoms.append(n)
        return tuple(atoms)

