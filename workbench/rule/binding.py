"""Binding: does a certificate apply to the kernel Inductor is compiling right now?

A certificate was checked against one captured kernel (its body and its premises: size-argument expressions,
symbol lower bounds, guards, index dtype, grid). A live kernel *binds* to it only when

1. its body is the certified body (canonical IR hash from :mod:`workbench.kir`) and its declared signature is
   the certified one, the arguments to be narrowed included (each must still be declared exactly ``i64``:
   a live ``i32`` or ``i16`` size argument is not the kernel that was proved), and
2. there is a renaming of the certificate's shape symbols onto the live ones under which every size
   argument and element count has the same expression, every live lower bound is at least the certified
   one (and every certified upper bound still holds), every guard the certificate's side conditions use is
   among the live guards, the index dtype and grid type are the same, and the live kernel's
   ``tl.device_assert`` premises on its inputs are the certified ones: the same asserted value and mask (IR
   terms in kernel names) and the same bounds in the shape symbols, under the same renaming (a bound on
   another symbol or a weaker one states a different premise about the inputs, so the certificate's proof,
   which assumed the certified one, does not cover the live kernel).

Anything else refuses, naming the first premise that failed. Example sizes never enter. Binding is a pure
function of two records, so refusals are tested on real live compilations with each premise mutated. A
binding says which mode's certificate bound (``strict``, ``observable`` or ``partial``); a store holds one
mode's certificates, so the rule binds only the mode it was asked for.

A ``partial`` certificate (variant P) narrows no argument: its ``narrow`` lists P's sites (the int64 ``//``
and ``%`` nodes, ``n<i>``). It binds under the same body, signature and premises as the others, and one
more premise: every site the certificate names is written as an int64 ``//`` or ``%`` in the live kernel's
text (so P's text can compute exactly those in int32; the rule then validates that text, rule/compiled.py). Symbolic text is read with
:mod:`workbench.symexpr` (never evaluated); a live guard outside its grammar can match nothing.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import sympy

from workbench.capture.record import CapturedKernel
from workbench.errors import InputError, WorkbenchError
from workbench.symexpr import parse_any


@dataclass(frozen=True, slots=True)
class CertifiedKernel:
    """What the rule needs from a certificate: the record it was checked against, the IR hash of that
    record's body, and the size arguments it proved narrowable."""

    record: CapturedKernel
    ir_hash: str  # kir.canonical_hash(parse(record), facts=False): the body; premises are matched separately
    narrow: tuple[str, ...]  # N modes: size arguments declared i32; partial: P's sites (n<i> node keys)
    mode: str
    guards_used: tuple[str, ...]  # the guards the certificate's side conditions rely on (verbatim)
    asserts: tuple = ()  # the certificate's device_assert premises (workbench.check.certificate.AssertPremise)

    @property
    def content_hash(self) -> str:
        """SHA-256 of everything binding reads (the record, the body hash, the narrowed arguments, the mode
        and the guards used): caches key on it, never on object identity."""
        return _content_hash(self)


@dataclass(frozen=True, slots=True)
class Binding:
    bound: bool
    kernel: str
    certificate: str | None  # "<program>/<kernel>" of the certificate tried (the closest one when refused)
    renaming: tuple[tuple[str, str], ...]
    matched: tuple[str, ...]  # premises that matched, in order
    failed: str | None  # the first premise that did not, with the values
    narrow: tuple[str, ...]  # what applying it changes: size arguments to i32, or (partial) P's sites
    mode: str = ""  # the mode of the certificate tried ("strict" | "observable" | "partial")

    def explain(self) -> str:
        tag = f" [{self.mode} certificate]" if self.mode else ""
        head = f"{self.kernel}: " + ("BOUND to " if self.bound else "not bound") + (
            f"{self.certificate}{tag}" if self.bound else (
                f" (closest certificate {self.certificate}{tag})" if self.certificate else ""))
        lines = [head]
        lines += [f"  ok   {m}" for m in self.matched]
        if self.failed:
            lines.append(f"  FAIL {self.failed}")
        if self.bound and self.mode == "partial":
            lines.append(f"  computes {len(self.narrow)} int64 // and % sites in int32 ({', '.join(self.narrow)}); "
                         "size arguments stay i64")
        elif self.bound:
            lines.append(f"  narrows {', '.join(self.narrow)} to i32")
        return "\n".join(lines)


_HASHES: dict[int, tuple[CertifiedKernel, str]] = {}


def _content_hash(cert: CertifiedKernel) -> str:
    got = _HASHES.get(id(cert))
    if got is not None and got[0] is cert:  # the entry holds the object, so its id cannot be recycled
        return got[1]
    text = json.dumps({"record": cert.record.to_json(), "ir_hash": cert.ir_hash, "narrow": list(cert.narrow),
                       "mode": cert.mode, "guards_used": list(cert.guards_used),
                       "asserts": [a.to_json() for a in cert.asserts]}, sort_keys=True)
    h = hashlib.sha256(text.encode()).hexdigest()
    if len(_HASHES) > 4096:
        _HASHES.clear()
    _HASHES[id(cert)] = (cert, h)
    return h


@lru_cache(maxsize=4096)
def _sym(text: str) -> sympy.Basic | None:
    """Symbolic text parsed by the restricted parser; ``None`` when outside its grammar (matches nothing)."""
    try:
        return parse_any(text, where="binding")
    except InputError:
        return None


def _rename(text: str, renaming: Mapping[str, str]) -> sympy.Basic | None:
    e = _sym(text)
    if e is None:
        return None
    return e.xreplace({sympy.Symbol(a): sympy.Symbol(b) for a, b in renaming.items()})


def _same(a: sympy.Basic | None, b: sympy.Basic | None) -> bool:
    if a is None or b is None:
        return False
    if a == b:
        return True
    if isinstance(a, sympy.Rel) or isinstance(b, sympy.Rel):
        return type(a) is type(b) and sympy.expand(a.lhs - a.rhs - (b.lhs - b.rhs)) == 0
    return sympy.expand(a - b) == 0


def _renamings(cert: CapturedKernel, live: CapturedKernel) -> Iterable[dict[str, str]]:
    """Candidate bijections from certificate symbols to live symbols: those forced by single-symbol size
    arguments first, the rest by trying the (few) remaining permutations."""
    cs = [s.name for s in cert.symbols]
    ls = [s.name for s in live.symbols]
    if len(cs) != len(ls):
        return
    forced: dict[str, str] = {}
    for ca, la in zip(cert.size_args, live.size_args):
        if ca.expr in cs and la.expr in ls:
            if forced.get(ca.expr, la.expr) != la.expr:
                return
            forced[ca.expr] = la.expr
    if len(set(forced.values())) != len(forced):
        return
    rest_c = [s for s in cs if s not in forced]
    rest_l = [s for s in ls if s not in forced.values()]
    for perm in itertools.islice(itertools.permutations(rest_l), 5040):
        yield {**forced, **dict(zip(rest_c, perm))}


def bind(cert: CertifiedKernel, live: CapturedKernel, live_ir_hash: str) -> Binding:
    matched: list[str] = []
    name = f"{cert.record.program}/{cert.record.name}"

    def refuse(msg: str, renaming: Mapping[str, str] = {}) -> Binding:
        return Binding(False, live.name, name, tuple(sorted(renaming.items())), tuple(matched), msg, (),
                       cert.mode)

    if live_ir_hash != cert.ir_hash:
        return refuse(f"body: IR hash {live_ir_hash[:12]} differs from the certified {cert.ir_hash[:12]}")
    matched.append(f"body: IR hash {live_ir_hash[:12]}")
    # The whole declared signature, the arguments to narrow included: the proof is about i64 size arguments.
    sig_c, sig_l = dict(cert.record.signature), dict(live.signature)
    bad = [a for a in cert.narrow if sig_c.get(a) != "i64"] if cert.mode != "partial" else []
    if bad:
        return refuse(f"signature: certified size arguments {bad} are not declared i64 in the certificate")
    if sig_c != sig_l:
        diff = sorted(k for k in set(sig_c) | set(sig_l) if sig_c.get(k) != sig_l.get(k))
        return refuse(f"signature: {', '.join(f'{k} {sig_l.get(k)} vs certified {sig_c.get(k)}' for k in diff)}")
    if [a.name for a in cert.record.size_args] != [a.name for a in live.size_args]:
        return refuse("size arguments: different argument lists")
    matched.append("signature and size-argument list")
    if live.index_dtype != cert.record.index_dtype:
        return refuse(f"index dtype: {live.index_dtype} vs certified {cert.record.index_dtype}")
    if live.grid_type != cert.record.grid_type:
        return refuse(f"grid: {live.grid_type} vs certified {cert.record.grid_type}")
    matched.append(f"index dtype {live.index_dtype}, grid {live.grid_type}")
    if cert.mode == "partial":
        try:
            sites = _partial_sites(live)
        except WorkbenchError as exc:
            return refuse(f"P's sites: the live kernel does not parse ({exc})")
        missing = [s for s in cert.narrow if s not in sites]
        if missing:
            return refuse(f"P's sites: certified sites {missing} are not written as int64 // or % in the live "
                          f"kernel's text (its are {list(sites)})")
        matched.append(f"P's sites {', '.join(cert.narrow) or '(none)'}: written in the live text as certified")

    try:
        live_asserts = _live_asserts(cert, live)
    except WorkbenchError as exc:
        return refuse(f"device_assert premises: the live kernel does not parse ({str(exc)[:200]})")
    best: tuple[int, str, dict[str, str], list[str]] | None = None
    for ren in _renamings(cert.record, live):
        ok: list[str] = []
        failure = _premises(cert, live, ren, ok) or _asserts(cert.asserts, live_asserts, ren, ok)
        if failure is None:
            return Binding(True, live.name, name, tuple(sorted(ren.items())), tuple(matched + ok), None, cert.narrow,
                           cert.mode)
        if best is None or len(ok) > best[0]:
            best = (len(ok), failure, ren, ok)
    if best is None:
        return refuse(
            f"shape symbols: no renaming of the certificate's {[s.name for s in cert.record.symbols]} "
            f"onto the live {[s.name for s in live.symbols]} matches the size arguments"
        )
    matched.extend(best[3])
    return refuse(best[1], best[2])


def _live_asserts(cert: CertifiedKernel, live: CapturedKernel) -> tuple:
    """The live kernel's device_assert premises (parsed only when either side may have one)."""
    if not cert.asserts and "device_assert" not in live.source:
        return ()
    from workbench import kir
    from workbench.check.asserts import assert_premises

    return assert_premises(kir.parse(live, check_versions=False))


def _asserts(certified: tuple, live: tuple, ren: Mapping[str, str], ok: list[str]) -> str | None:
    """The device_assert premises (assumed about the inputs) are the certified ones, bounds up to renaming."""
    if not certified and not live:
        return None
    if len(certified) != len(live):
        return (f"device_assert premises: the live kernel assumes {len(live)} "
                f"({'; '.join(a.text() for a in live) or 'none'}), the certificate {len(certified)} "
                f"({'; '.join(a.text() for a in certified) or 'none'})")
    from workbench.check.certificate import KERNEL_TERM

    for c, lv in zip(certified, live):
        if c.value != lv.value:
            return f"device_assert premise at line {lv.line}: the live asserted value {lv.name} is not the certified {c.name}'s"
        if c.mask != lv.mask:
            return (f"device_assert premise at line {lv.line}: the live assert holds where {lv.where or 'always'}, "
                    f"the certified one where {c.where or 'always'}")
        for end, cb, lb in (("lower", c.lower, lv.lower), ("upper", c.upper, lv.upper)):
            if cb is None and lb is None:
                continue
            same = cb is not None and lb is not None and (
                cb == lb if cb.startswith(KERNEL_TERM) or lb.startswith(KERNEL_TERM) else _same(_rename(cb, ren), _sym(lb)))
            if not same:
                return (f"device_assert premise at line {lv.line}: live {end} bound {lb} is not the certified {cb} "
                        f"(renamed {_rename(cb, ren) if cb and not cb.startswith(KERNEL_TERM) else cb}): the live "
                        f"kernel assumes {lv.text()}, the certificate {c.text()}")
    ok.append("device_assert premises (assumed about the inputs, not checked): " + "; ".join(a.text() for a in live))
    return None


def _partial_sites(live: CapturedKernel) -> tuple[str, ...]:
    from workbench.rule.partial import text_sites

    return text_sites(live)


def _premises(certified: CertifiedKernel, live: CapturedKernel, ren: Mapping[str, str], ok: list[str]) -> str | None:
    cert = certified.record
    for ca, la in zip(cert.size_args, live.size_args):
        if not _same(_rename(ca.expr, ren), _sym(la.expr)):
            return f"{la.name}: live {la.expr} is not the certified {ca.expr} (renamed {_rename(ca.expr, ren)})"
    ok.append("size-argument expressions " + ", ".join(f"{a.name}={a.expr}" for a in live.size_args))
    live_numels = {n.name: n for n in live.numels}
    for cn in cert.numels:
        ln = live_numels.get(cn.name)
        if ln is None or not _same(_rename(cn.expr, ren), _sym(ln.expr)):
            return f"{cn.name}: live {ln.expr if ln else None} is not the certified {cn.expr}"
        if ln.type != cn.type:
            return f"{cn.name}: declared {ln.type}, certified {cn.type}"
    ok.append("element counts " + ", ".join(f"{n.name}={n.expr}" for n in live.numels))
    live_syms = {s.name: s for s in live.symbols}
    for cs in cert.symbols:
        ls = live_syms[ren[cs.name]]
        if cs.lower is not None and (ls.lower is None or ls.lower < cs.lower):
            return f"lower bound of {ls.name}: live {ls.lower} < certified {cs.lower}"
        if cs.upper is not None and (ls.upper is None or ls.upper > cs.upper):
            return f"upper bound of {ls.name}: live {ls.upper} > certified {cs.upper}"
    ok.append("symbol bounds " + ", ".join(f"{s.name}>={s.lower}" for s in live.symbols))
    live_guards = [x for x in (_sym(g) for g in live.guards) if x is not None]
    for g in certified.guards_used:
        want = _rename(g, ren)
        if not any(_same(want, lg) for lg in live_guards):
            return f"guard {want} (certified {g}) is not among the live guards"
    ok.append(f"{len(certified.guards_used)} guards the certificate uses present")
    return None
