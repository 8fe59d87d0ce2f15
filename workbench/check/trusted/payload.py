"""Integer payload whose type changes with narrowing: the one law the agreement rules cannot see.

Stage: check (trusted). A payload node (computed from loaded data) is opaque to the interval analysis: its
children are required to agree, and then it computes "the same function of the same values". That is only
true when it is computed *in the same type* in both kernels. Mixing a narrowed size argument into integer
payload (``tmp0 + ks0`` with int32 data) changes the type: int64 in W, int32 in N, so the two values differ
as soon as the exact sum leaves int32. Such a node is accepted only by the *low-bits* law:

* add, sub, mul, neg, bitwise and/or/xor, integer-to-integer casts and ``where`` compute the low ``k`` bits
  of their result from the low ``k`` bits of their operands (two's complement arithmetic is arithmetic mod
  ``2**k``; truncation and sign/zero extension keep the low bits of a value at least ``k`` bits wide);
* so if *every* use of a retyped payload node leads, through such operations only, into the *value* of
  stores whose integer element type has ``k`` bits, and the node is at least ``k`` bits wide in both kernels,
  the stored bits are equal in W and N.

Anything else (a comparison, a division, a float conversion, a mask, a wider store) on a retyped payload is
the side condition PAYLOAD_TYPE with no claim: the kernel is refused and the report names the node.

Multi-output operations (a row reduction or scan, ``max_with_index`` and the other tuple helpers: attr
``(function, ..., output)``) compute each output in the type of the operand it comes from, never in a
promotion of all operands (an argmax's int32 index beside its fp32 value): such a node is retyped exactly
when one of its operands is (its type in W differs from N), whatever their kinds.
"""

from __future__ import annotations

import ast

from workbench import kir
from workbench.check.sidecond import Reason
from workbench.kir import Node, Op
from workbench.kir.ops import ROW

# payload operations (``Builder.binary``/``neg``/``cast`` name them) that keep the low-bits law
LOW_BITS_PAYLOAD = frozenset({"add", "sub", "mul", "neg", "and", "or", "xor", "to"})
# payload operations whose result is a function of their operands' *values* (not of the type they are
# computed in): a conversion, and a comparison (exact in any type holding both values)
EXACT_OF_VALUES = frozenset({"to", "lt", "le", "gt", "ge", "eq", "ne"})


def _int_bits(n: Node) -> int | None:
    return n.type.bits if isinstance(n.type, kir.IntType) else None


def _multi_output(n: Node) -> bool:
    """A row reduction or scan, or an output of an elementwise tuple helper (``attr = (function, ..., k)``)."""
    return n.op in ROW or (n.op is Op.PAYLOAD and isinstance(n.attr, tuple))


# the arithmetic a combine helper may use and still keep the low-bits law (two's complement mod 2**k)
_LOW_BITS_AST = (ast.Add, ast.Sub, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor, ast.USub)


def _low_bits_combine(text: str) -> bool:
    """Whether a scan's combine body (kir's canonical text ``"(a, b): t = a + b; t"``) computes only with
    low-bits operations: ``+ - * & | ^``, unary minus, its parameters and locals, integer literals. Anything
    else (a comparison, ``tl.where``, a division, a call, a float literal) makes its result depend on more
    than its operands' low bits."""
    head, _, body = text.partition("): ")
    try:
        stmts = [ast.parse(part.strip(), mode="exec").body[0] for part in body.split("; ")]
    except (SyntaxError, IndexError):
        return False
    for st in stmts:
        for x in ast.walk(st):
            if isinstance(x, (ast.Assign, ast.Expr, ast.Name, ast.Load, ast.Store, ast.BinOp, ast.UnaryOp,
                              ast.Tuple, ast.Return) + _LOW_BITS_AST):
                continue
            if isinstance(x, ast.Constant) and isinstance(x.value, int) and not isinstance(x.value, bool):
                continue
            return False
    return bool(head) and bool(stmts)


def _root_keeps_low_bits(n: Node) -> bool:
    """A node retyped by its own computation type keeps the low-bits law when its operation does: the payload
    operations of :data:`LOW_BITS_PAYLOAD`, ``where``, a row sum, a scan whose combine is low-bits arithmetic.
    Every other row operation or tuple helper (max/min/argmax, welford, online softmax, select_one) and every
    other payload operation (a division, a float function) does not."""
    if n.op is Op.WHERE:
        return True
    if n.op is Op.REDUCE:
        return isinstance(n.attr, tuple) and n.attr[0] == "tl.sum"
    if n.op is Op.SCAN:
        return isinstance(n.attr, tuple) and len(n.attr) == 3 and _low_bits_combine(str(n.attr[1]))
    if n.op is Op.PAYLOAD and n.attr == "to" and _int_bits(n) == 1:
        return False  # `x != 0`
    return n.op is Op.PAYLOAD and not isinstance(n.attr, tuple) and n.attr in LOW_BITS_PAYLOAD


class PayloadRules:
    """Mixin of the trusted analysis: retyped integer payload (see the module docstring)."""

    def retyped_payload(self) -> set[int]:
        """Payload nodes whose computation type may change with narrowing: the instantiated type differs, or
        an operand's does (kir re-instantiates payload with its recorded type, so ``tmp0 + ks0`` keeps the
        int64 of W although Triton computes it in int32 in N), or an operand is itself such a node. A float
        node, a conversion, a comparison or a select of agreeing operands is never retyped: they depend on the
        operands' values only, not on the width they are computed in."""
        out: set[int] = set()
        for n in self.nodes:  # children first
            if not n.payload or n.op in (Op.STORE, Op.LOAD, Op.UNDEF, Op.FCONST):
                continue  # a load's value has its pointer's element type whatever its offset's type
            if any(id(a) in out for a in n.args):
                out.add(id(n))
            elif _multi_output(n):
                # a row operation or tuple helper computes internally in its operands' types (a running sum, a
                # welford weight): whatever the kind of *this* output, float included, it is retyped when any
                # operand's type changes (red team red3: float outputs of integer-weighted welford, of a scan
                # whose combine adds integers)
                if self._family_type(n) is None or self.W[id(n)].type != self.N[id(n)].type:
                    out.add(id(n))
            elif _int_bits(n) is None or n.op is Op.WHERE or n.attr in EXACT_OF_VALUES:
                # float math, an int converted, compared or selected: the same values give the same result
                continue
            elif self.W[id(n)].type != self.N[id(n)].type or self._narrowed_type(n) != self.W[id(n)].type:
                # (W's type, not the recorded one: at the small model's widths W is re-typed too)
                out.add(id(n))
        return out

    def _narrowed_type(self, n: Node) -> kir.Type | None:
        """The type Triton computes integer payload ``n`` in, in N: C's usual conversions of its operands'
        N types, an operand converted by a payload ``.to`` counted at its source type (kir does not mark
        which conversions were implicit, so an explicit one is treated as implicit: never narrower than
        Triton's choice, only more refusals); a weak literal takes the other operand's type. ``None`` (retyped) for anything else whose operands retype.
        A row operation's (reduction, scan) or a tuple helper's output (``attr = (function, k)``) is typed by :meth:`_family_type`."""
        if n.op in ROW or isinstance(n.attr, tuple):
            return self._family_type(n)
        types = []
        for a in n.args:
            if kir.build.is_weak(a) and a.op is not Op.FCONST:
                continue  # a Python int (or constexpr) next to typed payload takes its type (rule 0)
            # look through int -> int conversions only: a float -> int one is never implicit (Triton promotes
            # an int next to a float to the float, computation_type_impl), so it is explicit and its type fixed
            src = a.args[0] if (a.op is Op.PAYLOAD and a.attr == "to" and len(a.args) == 1
                                and isinstance(self.N[id(a.args[0])].type, kir.IntType)) else a
            t = self.N[id(src)].type
            if not isinstance(t, kir.IntType):
                return None
            types.append(t)
        if len(types) == 1 and (n.attr == "neg" or len(n.args) == 2):
            return types[0]
        if n.attr in ("add", "sub", "mul", "and", "or", "floordiv", "mod") and len(types) == 2:
            return kir.types.integer_promote(*types)
        return self.W[id(n)].type if all(self.W[id(a)].type == self.N[id(a)].type for a in n.args) else None

    def _family_type(self, n: Node) -> kir.Type | None:
        """Output ``k`` of a reduction (``tl.sum``, ``max_with_index``, ...) or of an elementwise tuple helper
        (``maximum_with_index``, ``welford_combine``). Triton computes it in a type that is a function of its
        operands' types only (``max_with_index``'s index output has its index operand's type,
        ``maximum_with_index``'s the promotion of both index operands', ``tl.sum``'s ``_pick_sum_dtype`` of
        its operand's, ``tl.argmax``'s int32), so when *every* operand has the same type in W and N (a float
        value next to an index included: floats never change type with narrowing) the output is computed in
        W's type in N too; otherwise ``None`` (retyped). No single operand is trusted to decide the type:
        kir types ``maximum_with_index``'s index output by its first index operand alone."""
        same = all(self.W[id(a)].type == self.N[id(a)].type for a in n.args)
        return self.W[id(n)].type if same else None

    def _keeps_low_bits(self, n: Node) -> bool:
        if n.op is Op.WHERE:
            return _int_bits(n) is not None
        if n.op is not Op.PAYLOAD or n.attr not in LOW_BITS_PAYLOAD:
            return False
        if n.attr == "to" and _int_bits(n) == 1:
            return False  # Triton casts to int1 as `x != 0`: every bit of x decides it (red4)
        return _int_bits(n) is not None and all(_int_bits(a) is not None for a in n.args)

    def check_payload_types(self) -> None:
        """Emit PAYLOAD_TYPE for every retyped payload node whose uses do not all keep the low-bits law."""
        users: dict[int, list[tuple[Node | None, int]]] = {}
        for n in self.nodes:
            for i, a in enumerate(n.args):
                users.setdefault(id(a), []).append((n, i))
        for c in self.k.carries:  # an accumulator's update feeds every later step, and its init the first step
            users.setdefault(id(c.update), []).append((None, -1))  # and the accumulator's type: all bits used
            users.setdefault(id(c.init), []).append((None, -1))  # (red4: an init of data times ks0)
        memo: dict[int, int | None] = {}

        def width_needed(n: Node) -> int | None:
            """The widest store element the low bits of ``n`` reach (None: some use needs all of ``n``)."""
            if id(n) in memo:
                return memo[id(n)]
            memo[id(n)] = None  # cycle guard (the IR is a DAG)
            need = 0
            for u, i in users.get(id(n), []):
                if u is None:
                    got = None
                elif u.op is Op.STORE and i == 1 and _int_bits(u) is not None:
                    got = _int_bits(u)
                elif self._keeps_low_bits(u) and not (u.op is Op.WHERE and i == 0):
                    got = width_needed(u)
                else:
                    got = None
                if got is None:
                    need = None
                    break
                need = max(need, got)
            memo[id(n)] = need
            return need

        retyped = self.retyped_payload()
        for n in self.nodes:
            if id(n) not in retyped:
                continue
            if not any(id(a) in retyped for a in n.args) and not _root_keeps_low_bits(n):
                # retyped by its own computation type (no retyped operand): the law needs *its* low bits to be
                # a function of its operands' low bits (red3: a scan clamping a running sum at 0 is not)
                self.need(None, Reason.PAYLOAD_TYPE, n, self.active)
                continue
            k = width_needed(n)
            # the narrowed kernel computes it at least as wide as a narrowed size argument (integer promotion)
            narrowest = min(_int_bits(self.W[id(n)]) or 0, _int_bits(self.N[id(n)]) or 0, self.w.int32)
            if k is None or k > narrowest:
                self.need(None, Reason.PAYLOAD_TYPE, n, self.active)
