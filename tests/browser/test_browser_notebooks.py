"""Every notebook in a real browser: JupyterLab serves a copy of ``notebooks/`` from a temporary directory
(outside the checkout, so notebooks must find their data through the package), Debian's headless Chromium
(driven by Playwright, no browser download) runs each one top to bottom, and for every widget it displays
the test performs one real interaction (pick another dropdown option, or click an enabled button) and checks
that the widget's content changed and no busy line remains, and that its layout cuts no text (``LAYOUT_JS``);
KernelView's PTX / SASS tab is opened and its highlighted division sites counted; a widget that marks its result stale after a
toggle is then asked to re-check and the stale mark must go. A widget whose controls are disabled because an optional tool is missing
here (FlagsView without nvcc) must say so (an ``.unavailable`` note); the notebook's test then skips visibly
after every other widget has responded. Each widget is photographed before and after; the screenshots go to
``$WORKBENCH_BROWSER_ARTIFACTS`` or a pytest temporary folder (printed), never into the checkout.

Notebooks and widgets are discovered, not listed: a notebook added to ``notebooks/`` and any ipywidget it
displays are covered without editing this file. Progress rows (``workbench-progress``) are not widgets to
interact with; a progress bar printed to stderr (tqdm's pink box) fails the notebook.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# a displayed ipywidget: an output whose root is a widget view (progress rows excluded)
WIDGET = ".jp-OutputArea-output:has(> .jupyter-widgets:not(.workbench-progress))"
# JupyterLab renders an error like a stderr stream (same mime type); its text carries the traceback
STDERR = "[data-mime-type='application/vnd.jupyter.stderr']"
TRACEBACK = "Traceback (most recent call last)"
# Known failures on this branch, fixed by another branch (removed at merge when it passes).
KNOWN: dict[str, str] = {}

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory) -> Path:
    chosen = os.environ.get("WORKBENCH_BROWSER_ARTIFACTS")
    path = Path(chosen) if chosen else tmp_path_factory.mktemp("browser-artifacts")
    path.mkdir(parents=True, exist_ok=True)
    print(f"browser screenshots: {path}")
    return path


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI: `bash scripts/setup.sh --browser` installs it")
        pytest.skip("Debian's chromium is not installed (`bash scripts/setup.sh --browser` installs it)")
    port, token = _free_port(), "workbench-browser-test"
    home = tmp_path_factory.mktemp("jupyter-home")
    served = home / "root"
    shutil.copytree(ROOT / "notebooks", served / "notebooks")  # a copy: autosave must not touch the checkout
    settings = home / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    # render every cell (the default windowing skips off-screen outputs, which hides widgets from the test)
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"), JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               WORKBENCH_HOME=str(home / "workspace"))
    log = open(home / "lab.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
         f"--IdentityProvider.token={token}", "--allow-root", f"--ServerApp.root_dir={served}"],
        cwd=served, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited: {(home / 'lab.log').read_text()[-2000:]}")
            time.sleep(0.5)
    else:
        os.killpg(proc.pid, 9)
        pytest.fail(f"jupyter lab did not answer within 120 s: {(home / 'lab.log').read_text()[-2000:]}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)  # a fresh profile each run
        try:
            yield url, token, browser
        finally:
            browser.close()
            os.killpg(proc.pid, 15)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)


def _shutdown_kernels(url: str, token: str) -> None:
    kernels = json.load(urllib.request.urlopen(f"{url}/api/kernels?token={token}", timeout=10))
    for k in kernels:
        req = urllib.request.Request(f"{url}/api/kernels/{k['id']}?token={token}", method="DELETE")
        urllib.request.urlopen(req, timeout=30)


def _changed(widget, before: str, timeout: float = 90.0) -> str:
    """The widget's text once it differs from ``before`` and no busy line (``.busy``) is showing."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        now = widget.inner_text()
        if now != before and not widget.locator(".busy").count():
            return now
        time.sleep(0.25)
    raise AssertionError(f"the widget did not change (or stayed busy) for {timeout:.0f} s after the interaction")


def _refresh_if_stale(widget) -> str:
    """A widget that marks its result stale after a toggle (SpecView) is asked to re-check: its first
    enabled button is pressed and the stale mark must go away (the package computed a new result)."""
    if not widget.locator(".stale").count():
        return ""
    button = widget.locator("button:not([disabled]):not(.mod-active)").last
    label = button.inner_text()
    button.click()
    deadline = time.time() + 90
    while time.time() < deadline:
        if not widget.locator(".stale").count() and not widget.locator(".busy").count():
            return f", then {label!r}: re-checked"
        time.sleep(0.25)
    raise AssertionError(f"the result stayed stale for 90 s after pressing {label!r}")


def _interact(widget) -> str:
    """One real interaction: another option of the first dropdown with several, else the first enabled
    button that is not the active toggle. Returns what was done."""
    for i in range(widget.locator("select").count()):
        select = widget.locator("select").nth(i)
        options = select.locator("option").all_inner_texts()
        if len(options) > 1 and select.is_enabled():
            current = select.input_value()
            values = select.locator("option").evaluate_all("os => os.map(o => o.value)")
            target = next(v for v in values if v != current)
            select.select_option(target)
            return f"dropdown {i}: {current!r} -> {target!r}"
    buttons = widget.locator("button:not([disabled]):not(.mod-active)")
    if buttons.count():
        label = buttons.first.inner_text() or buttons.first.get_attribute("title") or "button"
        buttons.first.click()
        return f"clicked {label!r}"
    reason = widget.locator(".unavailable")
    if reason.count():  # the widget says which tool it needs (e.g. nvcc): a visible skip, not a pass
        raise Inert(reason.first.inner_text())
    raise AssertionError("the widget has no enabled control to interact with")


# Layout facts only a browser can see (issue 27), checked on every widget before and after its interaction:
# 1. a box that hides overflow (or scrolls vertically) cuts no text: its content fits (a source box cut a line
#    in half; a description label cut with an ellipsis);
# 2. a dropdown is at least as wide as its chosen option's text (kernel names were cut);
# 3. no name, number or flag is broken across lines (a signature broke inside "ks0"; "-use_fast_math" broke
#    after its hyphen); a break between punctuation (")[") is the browser's to make.
# TimingPlot's legend lives inside a PNG, out of the DOM's reach: tests/ux/test_ux_widget_layout.py checks that
# the legend covers no point from the figure's geometry.
LAYOUT_JS = """(root) => {
  const problems = [];
  const name = (el) => el.tagName.toLowerCase() + ((typeof el.className === 'string' && el.className)
      ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  for (const el of [root, ...root.querySelectorAll('*')]) {
    if (el.tagName === 'SELECT' || el.tagName === 'OPTION' || !el.innerText || !el.innerText.trim()) continue;
    const cs = getComputedStyle(el);
    const hides = (v) => v === 'hidden' || v === 'clip';
    if (hides(cs.overflowX) && el.scrollWidth > el.clientWidth + 1)
      problems.push(`${name(el)} cuts its text sideways (${el.scrollWidth}px in ${el.clientWidth}px): ` +
                    JSON.stringify(el.innerText.slice(0, 60)));
    if ((hides(cs.overflowY) || cs.overflowY === 'auto' || cs.overflowY === 'scroll')
        && el.scrollHeight > el.clientHeight + 1)
      problems.push(`${name(el)} cuts its text vertically (${el.scrollHeight}px in ${el.clientHeight}px): ` +
                    JSON.stringify(el.innerText.slice(0, 60)));
  }
  const ctx = document.createElement('canvas').getContext('2d');
  for (const sel of root.querySelectorAll('select:not([multiple])')) {
    const opt = sel.options[sel.selectedIndex];
    if (!opt) continue;
    const cs = getComputedStyle(sel);
    ctx.font = cs.font;
    const need = ctx.measureText(opt.text).width;
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    if (need > room + 1)
      problems.push(`dropdown cuts ${JSON.stringify(opt.text)} (${need | 0}px of text in ${room | 0}px)`);
  }
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let node;
  while ((node = walker.nextNode())) {
    const re = /[\\w.\\-]{2,}/g;  // a name, a number or a flag: "ks0", "__restrict__", "-use_fast_math"
    let m;
    while ((m = re.exec(node.nodeValue))) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) problems.push(`${JSON.stringify(m[0].slice(0, 50))} is broken across lines`);
    }
  }
  return problems;
}"""


def _layout_problems(widget) -> list[str]:
    return widget.evaluate(LAYOUT_JS)


def _machine_code(widget) -> str:
    """KernelView's machine-code tab (issue 27): open it, wait until the listing is compiled (no busy line),
    and check that as many instructions are highlighted as the summary counts 64-bit division sites."""
    tab = widget.get_by_role("tab", name="PTX / SASS")
    if not tab.count():
        return ""
    tab.first.click()
    summary = widget.locator(".wb-machine-summary")

    def listed(before: str = "") -> tuple[str, int]:
        deadline = time.time() + 120
        while time.time() < deadline and (not summary.count() or widget.locator(".busy").count()
                                          or summary.first.inner_text() == before):
            time.sleep(0.25)
        assert summary.count() and summary.first.inner_text() != before, "no new listing within 120 s"
        text = summary.first.inner_text()
        sites = int(re.search(r"(\d+) CALL sites", text).group(1))
        assert widget.locator(".wb-div64").count() == sites, f"{sites} sites counted, highlighted differ: {text}"
        return text, sites

    text, sites = listed()
    done = f", then tab 'PTX / SASS': {sites} 64-bit division CALL sites highlighted"
    program = widget.locator("select").first  # report 1's kernel: its wide SASS has such sites
    if program.locator("option[value='nested_cat_add']").count() and program.input_value() != "nested_cat_add":
        program.select_option("nested_cat_add")
        text, sites = listed(text)
        assert sites > 0, f"nested_cat_add's wide kernel shows no 64-bit division site: {text}"
        done += f"; nested_cat_add: {sites}"
    return done


class Inert(Exception):
    """A widget whose controls are disabled because an optional tool is missing here, and that says so."""


def _run_all(page, url: str, token: str, notebook: str) -> None:
    page.goto(f"{url}/lab/tree/notebooks/{notebook}?reset&token={token}", timeout=120_000)
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=180_000)
    page.locator(".jp-Notebook").first.click()
    page.get_by_text("Run", exact=True).first.click()
    page.get_by_text("Run All Cells", exact=True).first.click()


@pytest.fixture(scope="module")
def running(lab, request):
    """Every selected notebook open in its own tab and running at once (their kernels are separate
    processes), so the module takes about as long as the slowest notebook rather than the sum. Only the
    notebooks whose tests were selected (``-k 03``) are opened."""
    url, token, browser = lab
    selected = {item.callspec.params["notebook"] for item in request.session.items
                if getattr(item, "callspec", None) and "notebook" in item.callspec.params}
    pages, started = {}, time.monotonic()
    for notebook in [n for n in NOTEBOOKS if n in selected]:
        page = browser.new_page(viewport={"width": 1500, "height": 1200})
        try:
            _run_all(page, url, token, notebook)
        except Exception as exc:  # reported by that notebook's test, not by the others
            pages[notebook] = exc
            continue
        pages[notebook] = page
    yield pages, started
    for page in pages.values():
        if not isinstance(page, Exception):
            page.close()
    _shutdown_kernels(url, token)


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_notebook_runs_and_every_widget_responds(notebook, running, artifacts, request):
    if notebook in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[notebook], strict=False))
    pages, start = running
    page = pages[notebook]
    if isinstance(page, Exception):
        raise page
    stem = notebook.removesuffix(".ipynb")
    page.bring_to_front()
    try:
        page.wait_for_function(
            "() => { const ps = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];"
            f" if ([...document.querySelectorAll(\"{STDERR}\")].some(e => e.innerText.includes('{TRACEBACK}')))"
            " return true;"  # Run All stops at an error
            " return ps.length > 0 && ps.every(p => /\\[\\d+\\]/.test(p.innerText)); }",
            timeout=300_000, polling=500,
        )
        page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=120_000)
        for i in range(page.locator(STDERR).count()):
            text = page.locator(STDERR).nth(i).inner_text()
            if TRACEBACK in text:
                pytest.fail(f"{notebook}: a cell raised: {text[-2000:]}")
            assert "it/s]" not in text and "%|" not in text, f"{notebook}: a progress bar went to stderr: {text[:300]}"
        widgets = [page.locator(WIDGET).nth(i) for i in range(page.locator(WIDGET).count())]
        done, inert, layout = [], [], []
        for i, widget in enumerate(widgets):
            widget.scroll_into_view_if_needed()
            before = widget.inner_text()
            assert before.strip(), f"{notebook}: widget {i} rendered nothing"
            widget.screenshot(path=str(artifacts / f"{stem}-widget{i}-before.png"))
            layout += [f"widget {i} before: {p}" for p in _layout_problems(widget)]
            try:
                action = _interact(widget)
            except Inert as why:
                inert.append(f"widget {i}: {why}")
                continue
            _changed(widget, before)
            action += _refresh_if_stale(widget)
            machine = _machine_code(widget)
            if machine:
                action += machine
                widget.screenshot(path=str(artifacts / f"{stem}-widget{i}-machine-code.png"))
            page.wait_for_timeout(300)  # let the last re-render settle for the picture
            widget.screenshot(path=str(artifacts / f"{stem}-widget{i}-after.png"))
            layout += [f"widget {i} after {action}: {p}" for p in _layout_problems(widget)]
            done.append(action)
        print(f"{notebook}: done {time.monotonic() - start:.0f} s after the start, {len(widgets)} widget(s): {done}")
        assert not layout, f"{notebook}: {len(layout)} layout problem(s): " + "; ".join(layout[:12])
        if inert:
            pytest.skip(f"{notebook}: every other widget responded; not interactive here: {'; '.join(inert)}")
    except Exception:
        page.screenshot(path=str(artifacts / f"{stem}-failure.png"), full_page=True)
        raise
