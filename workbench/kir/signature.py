"""The kernel's definition and signature as the parser reads them: which ``def`` is the kernel, the facts a
rendered kernel's docstring carries, each parameter's kind (pointer, size argument, numel, constexpr,
scalar) and type, and the grid the body launches on.

Stage: kir. A mixin of :class:`workbench.kir.parser._Parser` (which provides ``refuse``, ``bad``, the builder and
the accesses).
"""

from __future__ import annotations

import ast
import re

from workbench.kir.calls import BLOCK_AXES, REDUCTION_BLOCKS
from workbench.kir.errors import KernelSourceError
from workbench.kir.nodes import Param, walk
from workbench.kir.ops import Op
from workbench.kir.scan import combine_names
from workbench.kir.types import IntType, PtrType, parse_signature_type

# Grid2D: x and y program ids, no z (Inductor picks it when the y grid fits CUDA's 65535 limit); the same
# lanes as Grid2DWithYZOverflow with program_id(2) == 0.
GRID_TYPES = {"Grid1D": "1d", "Grid2D": "2d", "Grid2DWithYZOverflow": "2d"}


class SignatureRules:
    """``_find_def``, ``_docstring_facts``, ``_params``, ``_annotation`` and ``_grid``."""

    def _find_def(self, tree: ast.Module) -> ast.FunctionDef:
        defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if self.want_name is not None:
            defs = [d for d in defs if d.name == self.want_name]
        elif len(defs) > 1:
            jit = [d for d in defs if any("jit" in ast.unparse(dec) for dec in d.decorator_list)]
            defs = jit if len(jit) == 1 else defs
            combine = combine_names(tree)  # a scan's combine helper stands beside the kernel (kir/scan.py)
            if len(defs) > 1 and combine:
                defs = [d for d in defs if d.name not in combine]
        if not defs:
            raise KernelSourceError(
                self.kname, None, "no kernel `def` found" + (f" named {self.want_name!r}" if self.want_name else "")
            )
        if len(defs) > 1:
            raise self.refuse("several function definitions", ", ".join(d.name for d in defs),
                              "pass name= to pick the kernel; helpers are not supported")
        fn = defs[0]
        if isinstance(fn, ast.AsyncFunctionDef):
            raise KernelSourceError(self.kname, fn.lineno, "an async def is not a Triton kernel")
        return fn

    def _docstring_facts(self, fn: ast.FunctionDef) -> None:
        """For text input, read the facts :func:`~workbench.kir.renderer` writes in the docstring:
        ``grid: Grid1D`` and ``ks0 = 2*s27`` lines (a record's own facts take precedence)."""
        doc = ast.get_docstring(fn)
        if not doc or self.exprs:
            return
        for line in doc.splitlines():
            line = line.strip()
            m = re.fullmatch(r"grid:\s*(\w+)", line)
            if m and self.grid_type is None:
                self.grid_type = m.group(1)
                continue
            m = re.fullmatch(r"(\w+)\s*=\s*(.+)", line)
            if m:
                self.exprs[m.group(1)] = m.group(2).strip()

    def _params(self, fn: ast.FunctionDef) -> None:
        a = fn.args
        self.b.line = 1
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
            raise self.refuse("unusual parameters", "*args, **kwargs, keyword-only or default values")
        names = [p.arg for p in a.args]
        if len(set(names)) != len(names):
            raise self.bad("duplicate parameter names")
        sig = self.signature
        if sig is not None:
            missing = [n for n in names if n not in sig]
            extra = [n for n in sig if n not in names]
            if missing or extra:
                raise self.bad(
                    f"parameters {names} do not match the signature {sorted(sig)} "
                    f"(missing {missing}, extra {extra}); was the record captured by another torch version?",
                    1,
                )
        for p in a.args:
            text = sig[p.arg] if sig is not None else self._annotation(p)
            try:
                t = parse_signature_type(text)
            except ValueError:
                raise self.refuse("parameter type", f"{p.arg}: {text!r}") from None
            if t is None:
                kind = "constexpr"
                if REDUCTION_BLOCKS.match(p.arg):
                    self._reduction_param(p.arg, kind, t)
            elif isinstance(t, PtrType):
                kind = "pointer"
            elif isinstance(t, IntType):
                kind = "numel" if re.fullmatch(r"[xyzr]\d*_?numel", p.arg) else "size" if re.fullmatch(r"ks\d+", p.arg) else "scalar"
                if kind == "numel" and p.arg.startswith("r"):
                    self._reduction_param(p.arg, kind, t)
                # Only a size argument declared exactly i64 is a narrowing candidate ("size"): an i16 or i32
                # one is an ordinary scalar of its declared type, modelled exactly and never re-typed
                # (declaring an i16 argument int32 would widen it). The checker refuses such kernels by name.
                if kind == "size" and t != IntType(64):
                    kind = "scalar"
            else:
                kind = "scalar"
            self.params[p.arg] = Param(p.arg, kind, t, self.exprs.get(p.arg))

    def _annotation(self, p: ast.arg) -> str:
        ann = p.annotation
        if ann is None:
            raise self.bad(f"parameter {p.arg} has no type (give signature= or an annotation such as 'i64')", 1)
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            return ann.value
        if isinstance(ann, ast.Attribute) and ann.attr == "constexpr":
            return "constexpr"
        raise self.bad(f"parameter {p.arg}: unreadable annotation {ast.unparse(ann)!r}", 1)

    def _grid(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        nodes = list(walk(*self.loads, *self.stores))
        axes = {n.attr for n in nodes if n.op is Op.PROGRAM_ID} | {n.attr for n in nodes if n.op is Op.NUM_PROGRAMS}
        blocks = sorted({n.attr[1] for n in nodes if n.op is Op.ARANGE})
        grid = "2d" if (axes - {0}) or "YBLOCK" in blocks else "1d"
        if self.grid_type is not None:
            want = GRID_TYPES.get(self.grid_type)
            if want is None:
                raise self.refuse("grid type", self.grid_type, "only Grid1D, Grid2D and Grid2DWithYZOverflow are modelled")
            if self.grid_type == "Grid2D" and 2 in axes:
                raise self.refuse("grid type", "Grid2D launches no z programs, but the kernel reads program_id(2)")
            if grid == "2d" and want == "1d":
                raise self.refuse("grid type", f"{self.grid_type} but the kernel uses program ids {sorted(axes)}")
            grid = want
        if grid == "2d" and 2 in axes and 1 not in {n.attr for n in nodes if n.op is Op.NUM_PROGRAMS}:
            raise self.refuse("grid type", "program_id(2) without the y-overflow form")
        return grid, tuple((b, BLOCK_AXES[b]) for b in blocks)
