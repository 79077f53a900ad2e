"""One engine fuzzing one target: libFuzzer (plain, or -fork=N) and AFL++
(one main and secondaries sharing a sync folder). Each session starts its
processes in their own process group, parses the engine's statistics, and
lists the failing inputs the engine has saved so far."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .libfuzzer import (Figures, ForkProgress, PlainProgress, parse_status_line)
from .project import Target, corpus_files

AFL_ENV = {
    "AFL_SKIP_CPUFREQ": "1",
    "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES": "1",
    "AFL_NO_UI": "1",
    "AFL_NO_AFFINITY": "1",
    "AFL_NO_CRASH_README": "1",
    # Exchange with sibling and foreign (libFuzzer) corpora every minute, not
    # every 30 (AFL++'s default).
    "AFL_SYNC_TIME": "1",
}

@dataclass
class Sample:
    """One point of an engine's progress; None where a figure is not known
    at that moment (shown as '-')."""

    elapsed: float  # seconds since the session started
    execs: Optional[int]
    coverage: Optional[int]  # edges (libFuzzer "cov", AFL++ "edges_found")
    corpus: Optional[int]
    execs_per_sec: Optional[float]  # the rate at that moment
    features: Optional[int] = None  # libFuzzer's "ft"


def parse_libfuzzer_line(line: str) -> Optional[tuple]:
    """(runs, cov, ft, corpus, exec/s) of the libFuzzer status line in
    `line` (plain or -fork; None for a figure the line lacks), or None."""
    status = parse_status_line(line)
    if status is None:
        return None
    return (status.runs, status.cov, status.ft, status.corpus,
            None if status.execs_per_sec is None else float(status.execs_per_sec))


def parse_afl_plot_data(text: str) -> list[dict[str, float]]:
    """The rows of an AFL++ plot_data file, keyed by its header's names."""
    rows = []
    names: list[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            names = [n.strip() for n in line[1:].split(",")]
            continue
        values = [v.strip() for v in line.split(",")]
        if not names or len(values) != len(names):
            continue
        row = {}
        for n, v in zip(names, values):
            try:
                row[n] = float(v.rstrip("%"))
            except ValueError:
                pass
        rows.append(row)
    return rows


def parse_afl_stats(text: str) -> dict[str, str]:
    """An AFL++ fuzzer_stats file as a dict."""
    stats = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            stats[key.strip()] = value.strip()
    return stats


def file_hash(path: Path) -> str:
    """The SHA-1 of a file's bytes, hex."""
    return hashlib.sha1(path.read_bytes()).hexdigest()


def flatten_seeds(sources: list[Path], dest: Path) -> int:
    """Copies every corpus file under the sources into one flat folder
    (AFL++ wants that), named by content hash. Returns the file count."""
    dest.mkdir(parents=True, exist_ok=True)
    for src in sources:
        for f in corpus_files(src) if src.is_dir() else [src]:
            if f.stat().st_size <= 1 << 20:
                shutil.copyfile(f, dest / file_hash(f)[:16])
    if not any(dest.iterdir()):
        (dest / "empty").write_bytes(b"\0")
    return len(list(dest.iterdir()))


def windowed_rate(samples: list[Sample], now: float, runs: int,
                  window: float) -> Optional[float]:
    """The rate of `runs` (now) since the earliest sample of the last
    `window` seconds, or None when those samples span under 2 seconds."""
    since = [x for x in samples if x.execs is not None and now - x.elapsed <= window]
    if not since or now - since[0].elapsed < 2:
        return None
    return (runs - since[0].execs) / (now - since[0].elapsed)


def replay_coverage(target: Target, inputs: list[Path], flags: list[str],
                    timeout: float, work: Path) -> Optional[int]:
    """The edges (libFuzzer's cov) that every file under `inputs` covers,
    replayed once by the target's engine binary in one plain process
    (-runs=0, writing nothing into the inputs); None when that fails or
    takes more than `timeout` seconds."""
    dirs = [str(p) for p in inputs if p.exists()]
    if not dirs or target.fuzzer is None:
        return None
    with tempfile.TemporaryDirectory(prefix="replay-", dir=work) as out:
        cmd = [str(target.fuzzer), "-runs=0", "-timeout=10", "-rss_limit_mb=2560",
               "-print_pcs=0", "-print_funcs=0", *flags, out, *dirs]
        try:
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired):
            return None
    if r.returncode != 0:
        return None
    cov = None
    for raw in r.stdout.decode(errors="replace").splitlines():
        line = parse_status_line(raw)
        if line and line.event in ("INITED", "DONE") and line.cov is not None:
            cov = line.cov
    return cov


@dataclass
class Session:
    """One engine on one target, in its own work folder."""

    target: Target
    engine: str
    work: Path
    jobs: int
    seeds: list[Path]  # read-only inputs: the corpus folder, regressions
    dict_file: Optional[Path]
    # The target's own libFuzzer flags (its .options file's [libfuzzer] section).
    libfuzzer_flags: list[str] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    started: float = 0.0
    ended: float = 0.0  # when its last process was seen stopped
    deadline: float = 0.0
    procs: list[subprocess.Popen] = field(default_factory=list)
    stopping: bool = False
    seed_hashes: set[str] = field(default_factory=set)
    crashes_reported: int = 0
    note: str = ""

    @property
    def key(self) -> str:
        """target/engine, as the status board and report name it."""
        return f"{self.target.name}/{self.engine}"

    def running(self) -> bool:
        """Whether any of the session's processes is still alive."""
        alive = any(p.poll() is None for p in self.procs)
        if not alive and self.started and not self.ended:
            self.ended = time.time()
        elif alive:
            self.ended = 0.0
        return alive

    def _spawn(self, cmd: list[str], log_path: Path,
               env: Optional[dict[str, str]] = None) -> subprocess.Popen:
        out = open(log_path, "ab")
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, cwd=self.work,
                                env={**os.environ, **(env or {})},
                                start_new_session=True)
        out.close()
        self.procs.append(proc)
        return proc

    def stop(self, grace: float = 10.0) -> None:
        """Asks every process group to stop (SIGINT, as Ctrl-C would: the
        engines then save their state), then kills what is left."""
        self.stopping = True
        live = [p for p in self.procs if p.poll() is None]
        for p in live:
            _signal_group(p, signal.SIGINT)
        end = time.time() + grace
        while time.time() < end and any(p.poll() is None for p in live):
            time.sleep(0.1)
        for p in live:
            if p.poll() is None:
                _signal_group(p, signal.SIGKILL)
                p.wait()

    def elapsed(self) -> float:
        """Seconds the session has been fuzzing (frozen once it ended)."""
        if not self.started:
            return 0.0
        return (self.ended or time.time()) - self.started

    def last(self) -> Sample:
        """The latest sample (nothing known before the first)."""
        return self.samples[-1] if self.samples else Sample(0, None, None, None, None)

    def last_known(self, name: str) -> Optional[float]:
        """The latest known value of one Sample field (None if never known)."""
        for sample in reversed(self.samples):
            value = getattr(sample, name)
            if value is not None:
                return value
        return None

    def seed_count(self) -> int:
        """How many distinct seed inputs the session started from."""
        return len(self.seed_hashes)


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


class LibFuzzerSession(Session):
    """libFuzzer: -fork=N when jobs > 1 (crashes ignored and saved, the
    campaign goes on); one plain process otherwise (it re-reads its corpus
    folder, where AFL++'s finds are copied), which after its first crash is
    restarted as -fork=1 so that further crashes no longer stop it. The first
    corpus folder is the campaign's own: the repository's corpus is only
    read.

    Its figures (runner/libfuzzer.py): a plain process's from its status
    lines; a -fork process's from the parent's lines (jobs merged) and the
    running jobs' own logs. Under -fork, libFuzzer reports no edge count
    that means edges, so the edges are measured after the run by replaying
    the seeds and the campaign corpus (measure_coverage)."""

    MAX_RESTARTS = 10
    JOB_LOG_INTERVAL = 1.0  # seconds between reads of the running jobs' logs
    RATE_WINDOW = 10.0  # seconds of runs behind a -fork rate of last resort

    def start(self, seconds: int) -> None:
        """Starts fuzzing for `seconds`."""
        self.corpus = self.work / "corpus"
        self.artifacts = self.work / "artifacts"
        self.log_path = self.work / "libfuzzer.log"
        for d in (self.corpus, self.artifacts):
            d.mkdir(parents=True, exist_ok=True)
        self.seed_hashes = {file_hash(f) for s in self.seeds
                            for f in corpus_files(s)}
        self.imported: set[str] = set()  # copied in from AFL++'s queues
        self.started = time.time()
        self.deadline = self.started + seconds
        self.restarts = 0
        self.base_execs = 0  # runs of the processes before the current one
        self.forked = False  # whether any process ran -fork
        self.log_offset = 0
        self.last_job_read = 0.0
        self._launch()

    def forking(self) -> bool:
        """Whether the next (or current) process runs -fork."""
        return self.jobs > 1 or self.restarts > 0

    def command(self, seconds: int) -> list[str]:
        """The libFuzzer command line for the remaining time."""
        cmd = [str(self.target.fuzzer), f"-max_total_time={max(1, seconds)}",
               "-timeout=10", "-rss_limit_mb=2560", "-print_final_stats=1",
               "-print_pcs=0", f"-artifact_prefix={self.artifacts}/"]
        if self.dict_file:
            cmd.append(f"-dict={self.dict_file}")
        cmd += self.libfuzzer_flags
        if self.forking():
            cmd += [f"-fork={self.jobs}", "-ignore_crashes=1",
                    "-ignore_timeouts=1", "-ignore_ooms=1"]
        return cmd + [str(self.corpus)] + [str(s) for s in self.seeds if s.exists()]

    def _launch(self) -> None:
        remaining = int(self.deadline - time.time())
        self.forked = self.forked or self.forking()
        self.progress = ForkProgress() if self.forking() else PlainProgress()
        self._spawn(self.command(remaining), self.log_path)

    def figures(self) -> Figures:
        """Every process's runs, the current one's other figures."""
        now = self.progress.figures(self.running())
        runs = now.runs
        if self.base_execs:
            runs = self.base_execs + (runs or 0)
        return Figures(runs=runs, execs_per_sec=now.execs_per_sec, cov=now.cov,
                       ft=now.ft)

    def poll(self) -> None:
        """Reads new log lines (the parent's and, under -fork, the running
        jobs'), samples the figures when they changed, and restarts a plain
        process that stopped on a crash while time remains."""
        changed = False
        with open(self.log_path, "rb") as f:
            f.seek(self.log_offset)
            chunk = f.read()
        end = chunk.rfind(b"\n") + 1
        self.log_offset += end
        for raw in chunk[:end].decode(errors="replace").splitlines():
            changed |= self.progress.feed(raw)
        alive = self.running()
        if isinstance(self.progress, ForkProgress) and (
                not alive or time.time() - self.last_job_read >= self.JOB_LOG_INTERVAL):
            self.last_job_read = time.time()
            changed |= self.progress.read_job_logs()
        figures = self.figures()
        if (figures.execs_per_sec is None and alive and figures.runs is not None
                and isinstance(self.progress, ForkProgress)):
            # No running job has a rate of its own yet (each reports one
            # after its first second; crashing jobs never do): the rate of
            # the total runs over the last RATE_WINDOW seconds.
            figures.execs_per_sec = windowed_rate(self.samples, self.elapsed(),
                                                  figures.runs, self.RATE_WINDOW)
        corpus = self.corpus_count()
        last = self.last()
        if (changed or corpus != last.corpus
                or (not alive and last.execs_per_sec is not None)):
            self.samples.append(Sample(self.elapsed(), figures.runs, figures.cov,
                                       corpus, figures.execs_per_sec, figures.ft))
        if (self.procs and self.procs[-1].poll() is not None
                and not self.stopping
                and time.time() < self.deadline - 2
                and self.restarts < self.MAX_RESTARTS):
            self.restarts += 1
            self.base_execs += self.progress.figures(False).runs or 0
            self._launch()

    def _corpus_size(self) -> int:
        """Files in the campaign corpus folder now."""
        with os.scandir(self.corpus) as entries:
            return sum(1 for e in entries if e.is_file())

    def corpus_count(self) -> int:
        """The inputs of the campaign: the distinct seeds, and what libFuzzer
        (or the AFL++ exchange) added to the campaign corpus folder."""
        return self.seed_count() + self._corpus_size()

    def measure_coverage(self, timeout: float) -> None:
        """After a run that used -fork: the edges of the seeds alone (the
        starting point) and of the seeds with the campaign corpus, each
        replayed once (-runs=0), as samples at the start and the end. Each
        replay gets `timeout` seconds; what does not finish stays unknown."""
        if not self.forked or not self.started:
            return
        start = replay_coverage(self.target, self.seeds, self.libfuzzer_flags,
                                timeout, self.work)
        end = replay_coverage(self.target, self.seeds + [self.corpus],
                              self.libfuzzer_flags, timeout, self.work)
        if start is not None:
            self.samples.insert(0, Sample(0.0, 0, start, self.seed_count(), None))
        last = self.last()
        self.samples.append(Sample(self.elapsed(), last.execs, end, self.corpus_count(),
                                   None, last.features))
        if end is None:
            self.note = (f"edges not measured: the replay of the corpus failed "
                         f"or took more than {timeout:.0f} s")

    def crash_files(self) -> list[Path]:
        """The failing inputs libFuzzer saved (crash-, leak-, timeout-, oom-)."""
        if not self.artifacts.is_dir():
            return []
        return sorted(p for p in self.artifacts.iterdir()
                      if p.name.split("-")[0] in ("crash", "leak", "timeout", "oom")
                      and p.is_file())

    def corpus_dirs(self) -> list[Path]:
        """The folders holding what this session found."""
        return [self.corpus]

    def new_corpus_files(self) -> int:
        """Inputs in the campaign corpus that were neither seeds nor copied in
        from AFL++."""
        return sum(1 for f in corpus_files(self.corpus)
                   if f.name not in self.seed_hashes and f.name not in self.imported)


class AflSession(Session):
    """AFL++: one main instance (-M) and jobs-1 secondaries (-S) sharing one
    sync folder; -F imports a foreign corpus (libFuzzer's) while running."""

    def start(self, seconds: int, foreign: Optional[Path] = None) -> None:
        """Starts every instance for `seconds`."""
        self.inputs = self.work / "in"
        self.sync = self.work / "sync"
        self.seed_hashes = set()
        flatten_seeds(self.seeds, self.inputs)
        self.seed_hashes = {file_hash(f) for f in self.inputs.iterdir()}
        self.started = time.time()
        self.deadline = self.started + seconds
        self.instances = ["main"] + [f"sec{i}" for i in range(1, self.jobs)]
        for name in self.instances:
            role = ["-M", name] if name == "main" else ["-S", name]
            cmd = ["afl-fuzz", "-V", str(max(1, seconds)), "-m", "none",
                   "-t", "2000+", "-i", str(self.inputs), "-o", str(self.sync),
                   *role]
            if self.dict_file:
                cmd += ["-x", str(self.dict_file)]
            if foreign is not None and name == "main":
                cmd += ["-F", str(foreign)]
            cmd += ["--", str(self.target.fuzzer)]
            self._spawn(cmd, self.work / f"afl-{name}.log", AFL_ENV)
            if name == "main":
                time.sleep(0.5)  # let the main create the sync folder first

    def instance_sample(self, name: str) -> tuple[int, int, int]:
        """(execs, edges, corpus) of one instance. AFL++ 4.04c rewrites
        fuzzer_stats and plot_data only about once a minute, so the queue's
        file names (id:N,...,execs:E) give the live figures in between."""
        folder = self.sync / name
        stats = {}
        if (folder / "fuzzer_stats").is_file():
            stats = parse_afl_stats((folder / "fuzzer_stats").read_text(errors="replace"))
        rows = []
        if (folder / "plot_data").is_file():
            rows = parse_afl_plot_data((folder / "plot_data").read_text(errors="replace"))
        row = rows[-1] if rows else {}
        execs = max(_int(stats.get("execs_done")), int(row.get("total_execs", 0)))
        edges = max(_int(stats.get("edges_found")), int(row.get("edges_found", 0)))
        corpus = max(_int(stats.get("corpus_count")), int(row.get("corpus_count", 0)))
        queue = [f.name for f in (folder / "queue").iterdir()
                 if f.name.startswith("id:")] if (folder / "queue").is_dir() else []
        crashes = [f.name for f in (folder / "crashes").glob("id:*")]
        for n in queue + crashes:
            m = re.search(r",execs:(\d+)", n)
            if m:
                execs = max(execs, int(m.group(1)))
        corpus = max(corpus, len(queue))
        return execs, edges, corpus

    def poll(self) -> None:
        """Samples every instance (summed execs, max edges and corpus), at
        most every two seconds."""
        now = time.time()
        if now - getattr(self, "last_poll", 0.0) < 2 and self.running():
            return
        self.last_poll = now
        if not self.sync.is_dir():
            return
        per = [self.instance_sample(n) for n in self.instances]
        execs = sum(p[0] for p in per)
        cov = max(p[1] for p in per)
        corp = max(p[2] for p in per)
        eps = execs / self.elapsed() if self.elapsed() > 0 else 0.0
        last = self.last()
        if cov and (execs, cov, corp) != (last.execs, last.coverage, last.corpus):
            self.samples.append(Sample(self.elapsed(), execs, cov, corp, eps))

    def crash_files(self) -> list[Path]:
        """Every instance's crashes/id:* files."""
        if not self.sync.is_dir():
            return []
        return sorted(self.sync.glob("*/crashes/id:*"))

    def queue_files(self) -> list[Path]:
        """New queue entries (not seeds, not imported from a sibling)."""
        files = []
        for q in sorted(self.sync.glob("*/queue")):
            files += [f for f in q.iterdir() if f.is_file()
                      and f.name.startswith("id:") and ",orig:" not in f.name
                      and ",sync:" not in f.name]
        return files

    def corpus_dirs(self) -> list[Path]:
        """The instances' queue folders."""
        return sorted(self.sync.glob("*/queue"))

    def new_corpus_files(self) -> int:
        """Queue entries the instances found themselves."""
        return len(self.queue_files())


def _int(text: Optional[str]) -> int:
    """An AFL++ stats number (0 when missing)."""
    try:
        return int(float((text or "0").rstrip("%")))
    except ValueError:
        return 0
