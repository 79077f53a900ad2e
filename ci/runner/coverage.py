"""`fairwire fuzz coverage`: replays corpora through the coverage preset's
<target>_replay binaries (clang source-based coverage) and writes an HTML
report plus a per-file line and branch summary of core/."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .project import REPO, Project, RunnerError, log, rel


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
        inputs = [project.corpus_dir(t.name)] + [
            p for p in (e / t.name if (e / t.name).is_dir() else e for e in extra)
            if p.exists()]
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
    core = str(REPO / "core")
    subprocess.run(["llvm-cov-14", "show", "-format=html", f"-instr-profile={data}",
                    f"-output-dir={out / 'html'}", "-show-branches=count",
                    "-show-line-counts-or-regions", *obj_args, str(REPO)],
                   check=True, stdout=subprocess.DEVNULL)
    report = subprocess.run(["llvm-cov-14", "report", f"-instr-profile={data}",
                             "-show-branch-summary", *obj_args, core],
                            stdout=subprocess.PIPE, check=True)
    text = report.stdout.decode(errors="replace")
    (out / "core-summary.txt").write_text(text)
    print(_line_and_branch(text))
    print(f"\nHTML: {rel(out / 'html' / 'index.html')}\n"
          f"summary: {rel(out / 'core-summary.txt')}")
    return 0


def _line_and_branch(report: str) -> str:
    """Keeps the file name, line and branch columns of an llvm-cov report."""
    lines = report.splitlines()
    header = next((l for l in lines if l.startswith("Filename")), None)
    if header is None:
        return report
    cols = header.split()
    out = [f"{'file':<60} {'lines':>7} {'missed':>7} {'cover':>7} "
           f"{'branches':>8} {'missed':>7} {'cover':>7}"]
    for l in lines:
        parts = l.split()
        if not parts or l.startswith(("Filename", "-")) or len(parts) != len(cols):
            continue
        row = dict(zip(cols, parts))
        # llvm-cov's header repeats Missed/Cover names: index by position.
        idx = {name: [i for i, c in enumerate(cols) if c == name] for name in set(cols)}
        lines_i = cols.index("Lines")
        br_i = cols.index("Branches") if "Branches" in cols else None
        name = parts[0]
        out.append(f"{name[-60:]:<60} {parts[lines_i]:>7} {parts[lines_i + 1]:>7} "
                   f"{parts[lines_i + 2]:>7} "
                   + (f"{parts[br_i]:>8} {parts[br_i + 1]:>7} {parts[br_i + 2]:>7}"
                      if br_i is not None else ""))
        del row, idx
    return "\n".join(out)
