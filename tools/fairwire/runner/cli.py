"""The `fairwire` command line: `fuzz list|run|cmin|tmin|repro|coverage`
and `decode`."""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import corpus as corpus_ops
from .campaign import run_campaign
from .coverage import run_coverage
from .project import REPO, Project, RunnerError, corpus_files, log, rel
from .triage import describe, minimise, shrink, signature_of

EPILOG = """examples:
  tools/fairwire/fairwire fuzz list
  tools/fairwire/fairwire fuzz run --all --time 60              every target, libFuzzer
  tools/fairwire/fairwire fuzz run wire_decode_diff --engine both --jobs 2 --time 600
  tools/fairwire/fairwire fuzz repro poll_schedule corpus/poll_schedule/regressions/X
  tools/fairwire/fairwire fuzz cmin wire_decode_diff            merge the latest campaign
  tools/fairwire/fairwire fuzz coverage
  tools/fairwire/fairwire decode --proto F.proto --type pkg.Msg < in.bin

environment: FAIRWIRE_CORPUS_ROOT (default corpus/), FAIRWIRE_BUILD_ROOT
(default out/build; presets build into <root>/<preset>)."""


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--corpus-root", help="the corpus folder (default: corpus/ "
                   "or $FAIRWIRE_CORPUS_ROOT); regressions are written below it")
    p.add_argument("--build-root", help="where preset builds live (default: "
                   "out/build or $FAIRWIRE_BUILD_ROOT)")
    p.add_argument("--targets-file", action="append", default=[],
                   help="a fairwire-fuzz-targets.tsv naming prebuilt binaries "
                   "(implies --no-build); may repeat, one per engine build")
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
                          "repro, coverage")
    fsub = fuzz.add_subparsers(dest="action", required=True)

    p = fsub.add_parser("list", help="every target, what it checks, its corpus")
    _common(p)
    p.add_argument("--preset", default=None, help="the build to ask (default: "
                   "the libfuzzer build if configured, else dev)")

    p = fsub.add_parser("run", help="fuzz targets from their corpus; triage, "
                        "shrink and save what fails; write a report",
                        formatter_class=argparse.RawDescriptionHelpFormatter,
                        description="Fuzzes each target in turn, with every job, "
                        "from corpus/<target>/ (seeds and regressions), into "
                        "out/campaigns/<timestamp>/. Failing inputs are copied "
                        "there at once, grouped by stack signature, minimised, "
                        "shrunk at the scenario level, printed, and written to "
                        "corpus/<target>/regressions/. Exit status 1 when "
                        "anything new failed, 130 when interrupted, else 0.")
    _common(p)
    p.add_argument("targets", nargs="*", help="target names (or --all)")
    p.add_argument("--all", action="store_true", help="every target of the "
                   "build (target names given as well win)")
    p.add_argument("--engine", choices=["libfuzzer", "afl", "both"],
                   default="libfuzzer", help="fuzzing engine (default libfuzzer); "
                   "both: share the jobs and exchange corpora")
    p.add_argument("--time", type=int, default=60,
                   help="seconds per target (default 60)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="processes per target (default: the core count); "
                   "libFuzzer -fork=N, AFL++ one main and N-1 secondaries")
    p.add_argument("--out", help="campaigns folder (default out/campaigns)")
    p.add_argument("--update-corpus", action="store_true",
                   help="afterwards, merge the finds into corpus/<target>/ "
                   "(as fuzz cmin)")
    p.add_argument("--plain", action="store_true",
                   help="periodic status lines even on a terminal")
    p.add_argument("--status-interval", type=float, default=10.0,
                   help="seconds between status lines when not on a terminal")

    p = fsub.add_parser("cmin", help="merge a campaign's finds into "
                        "corpus/<target>/, keeping what adds coverage")
    _common(p)
    p.add_argument("target")
    p.add_argument("dirs", nargs="*", type=Path, help="folders of inputs (default: "
                   "the latest campaign's corpus for the target)")
    p.add_argument("--out", help="campaigns folder (default out/campaigns)")

    p = fsub.add_parser("tmin", help="minimise and shrink one failing input")
    _common(p)
    p.add_argument("target")
    p.add_argument("file", type=Path)
    p.add_argument("-o", "--output", type=Path, help="default: FILE.min")
    p.add_argument("--engine", choices=["libfuzzer", "afl"], default="libfuzzer")

    p = fsub.add_parser("repro", help="run one input, print its scenario and "
                        "the command that reproduces it")
    _common(p)
    p.add_argument("target")
    p.add_argument("file", type=Path)
    p.add_argument("--engine", choices=["libfuzzer", "afl"], default="libfuzzer")

    p = fsub.add_parser("coverage", help="source-based coverage of the corpora: "
                        "HTML and a line/branch summary of core/")
    _common(p)
    p.add_argument("targets", nargs="*", help="default: every target")
    p.add_argument("--campaign", type=Path, action="append", default=[],
                   help="also replay this campaign folder's corpora")
    p.add_argument("--output", type=Path, default=REPO / "out" / "coverage",
                   help="default out/coverage")

    sub.add_parser("decode", add_help=False,
                   help="decode protobuf bytes with the fairwire decoder "
                   "(runs fairwire-decode; see `fairwire decode --help`)")
    return top


def main(argv: list[str]) -> int:
    """Runs one command; returns the exit status."""
    if argv[:1] == ["decode"]:
        return decode(argv[1:])
    args = parser().parse_args(argv)
    project = Project(args.build_root, args.corpus_root, args.targets_file,
                      build=not args.no_build)
    try:
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
        if args.action == "coverage":
            return run_coverage(project, args.targets, args.campaign, args.output)
    except RunnerError as e:
        log(str(e))
        return 2
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    return 2


def list_targets(project: Project, args: argparse.Namespace) -> int:
    """`fuzz list`: name, summary, seeds, regressions, dictionary."""
    preset = args.preset
    if preset is None:
        preset = "libfuzzer" if (project.build_dir("libfuzzer") /
                                 "CMakeCache.txt").is_file() else "dev"
    targets = project.select(preset, [], want_fuzzer=False)
    rows = [("target", "seeds", "regressions", "dict", "checks")]
    for t in targets:
        info = subprocess.run([str(t.replay), "--info"], stdout=subprocess.PIPE,
                              text=True).stdout.strip().split("\t")
        summary = info[1] if len(info) > 1 else "?"
        seeds = len([f for f in corpus_files(project.corpus_dir(t.name), False)
                     if f.name != "README"])
        regs = len([f for f in corpus_files(project.regressions_dir(t.name))
                    if f.name != "README"])
        rows.append((t.name, str(seeds), str(regs),
                     "yes" if project.dict_file(t.name) else "no", summary))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[4])
    return 0


def cmin(project: Project, args: argparse.Namespace) -> int:
    """`fuzz cmin`: merge a campaign's corpus into corpus/<target>/."""
    target = project.select("libfuzzer", [args.target], want_fuzzer=True)[0]
    dirs = args.dirs or corpus_ops.latest_campaign_dirs(
        Path(args.out or REPO / "out" / "campaigns"), args.target)
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
    """`fairwire decode`: exec fairwire-decode from the tools preset, built
    when missing."""
    root = Path(os.environ.get("FAIRWIRE_BUILD_ROOT", REPO / "out" / "build"))
    binary = root / "tools" / "fuzz" / "cli" / "fairwire-decode"
    if not binary.is_file():
        project = Project(str(root))
        try:
            project.build_targets("tools", ["fairwire-decode"])
        except RunnerError as e:
            log(str(e))
            return 2
    os.execv(str(binary), [str(binary), *argv])
    return 2  # not reached
