"""CLI: ``workbench zoo list``, ``workbench zoo run [--models a,b] [--jobs N] [--scheduler ADDRESS] --out DIR``,
``workbench zoo recheck --out DIR`` (the current checker over a run's kept records, no capture) and
``workbench zoo oracle [--training] --out DIR`` (the independent oracle over the kernels the run's verdicts certify)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import workbench.zoo.registry  # noqa: F401  (registers the zoo: namespace for every command: `capture zoo:NAME`)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("zoo", help="capture and check a zoo of real models (torch.nn, torchvision, transformers)")
    zsub = p.add_subparsers(dest="zoo_command", metavar="SUBCOMMAND")
    lp = zsub.add_parser("list", help="list the zoo's models")
    lp.add_argument("--all", action="store_true", help="also the opt-in models (e.g. llama_7b_dims)")
    lp.set_defaults(func=_list)
    rp = zsub.add_parser("run", help="capture every model, check each kernel in both modes, write zoo.json + zoo.md")
    rp.add_argument("--models", help="comma-separated model names and user model files FILE.py (model() or "
                    "program() form; default: the default zoo)")
    rp.add_argument("--all", action="store_true", help="also the opt-in models")
    rp.add_argument("--jobs", type=int, default=1, help="local worker processes (default 1)")
    rp.add_argument("--scheduler", metavar="ADDRESS",
                    help="run on an existing Dask cluster (tcp://HOST:PORT) instead of local processes")
    rp.add_argument("--out", help="output directory (default: the workspace's zoo/ folder)")
    rp.add_argument("--device", choices=["cuda", "fake-cuda"], default="cuda",
                    help="cuda: the real GPU if present, else the fake CUDA device (default)")
    rp.add_argument("--no-smt", action="store_true", help="exact procedure only (no z3) in the checker")
    rp.add_argument("--backward", action="store_true",
                    help="training steps: each model's forward and backward kernels (without a GPU on Inductor's "
                         "Triton CPU backend); the table gets forward and backward columns")
    rp.add_argument("--no-capture-cache", action="store_true",
                    help="capture every model anew, even one whose inputs are unchanged since a capture the "
                         "capture cache kept (docs/capture.md, Capture cache)")
    from workbench import workspace

    workspace.add_argument(rp)
    rp.set_defaults(func=_run)
    cp = zsub.add_parser("recheck", help="re-run the checker over a finished run's kept kernel records (no capture)")
    cp.add_argument("--models", help="comma-separated model names (default: every model of the run)")
    cp.add_argument("--out", help="the run's directory (default: the workspace's zoo/ folder)")
    cp.add_argument("--no-smt", action="store_true", help="exact procedure only (no z3) in the checker")
    workspace.add_argument(cp)
    cp.set_defaults(func=_recheck)
    op = zsub.add_parser("oracle", help="run the independent oracle over every kernel a zoo run's verdicts certify "
                         "(the table is built from the recorded verdicts, not rechecked); write oracle.json + .md")
    op.add_argument("--training", action="store_true", help="the training steps (DIR/train) instead of inference")
    op.add_argument("--models", help="comma-separated model names (default: every model of the run)")
    op.add_argument("--out", help="the zoo run's directory (default: the shipped zoo, data/zoo)")
    op.add_argument("--write", metavar="DIR", help="where oracle.json, oracle.md and the per-model results "
                    "(DIR/oracle/<step>/<model>.json) go (default: the --out directory when given, else the "
                    "workspace's zoo/ folder; `--write data/zoo` regenerates the shipped results)")
    op.add_argument("--jobs", type=int, default=1, help="interpreter worker processes per model (default 1)")
    op.add_argument("--seed", type=int, default=0, help="seed of the oracle's random shapes (default 0)")
    op.add_argument("--resume", action="store_true",
                    help="keep finished models whose table (and seed) is unchanged; run the others")
    op.add_argument("--unnarrowed", action="store_true",
                    help="also run certified kernels without a size argument (their narrowed text is the wide one)")
    op.add_argument("--json", action="store_true", help="print the summary (workbench.zoo_oracle/1, as written to "
                    "oracle.json) on stdout; the lines go to stderr")
    workspace.add_argument(op)
    op.set_defaults(func=_oracle)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _list(args) -> int:
    from workbench.zoo import registry

    for name in registry.names(all_models=args.all):
        m = registry.get(name)
        print(f"{name:26s} {m.source.value:13s} {m.description}")
    return 0


def _run(args) -> int:
    from workbench import progress
    from workbench.contract import exit_code
    from workbench.errors import UsageError
    from workbench.zoo import registry, report
    from workbench.zoo.runner import entries, load_results, model_key, run_zoo, training_dir

    names = registry.names(all_models=args.all)
    if args.models:
        names = [n.strip() for n in args.models.split(",") if n.strip()]
        if not names:
            raise UsageError("--models is empty; give comma-separated names (`workbench zoo list`) or FILE.py")
    todo = entries(names)  # user files as absolute paths; unknown names fail here
    names = [model_key(n) for n in todo]
    if args.out:
        out = Path(args.out)
    else:
        from workbench import workspace

        out = workspace.subdir("zoo", args.workspace)
    config = _config(out)
    config.update(device="fake-cuda:L4" if args.device == "fake-cuda" else "cuda (fake-cuda:L4 without a GPU)",
                  smt=not args.no_smt, models=list(dict.fromkeys([*config.get("models", []), *names])))
    if args.backward:
        config["training_device"] = "cuda, else Inductor's Triton CPU backend"
    bar = progress.Counter(len(names), "zoo" + (" (training steps)" if args.backward else ""), "model")
    counts = {"kernels": 0, "certified": 0, "failed": 0}

    def done(r, results):
        counts["kernels"] += len(r.kernels)
        counts["certified"] += sum(k.observable == "certified" for k in r.kernels)
        counts["failed"] += bool(r.error)
        bar.note(" ".join(f"{k}={v}" for k, v in counts.items()))
        bar.update(1)
        report.write(_document(out, config), out)

    where = training_dir(out) if args.backward else out
    previous = load_results(where) if where.is_dir() else {}
    already = [n for n in names if n in previous]
    for n in already:  # the bar's counts include what a previous run finished
        counts["kernels"] += len(previous[n].kernels)
        counts["certified"] += sum(k.observable == "certified" for k in previous[n].kernels)
        counts["failed"] += bool(previous[n].error)
    bar.note(" ".join(f"{k}={v}" for k, v in counts.items()))
    bar.update(len(already))
    results = run_zoo(todo, out, jobs=args.jobs, scheduler=args.scheduler, device=args.device,
                      smt=not args.no_smt, on_done=done, backward=args.backward,
                      capture_cache=not args.no_capture_cache)
    bar.close()
    doc = _document(out, config)
    pj, pm = report.write(doc, out)
    t = report.totals([report.row(results[n]) for n in names])
    print(f"{t['models_captured']}/{t['models']} models captured"
          + (" (training steps)" if args.backward else "")
          + f", {t['kernels']} kernels: in class {t['in_class']}, certified strict {t['strict']}, observable "
          f"{t['observable']}" + (f" (skipped {len(already)} finished)" if already else ""))
    cached = [n for n in names if n not in already and results[n].capture_cached]
    if cached:
        print(f"{len(cached)} of them read their capture from the capture cache (inputs unchanged since it was "
              "kept; every kernel checked again); --no-capture-cache captures anew")
    print(f"wrote {pj} and {pm}")
    return exit_code(report.build({n: results[n] for n in names}, config)["verdict"])


def _config(out: Path) -> dict:
    """The configuration recorded in ``out/zoo.json`` by earlier runs (empty when there is none)."""
    from workbench.errors import InputError
    from workbench.jsonfile import read_json

    path = out / "zoo.json"
    return dict(read_json(path, InputError, "zoo summary", "run `workbench zoo run` again")["config"]) \
        if path.is_file() else {}


def _document(out: Path, config: dict) -> dict:
    """The table over every result under ``out``: inference (``models/``) and training steps (``train/``)."""
    from workbench.zoo import report
    from workbench.zoo.runner import load_results, training_dir

    inference = load_results(out) if (out / "models").is_dir() else {}
    training = load_results(training_dir(out)) if (training_dir(out) / "models").is_dir() else {}
    return report.build(inference, config, training=training)


def _oracle(args) -> int:
    from collections import Counter

    from workbench import workspace
    from workbench.contract import exit_code
    from workbench.errors import UsageError
    from workbench.paths import DATA
    from workbench.zoo import oracle

    if args.jobs < 1:
        raise UsageError(f"--jobs {args.jobs}: need at least 1 worker process")
    zoo = Path(args.out) if args.out else DATA / "zoo"
    # nothing is written into the checkout unless asked: the shipped zoo is read, the results go to the workspace
    write = Path(args.write) if args.write else (zoo if args.out else workspace.subdir("zoo", args.workspace))
    step = oracle.Step.TRAINING if args.training else oracle.Step.INFERENCE
    names = None
    if args.models:
        names = [n.strip() for n in args.models.split(",") if n.strip()]
        if not names:
            raise UsageError("--models is empty; give comma-separated model names of the run")
    total = len(names) if names is not None else len(oracle.results_of(zoo, step))
    running: Counter = Counter()
    seen = [0]

    def done(name, doc, reused):
        seen[0] += 1
        oracle.print_progress(oracle.progress_line(step, name, doc, reused, seen[0], total, running))
        oracle.write_summary(zoo, write)

    oracle.print_progress(f"zoo oracle ({step.value}): {total} models from {zoo}; checker table from the zoo's "
                          "recorded verdicts (not rechecked)")
    got = oracle.run(zoo, write, step, names, seed=args.seed, jobs=args.jobs, resume=args.resume,
                     unnarrowed=args.unnarrowed, on_done=done)
    doc, pj, pm = oracle.write_summary(zoo, write)
    say = sys.stderr if args.json else sys.stdout
    for label in ("inference", "training"):
        t = doc[label]["totals"]
        if t.get("models_run"):
            print(f"{label}: {t['models_run']} of {t['models']} models: {t.get('certified', 0)} certified kernels, "
                  f"{t.get('run', 0)} run, {t.get('agreeing', 0)} agreeing, {t.get('disagreeing', 0)} disagreeing, "
                  f"{t.get('oracle_out_of_class', 0)} out of the oracle's class, {t.get('oracle_undecided', 0)} "
                  f"undecided, {t.get('oracle_error', 0)} errors; not run: {t.get('not_run_nothing_narrowed', 0)} "
                  f"nothing narrowed, {t.get('not_run_no_record', 0)} no record; {t.get('active_lanes', 0)} "
                  "active lanes", file=say)
    print(f"wrote {pj} and {pm}", file=say)
    if args.json:  # the summary's verdict (every model of the folder) decides the exit code, as printed
        from workbench.contract import emit

        return emit(doc)
    from workbench.contract import overall

    return exit_code(overall(d["verdict"] for d in got.values()) if got else "ok")


def _recheck(args) -> int:
    from workbench import progress, workspace
    from workbench.contract import exit_code
    from workbench.errors import UsageError
    from workbench.zoo import report
    from workbench.zoo.runner import load_results, recheck, records_path, training_dir

    out = Path(args.out) if args.out else workspace.subdir("zoo", args.workspace)
    dirs = [d for d in (out, training_dir(out)) if (d / "models").is_dir()]
    previous = {d: load_results(d) for d in dirs}
    if not any(previous.values()):
        raise UsageError(f"--out {out}: no finished zoo run there (no models/*.json); run `workbench zoo run "
                         f"--out {out}` first")
    known = sorted({n for got in previous.values() for n in got})
    names = known
    if args.models:
        names = [n.strip() for n in args.models.split(",") if n.strip()]
        unknown = [n for n in names if n not in known]
        if unknown:
            raise UsageError(f"--models {','.join(unknown)}: not in the run at {out} (it has {', '.join(known)})")
    todo = {d: [n for n in names if n in got] for d, got in previous.items()}
    stale = [f"{n} ({'training' if d != out else 'inference'})" for d, ns in todo.items() for n in ns
             if not previous[d][n].error and not records_path(d, n).is_dir()]
    bar = progress.Counter(sum(map(len, todo.values())), "recheck", "model")
    for d, ns in todo.items():
        recheck(d, ns, smt=not args.no_smt, on_done=lambda r: bar.update(1))
    bar.close()
    config = dict(_config(out), smt=not args.no_smt)
    doc = _document(out, config)
    pj, pm = report.write(doc, out)
    print(f"rechecked {sum(map(len, todo.values())) - len(stale)} models from their kept records"
          + (f"; kept as they were (no records, run before records were kept): {', '.join(stale)}" if stale else ""))
    for label, t in (("inference", doc["totals"]), ("training steps", doc.get("training", {}).get("totals"))):
        if t:
            print(f"{label}: {t['kernels']} kernels: in class {t['in_class']}, certified strict {t['strict']}, "
                  f"observable {t['observable']}")
    print(f"wrote {pj} and {pm}")
    return exit_code(doc["verdict"])
