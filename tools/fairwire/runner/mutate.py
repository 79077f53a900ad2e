"""`fairwire mutate`: mutation testing of C and C++ sources against a CMake
project's ctest suite.

  1. Copies the project (its git-tracked files) to <out>/tree, configures it
     (a preset, or a plain Ninja configure), and finds the mutation points of
     the files asked for with clang's parser (mutation_points.py).
  2. Rewrites those files as mutation schemata (mutation_schemata.py) and
     builds once. A mutant the compiler refuses (a point in a context that
     must stay constant, say) is dropped, named, and the build retried.
  3. Runs every test of the labels once with tracing: which tests reach which
     points. A test that fails with no mutant live is left out (and named).
  4. For each mutant, runs only the tests that reach it, fastest first,
     stopping at the first failure: killed (with that test), timed out, or
     survived. A mutant no test reaches survives.
  5. Writes report.md and report.json: the score, every survivor with its
     line and diff, and the survivors listed as equivalent (a file of keys
     and reasons).

Rebuilding is once per run, not once per mutant: the schemata hold every
mutant (a mutant of a core header would otherwise rebuild most of the tree).
"""
from __future__ import annotations

import concurrent.futures
import fnmatch
import json
import os
import platform
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .mutation_points import OPERATORS, Point, find_points, points_digest
from .project import RunnerError, log
from .mutation_schemata import RUNTIME_HEADER, rewrite

SOURCE_SUFFIXES = (".h", ".hh", ".hpp", ".c", ".cc", ".cpp", ".cxx")
DEFAULT_EXCLUDES = ("*_test.*", "*/test_*", "*/tests/*", "*/bench/*",
                    "*_test_gen.h")


@dataclass
class TestInfo:
    name: str
    number: int = 0              # ctest's test number
    seconds: float = 0.0
    reached: set[int] = field(default_factory=set)
    baseline_ok: bool = True


@dataclass
class Outcome:
    point: Point
    status: str                  # killed, timeout, survived, equivalent
    test: str = ""               # the first failing test (killed, timeout)
    tests_run: int = 0
    seconds: float = 0.0
    reason: str = ""             # equivalent: why
    reused: bool = False         # taken from the previous report (--resume)


# -- files and tree ----------------------------------------------------------

def expand_sources(root: Path, paths: list[str], excludes: list[str]) -> list[str]:
    """The source files (relative to root) under each path, minus excludes."""
    out: set[str] = set()
    for p in paths:
        full = (root / p).resolve()
        if full.is_file():
            candidates = [full]
        elif full.is_dir():
            candidates = [f for f in full.rglob("*") if f.is_file()]
        else:
            raise RunnerError(f"no such file or folder: {p}")
        for f in candidates:
            if f.suffix not in SOURCE_SUFFIXES:
                continue
            rel = f.relative_to(root).as_posix()
            if any(fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch(f.name, pat)
                   for pat in excludes):
                continue
            out.add(rel)
    if not out:
        raise RunnerError("no source files to mutate")
    return sorted(out)


def copy_tree(root: Path, tree: Path) -> None:
    """The project's files as git knows them (tracked, and untracked but not
    ignored; every file but build folders outside git), working-tree
    contents, into `tree`."""
    listed = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
         "--exclude-standard"], capture_output=True)
    if listed.returncode == 0:
        names = [n for n in listed.stdout.decode().split("\0") if n]
    else:
        # Not a git work tree: every file but build and VCS folders.
        skip = {".git", "out", "build", "_build"}
        names = [f.relative_to(root).as_posix() for f in root.rglob("*")
                 if f.is_file() and not skip & set(f.relative_to(root).parts)
                 and not f.relative_to(root).parts[0].startswith("build")]
    if tree.exists():
        shutil.rmtree(tree)
    for rel in names:
        src = root / rel
        if not src.is_file():
            continue  # deleted in the working tree
        dst = tree / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)


# -- build -------------------------------------------------------------------

def build_env(tree: Path) -> dict[str, str]:
    """ccache keyed on paths relative to the tree, so the copy hits the
    entries of a build of the same files elsewhere."""
    env = dict(os.environ)
    env.setdefault("CCACHE_NOHASHDIR", "true")
    env["CCACHE_BASEDIR"] = str(tree)
    return env


def configure(tree: Path, build: Path, preset: str | None,
              cmake_args: list[str]) -> None:
    env = build_env(tree)
    if preset:
        cmd = ["cmake", "--preset", preset, "-B", str(build)]
    else:
        cmd = ["cmake", "-S", str(tree), "-B", str(build), "-G", "Ninja",
               "-DCMAKE_BUILD_TYPE=Debug"]
    cmd += ["-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"] + cmake_args
    r = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise RunnerError("configure failed:\n" + r.stdout[-4000:] +
                          r.stderr[-4000:])


_ERROR = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)? (?:fatal )?error:",
                    re.MULTILINE)


def build_schemata(tree: Path, build: Path, points: list[Point],
                   jobs: int, targets: list[str]) -> tuple[list[Point], list[Point]]:
    """Rewrites the files of `points` in the tree and builds; drops the
    mutants the compiler refuses, until the build passes. Returns (built,
    dropped)."""
    header = str(Path(__file__).with_name(RUNTIME_HEADER).resolve())
    originals: dict[str, bytes] = {}
    for p in points:
        if p.path not in originals:
            originals[p.path] = (tree / p.path).read_bytes()
    enabled = {p.id: p for p in points}
    dropped: list[Point] = []
    env = build_env(tree)
    for attempt in range(1, 13):
        line_maps = {}
        for path, text in originals.items():
            mine = [p for p in enabled.values() if p.path == path]
            rewritten = rewrite(text, mine, header)
            for p in rewritten.left_out:  # not built: not run, but named
                dropped.append(enabled.pop(p.id))
            (tree / path).write_bytes(rewritten.text)
            line_maps[os.path.realpath(tree / path)] = rewritten.line_points
        cmd = ["cmake", "--build", str(build), "-j", str(jobs), "--"]
        cmd += ["-k", "0"] + targets
        log(f"mutate: building {len(enabled)} mutants (attempt {attempt})")
        r = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if r.returncode == 0:
            return sorted(enabled.values(), key=lambda p: p.id), dropped
        refused = refused_ids(r.stdout + r.stderr, build, line_maps)
        refused &= set(enabled)
        if not refused:
            raise RunnerError("the build failed where no mutant is to blame:\n"
                              + failure_summary(r.stdout + r.stderr))
        for i in sorted(refused):
            dropped.append(enabled.pop(i))
        log(f"mutate: the compiler refused {len(refused)} mutant(s); "
            "dropped, rebuilding")
    raise RunnerError("the build still fails after 12 attempts")


def failure_summary(output: str, limit: int = 6000) -> str:
    """What a failed build's output says went wrong: each step ninja names
    as FAILED with its errors (and a compiler killed by a signal, which
    prints no error), not the tail, which a warning's long template
    backtrace can fill on its own."""
    lines = output.splitlines()
    keep: list[str] = []
    for i, line in enumerate(lines):
        if line.startswith("FAILED: "):
            keep.append(line)
        elif (_ERROR.match(line) or "internal compiler error" in line
              or "Killed signal" in line or "terminated" in line
              or line.startswith(("collect2:", "ld:", "/usr/bin/ld:"))):
            keep.extend(lines[i:i + 3])
    text = "\n".join(keep) if keep else output
    return text[:limit] if keep else text[-limit:]


def refused_ids(output: str, build: Path, line_maps: dict) -> set[int]:
    """The mutants on (or just above) each line a compiler error names."""
    ids: set[int] = set()
    for m in _ERROR.finditer(output):
        path = m.group("file")
        if not os.path.isabs(path):
            path = os.path.join(build, path)
        lines = line_maps.get(os.path.realpath(path))
        if lines is None:
            continue
        line = int(m.group("line"))
        for back in range(0, 8):
            found = lines.get(line - back)
            if found:
                ids |= found
                break
    return ids


# -- tests -------------------------------------------------------------------

def ctest_tests(build: Path, flags: list[str]) -> list[dict]:
    """ctest's list of the tests these flags select (its JSON)."""
    r = subprocess.run(["ctest", "--test-dir", str(build), *flags,
                        "--show-only=json-v1"], capture_output=True, text=True)
    if r.returncode != 0:
        raise RunnerError(f"ctest could not list the tests of {build}:\n"
                          + r.stderr)
    return json.loads(r.stdout).get("tests", [])


def test_binaries(build: Path, labels: str,
                  exclude_labels: str | None = None) -> list[str]:
    """The executables (paths relative to `build`) that the tests of these
    labels run, as an existing build of the project lists them: the only
    targets the mutants' build needs."""
    out: set[str] = set()
    root = build.resolve()
    for test in ctest_tests(build, label_flags(labels, exclude_labels)):
        # The command, and any argument naming an executable of the build
        # (a test run by a script, say).
        for word in test.get("command") or []:
            path = Path(word)
            if not path.is_absolute():
                continue
            path = path.resolve()
            if root in path.parents and path.is_file() and os.access(
                    path, os.X_OK):
                out.add(path.relative_to(root).as_posix())
    return sorted(out)


def label_flags(labels: str, exclude_labels: str | None) -> list[str]:
    return ["-L", labels] + (["-LE", exclude_labels] if exclude_labels else [])


def list_tests(build: Path, labels: str,
               exclude_labels: str | None = None) -> dict[str, int]:
    """The tests of these labels: name -> ctest's test number (its place in
    the whole list, which -I takes, whatever characters the name has)."""
    numbers = {t["name"]: i for i, t in enumerate(ctest_tests(build, []),
                                                  start=1)}
    return {t["name"]: numbers[t["name"]] for t in ctest_tests(
        build, label_flags(labels, exclude_labels))}


def kill_group(proc: subprocess.Popen) -> None:
    """Kills the process group `proc` leads (start_new_session) and reaps
    `proc`."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


_TEST_LINE = re.compile(r"Test\s+#(?P<number>\d+): (?P<rest>.*)$", re.MULTILINE)


def run_ctest(build: Path, tests: list[tuple[str, int]],
              env_extra: dict[str, str], timeout: float,
              stop_on_failure: bool,
              budget: float | None = None) -> tuple[str, str, float]:
    """Runs these tests (name, number); returns (status, first failing
    test, seconds): status passed, failed or timeout.

    `timeout` is each test's limit, given to ctest. But ctest's --timeout is
    only a default (a test's TIMEOUT property wins over it), so the whole run
    is also held to `budget` seconds here (default: `timeout` per test):
    past it, ctest and everything it started (its own process group: a hung
    test is never left running) are killed, and the run counts as a
    timeout."""
    numbers = ",".join(str(i) for _, i in tests)
    cmd = ["ctest", "--test-dir", str(build), "-I", f"0,0,0,{numbers}",
           "--timeout", str(int(max(timeout, 1)))]
    if stop_on_failure:
        cmd.append("--stop-on-failure")
    env = dict(os.environ)
    env.update(env_extra)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    try:
        output, _ = proc.communicate(
            timeout=budget if budget is not None
            else timeout * max(len(tests), 1) + 30)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        return "timeout", tests[0][0], time.monotonic() - start
    finally:
        kill_group(proc)  # anything a test left behind
    r = proc
    seconds = time.monotonic() - start
    by_number = {i: n for n, i in tests}
    ran = 0
    for m in _TEST_LINE.finditer(output):
        ran += 1
        rest = m.group("rest")
        if re.search(r"\sPassed\s+[\d.]+ sec$", rest):
            continue
        name = by_number.get(int(m.group("number")), rest)
        return ("timeout" if "Timeout" in rest else "failed", name, seconds)
    if ran == 0:
        raise RunnerError("ctest ran none of the tests asked for:\n" +
                          output[-2000:])
    if r.returncode != 0:
        return "failed", "(ctest)", seconds
    return "passed", "", seconds


def trace_tests(build: Path, work: Path, numbers: dict[str, int],
                jobs: int) -> dict[str, TestInfo]:
    """Runs each test once, no mutant live, recording the points it
    reaches."""
    trace_dir = work / "trace"
    if trace_dir.exists():
        shutil.rmtree(trace_dir)
    trace_dir.mkdir(parents=True)
    names = list(numbers)
    infos = {n: TestInfo(n, number=numbers[n]) for n in names}

    def one(i_name):
        i, name = i_name
        trace = trace_dir / f"{i}.txt"
        status, _, seconds = run_ctest(
            build, [(name, numbers[name])],
            {"FAIRWIRE_MUTANT_TRACE": str(trace)},
            timeout=1500, stop_on_failure=False)
        reached = set()
        if trace.exists():
            reached = {int(x) for x in trace.read_text().split()}
        return name, status, seconds, reached

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for done, (name, status, seconds, reached) in enumerate(
                pool.map(one, enumerate(names)), start=1):
            info = infos[name]
            info.seconds, info.reached = seconds, reached
            info.baseline_ok = status == "passed"
            if not info.baseline_ok:
                log(f"mutate: {name} fails with no mutant live: left out")
            if done % 50 == 0 or done == len(names):
                log(f"mutate: traced {done}/{len(names)} tests")
    return infos


def run_mutant(build: Path, point: Point, tests: list[TestInfo],
               timeout_factor: float) -> Outcome:
    if not tests:
        return Outcome(point, "survived", reason="no test reaches it")
    tests = sorted(tests, key=lambda t: t.seconds)
    # ctest's --timeout is one for all the tests of a run: the quick tests
    # (most of them, and most kills) run first under a short one, the rest
    # under one scaled to the slowest.
    quick = [t for t in tests if t.seconds * timeout_factor <= 10.0]
    slow = tests[len(quick):]
    total = 0.0
    for group in (quick, slow):
        if not group:
            continue
        timeout = max(10.0, timeout_factor * max(t.seconds for t in group))
        # The group as a whole: its traced time times the factor (a hang in
        # a test whose TIMEOUT property outlasts --timeout ends here).
        budget = max(timeout, timeout_factor * sum(t.seconds for t in group))
        status, test, seconds = run_ctest(
            build, [(t.name, t.number) for t in group],
            {"FAIRWIRE_MUTANT": str(point.id)},
            timeout=timeout, stop_on_failure=True, budget=budget + 30)
        total += seconds
        if status != "passed":
            kind = "killed" if status == "failed" else "timeout"
            return Outcome(point, kind, test=test, tests_run=len(tests),
                           seconds=total)
    return Outcome(point, "survived", tests_run=len(tests), seconds=total)


SANITIZER_FLAGS = ("-fsanitize=address,undefined -fno-sanitize-recover=all "
                   "-fno-omit-frame-pointer")
SANITIZER_NAME = "ASan+UBSan"


def sanitizer_pass(tree: Path, build: Path, args, targets: list[str],
                   survivors: list[Outcome], covering: dict[int, list[str]],
                   seconds: dict[str, float]) -> int:
    """Runs the survivors of the plain build again in a build of the same
    schemata with ASan and UBSan (--sanitize): a mutant that only breaks
    memory safety (a write one past a buffer, say) leaves a plain build's
    results alone but is what the project's sanitizer presets catch. A test
    that fails there with no mutant live is left out; a timeout is not a
    kill (sanitizers are slow). Marks the killed ones; returns how many."""
    san = build.parent / (build.name + "-sanitize")
    flags = [f"-DCMAKE_{lang}_FLAGS={SANITIZER_FLAGS}" for lang in ("C", "CXX")]
    flags += [f"-DCMAKE_{kind}_LINKER_FLAGS=-fsanitize=address,undefined"
              for kind in ("EXE", "SHARED", "MODULE")]
    log(f"mutate: {len(survivors)} survivor(s) again under {SANITIZER_NAME} "
        f"({san})")
    configure(tree, san, args.preset, (args.cmake_arg or []) + flags)
    cmd = ["cmake", "--build", str(san), "-j", str(args.jobs), "--"] + targets
    r = subprocess.run(cmd, env=build_env(tree), capture_output=True,
                       text=True)
    if r.returncode != 0:
        raise RunnerError(f"the {SANITIZER_NAME} build failed:\n" +
                          failure_summary(r.stdout + r.stderr))
    numbers = list_tests(san, args.labels, args.exclude_labels)
    env = {"ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0",
           "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}
    # The tests these survivors reach, each once with no mutant live.
    needed = sorted({n for o in survivors for n in covering[o.point.id]
                     if n in numbers})
    clean: set[str] = set()
    for name in needed:
        status, _, _ = run_ctest(san, [(name, numbers[name])], env,
                                 timeout=max(60.0, 20 * seconds[name]),
                                 stop_on_failure=True)
        if status == "passed":
            clean.add(name)
        else:
            log(f"mutate: {name} fails under {SANITIZER_NAME} with no mutant "
                "live: left out of the sanitizer pass")
    killed = 0
    for o in survivors:
        tests = sorted((n for n in covering[o.point.id] if n in clean),
                       key=lambda n: seconds[n])
        if not tests:
            continue
        status, test, took = run_ctest(
            san, [(n, numbers[n]) for n in tests],
            dict(env, FAIRWIRE_MUTANT=str(o.point.id)),
            timeout=max(30.0, 3 * args.timeout_factor *
                        max(seconds[n] for n in tests)),
            stop_on_failure=True,
            budget=max(60.0, 3 * args.timeout_factor *
                       sum(seconds[n] for n in tests)) + 30)
        o.seconds += took
        if status == "failed":
            o.status, o.test = "killed", f"{test} (under {SANITIZER_NAME})"
            killed += 1
            log(f"mutate: #{o.point.id} {o.point.path}:{o.point.line} "
                f"{o.point.description}: killed by {o.test}")
    return killed


# -- equivalents and report --------------------------------------------------

SETTLED = ("killed", "timeout", "equivalent")


def previous_outcomes(report: Path) -> dict[str, dict]:
    """key -> outcome of the mutants an earlier run (--resume) settled:
    killed, timed out, or equivalent. Survivors are not taken: they run
    again, against the tests as they are now. `report` is a report.json, or
    a settled list as --export-settled writes it (status, test and key per
    line, tab-separated)."""
    if not report.exists():
        return {}
    try:
        text = report.read_text()
        if report.suffix == ".json":
            outcomes = json.loads(text).get("outcomes", [])
        else:
            outcomes = []
            for line in text.splitlines():
                if not line.strip() or line.startswith("#"):
                    continue
                status, test, key = line.split("\t", 2)
                outcomes.append({"status": status, "test": test, "key": key})
    except (OSError, ValueError) as e:
        raise RunnerError(f"--resume: cannot read {report}: {e}") from e
    return {o["key"]: o for o in outcomes if o.get("status") in SETTLED}


def key_stem(key: str) -> str:
    """A key without its occurrence number."""
    return key.rsplit(" | ", 1)[0]


def repeated_stems(points: list[Point], previous: dict[str, dict]) -> set[str]:
    """The key stems (path, function, line text, change) that name more
    than one mutation point, now or in the previous run. Such a point is
    known by its occurrence number only, which a line of the same text added
    or removed before it in its function hands to another mutant: a resumed
    run runs them again rather than take another mutant's outcome."""
    now: dict[str, int] = {}
    for p in points:
        stem = key_stem(p.key)
        now[stem] = now.get(stem, 0) + 1
    stems = {stem for stem, n in now.items() if n > 1}
    stems |= {key_stem(k) for k in previous if not k.endswith(" | 0")}
    return stems


def export_settled(outcomes: list[Outcome], path: Path) -> None:
    """The settled mutants as `status<TAB>test<TAB>key` lines: what
    --resume-from takes on another machine (and which test kills which
    mutant)."""
    lines = ["# fairwire mutate: settled mutants (status, first failing "
             "test, key); --resume-from takes this file"]
    for o in sorted(outcomes, key=lambda o: o.point.key):
        if o.status in SETTLED:
            lines.append(f"{o.status}\t{o.test}\t{o.point.key}")
    path.write_text("\n".join(lines) + "\n")


def load_equivalents(path: Path | None) -> dict[str, str]:
    """key -> reason, from a file of `key<TAB>reason` lines (# comments)."""
    if path is None or not path.exists():
        return {}
    out = {}
    for raw in path.read_text().splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        key, _, reason = raw.partition("\t")
        out[key.strip()] = reason.strip()
    return out


def diff_of(tree_original: bytes, point: Point) -> str:
    """The mutated line(s) as a two-line diff."""
    text = tree_original
    begin = text.rfind(b"\n", 0, point.start) + 1
    end = text.find(b"\n", point.end)
    end = len(text) if end < 0 else end
    before = text[begin:end].decode("utf-8", "replace")
    if point.statement:
        after = "<removed: " + text[point.start:point.end].decode(
            "utf-8", "replace") + ">"
    else:
        pieces, pos = [], begin
        for e in sorted(point.edits, key=lambda e: e.start):
            pieces.append(text[pos:e.start].decode("utf-8", "replace"))
            pieces.append(e.text)
            pos = e.end
        pieces.append(text[pos:end].decode("utf-8", "replace"))
        after = "".join(pieces)
    return f"- {before.strip()}\n+ {after.strip()}"


def score(outcomes: list[Outcome]) -> tuple[int, int, float]:
    """(killed incl. timeouts, non-equivalent total, percent)."""
    considered = [o for o in outcomes if o.status != "equivalent"]
    killed = sum(1 for o in considered if o.status in ("killed", "timeout"))
    total = len(considered)
    return killed, total, (100.0 * killed / total if total else 100.0)


def write_report(work: Path, outcomes: list[Outcome], dropped: list[Point],
                 originals: dict[str, bytes], meta: dict) -> Path:
    killed, total, pct = score(outcomes)
    by_status: dict[str, int] = {}
    for o in outcomes:
        by_status[o.status] = by_status.get(o.status, 0) + 1
    lines = [
        "# Mutation testing report", "",
        f"- Command: `{meta['command']}`",
        f"- Files: {meta['files']} ({meta['points']} mutation points; "
        f"{len(outcomes)} mutants run{', a sample' if meta.get('sample') else ''})",
        *([f"- **Partial:** {len(outcomes)} of {meta['planned']} mutants "
           "so far (the run goes on, or was stopped)"]
          if len(outcomes) < meta.get("planned", 0) else []),
        f"- Labels: `{meta['labels']}`; machine: {meta['machine']}",
        f"- Score: **{pct:.1f}%** ({killed} of {total} non-equivalent mutants "
        f"killed; timeouts count as killed)",
        "- Outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(by_status.items())),
        *([f"- Resumed: {meta['reused']} mutants settled by the previous "
           "report in this folder (killed, timed out, or equivalent and "
           "still listed), the rest run"]
          if meta.get("reused") else []),
        *([f"- Killed only under {SANITIZER_NAME} (--sanitize: the plain "
           f"build's survivors run again in a sanitizer build): "
           f"{meta['sanitizer_kills']}"] if "sanitizer_kills" in meta else []),
        f"- Dropped (the compiler refused the mutant): {len(dropped)}",
        f"- Took {meta['seconds']:.0f} s", ""]
    by_op: dict[str, list[int]] = {}
    for o in outcomes:
        k = by_op.setdefault(o.point.operator, [0, 0])
        if o.status != "equivalent":
            k[1] += 1
            k[0] += o.status in ("killed", "timeout")
    lines += ["| operator | killed | mutants | score |", "|---|---:|---:|---:|"]
    for op in OPERATORS:
        if op in by_op:
            k, n = by_op[op]
            lines.append(f"| {op} | {k} | {n} | {100.0 * k / n if n else 100:.1f}% |")
    lines.append("")
    survivors = [o for o in outcomes if o.status == "survived"]
    lines += [f"## Survivors ({len(survivors)})", ""]
    for o in survivors:
        p = o.point
        lines += [f"### {p.path}:{p.line}: {p.description}", "",
                  f"in `{p.function}`; " + (o.reason or
                  f"{o.tests_run} test(s) reach it, none failed"), "",
                  "```diff", diff_of(originals[p.path], p), "```", "",
                  f"key: `{p.key}`", ""]
    equivalents = [o for o in outcomes if o.status == "equivalent"]
    if equivalents:
        lines += [f"## Equivalent ({len(equivalents)})", ""]
        for o in equivalents:
            lines.append(f"- {o.point.path}:{o.point.line}: "
                         f"{o.point.description}: {o.reason}")
        lines.append("")
    if dropped:
        lines += ["## Dropped", ""]
        for p in dropped:
            lines.append(f"- {p.path}:{p.line}: {p.description}")
        lines.append("")
    report = work / "report.md"
    report.write_text("\n".join(lines))
    (work / "report.json").write_text(json.dumps({
        "meta": meta, "score": pct, "killed": killed, "total": total,
        "outcomes": [dict(o.point.to_json(), status=o.status, test=o.test,
                          tests_run=o.tests_run, reason=o.reason,
                          seconds=round(o.seconds, 2), reused=o.reused)
                     for o in outcomes],
        "dropped": [p.to_json() for p in dropped]}, indent=1))
    return report


# -- the command -------------------------------------------------------------

def machine() -> str:
    """The machine, and the SIMD features its CPU reports (code for features
    it lacks is not reached, so its mutants survive as unreached)."""
    try:
        flags = set(Path("/proc/cpuinfo").read_text().split())
    except OSError:
        flags = set()
    simd = [f for f in ("avx2", "bmi2", "avx512f", "avx512bw", "avx512_vbmi",
                        "avx512_vbmi2", "asimd") if f in flags]
    return (f"{platform.machine()}, {os.cpu_count()} CPUs; SIMD features: "
            f"{' '.join(simd) or 'none reported'}")


def run_mutate(args) -> int:
    start = time.monotonic()
    root = Path(args.root).resolve()
    work = Path(args.out).resolve()
    work.mkdir(parents=True, exist_ok=True)
    tree = work / "tree"
    build = tree / (args.build_subdir or (
        f"out/build/{args.preset}" if args.preset else "out/build/mutate"))
    excludes = list(DEFAULT_EXCLUDES) + list(args.exclude or [])
    files = expand_sources(root, args.paths, excludes)
    if args.resume_from:
        args.resume = True
    previous = (previous_outcomes(Path(args.resume_from).resolve()
                                  if args.resume_from
                                  else work / "report.json")
                if args.resume else {})
    log(f"mutate: {len(files)} file(s); copying the project to {tree}")
    copy_tree(root, tree)
    configure(tree, build, args.preset, args.cmake_arg or [])
    operators = tuple(args.operators.split(",")) if args.operators else OPERATORS
    points = find_points(tree, build / "compile_commands.json",
                         [tree / f for f in files], operators, log)
    log(f"mutate: {len(points)} mutation points "
        f"({points_digest(points)})")
    chosen = points
    if args.sample:
        rng = random.Random(args.seed)
        chosen = sorted(rng.sample(points, min(args.sample, len(points))),
                        key=lambda p: p.id)
        log(f"mutate: a sample of {len(chosen)} (seed {args.seed})")
    if args.list:
        for p in chosen:
            print(f"{p.id}\t{p.path}:{p.line}:{p.column}\t{p.operator}\t"
                  f"{p.description}")
        return 0
    originals = {f: (tree / f).read_bytes() for f in files}
    targets = list(args.target or [])
    if args.tests_from:
        binaries = test_binaries(Path(args.tests_from), args.labels,
                                 args.exclude_labels)
        if not binaries:
            # An unbuilt build lists no gtest tests (they are discovered
            # from the executables): building "nothing" would build all.
            raise RunnerError(
                f"--tests-from {args.tests_from}: no built test executable "
                f"runs a test of {args.labels!r} there; build its tests "
                "first, or leave --tests-from out to build every target")
        targets += binaries
        log(f"mutate: building the {len(targets)} test binaries that "
            f"{args.tests_from} runs for {args.labels!r}")
    built, dropped = build_schemata(tree, build, chosen, args.jobs, targets)
    equivalents = load_equivalents(Path(args.equivalent) if args.equivalent
                                   else None)
    outcomes: list[Outcome] = []
    if args.resume:
        repeated = repeated_stems(points, previous)
        for p in built:
            old = previous.get(p.key)
            if old is None or key_stem(p.key) in repeated:
                continue
            if old["status"] == "equivalent":
                # Taken only while the equivalents file still lists it.
                if p.key not in equivalents:
                    continue
                outcomes.append(Outcome(p, "equivalent",
                                        tests_run=old.get("tests_run", 0),
                                        reason=equivalents[p.key],
                                        reused=True))
                continue
            outcomes.append(Outcome(p, old["status"], test=old["test"],
                                    tests_run=old.get("tests_run", 0),
                                    seconds=old.get("seconds", 0.0),
                                    reused=True))
        log(f"mutate: resuming: {len(outcomes)} mutant(s) settled by the "
            f"previous report (killed, timed out or equivalent), "
            f"{len(built) - len(outcomes)} to run (a line repeated in its "
            "function runs again)")
    reused_ids = {o.point.id for o in outcomes}
    to_run = [p for p in built if p.id not in reused_ids]
    tests = list_tests(build, args.labels, args.exclude_labels)
    if not tests:
        raise RunnerError(f"no test has a label matching {args.labels!r}")
    log(f"mutate: tracing {len(tests)} tests")
    infos = trace_tests(build, work, tests, args.jobs)
    usable = [t for t in infos.values() if t.baseline_ok]
    reached_any = set().union(*(t.reached for t in usable)) if usable else set()
    if to_run and not reached_any:
        raise RunnerError("no test reached any mutation point: the tests do "
                          "not run the rewritten code (wrong labels?)")

    def one(point: Point) -> Outcome:
        covering = [t for t in usable if point.id in t.reached]
        return run_mutant(build, point, covering, args.timeout_factor)

    meta = {"command": " ".join(["fairwire", "mutate"] + sys.argv[2:]),
            "files": len(files), "points": len(points),
            "sample": bool(args.sample), "seed": args.seed,
            "labels": args.labels, "machine": machine(),
            "digest": points_digest(points), "planned": len(built),
            "reused": len(outcomes)}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for n, o in enumerate(pool.map(one, to_run), start=len(outcomes) + 1):
            if o.status == "survived" and o.point.key in equivalents:
                o.status, o.reason = "equivalent", equivalents[o.point.key]
            outcomes.append(o)
            if n % 20 == 0 and n < len(built):
                # A partial report now and then: a long run stopped early
                # still leaves what it found.
                meta["seconds"] = time.monotonic() - start
                write_report(work, outcomes, dropped, originals, meta)
                if args.export_settled:
                    export_settled(outcomes, Path(args.export_settled))
            mark = {"killed": "killed by " + o.test, "timeout": "timed out in "
                    + o.test, "survived": "SURVIVED", "equivalent":
                    "equivalent"}[o.status]
            log(f"mutate: [{n}/{len(built)}] #{o.point.id} {o.point.path}:"
                f"{o.point.line} {o.point.description}: {mark}")
    if args.sanitize:
        # The plain run's outcomes are saved first: the sanitizer build is
        # a second build of every test, and it may fail.
        meta["seconds"] = time.monotonic() - start
        write_report(work, outcomes, dropped, originals, meta)
        if args.export_settled:
            export_settled(outcomes, Path(args.export_settled))
        survivors = [o for o in outcomes if o.status == "survived"]
        covering = {p.id: [t.name for t in usable if p.id in t.reached]
                    for p in built}
        seconds = {t.name: t.seconds for t in usable}
        if survivors:
            meta["sanitizer_kills"] = sanitizer_pass(
                tree, build, args, targets, survivors, covering, seconds)
    meta["seconds"] = time.monotonic() - start
    report = write_report(work, outcomes, dropped, originals, meta)
    if args.export_settled:
        export_settled(outcomes, Path(args.export_settled))
    killed, total, pct = score(outcomes)
    survivors = [o for o in outcomes if o.status == "survived"]
    log(f"mutate: score {pct:.1f}% ({killed}/{total} killed), "
        f"{len(survivors)} survivor(s), {len(dropped)} dropped; report: {report}")
    if survivors and args.fail_on_survivor:
        for o in survivors:
            log(f"mutate: survivor: {o.point.key}")
        return 1
    return 0
