"""Timing harness for remote GPUs, run records and paired statistics.

``plan`` (pre-registered plans and their hash, the order schedule) -> ``harness`` (compile variants, check
against eager, time blocks, telemetry) -> ``records`` (versioned JSON) -> ``stats`` (paired ratios,
percentile bootstrap, decision) -> ``report`` and ``figures``. See ``docs/bench.md``.
"""
