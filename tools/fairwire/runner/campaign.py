"""`fairwire fuzz run`: a campaign over targets and engines, its live status,
its handling of failing inputs (saved at once, grouped, minimised, shrunk,
described, kept as regressions) and its report, also after Ctrl-C/SIGTERM."""
from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from . import corpus as corpus_ops
from .engines import AflSession, LibFuzzerSession, Session, file_hash
from .project import Project, Target, corpus_files, default_output, log, rel
from .report import text_table, write_reports
from .status import StatusBoard, session_line
from .triage import Finding, signature_of, triage_group


class Interrupt:
    """Counts SIGINT/SIGTERM: the first stops the fuzzers (findings are
    still triaged and the report written), the second skips the triage."""

    def __init__(self) -> None:
        self.count = 0

    def install(self) -> None:
        """Routes SIGINT and SIGTERM here."""
        signal.signal(signal.SIGINT, self._handle)
        signal.signal(signal.SIGTERM, self._handle)

    def _handle(self, signum: int, _frame: Any) -> None:
        self.count += 1
        name = signal.Signals(signum).name
        print(f"\nfairwire: {name}: stopping the fuzzers"
              + (", skipping triage" if self.count > 1 else
                 "; findings and corpus are kept, the report is written"),
              file=sys.stderr, flush=True)


class Campaign:
    """One `fuzz run`: its folder, its sessions and what they found."""

    def __init__(self, project: Project, args: Any) -> None:
        self.project = project
        self.args = args
        self.started = time.time()
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        root = Path(args.out or default_output("campaigns")).resolve()
        self.folder = root / stamp
        n = 1
        while self.folder.exists():
            n += 1
            self.folder = root / f"{stamp}-{n}"
        self.folder.mkdir(parents=True)
        self.engines = ["libfuzzer", "afl"] if args.engine == "both" else [args.engine]
        self.sessions: list[Session] = []
        self.saved: dict[str, list[tuple[Path, str]]] = {}  # key -> (copy, engine)
        self.seen_sources: set[Path] = set()
        self.seen_hashes: set[str] = set()
        self.findings: list[Finding] = []
        self.known_failing: dict[str, list[Path]] = {}
        self.interrupt = Interrupt()
        self.board = StatusBoard(interval=args.status_interval,
                                 live=None if not args.plain else False)

    # --- setup ---------------------------------------------------------------
    def targets_for(self, engine: str, names: list[str]) -> list[Target]:
        """The engine build's targets (built when missing)."""
        return self.project.select(engine, names, want_fuzzer=True)

    def seeds(self, target: Target) -> list[Path]:
        """The read-only inputs: the seeds and the regressions that pass now
        (failing ones are known bugs: listed, not fuzzed)."""
        base = self.project.corpus_dir(target)
        regs = self.project.regressions_dir(target)
        failing = []
        for f in corpus_files(regs):
            status = _replay_status(target, f)
            if status != 0:
                failing.append(f)
        self.known_failing[target.name] = failing
        if failing:
            log(f"{target.name}: {len(failing)} regression(s) fail now, not fuzzed: "
                + ", ".join(rel(f) for f in failing))
        if not failing:
            return [p for p in (base,) if p.is_dir()]
        # Without the failing ones: a flat copy of seeds and passing regressions.
        flat = self.folder / target.name / "seeds"
        flat.mkdir(parents=True, exist_ok=True)
        for f in corpus_files(base):
            if f not in failing:
                shutil.copyfile(f, flat / file_hash(f))
        return [flat]

    # --- the run -------------------------------------------------------------
    def run(self, names: list[str]) -> int:
        """Fuzzes every target (one after another, each with every job),
        triages, reports. Returns the exit status."""
        builds = {e: self.targets_for(e, names) for e in self.engines}
        order = [t.name for t in builds[self.engines[0]]]
        self.interrupt.install()
        log(f"campaign folder: {rel(self.folder)}")
        plan = []
        for name in order:
            plan.append([(e, next(t for t in builds[e] if t.name == name))
                         for e in self.engines if any(t.name == name for t in builds[e])])
        for group in plan:
            self._make_sessions(group)
        for group in plan:
            if self.interrupt.count:
                break
            sessions = self.sessions_for(group[0][1].name)
            self._fuzz(sessions)
            self.board.update(self._lines(), force=True)
            if self.interrupt.count < 2:
                self._triage(sessions)
        if self.args.update_corpus and not self.interrupt.count:
            for name in order:
                self._update_corpus(name)
        summary = self.summary()
        write_reports(self.folder, summary)
        self._print_end(summary)
        new = [f for f in self.findings if f.new]
        return 1 if new else (130 if self.interrupt.count else 0)

    def sessions_for(self, name: str) -> list[Session]:
        """The sessions of one target."""
        return [s for s in self.sessions if s.target.name == name]

    def _make_sessions(self, group: list[tuple[str, Target]]) -> None:
        jobs = max(1, self.args.jobs)
        split = {"libfuzzer": jobs, "afl": jobs}
        if len(group) == 2:
            split = {"libfuzzer": max(1, (jobs + 1) // 2), "afl": max(1, jobs // 2)}
        for engine, target in group:
            cls = LibFuzzerSession if engine == "libfuzzer" else AflSession
            work = self.folder / target.name / engine
            work.mkdir(parents=True, exist_ok=True)
            self.sessions.append(cls(target=target, engine=engine, work=work,
                                     jobs=split[engine], seeds=self.seeds(target),
                                     dict_file=self.project.dict_file(target),
                                     libfuzzer_flags=self.project.libfuzzer_flags(
                                         target)))

    def _fuzz(self, sessions: list[Session]) -> None:
        seconds = self.args.time
        lf = next((s for s in sessions if isinstance(s, LibFuzzerSession)), None)
        for s in sessions:
            if isinstance(s, AflSession):
                s.start(seconds, foreign=(s.work.parent / "libfuzzer" / "corpus")
                        if lf else None)
            else:
                s.start(seconds)
        last_sync = time.time()
        while not self.interrupt.count:
            for s in sessions:
                s.poll()
            self._collect_crashes()
            if lf and time.time() - last_sync > 5:
                self._afl_to_libfuzzer(sessions, lf)
                last_sync = time.time()
            self.board.update(self._lines())
            if not any(s.running() for s in sessions):
                break
            if time.time() > max(s.deadline for s in sessions) + 30:
                log("engines overran their time; stopping them")
                break
            time.sleep(0.25)
        for s in sessions:
            s.stop()
            s.poll()
        self._collect_crashes()
        if not self.interrupt.count:
            for s in sessions:
                if isinstance(s, LibFuzzerSession) and s.forked:
                    self.board.message(f"fairwire: {s.key}: measuring the edges of "
                                       f"the seeds and the campaign corpus")
                    s.measure_coverage(max(30.0, seconds / 2))

    def _afl_to_libfuzzer(self, sessions: list[Session], lf: LibFuzzerSession) -> None:
        """Copies AFL++'s new queue entries into libFuzzer's corpus, which
        libFuzzer re-reads (-reload) in plain mode."""
        for s in sessions:
            if isinstance(s, AflSession):
                for f in s.queue_files():
                    h = file_hash(f)
                    dest = lf.corpus / h
                    if not dest.exists() and h not in lf.seed_hashes:
                        shutil.copyfile(f, dest)
                        lf.imported.add(h)

    def _collect_crashes(self) -> None:
        """Copies every failing input the engines saved into the campaign's
        findings/ at once (the engines' own files are first copies)."""
        for s in self.sessions:
            if not s.started:
                continue
            for src in s.crash_files():
                if src in self.seen_sources:
                    continue
                try:
                    h = file_hash(src)
                except OSError:
                    continue  # still being written; next round
                self.seen_sources.add(src)
                dest_dir = self.folder / s.target.name / "findings"
                dest_dir.mkdir(parents=True, exist_ok=True)
                dest = dest_dir / f"{s.engine}-{h[:12]}"
                if h not in self.seen_hashes:
                    shutil.copyfile(src, dest)
                    self.seen_hashes.add(h)
                    self.board.message(f"fairwire: {s.key}: failing input saved: "
                                       f"{rel(dest)}")
                self.saved.setdefault(s.key, []).append((dest, s.engine))

    def _lines(self) -> list[str]:
        return [session_line(s, len({p for p, _ in self.saved.get(s.key, [])}),
                             self.args.time) for s in self.sessions]

    # --- after the run -------------------------------------------------------
    def _triage(self, sessions: list[Session]) -> None:
        """Groups one target's saved inputs by signature and handles each
        group."""
        for s in sessions:
            groups: dict[str, Finding] = {}
            for path in sorted({p for p, _ in self.saved.get(s.key, [])}):
                sig = signature_of(s.target, s.engine, path)
                if sig is None:
                    log(f"{rel(path)} passes when re-run (flaky); kept, not triaged")
                    continue
                key = sig.key
                if key not in groups:
                    other = next((f for f in self.findings if f.target == s.target.name
                                  and f.signature.key == key), None)
                    if other:  # the other engine found the same bug
                        other.inputs.append(path)
                        if s.engine not in other.engines:
                            other.engines.append(s.engine)
                        continue
                    groups[key] = Finding(s.target.name, s.engine, sig, [s.engine])
                groups[key].inputs.append(path)
            for n, finding in enumerate(groups.values()):
                if self.interrupt.count > 1:
                    break
                log(f"{s.key}: triaging {finding.signature.key} "
                    f"({len(finding.inputs)} input(s))")
                known = self._known_signatures(s.target, s.engine)
                triage_group(finding, s.target,
                             self.folder / s.target.name / "triage" / f"{s.engine}-{n}",
                             self.project.regressions_dir(s.target), known,
                             quick=bool(self.interrupt.count))
                self.findings.append(finding)
                self._print_finding(finding)

    def _known_signatures(self, target: Target, engine: str) -> dict[str, Path]:
        """Signatures of the regressions that already fail (known bugs)."""
        known = {}
        for r in self.known_failing.get(target.name, []):
            sig = signature_of(target, engine, r)
            if sig:
                known[sig.key] = r
        return known

    def _print_finding(self, f: Finding) -> None:
        print(f"\n== {f.target}: {f.signature.kind} "
              f"({'NEW' if f.new else 'known'}, found by {f.engine}, "
              f"{len(f.inputs)} input(s))")
        print(f"   {f.final_detail or f.signature.detail}")
        if f.signature.frames:
            print(f"   at {' < '.join(f.signature.frames)}")
        print("   scenario:")
        for line in f.description.rstrip().splitlines():
            print(f"     {line}")
        print(f"   regression: {rel(f.regression)}")
        print("   reproduce:")
        for cmd in f.repro:
            print(f"     {cmd}")
        sys.stdout.flush()

    def _update_corpus(self, name: str) -> None:
        """Merges the target's campaign corpora into its corpus's found/."""
        lf = [s.target for s in self.sessions_for(name) if s.engine == "libfuzzer"]
        target = lf[0] if lf else self.project.select(
            "libfuzzer", [name], want_fuzzer=True)[0]
        dirs = [d for s in self.sessions_for(name) for d in s.corpus_dirs()]
        corpus_ops.merge_into_corpus(self.project, target, dirs)

    def summary(self) -> dict[str, Any]:
        """Everything the report shows, as JSON-friendly data."""
        sessions = []
        for s in self.sessions:
            last = s.last()
            paths = sorted({rel(p) for p, _ in self.saved.get(s.key, [])})
            runs = last.execs
            eps = runs / s.elapsed() if runs is not None and s.elapsed() > 0 else None
            sessions.append({
                "target": s.target.name, "engine": s.engine, "jobs": s.jobs,
                "execs": runs, "execs_per_sec": eps,
                "coverage": last.coverage, "features": last.features,
                "corpus": last.corpus,
                "seeds": s.seed_count(), "new_files": s.new_corpus_files()
                if s.started else 0,
                "crashes": len(paths), "crash_paths": paths,
                "findings_dir": rel(self.folder / s.target.name / "findings"),
                "coverage_over_time": _series(s, "coverage"),
                "features_over_time": _series(s, "features"),
                "execs_per_sec_over_time": _series(s, "execs_per_sec"),
                "note": s.note,
                "folder": rel(s.work)})
        findings = [{
            "target": f.target, "engine": ", ".join(f.engines),
            "kind": f.signature.kind,
            "signature": f.signature.key,
            "detail": f.final_detail or f.signature.detail,
            "count": len(f.inputs), "inputs": [rel(p) for p in f.inputs],
            "minimised": bool(f.minimised), "shrunk": bool(f.shrunk),
            "final_size": f.final.stat().st_size if f.final else 0,
            "regression": rel(f.regression) if f.regression else "",
            "fails_on_regression": f.fails_on_regression, "new": f.new,
            "description": f.description, "repro": f.repro, "note": f.note}
            for f in self.findings]
        return {"id": self.folder.name, "folder": rel(self.folder),
                "engines": self.engines, "jobs": self.args.jobs,
                "time_per_target": self.args.time,
                "elapsed": time.time() - self.started,
                "interrupted": bool(self.interrupt.count),
                "targets": list(dict.fromkeys(s.target.name for s in self.sessions)),
                "sessions": sessions, "findings": findings,
                "known_failing_regressions": {
                    name: [rel(p) for p in paths]
                    for name, paths in self.known_failing.items()}}

    def _print_end(self, summary: dict[str, Any]) -> None:
        print()
        print(text_table(summary))
        print()
        print(f"report: {rel(self.folder / 'report.html')} "
              f"(and report.md, summary.json)")
        new = [f for f in self.findings if f.new]
        if new:
            print(f"{len(new)} NEW failure(s); regressions written:")
            for f in new:
                print(f"  {rel(f.regression)}")
        sys.stdout.flush()


def _series(s: Session, name: str) -> list[tuple[float, float]]:
    """(seconds, value) of one figure over the session, where it was known;
    a level figure (edges, features) is held to the session's end."""
    points = [(round(x.elapsed, 2), getattr(x, name)) for x in s.samples
              if getattr(x, name) is not None]
    if points and name != "execs_per_sec" and points[-1][0] < round(s.elapsed(), 2):
        points.append((round(s.elapsed(), 2), points[-1][1]))
    return points


def _replay_status(target: Target, path: Path) -> int:
    """The replay binary's exit status on one input (0: passes)."""
    try:
        return subprocess.run([str(target.replay), str(path)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=60).returncode
    except subprocess.TimeoutExpired:
        return -9


def run_campaign(project: Project, args: Any) -> int:
    """The `fuzz run` command."""
    names = args.targets  # names given win over --all (ci/fuzz passes --all)
    return Campaign(project, args).run(names)
