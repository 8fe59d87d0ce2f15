"""A real browser: JupyterLab serves notebooks/00-tour.ipynb, Debian's headless Chromium (driven by
Playwright, no browser download) runs it, and we check that the KernelView renders the kernel source and
that changing the program dropdown updates it. A screenshot is kept under tests/browser/artifacts/."""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI: `bash scripts/setup.sh --browser` installs it")
        pytest.skip("Debian's chromium is not installed (`bash scripts/setup.sh --browser` installs it)")
    port, token = _free_port(), "workbench-browser-test"
    home = tmp_path_factory.mktemp("jupyter-home")
    # serve a copy: JupyterLab autosaves the notebook it runs, and the checkout must stay untouched
    served = home / "root"
    (served / "notebooks").mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / "00-tour.ipynb", served / "notebooks" / "00-tour.ipynb")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"))
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
        proc.kill()
        pytest.fail(f"jupyter lab did not answer within 120 s: {(home / 'lab.log').read_text()[-2000:]}")
    yield url, token
    os.killpg(proc.pid, 15)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)


def test_tour_kernel_view_in_a_real_browser(lab, tmp_path):
    from playwright.sync_api import sync_playwright

    url, token = lab
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)  # Playwright gives it a fresh profile
        page = browser.new_page(viewport={"width": 1600, "height": 1400})
        try:
            page.goto(f"{url}/lab/tree/notebooks/00-tour.ipynb?reset&token={token}", timeout=120_000)
            page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=180_000)
            page.locator(".jp-Notebook").first.click()
            page.get_by_text("Run", exact=True).first.click()
            page.get_by_text("Run All Cells", exact=True).first.click()
            error = "[data-mime-type='application/vnd.jupyter.error']"
            page.wait_for_selector(f".wb-kernel-view, {error}", timeout=180_000)
            if page.locator(error).count():
                pytest.fail("a cell raised in the browser: " + page.locator(error).first.inner_text()[:2000])
            view = page.locator(".wb-kernel-view")
            source = view.locator("pre.wb-source")
            source.wait_for(timeout=60_000)
            assert "def triton_poi_fused_add_cat_0(" in source.inner_text()
            assert "ks0" in view.locator(".wb-facts").inner_text()
            view.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "00-tour-kernelview.png"), full_page=False)

            program = view.locator("select").first
            program.select_option("movedim")
            page.wait_for_function(
                "() => { const p = document.querySelector('.wb-kernel-view pre.wb-source');"
                " return p && p.innerText.includes('triton_poi_fused_clone_permute_0'); }",
                timeout=60_000,
            )
            assert "def triton_poi_fused_add_cat_0(" not in source.inner_text()
            page.screenshot(path=str(ARTIFACTS / "00-tour-kernelview-movedim.png"), full_page=False)
        except Exception:
            page.screenshot(path=str(ARTIFACTS / "failure.png"), full_page=True)
            raise
        finally:
            browser.close()
