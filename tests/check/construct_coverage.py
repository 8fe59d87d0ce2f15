"""The construct coverage table of docs/check.md ("Construct coverage"): for each construct the IR reads in
reduction and indirect-indexing kernels, which interpreter cross-checks, refused mutants and small-width
model runs exercise it.

Nothing in the table is typed by hand except the registry below (which test runs which records, and which
constructs a mutant aims at); every cell is computed: a test counts for a construct only if one of its
records *has* the construct (``DETECTORS``, on the parsed kernel), and a model run only if the record is
certified at 32 bits (the model test runs exactly those). ``tests/check/test_construct_coverage.py`` checks
that the table in the docs is this module's output, that every test named exists, and that no construct is
without coverage except the gaps listed in ``GAPS`` with their reason.

Developer command (rewrites the docs section):  PYTHONPATH=. python tests/check/construct_coverage.py --write
"""

from __future__ import annotations

import glob
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "check.md"
BEGIN, END = "<!-- construct-coverage:begin -->", "<!-- construct-coverage:end -->"
K = ROOT / "data" / "kernels"
RED = ROOT / "tests" / "kir" / "data" / "reduction"
FAM = ROOT / "tests" / "check" / "data" / "families"
RT = ROOT / "tests" / "adversarial" / "redteam"
SUML = K / "sum_last" / "triton_red_fused_sum_0.json"
SUM0 = K / "sum_dim0" / "triton_red_fused_sum_0.json"
EMB = K / "embedding" / "triton_poi_fused_embedding_0.json"
SOFT = RED / "triton_red_fused__softmax_prepare_softmax_online_0.json"
ARGMAX = FAM / "argmax_last" / "triton_red_fused_argmax_0.json"
ARGMIN = FAM / "argmin_dim1" / "triton_per_fused_argmin_0.json"
GATHER = K / "gather_last" / "triton_poi_fused_gather_0.json"
INDIRECT_SUM = RT / "probe-red-indirect-sum" / "triton_red_fused_sum_9.json"
LN11 = RED / "triton_per_fused_add_addmm_native_layer_norm_view_11.json"

# -- what the IR reads --------------------------------------------------------------------------------------


def _funcs(k, names) -> bool:
    from workbench.kir import Op

    return any(n.op in (Op.REDUCE, Op.PAYLOAD) and isinstance(n.attr, tuple) and n.attr[0] in names
               for n in k.nodes())


def _assumes(k):
    from workbench.kir import Op

    return [n for n in k.nodes() if n.op is Op.ASSUME]


def _through_index(k) -> bool:
    from workbench import kir
    from workbench.kir import Op

    return any(any(x.op is Op.ASSUME for x in kir.walk(a.args[0])) for a in (*k.loads, *k.stores))


def _x_free_access(k) -> bool:
    """A reduction's access whose offset names no x lane (a weight row read by every x lane)."""
    from workbench import kir
    from workbench.kir import Op

    def x_lane(n):
        return any(x.op is Op.PROGRAM_ID or (x.op is Op.ARANGE and x.attr[1] == "XBLOCK") for x in kir.walk(n))

    return k.reduction is not None and any(not x_lane(a.args[0]) for a in (*k.loads, *k.stores))


DETECTORS = {
    "looped reduction (`for r0_offset in tl.range(0, r0_numel, R0_BLOCK)`)": lambda k: bool(k.reduction and k.reduction.loops),
    "multi-loop (2-3 loops, one accumulator set each)": lambda k: bool(k.reduction and k.reduction.loops >= 2),
    "persistent reduction (one block per row)": lambda k: bool(k.reduction and k.reduction.persistent),
    "ACC carry (loop-carried accumulator)": lambda k: bool(k.carries),
    "integer ACC carry (argmax index accumulator)": lambda k: any(str(c.init.type).startswith("i") for c in k.carries),
    "REDUCE sum": lambda k: _funcs(k, {"tl.sum"}),
    "REDUCE max (`max2`)": lambda k: _funcs(k, {"tl.max", "triton_helpers.max2"}),
    "REDUCE min (`min2`)": lambda k: _funcs(k, {"tl.min", "triton_helpers.min2"}),
    "REDUCE with_index (argmax/argmin: `max/min_with_index`, `maximum_with_index`)": lambda k: _funcs(
        k, {"triton_helpers.max_with_index", "triton_helpers.min_with_index", "triton_helpers.maximum_with_index",
            "triton_helpers.minimum_with_index", "tl.argmax", "tl.argmin"}),
    "REDUCE welford (`welford_reduce`/`welford_combine`, `welford`)": lambda k: _funcs(
        k, {"triton_helpers.welford", "triton_helpers.welford_reduce", "triton_helpers.welford_combine"}),
    "online softmax as Inductor emits it for a dynamic width (`prepare_softmax_online`: `max2`, then `sum`)":
        lambda k: "prepare_softmax_online" in k.name and _funcs(k, {"triton_helpers.max2"}) and _funcs(k, {"tl.sum"}),
    "online softmax helpers (`online_softmax_combine`, `online_softmax_combine_with_sum`, `online_softmax_reduce`)":
        lambda k: _funcs(k, {"triton_helpers.online_softmax_reduce", "triton_helpers.online_softmax_combine",
                             "triton_helpers.online_softmax_combine_with_sum"}),
    "2-D x×r tile (`[XBLOCK, R0_BLOCK]`)": lambda k: k.reduction is not None,
    "static r0_numel (`r0_numel = 64` in the body)": lambda k: bool(k.reduction and k.reduction.static_numel is not None),
    "static R0_BLOCK (`R0_BLOCK: tl.constexpr = 64`)": lambda k: bool(k.reduction and k.reduction.static_block is not None),
    "access naming no x lane in a reduction (weight row)": _x_free_access,
    "device_assert ASSUME": lambda k: bool(_assumes(k)),
    "loads through loaded indices": _through_index,
    "tl.where-selected index (negative indices wrapped)": lambda k: any(n.args[0].op.name == "WHERE" for n in _assumes(k)),
    "reduction through a loaded index": lambda k: k.reduction is not None and _through_index(k),
    "reduction result feeding an index (asserted)": lambda k: any(
        any(x.op.name == "REDUCE" for x in __import__("workbench.kir", fromlist=["walk"]).walk(n.args[0]))
        for n in _assumes(k)),
}

GAPS = {
    "reduction result feeding an index (asserted)":
        "no kir-vs-interpreter cross-check: the evaluator keeps float data symbolic, so it has no value for a "
        "reduction's result (the small model enumerates the asserted value itself instead); the independent "
        "oracle runs it under Triton's interpreter, wide vs narrowed, with the interpreter's own sums "
        "(`tests/oracle/test_oracle_reduction_controls.py::"
        "test_a_reduction_result_feeding_an_asserted_index_agrees_inside_the_premise`: 0 disagreements)",
}

# -- which test runs which records ----------------------------------------------------------------------------

INTERPRETER = {
    "kir/test_reduction.py::test_interpreter_crosscheck_every_step_wide_and_narrowed":
        [SOFT, LN11, RED / "triton_red_fused_native_group_norm_0.json", RED / "triton_per_fused_native_group_norm_1.json"],
    "kir/test_reduction_families.py::test_families_and_an_indirect_reduction_match_the_interpreter":
        [FAM / "amin_last" / "triton_red_fused_amin_0.json", ARGMAX, ARGMIN,
         FAM / "softmax_dim1_64" / "triton_per_fused_prepare_softmax_online_0.json", INDIRECT_SUM,
         FAM / "softmax_dim1_3000" / "triton_red_fused_prepare_softmax_online_0.json",
         FAM / "softmax_dim1_3000" / "triton_per_fused_prepare_softmax_online_1.json"],
    "kir/test_kir_indirect.py::test_the_interpreter_agrees_through_loaded_indices":
        [EMB, K / "index_tensor" / "triton_poi_fused_index_0.json"],
    "kir/test_kir_crosscheck.py::test_corpus_crosscheck_has_zero_mismatches_wide_and_narrowed": "corpus",
}

MODEL = "check/test_small_models.py::test_every_certified_kernel_agrees_in_its_small_model"
MODEL_PROBES = "check/test_small_models.py::test_certified_redteam_records_agree_in_their_small_model"

RT_CASE = "adversarial/test_redteam.py::test_redteam_record[{}]"
IND_CASE = "adversarial/test_indirect_mutants.py::test_indirect_mutant[{}]"
RC = "check/test_reduction_check.py::"
# (test id, record it edits, the constructs it aims at); test_construct_mutants.py's table is added below
MUTANTS = [
    (RT_CASE.format("probe/red-step-doubled"), SUM0, ("looped reduction",)),
    (RT_CASE.format("probe/red-bound-size-arg"), SUM0, ("looped reduction",)),
    (RT_CASE.format("red-static-numel-loop-wraps"), SUML, ("looped reduction", "static r0_numel")),
    (RC + "test_dropped_reduction_mask_is_refused", SOFT, ("looped reduction", "multi-loop", "REDUCE max")),
    (RC + "test_index_overflowing_only_in_int32_is_refused", SOFT, ("multi-loop", "2-D x×r tile")),
    (RC + "test_integer_accumulator_of_indices_agrees_only_when_they_fit", SOFT, ("ACC carry", "REDUCE sum")),
    (RT_CASE.format("acc-retyped-by-init"), SUM0, ("ACC carry", "integer ACC carry")),
    (RT_CASE.format("probe/red-update-without-r0-mask"), ARGMAX, ("integer ACC carry", "REDUCE with_index")),
    (RC + "test_an_index_reduction_retyped_by_a_narrowed_argument_is_refused", ARGMIN, ("REDUCE with_index",)),
    ("check/test_small_models.py::test_control_an_accumulator_init_that_overflows_only_in_int32", SUML,
     ("ACC carry", "integer ACC carry")),
    ("check/test_small_models.py::test_control_a_reduction_operand_that_differs_on_tail_rows_only", SUML,
     ("REDUCE sum",)),
    (RT_CASE.format("tile-transposed-arange"), SUML, ("2-D x×r tile",)),
    (RT_CASE.format("tile-bare-arange-in-2d"), SUML, ("2-D x×r tile",)),
    (RT_CASE.format("red-store-x-free-offset"), SUML, ("access naming no x lane",)),
    (RT_CASE.format("red-store-r-free-offset"), SUML, ("access naming no x lane", "looped reduction")),
    (IND_CASE.format("no-assert"), EMB, ("device_assert ASSUME", "loads through loaded indices")),
    (IND_CASE.format("assert-after-use"), EMB, ("device_assert ASSUME",)),
    (IND_CASE.format("assert-under-another-mask"), EMB, ("device_assert ASSUME", "loads through loaded indices")),
    (IND_CASE.format("upper-bound-only"), EMB, ("device_assert ASSUME",)),
    (IND_CASE.format("gather/no-assert"), GATHER, ("loads through loaded indices",)),
    (RT_CASE.format("probe/red-index-load-mask-narrower"), EMB, ("loads through loaded indices",)),
    (RT_CASE.format("probe/red-reduction-feeds-index-int32"), SUML, ("reduction result feeding",
                                                                       "device_assert ASSUME")),
]


def _module(rel: str):
    path = ROOT / "tests" / rel
    spec = importlib.util.spec_from_file_location(f"_cov_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(path.parent))
    return mod


def mutants() -> list[tuple[str, object, tuple[str, ...]]]:
    """(test id, the record the test refuses (a path, or a record built by the test's own edit function),
    the constructs it aims at). A red-team case is its committed record; an inline edit of a test is its
    base record (the edits keep the construct)."""
    mod = _module("check/test_construct_mutants.py")
    out = []
    for test, base, aims in MUTANTS:
        if "test_redteam_record[" in test:
            case = test[test.index("[") + 1:-1]
            record = next((RT / case.replace("probe/", "probe-")).glob("*.json"))
            base = record if _parse(record) is not None else base  # refused by the IR: its base has the construct
        out.append((test, base, aims))
    for m in mod.MUTANTS:
        out.append((f"check/test_construct_mutants.py::test_construct_mutant_is_refused_and_is_a_real_difference[{m[0]}]",
                    mod.mutant(m[2], m[3]), m[1]))
    return out


def construct_of(short: str) -> str:
    """The full construct name a registry entry's short name (its prefix) stands for."""
    hits = [c for c in DETECTORS if c.startswith(short)]
    if len(hits) != 1:
        raise KeyError(f"{short!r} names {len(hits)} constructs")
    return hits[0]


# -- the table -------------------------------------------------------------------------------------------------


def _parse(rec):
    from workbench import kir
    from workbench.capture import load

    try:
        return kir.parse(load(rec) if isinstance(rec, Path) else rec)
    except kir.RefusedConstruct:
        return None


def _corpus() -> list[Path]:
    return [Path(p) for p in sorted(glob.glob(str(K / "*" / "*.json")))]


def coverage() -> dict[str, dict[str, list[str]]]:
    """construct -> {"interpreter": [...], "mutants": [...], "model": [...]}: test ids with, for the
    interpreter, how many of the test's kernels have the construct; kernels for the model."""
    from workbench.capture import load
    from workbench.check.api import check_kernel

    model_mod = _module("check/test_small_models.py")
    modelled = list(model_mod.RECORDS) + list(model_mod.PROBE_RECORDS)
    interp = {t: (_corpus() if recs == "corpus" else recs) for t, recs in INTERPRETER.items()}
    paths = set(modelled) | {p for recs in interp.values() for p in recs}
    parsed = {p: k for p in sorted(paths) if (k := _parse(p)) is not None}
    muts = [(t, _parse(rec), aims) for t, rec, aims in mutants()]
    certified = [p for p in modelled if p in parsed and any(
        check_kernel(load(p), m, counterexample=False).certified for m in ("strict", "observable"))]
    out: dict[str, dict[str, list[str]]] = {}
    for name, has in DETECTORS.items():
        row = {"interpreter": [], "mutants": [], "model": []}
        for t, recs in interp.items():
            n = sum(1 for p in recs if p in parsed and has(parsed[p]))
            if n:
                row["interpreter"].append(f"{t} ({n})")
        for t, k, aims in muts:
            if any(construct_of(a) == name for a in aims) and k is not None and has(k):
                row["mutants"].append(t)
        row["model"] = sorted((f"{parsed[p].program}/{parsed[p].name}" if p in model_mod.RECORDS
                               else f"red team {p.parent.name}/{parsed[p].name}") for p in certified if has(parsed[p]))
        out[name] = row
    return out


def _short(test: str) -> tuple[str, str]:
    """``kir/test_reduction.py::test_x[case]`` -> (``test_reduction``, ``case`` or ``test_x``)."""
    module, _, func = test.partition("::")
    name = Path(module).stem
    return name, (func[func.index("[") + 1:-1] if "[" in func else func.removeprefix("test_"))


def render(cov: dict[str, dict[str, list[str]]]) -> str:
    def interp(ids):
        return ", ".join(f"`{_short(t.rsplit(' (', 1)[0])[0]}` ({t.rsplit(' (', 1)[1]}" for t in ids) or "none"

    def muts(ids):
        groups: dict[str, list[str]] = {}
        for t in ids:
            mod, case = _short(t)
            groups.setdefault(mod, []).append(case)
        return "; ".join(f"`{mod}`: " + ", ".join(f"`{c}`" for c in cases) for mod, cases in groups.items()) or "none"

    def model(kernels):
        if not kernels:
            return "none"
        programs: dict[str, int] = {}
        for kname in kernels:
            prog = kname.split("/")[0]
            programs[prog] = programs.get(prog, 0) + 1
        return f"{len(kernels)}: " + ", ".join(p if n == 1 else f"{p} ({n})" for p, n in programs.items())

    lines = [BEGIN,
             "| construct | interpreter cross-check (kernels with it) | refused mutants (test: case) | small-width model (kernels) |",
             "|---|---|---|---|"]
    for name, row in cov.items():
        gap = f" **Gap:** {GAPS[name]}" if name in GAPS else ""
        lines.append(f"| {name} | {interp(row['interpreter'])} | {muts(row['mutants'])} | {model(row['model'])}{gap} |")
    tests = sorted({t.rsplit(' (', 1)[0] for row in cov.values() for t in row["interpreter"]})
    lines += ["", f"Small-width model: `tests/{MODEL}` (real records) and `tests/{MODEL_PROBES}` (certified "
              "red-team records). Interpreter: " + "; ".join(f"`{_short(t)[0]}` = `tests/{t}`" for t in tests
                                        if "[" not in t) + "; mutants are the cases of "
              "`tests/adversarial/test_redteam.py` (red-team records), `tests/adversarial/test_indirect_mutants.py`, "
              "`tests/check/test_construct_mutants.py`, `tests/check/test_reduction_check.py` and the controls of "
              "`tests/check/test_small_models.py` that the checker refuses.", END]
    return "\n".join(lines) + "\n"


def docs_section() -> str:
    text = DOCS.read_text()
    return text[text.index(BEGIN):text.index(END) + len(END)] + "\n"


if __name__ == "__main__":
    table = render(coverage())
    if "--write" in sys.argv:
        text = DOCS.read_text()
        DOCS.write_text(text[:text.index(BEGIN)] + table + text[text.index(END) + len(END) + 1:])
    else:
        print(table)
