"""CUDA frontend, statements: execute a kernel body symbolically for one generic thread (stage: floats).

``if`` on indices forks the path (the condition joins the guard of every access after it); ``if`` on loaded
data is merged into selects; loops with constant bounds are unrolled. A grid-stride loop
(``for (int i = idx; i < n; i += blockDim.x * gridDim.x)``, whose condition depends on the launch and ``n``)
is unrolled ``STRIDE_TRIPS`` times, each trip guarded by its condition; a ``trip`` access records the
condition of the first trip not unrolled, which the safety gate checks never holds for the sizes it claims.
A ``while`` loop is a grid-stride loop when its condition depends on the launch and n (the counter advanced
in the body), else unrolled like a constant ``for``. ``__device__`` helpers are inlined: declarations,
expression statements, ``if``/``else`` (a branch that returns becomes a select of the two return values,
one that does not is merged into selects) and ``return``. Everything else is refused by name: do loops,
goto, break/continue, switch, asm, shared memory.
"""

from __future__ import annotations

import re
from dataclasses import replace

from workbench.floats.cuda.expressions import Expressions, _strip, ty_of
from workbench.floats.cuda.model import FIELDS, TRUE, Ptr, State, Vec
from workbench.floats.ir import Node, Op, Ty, const, walk

MAX_PATHS = 64
MAX_UNROLL = 64
STRIDE_TRIPS = 8


class Statements(Expressions):
    def stmts(self, c, states: list[State]) -> list[State]:
        if not states:
            return states
        method = getattr(self, "s_" + c.kind.name.lower(), None)
        if method is not None:
            return method(c, list(c.get_children()), states)
        if c.kind.is_expression():
            for st in states:
                self.expr(c, st)
            return states
        self.refuse(f"statement kind {c.kind.name}", c, "use declarations, assignments, if and constant-bound for")

    def s_compound_stmt(self, c, kids, states):
        for s in kids:
            states = self.stmts(s, states)
        return states

    def s_null_stmt(self, c, kids, states):
        return states

    def s_decl_stmt(self, c, kids, states):
        for st in states:
            for d in kids:
                self.decl(d, st)
        return states

    def s_return_stmt(self, c, kids, states):
        if kids:
            self.refuse("return with a value", c, "kernels return void")
        return []

    def s_if_stmt(self, c, kids, states):
        out = []
        for st in states:
            out += self.if_stmt(c, kids, st)
        if len(out) > MAX_PATHS:
            self.refuse(f"more than {MAX_PATHS} paths", c, "simplify the branching on thread indices")
        return out

    def s_while_stmt(self, c, kids, states):
        """``while (cond) body``: a grid-stride loop when ``cond`` depends on the launch and n (the counter is
        advanced inside ``body``: ``while (i < n) { ...; i += blockDim.x * gridDim.x; }``), else unrolled
        like a constant-bound ``for`` (at most ``MAX_UNROLL`` trips)."""
        cond_c, body = kids
        out = []
        for st in states:
            probe = State(st.guard, dict(st.env), [])  # the condition's first value, without side effects on st
            if self.convert(self.expr(cond_c, probe), Ty.BOOL, cond_c).op is not Op.CONST:
                out += self.stride_loop(c, cond_c, None, body, st)
                continue
            cur = [st]
            for trip in range(MAX_UNROLL + 1):
                live = []
                for s in cur:
                    cond = self.convert(self.expr(cond_c, s), Ty.BOOL, cond_c)
                    if cond.op is not Op.CONST:
                        self.refuse("while loop whose bound changes between trips", c,
                                    "bound it by n and the launch (grid-stride) or by a constant")
                    (live if cond.value else out).append(s)
                if not live:
                    break
                if trip == MAX_UNROLL:
                    self.refuse(f"while loop with more than {MAX_UNROLL} iterations", c,
                                "use a smaller constant trip count")
                cur = self.stmts(body, live)
        return out

    def s_do_stmt(self, c, kids, states):
        self.refuse("do-while loop", c, "use a for or while loop (grid-stride or constant trip count)")

    def s_goto_stmt(self, c, kids, states):
        self.refuse("goto", c, "use structured if/for")

    s_label_stmt = s_indirect_goto_stmt = s_goto_stmt

    def s_break_stmt(self, c, kids, states):
        self.refuse("break/continue", c, "use a guard inside the loop body")

    s_continue_stmt = s_break_stmt

    def s_switch_stmt(self, c, kids, states):
        self.refuse("switch", c, "use if/else")

    def s_asm_stmt(self, c, kids, states):
        self.refuse("inline asm", c, "write the operation in C")

    s_gcc_asm_stmt = s_asm_stmt

    def decl(self, d, st: State) -> None:
        if d.kind.name != "VAR_DECL":
            self.refuse(f"declaration {d.kind.name}", d, "declare scalar, float4 or pointer locals")
        toks = [t.spelling for t in d.get_tokens()]
        if "__shared__" in toks or any("SHARED" in ch.kind.name for ch in d.get_children()):
            self.refuse("shared memory", d, "elementwise kernels need no shared memory")
        ty = ty_of(d.type.get_canonical().spelling)
        if ty is None or "[" in d.type.get_canonical().spelling:
            self.refuse(f"local of type `{d.type.get_canonical().spelling}`", d, "use float, double, integer, bool, float4 or pointers")
        inits = [x for x in d.get_children() if x.kind.name != "TYPE_REF"]
        if not inits:
            undef = Node(Op.OPAQUE, ty if isinstance(ty, Ty) else Ty.F32, name="uninitialized")
            st.env[d.spelling] = Vec((undef,) * (4 if ty == "float4" else 2)) if ty in ("float4", "float2") else undef
            return
        v = self.expr(inits[-1], st)
        if isinstance(ty, Ty):
            v = self.convert(v, ty, d)
        elif ty == "ptr" and isinstance(v, Ptr):
            m = re.search(r"float([24])?\s*\*", d.type.get_canonical().spelling)
            v = replace(v, width=int(m.group(1) or 1) if m else v.width, const="const" in d.type.get_canonical().spelling)
        st.env[d.spelling] = v

    def data_dependent(self, n: Node) -> bool:
        return any(x.op in (Op.LOAD, Op.OPAQUE) or x.ty.is_float for x in walk(n))

    def conj(self, g: Node, c: Node) -> Node:
        return c if g is TRUE else Node(Op.AND, Ty.BOOL, (g, c))

    def if_stmt(self, c, kids, st: State) -> list[State]:
        cond = self.convert(self.expr(kids[0], st), Ty.BOOL, c)
        then_c, else_c = kids[1], kids[2] if len(kids) > 2 else None
        if not self.data_dependent(cond):
            if cond.op is Op.CONST:
                branch = then_c if cond.value else else_c
                return self.stmts(branch, [st]) if branch is not None else [st]
            t = State(self.conj(st.guard, cond), dict(st.env), list(st.accesses))
            e = State(self.conj(st.guard, Node(Op.NOT, Ty.BOOL, (cond,))), dict(st.env), list(st.accesses))
            return self.stmts(then_c, [t]) + (self.stmts(else_c, [e]) if else_c is not None else [e])
        # Branch on data: both sides run as one path and are merged into selects.
        t = State(st.guard, dict(st.env), [])
        e = State(st.guard, dict(st.env), [])
        ts = self.stmts(then_c, [t])
        es = self.stmts(else_c, [e]) if else_c is not None else [e]
        if len(ts) != 1 or len(es) != 1:
            self.refuse("return or index branch inside an `if` on loaded data", c,
                        "compute the value with a ternary and store it once")
        t, e = ts[0], es[0]
        for name in st.env:
            a, b = t.env.get(name), e.env.get(name)
            if a is b or a == b:
                st.env[name] = a
            elif isinstance(a, Node) and isinstance(b, Node):
                st.env[name] = Node(Op.SELECT, a.ty, (cond, a, b))
            elif isinstance(a, Vec) and isinstance(b, Vec):
                st.env[name] = Vec(tuple(x if x == y else Node(Op.SELECT, x.ty, (cond, x, y))
                                         for x, y in zip(a.parts, b.parts)))
            else:
                self.refuse(f"pointer `{name}` changed under an `if` on loaded data", c, "keep pointers fixed")
        ts_ = [a for a in t.accesses if a.kind == "store"]
        es_ = [a for a in e.accesses if a.kind == "store"]
        if [(a.array, a.index) for a in ts_] != [(a.array, a.index) for a in es_]:
            self.refuse("store on only one side of an `if` on loaded data", c,
                        "write the element on both sides (or use a ternary): otherwise it keeps unspecified memory")
        st.accesses += [a for a in t.accesses + e.accesses if a.kind == "load"]
        for a, b in zip(ts_, es_):
            st.accesses.append(replace(a, value=Node(Op.SELECT, Ty.F32, (cond, a.value, b.value))))
        return [st]

    def s_for_stmt(self, c, kids, states: list[State]) -> list[State]:
        if len(kids) != 4:
            self.refuse("for loop without init, condition and increment", c, "write for (int k = 0; k < K; ++k)")
        init, cond_c, inc, body = kids
        out = []
        for st in states:
            cur = self.stmts(init, [st])
            for trip in range(MAX_UNROLL + 1):
                live = []
                for s in cur:
                    cond = self.convert(self.expr(cond_c, s), Ty.BOOL, cond_c)
                    if cond.op is not Op.CONST:
                        if trip == 0 and len(cur) == 1:
                            return out + self.stride_loop(c, cond_c, inc, body, s)
                        self.refuse("loop whose bound changes between trips", c, "use a constant trip count")
                    (live if cond.value else out).append(s)
                if not live:
                    break
                if trip == MAX_UNROLL:
                    self.refuse(f"loop with more than {MAX_UNROLL} iterations", c, "use a smaller constant trip count")
                cur = self.stmts(body, live)
                for s in cur:
                    self.expr(inc, s)
        return out

    def stride_loop(self, c, cond_c, inc, body, st: State) -> list[State]:
        """A loop whose condition depends on thread indices and n: every trip k runs under the guard
        ``cond_0 && ... && cond_k``; locals of the body stay inside it; after ``STRIDE_TRIPS`` trips the next
        condition becomes a ``trip`` obligation for the gate."""
        outer = dict(st.env)
        guard = st.guard
        for _trip in range(STRIDE_TRIPS):
            cond = self.convert(self.expr(cond_c, st), Ty.BOOL, cond_c)
            if self.data_dependent(cond):
                self.refuse("loop whose condition reads data", c, "bound loops by n and the launch only")
            if cond.op is Op.CONST and not cond.value:
                break
            guard = self.conj(guard, cond)
            inner = State(guard, dict(st.env), st.accesses)
            after = self.stmts(body, [inner])
            if len(after) != 1:
                self.refuse("return or index branch inside a grid-stride loop", c, "guard the body with an if")
            if inc is not None:  # a ``while`` loop advances its counter inside the body
                self.expr(inc, after[0])
            changed = [k for k in outer if k in after[0].env and after[0].env[k] is not st.env.get(k)
                       and after[0].env[k] != st.env.get(k)]
            counters = [k for k in changed if isinstance(outer[k], Node) and outer[k].ty.is_int]
            others = [k for k in changed if k not in counters]
            if others:
                self.refuse(f"variable `{others[0]}` assigned inside a grid-stride loop", c,
                            "declare per-element values inside the loop body")
            st = State(st.guard, {k: after[0].env[k] for k in outer}, st.accesses)
        else:
            cond = self.convert(self.expr(cond_c, st), Ty.BOOL, cond_c)
            st.accesses.append(self.access("trip", "", const(0, Ty.I64), State(self.conj(guard, cond), {}, []), c))
        return [st]

    def assign(self, target, value, st: State):
        t = _strip(target)
        kids = list(t.get_children())
        kind = t.kind.name
        if kind == "DECL_REF_EXPR":
            name = t.spelling
            if name not in st.env:
                self.refuse(f"assignment to `{name}`", t, "assign only local variables and output elements")
            old = st.env[name]
            if isinstance(old, Ptr):
                self.refuse(f"pointer reassignment `{name}`", t, "index the parameter instead of moving it")
            ty = old.ty if isinstance(old, Node) else None
            st.env[name] = self.convert(value, ty, t) if ty else value
            return st.env[name]
        if kind == "MEMBER_REF_EXPR" and kids:
            vname = _strip(kids[0])
            vec = st.env.get(vname.spelling) if vname.kind.name == "DECL_REF_EXPR" else None
            if isinstance(vec, Vec) and t.spelling in FIELDS:
                parts = list(vec.parts)
                parts[FIELDS[t.spelling]] = self.convert(value, Ty.F32, t)
                st.env[vname.spelling] = Vec(tuple(parts))
                return value
            self.refuse(f"assignment to member `.{t.spelling}`", t, "assign fields of a local float4/float2")
        if kind == "ARRAY_SUBSCRIPT_EXPR" or (kind == "UNARY_OPERATOR" and self.unop(t) == "*"):
            ptr = self.expr(kids[0], st)
            idx = self.expr(kids[1], st) if kind == "ARRAY_SUBSCRIPT_EXPR" else const(0, Ty.I64)
            if not isinstance(ptr, Ptr):
                self.refuse("store through a non-pointer", t, "store to a pointer parameter")
            if ptr.const:
                self.refuse(f"store to const array `{ptr.array}`", t, "store to the output parameter")
            base = self.element_offset(ptr, idx, t)
            parts = value.parts if isinstance(value, Vec) else (value,)
            if len(parts) != ptr.width:
                self.refuse("store of a value whose width differs from the pointer's", t, "store float4 through float4*")
            for k, v in enumerate(parts):
                ix = self.fold(Node(Op.ADD, Ty.I64, (base, const(k, Ty.I64)))) if k else base
                st.accesses.append(self.access("store", ptr.array, ix, st, t, value=self.convert(v, ptr.elem, t),
                                               align=base if ptr.width > 1 else None, width=ptr.width))
            return value
        self.refuse(f"assignment target {kind}", t, "assign locals, float4 fields or array elements")

    def inline(self, name: str, vals: list, c, st: State):
        """A ``__device__`` helper: declarations, expression statements, ``if``/``else`` and ``return``
        (``helper_block``); every path must end in a return."""
        if name in self.inlining:
            self.refuse(f"recursive call to `{name}`", c, "device helpers may not recurse")
        fn = self.device_fns[name]
        params = [p for p in fn.get_children() if p.kind.name == "PARM_DECL"]
        body = [b for b in fn.get_children() if b.kind.name == "COMPOUND_STMT"][0]
        env = {}
        for prm, v in zip(params, vals):
            ty = ty_of(prm.type.get_canonical().spelling)
            env[prm.spelling] = self.convert(v, ty, c) if isinstance(ty, Ty) else v
        local = State(st.guard, env, st.accesses)
        self.inlining.append(name)
        try:
            v = self.helper_block(list(body.get_children()), local, name, fn)
            if v is None:
                self.refuse(f"__device__ function `{name}` without a final return", fn, "end it with `return expr;`")
            return v
        finally:
            self.inlining.pop()

    def helper_block(self, stmts: list, local: State, name: str, fn):
        """The value a helper returns from ``stmts`` (None: the statements fall through without a return).
        ``if (c) A else B``: when either branch returns, the statements after the ``if`` complete the other
        one, and the value is ``c ? value_A : value_B`` (both sides are pure float/integer expressions: the
        frontend records loads where they are written, so nothing is executed that the code would skip but
        a load, which the gate then checks under the caller's guard); when neither returns, the locals they
        assign are merged into selects, as for an ``if`` on loaded data in a kernel."""
        ty = ty_of(fn.result_type.get_canonical().spelling)
        for k, s_ in enumerate(stmts):
            kind = s_.kind.name
            if kind == "DECL_STMT":
                for d in s_.get_children():
                    self.decl(d, local)
            elif kind == "RETURN_STMT":
                ret = list(s_.get_children())
                if not ret:
                    self.refuse(f"`return;` without a value in __device__ function `{name}`", s_, "return a value")
                v = self.expr(ret[0], local)
                return self.convert(v, ty, s_) if isinstance(ty, Ty) else v
            elif kind == "COMPOUND_STMT":
                v = self.helper_block(list(s_.get_children()), local, name, fn)
                if v is not None:
                    return v
            elif kind == "IF_STMT":
                kids = list(s_.get_children())
                if len(kids) not in (2, 3) or kids[0].kind.name in ("DECL_STMT", "VAR_DECL"):
                    self.refuse(f"`if` with an init statement in __device__ function `{name}`", s_, "declare before the if")
                cond = self.convert(self.expr(kids[0], local), Ty.BOOL, s_)
                rest = stmts[k + 1:]
                if cond.op is Op.CONST:
                    branch = kids[1] if cond.value else (kids[2] if len(kids) > 2 else None)
                    return self.helper_block(([branch] if branch is not None else []) + rest, local, name, fn)
                t = State(local.guard, dict(local.env), local.accesses)
                e = State(local.guard, dict(local.env), local.accesses)
                vt = self.helper_block([kids[1]], t, name, fn)
                ve = self.helper_block([kids[2]], e, name, fn) if len(kids) > 2 else None
                if vt is None and ve is None:
                    self.merge_locals(cond, t, e, local, s_)
                    continue
                vt = vt if vt is not None else self.helper_block(rest, t, name, fn)
                ve = ve if ve is not None else self.helper_block(rest, e, name, fn)
                if vt is None or ve is None:
                    self.refuse(f"a path through __device__ function `{name}` without a return", s_,
                                "end every path with `return expr;`")
                if not (isinstance(vt, Node) and isinstance(ve, Node)):
                    self.refuse(f"__device__ function `{name}` returning a vector from an `if`", s_,
                                "return a float or an integer")
                return self.fold(Node(Op.SELECT, vt.ty, (cond, vt, ve)))
            elif s_.kind.is_expression():
                self.expr(s_, local)
            elif kind == "NULL_STMT":
                continue
            else:
                self.refuse(f"statement {kind.lower()} in __device__ function `{name}`", s_,
                            "write the helper with declarations, assignments, if/else and return")
        return None

    def merge_locals(self, cond: Node, t: State, e: State, into: State, c) -> None:
        for var in into.env:
            a, b = t.env.get(var), e.env.get(var)
            if a is b or a == b:
                into.env[var] = a
            elif isinstance(a, Node) and isinstance(b, Node):
                into.env[var] = Node(Op.SELECT, a.ty, (cond, a, b))
            elif isinstance(a, Vec) and isinstance(b, Vec):
                into.env[var] = Vec(tuple(x if x == y else Node(Op.SELECT, x.ty, (cond, x, y))
                                          for x, y in zip(a.parts, b.parts)))
            else:
                self.refuse(f"pointer `{var}` changed under an `if`", c, "keep pointers fixed")
