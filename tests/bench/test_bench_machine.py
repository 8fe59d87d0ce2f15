"""The machine code in view (issue 27): W, N1 and P's PTX/SASS as ``bench static`` compiles them, every
instruction under its kernel line, 64-bit division sites marked and counted. Parsers on small texts first
(fast, no compiler); then one real compilation (triton's ptxas and nvdisasm, no GPU) whose counts must equal
the committed ``data/static/static.json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.bench import machine, static
from workbench.errors import UsageError

PTX = """\
.file 1 "/tmp/v/wb_variant_k_B0.py"
.visible .entry k_B0(
)
{
\t.loc 1 11 0
\tld.param.b64 \t%rd1, [k_B0_param_0];
\t.loc 1 13 21
\tdiv.s64 \t%rd3, %rd1, %rd2;
\tdiv.u32 \t%r3, %r1, %r2;
$L__BB0_2:
\t.loc 1 14 5
\trem.u64 \t%rd4, %rd1, %rd2;
\t.loc 2 80 1
\tadd.s32 \t%r4, %r1, 1;
}
"""

SASS = """\
triton_k_B0:
\t//## File "/tmp/v/wb_variant_k_B0.py", line 13
        /*0000*/                   I2F.U32.RP R0, c[0x0][0x1a8] ;
        /*0010*/                   CALL.REL.NOINC `($__internal_0_$__cuda_sm20_div_s64) ;
\t//## File "/tmp/v/wb_variant_k_B0.py", line 14
        /*0020*/                   CALL.REL.NOINC `($__internal_1_$__cuda_sm20_sqrt_rn_f32) ;
        /*0030*/                   EXIT ;
$__internal_0_$__cuda_sm20_div_s64:
        /*0040*/                   I2F.U64.RP R4, R2 ;
        /*0050*/                   RET.REL.NODEC R2 `(triton_k_B0) ;
$__internal_1_$__cuda_sm20_sqrt_rn_f32:
        /*0060*/                   MUFU.RSQ R3, R0 ;
        /*0070*/                   RET.REL.NODEC R2 `(triton_k_B0) ;
"""


def test_ptx_instructions_carry_their_kernel_line_and_64bit_divisions_are_marked():
    ins = machine.parse_ptx(PTX, "/tmp/v/wb_variant_k_B0.py", def_line=11, count=5)
    assert [(i.text, i.line, i.division) for i in ins] == [
        ("ld.param.b64 %rd1, [k_B0_param_0];", 1, False),
        ("div.s64 %rd3, %rd1, %rd2;", 3, True),
        ("div.u32 %r3, %r1, %r2;", 3, False),  # 32-bit: the fast path, not a 64-bit division
        ("rem.u64 %rd4, %rd1, %rd2;", 4, True),
        ("add.s32 %r4, %r1, 1;", 0, False),  # another file (a helper): no line of the kernel
    ]


def test_sass_marks_only_calls_into_the_64bit_division_subroutine():
    ins = machine.parse_sass(SASS, "/tmp/v/wb_variant_k_B0.py", def_line=11, count=5)
    by_addr = {i.text.split()[0]: i for i in ins}
    assert by_addr["/*0010*/"].division and by_addr["/*0010*/"].line == 3
    assert not by_addr["/*0020*/"].division  # a float square root's slow path is not a division
    assert by_addr["/*0040*/"].line == 0  # the subroutine's body: no line of the kernel
    lst = machine.Listing("p", "k", "W", "sm_89", ("def k():", "  a", "  b", "  c", "  d"), (), ins)
    assert lst.divisions("sass") == 1
    rows = lst.by_line("sass")
    assert [n for n, _, _ in rows] == [1, 2, 3, 4, 5, 0] and len(rows[2][2]) == 2
    assert machine.Listing.from_json(json.loads(json.dumps(lst.to_json()))) == lst


def test_function_lines_and_bad_requests():
    src = "import triton\n\n@triton.jit\ndef k(a):\n    x = a\n\n    return x\n\nOTHER = 1\n"
    assert machine.function_lines(src, "k") == (4, ("def k(a):", "    x = a", "", "    return x"))
    with pytest.raises(static.StaticError, match="no `def nope\\(`"):
        machine.function_lines(src, "nope")
    with pytest.raises(UsageError, match=r"--variant 'W,X': unknown \['X'\]; choose from W, N1, P"):
        machine.show([], "sass", "W,X")
    with pytest.raises(UsageError, match="--arch 'sm_75'"):
        machine.show([], "ptx", "W", "sm_75")


def _tools() -> bool:
    try:
        static.tool("nvdisasm")
        return True
    except Exception:
        return False


@pytest.mark.skipif(not _tools(), reason="triton wheel without backends/nvidia/bin/nvdisasm")
def test_compiled_listings_agree_with_the_committed_static_counts(tmp_path, monkeypatch, capsys):
    from workbench.cli import main

    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "ws"))
    rec = static.record_of("nested_cat_add", "triton_poi_fused_add_cat_0")
    committed = next(r for r in json.loads(Path("data/static/static.json").read_text())["rows"]
                     if r["program"] == "nested_cat_add" and r["arch"] == "sm_89")
    listings, missing = machine.show([rec], "sass", "W,N1,P")
    assert not missing and [lst.variant for lst in listings] == ["W", "N1", "P"]
    for lst, role in zip(listings, ("wide", "narrowed", "partial")):
        assert lst.divisions("sass") == committed[role]["sass_calls"], role
        assert lst.divisions("ptx") == committed[role]["ptx_div_rem_64"], role
    w = listings[0]
    assert w.divisions("sass") == 16
    assert all(i.line > 0 for i in w.sass if i.division)  # every call site sits under a source line
    lines = {n for n, _, ins in w.by_line("sass") if any(i.division for i in ins)}
    assert all("//" in w.source[n - 1] or "%" in w.source[n - 1] for n in lines), "a division site under a line without // or %"
    assert main(["show", "nested_cat_add", "--sass", "--variant", "W"]) == 0  # cached: instant
    out = capsys.readouterr().out
    assert out.count("\n        >> ") == 16 and "16 64-bit division CALL sites" in out
    assert len(list((tmp_path / "ws" / "asm").glob("*.json"))) == 3
