"""Red team 6 (after issue 23): attacks on "prove what runs" — the module around the kernel, the text the rule
compiles, partial mode. Each test asserts the correct behaviour and fails on the tree it was written against.

Records under tests/adversarial/red6/ are shipped records with their ``source`` edited (fresh ``source_hash``);
everything else in them (signature, size args, guards) is the shipped record's.
"""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest

from workbench.capture.record import CapturedKernel
from workbench.check.api import check_kernel
from workbench.errors import InputError

HERE = Path(__file__).parent / "red6"
MODES = ("strict", "observable", "partial")


def _load(name: str) -> CapturedKernel:
    return CapturedKernel.from_json(json.loads((HERE / f"{name}.json").read_text()), name)


def _never_certified(rec: CapturedKernel) -> list[str]:
    """The modes in which the checker certifies ``rec`` (an input error or a refusal counts as not certified)."""
    bad = []
    for mode in MODES:
        try:
            v = check_kernel(rec, mode, smt=False, counterexample=False)
        except InputError:
            continue
        if v.certified:
            bad.append(mode)
    return bad


def _effective_triton_meta_signature(rec: CapturedKernel) -> dict:
    """What Inductor's launcher hands ``triton.compile``: the module executed with the heuristics decorator
    recording its keyword arguments (``triton.jit`` stubbed: exec'd text has no file)."""
    import triton
    from torch._inductor.runtime import triton_heuristics

    seen: dict = {}

    def record(**kw):
        seen.update(kw)
        return lambda f: f

    with mock.patch.object(triton_heuristics, "pointwise", record), mock.patch.object(triton, "jit", lambda f: f):
        exec(compile(rec.source.replace("triton_helpers.set_driver_to_gpu()", ""), "k.py", "exec"),
             {"__file__": "k.py", "__name__": "red6_k"})
    return {str(k): str(v) for k, v in seen["triton_meta"]["signature"].items()}


# -- 1. the module is the unit: code in the kernel's decorator arguments and annotations ----------------------


@pytest.mark.parametrize("name", ["decorator-kwarg-rebinds-helper", "annotation-runs-code"])
def test_code_in_decorator_arguments_or_annotations_is_not_certified(name):
    """Class: module-level rebinding the module validator does not see (issue 23 item 2, by another route).

    ``kir.module.check_module`` validates the heuristics decorator's *shape* (a ``triton_heuristics.<h>(...)``
    call with keywords only) but not its keyword *values*, and kir ignores parameter annotations when the
    record carries a signature. Both are expressions Python evaluates when the module is imported (the
    decorator's arguments even before ``triton.jit`` is looked up). Mutants:

    * ``decorator-kwarg-rebinds-helper``: softmax_last with
      ``filename=(setattr(triton_helpers, 'maximum', triton_helpers.minimum), __file__)[1]``
    * ``annotation-runs-code``: tile with ``ks0 : setattr(triton_helpers, 'maximum', triton_helpers.minimum)``

    Seen: both CERTIFIED in strict, observable and partial (``workbench check FILE --mode M``). Executing the
    softmax module text (as Inductor's launcher imports it) leaves ``triton_helpers.maximum is
    triton_helpers.minimum`` True — exactly the rebinding MODULE_MUTANTS["helper rebound"] refuses when written
    as a top-level statement; the kernel's running max then stays -inf. Correct: refused / out of class."""
    rec = _load(name)
    assert _never_certified(rec) == []


def test_decorator_arguments_really_run_at_import():
    """Evidence for the test above, independent of the checker: import-time execution of the mutant rebinds
    the library helper (restored afterwards)."""
    import triton
    from torch._inductor.runtime import triton_helpers, triton_heuristics

    rec = _load("decorator-kwarg-rebinds-helper")
    saved = triton_helpers.maximum
    try:
        with mock.patch.object(triton, "jit", lambda f: f), \
                mock.patch.object(triton_heuristics, "reduction", lambda **kw: (lambda f: f)):
            exec(compile(rec.source.replace("triton_helpers.set_driver_to_gpu()", ""), "k.py", "exec"),
                 {"__file__": "k.py", "__name__": "red6_k"})
        rebound = triton_helpers.maximum is triton_helpers.minimum
    finally:
        triton_helpers.maximum = saved
    assert rebound  # holds today: this is the mechanism, not the bug
    assert _never_certified(rec) == []



def test_a_source_encoding_cookie_cannot_hide_code_from_the_module_validator(tmp_path):
    """Class: the text validated is not the text Python runs (str vs the bytes a launcher imports).

    ``check_module`` and kir parse the record's ``source`` as a Python *str*, where a PEP 263 coding cookie is
    only a comment. A launcher writes the module to a file (UTF-8; Inductor's ``write_atomic``,
    ``rule.variants.load``, the oracle's worker) and imports it, and Python then decodes the file with the
    cookie's codec. Mutant ``coding-cookie-smuggle`` (tile, two lines prepended):

        # -*- coding: shift_jis -*-
        "\u00c1\\"; __import__('torch._inductor.runtime.triton_helpers', fromlist=['m']).maximum = ...minimum #"

    As a str that is a module docstring (``"Á\"; ... #"``, an escaped quote). As UTF-8 bytes decoded as
    Shift_JIS, ``Á`` = C3 81: C3 is a one-byte katakana and 81 5C (``\\``) one two-byte character, so the quote
    closes the string and the rest of the line is code. Seen: CERTIFIED strict (ks0, ks1), observable, partial
    (n8, n10, n11); importing the module written as UTF-8 leaves ``triton_helpers.maximum is
    triton_helpers.minimum``. Correct: refused (a coding cookie, or any source whose import-time decoding
    differs from the validated str, is not Inductor's preamble)."""
    import importlib.util

    from torch._inductor.runtime import triton_helpers, triton_heuristics

    rec = _load("coding-cookie-smuggle")
    path = tmp_path / "red6_cookie.py"
    path.write_text(rec.source.replace("triton_helpers.set_driver_to_gpu()", ""), encoding="utf-8")
    saved = triton_helpers.maximum
    try:
        with mock.patch.object(triton_heuristics, "pointwise", lambda **kw: (lambda f: f)):
            spec = importlib.util.spec_from_file_location("red6_cookie", path)
            spec.loader.exec_module(importlib.util.module_from_spec(spec))
        rebound = triton_helpers.maximum is triton_helpers.minimum
    finally:
        triton_helpers.maximum = saved
    assert rebound  # the mechanism (holds today)
    assert _never_certified(rec) == []



def _run_tile_module_file(source: str, name: str, tmp_path: Path, tag: str) -> list[float]:
    """Write a tile kernel module as UTF-8 (as a launcher does), import it and launch its kernel under Triton's
    interpreter on a 4 x 3 input tiled to 4 x 6."""
    import importlib.util

    import torch

    from workbench.capture.integration import cpu_interpreter

    path = tmp_path / f"red6_{tag}.py"
    path.write_text(source.replace("set_driver_to_gpu()", "set_driver_to_cpu()"), encoding="utf-8")
    x = torch.arange(1, 13, dtype=torch.float32)
    out = torch.full((24,), -1.0)
    with cpu_interpreter():
        spec = importlib.util.spec_from_file_location(f"red6_{tag}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        k = getattr(mod, name)
        getattr(k, "fn", k)[(1,)](x, out, 6, 3, 24, XBLOCK=32)
    return out.tolist()


def test_a_coding_cookie_cannot_change_the_kernel_body_triton_runs(tmp_path):
    """Class: the IR (and its hash) is about the str; Triton runs the bytes decoded by the cookie — inside the
    kernel's own body.

    Mutant ``coding-cookie-kernel-body`` (tile): first line ``# -*- coding: shift_jis -*-`` and the load written
    ``tl.load(..., xmask, eviction_policy=('evict_last' if 1 else '\u00c1\\')); tmp0 = tmp0 * 0 #'))``. kir
    ignores ``eviction_policy``'s value; as a str the ``else`` string runs to ``#'``, as Shift_JIS it closes
    after ``\u00c1\\`` and ``tmp0 = tmp0 * 0`` is a statement of the kernel. Seen: CERTIFIED strict (ks0, ks1),
    observable, partial (n8, n10, n11). Imported from a UTF-8 file and run under Triton's interpreter (4 x 3
    input, ks0 = 6, ks1 = 3): the shipped tile kernel stores [1, 2, 3, 1, 2, 3, 4, ...], the mutant stores 24
    zeros. (``rule.variants.build`` writes its own preamble before the body, without the cookie, so the timing
    variants run the str semantics and cannot see it; the oracle was not run on it.) Correct: refused."""
    from workbench.capture import load
    from workbench.paths import KERNELS

    rec = _load("coding-cookie-kernel-body")
    shipped = load(KERNELS / "tile" / "triton_poi_fused_repeat_0.json")
    want = _run_tile_module_file(shipped.source, shipped.name, tmp_path, "shipped")
    got = _run_tile_module_file(rec.source, rec.name, tmp_path, "cookie")
    assert want[:6] == [1.0, 2.0, 3.0, 1.0, 2.0, 3.0] and got == [0.0] * 24  # the mechanism (holds today)
    assert _never_certified(rec) == []


# -- 2. the types Triton compiles with: a triton_meta signature the validator cannot read ---------------------


@pytest.mark.parametrize("name", ["triton-meta-starstar-i32", "triton-meta-dict-call-i32"])
def test_a_triton_meta_signature_hidden_from_the_literal_check_is_refused(name):
    """Class: the record's declared types are not the ones Triton compiles with, and nothing notices.

    ``check_module`` compares the decorator's ``triton_meta`` signature with the record's only when
    ``triton_meta`` is a dict *display* and only at keys that are string constants. Two spellings slip by:

    * ``triton-meta-starstar-i32``: int_div_trunc with ``triton_meta={'signature': {... 'ks0': 'i64' ...},
      **{'signature': {... 'ks0': 'i32' ...}}, ...}`` (the ``**`` entry has key ``None``; Python keeps the last
      ``signature``);
    * ``triton-meta-dict-call-i32``: ``triton_meta=dict({'signature': {... 'ks0': 'i32' ...}, ...})`` (not an
      ``ast.Dict``: skipped entirely).

    Seen: strict REFUSED, observable REFUSED (ks0 = w.shape[0] is unbounded: no guard), partial CERTIFIED with
    the size argument "left i64" — while the evaluated ``triton_meta['signature']`` that Inductor hands
    ``triton.compile`` says ``'ks0': 'i32'``: a narrowing every N mode refused is compiled, under a partial
    certificate. (``torch.div(x, w.shape[0])`` with ``w`` an expanded view of 2**32 + 5 elements divides by 5.)
    Correct: the evaluated signature must be the record's, or the module is refused."""
    rec = _load(name)
    assert _effective_triton_meta_signature(rec)["ks0"] == "i32"  # the mechanism (holds today)
    assert rec.signature["ks0"] == "i64"
    assert _never_certified(rec) == []



def test_triton_meta_constants_that_specialise_a_size_argument_are_refused():
    """Class: as above — the compile metadata in the decorator is not the record's. ``check_module`` compares
    only ``triton_meta['signature']``; ``triton_meta['constants']`` goes to ``ASTSource(fn, signature,
    constants, ...)`` (torch/_inductor/runtime/triton_heuristics.py, _precompile_config), i.e. a constant there
    is a constexpr baked into the compiled kernel whatever value is launched.

    Mutant ``triton-meta-constants-ks1``: tile (``tl.load(in_ptr0 + (ks1*x1 + ((x0 % ks1))))``) with
    ``'constants': {'ks1': 1}``. Seen: CERTIFIED strict (ks0, ks1), observable, partial (n8, n10, n11), the
    certificate reasoning about a runtime ``ks1``. Compiling what Inductor hands ``triton.compile`` (CPU, target
    cuda sm_89): the TTIR function has parameters ``in_ptr0, out_ptr0, ks0, xnumel`` — no ``ks1`` — and one
    ``arith.divsi`` (``x0 % ks1`` is gone): the kernel reads ``in_ptr0 + x1`` for every shape. Correct: refused
    (constants must be the record's: none for a size argument)."""
    rec = _load("triton-meta-constants-ks1")
    assert _never_certified(rec) == []



def test_an_inductor_meta_grid_type_that_is_not_the_records_is_refused():
    """Class: as above, launch side. Inductor's launcher computes the grid from the decorator's
    ``inductor_meta['grid_type']`` (``GridExpr.from_meta``, triton_heuristics.py), while kir and the checker use
    the record's ``grid_type``; nothing compares the two.

    Mutant ``inductor-meta-grid-type-1d``: transpose_contig (record grid ``Grid2DWithYZOverflow``, the body
    reads ``tl.program_id(1)``/``(2)`` for y) with ``'grid_type': 'Grid1D'`` in the decorator. Seen: CERTIFIED
    strict (ks0, ks1), observable, partial. The launcher's grid for it is ``(ceil(xnumel/XBLOCK), 1, 1)``: one
    y block, so every output row past YBLOCK is never written, at any shape. Correct: refused."""
    import triton
    from torch._inductor.runtime import triton_heuristics
    from torch._inductor.runtime.triton_heuristics import GridExpr

    rec = _load("inductor-meta-grid-type-1d")
    seen: dict = {}

    def record(**kw):
        seen.update(kw)
        return lambda f: f

    with mock.patch.object(triton_heuristics, "pointwise", record), mock.patch.object(triton, "jit", lambda f: f):
        exec(compile(rec.source.replace("triton_helpers.set_driver_to_gpu()", ""), "k.py", "exec"),
             {"__file__": "k.py", "__name__": "red6_grid"})
    launched = GridExpr.from_meta(seen["inductor_meta"], {"XBLOCK": 16, "YBLOCK": 16}, mode="python")
    assert str(launched.y_grid) == "1" and rec.grid_type == "Grid2DWithYZOverflow"  # the mechanism
    assert _never_certified(rec) == []


# -- 3. the CPU route runs int64 size arguments as int32: end-to-end "== eager" cannot see a narrowing ------------


def test_the_cpu_route_runs_the_wide_kernel_wide():
    """Class: the evaluation route narrows by itself, so end-to-end evidence is vacuous for size-argument
    narrowing (and wrong for W).

    ``workbench.capture.integration.cpu_interpreter()`` (the route of every end-to-end rule test and of issue
    23 item 5) launches Inductor's kernels through Triton's interpreter, which types a Python int argument by
    its *value* (``mangle_type``: i32 when it fits), never by the declared signature. A size argument declared
    ``i64`` therefore runs as int32 whenever it fits — W runs as N1, and "the rule's output equals eager" holds
    or fails the same with or without a narrowing.

    Program (red6/captured-idxdata.program.py, real Inductor output in red6/captured-idxdata.json):
    ``i = arange(x.numel()).view_as(x); (i * x.shape[1] + x) % w.shape[0]`` with int64 ``x``; the kernel
    computes ``tmp1 = (ks0*x0).to(tl.int64)`` with ``ks0: 'i64'``. strict and observable REFUSE narrowing
    (partial certifies no site). At x of shape (4, 2**20), ``torch.compile(dynamic=True)`` under
    ``cpu_interpreter()`` *without the rule* returns 4192256 of 4194304 elements different from eager (first:
    522766 vs 477177): ``ks0*x0`` wrapped in int32. Same values from the module text launched directly under
    the interpreter. Correct: the CPU route passes scalars in their declared types (as the oracle's worker
    does), so W equals eager here."""
    import importlib.util

    import torch

    from workbench.capture.integration import cpu_interpreter

    spec = importlib.util.spec_from_file_location("red6_idxdata", HERE / "captured-idxdata.program.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    gen = torch.Generator().manual_seed(0)
    x = torch.randint(-100, 100, (4, 2**20), dtype=torch.int64, generator=gen)
    w = torch.randn(1000003)
    ref = mod.program(x, w)
    torch._dynamo.reset()
    try:
        with cpu_interpreter():
            out = torch.compile(mod.program, dynamic=True)(x, w)
    finally:
        torch._dynamo.reset()
    assert int((out != ref).sum()) == 0, (out.view(-1)[(out != ref).view(-1)][:3], ref.view(-1)[(out != ref).view(-1)][:3])
