"""Where things are: the repository (when the runner runs from it), the
corpus root, the build folders, and the fuzz targets each build provides,
read from the manifests fairwire_add_fuzz_target writes
(<build>/fairwire-targets/<name>.json)."""
from __future__ import annotations

import configparser
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

# tools/fairwire/runner/project.py in fairwire's repository; installed, the
# package is <prefix>/share/fairwire/python/runner, and this is <prefix>/share.
REPO = Path(__file__).resolve().parents[3]
MANIFEST_DIR = "fairwire-targets"
MANIFEST_FORMAT = 1
MANIFEST_ENGINES = ("libfuzzer", "afl", "external", "none")
ENGINE_PRESETS = {"libfuzzer": "libfuzzer", "afl": "afl"}
# The environment CMakePresets.json gives a preset (a plain `cmake --build
# DIR` does not apply it).
PRESET_ENV = {"afl": {"AFL_CC_COMPILER": "LLVM", "AFL_LLVM_CONFIG": "llvm-config-14",
                      "AFL_QUIET": "1"}}


def in_repo() -> bool:
    """Whether the runner runs from fairwire's repository (and can configure
    and build its presets), not from an installed copy."""
    return (REPO / "CMakePresets.json").is_file()


class RunnerError(Exception):
    """A problem the user can fix (missing target, failed build, ...)."""


@dataclass
class Target:
    """One fuzz target as one build provides it (one manifest)."""

    name: str
    engine: str  # libfuzzer, afl, external, or none (a test build: replay only)
    fuzzer: Optional[Path]  # the engine binary
    replay: Optional[Path]  # <name>_replay, built with the same flags
    corpus: Optional[Path] = None  # seeds and regressions/
    dict: Optional[Path] = None  # libFuzzer/AFL++ dictionary
    options: Optional[Path] = None  # OSS-Fuzz .options file
    source_dir: Optional[Path] = None  # the project that defines it
    build_dir: Optional[Path] = None  # the build folder it belongs to
    manifest: Optional[Path] = None  # where it was read from


def log(message: str) -> None:
    """Prints a runner message to stderr."""
    print(f"fairwire: {message}", file=sys.stderr, flush=True)


def rel(path: Path | str) -> str:
    """The path relative to the repository when it is inside it (outside the
    repository: relative to the current folder when inside that)."""
    p = Path(path).resolve()
    for base in ((REPO,) if in_repo() else (Path.cwd().resolve(),)):
        try:
            return str(p.relative_to(base))
        except ValueError:
            pass
    return str(p)


def default_output(*parts: str) -> Path:
    """out/<parts> in the repository; outside it, under the current folder."""
    return (REPO if in_repo() else Path.cwd()).joinpath("out", *parts)


def _manifest_path(data: dict, key: str, manifest: Path) -> Optional[Path]:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise RunnerError(f"{manifest}: \"{key}\" must be a string, not {value!r}")
    return Path(value) if value else None


def read_manifest(path: Path) -> Target:
    """Parses one <build>/fairwire-targets/<name>.json (format 1, written by
    fairwire_add_fuzz_target); RunnerError when it is not one."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise RunnerError(f"{path}: not a readable target manifest ({e})") from None
    if not isinstance(data, dict):
        raise RunnerError(f"{path}: not a target manifest (a JSON object)")
    fmt = data.get("format")
    if fmt != MANIFEST_FORMAT:
        raise RunnerError(
            f"{path}: manifest format {fmt!r} is not supported: this fairwire "
            f"reads format {MANIFEST_FORMAT}; rebuild that folder with the "
            f"fairwire that runs it, or run the matching fairwire")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise RunnerError(f"{path}: the manifest names no target")
    engine = data.get("engine", "none") or "none"
    if engine not in MANIFEST_ENGINES:
        raise RunnerError(f"{path}: unknown engine {engine!r} (expected one of "
                          f"{', '.join(MANIFEST_ENGINES)})")
    return Target(
        name, engine,
        fuzzer=_manifest_path(data, "fuzzer", path),
        replay=_manifest_path(data, "replay", path),
        corpus=_manifest_path(data, "corpus", path),
        dict=_manifest_path(data, "dict", path),
        options=_manifest_path(data, "options", path),
        source_dir=_manifest_path(data, "source_dir", path),
        build_dir=_manifest_path(data, "build_dir", path),
        manifest=Path(path))


def read_manifests(folder: Path) -> list[Target]:
    """Every manifest of a folder (or the one manifest file given), by name."""
    folder = Path(folder)
    if folder.is_file():
        return [read_manifest(folder)]
    return [read_manifest(p) for p in sorted(folder.glob("*.json"))]


class Project:
    """The repository, its corpus root and the build folders to use: the
    presets under the build root (configured and built when missing), or
    the given build folders and manifest folders, used as they are."""

    def __init__(self, build_root: Optional[str] = None,
                 corpus_root: Optional[str] = None,
                 targets_dirs: Iterable[str] = (), build: bool = True,
                 jobs: int = 0, build_dirs: Iterable[str] = ()) -> None:
        self.build_root = Path(build_root or os.environ.get(
            "FAIRWIRE_BUILD_ROOT", REPO / "out" / "build")).resolve()
        explicit = corpus_root or os.environ.get("FAIRWIRE_CORPUS_ROOT")
        self.default_corpus_root = (REPO if in_repo() else Path.cwd()) / "corpus"
        self.corpus_root = Path(explicit or self.default_corpus_root).resolve()
        self.corpus_root_given = bool(explicit)
        # Manifest folders: --targets-dir as given, --build-dir's fairwire-targets/.
        self.build_dirs = [Path(d).resolve() for d in build_dirs]
        self.manifest_dirs = [Path(d).resolve() for d in targets_dirs]
        for d in self.build_dirs:
            if not (d / MANIFEST_DIR).is_dir():
                raise RunnerError(
                    f"{d}: no {MANIFEST_DIR}/ folder: not a configured build folder "
                    f"of a project that calls fairwire_add_fuzz_target (configure it "
                    f"with cmake first)")
            self.manifest_dirs.append(d / MANIFEST_DIR)
        for d in self.manifest_dirs:
            if not d.exists():
                raise RunnerError(f"{d}: no such manifest folder")
        self.build = build and not self.manifest_dirs
        self.jobs = jobs or os.cpu_count() or 1

    @property
    def prebuilt(self) -> bool:
        """Targets come from given folders (--build-dir, --targets-dir), not
        from presets."""
        return bool(self.manifest_dirs)

    def describe_builds(self) -> str:
        """The given folders, for messages."""
        return ", ".join(rel(d) for d in (self.build_dirs or self.manifest_dirs))

    # --- corpus --------------------------------------------------------------
    def _own(self, target: Target) -> bool:
        """Whether the target is fairwire's own (defined in this repository)."""
        return target.source_dir is None or (
            in_repo() and target.source_dir.resolve() == REPO)

    def _rebased(self, path: Path, target: Target) -> Optional[Path]:
        """A path under the default corpus root moved under the corpus root
        given (--corpus-root, FAIRWIRE_CORPUS_ROOT), for fairwire's own
        targets; None when it does not apply."""
        if not (self.corpus_root_given and self._own(target)):
            return None
        try:
            inner = path.resolve().relative_to(self.default_corpus_root.resolve())
        except ValueError:
            return None
        return self.corpus_root / inner

    def corpus_dir(self, target: Target) -> Path:
        """The target's corpus folder: seeds, and regressions/ below it. From
        its manifest; <corpus root>/<name> when the manifest has none."""
        if target.corpus is None:
            return self.corpus_root / target.name
        return self._rebased(target.corpus, target) or target.corpus

    def regressions_dir(self, target: Target) -> Path:
        """<corpus>/regressions/: every input that ever failed."""
        return self.corpus_dir(target) / "regressions"

    def dict_file(self, target: Target) -> Optional[Path]:
        """The target's dictionary: its manifest's (under the corpus root given
        when there is one there), else corpus/dicts/<name>.dict under the
        corpus root or the repository."""
        if target.dict is not None:
            moved = self._rebased(target.dict, target)
            return moved if moved is not None and moved.is_file() else target.dict
        roots = [self.corpus_root]
        if in_repo() and self._own(target):
            roots.append(REPO / "corpus")
        for root in roots:
            d = root / "dicts" / f"{target.name}.dict"
            if d.is_file():
                return d
        return None

    def options_file(self, target: Target) -> Optional[Path]:
        """The target's OSS-Fuzz .options file: its manifest's, else
        fuzz/<name>/<name>.options in the repository (fairwire's own)."""
        if target.options is not None:
            return target.options
        if in_repo() and self._own(target):
            path = REPO / "fuzz" / target.name / f"{target.name}.options"
            if path.is_file():
                return path
        return None

    def libfuzzer_flags(self, target: Target) -> list[str]:
        """The [libfuzzer] section of the target's .options file (the file
        ci/oss-fuzz/build.sh ships as $OUT/<name>.options) as -key=value
        flags; none when there is no such file."""
        path = self.options_file(target)
        if path is None:
            return []
        if not path.is_file():
            raise RunnerError(f"{target.name}: no options file {path}")
        parser = configparser.ConfigParser(inline_comment_prefixes=("#",))
        parser.read(path)
        if not parser.has_section("libfuzzer"):
            return []
        return [f"-{key}={value}" for key, value in parser["libfuzzer"].items()]

    # --- builds --------------------------------------------------------------
    def _need_presets(self) -> None:
        if not in_repo():
            raise RunnerError(
                "not run from fairwire's repository, so there are no presets to "
                "build: give --build-dir DIR, the build folder of a project "
                "whose fuzz targets are defined with fairwire_add_fuzz_target")

    def build_dir(self, preset: str) -> Path:
        """The build folder of a preset (out/build/<preset> by default)."""
        return self.build_root / preset

    def configure(self, preset: str) -> Path:
        """Configures the preset's build folder when it is not yet."""
        self._need_presets()
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

    def all_prebuilt(self) -> list[Target]:
        """Every target of the given folders (the first of each name)."""
        seen: dict[str, Target] = {}
        for d in self.manifest_dirs:
            for t in read_manifests(d):
                seen.setdefault(t.name, t)
        return list(seen.values())

    def default_engine(self) -> str:
        """The engine to fuzz with when none is asked for: libfuzzer, or
        with --build-dir the engine the folders' targets are built for."""
        if not self.prebuilt:
            return "libfuzzer"
        engines = {t.engine for d in self.manifest_dirs for t in read_manifests(d)}
        for engine in ("libfuzzer", "afl"):
            if engine in engines:
                return engine
        found = ", ".join(sorted(engines)) or "no targets"
        raise RunnerError(
            f"{self.describe_builds()}: no target built with a fuzzing engine the "
            f"runner drives (libfuzzer, afl; found: {found}); configure with "
            f"-DFAIRWIRE_BUILD_FUZZERS=ON -DFAIRWIRE_FUZZ_ENGINE=libfuzzer")

    def targets(self, preset: str) -> list[Target]:
        """The fuzz targets a build provides, configuring it if needed. For
        given folders, `preset` is the engine wanted (libfuzzer, afl), or
        anything else for every target."""
        if self.prebuilt:
            found: dict[str, Target] = {}
            for d in self.manifest_dirs:
                for t in read_manifests(d):
                    if preset not in ENGINE_PRESETS or t.engine == preset:
                        found.setdefault(t.name, t)
            return list(found.values())
        bdir = self.configure(preset) if self.build else self.build_dir(preset)
        folder = bdir / MANIFEST_DIR
        if not folder.is_dir():
            raise RunnerError(f"no {MANIFEST_DIR}/ in {rel(bdir)}: the {preset} "
                              f"build is not configured (drop --no-build)")
        return read_manifests(folder)

    def select(self, preset: str, names: list[str], want_fuzzer: bool,
               want_replay: bool = True) -> list[Target]:
        """The named targets (all when names is empty) of a preset's build,
        built when missing or stale, or of the given folders. Raises
        RunnerError for unknown names and missing binaries."""
        available = self.targets(preset)
        where = (f"the {preset} targets of {self.describe_builds()}"
                 if self.prebuilt else f"the {preset} build")
        by_name = {t.name: t for t in available}
        unknown = [n for n in names if n not in by_name]
        if unknown:
            known = ", ".join(by_name) or "none"
            if self.prebuilt and preset in ENGINE_PRESETS:
                others = [f"{t.name} ({t.engine})" for t in self.all_prebuilt()
                          if t.name in unknown]
                if others:
                    known += "; built for another engine: " + ", ".join(others)
            raise RunnerError(f"unknown target(s) {', '.join(unknown)} in {where} "
                              f"(known: {known})")
        chosen = [by_name[n] for n in names] if names else available
        if not chosen:
            extra = ""
            if self.prebuilt:
                extra = " (targets there: " + (", ".join(
                    f"{t.name} ({t.engine})" for t in self.all_prebuilt()) or "none") + ")"
            raise RunnerError(f"{where} has no fuzz targets{extra}")
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
                what = (f"built without a fuzzing engine (engine {t.engine})"
                        if t.fuzzer is None else f"{t.fuzzer} is missing")
                raise RunnerError(f"{t.name}: no engine binary in {where}: {what}")
            if want_replay and not (t.replay and t.replay.is_file()):
                what = "none built" if t.replay is None else f"{t.replay} is missing"
                raise RunnerError(f"{t.name}: no replay binary ({what})")
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
