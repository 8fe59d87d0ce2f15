"""Fuzz: mutated kernel sources raise nothing but WorkbenchError (parse, then evaluate one lane)."""

from __future__ import annotations

import random
from pathlib import Path

from workbench.capture import load
from workbench.errors import WorkbenchError
from workbench.kir import Lane, evaluate, parse

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted((ROOT / "data" / "kernels").glob("*/*.json"))

TOKENS = [
    "(", ")", "[", "]", ":", ",", ".", "+", "-", "*", "//", "%", "/", "<", ">=", "==", "&", "|", "~", "<<", "**",
    "0", "1", "-1", "2**40", "2**70", "0.5", "None", "True", "'s'", "xindex", "x0", "x1", "ks0", "ks9", "tmp0",
    "tl.", "tl.load(", "tl.store(", "tl.where(", "tl.full(", "tl.arange(", ".to(tl.int64)", ".to(tl.uint8)",
    ".to(tl.float32)", "tl.atomic_add(", "tl.sum(", "libdevice.exp(", "tl_math.abs(", "triton_helpers.maximum(",
    "helper(", "for i in range(2):\n        ", "if x0:\n        ", "lambda: 0", "yield", "await", "x0 = 1\n    ",
    "tl.program_id(3)", "tl.num_programs(0)", "in_ptr0", "out_ptr0", "XBLOCK", "YBLOCK", "\n", "\n    ", "\t",
    "tl.broadcast_to(", "eviction_policy='evict_last'", "other=", "mask=", "= ", "def ", "@", "#", '"""',
]


def _exprs(ck) -> dict[str, str]:
    return {a.name: a.expr for a in (*ck.size_args, *ck.numels)}


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(7)
        pos = rng.randrange(max(1, len(text)))
        if kind == 0:
            text = text[:pos] + text[pos + rng.randint(1, 8):]
        elif kind == 1:
            text = text[:pos] + rng.choice(TOKENS) + text[pos:]
        elif kind == 2:
            text = text[:pos]
        elif kind == 3 and len(lines) > 2:
            i, j = rng.randrange(1, len(lines)), rng.randrange(1, len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
        elif kind == 4 and len(lines) > 2:
            i = rng.randrange(1, len(lines))
            lines.insert(i, lines[rng.randrange(1, len(lines))])
            text = "".join(lines)
        elif kind == 5:
            a, b = rng.sample(TOKENS, 2)
            text = text.replace(a.strip() or "x", b, 1) if a.strip() else text
        elif lines:
            del lines[rng.randrange(len(lines))]
            text = "".join(lines)
        lines = text.splitlines(keepends=True)
    return text


def test_one_thousand_mutated_kernels_raise_only_workbench_errors():
    rng = random.Random(20261129)
    records = [load(p) for p in RECORDS]
    outcomes = {"parsed": 0, "refused": 0}
    for i in range(1200):
        ck = records[i % len(records)]
        text = mutate(ck.jit_source, rng)
        try:
            k = parse(text, signature=ck.signature, name=ck.name, grid_type=ck.grid_type, exprs=_exprs(ck))
        except WorkbenchError:
            outcomes["refused"] += 1
            continue
        outcomes["parsed"] += 1
        try:  # an indirect kernel needs its index data: a WorkbenchError too, never another exception
            sizes = {s.name: 5 for s in ck.symbols}
            lane = Lane((0, 0, 0), (("XBLOCK", 3), ("YBLOCK", 2)), (1, 1, 1))
            # data=: the index tensors' contents (an address through a loaded index needs them)
            evaluate(k, sizes, lane, blocks={"XBLOCK": 8, "YBLOCK": 8}, data=lambda p, o: 1)
        except WorkbenchError:
            pass
    assert outcomes["parsed"] + outcomes["refused"] == 1200
    assert outcomes["refused"] > 100 and outcomes["parsed"] > 50, outcomes


class _AstMutator:
    """Structural mutations: swap operators, names, attributes, constants, call targets."""

    import ast as _ast

    OPS = [_ast.Add, _ast.Sub, _ast.Mult, _ast.FloorDiv, _ast.Mod, _ast.BitAnd, _ast.BitOr, _ast.Div, _ast.LShift]
    CMPS = [_ast.Lt, _ast.LtE, _ast.Gt, _ast.GtE, _ast.Eq, _ast.NotEq, _ast.Is, _ast.In]
    ATTRS = ["int64", "int32", "int1", "int8", "float32", "bfloat16", "uint32", "where", "load", "full", "arange",
             "program_id", "num_programs", "broadcast_to", "to", "shape", "dtype", "sum", "atomic_add", "store"]
    CONSTS = [0, 1, -1, 2, 7, 2**31, 2**63, 2**70, 0.0, 1.5, None, True, "x"]

    def __init__(self, rng: random.Random, names: list[str]):
        self.rng, self.names = rng, names

    def mutate(self, text: str) -> str:
        import ast

        tree = ast.parse(text)
        nodes = list(ast.walk(tree))
        for _ in range(self.rng.randint(1, 3)):
            n = self.rng.choice(nodes)
            if isinstance(n, ast.BinOp):
                n.op = self.rng.choice(self.OPS)()
            elif isinstance(n, ast.Compare):
                n.ops = [self.rng.choice(self.CMPS)()]
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                n.id = self.rng.choice(self.names)
            elif isinstance(n, ast.Attribute):
                n.attr = self.rng.choice(self.ATTRS)
            elif isinstance(n, ast.Constant):
                n.value = self.rng.choice(self.CONSTS)
            elif isinstance(n, ast.Call) and n.args:
                self.rng.shuffle(n.args)
                if self.rng.random() < 0.3:
                    n.args.pop()
        return ast.unparse(tree)


def test_ast_mutations_raise_only_workbench_errors():
    import ast

    rng = random.Random(7)
    records = [load(p) for p in RECORDS]
    parsed = 0
    for i in range(600):
        ck = records[i % len(records)]
        names = sorted({n.id for n in ast.walk(ast.parse(ck.jit_source)) if isinstance(n, ast.Name)})
        text = _AstMutator(rng, names).mutate(ck.jit_source)
        try:
            k = parse(text, signature=ck.signature, name=ck.name, grid_type=ck.grid_type, exprs=_exprs(ck))
            parsed += 1
            sizes = {s.name: 5 for s in ck.symbols}
            lane = Lane((0, 0, 0), (("XBLOCK", 3), ("YBLOCK", 2)), (1, 1, 1))
            evaluate(k, sizes, lane, blocks={"XBLOCK": 8, "YBLOCK": 8}, data=lambda p, o: 1)
        except WorkbenchError:
            pass
    assert parsed > 100
