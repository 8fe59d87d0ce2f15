"""Developer command: write every red-team case's record (``<name>.json`` + ``<name>.py``) under its folder.

    PYTHONPATH=. python tests/adversarial/redteam/materialise.py
"""
import json

from redteam_cases import ALL, directory

for case in ALL:
    d = directory(case)
    d.mkdir(parents=True, exist_ok=True)
    got = case.make()
    if case.raw:
        (d / "triton_poi_fused_repeat_0.json").write_text(got)
        continue
    (d / f"{got['name']}.json").write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    (d / f"{got['name']}.py").write_text(got["source"])
print(f"{len(ALL)} cases written")
