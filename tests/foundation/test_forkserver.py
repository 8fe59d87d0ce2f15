"""The capture server (workbench/capture/forkserver.py): a child forked from it captures exactly what a fresh
interpreter captures, and keeps what isolation gave (a crash, a timeout or a capture's state ends with its
child)."""

from __future__ import annotations

import os

import pytest

import workbench.zoo.registry  # noqa: F401 - registers the zoo: program namespace
from workbench.capture import forkserver
from workbench.capture.isolated import capture_isolated, to_json
from workbench.errors import CaptureError


def _facts(c) -> dict:
    d = to_json(c)
    d.pop("seconds")  # wall clock
    return d


@pytest.fixture(scope="module")
def _module_server():
    old = os.environ.pop(forkserver.FRESH_ENV, None)
    yield
    forkserver.shutdown()
    if old is not None:
        os.environ[forkserver.FRESH_ENV] = old


@pytest.fixture
def server(_module_server):
    """One server for the module's tests (each test that needs a new one makes it itself)."""
    yield


@pytest.mark.parametrize("ref", ["nested_cat_add", "zoo:conv_bn_relu", "zoo:bert"])
def test_forked_capture_is_the_fresh_interpreters_capture(server, ref):
    # zoo:bert: a model of a library the server imported beforehand (MODEL_LIBRARIES)
    if ref == "zoo:bert":
        pytest.importorskip("transformers")
    forked = capture_isolated(ref)
    assert forkserver._SERVER is not None and forkserver._SERVER.alive()
    fresh = capture_isolated(ref, fresh=True)
    assert _facts(forked) == _facts(fresh)


def test_a_forked_training_step_is_the_fresh_interpreters_training_step(server):
    from workbench.zoo import registry

    ref = f"{registry.TRAINING_NAMESPACE}:conv_bn_relu"
    assert _facts(capture_isolated(ref, backward=True)) == _facts(capture_isolated(ref, backward=True, fresh=True))


def test_one_server_serves_many_captures_and_no_state_survives_a_child(server, program_file):
    # The first capture compiles `program` with these sizes; Dynamo's profile-guided state and code cache live
    # in the child, so the second capture (other sizes, the same file) sees a first compilation again.
    f = program_file("twice", """
        import torch
        def program(a, b):
            return torch.cat([a, b], dim=-1) * 2
        def example_inputs():
            return (torch.randn(4, 3), torch.randn(4, 5))
    """)
    first = capture_isolated(f)
    pid = forkserver._SERVER.proc.pid
    second = capture_isolated(f)
    assert forkserver._SERVER.proc.pid == pid  # the same server forked both
    assert _facts(first) == _facts(second)


def test_a_crash_ends_the_child_not_the_server(server, program_file):
    f = program_file("crash", """
        import os, torch
        def program(x):
            os.abort()
        def example_inputs():
            return (torch.randn(4),)
    """)
    capture_isolated("nested_cat_add")
    pid = forkserver._SERVER.proc.pid
    with pytest.raises(CaptureError, match=r"crashed the child process \(SIGABRT\)"):
        capture_isolated(f)
    assert forkserver._SERVER.alive() and forkserver._SERVER.proc.pid == pid
    assert capture_isolated("nested_cat_add").kernels


def test_a_timeout_kills_the_child_and_the_server_goes_on(server, program_file):
    f = program_file("slow", """
        import time, torch
        def program(x):
            time.sleep(600)
            return x * 2
        def example_inputs():
            return (torch.randn(4),)
    """)
    with pytest.raises(CaptureError, match=r"took longer than 3 s; the child was killed"):
        capture_isolated(f, timeout=3)
    assert forkserver._SERVER.alive()
    assert capture_isolated("nested_cat_add").kernels


def test_a_changed_source_file_or_environment_replaces_the_server(server, monkeypatch):
    capture_isolated("nested_cat_add")
    first = forkserver._SERVER
    from workbench.capture import cache

    monkeypatch.setattr(cache, "_workbench_digest", lambda: "edited")  # as if a workbench file's content changed
    capture_isolated("nested_cat_add")
    assert forkserver._SERVER is not first and not first.alive()
    second = forkserver._SERVER
    monkeypatch.setenv("WORKBENCH_TEST_MARK", "1")
    capture_isolated("nested_cat_add")
    assert forkserver._SERVER is not second and not second.alive()


def test_a_dead_server_is_started_again(server):
    capture_isolated("nested_cat_add")
    old = forkserver._SERVER
    old.proc.kill()
    old.proc.wait()
    assert capture_isolated("nested_cat_add").kernels
    assert forkserver._SERVER is not old


def test_fresh_env_turns_the_server_off(_module_server, monkeypatch):
    forkserver.shutdown()
    monkeypatch.setenv(forkserver.FRESH_ENV, "1")
    assert capture_isolated("nested_cat_add").kernels
    assert forkserver._SERVER is None


def test_what_the_interpreter_prints_is_not_read_as_a_reply(server, tmp_path, monkeypatch):
    # A start-up hook that prints to stdout (sitecustomize) writes into the protocol's pipe before the server
    # can move the protocol off fd 1: the parent reads only marked lines.
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text('print("hello from sitecustomize")\nprint("{\\"exit\\": 0}")\n')
    before = _facts(capture_isolated("nested_cat_add"))
    monkeypatch.setenv("PYTHONPATH", str(hook))
    assert _facts(capture_isolated("nested_cat_add")) == before


# -- found by the red team (2026-12-06): each fails on the first version of the server ---------------------------


def test_a_child_has_the_interpreters_own_signal_dispositions(server, program_file):
    # Python ignores SIGPIPE (a write to a closed pipe is a BrokenPipeError the program may catch); a child
    # with SIGPIPE at its default was killed instead.
    f = program_file("sigpipe", """
        import os, torch
        r, w = os.pipe()
        os.close(r)
        try:
            os.write(w, b"x")
        except BrokenPipeError:
            pass
        def program(x):
            return x * 2
        def example_inputs():
            return (torch.randn(4, 3),)
    """)
    assert _facts(capture_isolated(f)) == _facts(capture_isolated(f, fresh=True))


def test_a_childs_sys_path_starts_at_its_own_folder(server, program_file):
    # `python -m` puts the cwd (the capture's private folder) first; a child that inherited the server's
    # /tmp there could import whatever anyone left in /tmp.
    f = program_file("syspath", """
        import os, sys, torch
        if sys.path[0] != os.getcwd():
            raise RuntimeError(f"sys.path[0] is {sys.path[0]!r}, the cwd {os.getcwd()!r}")
        def program(x):
            return x * 2
        def example_inputs():
            return (torch.randn(4, 3),)
    """)
    assert capture_isolated(f).kernels
    assert capture_isolated(f, fresh=True).kernels


def test_a_server_that_dies_during_a_capture_does_not_run_it_twice(server, tmp_path, program_file):
    runs = tmp_path / "runs.txt"
    f = program_file("killserver", f"""
        import os, signal, torch
        with open({str(runs)!r}, "a") as fh:
            fh.write("ran\\n")
        os.kill(os.getppid(), signal.SIGKILL)
        def program(x):
            return x * 2
        def example_inputs():
            return (torch.randn(4, 3),)
    """)
    with pytest.raises(CaptureError, match="capture server died while a capture ran"):
        capture_isolated(f)
    assert runs.read_text() == "ran\n"
    assert capture_isolated("nested_cat_add").kernels  # a new server
