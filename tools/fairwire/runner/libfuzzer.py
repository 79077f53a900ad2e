"""libFuzzer's output (LLVM 14): its status lines, its final statistics, and
the live figures of one libFuzzer process made from them, plain or -fork=N.

A plain process prints a status line on every new input and at every power
of two runs:

  #4096	pulse  cov: 66 ft: 112 corp: 10/40b lim: 8 exec/s: 2048 rss: 31Mb

with its own totals (exec/s is its average since it started). Under -fork=N
the parent prints one line each time a job (a child libFuzzer run of 1 s,
then 2 s, ... up to 300 s) ends, before merging that job's finds:

  #12345: cov: 6215 ft: 9000 corp: 120 exec/s 310 oom/timeout/crash: 0/0/0 time: 42s job: 7 dft_time: 0

Its runs are those of the jobs that ended; its exec/s is the ended job's own
average (one process, not the N jobs); and its cov is not edges: libFuzzer 14
starts the parent's cov from the seeds' *feature* count (15 seeds of
poll_schedule: fork parent "cov: 6122", the same seeds replayed "cov: 3946
ft: 6122"), so it is never comparable with a plain process's cov or AFL++'s
edges. Its ft (features of the merged corpus) is. Each running job writes
plain status lines into its own log, <temp dir>/<job>.log, which the parent
names on its line "INFO: -fork=N: ... starting to fuzz in DIR". ForkProgress
combines both.

Both kinds of line may arrive glued to the end of another: libFuzzer cuts a
symbolized NEW_FUNC line at 1024 bytes without its newline (poll_schedule's
template names are longer), so the next status line starts in mid-line. A
status line is therefore searched for anywhere in a line, not at its start.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

# "#4096<TAB>pulse  cov: ..." (cov, ft, corp and exec/s each may be missing).
PLAIN_START = re.compile(r"#(\d+)\t(INITED|NEW|REDUCE|pulse|DONE|RELOAD)\b")
PLAIN_FIELD = re.compile(r"\b(cov|ft|corp|exec/s): (\d+)")
# "#N: cov: C ft: F corp: K exec/s E oom/timeout/crash: a/b/c time: Ts job: J"
# (LLVM 14 writes "exec/s E", later releases "exec/s: E").
FORK_LINE = re.compile(
    r"#(\d+): cov: (\d+) ft: (\d+) corp: (\d+) exec/s:? (\d+) "
    r"oom/timeout/crash: (\d+)/(\d+)/(\d+) time: (\d+)s job: (\d+)")
FINAL_STAT = re.compile(r"stat::([a-z_]+):\s*(\d+)")
FORK_DIR = re.compile(r"INFO: -fork=\d+: .* starting to fuzz in (\S+)")


@dataclass
class StatusLine:
    """One libFuzzer status line. For a plain line, event is INITED, NEW,
    REDUCE, pulse, DONE or RELOAD and the figures are the process's own;
    for a -fork parent's line, event is "job" and job names the job that
    ended."""

    runs: int
    event: str
    cov: Optional[int] = None
    ft: Optional[int] = None
    corpus: Optional[int] = None
    execs_per_sec: Optional[int] = None
    job: Optional[int] = None
    seconds: Optional[int] = None  # fork: seconds since the parent started
    crashes: Optional[int] = None  # fork: oom + timeout + crash so far


def parse_status_line(line: str) -> Optional[StatusLine]:
    """The status line in `line` (the last one, wherever it starts), or None."""
    forks = list(FORK_LINE.finditer(line))
    plains = list(PLAIN_START.finditer(line))
    fork = forks[-1] if forks else None
    plain = plains[-1] if plains else None
    if fork and (plain is None or fork.start() > plain.start()):
        g = [int(x) for x in fork.groups()]
        return StatusLine(runs=g[0], event="job", cov=g[1], ft=g[2], corpus=g[3],
                          execs_per_sec=g[4], crashes=g[5] + g[6] + g[7],
                          seconds=g[8], job=g[9])
    if plain is None:
        return None
    fields = dict(PLAIN_FIELD.findall(line[plain.end():]))
    get = lambda k: int(fields[k]) if k in fields else None  # noqa: E731
    return StatusLine(runs=int(plain.group(1)), event=plain.group(2),
                      cov=get("cov"), ft=get("ft"), corpus=get("corp"),
                      execs_per_sec=get("exec/s"))


def parse_final_stats(text: str) -> dict[str, int]:
    """The stat::name: value lines of -print_final_stats=1 (the last value
    of each name), e.g. {"number_of_executed_units": 123456,
    "average_exec_per_sec": 4115, ...}."""
    return {name: int(value) for name, value in FINAL_STAT.findall(text)}


@dataclass
class Figures:
    """What a process has done so far; None where it is not known."""

    runs: Optional[int] = None
    execs_per_sec: Optional[float] = None  # now (None once nothing runs)
    cov: Optional[int] = None  # edges, as one libFuzzer process counts them
    ft: Optional[int] = None  # libFuzzer features


class PlainProgress:
    """One plain libFuzzer process: the figures of its latest status line
    (exec/s there is libFuzzer's own average since the process started),
    its runs from the final statistics once it printed them."""

    def __init__(self) -> None:
        self.line: Optional[StatusLine] = None
        self.final: dict[str, int] = {}

    def feed(self, text: str) -> bool:
        """Takes one line of the process's output; whether it changed anything."""
        stats = parse_final_stats(text)
        if stats:
            self.final.update(stats)
            return True
        line = parse_status_line(text)
        if line is None or line.event == "job":
            return False
        self.line = line
        return True

    def figures(self, running: bool) -> Figures:
        """The process's figures (exec/s only while it runs)."""
        runs = self.final.get("number_of_executed_units")
        if self.line is None:
            return Figures(runs=runs)
        eps = self.line.execs_per_sec
        if not running or (eps == 0 and self.line.runs > 0):
            eps = None  # stopped, or libFuzzer's rate in its first second
        return Figures(runs=max(runs or 0, self.line.runs), execs_per_sec=eps,
                       cov=self.line.cov, ft=self.line.ft)


@dataclass
class _Job:
    progress: PlainProgress
    offset: int = 0
    gone: bool = False  # its log disappeared before the parent merged it


class ForkProgress:
    """One libFuzzer -fork=N process, from the parent's lines and the logs
    of the jobs still running:

    - runs: the parent's total over the jobs it merged, plus each running
      (or killed, unmerged) job's own count from its log;
    - exec/s: the sum of the running jobs' own rates (each libFuzzer's
      average since that job started); None when no running job has
      reported a rate yet;
    - ft: the parent's features of the merged corpus (as of the last job
      merged);
    - cov: None: the parent's cov is not edges (see the module's note) and a
      job's cov covers only the seeds it was given; the campaign measures the
      merged corpus's edges after the run instead."""

    def __init__(self) -> None:
        self.parent: Optional[StatusLine] = None
        self.merged: set[int] = set()
        self.jobs: dict[int, _Job] = {}
        self.job_dir: Optional[Path] = None

    def feed(self, text: str) -> bool:
        """Takes one line of the parent's output."""
        m = FORK_DIR.search(text)
        if m:
            self.job_dir = Path(m.group(1))
            return False
        line = parse_status_line(text)
        if line is None or line.event != "job":
            return False
        self.parent_line(line)
        return True

    def parent_line(self, line: StatusLine) -> None:
        """A job ended and its runs are now in the parent's total."""
        self.parent = line
        if line.job is not None:
            self.merged.add(line.job)
            self.jobs.pop(line.job, None)

    def job_text(self, job: int, text: str) -> bool:
        """New output of a running job's log."""
        if job in self.merged:
            return False
        state = self.jobs.setdefault(job, _Job(PlainProgress()))
        changed = False
        for raw in text.splitlines():
            changed |= state.progress.feed(raw)
        return changed

    def job_gone(self, job: int) -> None:
        """A job's log is gone without a parent line (killed at the end)."""
        if job in self.jobs:
            self.jobs[job].gone = True

    def read_job_logs(self) -> bool:
        """Reads what the running jobs wrote since the last call."""
        if self.job_dir is None:
            return False
        changed = False
        present = set()
        try:
            logs = [p for p in self.job_dir.iterdir() if p.suffix == ".log"
                    and p.stem.isdigit()]
        except OSError:
            logs = []
        for path in logs:
            job = int(path.stem)
            present.add(job)
            if job in self.merged:
                continue
            state = self.jobs.setdefault(job, _Job(PlainProgress()))
            try:
                with open(path, "rb") as f:
                    f.seek(state.offset)
                    chunk = f.read()
            except OSError:
                continue
            end = chunk.rfind(b"\n") + 1
            state.offset += end
            if end:
                changed |= self.job_text(job, chunk[:end].decode(errors="replace"))
        for job in list(self.jobs):
            if job not in present and not self.jobs[job].gone:
                self.job_gone(job)
                changed = True
        return changed

    def figures(self, running: bool) -> Figures:
        """The process's figures now (see the class's note)."""
        job_figures = [(j, j.progress.figures(running and not j.gone))
                       for j in self.jobs.values()]
        runs: Optional[int] = self.parent.runs if self.parent else None
        for _, f in job_figures:
            if f.runs is not None:
                runs = (runs or 0) + f.runs
        rates = [f.execs_per_sec for j, f in job_figures
                 if not j.gone and f.execs_per_sec is not None]
        eps = float(sum(rates)) if running and rates else None
        return Figures(runs=runs, execs_per_sec=eps, cov=None,
                       ft=self.parent.ft if self.parent else None)
