"""Static machine-code evidence: two certified kernels at one architecture, compiled here with triton's own
ptxas and disassembled with its cuobjdump (skips visibly when the wheel lacks them)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from workbench.bench import static, static_report
from workbench.bench.static import Counts, Row, StaticError
from workbench.errors import ToolMissingError, UsageError


def _tools() -> bool:
    try:
        static.tool("cuobjdump")
        return True
    except ToolMissingError:
        return False


needs_cuobjdump = pytest.mark.skipif(not _tools(), reason="triton wheel without backends/nvidia/bin/cuobjdump")


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    if not _tools():
        pytest.skip("triton wheel without cuobjdump")
    kernels = static.select(["nested_cat_add", "broadcast_add"])
    rows, skipped = static.measure_all(kernels, ["sm_89"], tmp_path_factory.mktemp("static"))
    assert not skipped
    return rows


@needs_cuobjdump
def test_narrowing_removes_every_64bit_division_call_and_shrinks_the_code(rows):
    by = {r.program: r for r in rows}
    cat = by["nested_cat_add"]
    assert cat.narrowed_args == ("ks0", "ks1", "ks2", "ks3")
    # XBLOCK 1024, 4 warps: 8 elements per thread, each with one // and one % by ks0 in 64 bits
    assert cat.wide.ptx_div_rem_64 == 16 and cat.narrowed.ptx_div_rem_64 == 0
    assert cat.wide.sass_calls == 16 and cat.narrowed.sass_calls == 0
    assert cat.wide.sass_div64_sequences >= 1 and cat.narrowed.sass_div64_sequences == 0
    for r in rows:
        assert r.narrowed.sass_instructions < r.wide.sass_instructions
        assert r.narrowed.code_bytes < r.wide.code_bytes and r.narrowed.cubin_bytes < r.wide.cubin_bytes
        assert r.narrowed.registers <= r.wide.registers and r.wide.registers > 0
        assert r.change("sass_instructions") < -0.2


@needs_cuobjdump
def test_p_removes_the_64bit_division_calls_and_sits_between_b0_and_n1(rows):
    """Variant P (certified by `check --mode partial` for both kernels): no 64-bit div/rem left in PTX or
    SASS, and at most as many instructions as B0, at least as many as N1 (its index arithmetic stays 64-bit)."""
    for r in rows:
        assert r.partial is not None, r.partial_note
        assert r.partial.ptx_div_rem_64 == 0 and r.partial.sass_calls == 0
        assert r.narrowed.sass_instructions <= r.partial.sass_instructions <= r.wide.sass_instructions
    cat = next(r for r in rows if r.program == "nested_cat_add")
    assert cat.partial.sass_instructions < cat.wide.sass_instructions  # the 16 CALL sites are gone
    doc = static_report.to_document(rows)
    assert doc["partial"]["calls_left"] == {"P": 0, "N1": 0}
    assert "## Variant P (only `//` and `%` in int32) against B0 and N1" in static_report.markdown(doc, rows)


def test_partial_comparison_reports_the_share_of_n1s_reduction_p_recovers():
    c = lambda k, i: Counts(k, 0, i, k, 0, 0, 16 * i, 100 * i, 32)  # noqa: E731
    rows = [Row("a", "k", "sm_89", 1024, 4, ("ks0",), c(16, 1000), c(0, 500), partial=c(0, 600)),
            Row("b", "k", "sm_89", 1024, 4, ("ks0",), c(8, 1000), c(0, 800), partial=c(0, 900)),
            Row("c", "k", "sm_89", 1024, 4, ("ks0",), c(8, 1000), c(0, 800), partial_note="P not certified")]
    got = static_report.partial_comparison(rows)
    assert got["kernels"] == 2 and got["kernels_with_64bit_division_calls"] == 2
    assert got["share_of_N1_reduction_recovered"] == {"min": 0.5, "median": 0.65, "max": 0.8}
    assert got["instructions_smaller"]["P"] == [0.1, 0.4] and got["not_compiled"] == ["c/k: P not certified"]
    assert Row.from_json(rows[0].to_json()) == rows[0] and Row.from_json(rows[2].to_json()) == rows[2]


@needs_cuobjdump
def test_document_and_markdown_are_labelled_static(rows):
    doc = static_report.to_document(rows)
    assert doc["schema"] == "workbench.bench.static/1" and doc["verdict"] == "ok"
    assert doc["label"].startswith("static, not timing")
    assert doc["report2"]["all_calls_disappear"]["ours"] is True
    md = static_report.markdown(doc, rows)
    assert "**static, not timing" in md and "| nested_cat_add/`triton_poi_fused_add_cat_0` | sm_89 |" in md


def _row(program, calls, insns, n_calls=0, n_insns=None):
    c = lambda k, i: Counts(k, 0, i, k, 0, 1 if k else 0, 16 * i, 100 * i, 32)  # noqa: E731
    return Row(program, "k", "sm_89", 1024, 4, ("ks0",), c(calls, insns), c(n_calls, n_insns or insns // 2))


def test_report2_comparison_says_where_ours_agree_and_where_not():
    agree = static_report.report2_comparison([_row("a", 8, 1000, n_insns=700), _row("b", 40, 1000, n_insns=400)])
    assert agree["all_calls_disappear"]["agrees"] and agree["calls_per_kernel"]["agrees"]
    assert agree["instructions_smaller"]["ours"] == [0.3, 0.6] and agree["instructions_smaller"]["agrees"]
    off = static_report.report2_comparison([_row("a", 4, 1000, n_insns=950), _row("b", 60, 1000, n_calls=2),
                                           _row("c", 0, 100, n_insns=100)])
    assert not off["all_calls_disappear"]["agrees"] and not off["calls_per_kernel"]["agrees"]
    assert not off["instructions_smaller"]["agrees"] and off["kernels_without"] == ["c/k"]


def test_authors_comparison_lines_up_variants_and_xblocks():
    authors = {"B0": {"XBLOCK=1024": {"instructions": 1864, "CALL": 16, "resource_usage": "REG:90 STACK:0"}},
               "N": {"XBLOCK=1024": {"instructions": 1192, "CALL": 0, "resource_usage": "REG:56 STACK:0"}}}
    out = static_report.authors_comparison({1024: _row("x", 16, 1800, n_insns=1100)}, authors)
    assert [(a["variant"], a["quantity"], a["authors"], a["ours"]) for a in out][:3] == [
        ("wide (B0)", "SASS instructions", 1864, 1800), ("wide (B0)", "CALL (64-bit division)", 16, 16),
        ("wide (B0)", "registers", 90, 32)]
    assert out[3]["authors_variant"] == "N" and out[3]["ours"] == 1100


def test_block_sizes_and_bad_requests():
    assert static.blocks_for(("XBLOCK",), 1024, "k") == {"XBLOCK": 1024}
    assert static.blocks_for(("YBLOCK", "XBLOCK"), 1024, "k") == {"YBLOCK": 32, "XBLOCK": 32}
    assert static.blocks_for(("XBLOCK", "R0_BLOCK"), 1024, "k") == {"XBLOCK": 32, "R0_BLOCK": 32}
    with pytest.raises(StaticError, match="constexprs \\['R1_BLOCK', 'XBLOCK'\\]"):
        static.blocks_for(("XBLOCK", "R1_BLOCK"), 1024, "k")
    with pytest.raises(UsageError, match="unknown architecture\\(s\\) \\['sm_75'\\]"):
        static.parse_arch("sm_89,sm_75")
    with pytest.raises(UsageError, match="'no_such_program' is not a certified corpus kernel"):
        static.select(["no_such_program"])
    with pytest.raises(StaticError, match="certificate narrows \\['ks0'\\] but variant N1 narrows every size argument"):
        static.measure("nested_cat_add", "triton_poi_fused_add_cat_0", ("ks0",), "sm_89", None)


def test_division_calls_count_only_calls_into_the_64_bit_division_subroutine():
    """A CALL whose target holds a 64-bit reciprocal set-up is a division site; another CALL (a float
    division's slow path) is not."""
    sass = "\n".join([
        "        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;",
        "        /*0010*/                   CALL.REL.NOINC 0x0040 ;",
        "        /*0020*/               @P0 CALL.REL.NOINC 0x0070 ;",
        "        /*0030*/                   EXIT ;",
        "        /*0040*/                   I2F.U64.RP R4, R2 ;",
        "        /*0050*/                   MUFU.RCP R4, R4 ;",
        "        /*0060*/                   RET.REL.NODEC R6 0x0 ;",
        "        /*0070*/                   MUFU.RCP R8, R9 ;",
        "        /*0080*/                   RET.REL.NODEC R6 0x0 ;",
    ])
    assert static.division_calls(sass) == 1
    assert static.division_calls(sass.replace("I2F.U64.RP", "I2F.U32.RP")) == 0


def test_every_certified_kernel_is_selected():
    results = json.load(open("data/check/results.json"))
    n = sum(1 for k in results["kernels"] if (k["observable"].get("certificate") or {}).get("verdict") == "certified")
    assert len(static.select([])) == n > 0


def test_cli_usage_errors_exit_2():
    p = subprocess.run([sys.executable, "-m", "workbench.cli", "bench", "static", "--arch", "sm_89"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "or pass --all" in p.stderr and "Traceback" not in p.stderr


def test_committed_table_is_rendered_from_the_committed_counts():
    """Golden: data/static/static.md is what the renderer makes of data/static/static.json (regenerate with
    `workbench bench static --redraw data/static/static.json --out data/static --figures figures`)."""
    doc = json.load(open("data/static/static.json"))
    rows = [Row.from_json(r) for r in doc["rows"]]
    assert doc["label"].startswith("static, not timing") and {r.arch for r in rows} == {"sm_80", "sm_89", "sm_90"}
    assert len(rows) == 3 * len(static.select([])) and not doc["skipped"]
    again = static_report.to_document(rows, doc["authors_sass"]["rows"])
    assert again["report2"] == doc["report2"] and again["partial"] == doc["partial"]
    assert all(r.partial is not None or r.partial_note for r in rows)  # P measured, or why not
    assert static_report.markdown(doc, rows) == open("data/static/static.md").read()


def test_reuse_refuses_a_table_of_another_triton(tmp_path):
    old = tmp_path / "static.json"
    old.write_text(json.dumps({"toolchain": {"triton": "0.0"}, "rows": []}))
    p = subprocess.run([sys.executable, "-m", "workbench.cli", "bench", "static", "tile", "--arch", "sm_89",
                        "--reuse", str(old)], capture_output=True, text=True)
    assert p.returncode == 2 and "made with triton 0.0" in p.stderr and "Traceback" not in p.stderr


@needs_cuobjdump
def test_the_committed_wide_and_n1_counts_are_what_compiling_gives_now(rows, tmp_path):
    """The committed table's B0 and N1 counts (kept by `--reuse` when P was added) equal a fresh compile here,
    and a reused row gets the same P as a fresh one."""
    committed = {(r.program, r.kernel, r.arch): r for r in map(Row.from_json, json.load(open("data/static/static.json"))["rows"])}
    for r in rows:
        c = committed[(r.program, r.kernel, r.arch)]
        assert (c.wide, c.narrowed) == (r.wide, r.narrowed), r.program
    cat = next(r for r in rows if r.program == "nested_cat_add")
    (again,), _ = static.measure_all(static.select(["nested_cat_add"]), ["sm_89"], tmp_path, reuse=[cat])
    assert again == cat
