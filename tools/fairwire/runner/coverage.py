"""`fairwire fuzz coverage`: replays corpora through the coverage preset's
<target>_replay binaries (clang source-based coverage), or those of the
--build-dir given (built with -fprofile-instr-generate -fcoverage-mapping),
and writes an HTML report plus a per-file line and branch summary of core/
(of the project's sources, for a project other than fairwire)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .corpus import campaign_corpus_dirs
from .project import REPO, Project, RunnerError, in_repo, log, rel


def run_coverage(project: Project, names: list[str], extra: list[Path],
                 out: Path) -> int:
    """Builds, replays, merges the profiles and writes the reports."""
    targets = project.select("coverage", names, want_fuzzer=False)
    out.mkdir(parents=True, exist_ok=True)
    profiles = out / "profraw"
    profiles.mkdir(exist_ok=True)
    for old in profiles.glob("*.profraw"):
        old.unlink()
    for t in targets:
        inputs = [project.corpus_dir(t)]
        for campaign in extra:
            inputs += campaign_corpus_dirs(campaign / t.name)
        inputs = [str(p) for p in inputs if p.exists()]
        if not inputs:
            log(f"{t.name}: no corpus; skipped")
            continue
        env = {**os.environ, "LLVM_PROFILE_FILE": str(profiles / f"{t.name}-%p.profraw")}
        r = subprocess.run([str(t.replay), *inputs], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        last = r.stdout.decode(errors="replace").strip().splitlines()[-1:]
        log(f"{t.name}: {last[0] if last else ''}")
    raws = sorted(str(p) for p in profiles.glob("*.profraw"))
    if not raws:
        raise RunnerError("no coverage profile was written")
    data = out / "merged.profdata"
    subprocess.run(["llvm-profdata-14", "merge", "-sparse", "-o", str(data), *raws],
                   check=True)
    objects = [str(t.replay) for t in targets]
    obj_args = [objects[0]] + [a for o in objects[1:] for a in ("-object", o)]
    source = next((t.source_dir for t in targets if t.source_dir), None)
    if source is None:
        source = REPO if in_repo() else Path.cwd()
    own = in_repo() and source.resolve() == REPO
    core = str(source / "core") if own else str(source)
    subprocess.run(["llvm-cov-14", "show", "-format=html", f"-instr-profile={data}",
                    f"-output-dir={out / 'html'}", "-show-branches=count",
                    "-show-line-counts-or-regions", *obj_args, str(source)],
                   check=True, stdout=subprocess.DEVNULL)
    report = subprocess.run(["llvm-cov-14", "report", f"-instr-profile={data}",
                             "-show-branch-summary", *obj_args, core],
                            stdout=subprocess.PIPE, check=True)
    text = report.stdout.decode(errors="replace")
    (out / "core-summary.txt").write_text(text)
    print(_line_and_branch(text, "core/" if own else "sources"))
    print(f"\nHTML: {rel(out / 'html' / 'index.html')}\n"
          f"summary: {rel(out / 'core-summary.txt')}")
    return 0


def _line_and_branch(report: str, what: str = "core/") -> str:
    """Keeps the file name, line and branch columns of an llvm-cov report
    (its rows are: file, 3 region, 3 function, 3 line, 3 branch columns)."""
    out = [f"{f'file ({what})':<44} {'lines':>7} {'missed':>7} {'cover':>8} "
           f"{'branches':>8} {'missed':>7} {'cover':>8}"]
    for row in report.splitlines():
        parts = row.split()
        if len(parts) != 13 or row.startswith("Filename"):
            continue
        out.append(f"{parts[0][-44:]:<44} {parts[7]:>7} {parts[8]:>7} {parts[9]:>8} "
                   f"{parts[10]:>8} {parts[11]:>7} {parts[12]:>8}")
    return "\n".join(out)
