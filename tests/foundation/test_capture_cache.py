"""The capture cache (workbench/capture/cache.py): a zoo model's capture is reused only while every input it was
computed from is unchanged, is the capture a child would give, and is never used for a user's file or with
``fresh``."""

from __future__ import annotations

import json
import os
import time

import pytest

import workbench.zoo.registry  # noqa: F401 - registers the zoo: program namespaces
from workbench.capture import cache, forkserver
from workbench.capture.isolated import capture_isolated, to_json


@pytest.fixture(autouse=True)
def _no_gpu(monkeypatch):
    """These tests are about a machine without a GPU (on one, nothing is cached: tested on its own below)."""
    monkeypatch.setattr(cache, "gpu_machine", lambda: False)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "captures"
    monkeypatch.setenv(cache.CACHE_ENV, str(d))
    monkeypatch.delenv(forkserver.FRESH_ENV, raising=False)
    return d


def _entries(d) -> list:
    return sorted(d.rglob("*.json")) if d.is_dir() else []


def _facts(c) -> dict:
    d = to_json(c)
    d.pop("seconds")
    d.pop("notes")
    return d


# -- the key ------------------------------------------------------------------------------------------------


def test_the_key_changes_with_the_request():
    env = {"PATH": "/usr/bin"}
    base = cache.key("zoo:resnet18", "cuda", "L4", False, env)
    assert base == cache.key("zoo:resnet18", "cuda", "L4", False, dict(env))
    others = {
        cache.key("zoo:resnet34", "cuda", "L4", False, env),
        cache.key("zoo:resnet18", "cpu", "L4", False, env),
        cache.key("zoo:resnet18", "cuda", "H100", False, env),
        cache.key("zoo:resnet18", "cuda", "L4", True, env),
    }
    assert base not in others and len(others) == 4


@pytest.mark.parametrize("name", ["TORCHINDUCTOR_MAX_AUTOTUNE", "TORCH_COMPILE_DEBUG", "TRITON_INTERPRET",
                                  "PYTHONHASHSEED", "PYTHONPATH", "CUDA_VISIBLE_DEVICES", "WORKBENCH_HOME"])
def test_the_key_changes_with_an_environment_variable_that_reaches_the_capture(name):
    assert cache.key("zoo:x", "cuda", "L4", False, {}) != cache.key("zoo:x", "cuda", "L4", False, {name: "1"})


def test_the_key_ignores_unrelated_variables_and_the_folders_capture_replaces():
    # importing Inductor sets TORCHINDUCTOR_CACHE_DIR; capture replaces it (and Triton's) with its own folders
    a = cache.key("zoo:x", "cuda", "L4", False, {"TERM": "xterm", cache.CACHE_ENV: "/a"}, "i")
    assert a == cache.key("zoo:x", "cuda", "L4", False, {"TERM": "dumb", cache.CACHE_ENV: "/b",
                                                         "TORCHINDUCTOR_CACHE_DIR": "/tmp/x",
                                                         "TRITON_CACHE_DIR": "/tmp/y"}, "i")
    assert a != cache.key("zoo:x", "cuda", "L4", False, {"TERM": "xterm"}, "j")  # the code it runs


def test_the_key_changes_when_a_workbench_source_changes(tmp_path, monkeypatch):
    import workbench.paths

    (tmp_path / "workbench" / "zoo").mkdir(parents=True)
    model = tmp_path / "workbench" / "zoo" / "registry.py"
    model.write_text("WIDTH = 64\n")
    monkeypatch.setattr(workbench.paths, "ROOT", tmp_path)
    before = cache.key("zoo:x", "cuda", "L4", False, {})
    model.write_text("WIDTH = 65\n")  # same size, whatever the clock says: the key reads content
    assert cache.key("zoo:x", "cuda", "L4", False, {}) != before


def test_the_key_changes_when_an_installed_file_is_edited_in_place(tmp_path, monkeypatch):
    pkg = tmp_path / "fakepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    mod = pkg / "lowering.py"
    mod.write_text("A = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cache, "PACKAGES", ("fakepkg",))
    before = cache.inputs_digest()
    assert before == cache.inputs_digest()
    st = mod.stat()
    os.utime(mod, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # same version, an edit in place
    assert cache.inputs_digest() != before  # in the same process: nothing is remembered between captures
    assert cache._package_digest("fakepkg", "1.1") != cache._package_digest("fakepkg", "1.0")
    assert cache._package_digest("no_such_package_here", "absent").endswith("absent")


def test_the_key_reads_start_up_code_on_the_childs_path(tmp_path, monkeypatch):
    # a sitecustomize.py on PYTHONPATH runs in the capture server and its children (it could patch Inductor)
    site = tmp_path / "site"
    site.mkdir()
    custom = site / "sitecustomize.py"
    custom.write_text("X = 1\n")
    monkeypatch.setenv("PYTHONPATH", str(site))
    before = cache.inputs_digest()
    st = custom.stat()
    custom.write_text("X = 2\n")  # same size, same modification time: only the content says
    os.utime(custom, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert cache.inputs_digest() != before


def test_nothing_is_cached_on_a_machine_with_a_gpu(monkeypatch):
    assert cache.cacheable("zoo:resnet18")
    monkeypatch.setattr(cache, "gpu_machine", lambda: True)  # the capture depends on a GPU the key omits
    assert not cache.cacheable("zoo:resnet18")


def test_the_key_changes_with_the_checkouts_top_level_and_the_host(tmp_path, monkeypatch):
    import workbench.paths

    (tmp_path / "workbench").mkdir()
    monkeypatch.setattr(workbench.paths, "ROOT", tmp_path)
    before = cache.inputs_digest()
    (tmp_path / "sitecustomize.py").write_text("import torch._inductor.config as c; c.descriptive_names = False\n")
    assert cache.inputs_digest() != before  # first on the child's path: it would run in every capture
    key = cache.key("zoo:x", "cuda", "L4", True, {}, "i")
    monkeypatch.setattr(os, "cpu_count", lambda: 64)  # the CPU backend's kernels carry the core count
    assert cache.key("zoo:x", "cuda", "L4", True, {}, "i") != key


def _capture(program="conv_bn_relu", device="fake-cuda:L4 (sm_89)", phase="forward"):
    from types import SimpleNamespace

    k = SimpleNamespace(program=program, device=device, phase=phase)
    return SimpleNamespace(program=program, kernels=(k,))


@pytest.mark.parametrize("capture, request_, fits", [
    (_capture(), ("zoo:conv_bn_relu", "cuda", "L4", False), True),
    (_capture(), ("zoo:resnet18", "cuda", "L4", False), False),  # another model's capture under this key
    (_capture(), ("zoo:conv_bn_relu", "cuda", "H100", False), False),  # another GPU profile
    (_capture(device="cuda:NVIDIA L4"), ("zoo:conv_bn_relu", "cuda", "L4", False), False),  # a real GPU
    (_capture(phase="backward"), ("zoo:conv_bn_relu", "cuda", "L4", False), False),
    (_capture(device="cpu (Inductor Triton CPU backend)", phase="backward"),
     ("zoo_train:conv_bn_relu", "cuda", "L4", True), True),
    (_capture(device="cpu (Inductor Triton CPU backend)"), ("zoo:conv_bn_relu", "cpu", "L4", False), True),
    (_capture(), ("zoo_train:conv_bn_relu", "cuda", "L4", True), False),
])
def test_a_capture_fits_only_its_own_request(capture, request_, fits):
    assert cache.fits(capture, *request_) is fits


def test_a_capture_is_not_kept_when_the_code_changed_while_it_ran(cache_dir, monkeypatch):
    real = cache.inputs_digest
    calls = []

    def changing():
        calls.append(1)
        return real() + ("-edited" if len(calls) > 1 else "")  # an edit lands while the child runs

    monkeypatch.setattr(cache, "inputs_digest", changing)
    assert capture_isolated("zoo:conv_bn_relu").kernels
    assert len(calls) == 2 and _entries(cache_dir) == []


@pytest.mark.parametrize("ref, expected", [
    ("zoo:resnet18", True), ("zoo_train:resnet18", True), ("nested_cat_add", False),
    ("/home/u/model.py", False), ("model.py", False), ("zoo/model.py", False),
])
def test_only_zoo_models_are_cacheable(ref, expected):  # (on a machine without a GPU: _no_gpu)
    assert cache.cacheable(ref) is expected


# -- the store ----------------------------------------------------------------------------------------------


def test_an_entry_reads_back_and_a_broken_one_is_ignored(cache_dir):
    digest = "ab" + "0" * 62
    assert cache.get(digest, "zoo:m") is None
    cache.put(digest, {"schema": "x", "kernels": []}, "zoo:m")
    assert cache.get(digest, "zoo:m") == {"schema": "x", "kernels": []}
    assert cache.get(digest, "zoo:other") is None  # an entry names the reference it was captured for
    (path,) = _entries(cache_dir)
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # written whole, no temporary file left
    good = json.loads(path.read_text())
    for broken in ({**good, "key": "ab00"}, {**good, "capture": {"schema": "x", "kernels": [{}]}},  # sha differs
                   {k: v for k, v in good.items() if k != "sha256"}, [good]):
        path.write_text(json.dumps(broken))
        assert cache.get(digest, "zoo:m") is None
    path.write_text("{not json")
    assert cache.get(digest, "zoo:m") is None
    path.write_text("[" * 100_000 + "]" * 100_000)  # nested past the parser's recursion limit
    assert cache.get(digest, "zoo:m") is None


def test_off_means_no_reads_and_no_writes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a cache read as the folder "off" would be written here
    monkeypatch.setenv(cache.CACHE_ENV, "off")
    assert cache.directory() is None
    cache.put("cd" + "0" * 62, {}, "zoo:m")
    assert cache.get("cd" + "0" * 62, "zoo:m") is None
    assert not list(tmp_path.iterdir())


def test_a_cache_that_cannot_be_written_is_a_note_not_a_failure(tmp_path, monkeypatch, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(cache.CACHE_ENV, str(blocker / "captures"))
    with caplog.at_level("WARNING"):
        cache.put("ef" + "0" * 62, {}, "zoo:m")
    assert cache.CACHE_ENV in caplog.text and str(blocker) in caplog.text


# -- through capture_isolated and the zoo -------------------------------------------------------------------


def test_a_second_capture_reads_the_first_and_is_the_same_capture(cache_dir):
    first = capture_isolated("zoo:conv_bn_relu")
    assert not first.cached and len(_entries(cache_dir)) == 1
    t0 = time.perf_counter()
    second = capture_isolated("zoo:conv_bn_relu")
    assert second.cached and time.perf_counter() - t0 < first.seconds
    assert _facts(second) == _facts(first)
    assert any("capture cache" in n and cache.CACHE_ENV in n for n in second.notes)
    # fresh (or WORKBENCH_CAPTURE_FRESH=1) captures anew: the comparison of two paths never reads the cache
    fresh = capture_isolated("zoo:conv_bn_relu", fresh=True)
    assert not fresh.cached and _facts(fresh) == _facts(first)


REQUEST = ("zoo:conv_bn_relu", "cuda", "L4", False)  # what capture_isolated("zoo:conv_bn_relu") asks, here


def _forge(path, edit) -> None:
    """Edit an entry's capture and re-sign it (its SHA-256 is a checksum anyone can recompute, not a seal)."""
    d = json.loads(path.read_text())
    edit(d["capture"])
    d["sha256"] = cache._sha(d["capture"])
    path.write_text(json.dumps(d))


def _stale_source(c):
    src = c["kernels"][0]["source"]
    assert "xoffset = " in src
    c["kernels"][0]["source"] = src.replace("xoffset = ", "xoffset  = ", 1)  # source_hash left as captured


def _wrong_program(c):
    c["program"] = "groupnorm_silu"


def _another_models_capture(c):  # consistent, valid records, but of another model than the reference names
    c["program"] = "groupnorm_silu"
    for k in c["kernels"]:
        k["program"] = "groupnorm_silu"


def test_a_damaged_or_forged_entry_is_captured_again_and_replaced(cache_dir):
    from workbench.capture.isolated import _kept

    first = capture_isolated("zoo:conv_bn_relu")
    (path,) = _entries(cache_dir)
    good = json.loads(path.read_text())["capture"]
    assert _kept(good, *REQUEST) is not None
    for edit in (lambda c: c["kernels"][0].update(numels="not a list"), _stale_source, _wrong_program,
                 _another_models_capture,
                 lambda c: c.update(kernels=[]), lambda c: c.update(graphs=float("inf")),
                 lambda c: c["kernels"][0].update(graph=float("inf"))):
        bad = json.loads(json.dumps(good))
        edit(bad)
        assert _kept(bad, *REQUEST) is None
    _forge(path, _stale_source)  # through capture_isolated: a miss, captured again, the entry replaced
    again = capture_isolated("zoo:conv_bn_relu")
    assert not again.cached and _facts(again) == _facts(first)
    assert capture_isolated("zoo:conv_bn_relu").cached


def test_a_user_file_is_never_cached(cache_dir, program_file):
    path = program_file("scaled", """
        import torch

        def program(x):
            return (x * 2 + 1).contiguous()

        def example_inputs():
            return (torch.randn(8, 16),)
    """)
    for _ in range(2):
        assert not capture_isolated(path).cached
    assert _entries(cache_dir) == []


def test_zoo_results_say_which_captures_came_from_the_cache(cache_dir, tmp_path):
    from workbench.zoo import report
    from workbench.zoo.runner import load_results, run_zoo

    first = run_zoo(["conv_bn_relu"], tmp_path / "a")["conv_bn_relu"]
    second = run_zoo(["conv_bn_relu"], tmp_path / "b")["conv_bn_relu"]
    assert not first.capture_cached and second.capture_cached
    assert [(k.name, k.strict, k.observable) for k in second.kernels] == \
        [(k.name, k.strict, k.observable) for k in first.kernels]
    assert load_results(tmp_path / "b")["conv_bn_relu"].capture_cached
    assert "capture_cached" not in json.loads(next((tmp_path / "a").rglob("conv_bn_relu.json")).read_text())
    assert "(cached)" in report.markdown(report.build(load_results(tmp_path / "b"), {}))
    assert "(cached)" not in report.markdown(report.build(load_results(tmp_path / "a"), {}))


def test_zoo_run_says_so_and_no_capture_cache_captures_anew(cache_dir, tmp_path, capsys):
    from workbench.cli import main
    from workbench.zoo.runner import load_results

    argv = ["zoo", "run", "--models", "conv_bn_relu", "--no-smt"]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    assert "capture cache" not in capsys.readouterr().out
    assert main([*argv, "--out", str(tmp_path / "b")]) == 0
    assert "1 of them read their capture from the capture cache" in capsys.readouterr().out
    assert main([*argv, "--out", str(tmp_path / "c"), "--no-capture-cache"]) == 0
    assert "capture cache" not in capsys.readouterr().out
    assert not load_results(tmp_path / "c")["conv_bn_relu"].capture_cached
