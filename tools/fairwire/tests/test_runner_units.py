"""Unit tests of the runner's parsers, crash signatures, report, target
manifests, --build-dir and installed layout (ctest runner.unit): no build, no
fuzzing (the binaries are small shell scripts)."""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Optional
from unittest import mock

# tools/fairwire: the script and its package, runner/.
TOOL_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOL_DIR))

from runner import cli  # noqa: E402
from runner import project as project_mod  # noqa: E402
from runner.engines import parse_afl_plot_data, parse_libfuzzer_line  # noqa: E402
from runner.project import Project, RunnerError, read_manifest  # noqa: E402
from runner.report import (coverage_svg, divergence_rows, table_rows,  # noqa: E402
                           text_table, write_reports)
from runner.triage import parse_signature  # noqa: E402

ASAN_REPORT = """==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020
READ of size 1 at 0x602000000011 thread T0
    #0 0x55d in fairwire::wire::ReadVarint(std::span<unsigned char const, 18446744073709551615ul>) /src/core/src/wire/varint.cc:40:12
    #1 0x55e in fairwire::wire::Decode(std::span<unsigned char const, 18446744073709551615ul>, fairwire::wire::Message&) /src/core/src/wire/decoder.cc:88:7
    #2 0x55f in Check /src/fuzz/wire_decode_diff/target.cc:20:3
    #3 0x560 in LLVMFuzzerTestOneInput /src/fuzz/driver/entry.cc:13:3
    #4 0x561 in fuzzer::Fuzzer::ExecuteCallback(unsigned char const*, unsigned long) (/out/wire_decode_diff+0x48273) (BuildId: 1b76)
SUMMARY: AddressSanitizer: heap-buffer-overflow /src/core/src/wire/varint.cc:40:12
"""

VIOLATION_REPORT = """fairwire: poll_schedule: check failed: bounded-waiting: child 1 waited 5 calls
==8754== ERROR: libFuzzer: deadly signal
    #0 0x5612b66a8c61 in __sanitizer_print_stack_trace (/x/poll_schedule+0xeec61) (BuildId: 1b)
    #1 0x5612b661b5b8 in fuzzer::PrintStackTrace() (/x/poll_schedule+0x615b8) (BuildId: 1b)
    #6 0x7ff34ff44471 in abort stdlib/./stdlib/abort.c:79:7
    #7 0x5612b66e54f6 in LLVMFuzzerTestOneInput /work/main/fuzz/driver/entry.cc:20:5
"""


class LibFuzzerLines(unittest.TestCase):
    def test_plain_status_line_parsed(self) -> None:
        line = "#4096\tpulse  cov: 66 ft: 112 corp: 10/40b lim: 8 exec/s: 2048 rss: 31Mb"
        self.assertEqual(parse_libfuzzer_line(line), (4096, 66, 112, 10, 2048.0))

    def test_fork_status_line_parsed(self) -> None:
        line = ("#1485: cov: 66 ft: 112 corp: 10 exec/s 700 oom/timeout/crash: "
                "0/0/4 time: 1s job: 5 dft_time: 0")
        self.assertEqual(parse_libfuzzer_line(line), (1485, 66, 112, 10, 700.0))

    def test_other_lines_ignored(self) -> None:
        self.assertIsNone(parse_libfuzzer_line("INFO: Seed: 2426607945"))
        self.assertIsNone(parse_libfuzzer_line("    #7 0x5 in LLVMFuzzerTestOneInput"))


class AflPlotData(unittest.TestCase):
    def test_rows_keyed_by_header(self) -> None:
        text = ("# relative_time, cycles_done, cur_item, corpus_count, pending_total, "
                "pending_favs, map_size, saved_crashes, saved_hangs, max_depth, "
                "execs_per_sec, total_execs, edges_found\n"
                "5, 0, 3, 12, 10, 2, 1.52%, 0, 0, 2, 1500.25, 7000, 98\n")
        rows = parse_afl_plot_data(text)
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["edges_found"], 98)
        self.assertEqual(rows[0]["total_execs"], 7000)
        self.assertEqual(rows[0]["map_size"], 1.52)


class Signatures(unittest.TestCase):
    def test_violation_grouped_by_property_name(self) -> None:
        sig = parse_signature(VIOLATION_REPORT)
        self.assertEqual(sig.kind, "bounded-waiting")
        self.assertEqual(sig.key, "bounded-waiting")
        self.assertEqual(sig.slug, "bounded-waiting")

    def test_asan_grouped_by_kind_and_top_frames_without_noise(self) -> None:
        sig = parse_signature(ASAN_REPORT)
        self.assertEqual(sig.kind, "asan-heap-buffer-overflow")
        self.assertEqual(sig.frames[0], "fairwire::wire::ReadVarint(std::span<unsigned "
                         "char const, 18446744073709551615ul>)")
        self.assertEqual(sig.frames[2], "Check")
        self.assertEqual(len(sig.frames), 3)
        self.assertEqual(sig.slug, "asan-heap-buffer-overflow-ReadVarint")

    def test_same_bug_from_different_inputs_has_same_key(self) -> None:
        other = ASAN_REPORT.replace("0x6020", "0x7777").replace("0x55d", "0x99")
        self.assertEqual(parse_signature(ASAN_REPORT).key, parse_signature(other).key)

    def test_ubsan_report(self) -> None:
        sig = parse_signature("/src/a.cc:3:5: runtime error: signed integer overflow: "
                              "2147483647 + 1 cannot be represented\n")
        self.assertEqual(sig.kind, "ubsan-signed-integer-overflow")

    def test_leak_report(self) -> None:
        sig = parse_signature("==5==ERROR: LeakSanitizer: detected memory leaks\n"
                              "    #0 0x1 in operator new(unsigned long) x.cc:1\n"
                              "    #1 0x2 in fairwire::Make() /src/a.cc:9:3\n")
        self.assertEqual(sig.kind, "lsan-leak")
        self.assertIn("fairwire::Make()", sig.key)

    def test_clean_output_has_no_signature(self) -> None:
        self.assertIsNone(parse_signature("INFO: Running with entropic power schedule\n"))


class Reports(unittest.TestCase):
    SUMMARY = {
        "id": "20260101-000000", "folder": "out/campaigns/x", "engines": ["libfuzzer", "afl"],
        "jobs": 2, "time_per_target": 60, "elapsed": 61.0, "interrupted": False,
        "targets": ["t"], "findings": [], "known_failing_regressions": {},
        "sessions": [
            {"target": "t", "engine": "libfuzzer", "jobs": 1, "execs": 123456,
             "execs_per_sec": 2057.6, "coverage": 310, "corpus": 40, "seeds": 5,
             "new_files": 35, "crashes": 0, "crash_paths": [], "findings_dir": "f",
             "coverage_over_time": [(0.5, 100), (10, 250), (60, 310)], "folder": "x"},
            {"target": "t", "engine": "afl", "jobs": 1, "execs": 9000,
             "execs_per_sec": 150, "coverage": 280, "corpus": 30, "seeds": 5,
             "new_files": 25, "crashes": 1, "crash_paths": ["f/afl-1"],
             "findings_dir": "f", "coverage_over_time": [(5, 200), (60, 280)],
             "folder": "y"}]}

    def test_text_table_has_one_row_per_target_and_engine(self) -> None:
        lines = text_table(self.SUMMARY).splitlines()
        self.assertEqual(len(lines), 4)
        self.assertIn("123,456", lines[2])
        self.assertIn("1 (f/afl-1)", lines[3])

    def test_svg_draws_one_line_per_engine(self) -> None:
        svg = coverage_svg("t", {"libfuzzer": [(0, 1), (10, 5)], "afl": [(3, 2)]})
        self.assertTrue(svg.startswith("<svg"))
        self.assertEqual(svg.count("<path"), 2)

    def test_unknown_figures_show_a_dash_and_each_plot_is_written(self) -> None:
        summary = json.loads(json.dumps(self.SUMMARY))
        summary["sessions"][0].update(
            execs=None, execs_per_sec=None, coverage=None, features=None, corpus=None,
            coverage_over_time=[], features_over_time=[(1, 10), (5, 20)],
            execs_per_sec_over_time=[(1, 100.0), (5, 120.0)])
        self.assertEqual(table_rows(summary)[0][2:7], ["-", "-", "-", "-", "5 -> -"])
        with tempfile.TemporaryDirectory() as tmp:
            write_reports(Path(tmp), summary)
            self.assertEqual(sorted(p.name for p in Path(tmp).glob("*.svg")),
                             ["coverage-t.svg", "execs-t.svg", "features-t.svg"])
            self.assertIn("execs/s over time", (Path(tmp) / "execs-t.svg").read_text())
            self.assertIn("![execs-t](execs-t.svg)", (Path(tmp) / "report.md").read_text())

    def test_divergence_classes_get_one_row_each(self) -> None:
        finding = {
            "target": "upb_decode_diff", "kind": "divergence accepts-rejected/field-number-0",
            "new": True, "signature": "s", "engine": "libfuzzer", "count": 3,
            "inputs": ["f/x"], "minimised": True, "shrunk": False, "final_size": 2,
            "regression": "r", "fails_on_regression": True, "detail": "d", "note": "",
            "repro": ["x"],
            "description": "input: fairwire.test.AllKinds, 1 bytes: 04\n"
                           "  @0 malformed: 04\n"
                           "rules touched: field-number-0\n"
                           "divergence accepts-rejected/field-number-0\n"
                           "upb (git 2020-07-30) accepts: \n"
                           "libprotobuf (DynamicMessage) rejects (rejected)\n"}
        other = dict(finding, target="nanopb_decode_diff",
                     kind="divergence differs/string-with-nul",
                     description="input: fairwire.test.Nested, 3 bytes: 1a 01 00\n"
                                 "nanopb-0.4.7 accepts: 1a 00\n"
                                 "    @0 #3 label:string len [0 bytes] \"\"\n"
                                 "libprotobuf (DynamicMessage) accepts: 1a 01 00\n")
        crash = dict(finding, kind="asan-stack-overflow", description="x")
        summary = dict(self.SUMMARY, findings=[finding, other, crash])
        self.assertEqual(divergence_rows(summary), [
            ["nanopb_decode_diff", "differs/string-with-nul",
             "Nested, 3 bytes: `1a 01 00`", "accepts: 1a 00", "accepts: 1a 01 00"],
            ["upb_decode_diff", "accepts-rejected/field-number-0",
             "AllKinds, 1 bytes: `04`", "accepts:", "rejects (rejected)"]])
        with tempfile.TemporaryDirectory() as tmp:
            write_reports(Path(tmp), summary)
            md = (Path(tmp) / "report.md").read_text()
            self.assertIn("## Divergence classes", md)
            self.assertIn("| upb_decode_diff | accepts-rejected/field-number-0 |", md)
            self.assertIn("<h2>Divergence classes</h2>",
                          (Path(tmp) / "report.html").read_text())
        self.assertNotIn("Divergence classes", self._markdown_of(self.SUMMARY))

    @staticmethod
    def _markdown_of(summary: dict) -> str:
        with tempfile.TemporaryDirectory() as tmp:
            write_reports(Path(tmp), summary)
            return (Path(tmp) / "report.md").read_text()

    def test_reports_written(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            write_reports(Path(tmp), self.SUMMARY)
            html = (Path(tmp) / "report.html").read_text()
            self.assertIn("<svg", html)
            self.assertIn("2,058", html)
            self.assertIn("| t | libfuzzer |", (Path(tmp) / "report.md").read_text())


# --- target manifests, --build-dir, the installed layout -------------------

def _script(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def _fake_build(root: Path, engine: str = "libfuzzer",
                source_dir: Optional[Path] = None) -> Path:
    """A build folder of a project outside fairwire: alpha (built with the
    engine, its own corpus of three seeds and one regression, a dictionary,
    an .options file) and beta (no engine binary, no corpus, dictionary or
    options of its own). The replay scripts answer --info and --describe;
    the engine binary notes each run in <build>/ran."""
    build, src = root / "build", source_dir or root / "src"
    corpus = src / "seeds" / "alpha"
    (corpus / "regressions").mkdir(parents=True)
    for n in range(3):
        (corpus / f"seed{n}").write_bytes(bytes([n]))
    (corpus / "regressions" / "old-failure").write_bytes(b"x")
    (src / "alpha.dict").write_text('"ab"\n')
    (src / "alpha.options").write_text("[libfuzzer]\nmax_len = 64\n")
    replay = ('case "$1" in\n  --info) printf "%s\\tchecks %s\\n" NAME NAME ;;\n'
              '  --describe) echo "scenario of NAME" ;;\nesac\nexit 0\n')
    for name in ("alpha", "beta"):
        _script(build / name / f"{name}_replay", replay.replace("NAME", name))
    _script(build / "alpha" / "alpha", f'echo "$@" >> "{build}/ran"\nexit 0\n')
    manifests = {
        "alpha": {"format": 1, "name": "alpha", "engine": engine,
                  "fuzzer": str(build / "alpha" / "alpha"),
                  "replay": str(build / "alpha" / "alpha_replay"),
                  "corpus": str(corpus), "dict": str(src / "alpha.dict"),
                  "options": str(src / "alpha.options"),
                  "source_dir": str(src), "build_dir": str(build)},
        "beta": {"format": 1, "name": "beta", "engine": "none", "fuzzer": "",
                 "replay": str(build / "beta" / "beta_replay"), "corpus": "",
                 "dict": "", "options": "", "source_dir": str(src),
                 "build_dir": str(build)}}
    (build / "fairwire-targets").mkdir(parents=True)
    for name, data in manifests.items():
        (build / "fairwire-targets" / f"{name}.json").write_text(json.dumps(data))
    return build


def _no_builds(*args: object, **kwargs: object) -> None:
    raise AssertionError(f"the runner tried to configure or build: {args}")


class Manifests(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="fairwire-unit-"))
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_every_manifest_of_the_build_is_read(self) -> None:
        build = _fake_build(self.tmp)
        project = Project(build_dirs=[str(build)])
        targets = {t.name: t for t in project.targets("any")}
        self.assertEqual(sorted(targets), ["alpha", "beta"])
        alpha, beta = targets["alpha"], targets["beta"]
        self.assertEqual(alpha.engine, "libfuzzer")
        self.assertEqual(alpha.fuzzer, build / "alpha" / "alpha")
        self.assertEqual(alpha.replay, build / "alpha" / "alpha_replay")
        self.assertEqual(alpha.build_dir, build)
        self.assertEqual(beta.engine, "none")
        self.assertIsNone(beta.fuzzer)
        self.assertIsNone(beta.corpus)

    def test_corpus_dict_and_options_come_from_the_manifest(self) -> None:
        build = _fake_build(self.tmp)
        project = Project(build_dirs=[str(build)], corpus_root=str(self.tmp / "cr"))
        alpha = read_manifest(build / "fairwire-targets" / "alpha.json")
        # Not fairwire's own target: --corpus-root does not move its corpus.
        self.assertEqual(project.corpus_dir(alpha), self.tmp / "src" / "seeds" / "alpha")
        self.assertEqual(project.regressions_dir(alpha),
                         self.tmp / "src" / "seeds" / "alpha" / "regressions")
        self.assertEqual(project.dict_file(alpha), self.tmp / "src" / "alpha.dict")
        self.assertEqual(project.libfuzzer_flags(alpha), ["-max_len=64"])

    def test_a_manifest_without_corpus_falls_back_to_the_corpus_root(self) -> None:
        build = _fake_build(self.tmp)
        project = Project(build_dirs=[str(build)], corpus_root=str(self.tmp / "cr"))
        beta = read_manifest(build / "fairwire-targets" / "beta.json")
        self.assertEqual(project.corpus_dir(beta), (self.tmp / "cr" / "beta").resolve())
        self.assertIsNone(project.dict_file(beta))
        (self.tmp / "cr" / "dicts").mkdir(parents=True)
        (self.tmp / "cr" / "dicts" / "beta.dict").write_text('"x"\n')
        self.assertEqual(project.dict_file(beta),
                         (self.tmp / "cr" / "dicts" / "beta.dict").resolve())
        self.assertEqual(project.libfuzzer_flags(beta), [])

    def test_corpus_root_moves_the_corpus_of_fairwires_own_targets(self) -> None:
        repo = project_mod.REPO
        data = {"format": 1, "name": "poll_schedule", "engine": "none", "fuzzer": "",
                "replay": "", "corpus": str(repo / "corpus" / "poll_schedule"),
                "dict": str(repo / "corpus" / "dicts" / "poll_schedule.dict"),
                "options": "", "source_dir": str(repo), "build_dir": str(self.tmp)}
        path = self.tmp / "poll_schedule.json"
        path.write_text(json.dumps(data))
        target = read_manifest(path)
        moved = Project(corpus_root=str(self.tmp / "cr"))
        self.assertEqual(moved.corpus_dir(target), (self.tmp / "cr" / "poll_schedule")
                         .resolve())
        # No dictionary under the corpus root given: the manifest's.
        self.assertEqual(moved.dict_file(target), Path(data["dict"]))
        with mock.patch.dict(os.environ, {"FAIRWIRE_CORPUS_ROOT": ""}):
            default = Project()
        self.assertEqual(default.corpus_dir(target), Path(data["corpus"]))

    def test_an_unknown_format_is_rejected_with_a_clear_message(self) -> None:
        build = _fake_build(self.tmp)
        path = build / "fairwire-targets" / "beta.json"
        data = json.loads(path.read_text())
        data["format"] = 2
        path.write_text(json.dumps(data))
        with self.assertRaises(RunnerError) as caught:
            Project(build_dirs=[str(build)]).targets("any")
        message = str(caught.exception)
        self.assertIn(str(path), message)
        self.assertIn("manifest format 2 is not supported", message)
        self.assertIn("reads format 1", message)

    def test_a_manifest_that_is_not_json_is_rejected(self) -> None:
        path = self.tmp / "bad.json"
        path.write_text("name\tengine\n")
        with self.assertRaisesRegex(RunnerError, "not a readable target manifest"):
            read_manifest(path)

    def test_a_folder_without_manifests_is_not_a_build_dir(self) -> None:
        with self.assertRaisesRegex(RunnerError, "no fairwire-targets/ folder"):
            Project(build_dirs=[str(self.tmp)])


class BuildDir(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="fairwire-unit-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        patcher = mock.patch.object(project_mod, "run_checked", _no_builds)
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_every_fuzz_subcommand_takes_build_dir(self) -> None:
        for action in (["list"], ["run", "--all"], ["cmin", "t"], ["tmin", "t", "f"],
                       ["repro", "t", "f"], ["coverage"], ["bench"]):
            args = cli.parser().parse_args(["fuzz", *action, "--build-dir", "B",
                                            "--build-dir", "C"])
            self.assertEqual(args.build_dir, ["B", "C"], action)

    def test_build_dir_selects_its_targets_without_building(self) -> None:
        build = _fake_build(self.tmp)
        project = Project(build_dirs=[str(build)])
        self.assertFalse(project.build)
        self.assertEqual(project.default_engine(), "libfuzzer")
        chosen = project.select("libfuzzer", [], want_fuzzer=True)
        self.assertEqual([t.name for t in chosen], ["alpha"])
        self.assertEqual(chosen[0].fuzzer, build / "alpha" / "alpha")

    def test_a_target_without_engine_binary_is_refused_for_fuzzing(self) -> None:
        project = Project(build_dirs=[str(_fake_build(self.tmp))])
        with self.assertRaisesRegex(RunnerError, r"beta \(none\)"):
            project.select("libfuzzer", ["beta"], want_fuzzer=True)
        self.assertEqual([t.name for t in project.select("any", ["beta"], False)],
                         ["beta"])

    def test_the_engine_comes_from_the_manifest(self) -> None:
        project = Project(build_dirs=[str(_fake_build(self.tmp, engine="afl"))])
        self.assertEqual(project.default_engine(), "afl")
        self.assertEqual([t.name for t in project.select("afl", [], True)], ["alpha"])
        with self.assertRaisesRegex(RunnerError, "alpha"):
            project.select("libfuzzer", ["alpha"], want_fuzzer=True)

    def test_repro_runs_the_build_dirs_binaries(self) -> None:
        build = _fake_build(self.tmp)
        crash = self.tmp / "input"
        crash.write_bytes(b"\x01")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = cli.main(["fuzz", "repro", "alpha", str(crash),
                               "--build-dir", str(build)])
        self.assertEqual(status, 0)
        self.assertIn("scenario of alpha", out.getvalue())
        self.assertIn("passes", out.getvalue())
        self.assertEqual((build / "ran").read_text().split(), [str(crash)])

    def test_list_shows_engine_and_corpus_size(self) -> None:
        build = _fake_build(self.tmp)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = cli.main(["fuzz", "list", "--build-dir", str(build)])
        self.assertEqual(status, 0)
        rows = {line.split()[0]: line.split() for line in out.getvalue().splitlines()}
        self.assertEqual(rows["alpha"][:5], ["alpha", "libfuzzer", "3", "1", "yes"])
        self.assertEqual(rows["alpha"][5:], ["checks", "alpha"])
        self.assertEqual(rows["beta"][:2], ["beta", "none"])

    def test_a_missing_build_dir_exits_2(self) -> None:
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = cli.main(["fuzz", "list", "--build-dir", str(self.tmp / "none")])
        self.assertEqual(status, 2)
        self.assertIn("no fairwire-targets/ folder", err.getvalue())

    def test_outside_the_repository_output_goes_under_the_current_folder(self) -> None:
        with mock.patch.object(project_mod, "in_repo", lambda: False), \
                mock.patch.object(cli, "in_repo", lambda: False):
            self.assertEqual(project_mod.default_output("campaigns"),
                             Path.cwd() / "out" / "campaigns")
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                status = cli.main(["fuzz", "run", "--all"])
        self.assertEqual(status, 2)
        self.assertIn("needs --build-dir DIR", err.getvalue())
        self.assertEqual(project_mod.default_output("campaigns"),
                         project_mod.REPO / "out" / "campaigns")


class InstalledLayout(unittest.TestCase):
    """bin/fairwire with its package in share/fairwire/python, as
    cmake/FairwireInstall.cmake installs them, run outside the repository."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = Path(tempfile.mkdtemp(prefix="fairwire-installed-"))
        prefix = cls.tmp / "prefix"
        (prefix / "bin").mkdir(parents=True)
        cls.command = prefix / "bin" / "fairwire"
        shutil.copy2(TOOL_DIR / "fairwire", cls.command)
        shutil.copytree(TOOL_DIR / "runner", prefix / "share" / "fairwire" / "python"
                        / "runner", ignore=shutil.ignore_patterns("__pycache__"))
        cls.build = _fake_build(cls.tmp / "app")
        cls.env = {k: v for k, v in os.environ.items()
                   if k not in ("PYTHONPATH", "FAIRWIRE_CORPUS_ROOT",
                                "FAIRWIRE_BUILD_ROOT")}
        cls.env["PYTHONDONTWRITEBYTECODE"] = "1"

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.tmp)

    def run_command(self, command: Path, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(command), *args], cwd=self.tmp, env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=60)

    def assert_lists_the_targets(self, r: subprocess.CompletedProcess) -> None:
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0].split()[:3], ["target", "engine", "seeds"])
        self.assertEqual(lines[1].split()[:3], ["alpha", "libfuzzer", "3"])
        self.assertEqual(lines[2].split()[:2], ["beta", "none"])

    def test_fuzz_list_with_build_dir(self) -> None:
        self.assert_lists_the_targets(
            self.run_command(self.command, "fuzz", "list", "--build-dir",
                             str(self.build)))

    def test_through_a_symlink_on_path(self) -> None:
        link = self.tmp / "elsewhere" / "fairwire"
        link.parent.mkdir(exist_ok=True)
        if not link.exists():
            link.symlink_to(self.command)
        self.assert_lists_the_targets(
            self.run_command(link, "fuzz", "list", "--build-dir", str(self.build)))

    def test_without_build_dir_it_says_build_dir_is_needed(self) -> None:
        r = self.run_command(self.command, "fuzz", "run", "--all")
        self.assertEqual(r.returncode, 2)
        self.assertIn("needs --build-dir DIR", r.stderr)
        self.assertFalse((self.tmp / "out").exists())

    def test_help_names_the_installed_command(self) -> None:
        r = self.run_command(self.command, "fuzz", "run", "--help")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("--build-dir", r.stdout)
        self.assertNotIn("ci/", r.stdout)


if __name__ == "__main__":
    unittest.main()
