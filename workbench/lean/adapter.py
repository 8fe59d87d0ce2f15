"""From files to ``LeanInstance``: our own JSON, and (when it exists) the checker's certificate.

Stage: prove. ``instance_from_file`` dispatches on the file's ``schema``:

* ``workbench.lean_instance/1``: read by ``workbench.lean.instance.from_json``;
* ``workbench.captured_kernel/*``: refused by name (a captured kernel carries no certificate);
* a certificate of ``workbench.check``: mapped by ``from_certificate``.

``from_certificate`` needs, per certificate (see docs/lean.md, "Certificate adapter"): the kernel name and
canonical hash; the shape symbols with their lower bounds; the guards as polynomials (or inequalities);
each size argument's name, position in the kernel signature, declared type, symbolic expression and
whether it is narrowed; the side conditions as polynomials ``>= 0`` with reason and origin; the verdict
and mode; and the kernel's loads (pointer, offset term, mask term, ``other``) and store (pointer, offset,
mask, payload) as ``workbench.kir`` terms, whose integer ops map one-to-one onto ``TermOp``.
"""

from __future__ import annotations

import json
from pathlib import Path

from workbench.errors import UsageError
from workbench.lean.errors import InstanceError
from workbench.lean.instance import SCHEMA, LeanInstance, from_json


def instance_from_file(path: Path) -> LeanInstance:
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as exc:
        raise InstanceError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}); give a lean_instance or certificate file") from exc
    schema = str(data.get("schema", "")) if isinstance(data, dict) else ""
    if schema == SCHEMA:
        return from_json(data, str(path))
    if schema.startswith("workbench.captured_kernel"):
        raise UsageError(
            f"{path} is a captured kernel ({schema}), not a certificate: the Lean emitter needs the checker's "
            f"certificate; run `workbench check {path} --json` and emit from its certificate, or emit a hand-built "
            "instance by NAME"
        )
    return from_certificate(data, str(path))


def from_certificate(data: dict, where: str) -> LeanInstance:
    """Map a ``workbench.check`` certificate onto a ``LeanInstance``.

    The certificate format is being built concurrently in ``workbench/check``; until it is importable the
    mapping refuses by name, saying what it needs."""
    try:
        from workbench.check import certificate as _cert  # noqa: F401  (exists once issue 4 lands)
    except ImportError:
        raise InstanceError(
            f"{where}: schema {data.get('schema')!r} is not {SCHEMA!r} and workbench.check's certificate module is not "
            "available yet, so this file cannot be mapped to a Lean instance; the adapter needs kernel name and hash, "
            "symbols with lower bounds, guards, size arguments (name, index, type, expression, narrowed), side "
            "conditions (polynomial >= 0, reason, origin) and the kernel's loads and store as IR terms "
            "(docs/lean.md, 'Certificate adapter')"
        ) from None
    raise InstanceError(  # pragma: no cover - reached only once workbench.check exists but is not mapped yet
        f"{where}: workbench.check certificates are not mapped yet; see docs/lean.md, 'Certificate adapter'"
    )
