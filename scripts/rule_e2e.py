"""The rule end to end over every registered program, in every mode (issue 23 item 5).

For each program and each of strict / observable / partial: ``torch.compile(fn, dynamic=True)`` under
``workbench.capture.integration.cpu_interpreter()`` (Inductor's Triton CPU route, Triton's interpreter, integer
scalars in their declared types) inside ``workbench.rule.narrowing(store, mode)``, at the program's registered
shapes (its ``tiny`` sequence), compared bitwise with eager. Integer inputs hold values over a wide range
(negative and beyond int32) except index inputs, which stay valid. Prints one line per (program, mode) and a
summary; exits 1 on any difference.

    .venv/bin/python scripts/rule_e2e.py [NAME ...] [--out FILE.json]

Slow (minutes per program): a developer command, not a test; tests/rule/test_rule_compiled.py runs the
integer-data programs and tests/rule/test_rule_binding.py / test_rule_partial_apply.py report 1's programs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def _inputs(p, sizes, seed):
    import torch

    gen = torch.Generator().manual_seed(seed)
    ins = list(p.make_inputs(sizes, seed=seed))
    for i, t in enumerate(ins):
        if t.dtype in (torch.int64, torch.int32) and not p.name.startswith(("embedding", "index", "gather",
                                                                              "int_gather")):
            info = torch.iinfo(t.dtype)
            lo, hi = max(info.min, -(2**40)), min(info.max, 2**40)
            ins[i] = torch.randint(lo, hi, t.shape, generator=gen, dtype=t.dtype)
        elif p.name == "int_gather_div" and t.dtype == torch.int64:
            ins[i] = torch.randint(0, 3 * ins[0].shape[0], t.shape, generator=gen, dtype=torch.int64)
    return tuple(ins)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    import torch

    from workbench import programs
    from workbench.capture.integration import cpu_interpreter
    from workbench.paths import KERNELS
    from workbench.rule import load_store, narrowing

    names = args.names or programs.names()
    stores = {m: load_store(KERNELS, m) for m in ("strict", "observable", "partial")}
    rows, bad = [], 0
    for name in names:
        p = programs.get(name)
        for mode, store in stores.items():
            t0 = time.time()
            row = {"program": name, "mode": mode}
            try:
                torch._dynamo.reset()
                with cpu_interpreter(), narrowing(store, mode=mode) as decisions:
                    f = torch.compile(p.fn, dynamic=True)
                    diffs = 0
                    shapes = p.shape_sequence("tiny") if "tiny" in p.shapes else (p.example,)
                    for i, sz in enumerate(shapes):
                        ins = _inputs(p, sz, i)
                        out, ref = f(*ins), p.fn(*ins)
                        outs = out if isinstance(out, (tuple, list)) else (out,)
                        refs = ref if isinstance(ref, (tuple, list)) else (ref,)
                        for o, r in zip(outs, refs):
                            same = o.dtype == r.dtype and o.shape == r.shape and torch.equal(
                                o.contiguous().view(torch.uint8) if o.dtype.is_floating_point else o,
                                r.contiguous().view(torch.uint8) if r.dtype.is_floating_point else r)
                            diffs += not same
                row.update(shapes=len(shapes), bound=sum(b.bound for b in decisions.bindings),
                           kernels=len(decisions.bindings), differing_outputs=diffs)
                row["verdict"] = "equal" if diffs == 0 else "DIFFERENT"
            except Exception as exc:  # noqa: BLE001 - a program the CPU route cannot run is reported, not hidden
                row.update(verdict="not run", reason=f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
            finally:
                torch._dynamo.reset()
            row["seconds"] = round(time.time() - t0, 1)
            bad += row["verdict"] == "DIFFERENT"
            rows.append(row)
            print(json.dumps(row), flush=True)
    summary = {m: {v: sum(r["mode"] == m and r["verdict"] == v for r in rows) for v in ("equal", "DIFFERENT", "not run")}
               for m in stores}
    print(json.dumps({"summary": summary}), flush=True)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"rows": rows, "summary": summary}, fh, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
