"""`fairwire fuzz bench`: fuzz throughput, measured (issue 12).

Each target of a libFuzzer build, and the libprotobuf-only baselines
(fuzz/baseline: wire_decode_diff's inputs parsed, re-serialised and
re-parsed by libprotobuf's generated code, nothing else; baseline_libprotobuf
with Debian's libprotobuf, which has neither coverage nor ASan, and, when
built, baseline_libprotobuf_instrumented with a libprotobuf built from
Debian's source with the targets' own instrumentation), is fuzzed alone for
a fixed time, one process at a time, from a copy of its shipped corpus
(seeds, found/ and the regressions that pass now), with libFuzzer
-print_final_stats=1 and the target's own .options flags and dictionary.
execs/s is the inputs the target ran over the run's wall time as the runner
measures it (from the process's start to its exit). The inputs are the calls
of its entry point less those that repeated the input just before, as the
entry point counts them (FAIRWIRE_INPUT_COUNT, fuzz/driver/entry.cc):
libFuzzer runs an input twice when its first run allocated more than it
freed, and stat::number_of_executed_units counts both runs (shown beside as
runs and re-runs). A binary whose entry point keeps no count is measured by
stat::number_of_executed_units, with a note.
Printed as a table with each target's ratio to each baseline and the goals
of issue 12 (against baseline_libprotobuf, the issue's yardstick, and
against the instrumented one beside it), and written as bench.json and
bench.md into the bench folder (out/bench-fuzz/<time>/)."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional

from .engines import file_hash
from .libfuzzer import parse_final_stats, parse_status_line
from .project import (Project, RunnerError, Target, corpus_files, default_output,
                      log, read_manifest, rel)

BASELINE = "baseline_libprotobuf"  # issue 12's yardstick: Debian's library
# The like-for-like yardstick: libprotobuf instrumented as the targets are
# (fuzz/baseline/instrumented_libprotobuf.cmake).
INSTRUMENTED = "baseline_libprotobuf_instrumented"
BASELINES = (BASELINE, INSTRUMENTED)
BASELINE_DIR = "fairwire-baselines"  # <build>/fairwire-baselines/<name>.json
# What `<target>_replay --repeat R` prints (fuzz/driver/replay_main.cc).
PER_INPUT_LINE = re.compile(r"timed \d+ inputs x \d+ passes: [0-9.]+ s, ([0-9.]+) us per input")


@dataclass
class Goal:
    """One throughput goal: targets whose name starts with `prefix` reach
    `threshold`, a ratio to the baseline (kind "ratio") or execs/s ("eps")."""

    prefix: str
    kind: str
    threshold: float

    def applies(self, name: str) -> bool:
        """Whether the goal is about this target."""
        return name.startswith(self.prefix)

    def describe(self, against: str = "the baseline") -> str:
        """The goal in words."""
        if self.kind == "ratio":
            return f">= {self.threshold:g}x {against}"
        return f">= {self.threshold:,.0f} execs/s"


# Issue 12: every wire target runs about four decoders, so three times the
# cost of one (0.33x libprotobuf alone) is the budget; poll_schedule 20,000.
GOALS = (Goal("wire_", "ratio", 0.33), Goal("poll_schedule", "eps", 20000))


@dataclass
class BenchRun:
    """One target's (or the baseline's) measured run."""

    name: str
    baseline: bool
    command: list[str]
    log: str
    inputs: int  # corpus files it started from
    seconds: float = 0.0  # wall time, the process's start to its exit
    runs: Optional[int] = None  # stat::number_of_executed_units
    # (calls - repeats) / seconds, or runs / seconds without the entry
    # point's count
    execs_per_sec: Optional[float] = None
    libfuzzer_execs_per_sec: Optional[int] = None  # stat::average_exec_per_sec
    exit_status: Optional[int] = None
    left_out: list[str] = field(default_factory=list)  # inputs failing now
    note: str = ""
    # The entry point's count (FAIRWIRE_INPUT_COUNT): its calls, and how many
    # repeated the input just before (libFuzzer's leak re-runs).
    calls: Optional[int] = None
    repeats: Optional[int] = None
    # --per-input: microseconds of one execution of one of the corpus inputs
    # it started from (their replay, no fuzzing), startup cancelled out.
    us_per_input: Optional[float] = None

    @property
    def complete(self) -> bool:
        """Whether it ran its whole time and reported its statistics."""
        return self.exit_status == 0 and self.runs is not None


def format_ratio(ratio: Optional[float]) -> str:
    """1x, 0.33x, 0.040x, 0.00035x (two significant digits below 0.1); '-'
    when unknown."""
    if ratio is None:
        return "-"
    if abs(ratio - 1.0) < 0.005:
        return "1x"
    if ratio >= 0.1 or ratio == 0:
        return f"{ratio:.2f}x"
    digits = 1
    while ratio * 10 ** digits < 10:
        digits += 1
    return f"{ratio:.{digits}f}x"


def _figure(value: Optional[float], decimals: int = 0) -> str:
    return "-" if value is None else f"{value:,.{decimals}f}"


def ratio_of(run: BenchRun, baseline: Optional[BenchRun]) -> Optional[float]:
    """The run's execs/s over the baseline's (None when either is unknown)."""
    if run is baseline:
        return 1.0 if run.execs_per_sec else None
    if (baseline is None or not baseline.execs_per_sec
            or run.execs_per_sec is None):
        return None
    return run.execs_per_sec / baseline.execs_per_sec


def cost_of(run: BenchRun, baseline: Optional[BenchRun]) -> Optional[float]:
    """--per-input: the run's time per input over the baseline's (how many
    libprotobuf-only executions one of its executions costs)."""
    if (baseline is None or not baseline.us_per_input
            or run.us_per_input is None):
        return None
    return run.us_per_input / baseline.us_per_input


def goal_rows(runs: list[BenchRun], baseline: Optional[BenchRun],
              instrumented: Optional[BenchRun] = None) -> list[dict[str, Any]]:
    """One row per goal and target it applies to: the goal, the measured
    figure and whether it is met (None: not known). A ratio goal has a row
    against the baseline and, when it ran, one against the instrumented
    baseline (each row's "against" names its yardstick)."""
    yardsticks = [(BASELINE, "the baseline", baseline)]
    if instrumented is not None:
        yardsticks.append((INSTRUMENTED, "the instrumented baseline", instrumented))
    rows = []
    for goal in GOALS:
        for run in runs:
            if run.baseline or not goal.applies(run.name):
                continue
            if goal.kind == "ratio":
                measured = [(against, goal.describe(words), ratio_of(run, base))
                            for against, words, base in yardsticks]
            else:
                measured = [(None, goal.describe(), run.execs_per_sec)]
            for against, words, value in measured:
                shown = format_ratio(value) if goal.kind == "ratio" else _figure(value)
                # Only a run that completed its time says whether a goal is met.
                met = (None if value is None or not run.complete
                       else value >= goal.threshold)
                rows.append({"target": run.name, "goal": words, "against": against,
                             "measured": shown, "value": value, "met": met})
    return rows


def _verdict(met: Optional[bool]) -> str:
    return "unknown" if met is None else ("met" if met else "NOT met")


HEADER = ["target", "runs", "re-runs", "seconds", "execs/s", "vs baseline"]
PER_INPUT_HEADER = ["us/input", "cost vs baseline"]
INSTRUMENTED_HEADER = ["vs instrumented"]
INSTRUMENTED_PER_INPUT_HEADER = ["cost vs instrumented"]


def baselines_of(runs: list[BenchRun]) -> tuple[Optional[BenchRun], Optional[BenchRun]]:
    """The runs of baseline_libprotobuf and of the instrumented baseline
    (None for one that did not run)."""
    by_name = {r.name: r for r in runs if r.baseline}
    return by_name.get(BASELINE), by_name.get(INSTRUMENTED)


def header(runs: list[BenchRun]) -> list[str]:
    """The table's columns: the instrumented baseline's when it ran, the
    per-input ones when some run has them."""
    with_instrumented = baselines_of(runs)[1] is not None
    out = HEADER + (INSTRUMENTED_HEADER if with_instrumented else [])
    if any(r.us_per_input is not None for r in runs):
        out += PER_INPUT_HEADER + (INSTRUMENTED_PER_INPUT_HEADER
                                   if with_instrumented else [])
    return out


def _cost(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:,.1f}x"


def table_rows(runs: list[BenchRun], baseline: Optional[BenchRun]) -> list[list[str]]:
    """The table's cells: the baselines first, then each target."""
    rows = []
    instrumented = baselines_of(runs)[1]
    head = header(runs)
    per_input = PER_INPUT_HEADER[0] in head
    for run in sorted(runs, key=lambda r: not r.baseline):
        name = f"{run.name} (libprotobuf only)" if run.baseline else run.name
        if run.note:
            name += " *"
        row = [name, _figure(run.runs), _figure(run.repeats), f"{run.seconds:.1f}",
               _figure(run.execs_per_sec), format_ratio(ratio_of(run, baseline))]
        if instrumented is not None:
            row.append(format_ratio(ratio_of(run, instrumented)))
        if per_input:
            row += [_figure(run.us_per_input, 1), _cost(cost_of(run, baseline))]
            if instrumented is not None:
                row.append(_cost(cost_of(run, instrumented)))
        rows.append(row)
    return rows


def text_report(runs: list[BenchRun], baseline: Optional[BenchRun]) -> str:
    """The table, the notes and the goals as aligned plain text."""
    head = header(runs)
    rows = [head] + table_rows(runs, baseline)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = []
    for n, r in enumerate(rows):
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
        lines.append("  ".join(cells))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines += [f"* {r.name}: {r.note}" for r in runs if r.note]
    goals = goal_rows(runs, baseline, baselines_of(runs)[1])
    if goals:
        lines += ["", "goals (issue 12):"]
        tw = max(len(g["target"]) for g in goals)
        gw = max(len(g["goal"]) for g in goals)
        mw = max(len(g["measured"]) for g in goals)
        for g in goals:
            lines.append(f"  {g['target']:<{tw}}  {g['goal']:<{gw}}  "
                         f"{g['measured']:>{mw}}  {_verdict(g['met'])}")
    return "\n".join(lines)


def markdown_report(summary: dict[str, Any]) -> str:
    """bench.md: what was run, on what, the table and the goals."""
    runs = [BenchRun(**r) for r in summary["runs"]]
    baseline, instrumented = baselines_of(runs)
    out = [f"# fairwire fuzz bench {summary['id']}", "",
           f"`{summary['command']}`", "",
           f"Build: `{summary['build']}`. {summary['seconds']} s per target, one "
           f"process at a time, libFuzzer -print_final_stats=1 from a copy of each "
           f"corpus; execs/s = {summary.get('execs_per_sec_is', EXECS_PER_SEC_IS)}. "
           f"Machine: {summary['cpus']} CPUs, load average {summary['load_before']} "
           f"before and {summary['load_after']} after.", "",
           "| " + " | ".join(header(runs)) + " |",
           "|---|" + "---:|" * (len(header(runs)) - 1)]
    for row in table_rows(runs, baseline):
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
    notes = [f"\\* {r.name}: {r.note}" for r in runs if r.note]
    if notes:
        out += [""] + notes
    goals = goal_rows(runs, baseline, instrumented)
    if goals:
        out += ["", "## Goals (issue 12)", "", "| target | goal | measured | |",
                "|---|---|---:|---|"]
        for g in goals:
            out.append(f"| {g['target']} | {g['goal']} | {g['measured']} | "
                       f"{_verdict(g['met'])} |")
    return "\n".join(out) + "\n"


# --- running -----------------------------------------------------------------

def find_baseline(project: Project, name: str = BASELINE) -> Optional[Target]:
    """A baseline's manifest beside the build's target manifests
    (<build>/fairwire-baselines/), built first for a preset build; None
    when the build has none."""
    if project.prebuilt:
        folders = [d.parent / BASELINE_DIR for d in project.manifest_dirs]
    else:
        bdir = project.build_dir("libfuzzer")
        if project.build:
            try:
                project.build_targets("libfuzzer", [name])
            except RunnerError as e:
                log(f"no {name}: {e}")
                return None
        folders = [bdir / BASELINE_DIR]
    for folder in folders:
        path = folder / f"{name}.json"
        if path.is_file():
            target = read_manifest(path)
            if target.fuzzer and target.fuzzer.is_file():
                return target
            log(f"no {name}: {path} names no built binary ({target.fuzzer})")
            return None
    return None


def find_baselines(project: Project) -> list[Target]:
    """baseline_libprotobuf, then the instrumented baseline, each when the
    build has it; says what is missing and how to get it."""
    found = []
    base = find_baseline(project)
    if base is None:
        log(f"no {BASELINE_DIR}/{BASELINE}.json beside the build's targets: "
            f"measuring without the libprotobuf-only baseline (ratios unknown)")
    else:
        found.append(base)
    # A build without libprotobuf's source has no such CMake target: do not
    # ask ninja for it.
    if project.prebuilt or _has_instrumented_baseline(project):
        instrumented = find_baseline(project, INSTRUMENTED)
    else:
        instrumented = None
    if instrumented is None:
        log(f"no {INSTRUMENTED} (the like-for-like yardstick): it needs Debian's "
            f"source of libprotobuf (ci/install-deps --protobuf-source, then "
            f"reconfigure: cmake --preset libfuzzer)")
    else:
        found.append(instrumented)
    return found


def _has_instrumented_baseline(project: Project) -> bool:
    """Whether the preset build, configured now, has the instrumented
    baseline (CMake writes its manifest when it found libprotobuf's source)."""
    try:
        bdir = project.configure("libfuzzer")
    except RunnerError:
        return False
    return (bdir / BASELINE_DIR / f"{INSTRUMENTED}.json").is_file()


def _passes(target: Target, path: Path) -> bool:
    try:
        return subprocess.run([str(target.replay), str(path)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=60).returncode == 0
    except subprocess.TimeoutExpired:
        return False


def failing_inputs(target: Target, folder: Path, files: list[Path]) -> list[Path]:
    """The files that fail the target's check now, by its replay binary:
    once over the whole folder (it prints "FAIL <file>: ..." for each
    violation), one file at a time when that run crashed; none without a
    replay binary (the baseline)."""
    if not (target.replay and target.replay.is_file()) or not files:
        return []
    try:
        r = subprocess.run([str(target.replay), str(folder)], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=600)
    except subprocess.TimeoutExpired:
        r = None
    if r is not None and r.returncode == 0:
        return []
    if r is not None and r.returncode == 1:
        out = r.stdout.decode(errors="replace")
        failing = [f for f in files if f"FAIL {f}:" in out]
        if failing:
            return failing
    return [f for f in files if not _passes(target, f)]


def copy_corpus(project: Project, target: Target, dest: Path) -> tuple[int, list[str]]:
    """Copies the target's corpus (seeds, found/, regressions/) flat into
    `dest`, by content hash, without README files and without the inputs
    that fail the target's check now (a failing input would stop libFuzzer
    at once). Returns (files copied, files left out)."""
    dest.mkdir(parents=True, exist_ok=True)
    folder = project.corpus_dir(target)
    files = [f for f in corpus_files(folder) if not f.name.startswith("README")]
    failing = set(failing_inputs(target, folder, files))
    for f in files:
        if f not in failing:
            shutil.copyfile(f, dest / file_hash(f)[:16])
    if not any(dest.iterdir()):
        (dest / "empty").write_bytes(b"")
    return len(list(dest.iterdir())), sorted(rel(f) for f in failing)


# What execs/s is, in bench.json and bench.md.
EXECS_PER_SEC_IS = ("inputs run / the run's wall time, where inputs run = the "
                    "entry point's calls less its re-runs (a call repeating the "
                    "input just before: libFuzzer's leak checks, or a mutation "
                    "that gave the same bytes)")
INPUT_COUNT = "input-count"  # the entry point's count, in the run's folder


def read_input_count(path: Path) -> tuple[Optional[int], Optional[int]]:
    """(calls, repeats) from the file the entry point writes at exit
    (fuzz/driver/entry.cc), or (None, None) when it wrote none."""
    try:
        fields = dict(line.split() for line in path.read_text().splitlines()
                      if len(line.split()) == 2)
        return int(fields["calls"]), int(fields["repeats"])
    except (OSError, KeyError, ValueError):
        return None, None


def bench_command(project: Project, target: Target, seconds: int, work: Path,
                  seed: int) -> list[str]:
    """The libFuzzer command line of one measured run."""
    cmd = [str(target.fuzzer), f"-max_total_time={seconds}", "-print_final_stats=1",
           "-timeout=10", "-rss_limit_mb=2560", "-print_pcs=0",
           f"-artifact_prefix={work / 'artifacts'}/"]
    if seed:
        cmd.append(f"-seed={seed}")
    dict_file = project.dict_file(target)
    if dict_file:
        cmd.append(f"-dict={dict_file}")
    cmd += project.libfuzzer_flags(target)
    return cmd + [str(work / "corpus")]


def measure(project: Project, target: Target, seconds: int, work: Path, seed: int,
            baseline: bool = False) -> BenchRun:
    """Fuzzes one target alone for `seconds` and reads its final statistics."""
    inputs, left_out = copy_corpus(project, target, work / "corpus")
    (work / "artifacts").mkdir(parents=True, exist_ok=True)
    cmd = bench_command(project, target, seconds, work, seed)
    log_path = work / "libfuzzer.log"
    run = BenchRun(target.name, baseline, cmd, rel(log_path), inputs, left_out=left_out)
    with open(log_path, "wb") as out:
        started = time.monotonic()
        env = dict(os.environ, FAIRWIRE_INPUT_COUNT=str(work / INPUT_COUNT))
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, cwd=work, env=env,
                                start_new_session=True)
        try:
            run.exit_status = proc.wait(timeout=seconds + 60)
        except subprocess.TimeoutExpired:
            run.note = f"still running {seconds + 60} s after its start; stopped"
            _stop(proc)
            run.exit_status = proc.returncode
        except KeyboardInterrupt:
            _stop(proc)
            raise
        run.seconds = time.monotonic() - started
    text = log_path.read_text(errors="replace")
    stats = parse_final_stats(text)
    run.runs = stats.get("number_of_executed_units")
    run.libfuzzer_execs_per_sec = stats.get("average_exec_per_sec")
    if run.runs is None:  # no final statistics: the last status line's runs
        lines = [s for s in map(parse_status_line, text.splitlines()) if s]
        run.runs = lines[-1].runs if lines else None
        run.note = run.note or "no final statistics (see its log)"
    run.calls, run.repeats = read_input_count(work / INPUT_COUNT)
    if run.seconds > 0 and run.calls is not None:  # repeats come with calls
        run.execs_per_sec = (run.calls - run.repeats) / run.seconds
    elif run.runs is not None and run.seconds > 0:
        run.execs_per_sec = run.runs / run.seconds
        if run.exit_status == 0:
            run.note = run.note or (
                "its entry point kept no input count (FAIRWIRE_INPUT_COUNT): "
                "execs/s counts libFuzzer's leak re-runs too")
    if run.exit_status != 0 and not run.note:
        found = sorted(p.name for p in (work / "artifacts").iterdir())
        run.note = (f"stopped after {run.seconds:.1f} s with exit status "
                    f"{run.exit_status}" + (f" ({', '.join(found)} in "
                                            f"{rel(work / 'artifacts')})" if found else ""))
    if left_out:
        shown = ", ".join(left_out[:3]) + (", ..." if len(left_out) > 3 else "")
        run.note = ((run.note + "; ") if run.note else "") + (
            f"{len(left_out)} of its {len(left_out) + inputs} corpus inputs fail "
            f"its check now and were left out ({shown})")
    return run


def measure_per_input(target: Target, inputs: Path, runs: int, work: Path) -> float:
    """Microseconds per check of one input of `inputs` (a folder): the
    target's replay driver reads and checks every file once, then times
    `runs` passes of the check alone over them (`--repeat`), with no engine
    bookkeeping and no file reads in the timed loop."""
    if not target.replay or not Path(target.replay).is_file():
        raise RunnerError(f"{target.name} has no replay driver to time its check")
    proc = subprocess.run([str(target.replay), "--repeat", str(runs), str(inputs)],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          stdin=subprocess.DEVNULL, cwd=work, text=True, check=True)
    match = PER_INPUT_LINE.search(proc.stdout)
    if match is None:
        raise RunnerError(f"{target.name}_replay --repeat printed no timing: "
                          f"{proc.stdout[-200:]!r}")
    return float(match.group(1))


def _stop(proc: subprocess.Popen) -> None:
    for sig in (signal.SIGINT, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=10)
            return
        except subprocess.TimeoutExpired:
            continue


def _terminate(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt  # SIGTERM stops the run in progress as Ctrl-C does


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def run_bench(project: Project, args: Any) -> int:
    """The `fuzz bench` command. Exit status 0 when every run completed its
    time with final statistics (whether or not the goals are met), 1 when
    one did not, 130 when interrupted."""
    if project.prebuilt and project.default_engine() != "libfuzzer":
        raise RunnerError("fuzz bench measures libFuzzer builds only; give the "
                          "--build-dir of a build with FAIRWIRE_FUZZ_ENGINE=libfuzzer")
    per_input = getattr(args, "per_input", 0)
    if per_input < 0:
        raise RunnerError("--per-input R needs a count of 1 or more")
    names = [n for n in args.targets if n not in BASELINES]
    targets = project.select("libfuzzer", names, want_fuzzer=True)
    baselines = find_baselines(project)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    root = Path(args.out or default_output("bench-fuzz")).resolve()
    folder = root / stamp
    n = 1
    while folder.exists():
        n += 1
        folder = root / f"{stamp}-{n}"
    folder.mkdir(parents=True)
    log(f"bench folder: {rel(folder)}")
    plan = [(b, True) for b in baselines] + [(t, False) for t in targets]
    signal.signal(signal.SIGTERM, _terminate)
    load_before = _load()
    runs: list[BenchRun] = []
    interrupted = False
    for i, (target, is_baseline) in enumerate(plan, 1):
        log(f"bench {i}/{len(plan)}: {target.name}, {args.time} s")
        try:
            run = measure(project, target, args.time, folder / target.name, args.seed,
                          baseline=is_baseline)
        except KeyboardInterrupt:
            log("interrupted; writing what was measured")
            interrupted = True
            break
        if per_input and run.complete:
            work = folder / target.name
            inputs = work / "inputs"
            copy_corpus(project, target, inputs)
            try:
                run.us_per_input = measure_per_input(target, inputs, per_input, work)
            except subprocess.CalledProcessError as e:
                run.note = ((run.note + "; ") if run.note else "") + (
                    f"its replay for --per-input failed (exit status {e.returncode})")
            except RunnerError as e:
                run.note = ((run.note + "; ") if run.note else "") + str(e)
        runs.append(run)
        log(f"{target.name}: {_figure(run.runs)} runs ({_figure(run.repeats)} "
            f"re-runs) in {run.seconds:.1f} s: "
            f"{_figure(run.execs_per_sec)} execs/s" + (
                f", {run.us_per_input:,.1f} us per input" if run.us_per_input else "")
            + (f" ({run.note})" if run.note else ""))
    base, instrumented = baselines_of(runs)
    summary = {
        "id": folder.name, "folder": rel(folder),
        "command": " ".join(["fairwire"] + list(getattr(args, "argv", None)
                                                or ["fuzz", "bench"])),
        "build": project.describe_builds() if project.prebuilt
        else rel(project.build_dir("libfuzzer")),
        "seconds": args.time, "seed": args.seed, "cpus": os.cpu_count(),
        "load_before": load_before, "load_after": _load(),
        "execs_per_sec_is": EXECS_PER_SEC_IS,
        "interrupted": interrupted,
        "runs": [asdict(r) for r in runs],
        "ratios": {r.name: ratio_of(r, base) for r in runs},
        "ratios_instrumented": {r.name: ratio_of(r, instrumented) for r in runs},
        "per_input_runs": per_input,
        "costs": {r.name: cost_of(r, base) for r in runs},
        "costs_instrumented": {r.name: cost_of(r, instrumented) for r in runs},
        "goals": goal_rows(runs, base, instrumented)}
    (folder / "bench.json").write_text(json.dumps(summary, indent=1))
    (folder / "bench.md").write_text(markdown_report(summary))
    print()
    print(text_report(runs, base))
    print()
    print(f"written: {rel(folder / 'bench.md')} and bench.json")
    sys.stdout.flush()
    if interrupted:
        return 130
    return 0 if all(r.complete for r in runs) and len(runs) == len(plan) else 1
