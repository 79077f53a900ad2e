"""`fairwire fuzz cmin` and `run --update-corpus`: merge what a campaign
found into found/ of the target's corpus folder (corpus/<target>/ for
fairwire's own targets, the CORPUS its build names otherwise) with libFuzzer
-merge=1 -use_counters=0, which keeps every input that adds an edge over the
whole corpus and no other (edges, not libFuzzer's hit-count features: a
campaign of poll_schedule grows 14,172 inputs with new features and far fewer
with new edges, and the committed corpus is replayed by every ctest run). Existing files are never removed or renamed; the generated seeds at
the top of the corpus folder and regressions/ are never touched (the seed
generators' up-to-date checks look only at the top-level files)."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from .engines import file_hash
from .project import Project, RunnerError, Target, corpus_files, log, rel


def latest_campaign_dirs(campaigns: Path, target: str) -> list[Path]:
    """The corpus folders of the latest campaign that fuzzed `target`."""
    if not campaigns.is_dir():
        return []
    for folder in sorted(campaigns.iterdir(), reverse=True):
        dirs = campaign_corpus_dirs(folder / target)
        if dirs:
            return dirs
    return []


def campaign_corpus_dirs(target_folder: Path) -> list[Path]:
    """libFuzzer's corpus and AFL++'s queues inside a campaign's target folder."""
    dirs = [target_folder / "libfuzzer" / "corpus"]
    dirs += sorted((target_folder / "afl" / "sync").glob("*/queue"))
    return [d for d in dirs if d.is_dir()]


def merge_into_corpus(project: Project, target: Target, sources: list[Path],
                      timeout: int = 600) -> list[Path]:
    """Adds to <corpus>/found/ the subset of the inputs under
    `sources` that adds an edge (libFuzzer -merge=1 -use_counters=0 against the whole
    current corpus, regressions included), named by content hash.
    Returns the files added (in <corpus>/found/)."""
    if not target.fuzzer or not target.fuzzer.is_file():
        raise RunnerError(f"{target.name}: cmin needs the libFuzzer build")
    dest = project.corpus_dir(target)
    with tempfile.TemporaryDirectory(prefix="fairwire-cmin-") as tmp:
        base, new = Path(tmp) / "base", Path(tmp) / "new"
        base.mkdir()
        new.mkdir()
        existing = set()
        for f in corpus_files(dest):
            h = file_hash(f)
            existing.add(h)
            shutil.copyfile(f, base / h)
        for src in sources:
            for f in corpus_files(src):
                h = file_hash(f)
                if h not in existing:
                    shutil.copyfile(f, new / h)
        candidates = len(list(new.iterdir()))
        if not candidates:
            log(f"{target.name}: nothing new to merge")
            return []
        cmd = [str(target.fuzzer), "-merge=1", "-use_counters=0", "-timeout=10",
               "-rss_limit_mb=2560",
               f"-merge_control_file={tmp}/control", str(base), str(new)]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
        if r.returncode != 0:
            tail = "\n".join(r.stdout.decode(errors="replace").splitlines()[-10:])
            raise RunnerError(f"{target.name}: merge failed:\n{tail}")
        added = []
        found = dest / "found"
        found.mkdir(parents=True, exist_ok=True)
        for f in sorted(base.iterdir()):
            if f.name not in existing:
                out = found / f.name[:16]
                shutil.copyfile(f, out)
                added.append(out)
        log(f"{target.name}: {len(added)} of {candidates} new input(s) add edges; "
            f"added to {rel(found)}")
        return added
