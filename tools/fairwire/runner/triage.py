"""After a failing input: its stack signature (to group duplicates), its
minimisation (libFuzzer -minimize_crash or afl-tmin), its scenario-level
shrink and readable description (<target>_replay --shrink / --describe), and
the regression file that keeps it in the corpus from then on."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .engines import AFL_ENV
from .project import Target, log, rel

VIOLATION = re.compile(r"check failed: ([^\n]*)")
ASAN = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer|MemorySanitizer|"
                  r"ThreadSanitizer): ([\w-]+)")
UBSAN = re.compile(r"runtime error: ([^\n]*)")
LIBFUZZER = re.compile(r"ERROR: libFuzzer: ([\w -]+)")
FRAME = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ in (.+?)(?: (/\S+|\(\S+\))| \S+:\d+)?"
                   r"(?: \(BuildId: [0-9a-f]+\))?$", re.M)
# Frames that say where the report was printed, not where the bug is.
NOISE = re.compile(r"__sanitizer|__asan|__ubsan|__lsan|__interceptor|"
                   r"fuzzer::|^abort$|^raise$|__pthread_kill|__libc_|^_start$|"
                   r"^main$|LLVMFuzzerTestOneInput|^std::__|^__cxa|"
                   r"^\?\?$|^gsignal$")
TOP_FRAMES = 3
# Kinds grouped by kind and top frames (a property violation: by name only).
SANITIZER_KINDS = ("asan-", "lsan-", "ubsan", "libfuzzer-", "exit-")


@dataclass
class Signature:
    """What a failing input does, as a deduplication key."""

    kind: str  # a property name, or asan/ubsan/libfuzzer error kind
    frames: list[str]  # the top frames of the report, noise removed
    detail: str  # the first line that says what went wrong

    @property
    def key(self) -> str:
        """The grouping key: kind, plus top frames for sanitizer reports."""
        if self.kind.startswith(SANITIZER_KINDS):
            return f"{self.kind} @ {' < '.join(self.frames)}"
        return self.kind

    @property
    def slug(self) -> str:
        """A file-name-safe name for the failure."""
        text = self.kind
        if self.frames and self.kind.startswith(SANITIZER_KINDS):
            text += "-" + re.sub(r"\(.*", "", self.frames[0]).split("::")[-1]
        return re.sub(r"[^A-Za-z0-9_-]+", "_", text).strip("_")[:60] or "failure"


def parse_signature(report: str) -> Optional[Signature]:
    """The signature of a crash report (a fairwire violation, a sanitizer or
    a libFuzzer error), or None when the report shows no failure."""
    frames = []
    for m in FRAME.finditer(report):
        func = m.group(2).strip()
        if not NOISE.search(func):
            frames.append(re.sub(r"\s+", " ", func))
        if len(frames) == TOP_FRAMES:
            break
    v = VIOLATION.search(report)
    if v:
        prop = v.group(1).split(":")[0].strip() or "violation"
        return Signature(prop, frames, v.group(1).strip())
    a = ASAN.search(report)
    if a:
        kind = "lsan-leak" if a.group(1) == "LeakSanitizer" else f"asan-{a.group(2)}"
        return Signature(kind, frames, a.group(0))
    u = UBSAN.search(report)
    if u:
        words = re.sub(r"[^a-z ]", "", u.group(1).split(":")[0].lower()).split()[:4]
        return Signature("ubsan-" + "-".join(words), frames, u.group(0))
    lf = LIBFUZZER.search(report)
    if lf:
        kind = lf.group(1).strip().replace(" ", "-")
        return Signature(f"libfuzzer-{kind}", frames, lf.group(0))
    return None


def run_input(target: Target, engine: str, path: Path,
              timeout: float = 60) -> tuple[int, str]:
    """Runs one input through the engine binary (the sanitizer report), else
    through the replay binary. Returns (exit status, output)."""
    if target.fuzzer and target.fuzzer.is_file():
        cmd = [str(target.fuzzer), str(path)]
        if engine == "libfuzzer":
            # The campaign's own limit, so that a timeout- input times out again.
            cmd = [str(target.fuzzer), "-timeout=10", "-runs=1", str(path)]
    else:
        cmd = [str(target.replay), str(path)]
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, env=_env(engine))
        return r.returncode, r.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        out = (e.output or b"").decode(errors="replace")
        return -9, out + "\nERROR: libFuzzer: timeout\n"


def _env(engine: str) -> Optional[dict[str, str]]:
    """The environment an engine's binary runs in (AFL++'s settings)."""
    return {**os.environ, **AFL_ENV} if engine == "afl" else None


def signature_of(target: Target, engine: str, path: Path) -> Optional[Signature]:
    """Re-runs an input and returns its signature (None: it passes now)."""
    status, output = run_input(target, engine, path)
    sig = parse_signature(output)
    if sig is None and status != 0:
        sig = Signature(f"exit-{status}", [], output.strip().splitlines()[-1:][0]
                        if output.strip() else "")
    return sig


def minimise(target: Target, engine: str, path: Path, out: Path,
             seconds: int = 30) -> bool:
    """Minimises a failing input byte-wise into `out`: libFuzzer
    -minimize_crash, or afl-tmin for AFL++ builds. True when `out` was
    written."""
    if engine == "libfuzzer":
        cmd = [str(target.fuzzer), "-minimize_crash=1", "-runs=100000",
               f"-max_total_time={seconds}", "-timeout=10",
               f"-exact_artifact_path={out}", str(path)]
    else:
        cmd = ["afl-tmin", "-m", "none", "-t", "5000", "-i", str(path),
               "-o", str(out), "--", str(target.fuzzer)]
    with tempfile.TemporaryDirectory(prefix="fairwire-min-") as tmp:
        try:
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=seconds + 60, cwd=tmp, env=_env(engine))
        except subprocess.TimeoutExpired:
            pass
    return out.is_file() and out.stat().st_size <= path.stat().st_size


def shrink(target: Target, path: Path, out: Path, seconds: int = 120) -> bool:
    """Shrinks at the scenario level (<target>_replay --shrink). True when
    `out` was written."""
    try:
        r = subprocess.run([str(target.replay), "--shrink", str(path), "--out", str(out)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=seconds)
    except subprocess.TimeoutExpired:
        return False
    return r.returncode == 0 and out.is_file()


def describe(target: Target, path: Path) -> str:
    """The input's typed scenario, printed by <target>_replay --describe."""
    try:
        r = subprocess.run([str(target.replay), "--describe", str(path)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=60)
    except subprocess.TimeoutExpired:
        return "(describe timed out)\n"
    lines = r.stdout.decode(errors="replace").splitlines()
    # Drop the driver's "== file" header and "N files replayed" footer.
    keep = [l for l in lines if not l.startswith(("== ", "FAIL "))
            and " files replayed, " not in l]
    return "\n".join(keep) + "\n"


@dataclass
class Finding:
    """One group of failing inputs with the same signature."""

    target: str
    engine: str  # the engine whose input was triaged
    signature: Signature
    engines: list[str] = field(default_factory=list)  # every engine that found it
    inputs: list[Path] = field(default_factory=list)
    minimised: Optional[Path] = None
    shrunk: Optional[Path] = None
    final: Optional[Path] = None
    regression: Optional[Path] = None
    description: str = ""
    new: bool = True
    fails_on_regression: bool = False
    repro: list[str] = field(default_factory=list)
    note: str = ""
    final_detail: str = ""  # what the saved (minimal) input violates


def short_hash(data: bytes) -> str:
    """The first 8 hex digits of the SHA-1 of `data`."""
    return hashlib.sha1(data).hexdigest()[:8]


def note_regression(regressions: Path, finding: Finding) -> None:
    """Appends the regression's one-line comment to regressions/README."""
    readme = regressions / "README"
    if not readme.exists():
        readme.write_text(f"Inputs that once made {finding.target} fail, one line each: "
                          "file name, then what it found.\n")
    detail = (finding.final_detail or finding.signature.detail).replace("\n", " ")
    with readme.open("a") as f:
        f.write(f"{finding.regression.name}: {detail[:300]} (found by fairwire fuzz "
                f"run, {finding.engine})\n")


def triage_group(finding: Finding, target: Target, work: Path,
                 regressions: Path, known: dict[str, Path], quick: bool = False) -> None:
    """Minimises, shrinks, describes and saves one finding (in place)."""
    work.mkdir(parents=True, exist_ok=True)
    source = min(finding.inputs, key=lambda p: p.stat().st_size)
    current = work / "input"
    shutil.copyfile(source, current)
    key = finding.signature.key
    if not quick:
        mini = work / "minimised"
        if minimise(target, finding.engine, current, mini):
            sig = signature_of(target, finding.engine, mini)
            if sig and sig.key == key:
                finding.minimised = mini
                current = mini
            else:
                finding.note += "byte minimisation changed the failure; kept the original. "
        shrunk = work / "shrunk"
        if shrink(target, current, shrunk):
            sig = signature_of(target, finding.engine, shrunk)
            if sig and sig.key == key:
                finding.shrunk = shrunk
                current = shrunk
            else:
                finding.note += "scenario shrink changed the failure; kept the input. "
    finding.final = current
    finding.description = describe(target, current)
    final_sig = signature_of(target, finding.engine, current)
    if final_sig is not None:
        finding.final_detail = final_sig.detail
    data = current.read_bytes()
    if key in known:
        finding.new = False
        finding.regression = known[key]
    else:
        for existing in sorted(regressions.glob("*")) if regressions.is_dir() else []:
            if existing.is_file() and existing.read_bytes() == data:
                finding.new = False
                finding.regression = existing
                break
    if finding.regression is None:
        regressions.mkdir(parents=True, exist_ok=True)
        finding.regression = regressions / f"{finding.signature.slug}-{short_hash(data)}"
        finding.regression.write_bytes(data)
        note_regression(regressions, finding)
        log(f"regression saved: {rel(finding.regression)}")
    status, _ = run_input(target, finding.engine, finding.regression)
    finding.fails_on_regression = status != 0
    finding.repro = [f"{rel(target.replay)} {rel(finding.regression)}"]
    if target.fuzzer:
        finding.repro.insert(0, f"{rel(target.fuzzer)} {rel(finding.regression)}")
