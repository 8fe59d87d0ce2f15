"""Building red-team records: a real captured record (tile) with its kernel and facts replaced by hand.

Every record is written the way a user would hand it to ``workbench check``: the module keeps Inductor's
decorator with a ``triton_meta`` signature equal to the record's, and ``source_hash`` is recomputed with the
loader's own function, so the edit reaches the checker instead of the input-error path.
"""
from __future__ import annotations

import json
from pathlib import Path

from workbench.capture.record import source_hash
from workbench.paths import KERNELS

HEADER = '''import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import DeviceProperties

@triton_heuristics.pointwise(
    size_hints={{'x': 128}},
    filename=__file__,
    triton_meta={{'signature': {sig!r}, 'device': DeviceProperties(type='cuda', index=0), 'constants': {{}}}},
    inductor_meta={{'grid_type': 'Grid1D', 'kernel_name': '{name}'}},
    min_elem_per_thread=0
)
@triton.jit
'''


def record(name: str, body: str, signature: dict[str, str], size_args: dict[str, str], numels: dict[str, str],
           symbols: dict[str, int | None], guards: list[str], program: str = "redteam") -> dict:
    """A record dict: ``body`` is the ``def`` (parameters in signature order); ``symbols`` name -> lower."""
    d = json.loads((KERNELS / "tile/triton_poi_fused_repeat_0.json").read_text())
    d["name"], d["program"] = name, program
    d["source"] = HEADER.format(sig=signature, name=name) + body.strip("\n") + "\n"
    d["signature"] = dict(signature)
    d["size_args"] = [{"name": k, "expr": v, "type": signature[k]} for k, v in size_args.items()]
    d["numels"] = [{"name": k, "expr": v, "type": signature[k]} for k, v in numels.items()]
    d["symbols"] = [{"name": s, "lower": lo, "upper": None, "sources": [f"x.size({i}) (input 0)"]}
                    for i, (s, lo) in enumerate(symbols.items())]
    d["guards"] = list(guards)
    d["source_hash"] = source_hash(d["source"], name)
    return d


def write(d: dict, directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{d['name']}.json"
    path.write_text(json.dumps(d, indent=1, sort_keys=True))
    (directory / f"{d['name']}.py").write_text(d["source"])
    return path
