"""Block level, the interpreter: a lowered answer run exactly, thread by thread, block by block (stage: floats).

``Machine.run(entry, tensors)`` interprets the host wrapper (integers, tensor shapes, ``torch::empty``,
``dim3``, one or more ``<<<grid, block, shmem>>>`` launches) and, at each launch, every block of the grid in
turn. A block's threads are Python generators over the lowered tree; a thread runs until it reaches a
synchronisation point and yields it:

- ``__syncthreads()``: a block barrier. When every live thread waits at one, all are released together and
  a new *phase* begins. A thread that has exited while others wait at a barrier, or threads that end with
  different barrier counts, are a **divergent barrier** (CUDA C Programming Guide, "Synchronization
  Functions": ``__syncthreads()`` is allowed in conditional code only if the condition evaluates identically
  across the whole block);
- ``__shfl_sync``/``__shfl_down_sync``/``__shfl_up_sync``/``__shfl_xor_sync``: an exchange among the lanes of
  a warp (32 consecutive linear thread ids) that are waiting at a shuffle; the source lane is the PTX
  ``shfl.sync`` rule (down: lane + delta if it stays inside its ``width`` segment, else the lane's own
  value; up: lane - delta likewise; xor: lane ^ mask; idx: ``srcLane`` within the segment). A lane named in
  the mask that is not at the shuffle is a hazard (**shuffle with an inactive lane**);
- ``__syncwarp(mask)``: orders the shared accesses of its lanes.

Atomics run immediately, in the order threads are scheduled (linear thread id, block by block): one of the
orders the hardware may choose; a float ``atomicAdd`` is recorded as order-dependent.

Shared memory is checked on every access, per block: an index outside the array (**shared out of
bounds**); a read of an address no thread has written (**uninitialised shared read**); two threads touching
one address in the same phase, one of them writing, not ordered by a ``__syncwarp`` of their warp, neither
access atomic (**race**). Global accesses outside a tensor and output elements no thread writes are also
recorded. Each hazard names threads, block, array, address and line; the first of each kind per array and
line pair is kept.

Values: integers are Python ints wrapped to their C type after each operation (C99 6.3.1.3, 6.5.5:
division truncates toward zero); floats are values of the domain (``domains.Reals`` or
``domains.Float32``). Control flow must not depend on data, except ``if`` statements and ``?:`` that only
assign locals: both sides run and are merged with the domain's ``select``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from workbench.floats.block.lower import C, Program
from workbench.floats.block.verdict import Hazard, HazardKind

INT_BITS = {"i32": (32, True), "u32": (32, False), "i64": (64, True), "u64": (64, False)}
FLOATS = ("f32", "f64")
MAX_TRIPS = 1 << 20
SHUFFLES = {"__shfl_sync": "idx", "__shfl_down_sync": "down", "__shfl_up_sync": "up", "__shfl_xor_sync": "xor"}
ATOMICS = ("atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicExch")
SYNC_CALLS = frozenset(SHUFFLES) | {"__syncthreads", "__syncwarp"}
IGNORED_CALLS = frozenset({"printf", "__threadfence", "__threadfence_block", "cudaDeviceSynchronize"})


class MachineError(Exception):
    """Raised inside the interpreter; ``decide`` turns it into the stage's typed errors with the line."""

    def __init__(self, message: str, line: int = 0):
        super().__init__(message)
        self.line = line


def wrap(v: int, ty: str) -> int:
    bits, signed = INT_BITS.get(ty, (64, True))
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v


@dataclass(slots=True)
class Dim3:
    x: int = 1
    y: int = 1
    z: int = 1

    @property
    def count(self) -> int:
        return self.x * self.y * self.z


@dataclass(eq=False, slots=True)
class Memory:
    """One buffer: a tensor's storage (global), a shared array of one block, or a thread's local array."""

    name: str
    space: str  # "global" | "shared" | "local"
    values: list
    elem: str = "f32"
    written: bytearray = None
    log: dict = field(default_factory=dict)  # shared: address -> [(thread, write, line, phase, warp_epoch, atomic)]

    def __post_init__(self):
        if self.written is None:
            self.written = bytearray(len(self.values))


@dataclass(frozen=True, slots=True)
class Ptr:
    mem: Memory
    offset: int
    dims: tuple[int, ...] = ()  # the remaining extents of a multi-dimensional array (row strides)


@dataclass(eq=False, slots=True)
class Tensor:
    shape: tuple[int, ...]
    mem: Memory

    @property
    def numel(self) -> int:
        return math.prod(self.shape)


@dataclass(frozen=True, slots=True)
class Status:
    what: str  # "break" | "continue" | "return"
    value: object = None


BREAK, CONTINUE = Status("break"), Status("continue")


class _Default:
    pass


DEFAULT = _Default()


@dataclass(slots=True)
class Thread:
    tid: tuple[int, int, int]
    linear: int
    bid: tuple[int, int, int]
    barriers: int = 0
    memo: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LaunchRecord:
    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shmem: int
    line: int


class Machine:
    def __init__(self, program: Program, domain, file: str):
        self.p, self.d, self.file = program, domain, file
        self.hazards: list[Hazard] = []
        self._hazard_keys: set = set()
        self.launches: list[LaunchRecord] = []
        self.float_atomics: set[int] = set()
        self.sync_cache: dict[int, bool] = {}
        self.globals: dict = {}
        self.block_shared: dict = {}
        self.dyn_shared = 0
        self.thread: Thread | None = None
        self.phase = 0
        self.warp_epoch: dict[int, int] = {}
        self.block_dim = Dim3()
        self.grid_dim = Dim3()
        self.writes = 0
        self._dispatch = {name[2:]: getattr(self, name) for name in dir(self) if name.startswith("e_")}
        self.tensors_made: list[Tensor] = []
        for name, fn in program.functions.items():
            if name.startswith("$global:"):
                self.globals[fn.name] = self.value_of_decl_init(fn, {})

    # -- hazards
    def hazard(self, kind: HazardKind, text: str, key, **kw) -> None:
        if (kind, key) in self._hazard_keys:
            return
        self._hazard_keys.add((kind, key))
        self.hazards.append(Hazard(kind, text, **kw))

    def where(self, line: int) -> str:
        return f"{self.file}:{line}"

    def fail(self, what: str, line: int, fix: str):
        raise MachineError(f"{what} at {self.where(line)} is not modelled by the block interpreter; {fix}", line)

    # -- host entry
    def run(self, entry: str, args: list) -> object:
        fn = self.p.functions.get(entry)
        if fn is None:
            raise MachineError(f"the CUDA string defines no host function `{entry}`", 0)
        self.thread = None
        gen = self.call_function(fn, args, fn.line)
        try:
            while True:
                ev = next(gen)
                raise MachineError(f"synchronisation `{ev[0]}` in host code", ev[1])
        except StopIteration as stop:
            return stop.value

    def call_function(self, fn: C, args: list, line: int):
        params, role = fn.value
        if len(args) != len(params):
            self.fail(f"call of `{fn.name}` with {len(args)} arguments ({len(params)} parameters)", line,
                      "pass every parameter")
        env = dict(self.globals)
        for (name, ty, canon), v in zip(params, args):
            env[name] = self.convert(v, canon if canon in INT_BITS or canon in FLOATS or canon == "bool" else ty, line)
        status = yield from self.run_statement(fn.kids[0], env)
        return status.value if isinstance(status, Status) and status.what == "return" else None

    # -- conversions
    def convert(self, v, ty: str, line: int):
        if ty in INT_BITS:
            if isinstance(v, bool):
                return int(v)
            if isinstance(v, int):
                return wrap(v, ty)
            if isinstance(v, (Ptr, Tensor, Dim3)) or v is None:
                return v
            try:
                f = self.d.to_int(v, ty)
            except ValueError:
                self.fail("a float converted to an integer that depends on data", line, "index by thread only")
            return wrap(int(f), ty)
        if ty in FLOATS:
            if isinstance(v, float):  # a Python number from forward (pybind rounds it to the C++ parameter type)
                return self.d.const(float(np.float32(v)) if ty == "f32" else v, ty)
            if isinstance(v, bool):
                return self.d.from_int(int(v), ty)
            if isinstance(v, int):
                return self.d.from_int(v, ty)
            return self.d.convert(v, ty)
        if ty == "bool":
            if isinstance(v, (bool, int)):
                return bool(v)
            if isinstance(v, Ptr):
                return True
            return self.d.cmp("!=", v, self.d.const(0.0, "f32"))
        return v

    def is_float(self, v) -> bool:
        t = type(v)
        if t in _NOT_FLOAT:
            return False
        return not isinstance(v, (bool, int, Ptr, Tensor, Dim3, list, tuple, str, _Default)) and v is not None

    # -- statements (generators: they yield synchronisation events)
    def has_sync(self, c: C) -> bool:
        k = id(c)
        hit = self.sync_cache.get(k)
        if hit is None:
            hit = (c.kind in ("call",) and (c.name in SYNC_CALLS or (c.name in self.p.functions and
                                                                    self.p.functions[c.name].value[1] == "device"
                                                                    and self.has_sync(self.p.functions[c.name]))))
            hit = hit or any(self.has_sync(x) for x in c.kids)
            self.sync_cache[k] = hit
        return hit

    def run_statement(self, c: C, env: dict):
        match c.kind:
            case "block":
                saved = {}
                for s in c.kids:
                    if s.kind == "block" and s.name == "decls":
                        for d in s.kids:
                            if d.kind == "decl" and d.name not in saved:
                                saved[d.name] = env.get(d.name, _MISSING)
                    status = yield from self.run_statement(s, env)
                    if status is not None:
                        self._restore(env, saved)
                        return status
                if c.name != "decls":
                    self._restore(env, saved)
                return None
            case "decl":
                if self.sync_cache.get(id(c)) or self.has_sync(c):
                    yield from self.pre(c, env)
                self.declare(c, env)
                return None
            case "expr":
                if self.sync_cache.get(id(c)) or self.has_sync(c):
                    yield from self.pre(c, env)
                self.ev(c.kids[0], env)
                return None
            case "null":
                return None
            case "return":
                if c.kids:
                    if self.sync_cache.get(id(c)) or self.has_sync(c):
                        yield from self.pre(c, env)
                    return Status("return", self.ev(c.kids[0], env))
                return Status("return")
            case "break":
                return BREAK
            case "continue":
                return CONTINUE
            case "if":
                if self.sync_cache.get(id(c.kids[0])) or self.has_sync(c.kids[0]):
                    yield from self.pre(c.kids[0], env)
                cond = self.truth(self.ev(c.kids[0], env), c.line)
                if cond is None:
                    return self.data_if(c, env)
                branch = c.kids[1] if cond else (c.kids[2] if len(c.kids) > 2 else None)
                if branch is None:
                    return None
                return (yield from self.run_statement(branch, env))
            case "for":
                init, cond_c, inc, body = c.kids
                saved = {}
                if init.kind == "block" and init.name == "decls":
                    saved = {d.name: env.get(d.name, _MISSING) for d in init.kids if d.kind == "decl"}
                yield from self.run_statement(init, env)
                trips = 0
                while True:
                    if self.sync_cache.get(id(cond_c)) or self.has_sync(cond_c):
                        yield from self.pre(cond_c, env)
                    ok = self.truth(self.ev(cond_c, env), c.line)
                    if ok is None:
                        self.fail("loop whose condition depends on data", c.line, "bound loops by sizes and indices")
                    if not ok:
                        break
                    trips += 1
                    if trips > MAX_TRIPS:
                        self.fail(f"loop with more than {MAX_TRIPS} trips", c.line, "check smaller sizes")
                    status = yield from self.run_statement(body, env)
                    if status is BREAK:
                        break
                    if status is not None and status is not CONTINUE:
                        self._restore(env, saved)
                        return status
                    if self.sync_cache.get(id(inc)) or self.has_sync(inc):
                        yield from self.pre(inc, env)
                    self.ev(inc, env)
                self._restore(env, saved)
                return None
            case "while" | "do":
                cond_c, body = (c.kids[0], c.kids[1]) if c.kind == "while" else (c.kids[1], c.kids[0])
                trips = 0
                first = c.kind == "do"
                while True:
                    if not first:
                        if self.sync_cache.get(id(cond_c)) or self.has_sync(cond_c):
                            yield from self.pre(cond_c, env)
                        ok = self.truth(self.ev(cond_c, env), c.line)
                        if ok is None:
                            self.fail("loop whose condition depends on data", c.line, "bound loops by sizes")
                        if not ok:
                            break
                    first = False
                    trips += 1
                    if trips > MAX_TRIPS:
                        self.fail(f"loop with more than {MAX_TRIPS} trips", c.line, "check smaller sizes")
                    status = yield from self.run_statement(body, env)
                    if status is BREAK:
                        break
                    if status is not None and status is not CONTINUE:
                        return status
                return None
        self.fail(f"statement `{c.kind}`", c.line, "use declarations, expressions, if, loops and return")

    @staticmethod
    def _restore(env: dict, saved: dict) -> None:
        for k, v in saved.items():
            if v is _MISSING:
                env.pop(k, None)
            else:
                env[k] = v

    def data_if(self, c: C, env: dict):
        """``if`` on data: both sides run on copies of the locals (no memory write, no synchronisation, no
        return); each local they change is merged with the domain's select."""
        if self.has_sync(c):
            self.fail("synchronisation inside an `if` on data", c.line, "synchronise outside data-dependent branches")
        cond = self.ev(c.kids[0], env)
        sides = []
        for k in (1, 2):
            e = dict(env)
            if len(c.kids) > k:
                marks = self.writes
                status = self.run_plain(self.run_statement(c.kids[k], e), c.line)
                if status is not None:
                    self.fail("break, continue or return inside an `if` on data", c.line,
                              "compute the value with fmaxf/ternaries and leave the loop by its bound")
                if self.writes != marks:
                    self.fail("memory write inside an `if` on data", c.line,
                              "assign a local in the branch and store it after the `if`")
            sides.append(e)
        for name in env:
            a, b = sides[0].get(name), sides[1].get(name)
            if a is b:
                continue
            if self.is_float(a) and self.is_float(b):
                env[name] = self.d.select(cond, a, b)
            elif a != b:
                self.fail(f"`{name}` set to different non-float values inside an `if` on data", c.line,
                          "branch on indices only, or select floats")
        return None

    def run_plain(self, gen, line: int):
        try:
            ev = next(gen)
        except StopIteration as stop:
            return stop.value
        self.fail(f"synchronisation `{ev[0]}` where the interpreter cannot pause", line,
                  "synchronise in kernel code outside branches on data")

    def truth(self, v, line: int):
        if isinstance(v, bool):
            return v
        if isinstance(v, int):
            return v != 0
        if isinstance(v, Ptr):
            return True
        if v is None:
            return False
        t = self.d.truth(v)
        if t is None and self.is_float(v) and not hasattr(v, "is_Relational") and getattr(v, "dtype", None) != bool:
            return self.d.truth(self.d.cmp("!=", v, self.d.const(0.0, "f32")))
        return t

    # -- synchronising calls, evaluated before their expression
    def pre(self, c: C, env: dict):
        """Evaluate the synchronising calls inside ``c`` (innermost first), pausing the thread at each; their
        results are memoised for the plain evaluation of ``c`` that follows."""
        if not self.has_sync(c):
            return
        for k in c.kids:
            if self.sync_cache.get(id(k)) or self.has_sync(k):
                yield from self.pre(k, env)
        if c.kind == "call" and self.has_sync(c) and self.thread is not None:
            t = self.thread
            if c.name == "__syncthreads":
                yield ("barrier", c.line)
                t.barriers += 1
                t.memo[id(c)] = None
            elif c.name == "__syncwarp":
                mask = self.ev(c.kids[0], env) if c.kids and c.kids[0].kind != "default" else 0xFFFFFFFF
                yield ("syncwarp", c.line, mask)
                t.memo[id(c)] = None
            elif c.name in SHUFFLES:
                args = [self.ev(x, env) for x in c.kids]
                width = args[3] if len(args) > 3 and not isinstance(args[3], _Default) else 32
                v = args[1]
                result = yield ("shfl", c.line, SHUFFLES[c.name], args[0], v, args[2], width)
                t.memo[id(c)] = result
            elif c.name in self.p.functions:  # a __device__ helper that synchronises
                fn = self.p.functions[c.name]
                args = [self.ev(x, env) for x in c.kids]
                t.memo[id(c)] = yield from self.call_function(fn, args, c.line)

    # -- declarations
    def declare(self, c: C, env: dict) -> None:
        dims, shared, extern, is_array = c.value
        if shared:
            key = id(c)
            mem = self.block_shared.get(key)
            if mem is None:
                size = math.prod(dims) if dims else self.dyn_shared // (8 if c.ty == "f64" else 4)
                if extern and not dims and size == 0:
                    self.fail(f"extern __shared__ array `{c.name}` with no dynamic shared memory in the launch",
                              c.line, "pass the byte count as the launch's third argument")
                mem = Memory(c.name, "shared", [None] * size, c.ty)
                self.block_shared[key] = mem
            env[c.name] = Ptr(mem, 0, dims[1:] if dims else ())
            return
        if is_array:
            mem = Memory(c.name, "local", [None] * math.prod(dims), c.ty)
            env[c.name] = Ptr(mem, 0, dims[1:])
            return
        env[c.name] = self.value_of_decl_init(c, env)

    def value_of_decl_init(self, c: C, env: dict):
        if not c.kids:
            if c.ty in FLOATS:
                return self.d.undefined(f"local_{c.name}")
            if c.ty == "dim3":
                return Dim3()
            return None
        v = self.ev(c.kids[0], env)
        if c.ty == "dim3" and isinstance(v, int):
            return Dim3(v)
        return self.convert(v, c.ty, c.line)

    # -- expressions (plain)
    def ev(self, c: C, env: dict):
        kind = c.kind
        if kind == "ref":  # the commonest node first
            try:
                return env[c.name]
            except KeyError:
                return self.e_ref(c, env)
        if kind == "int":
            return c.value
        if kind == "call" and self.thread is not None and id(c) in self.thread.memo:
            return self.thread.memo[id(c)]
        m = self._dispatch.get(kind)
        if m is None:
            self.fail(f"expression `{c.kind}`", c.line, "use arithmetic, indexing, calls and casts")
        return m(c, env)

    def e_int(self, c, env):
        return c.value

    def e_float(self, c, env):
        return self.d.const(c.value, c.ty)

    def e_bool(self, c, env):
        return c.value

    def e_string(self, c, env):
        return ""

    def e_null_ptr(self, c, env):
        return None

    def e_default(self, c, env):
        return DEFAULT

    def e_init(self, c, env):
        return [self.ev(x, env) for x in c.kids]

    def e_ref(self, c, env):
        try:
            return env[c.name]
        except KeyError:
            pass
        if c.name in self.globals:
            return self.globals[c.name]
        t = self.thread
        match c.name:
            case "threadIdx" if t is not None:
                return Dim3(*t.tid)
            case "blockIdx" if t is not None:
                return Dim3(*t.bid)
            case "blockDim":
                return self.block_dim
            case "gridDim":
                return self.grid_dim
            case "cudaSuccess":
                return 0
            case "kFloat32" | "kFloat" | "Float":
                return "float32"
        self.fail(f"reference to `{c.name}`", c.line, "use parameters, locals and file-scope constants")

    def e_member(self, c, env):
        base = self.ev(c.kids[0], env) if c.kids else None
        if isinstance(base, Dim3) and c.name in ("x", "y", "z"):
            return getattr(base, c.name)
        self.fail(f"member `.{c.name}`", c.line, "use .x/.y/.z of thread indices and dim3")

    def e_cast(self, c, env):
        v = self.ev(c.kids[0], env)
        if c.ty == "void":
            return None
        if c.ty == "ptr":
            if isinstance(v, Ptr) or v is None:
                return v
            self.fail("cast to a pointer", c.line, "index pointer parameters")
        if c.ty == "dim3":
            return v if isinstance(v, Dim3) else Dim3(v)
        if c.ty.startswith("other:") or c.ty == "tensor":
            return v
        return self.convert(v, c.ty, c.line)

    def e_cond(self, c, env):
        cond = self.truth(self.ev(c.kids[0], env), c.line)
        if cond is not None:
            return self.convert(self.ev(c.kids[1] if cond else c.kids[2], env), c.ty, c.line)
        raw = self.ev(c.kids[0], env)
        a = self.convert(self.ev(c.kids[1], env), c.ty, c.line)
        b = self.convert(self.ev(c.kids[2], env), c.ty, c.line)
        if not (self.is_float(a) and self.is_float(b)):
            self.fail("`?:` on data choosing non-float values", c.line, "select floats only")
        return self.d.select(raw, a, b)

    def e_unop(self, c, env):
        op = c.name
        if op in ("x++", "x--", "++x", "--x"):
            cur = self.ev(c.kids[0], env)
            new = self.arith("+" if "+" in op else "-", cur, 1, c.kids[0].ty, c.line)
            self.store(c.kids[0], new, env)
            return cur if op.startswith("x") else new
        if op == "&":
            inner = c.kids[0]
            if inner.kind == "index":
                base = self.ev(inner.kids[0], env)
                idx = self.ev(inner.kids[1], env)
                if isinstance(base, Ptr):
                    return self.offset(base, idx, c.line)
            self.fail("address-of", c.line, "take the address of an array element (&a[i])")
        v = self.ev(c.kids[0], env)
        match op:
            case "-":
                if isinstance(v, int) and not isinstance(v, bool):
                    return wrap(-v, c.ty)
                return self.d.neg(v, c.ty)
            case "+":
                return v
            case "!":
                t = self.truth(v, c.line)
                return (not t) if t is not None else self.d.logic("!", v, None)
            case "~":
                return wrap(~v, c.ty)
            case "*":
                if isinstance(v, Ptr):
                    return self.load(v, c.line)
        self.fail(f"unary `{op}`", c.line, "use - ! ~ ++ -- & and * on pointers")

    def offset(self, p: Ptr, idx: int, line: int) -> Ptr:
        if not isinstance(idx, int):
            self.fail("index computed from data", line, "index by thread and size only")
        stride = math.prod(p.dims) if p.dims else 1
        return Ptr(p.mem, p.offset + idx * stride, p.dims[1:] if p.dims else ())

    def e_index(self, c, env):
        base = self.ev(c.kids[0], env)
        idx = self.ev(c.kids[1], env)
        if isinstance(base, list):
            return base[idx]
        if not isinstance(base, Ptr):
            self.fail("subscript of a non-pointer", c.line, "index arrays and pointer parameters")
        if base.dims:
            return self.offset(base, idx, c.line)
        return self.load(self.offset(base, idx, c.line), c.line)

    # -- memory
    def load(self, p: Ptr, line: int, atomic: bool = False):
        mem, a = p.mem, p.offset
        t = self.thread
        if not 0 <= a < len(mem.values):
            kind = HazardKind.SHARED_OUT_OF_BOUNDS if mem.space == "shared" else HazardKind.GLOBAL_OUT_OF_BOUNDS
            if mem.space != "local":
                self.hazard(kind, f"thread {self._who()} reads {mem.name}[{a}] outside its {len(mem.values)} elements "
                            f"(line {line})", (mem.name, line), **self._kw(mem.name, a, line))
            else:
                self.fail(f"local array `{mem.name}` indexed at {a}", line, "keep local indices in bounds")
            return self.d.undefined(f"{mem.name}_{a}")
        if mem.space == "shared" and t is not None:
            if not mem.written[a]:
                self.hazard(HazardKind.UNINITIALISED_READ, f"thread {self._who()} reads {mem.name}[{a}] before any "
                            f"thread of block {self._block()} writes it (line {line})", (mem.name, line),
                            **self._kw(mem.name, a, line))
            self.record(mem, a, False, line, atomic)
        v = mem.values[a]
        if v is None:
            return self.d.undefined(f"{mem.name}_{a}")
        return v

    def write(self, p: Ptr, v, line: int, atomic: bool = False) -> None:
        mem, a = p.mem, p.offset
        self.writes += 1
        if not 0 <= a < len(mem.values):
            kind = HazardKind.SHARED_OUT_OF_BOUNDS if mem.space == "shared" else HazardKind.GLOBAL_OUT_OF_BOUNDS
            if mem.space != "local":
                self.hazard(kind, f"thread {self._who()} writes {mem.name}[{a}] outside its {len(mem.values)} "
                            f"elements (line {line})", (mem.name, line), **self._kw(mem.name, a, line))
                return
            self.fail(f"local array `{mem.name}` indexed at {a}", line, "keep local indices in bounds")
        if mem.space == "shared" and self.thread is not None:
            self.record(mem, a, True, line, atomic)
        if self.is_float(v):
            v = self.d.convert(v, mem.elem)  # memory holds rounded values (a product is no longer fusable)
        mem.values[a] = v
        mem.written[a] = 1

    def record(self, mem: Memory, a: int, is_write: bool, line: int, atomic: bool) -> None:
        t = self.thread
        warp = t.linear // 32
        entry = (t.linear, is_write, line, self.phase, self.warp_epoch.get(warp, 0), atomic, t.tid)
        log = mem.log.setdefault(a, [])
        for o in log:
            if o[3] != self.phase or o[0] == t.linear or not (o[1] or is_write) or (o[5] and atomic):
                continue
            if o[0] // 32 == warp and o[4] != entry[4]:
                continue  # ordered by a __syncwarp of their warp
            first, second = (o, entry)
            what = lambda e: "writes" if e[1] else "reads"  # noqa: E731
            self.hazard(HazardKind.RACE,
                        f"threads {_fmt(first[6])} and {_fmt(second[6])} of block {self._block()}: {_fmt(first[6])} "
                        f"{what(first)} {mem.name}[{a}] (line {first[2]}) and {_fmt(second[6])} {what(second)} it "
                        f"(line {second[2]}) with no __syncthreads between",
                        (mem.name, min(first[2], second[2]), max(first[2], second[2])),
                        block=tuple(t.bid), threads=(first[6], second[6]), array=mem.name, address=a,
                        lines=(first[2], second[2]))
            break
        if len(log) < 64 or is_write:
            if len(log) >= 64:
                log[:] = [e for e in log if e[1]][-16:]
            log.append(entry)

    def _who(self) -> str:
        t = self.thread
        return _fmt(t.tid) + (f" of block {_fmt(t.bid)}" if t else "") if t else "host"

    def _block(self) -> str:
        return _fmt(self.thread.bid) if self.thread else "-"

    def _kw(self, array: str, a: int, line: int) -> dict:
        t = self.thread
        return {"block": tuple(t.bid) if t else (), "threads": (t.tid,) if t else (), "array": array, "address": a,
                "lines": (line,)}

    def store(self, target: C, v, env: dict):
        match target.kind:
            case "ref":
                old = env.get(target.name, _MISSING)
                if old is _MISSING and target.name not in self.globals:
                    self.fail(f"assignment to `{target.name}`", target.line, "assign locals and array elements")
                ty = target.ty
                env[target.name] = v if ty in ("ptr", "tensor", "dim3") or ty.startswith("other:") else \
                    self.convert(v, ty, target.line)
                return env[target.name]
            case "index":
                base = self.ev(target.kids[0], env)
                idx = self.ev(target.kids[1], env)
                if isinstance(base, list):
                    base[idx] = v
                    return v
                if not isinstance(base, Ptr):
                    self.fail("store through a non-pointer", target.line, "store to arrays")
                p = self.offset(base, idx, target.line)
                v = self.convert(v, target.ty, target.line)
                self.write(p, v, target.line)
                return v
            case "unop" if target.name == "*":
                p = self.ev(target.kids[0], env)
                v = self.convert(v, target.ty, target.line)
                self.write(p, v, target.line)
                return v
            case "call" if target.name == "operator[]":
                base = self.ev(target.kids[0], env)
                base[self.ev(target.kids[1], env)] = v
                return v
            case "member":
                base = self.ev(target.kids[0], env)
                if isinstance(base, Dim3):
                    setattr(base, target.name, v)
                    return v
        self.fail(f"assignment to `{target.kind}`", target.line, "assign locals and array elements")

    def e_assign(self, c, env):
        target, rhs = c.kids
        v = self.ev(rhs, env)
        if c.name != "=":
            cur = self.ev(target, env)
            v = self.arith(c.name[:-1], cur, v, target.ty, c.line)
        return self.store(target, v, env)

    # -- arithmetic
    def e_binop(self, c, env):
        op = c.name
        if op in ("&&", "||"):
            a = self.ev(c.kids[0], env)
            ta = self.truth(a, c.line)
            if ta is not None and ((op == "&&" and not ta) or (op == "||" and ta)):
                return ta
            b = self.ev(c.kids[1], env)
            tb = self.truth(b, c.line)
            if ta is not None and tb is not None:
                return tb
            return self.d.logic(op, a if ta is None else ta, b if tb is None else tb)
        a = self.ev(c.kids[0], env)
        b = self.ev(c.kids[1], env)
        if op in ("<", ">", "<=", ">=", "==", "!="):
            if self.is_float(a) or self.is_float(b):
                ty = "f64" if "f64" in (c.kids[0].ty, c.kids[1].ty) else "f32"
                return self.d.cmp(op, self.convert(a, ty, c.line), self.convert(b, ty, c.line))
            return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
        if op == ",":
            return b
        return self.arith(op, a, b, c.ty, c.line)

    def arith(self, op: str, a, b, ty: str, line: int):
        if ty in INT_BITS and type(a) is int and type(b) is int and op in "+-*":
            r = a + b if op == "+" else a - b if op == "-" else a * b
            bits, signed = INT_BITS[ty]
            if -(1 << (bits - 1)) <= r < (1 << (bits - 1)) if signed else 0 <= r < (1 << bits):
                return r
            return wrap(r, ty)
        if isinstance(a, Ptr) and isinstance(b, int):
            return self.offset(a, b if op == "+" else -b, line)
        if isinstance(b, Ptr) and isinstance(a, int) and op == "+":
            return self.offset(b, a, line)
        if ty in FLOATS or self.is_float(a) or self.is_float(b):
            fty = ty if ty in FLOATS else "f32"
            a, b = self.convert(a, fty, line), self.convert(b, fty, line)
            match op:
                case "+":
                    return self.d.add(a, b, fty)
                case "-":
                    return self.d.sub(a, b, fty)
                case "*":
                    return self.d.mul(a, b, fty)
                case "/":
                    return self.d.div(a, b, fty)
            self.fail(f"float operator `{op}`", line, "use + - * / on floats")
        if not (isinstance(a, int) and isinstance(b, int)):
            self.fail(f"operator `{op}` on {type(a).__name__} and {type(b).__name__}", line, "compute on integers")
        match op:
            case "+":
                r = a + b
            case "-":
                r = a - b
            case "*":
                r = a * b
            case "/":
                if b == 0:
                    self.fail("integer division by zero", line, "guard the divisor")
                r = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            case "%":
                if b == 0:
                    self.fail("integer remainder by zero", line, "guard the divisor")
                r = a - (abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)) * b
            case "<<":
                r = a << b
            case ">>":
                r = a >> b
            case "&":
                r = a & b
            case "|":
                r = a | b
            case "^":
                r = a ^ b
            case _:
                self.fail(f"operator `{op}`", line, "use integer arithmetic")
        return wrap(r, ty if ty in INT_BITS else "i64")

    # -- calls
    def e_method(self, c, env):
        obj = self.ev(c.kids[0], env)
        args = [self.ev(x, env) for x in c.kids[1:]]
        name = c.name
        if isinstance(obj, Tensor):
            match name:
                case "size":
                    k = args[0]
                    return obj.shape[k if k >= 0 else len(obj.shape) + k]
                case "stride":
                    k = args[0] if args[0] >= 0 else len(obj.shape) + args[0]
                    return math.prod(obj.shape[k + 1:])
                case "numel":
                    return obj.numel
                case "dim":
                    return len(obj.shape)
                case "sizes":
                    return list(obj.shape)
                case "data_ptr" | "data":
                    if c.value not in ("", "float"):
                        self.fail(f"`{name}<{c.value}>()`", c.line, "pass float tensors (data_ptr<float>())")
                    return Ptr(obj.mem, 0)
                case "contiguous" | "cuda":
                    return obj
                case "options" | "device" | "scalar_type":
                    return "float32"
                case "is_contiguous" | "is_cuda":
                    return True
        if isinstance(obj, list) and name in ("vec",):
            return list(obj)
        if isinstance(obj, list) and name == "size":
            return len(obj)
        if isinstance(obj, str) and name in ("dtype", "device", "is_cuda"):
            return obj if name != "is_cuda" else True
        self.fail(f"method `.{name}()`", c.line, "the wrapper may use size, numel, dim, sizes, data_ptr<float>, "
                  "options and contiguous")

    def e_call(self, c, env):
        name = c.name
        if name == "dim3" or (c.ty == "dim3" and name in ("construct", "")):
            vals = [self.ev(x, env) for x in c.kids]
            if len(vals) == 1 and isinstance(vals[0], Dim3):
                return Dim3(vals[0].x, vals[0].y, vals[0].z)
            vals = [1 if isinstance(v, _Default) else v for v in vals] + [1, 1, 1]
            return Dim3(*vals[:3])
        if name in self.p.functions and c.kids and c.kids[0].kind == "call" and c.kids[0].name == "cudaConfigureCall":
            return self.launch(name, c, env)
        if name in IGNORED_CALLS:
            return 0
        args = [self.ev(x, env) for x in c.kids]
        if name in self.p.functions:
            return self.run_plain(self.call_function(self.p.functions[name], args, c.line), c.line)
        return self.builtin(name, args, c)

    def builtin(self, name: str, args: list, c: C):
        d = self.d
        match name:
            case "fmaxf" | "fmax":
                return d.fmax(*self._f(args, c), c.ty)
            case "fminf" | "fmin":
                return d.fmin(*self._f(args, c), c.ty)
            case "max" | "min" | "std::max" | "std::min":
                if any(self.is_float(a) for a in args):
                    f = self._f(args, c)
                    return d.fmax(*f, c.ty) if name.endswith("max") else d.fmin(*f, c.ty)
                return max(args) if name.endswith("max") else min(args)
            case "fabsf" | "fabs":
                return d.fabs(self._f(args, c)[0], c.ty)
            case "fmaf" | "__fmaf_rn" | "fma":
                return d.fma(*self._f(args, c), c.ty)
            case "__ldg":
                return self.load(args[0], c.line)
            case "__builtin_inff":
                return d.const(math.inf, "f32")
            case "__builtin_nanf":
                return d.const(math.nan, "f32")
            case "cudaGetLastError":
                return 0
            case "cudaGetErrorString":
                return ""
            case "getCurrentCUDAStream":
                return None
            case "empty" | "zeros" | "empty_like" | "zeros_like":
                return self.new_tensor(name, args, c)
            case name if name in ATOMICS:
                return self.atomic(name, args, c)
        if self.thread is not None or name in ("sqrtf", "expf"):
            r = d.call(name, self._f(args, c), c.ty) if all(self.is_float(a) or isinstance(a, int)
                                                              for a in args) else None
            if r is not None:
                return r
        self.fail(f"call of `{name}`", c.line, "the block interpreter knows the CUDA math functions it lists "
                  "(docs/floats-block.md), atomics, shuffles, barriers and the torch wrapper calls")

    def _f(self, args, c):
        ty = c.ty if c.ty in FLOATS else "f32"
        return [self.convert(a, ty, c.line) for a in args]

    def new_tensor(self, name: str, args: list, c: C) -> Tensor:
        first = args[0] if args else None
        if name.endswith("_like"):
            if not isinstance(first, Tensor):
                self.fail(f"`{name}` of a non-tensor", c.line, "pass a tensor")
            shape = first.shape
        else:
            if not isinstance(first, list) or not all(isinstance(x, int) for x in first):
                self.fail(f"`{name}` with sizes that are not integers", c.line, "pass {d0, d1, ...} or x.sizes()")
            shape = tuple(first)
        zero = name.startswith("zeros")
        n = math.prod(shape)
        mem = Memory(f"out{len(self.tensors_made)}", "global",
                     [self.d.const(0.0, "f32") if zero else None] * n)
        if zero:
            mem.written = bytearray(b"\x01" * n)
        t = Tensor(tuple(shape), mem)
        self.tensors_made.append(t)
        return t

    def atomic(self, name: str, args: list, c: C):
        p, v = args[0], args[1]
        if not isinstance(p, Ptr):
            self.fail(f"`{name}` on a non-pointer", c.line, "pass &array[index]")
        old = self.load(p, c.line, atomic=True)
        if self.is_float(v) or self.is_float(old):
            self.float_atomics.add(c.line)
            v = self.convert(v, "f32", c.line)
            match name:
                case "atomicAdd":
                    new = self.d.add(old, v, "f32")
                case "atomicSub":
                    new = self.d.sub(old, v, "f32")
                case "atomicMax":
                    new = self.d.fmax(old, v, "f32")
                case "atomicMin":
                    new = self.d.fmin(old, v, "f32")
                case _:
                    new = v
        else:
            new = {"atomicAdd": old + v, "atomicSub": old - v, "atomicMax": max(old, v), "atomicMin": min(old, v),
                   "atomicExch": v}[name]
        self.write(p, new, c.line, atomic=True)
        return old

    # -- launches
    def launch(self, name: str, c: C, env: dict):
        cfg = [self.ev(x, env) for x in c.kids[0].kids]
        grid, block = (v if isinstance(v, Dim3) else Dim3(v) for v in cfg[:2])
        shmem = cfg[2] if len(cfg) > 2 and isinstance(cfg[2], int) else 0
        args = [self.ev(x, env) for x in c.kids[1:]]
        fn = self.p.functions[name]
        if fn.value[1] != "kernel":
            self.fail(f"launch of `{name}`, which is not __global__", c.line, "launch a __global__ kernel")
        if block.count > 1024 or block.count == 0:
            self.fail(f"launch of {name} with {block.count} threads per block", c.line,
                      "launch 1..1024 threads per block (CUDA's limit)")
        self.launches.append(LaunchRecord(name, (grid.x, grid.y, grid.z), (block.x, block.y, block.z), shmem, c.line))
        if self.dry:
            return None
        outer = self.thread, self.block_dim, self.grid_dim
        self.block_dim, self.grid_dim, self.dyn_shared = block, grid, shmem
        for bz in range(grid.z):
            for by in range(grid.y):
                for bx in range(grid.x):
                    self.run_block(fn, (bx, by, bz), block, args)
                    if self.on_block is not None:
                        self.on_block()
        self.thread, self.block_dim, self.grid_dim = outer
        return None

    on_block = None
    dry = False

    def run_block(self, fn: C, bid: tuple, block: Dim3, args: list) -> None:
        self.block_shared = {}
        self.phase = 0
        self.warp_epoch = {}
        threads, gens = [], {}
        k = 0
        for z in range(block.z):
            for y in range(block.y):
                for x in range(block.x):
                    t = Thread((x, y, z), k, bid)
                    threads.append(t)
                    k += 1
        for t in threads:
            self.thread = t
            gens[t.linear] = self.call_function(fn, list(args), fn.line)
        waiting: dict[int, tuple] = {}
        send: dict[int, object] = {}
        live = {t.linear: t for t in threads}
        done_at: dict[int, int] = {}
        by_id = {t.linear: t for t in threads}
        while live:
            for lid in sorted(live):
                if lid in waiting:
                    continue
                t = by_id[lid]
                self.thread = t
                try:
                    ev = gens[lid].send(send.pop(lid, None))
                except StopIteration:
                    done_at[lid] = t.barriers
                    continue
                waiting[lid] = ev
            for lid in done_at:
                live.pop(lid, None)
            if not live:
                break
            shfl = {lid: ev for lid, ev in waiting.items() if ev[0] == "shfl"}
            warp_sync = {lid: ev for lid, ev in waiting.items() if ev[0] == "syncwarp"}
            if shfl:
                self.resolve_shuffles(shfl, waiting, send, by_id, done_at)
                continue
            if warp_sync:
                for lid in warp_sync:
                    w = lid // 32
                    waiting.pop(lid)
                    send[lid] = None
                for w in {lid // 32 for lid in warp_sync}:
                    self.warp_epoch[w] = self.warp_epoch.get(w, 0) + 1
                continue
            # every live thread waits at a barrier
            if done_at:  # a thread that has exited never reaches the barrier the others wait at
                w0 = min(waiting)
                e0 = min(done_at)
                line = waiting[w0][1]
                self.hazard(HazardKind.DIVERGENT_BARRIER,
                            f"in block {_fmt(bid)}, thread {_fmt(by_id[w0].tid)} waits at __syncthreads (line "
                            f"{line}) after {by_id[w0].barriers} barriers while thread {_fmt(by_id[e0].tid)} "
                            f"has exited after {done_at[e0]}: the threads reach different barrier counts",
                            ("exit", line), block=bid, threads=(by_id[w0].tid, by_id[e0].tid), lines=(line,))
            lines = {ev[1] for ev in waiting.values()}
            if len(lines) > 1:
                a, b = sorted(waiting.items(), key=lambda kv: kv[1][1])[0], sorted(waiting.items(),
                                                                                  key=lambda kv: -kv[1][1])[0]
                self.hazard(HazardKind.DIVERGENT_BARRIER,
                            f"in block {_fmt(bid)}, thread {_fmt(by_id[a[0]].tid)} waits at __syncthreads line "
                            f"{a[1][1]} while thread {_fmt(by_id[b[0]].tid)} waits at line {b[1][1]}: a barrier "
                            "under divergent control flow", ("lines", tuple(sorted(lines))), block=bid,
                            threads=(by_id[a[0]].tid, by_id[b[0]].tid), lines=tuple(sorted(lines)))
            for lid in list(waiting):
                waiting.pop(lid)
                send[lid] = None
            self.phase += 1
        counts = {t.barriers for t in threads}
        if len(counts) > 1:
            lo = min(threads, key=lambda t: t.barriers)
            hi = max(threads, key=lambda t: t.barriers)
            self.hazard(HazardKind.DIVERGENT_BARRIER,
                        f"in block {_fmt(bid)}, thread {_fmt(lo.tid)} passes {lo.barriers} __syncthreads and thread "
                        f"{_fmt(hi.tid)} passes {hi.barriers}: the threads reach different barrier counts",
                        ("counts", fn.name), block=bid, threads=(lo.tid, hi.tid))
        self.thread = None

    def resolve_shuffles(self, shfl: dict, waiting: dict, send: dict, by_id: dict, done_at: dict) -> None:
        warps: dict[int, list[int]] = {}
        for lid in shfl:
            warps.setdefault(lid // 32, []).append(lid)
        for w, lids in warps.items():
            lanes = {lid % 32: shfl[lid] for lid in lids}
            for lid in lids:
                _, line, kind, mask, value, arg, width = shfl[lid]
                lane = lid % 32
                width = width if isinstance(width, int) and width > 0 else 32
                seg = lane - lane % width
                match kind:
                    case "down":
                        src = lane + arg if lane % width + arg < width else lane
                    case "up":
                        src = lane - arg if lane % width - arg >= 0 else lane
                    case "xor":
                        src = lane ^ arg
                        src = src if src - src % width == seg else lane
                    case _:
                        src = seg + (arg % width)
                missing = [x for x in range(32) if mask >> x & 1 and x not in lanes and w * 32 + x in by_id]
                if not mask >> lane & 1 or missing:
                    other = missing[0] if missing else lane
                    self.hazard(HazardKind.SHUFFLE,
                                f"thread {_fmt(by_id[lid].tid)} (lane {lane}) of block {_fmt(by_id[lid].bid)} shuffles "
                                f"with mask 0x{mask:08X} (line {line}) while lane {other} of its warp "
                                f"{'is not at the shuffle' if missing else 'is not in the mask'}",
                                ("mask", line), block=by_id[lid].bid, threads=(by_id[lid].tid,), lines=(line,))
                if src in lanes and lanes[src][1] == line:
                    send[lid] = lanes[src][4]
                else:
                    if src != lane and w * 32 + src in by_id:
                        self.hazard(HazardKind.SHUFFLE,
                                    f"thread {_fmt(by_id[lid].tid)} (lane {lane}) reads lane {src} at line {line}, "
                                    "which is not at that shuffle", ("src", line), block=by_id[lid].bid,
                                    threads=(by_id[lid].tid,), lines=(line,))
                        send[lid] = self.d.undefined(f"lane{src}")
                    else:
                        send[lid] = value  # a source lane outside the block: its own value (PTX shfl)
                waiting.pop(lid)


_MISSING = object()
_NOT_FLOAT = frozenset({int, bool, Ptr, Tensor, Dim3, list, tuple, str, _Default, type(None)})


def _fmt(t) -> str:
    t = tuple(t)
    while len(t) > 1 and t[-1] == 0:
        t = t[:-1]
    return "(" + ", ".join(map(str, t)) + ")" if len(t) > 1 else str(t[0])


__all__ = ["Dim3", "LaunchRecord", "Machine", "MachineError", "Memory", "Ptr", "Tensor"]
