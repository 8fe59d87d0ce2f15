"""What measures a block: NVML telemetry on a background thread and the timers (CUDA events, or none).

Stage: bench (run). :class:`Telemetry` samples power, power limit, clocks, temperature and throttle reasons
while a process runs; ``available`` is False with the reason when NVML cannot be used. ``_CudaTimer`` brackets
calls with CUDA events; ``_NoTimer`` is the dry run's: the interpreter's speed says nothing about a GPU.
"""

from __future__ import annotations

import threading
import time
from typing import Any


# ------------------------------------------------------------------------------------------- telemetry
class Telemetry:
    """NVML samples on a background thread: (t, power W, power limit W, SM MHz, memory MHz, temperature C,
    throttle-reason bitmask). ``available`` is False with a ``reason`` when NVML cannot be used."""

    def __init__(self, interval_s: float, device_index: int = 0):
        self.interval_s = interval_s
        self.samples: list[dict[str, Any]] = []
        self.available = False
        self.reason = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        try:
            import pynvml  # nvidia-ml-py

            pynvml.nvmlInit()
            self._nvml = pynvml
            self._handle = pynvml.nvmlDeviceGetHandleByIndex(device_index)
            self.available = True
            self.driver = _s(pynvml.nvmlSystemGetDriverVersion())
        except Exception as exc:  # ImportError, or NVML present but unusable (container without the library)
            self.reason = f"NVML unavailable: {type(exc).__name__}: {exc}"
            self.driver = None

    def sample(self) -> dict[str, Any]:
        n, h = self._nvml, self._handle
        s: dict[str, Any] = {"t": time.time()}
        for key, fn in (
            ("power_w", lambda: n.nvmlDeviceGetPowerUsage(h) / 1000.0),
            ("power_limit_w", lambda: n.nvmlDeviceGetEnforcedPowerLimit(h) / 1000.0),
            ("sm_clock_mhz", lambda: n.nvmlDeviceGetClockInfo(h, n.NVML_CLOCK_SM)),
            ("mem_clock_mhz", lambda: n.nvmlDeviceGetClockInfo(h, n.NVML_CLOCK_MEM)),
            ("max_sm_clock_mhz", lambda: n.nvmlDeviceGetMaxClockInfo(h, n.NVML_CLOCK_SM)),
            ("temperature_c", lambda: n.nvmlDeviceGetTemperature(h, n.NVML_TEMPERATURE_GPU)),
            ("throttle_reasons", lambda: int(n.nvmlDeviceGetCurrentClocksThrottleReasons(h))),
        ):
            try:
                s[key] = fn()
            except Exception:
                s[key] = None
        # bit 0x4 is "SW power cap" in NVML's clocks-throttle-reasons mask
        tr = s.get("throttle_reasons")
        s["power_capped"] = None if tr is None else bool(tr & 0x4)
        return s

    def start(self) -> None:
        if not self.available:
            return

        def loop() -> None:
            while not self._stop.is_set():
                self.samples.append(self.sample())
                self._stop.wait(self.interval_s)

        self._thread = threading.Thread(target=loop, daemon=True)
        self._thread.start()

    def stop(self) -> dict[str, Any]:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
        return {"available": self.available, "reason": self.reason, "interval_s": self.interval_s, "samples": self.samples}


def _s(v: Any) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


# ------------------------------------------------------------------------------------------------ timers
class _CudaTimer:
    def __init__(self) -> None:
        import torch

        self.torch = torch

    def event(self) -> Any:
        e = self.torch.cuda.Event(enable_timing=True)
        e.record()
        return e

    def sync(self) -> None:
        self.torch.cuda.synchronize()

    @staticmethod
    def ms(a: Any, b: Any) -> float:
        return float(a.elapsed_time(b))


class _NoTimer:
    """The dry run's timer: nothing is timed on the interpreter (its speed says nothing about a GPU)."""

    def event(self) -> None:
        return None

    def sync(self) -> None:
        pass

    @staticmethod
    def ms(a: Any, b: Any) -> None:
        return None
