#!/usr/bin/env python3
"""A scripted stand-in for ``lake serve`` that speaks the Lean language-server protocol over stdio.

Real protocol, fake elaboration: Content-Length framing, ``initialize``/``initialized``,
``textDocument/didOpen``/``didChange``/``didClose``, ``textDocument/waitForDiagnostics`` (answered when the
document's version is elaborated), ``textDocument/publishDiagnostics``, ``$/lean/fileProgress``,
``$/lean/plainGoal``, ``$/lean/plainTermGoal``, ``$/cancelRequest``, ``shutdown``/``exit``.

Elaboration is a deterministic reading of the text: a line containing ``sorry`` gets the warning
"declaration uses 'sorry'", a line containing ``ERROR`` an error. Inside a ``by`` block the goal at a
position has the theorem's binders as hypotheses plus every ``have NAME : T`` before the position, and the
statement as target; at or after the end of the block's last line there are no goals; outside a proof the
answer is null.

Scenario (argv[1]): ``happy``; ``slow`` (elaboration takes FAKE_LEAN_DELAY seconds); ``crash`` (dies on the
first plainGoal after writing a panic to stderr); ``malformed`` (answers the first plainGoal with a body
that is not JSON). FAKE_LEAN_LOG names a file that receives one JSON line per message received.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time

SCENARIO = sys.argv[1] if len(sys.argv) > 1 else "happy"
DELAY = float(os.environ.get("FAKE_LEAN_DELAY", "3"))
LOG = os.environ.get("FAKE_LEAN_LOG")
OUT = sys.stdout.buffer
WRITE_LOCK = threading.Lock()
DOCS: dict[str, dict] = {}  # uri -> {"text", "version", "done"}
WAITERS: list[tuple[object, str, int]] = []  # (request id, uri, version)
STATE_LOCK = threading.Lock()


def log(msg: dict) -> None:
    if LOG:
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps({"method": msg.get("method"), "id": msg.get("id"), "params": msg.get("params")}) + "\n")


def send(payload: dict) -> None:
    body = json.dumps(payload).encode()
    with WRITE_LOCK:
        OUT.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        OUT.flush()


def send_raw(data: bytes) -> None:
    with WRITE_LOCK:
        OUT.write(data)
        OUT.flush()


def read_message() -> dict | None:
    length = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    body = sys.stdin.buffer.read(length or 0)
    return json.loads(body)


def rng(line: int, c0: int, c1: int) -> dict:
    return {"start": {"line": line, "character": c0}, "end": {"line": line, "character": c1}}


def elaborate(uri: str, version: int) -> None:
    doc = DOCS[uri]
    lines = doc["text"].splitlines()
    send({"jsonrpc": "2.0", "method": "$/lean/fileProgress",
          "params": {"textDocument": {"uri": uri, "version": version},
                     "processing": [{"range": rng(0, 0, 0) | {"end": {"line": len(lines), "character": 0}}, "kind": 1}]}})
    if SCENARIO == "slow":
        time.sleep(DELAY)
    diags = []
    for i, line in enumerate(lines):
        if "sorry" in line and not line.lstrip().startswith("--"):
            c = line.index("sorry")
            diags.append({"range": rng(i, c, c + 5), "severity": 2, "message": "declaration uses 'sorry'", "source": "Lean 4"})
        if "ERROR" in line:
            c = line.index("ERROR")
            diags.append({"range": rng(i, c, c + 5), "severity": 1, "message": "unknown identifier 'ERROR'", "source": "Lean 4"})
    with STATE_LOCK:
        if doc["version"] != version:
            return  # superseded by a newer didChange
        send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
              "params": {"uri": uri, "version": version, "diagnostics": diags}})
        send({"jsonrpc": "2.0", "method": "$/lean/fileProgress",
              "params": {"textDocument": {"uri": uri, "version": version}, "processing": []}})
        doc["done"] = version
        ready = [w for w in WAITERS if w[1] == uri and w[2] <= version]
        for w in ready:
            WAITERS.remove(w)
    for req_id, _, _ in ready:
        send({"jsonrpc": "2.0", "id": req_id, "result": {}})


DECL = re.compile(r"^(\s*)(theorem|lemma)\s+(\S+)")


def goals_at(text: str, line: int, col: int) -> dict | None:
    lines = text.splitlines()
    start = None
    for i in range(min(line, len(lines) - 1), -1, -1):
        if DECL.match(lines[i]):
            start = i
            break
    if start is None:
        return None
    header = []
    by_line = None
    for j in range(start, len(lines)):
        header.append(lines[j])
        if re.search(r":=\s*by\s*$", lines[j]):
            by_line = j
            break
    if by_line is None or line <= by_line:
        return None
    block_end = by_line
    for j in range(by_line + 1, len(lines)):
        if lines[j].strip() and not lines[j].startswith(" "):
            break
        if lines[j].strip():
            block_end = j
    if line > block_end + 1:
        return None
    sig = " ".join(h.strip() for h in header)
    sig = re.sub(r":=\s*by\s*$", "", sig)
    binders = re.findall(r"\(([^()]+?) : ([^()]+?)\)", sig)
    target = sig.rsplit(") :", 1)[-1].strip() if ") :" in sig else sig.split(":", 1)[-1].strip()
    hyps = [f"{n} : {t}" for n, t in binders]
    for j in range(by_line + 1, min(line, block_end) + 1):
        m = re.match(r"\s*have (\w+) : (.+?) :=", lines[j])
        if m and (j < line or col >= len(lines[j].rstrip())):
            hyps.append(f"{m.group(1)} : {m.group(2)}")
    if line == block_end and col >= len(lines[block_end].rstrip()) or line > block_end:
        return {"goals": [], "rendered": "no goals"}
    goal = "\n".join(hyps + [f"⊢ {target}"])
    return {"goals": [goal], "rendered": f"```lean\n{goal}\n```"}


def handle(msg: dict) -> None:
    method, req_id, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": req_id, "result": {
            "capabilities": {"textDocumentSync": {"openClose": True, "change": 1}, "hoverProvider": True},
            "serverInfo": {"name": "fake-lean", "version": "4.24.0"}}})
    elif method in ("initialized", "workspace/didChangeWatchedFiles", "$/setTrace"):
        pass
    elif method == "textDocument/didOpen":
        td = params["textDocument"]
        with STATE_LOCK:
            DOCS[td["uri"]] = {"text": td["text"], "version": td["version"], "done": None}
        threading.Thread(target=elaborate, args=(td["uri"], td["version"]), daemon=True).start()
    elif method == "textDocument/didChange":
        td = params["textDocument"]
        with STATE_LOCK:
            doc = DOCS[td["uri"]]
            doc["text"] = params["contentChanges"][-1]["text"]
            doc["version"] = td["version"]
        threading.Thread(target=elaborate, args=(td["uri"], td["version"]), daemon=True).start()
    elif method == "textDocument/didClose":
        DOCS.pop(params["textDocument"]["uri"], None)
    elif method == "textDocument/waitForDiagnostics":
        uri, version = params["uri"], params["version"]
        with STATE_LOCK:
            doc = DOCS.get(uri)
            done = doc is not None and doc["done"] is not None and doc["done"] >= version
            if not done:
                WAITERS.append((req_id, uri, version))
        if done:
            send({"jsonrpc": "2.0", "id": req_id, "result": {}})
    elif method == "$/cancelRequest":
        with STATE_LOCK:
            gone = [w for w in WAITERS if w[0] == params.get("id")]
            for w in gone:
                WAITERS.remove(w)
        for w in gone:
            send({"jsonrpc": "2.0", "id": w[0], "error": {"code": -32800, "message": "request cancelled"}})
    elif method == "$/lean/plainGoal":
        if SCENARIO == "crash":
            sys.stderr.write("INTERNAL PANIC: simulated worker crash at Lean.Server.FileWorker\n")
            sys.stderr.flush()
            time.sleep(0.3)
            os._exit(1)
        if SCENARIO == "malformed":
            send_raw(b"Content-Length: 13\r\n\r\n{not: json!!}")
            return
        doc = DOCS[params["textDocument"]["uri"]]
        pos = params["position"]
        send({"jsonrpc": "2.0", "id": req_id, "result": goals_at(doc["text"], pos["line"], pos["character"])})
    elif method == "$/lean/plainTermGoal":
        doc = DOCS[params["textDocument"]["uri"]]
        pos = params["position"]
        inside = goals_at(doc["text"], pos["line"], pos["character"])
        result = None if inside is None else {"goal": "⊢ Int", "range": rng(pos["line"], pos["character"], pos["character"] + 1)}
        send({"jsonrpc": "2.0", "id": req_id, "result": result})
    elif method == "shutdown":
        send({"jsonrpc": "2.0", "id": req_id, "result": None})
    elif method == "exit":
        os._exit(0)
    elif req_id is not None:
        send({"jsonrpc": "2.0", "id": req_id, "error": {"code": -32601, "message": f"method not found: {method}"}})


def main() -> None:
    sys.stderr.write(f"fake-lean: scenario {SCENARIO}\n")
    sys.stderr.flush()
    while True:
        msg = read_message()
        if msg is None:
            return
        log(msg)
        handle(msg)


if __name__ == "__main__":
    main()
