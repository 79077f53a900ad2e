"""The `fairwire` command line: `fuzz list|run|cmin|tmin|repro|coverage`
and `decode` (tools/fairwire/fairwire in fairwire's repository; installed,
simply `fairwire`)."""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from . import corpus as corpus_ops
from .bench import run_bench
from .campaign import run_campaign
from .coverage import run_coverage
from .project import (REPO, Project, RunnerError, Target, corpus_files,
                      default_output, in_repo, log, rel)
from .triage import describe, minimise, shrink, signature_of

EPILOG = """examples (in fairwire's repository the command is tools/fairwire/fairwire;
installed, fairwire):
  fairwire fuzz list
  fairwire fuzz run --all --time 60              every target, libFuzzer
  fairwire fuzz run wire_decode_diff --engine both --jobs 2 --time 600
  fairwire fuzz repro poll_schedule corpus/poll_schedule/regressions/X
  fairwire fuzz cmin wire_decode_diff            merge the latest campaign
  fairwire fuzz coverage
  fairwire fuzz bench --time 30                  execs/s of every target vs libprotobuf
  fairwire fuzz list --build-dir ../app/build    any project's targets, as built
  fairwire fuzz run --all --build-dir ../app/build --time 300
  fairwire decode --proto F.proto --type pkg.Msg < in.bin

Targets are found by the manifests fairwire_add_fuzz_target writes
(<build>/fairwire-targets/<name>.json): with --build-dir, those of that build
folder, used as built (nothing is configured or built; the engine is the one
the folder was built for); without it, those of the presets under out/build,
configured and built when missing (only in fairwire's repository).

environment: FAIRWIRE_CORPUS_ROOT (default corpus/), FAIRWIRE_BUILD_ROOT
(default out/build; presets build into <root>/<preset>)."""


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--build-dir", action="append", default=[], metavar="DIR",
                   help="use the fuzz targets of this build folder (any project's "
                   "that calls fairwire_add_fuzz_target) as they are built: "
                   "nothing is configured or built, the engine is the folder's; "
                   "may repeat (a libFuzzer and an AFL++ build, say)")
    p.add_argument("--corpus-root", help="the corpus folder of fairwire's own "
                   "targets (default: corpus/ or $FAIRWIRE_CORPUS_ROOT); "
                   "regressions are written below it. Other targets use the "
                   "corpus folder their build names")
    p.add_argument("--build-root", help="where preset builds live (default: "
                   "out/build or $FAIRWIRE_BUILD_ROOT)")
    p.add_argument("--targets-dir", action="append", default=[], metavar="DIR",
                   help="a folder of target manifests (<name>.json, as in "
                   "<build>/fairwire-targets/) or one manifest file naming "
                   "prebuilt binaries (implies --no-build); may repeat")
    p.add_argument("--no-build", action="store_true",
                   help="use the binaries as they are; do not configure or build")


def parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    top = argparse.ArgumentParser(
        prog="fairwire", description="fairwire's fuzzing campaigns, triage and "
        "corpus tools, and the decode command.", epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True)
    fuzz = sub.add_parser("fuzz", help="fuzz targets: list, run, cmin, tmin, "
                          "repro, coverage, bench")
    fsub = fuzz.add_subparsers(dest="action", required=True)

    p = fsub.add_parser("list", help="every target: its engine, corpus and what "
                        "it checks")
    _common(p)
    p.add_argument("--preset", default=None, help="the build to ask (default: "
                   "the libfuzzer build if configured, else dev; not with "
                   "--build-dir)")

    p = fsub.add_parser("run", help="fuzz targets from their corpus; triage, "
                        "shrink and save what fails; write a report",
                        formatter_class=argparse.RawDescriptionHelpFormatter,
                        description="Fuzzes each target in turn, with every job, "
                        "from its corpus folder (seeds and regressions), into "
                        "out/campaigns/<timestamp>/ (or --out). Failing inputs are copied "
                        "there at once, grouped by stack signature, minimised, "
                        "shrunk at the scenario level, printed, and written to "
                        "the corpus folder's regressions/. Exit status 1 when "
                        "anything new failed, 130 when interrupted, else 0.")
    _common(p)
    p.add_argument("targets", nargs="*", help="target names (or --all)")
    p.add_argument("--all", action="store_true", help="every target of the "
                   "build (target names given as well win)")
    p.add_argument("--engine", choices=["libfuzzer", "afl", "both"],
                   default=None, help="fuzzing engine (default libfuzzer; with "
                   "--build-dir, the engine the folder was built for); "
                   "both: share the jobs and exchange corpora")
    p.add_argument("--time", type=int, default=60,
                   help="seconds per target (default 60)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="processes per target (default: the core count); "
                   "libFuzzer -fork=N, AFL++ one main and N-1 secondaries")
    p.add_argument("--out", help="campaigns folder (default out/campaigns, in "
                   "the repository or, outside it, the current folder)")
    p.add_argument("--update-corpus", action="store_true",
                   help="afterwards, merge the finds into the corpus folder's found/ "
                   "(as fuzz cmin)")
    p.add_argument("--plain", action="store_true",
                   help="periodic status lines even on a terminal")
    p.add_argument("--status-interval", type=float, default=10.0,
                   help="seconds between status lines when not on a terminal")

    p = fsub.add_parser("cmin", help="merge a campaign's finds into the "
                        "target's corpus folder (found/), keeping what adds "
                        "edges")
    _common(p)
    p.add_argument("target")
    p.add_argument("dirs", nargs="*", type=Path, help="folders of inputs (default: "
                   "the latest campaign's corpus for the target)")
    p.add_argument("--out", help="campaigns folder (default out/campaigns, in "
                   "the repository or, outside it, the current folder)")

    p = fsub.add_parser("tmin", help="minimise and shrink one failing input")
    _common(p)
    p.add_argument("target")
    p.add_argument("file", type=Path)
    p.add_argument("-o", "--output", type=Path, help="default: FILE.min")
    p.add_argument("--engine", choices=["libfuzzer", "afl"], default=None,
                   help="default libfuzzer; with --build-dir, the folder's engine")

    p = fsub.add_parser("repro", help="run one input, print its scenario and "
                        "the command that reproduces it")
    _common(p)
    p.add_argument("target")
    p.add_argument("file", type=Path)
    p.add_argument("--engine", choices=["libfuzzer", "afl"], default=None,
                   help="default libfuzzer; with --build-dir, the folder's engine")

    p = fsub.add_parser("coverage", help="source-based coverage of the corpora: "
                        "HTML and a line/branch summary of core/")
    _common(p)
    p.add_argument("targets", nargs="*", help="default: every target")
    p.add_argument("--campaign", type=Path, action="append", default=[],
                   help="also replay this campaign folder's corpora")
    p.add_argument("--output", type=Path, default=None,
                   help="default out/coverage (in the repository or, outside it, "
                   "the current folder)")

    p = fsub.add_parser(
        "bench", help="execs/s of each target, alone for a fixed time, next to a "
        "libprotobuf-only baseline; the ratios and issue 12's goals",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=textwrap.fill(
            "Fuzzes each target (default: every target of the libFuzzer "
            "build) and the libprotobuf-only baselines (from "
            "<build>/fairwire-baselines/: wire_decode_diff's inputs parsed, "
            "re-serialised and re-parsed by libprotobuf's generated code, nothing "
            "else; baseline_libprotobuf with Debian's libprotobuf, not "
            "instrumented, and baseline_libprotobuf_instrumented with a libprotobuf "
            "built from Debian's source with the targets' sanitizers and coverage, "
            "when `ci/install-deps --protobuf-source` has fetched that source) for "
            "a fixed time each, one process at a time, from a copy of its "
            "shipped corpus (seeds, found/, the regressions that pass; corpus/ is "
            "never written), with libFuzzer -print_final_stats=1, -seed, and the "
            "target's own .options flags and dictionary.", 78, break_on_hyphens=False)
        + "\n\n" + textwrap.fill(
            "execs/s = libFuzzer's stat::number_of_executed_units (its final "
            "statistics) divided by the wall time of the run as the runner measures "
            "it, from the process's start to its exit (startup and corpus loading "
            "included); the ratio is that over a baseline's. Prints a table "
            "(target, runs, seconds, execs/s, vs baseline, vs instrumented) and issue "
            "12's goals (each wire_* target >= 0.33x the baseline, also shown against "
            "the instrumented one; poll_schedule >= 20,000 execs/s) as met or NOT met, and writes bench.json and bench.md (and each run's log) "
            "into out/bench-fuzz/<timestamp>/ (or --out). Exit status 0 when every "
            "run completed (goals met or not), 1 when one did not, 130 when "
            "interrupted. The machine should be otherwise idle: the figures are "
            "only comparable within one run.", 78, break_on_hyphens=False))
    _common(p)
    p.add_argument("targets", nargs="*", help="target names (default: every "
                   "target of the libFuzzer build); the baselines always run")
    p.add_argument("--time", type=int, default=30,
                   help="seconds per target (default 30)")
    p.add_argument("--seed", type=int, default=1,
                   help="libFuzzer -seed for every run (default 1; 0: random)")
    p.add_argument("--out", help="bench folder (default out/bench-fuzz, in the "
                   "repository or, outside it, the current folder)")
    p.add_argument("--per-input", type=int, default=0, metavar="R",
                   help="also time R passes of each check over its starting "
                   "corpus (<target>_replay --repeat R: no engine, no file "
                   "reads in the loop) and report microseconds per input and "
                   "the cost over the baseline's (whose inputs are "
                   "wire_decode_diff's corpus): the check's own price, apart "
                   "from what the fuzzer's inputs grew into (default 0: off)")

    p = sub.add_parser(
        "mutate", help="mutation testing of C/C++ sources against the "
        "project's ctest suite (mutation schemata; clang's parser)",
        description="Copies the project, finds the mutation points of PATHs "
        "with clang's parser, builds every mutant into one build (mutation "
        "schemata), traces which tests reach which point, and runs each "
        "mutant against the tests that reach it. Writes report.md and "
        "report.json (score, survivors with line and diff) into --out.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="files or folders to mutate (relative to --root)")
    p.add_argument("--root", default=".", help="the project (a git work tree "
                   "with a CMakeLists.txt; default: the current folder)")
    p.add_argument("--preset", help="configure with this CMake preset "
                   "(default: a Debug Ninja build with --cmake-arg)")
    p.add_argument("--cmake-arg", action="append", metavar="ARG",
                   help="an extra configure argument (may repeat)")
    p.add_argument("--build-subdir", help="the build folder inside the copy "
                   "(default: the preset's out/build/<preset>)")
    p.add_argument("--target", action="append", metavar="T",
                   help="build only these targets (default: all)")
    p.add_argument("--tests-from", metavar="DIR", help="an existing build of "
                   "the project: build only the executables its tests of "
                   "--labels run (default: every target)")
    p.add_argument("--labels", default=".", help="ctest label regex of the "
                   "tests to run (default: every test)")
    p.add_argument("--exclude-labels", metavar="RE", help="leave out the "
                   "tests with a label matching RE (ctest -LE)")
    p.add_argument("--exclude", action="append", metavar="GLOB",
                   help="leave matching files out (besides tests and benches)")
    p.add_argument("--operators", help="comma-separated subset of: "
                   "ror,lcr,negate,constant,remove,swap")
    p.add_argument("--sample", type=int, default=0, metavar="N",
                   help="run N mutants drawn with --seed (default: all)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--timeout-factor", type=float, default=10.0,
                   help="a mutant times out after this many times the "
                   "slowest of its tests' traced time (at least 10 s)")
    p.add_argument("--equivalent", metavar="FILE", help="survivors listed "
                   "here (key<TAB>reason lines) are equivalent, not survivors")
    p.add_argument("--fail-on-survivor", action="store_true",
                   help="exit 1 when a mutant survives that is not equivalent")
    p.add_argument("--sanitize", action="store_true",
                   help="run the survivors again in a second build of the "
                   "same mutants with ASan and UBSan (added to the "
                   "configure's CMAKE_C_FLAGS and CMAKE_CXX_FLAGS): a "
                   "mutant that only breaks memory safety is killed there")
    p.add_argument("--resume", action="store_true",
                   help="take the killed, timed-out and equivalent (still "
                   "listed in --equivalent) mutants from the report already "
                   "in --out (a partial one of a stopped run, say) and run "
                   "only the rest; survivors run again")
    p.add_argument("--resume-from", metavar="FILE", help="--resume, from "
                   "this report.json or settled list (--export-settled) "
                   "instead of the report in --out: a run continued on "
                   "another machine")
    p.add_argument("--export-settled", metavar="FILE", help="write the "
                   "settled mutants (status, test, key per line) to FILE "
                   "with every report, for --resume-from")
    p.add_argument("--list", action="store_true",
                   help="only list the mutation points")
    p.add_argument("--out", default="out/mutate/latest",
                   help="the run's folder (default out/mutate/latest)")
    sub.add_parser("decode", add_help=False,
                   help="decode protobuf bytes with the fairwire decoder "
                   "(runs fairwire-decode; see `fairwire decode --help`)")
    return top


def main(argv: list[str]) -> int:
    """Runs one command; returns the exit status."""
    if argv[:1] == ["decode"]:
        return decode(argv[1:])
    args = parser().parse_args(argv)
    args.argv = list(argv)
    if args.command == "mutate":
        from .mutate import run_mutate
        try:
            return run_mutate(args)
        except RunnerError as e:
            log(f"mutate: {e}")
            return 2
    try:
        if not in_repo() and not args.build_dir and not args.targets_dir:
            raise RunnerError(
                f"`fuzz {args.action}` needs --build-dir DIR here: this fairwire "
                f"is not run from fairwire's repository, so it has no presets to "
                f"configure and build; give the build folder of a project whose "
                f"fuzz targets are defined with fairwire_add_fuzz_target "
                f"(it holds fairwire-targets/)")
        project = Project(args.build_root, args.corpus_root, args.targets_dir,
                          build=not args.no_build, build_dirs=args.build_dir)
        if getattr(args, "engine", "") is None:
            args.engine = project.default_engine()
        if args.action == "list":
            return list_targets(project, args)
        if args.action == "run":
            if not args.targets and not args.all:
                parser().parse_args(["fuzz", "run", "--help"])
            return run_campaign(project, args)
        if args.action == "cmin":
            return cmin(project, args)
        if args.action == "tmin":
            return tmin(project, args)
        if args.action == "repro":
            return repro(project, args)
        if args.action == "bench":
            return run_bench(project, args)
        if args.action == "coverage":
            return run_coverage(project, args.targets, args.campaign,
                                args.output or default_output("coverage"))
    except RunnerError as e:
        log(str(e))
        return 2
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    return 2


def _info(target: Target) -> str:
    """What the target checks (its replay binary's --info), or "?"."""
    if not (target.replay and target.replay.is_file()):
        return "?"
    try:
        out = subprocess.run([str(target.replay), "--info"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    info = out.strip().split("\t")
    return info[1] if len(info) > 1 else "?"


def list_targets(project: Project, args: argparse.Namespace) -> int:
    """`fuzz list`: name, engine, seeds, regressions, dictionary, summary."""
    if project.prebuilt:
        if args.preset:
            raise RunnerError("--preset and --build-dir/--targets-dir exclude "
                              "each other")
        targets = project.select("any", [], want_fuzzer=False, want_replay=False)
    else:
        preset = args.preset
        if preset is None:
            preset = "libfuzzer" if (project.build_dir("libfuzzer") /
                                     "CMakeCache.txt").is_file() else "dev"
        targets = project.select(preset, [], want_fuzzer=False)
    rows = [("target", "engine", "seeds", "regressions", "dict", "checks")]
    for t in targets:
        seeds = len([f for f in corpus_files(project.corpus_dir(t), False)
                     if f.name != "README"])
        regs = len([f for f in corpus_files(project.regressions_dir(t))
                    if f.name != "README"])
        rows.append((t.name, t.engine, str(seeds), str(regs),
                     "yes" if project.dict_file(t) else "no", _info(t)))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[5])
    return 0


def cmin(project: Project, args: argparse.Namespace) -> int:
    """`fuzz cmin`: merge a campaign's corpus into the target's corpus."""
    target = project.select("libfuzzer", [args.target], want_fuzzer=True)[0]
    dirs = args.dirs or corpus_ops.latest_campaign_dirs(
        Path(args.out or default_output("campaigns")), args.target)
    if not dirs:
        raise RunnerError(f"no campaign corpus for {args.target}; give folders")
    corpus_ops.merge_into_corpus(project, target, dirs)
    return 0


def tmin(project: Project, args: argparse.Namespace) -> int:
    """`fuzz tmin`: byte minimisation, then scenario shrink, then describe."""
    target = project.select(args.engine, [args.target], want_fuzzer=True)[0]
    out = args.output or args.file.with_name(args.file.name + ".min")
    sig = signature_of(target, args.engine, args.file)
    if sig is None:
        raise RunnerError(f"{args.file} passes; nothing to minimise")
    log(f"failure: {sig.key}")
    with tempfile.TemporaryDirectory(prefix="fairwire-tmin-") as tmp:
        current = args.file
        mini, shrunk = Path(tmp) / "min", Path(tmp) / "shrunk"
        if minimise(target, args.engine, current, mini):
            s = signature_of(target, args.engine, mini)
            if s and s.key == sig.key:
                current = mini
        if shrink(target, current, shrunk):
            s = signature_of(target, args.engine, shrunk)
            if s and s.key == sig.key:
                current = shrunk
        shutil.copyfile(current, out)
    log(f"{args.file.stat().st_size} -> {out.stat().st_size} bytes: {rel(out)}")
    print(describe(target, out), end="")
    return 0


def repro(project: Project, args: argparse.Namespace) -> int:
    """`fuzz repro`: run one input through the engine binary and print it."""
    target = project.select(args.engine, [args.target], want_fuzzer=True)[0]
    print(describe(target, args.file), end="")
    cmd = [str(target.fuzzer), str(args.file)]
    print(f"$ {' '.join(rel(c) if os.path.exists(c) else c for c in cmd)}",
          flush=True)
    status = subprocess.run(cmd).returncode
    print(f"exit status {status}: {'FAILS' if status else 'passes'}")
    print(f"without a fuzzing engine: {rel(target.replay)} {rel(args.file)}")
    return status


def decode(argv: list[str]) -> int:
    """`fairwire decode`: exec fairwire-decode; in the repository from the
    tools preset, built when missing; installed, the fairwire-decode beside
    this command or on PATH."""
    if not in_repo():
        here = Path(sys.argv[0]).resolve().parent
        found = here / "fairwire-decode"
        binary = str(found) if found.is_file() else shutil.which("fairwire-decode")
        if not binary:
            log("decode needs fairwire-decode (built by fairwire's tools preset), "
                "which is neither beside this command nor on PATH")
            return 2
        os.execv(binary, [binary, *argv])
        return 2  # not reached
    root = Path(os.environ.get("FAIRWIRE_BUILD_ROOT", REPO / "out" / "build"))
    binary = root / "tools" / "tools" / "decode" / "fairwire-decode"
    if not binary.is_file():
        project = Project(str(root))
        try:
            project.build_targets("tools", ["fairwire-decode"])
        except RunnerError as e:
            log(str(e))
            return 2
    os.execv(str(binary), [str(binary), *argv])
    return 2  # not reached
