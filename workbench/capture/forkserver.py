"""A capture server: one interpreter that has imported what every capture imports, forking a child per capture.

Stage: capture (the process around it). :func:`workbench.capture.isolated.capture_isolated` runs each capture
in a child process, so that a model's crash or Inductor's process-wide state never reaches the next one. A fresh
interpreter pays torch's, Dynamo's and Inductor's imports for every model (about 4 s of CPU on the 2-core
machine, a quarter of resnet18's capture). This server pays them once: it imports :data:`PRELOAD` and the
installed :data:`MODEL_LIBRARIES`, computes two values that depend on the installed files alone (:func:`_warm`)
and does nothing else (it compiles nothing, traces nothing, creates no tensor), then forks one child per
capture. The child starts from that interpreter, runs the same ``isolated.main`` a fresh interpreter runs,
writes its result file and exits; the server reaps it. What isolation gave is kept: a crash, a signal or a
timeout ends that child only, and nothing a capture does outlives it.

Why the preloading cannot change a capture: ``workbench capture`` and the tests capture in-process after all of
these are imported, and the capture hooks forget the device answer Inductor caches (``has_triton``) on entry
(``hooks.private_caches``); device-dependent values are never computed in the server.
``tests/foundation/test_forkserver.py`` compares records captured both ways, inference and a training step;
the 502 records of the default zoo captured through the server are byte-identical to the shipped ones, which
fresh interpreters captured (docs/zoo.md, Throughput). ``benchmarks/zoo.py --compare`` times both paths.

Kept current: a server is replaced when the interpreter, the environment, any workbench source file (by content)
or the installed code changed since it started (:func:`workbench.capture.cache.inputs_digest`, the capture
cache's own digest: a long notebook session that edits the workbench gets a new one, and a capture the cache
keeps is always one the code its key describes produced). ``WORKBENCH_CAPTURE_FRESH=1``
turns the server off (each capture a fresh interpreter, as before).

Protocol, one JSON object per line after :data:`MARK`. Server -> parent: ``{"ready": seconds}`` once the
imports are done. Parent -> server: ``{"argv": [...], "cwd": DIR, "stderr": FILE}``. Server -> parent:
``{"pid": N}`` when the child is forked, then ``{"exit": code}`` when it is reaped (negative: killed by that
signal, as ``subprocess`` reports).
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from workbench.errors import CaptureError

# What every capture imports before it compiles anything (capture_run's own imports, the hooks' torch and
# triton, Dynamo and Inductor's compile path); importing them is all the server does.
PRELOAD = (
    "torch",
    "triton",
    "sympy",
    "torch._dynamo",
    "torch._inductor.compile_fx",
    "torch._inductor.graph",
    "torch._inductor.scheduler",
    "torch._inductor.codegen.triton",
    "torch._inductor.fx_passes.post_grad",
    "torch._inductor.fx_passes.joint_graph",
    "torch._subclasses.fake_tensor",
    "torch._functorch.aot_autograd",
    "workbench.capture",
    "workbench.capture.hooks",
    "workbench.capture.isolated",
)
MARK = b"\x00workbench-capture-server "  # every protocol line starts with it
# The model libraries, when installed: most zoo models import one of them, transformers' shared modules cost
# about 2 s per child on the 2-core machine. Importing them changes no capture of a program that does not use
# them (in-process capture already runs after them: the tests, a notebook); tests/foundation/test_forkserver.py
# compares records captured both ways.
MODEL_LIBRARIES = ("torchvision.models", "transformers.modeling_utils")
READY_TIMEOUT = 300.0  # seconds for the imports; a server that is not ready by then is not used
FRESH_ENV = "WORKBENCH_CAPTURE_FRESH"


# -- the parent's side --------------------------------------------------------------------------------------


def _key(env: dict[str, str], inputs: str | None = None) -> tuple:
    """What a server's captures depend on besides the request: the interpreter, the environment, and the code it
    imports (:func:`workbench.capture.cache.inputs_digest`: the workbench's sources by content, the installed
    distributions and libraries' files), so that the code that captures is the code the capture cache's key
    describes."""
    from workbench.capture import cache

    # The capture cache's folder is the parent's business (a child never reads it): not a reason for a new server.
    env_items = tuple(sorted((k, v) for k, v in env.items() if k != cache.CACHE_ENV))
    return sys.executable, env_items, inputs if inputs is not None else cache.inputs_digest()


class _Lines:
    """Lines from a pipe, read with a deadline (``select`` on the raw descriptor: no buffered reader between)."""

    def __init__(self, fd: int):
        self.fd, self.buf = fd, b""

    def next(self, deadline: float | None) -> dict | None:
        """The next protocol line (:data:`MARK`, then JSON; anything else on the pipe, such as what an
        interpreter start-up hook printed before the server moved the protocol off fd 1, is skipped); ``None``
        at end of file. Raises :class:`TimeoutError` past ``deadline``."""
        while True:
            while b"\n" not in self.buf:
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                ready, _, _ = select.select([self.fd], [], [], wait)
                if not ready:
                    raise TimeoutError
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    return None
                self.buf += chunk
            line, self.buf = self.buf.split(b"\n", 1)
            if line.startswith(MARK):
                return json.loads(line[len(MARK):])


class CaptureServer:
    """One running server (see the module docstring). Not shared between threads: :func:`run` locks."""

    def __init__(self, env: dict[str, str], key: tuple):
        self.key = key  # _key(env) when it started: the server is current while that is unchanged
        self.log = tempfile.NamedTemporaryFile(prefix="workbench-capture-server-", suffix=".log", delete=False)
        self.home = tempfile.mkdtemp(prefix="workbench-capture-server-")  # an empty cwd: nothing to import there
        # -P: the server's cwd is not on its sys.path; each child puts its own cwd first, as `python -m` does
        self.proc = subprocess.Popen([sys.executable, "-P", "-m", "workbench.capture.forkserver"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                     cwd=self.home)
        self.lines = _Lines(self.proc.stdout.fileno())
        try:
            ready = self.lines.next(time.monotonic() + READY_TIMEOUT)
        except TimeoutError:
            ready = None
        if not ready or "ready" not in ready:
            self.close()
            raise CaptureError(f"the capture server did not start (its log ends: {self._log_tail()})")
        self.import_seconds = float(ready["ready"])

    def _log_tail(self) -> str:
        try:
            return Path(self.log.name).read_text(errors="replace")[-600:].strip() or "(empty)"
        except OSError:
            return "(unreadable)"

    def alive(self) -> bool:
        return self.proc.poll() is None

    def run(self, argv: list[str], cwd: str, stderr: str, timeout: float) -> int:
        """Run ``python -m workbench.capture.isolated ARGV`` in a forked child; its exit code (negative for a
        signal). Raises :class:`subprocess.TimeoutExpired` after killing a child that ran past ``timeout``,
        :class:`BrokenPipeError` if the server is gone before it forked (the caller may start another),
        :class:`CaptureError` if it died after (the program ran: it is not run twice)."""
        request = MARK + json.dumps({"argv": argv, "cwd": cwd, "stderr": stderr}).encode() + b"\n"
        try:
            self.proc.stdin.write(request)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise BrokenPipeError(f"the capture server is gone ({exc})") from None
        deadline = time.monotonic() + timeout
        started = self.lines.next(time.monotonic() + 60.0)
        if not started or "pid" not in started:
            raise BrokenPipeError("the capture server did not fork a child")
        pid = int(started["pid"])
        try:
            done = self.lines.next(deadline)
        except TimeoutError:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.lines.next(time.monotonic() + 60.0)  # the server reaps it and says so
            raise subprocess.TimeoutExpired(argv, timeout) from None
        if not done or "exit" not in done:  # not retried: the program has run (part way) already
            raise CaptureError(f"the capture server died while a capture ran (child {pid}); its log ends: "
                               f"{self._log_tail()}")
        return int(done["exit"])

    def close(self) -> None:
        try:
            if self.proc.stdin:
                self.proc.stdin.close()  # end of requests: the server exits
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        finally:
            if self.proc.stdout:
                self.proc.stdout.close()
            self.log.close()
            Path(self.log.name).unlink(missing_ok=True)
            shutil.rmtree(self.home, ignore_errors=True)


_LOCK = threading.Lock()
_SERVER: CaptureServer | None = None


def enabled() -> bool:
    return os.environ.get(FRESH_ENV, "") in ("", "0") and hasattr(os, "fork")


def run(argv: list[str], env: dict[str, str], cwd: str, stderr: str, timeout: float,
        inputs: str | None = None) -> int:
    """Run one capture child through this process's server (started, or replaced when stale, here; ``inputs``:
    :func:`workbench.capture.cache.inputs_digest`, when the caller computed it already)."""
    global _SERVER
    with _LOCK:
        key = _key(env, inputs)
        if _SERVER is not None and (_SERVER.key != key or not _SERVER.alive()):
            _SERVER.close()
            _SERVER = None
        for attempt in range(2):  # a server that died between captures is started again, once
            if _SERVER is None:
                _SERVER = CaptureServer(env, key)
            try:
                return _SERVER.run(argv, cwd, stderr, timeout)
            except CaptureError:  # it died while the child ran: a new server next time, the capture not rerun
                _SERVER.close()
                _SERVER = None
                raise
            except BrokenPipeError:
                _SERVER.close()
                _SERVER = None
                if attempt:
                    raise CaptureError("the capture server died twice in a row; set WORKBENCH_CAPTURE_FRESH=1 to "
                                       "capture in fresh interpreters instead") from None
        raise AssertionError("unreachable")


def shutdown() -> None:
    """Stop this process's server (at exit; also when a run is done with it)."""
    global _SERVER
    with _LOCK:
        if _SERVER is not None:
            _SERVER.close()
            _SERVER = None


atexit.register(shutdown)


# -- the server's side --------------------------------------------------------------------------------------


def _child(request: dict, protocol: tuple[int, int]) -> None:
    """In the forked child: become ``python -m workbench.capture.isolated ARGV``; never returns."""
    code = 1
    try:
        for fd in protocol:  # the protocol's pipes are the server's alone
            os.close(fd)
        # Signal dispositions stay the interpreter's own, inherited from the server: SIGPIPE ignored (a
        # BrokenPipeError instead), SIGINT a KeyboardInterrupt, as in a fresh interpreter.
        null = os.open(os.devnull, os.O_RDWR)
        err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.dup2(err, 2)
        os.close(null)
        os.close(err)
        os.chdir(request["cwd"])
        sys.path.insert(0, request["cwd"])  # what `python -m` puts first (the server itself runs with -P)
        import random

        # A fresh interpreter seeds these from the OS; a forked one would repeat the server's state. (torch's
        # default generator starts from a fixed seed in every interpreter: the server never drew from it.)
        random.seed()
        if "numpy.random" in sys.modules:
            sys.modules["numpy.random"].seed()
        import runpy

        # exactly what `python -m workbench.capture.isolated ARGV` runs (its module as __main__, which exits)
        sys.argv = ["workbench.capture.isolated", *request["argv"]]
        runpy.run_module("workbench.capture.isolated", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except KeyboardInterrupt:  # a fresh interpreter ends by SIGINT then
        sys.stderr.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    except BaseException:  # noqa: BLE001 - what an uncaught exception does in a fresh interpreter
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _warm() -> None:
    """Two one-time computations every capture makes, each a function of the installed files alone (about
    0.7 s of CPU a child would repeat): Triton's source hash (``triton_key``, in every kernel's backend hash),
    and the pattern matcher's patterns for the CPU device, which is where the fake CUDA device and the Triton
    CPU backend trace them (``joint_graph.lazy_init(cpu)``; it reads no Inductor config, only the device it is
    given, and is cached by that device). Device-dependent answers (``CacheBase.get_system``, ``has_triton``)
    are left for the child, under its own device."""
    import torch
    from torch._inductor import codecache
    from torch._inductor.fx_passes import joint_graph

    codecache.triton_key()
    joint_graph.lazy_init(torch.device("cpu"))


def serve() -> int:
    import importlib
    import importlib.util

    # The protocol moves off fds 0 and 1, so that nothing an import prints can reach the parent as a reply.
    proto_in, proto_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)

    def say(obj: dict) -> None:
        os.write(proto_out, MARK + json.dumps(obj).encode() + b"\n")

    t0 = time.perf_counter()
    for module in PRELOAD:
        importlib.import_module(module)
    from workbench.programs.torchvision_ops import ensure_importable

    for module in MODEL_LIBRARIES:
        try:
            ensure_importable(optional=True)  # a CPU build's torchvision needs its op schemas declared first
            if importlib.util.find_spec(module.split(".")[0]) is not None:
                importlib.import_module(module)
        except Exception:  # noqa: BLE001 - a broken library is the child's to report, for the model that uses it
            continue
    _warm()
    say({"ready": round(time.perf_counter() - t0, 3)})
    lines = _Lines(proto_in)
    while True:
        request = lines.next(None)
        if request is None:  # the parent is done (or gone): nothing to flush, so no interpreter tear-down
            os._exit(0)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request, (proto_in, proto_out))
        say({"pid": pid})
        _, status = os.waitpid(pid, 0)
        say({"exit": os.waitstatus_to_exitcode(status)})


if __name__ == "__main__":  # pragma: no cover - the server's entry point
    sys.exit(serve())
