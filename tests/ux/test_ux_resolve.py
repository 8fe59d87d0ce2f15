"""workbench.resolve without capturing anything: names, folders and files resolve to the shipped records,
certificates find their records and refuse stale ones, and outputs only ever land in the workspace."""

from __future__ import annotations

import json
import shutil

import pytest

from workbench import resolve
from workbench.cli import main
from workbench.errors import InputError, UsageError
from workbench.paths import KERNELS

TILE = KERNELS / "tile" / "triton_poi_fused_repeat_0.json"


def test_name_folder_record_and_source_resolve_to_the_same_record(tmp_path):
    by = {t: resolve.records(str(t), tmp_path) for t in ("tile", KERNELS / "tile", TILE, TILE.with_suffix(".py"))}
    assert {tuple(loc.path for loc in v) for v in by.values()} == {(TILE,)}


def test_the_workspace_shadows_the_shipped_corpus(tmp_path):
    mine = tmp_path / "kernels" / "tile"
    mine.mkdir(parents=True)
    shutil.copy(TILE, mine / TILE.name)
    (loc,) = resolve.records("tile", tmp_path)
    assert loc.path == mine / TILE.name


def test_check_saves_a_certificate_that_lean_and_resolve_read_back(tmp_path, capsys):
    assert main(["check", "tile", "--mode", "observable", "--workspace", str(tmp_path)]) == 0
    cert = tmp_path / "certificates" / "tile" / "triton_poi_fused_repeat_0.observable.json"
    assert "certificates saved in" in capsys.readouterr().out
    (lc,) = resolve.certificates(str(cert), tmp_path)
    assert lc.certificate.certified and lc.record.path == TILE and lc.path == cert
    # the folder of certificates resolves to the records they were issued for
    assert [loc.path for loc in resolve.records(str(cert.parent), tmp_path)] == [TILE]
    # a stale certificate (its kernel changed since) is refused by name, never emitted
    stale = json.loads(cert.read_text())
    stale["ir_hash"] = "0" * 64
    bad = tmp_path / "stale.json"
    bad.write_text(json.dumps(stale))
    assert main(["lean", "emit", str(bad), "--out", str(tmp_path / "lean"), "--workspace", str(tmp_path)]) == 2
    assert "IR hash" in capsys.readouterr().out


def test_a_record_outside_every_kernel_root_is_copied_beside_its_certificate(tmp_path):
    outside = tmp_path / "elsewhere" / "mine"
    outside.mkdir(parents=True)
    shutil.copy(TILE, outside / TILE.name)
    ws = tmp_path / "ws"
    assert main(["check", str(outside), "--mode", "observable", "--workspace", str(ws)]) == 0
    assert (ws / "kernels" / "mine" / TILE.name).is_file()
    (lc,) = resolve.certificates(str(ws / "certificates" / "mine"), ws)
    assert lc.record.path == ws / "kernels" / "mine" / TILE.name


@pytest.mark.parametrize("target, error, message", [
    ("no_such_program", UsageError, "`workbench list` shows the programs"),
    ("tile2", UsageError, "no captured program 'tile2'"),
])
def test_unknown_names(tmp_path, target, error, message):
    with pytest.raises(error, match=message):
        resolve.records(target, tmp_path)


def test_a_json_that_is_neither_record_nor_certificate(tmp_path):
    other = tmp_path / "plan.json"
    other.write_text(json.dumps({"schema": "workbench.plan/1"}))
    with pytest.raises(InputError, match="neither a kernel record nor a certificate"):
        resolve.records(str(other), tmp_path)


def test_user_programs_get_a_folder_of_their_own():
    from workbench.programs import get

    class UserProgram:
        name, origin = "tile", "/tmp/tile.py"

    assert resolve.folder_for(get("tile")) == "tile"
    assert resolve.folder_for(UserProgram()) == "file-tile"


def test_check_json_output_chains_to_lean_emit(tmp_path, capsys):
    main(["check", "tile", "--json", "--workspace", str(tmp_path)])
    out = tmp_path / "check.json"
    out.write_text(capsys.readouterr().out)
    found = resolve.certificates(str(out), tmp_path)
    assert {lc.certificate.mode for lc in found} == {"strict", "observable"}
    assert main(["lean", "emit", str(out), "--out", str(tmp_path / "lean"), "--workspace", str(tmp_path)]) == 0
    assert len(list((tmp_path / "lean").glob("*.lean"))) >= 1


def test_the_kernel_id_and_program_slash_kernel_name_one_kernel(tmp_path, capsys):
    from workbench.capture import load
    from workbench.capture.show import kernel_id

    kid = kernel_id(load(TILE))
    assert [loc.path for loc in resolve.records(kid, tmp_path)] == [TILE]
    assert [loc.path for loc in resolve.records("tile/triton_poi_fused_repeat_0", tmp_path)] == [TILE]
    assert main(["show", kid, "--workspace", str(tmp_path)]) == 0
    assert f"id       {kid}" in capsys.readouterr().out
