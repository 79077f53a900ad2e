"""Where things are: the repository, the corpus root, the build folders, and
the fuzz targets each build provides (building what is missing)."""
from __future__ import annotations

import configparser
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

REPO = Path(__file__).resolve().parents[2]
MANIFEST = "fairwire-fuzz-targets.tsv"
ENGINE_PRESETS = {"libfuzzer": "libfuzzer", "afl": "afl"}
# The environment CMakePresets.json gives a preset (a plain `cmake --build
# DIR` does not apply it).
PRESET_ENV = {"afl": {"AFL_CC_COMPILER": "LLVM", "AFL_LLVM_CONFIG": "llvm-config-14",
                      "AFL_QUIET": "1"}}


class RunnerError(Exception):
    """A problem the user can fix (missing target, failed build, ...)."""


@dataclass
class Target:
    """One fuzz target as one build provides it."""

    name: str
    engine: str  # libfuzzer, afl or none (a test build: replay only)
    fuzzer: Optional[Path]  # the engine binary
    replay: Optional[Path]  # <name>_replay, built with the same flags


def log(message: str) -> None:
    """Prints a runner message to stderr."""
    print(f"fairwire: {message}", file=sys.stderr, flush=True)


def rel(path: Path | str) -> str:
    """The path relative to the repository when it is inside it."""
    p = Path(path).resolve()
    try:
        return str(p.relative_to(REPO))
    except ValueError:
        return str(p)


def read_manifest(path: Path) -> list[Target]:
    """Parses a fairwire-fuzz-targets.tsv written by ci/tests/runner.cmake."""
    targets = []
    for line in path.read_text().splitlines():
        fields = line.split("\t")
        if len(fields) != 4 or not fields[0]:
            continue
        name, engine, fuzzer, replay = fields
        targets.append(
            Target(name, engine, Path(fuzzer) if fuzzer != "-" else None,
                   Path(replay) if replay != "-" else None))
    return targets


def source_target_names() -> list[str]:
    """Target names from fuzz/*/CMakeLists.txt (fairwire_add_fuzz_target)."""
    names = []
    pattern = re.compile(r"fairwire_add_fuzz_target\(\s*([A-Za-z0-9_-]+)")
    for cml in sorted((REPO / "fuzz").glob("*/CMakeLists.txt")):
        names += pattern.findall(cml.read_text())
    return names


class Project:
    """The repository, its corpus root and its build folders."""

    def __init__(self, build_root: Optional[str] = None,
                 corpus_root: Optional[str] = None,
                 targets_files: Iterable[str] = (), build: bool = True,
                 jobs: int = 0) -> None:
        self.build_root = Path(build_root or os.environ.get(
            "FAIRWIRE_BUILD_ROOT", REPO / "out" / "build")).resolve()
        self.corpus_root = Path(corpus_root or os.environ.get(
            "FAIRWIRE_CORPUS_ROOT", REPO / "corpus")).resolve()
        self.targets_files = [Path(f).resolve() for f in targets_files]
        self.build = build and not self.targets_files
        self.jobs = jobs or os.cpu_count() or 1

    # --- corpus --------------------------------------------------------------
    def corpus_dir(self, name: str) -> Path:
        """corpus/<name>/: seeds, and regressions/ below it."""
        return self.corpus_root / name

    def regressions_dir(self, name: str) -> Path:
        """corpus/<name>/regressions/: every input that ever failed."""
        return self.corpus_dir(name) / "regressions"

    def dict_file(self, name: str) -> Optional[Path]:
        """corpus/dicts/<name>.dict under the corpus root or the repo."""
        for root in (self.corpus_root, REPO / "corpus"):
            d = root / "dicts" / f"{name}.dict"
            if d.is_file():
                return d
        return None

    def libfuzzer_flags(self, name: str) -> list[str]:
        """The [libfuzzer] section of fuzz/<name>/<name>.options (the file
        ci/oss-fuzz/build.sh ships as $OUT/<name>.options) as -key=value
        flags; none when there is no such file."""
        path = REPO / "fuzz" / name / f"{name}.options"
        if not path.is_file():
            return []
        parser = configparser.ConfigParser(inline_comment_prefixes=("#",))
        parser.read(path)
        if not parser.has_section("libfuzzer"):
            return []
        return [f"-{key}={value}" for key, value in parser["libfuzzer"].items()]

    # --- builds --------------------------------------------------------------
    def build_dir(self, preset: str) -> Path:
        """The build folder of a preset (out/build/<preset> by default)."""
        return self.build_root / preset

    def configure(self, preset: str) -> Path:
        """Configures the preset's build folder when it is not yet."""
        bdir = self.build_dir(preset)
        if not (bdir / "CMakeCache.txt").is_file():
            log(f"configuring preset {preset} in {rel(bdir)}")
            cmd = ["cmake", "--preset", preset, "-B", str(bdir)]
            run_checked(cmd, f"configure {preset}")
        return bdir

    def build_targets(self, preset: str, cmake_targets: list[str]) -> None:
        """Builds the given CMake targets of a preset (ninja skips what is
        up to date)."""
        bdir = self.configure(preset)
        if not cmake_targets:
            return
        log(f"building {' '.join(cmake_targets)} ({preset})")
        cmd = ["cmake", "--build", str(bdir), "-j", str(self.jobs), "--target",
               *cmake_targets]
        run_checked(cmd, f"build {preset}", PRESET_ENV.get(preset))

    def targets(self, preset: str) -> list[Target]:
        """The fuzz targets a build provides, configuring it if needed."""
        if self.targets_files:
            found = []
            for f in self.targets_files:
                found += [t for t in read_manifest(f)
                          if preset in (t.engine, "any")
                          or ENGINE_PRESETS.get(t.engine) == preset
                          or t.engine == "none"]
            return found
        bdir = self.configure(preset) if self.build else self.build_dir(preset)
        manifest = bdir / MANIFEST
        if manifest.is_file():
            return read_manifest(manifest)
        engine = preset if preset in ENGINE_PRESETS else "none"
        return [Target(n, engine, bdir / "fuzz" / n / n,
                       bdir / "fuzz" / n / f"{n}_replay")
                for n in source_target_names()]

    def select(self, preset: str, names: list[str], want_fuzzer: bool,
               want_replay: bool = True) -> list[Target]:
        """The named targets (all when names is empty) of a preset's build,
        built when missing or stale. Raises RunnerError for unknown names."""
        available = self.targets(preset)
        by_name = {t.name: t for t in available}
        unknown = [n for n in names if n not in by_name]
        if unknown:
            known = ", ".join(by_name) or "none"
            raise RunnerError(f"unknown target(s) {', '.join(unknown)} in the "
                              f"{preset} build (known: {known})")
        chosen = [by_name[n] for n in names] if names else available
        if not chosen:
            raise RunnerError(f"the {preset} build has no fuzz targets")
        if self.build:
            cmake_targets = []
            for t in chosen:
                if want_fuzzer:
                    cmake_targets.append(t.name)
                if want_replay:
                    cmake_targets.append(f"{t.name}_replay")
            self.build_targets(preset, cmake_targets)
        for t in chosen:
            if want_fuzzer and not (t.fuzzer and t.fuzzer.is_file()):
                raise RunnerError(f"{t.name}: no engine binary in the {preset} "
                                  f"build ({t.fuzzer})")
            if want_replay and not (t.replay and t.replay.is_file()):
                raise RunnerError(f"{t.name}: no replay binary ({t.replay})")
        return chosen


def run_checked(cmd: list[str], what: str,
                env: Optional[dict[str, str]] = None) -> None:
    """Runs a build command, streaming its output; RunnerError on failure."""
    result = subprocess.run(cmd, cwd=REPO, stdout=sys.stderr,
                            env={**os.environ, **(env or {})})
    if result.returncode != 0:
        raise RunnerError(f"{what} failed (exit {result.returncode}): "
                          f"{' '.join(cmd)}")


def corpus_files(folder: Path, include_regressions: bool = True) -> list[Path]:
    """Every non-hidden regular file under a corpus folder, sorted."""
    if not folder.is_dir():
        return []
    files = []
    for p in sorted(folder.rglob("*")):
        parts = p.relative_to(folder).parts
        if any(part.startswith(".") for part in parts) or not p.is_file():
            continue
        if not include_regressions and parts[0] == "regressions":
            continue
        files.append(p)
    return files
