"""SpecView logic without a browser: it renders what it is given and asks its checker for new verdicts."""

from __future__ import annotations

from workbench.widgets.spec_view import SpecView, verdict_html

VERDICT = {
    "status": "not equivalent", "target": "fma=on ftz=off", "nan": "any",
    "summary": "not equivalent: input 0x7FC00000 (NaN): kernel 0x00000000 (+0.0), spec 0x7FC00000 (NaN)",
    "witnesses": [{"inputs": ["0x7FC00000"], "kernel": "0x00000000", "spec": "0x7FC00000",
                   "text": "input 0x7FC00000 (NaN): kernel 0x00000000 (+0.0), spec 0x7FC00000 (NaN)"}],
    "safety": {"safe": True, "summary": "safe: every store in bounds"},
}


def test_view_shows_both_sources_the_verdict_and_the_witness() -> None:
    view = SpecView("def program(x):\n    return torch.relu(x)\n", "out[idx] = v > 0.0f ? v : 0.0f;", VERDICT)
    assert "torch.relu(x)" in view.sources.value
    assert "v &gt; 0.0f ? v : 0.0f" in view.sources.value
    assert "0x7FC00000" in view.result.value and "0x00000000" in view.result.value
    assert "safe: every store in bounds" in view.result.value
    assert view.run.disabled and view.fma.disabled and view.device.disabled  # no checker: nothing can run


def test_view_without_verdict_says_so() -> None:
    assert "not checked yet" in SpecView("a", "b").result.value


def test_toggles_are_passed_to_the_checker_and_the_answer_is_shown() -> None:
    calls = []

    def checker(fma: bool, ftz: bool, nan: str, spec_device: str) -> dict:
        calls.append((fma, ftz, nan, spec_device))
        return {**VERDICT, "status": "equivalent", "summary": "equivalent: identical on all 2**32 inputs",
                "witnesses": [], "target": f"fma={'on' if fma else 'off'} ftz={'on' if ftz else 'off'}"}

    view = SpecView("s", "k", checker=checker)
    view.fma.value = False
    view.nan.value = "payload"
    view.run.click()
    assert calls == [(False, False, "payload", "cuda")]
    assert "equivalent: identical on all 2**32 inputs" in view.result.value
    assert "fma=off ftz=off" in view.result.value


def test_verdict_html_escapes_text() -> None:
    assert "&lt;b&gt;" in verdict_html({"summary": "<b>", "status": "undecided"})


def test_toggle_after_a_check_marks_the_result_stale_until_rechecked() -> None:
    view = SpecView("s", "k", checker=lambda *a: VERDICT)
    view.recheck()
    assert "stale" not in view.result.value
    view.ftz.value = True
    assert "stale" in view.result.value and "0x7FC00000" in view.result.value  # kept, but marked
    view.run.click()
    assert "stale" not in view.result.value


def test_busy_indicator_and_disabled_toggles_while_a_check_runs() -> None:
    seen = []

    def checker(*args) -> dict:
        seen.append((view.busy, "checking" in view.status.value, view.fma.disabled, view.run.disabled))
        return VERDICT

    view = SpecView("s", "k", checker=checker)
    view.run.click()
    assert seen == [(True, True, True, True)]
    assert not view.busy and view.status.value == "" and not view.fma.disabled


def test_witness_source_lines_are_highlighted() -> None:
    kernel = "line1\nline2\nout[i] = v > 0 ? v : 0;\n"
    view = SpecView("s", kernel, {**VERDICT, "lines": [3]})
    assert view.witness_lines() == (3,)
    assert "class='witness-line'" in view.sources.value
    marked = [row for row in view.sources.value.split("<span") if "witness-line" in row]
    assert len(marked) == 1 and "out[i] = v &gt; 0 ? v : 0;" in marked[0]
