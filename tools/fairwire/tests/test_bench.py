"""Unit tests of `fairwire fuzz bench` (runner/bench.py; ctest runner.unit):
the table, the ratios and the goals from measured figures (issue 12's own
table among them), and whole runs over a fake build whose "libFuzzer"
binaries are shell scripts printing recorded libFuzzer output."""
from __future__ import annotations

import contextlib
import io
import json
import shutil
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

TOOL_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOL_DIR))

from runner import cli  # noqa: E402
from runner import project as project_mod  # noqa: E402
from runner.bench import (BenchRun, format_ratio, goal_rows,  # noqa: E402
                          markdown_report, text_report)

# The last lines of a 30 s run of wire_decode_diff (libFuzzer 14,
# -print_final_stats=1).
FINAL_OUTPUT = """#65536	pulse  cov: 9721 ft: 30112 corp: 1180/92Kb lim: 1024 exec/s: 1724 rss: 391Mb
#50670	DONE   cov: 9741 ft: 30190 corp: 1183/92Kb lim: 1024 exec/s: 1689 rss: 395Mb
Done 50670 runs in 30 second(s)
stat::number_of_executed_units: 50670
stat::average_exec_per_sec:     1689
stat::new_units_added:          77
stat::slowest_unit_time_sec:    0
stat::peak_rss_mb:              395
"""


def run(name: str, eps: float, baseline: bool = False, note: str = "",
        repeats: int = 0) -> BenchRun:
    runs = int(eps * 30) + repeats
    return BenchRun(name, baseline, [], "log", 10, seconds=30.0, runs=runs,
                    execs_per_sec=eps, exit_status=0, note=note, calls=runs,
                    repeats=repeats)


# Issue 12's measurement.
ISSUE_12 = [run("baseline_libprotobuf", 46216, baseline=True),
            run("wire_decode_diff", 1689), run("wire_schema_diff", 1465),
            run("wire_packed_unpacked", 212), run("poll_schedule", 368)]


class Table(unittest.TestCase):
    def test_ratios_are_formatted_to_two_significant_digits(self) -> None:
        self.assertEqual([format_ratio(x) for x in (1.0, 0.33, 1689 / 46216,
                                                      212 / 46216, None)],
                         ["1x", "0.33x", "0.037x", "0.0046x", "-"])

    def test_issue_12s_figures(self) -> None:
        text = text_report(ISSUE_12, ISSUE_12[0])
        lines = text.splitlines()
        self.assertEqual(lines[0].split(), ["target", "runs", "re-runs", "seconds",
                                            "execs/s", "vs", "baseline"])
        self.assertEqual(lines[2].split(), ["baseline_libprotobuf", "(libprotobuf",
                                            "only)", "1,386,480", "0", "30.0", "46,216",
                                            "1x"])
        self.assertEqual(lines[3].split(), ["wire_decode_diff", "50,670", "0", "30.0",
                                            "1,689", "0.037x"])
        self.assertEqual(lines[6].split()[-2:], ["368", "0.0080x"])
        goals = {(g["target"], g["goal"]): (g["measured"], g["met"])
                 for g in goal_rows(ISSUE_12, ISSUE_12[0])}
        self.assertEqual(goals, {
            ("wire_decode_diff", ">= 0.33x the baseline"): ("0.037x", False),
            ("wire_schema_diff", ">= 0.33x the baseline"): ("0.032x", False),
            ("wire_packed_unpacked", ">= 0.33x the baseline"): ("0.0046x", False),
            ("poll_schedule", ">= 20,000 execs/s"): ("368", False)})
        self.assertIn(["poll_schedule", ">=", "20,000", "execs/s", "368", "NOT", "met"],
                      [line.split() for line in lines])

    def test_goals_met(self) -> None:
        runs = [run("baseline_libprotobuf", 46216, baseline=True),
                run("wire_decode_diff", 15252), run("poll_schedule", 20000)]
        self.assertEqual([(g["target"], g["met"]) for g in goal_rows(runs, runs[0])],
                         [("wire_decode_diff", True), ("poll_schedule", True)])
        self.assertIn("0.33x  met", text_report(runs, runs[0]))

    def test_without_a_baseline_the_ratios_and_their_goals_are_unknown(self) -> None:
        runs = ISSUE_12[1:]
        text = text_report(runs, None)
        self.assertEqual(text.splitlines()[2].split()[-1], "-")
        lines = [line.split() for line in text.splitlines()]
        self.assertIn(["wire_decode_diff", ">=", "0.33x", "the", "baseline", "-",
                       "unknown"], lines)
        self.assertIn(["poll_schedule", ">=", "20,000", "execs/s", "368", "NOT", "met"],
                      lines)

    def test_a_run_with_a_note_is_marked(self) -> None:
        runs = [run("wire_decode_diff", 100, note="stopped after 2.0 s with exit status 1")]
        text = text_report(runs, None)
        self.assertIn("wire_decode_diff *", text)
        self.assertIn("* wire_decode_diff: stopped after 2.0 s", text)

    def test_the_instrumented_baseline_gets_its_own_columns_and_goal_rows(self) -> None:
        # This machine's bench at 8b12042 and the first run of the
        # instrumented baseline (23,271 execs/s), with per-input times.
        runs = [run("baseline_libprotobuf", 80979, baseline=True),
                run("baseline_libprotobuf_instrumented", 23271, baseline=True),
                run("wire_decode_diff", 5192), run("poll_schedule", 2459)]
        for r, us in zip(runs, (24.3, 29.0, 51.8, 196.0)):
            r.us_per_input = us
        text = text_report(runs, runs[0])
        lines = [line.split() for line in text.splitlines()]
        self.assertEqual(lines[0], ["target", "runs", "re-runs", "seconds",
                                    "execs/s", "vs",
                                    "baseline", "vs", "instrumented", "us/input",
                                    "cost", "vs", "baseline", "cost", "vs",
                                    "instrumented"])
        self.assertEqual(lines[2][-7:], ["30.0", "80,979", "1x", "3.48x", "24.3",
                                         "1.0x", "0.8x"])
        self.assertEqual(lines[3][-7:], ["30.0", "23,271", "0.29x", "1x", "29.0",
                                         "1.2x", "1.0x"])
        self.assertEqual(lines[4], ["wire_decode_diff", "155,760", "0", "30.0", "5,192",
                                    "0.064x", "0.22x", "51.8", "2.1x", "1.8x"])
        goals = [(g["target"], g["goal"], g["against"], g["measured"], g["met"])
                 for g in goal_rows(runs, runs[0], runs[1])]
        self.assertEqual(goals, [
            ("wire_decode_diff", ">= 0.33x the baseline", "baseline_libprotobuf",
             "0.064x", False),
            ("wire_decode_diff", ">= 0.33x the instrumented baseline",
             "baseline_libprotobuf_instrumented", "0.22x", False),
            ("poll_schedule", ">= 20,000 execs/s", None, "2,459", False)])
        self.assertIn(["wire_decode_diff", ">=", "0.33x", "the", "instrumented",
                       "baseline", "0.22x", "NOT", "met"], lines)

    def test_markdown(self) -> None:
        summary = {"id": "x", "command": "fairwire fuzz bench --time 30",
                   "build": "out/build/libfuzzer", "seconds": 30, "cpus": 2,
                   "load_before": "0.1", "load_after": "2.0",
                   "runs": [vars(r) for r in ISSUE_12]}
        md = markdown_report(summary)
        self.assertIn("| wire_decode_diff | 50,670 | 0 | 30.0 | 1,689 | 0.037x |", md)
        self.assertIn("| poll_schedule | >= 20,000 execs/s | 368 | NOT met |", md)
        self.assertIn("`fairwire fuzz bench --time 30`", md)


def _script(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


# A fake libFuzzer: notes its command line, adds an input to the corpus
# folder it was given (its last argument) as libFuzzer does, prints
# recorded final statistics with RUNS runs, writes the entry point's count
# (REPEATS of them re-runs) when FAIRWIRE_INPUT_COUNT names a file, and exits
# with STATUS.
FAKE = """echo "$@" >> "{ran}"
if [ -n "$FAIRWIRE_INPUT_COUNT" ] && [ {repeats} -ge 0 ]; then
  printf 'calls {runs}\\nrepeats {repeats}\\n' > "$FAIRWIRE_INPUT_COUNT"
fi
for a in "$@"; do last="$a"; done
echo new > "$last/found-by-fuzzing"
sed "s/50670/{runs}/" "{output}"
exit {status}
"""


class Runs(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="fairwire-bench-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        patcher = mock.patch.object(project_mod, "run_checked", self.no_builds)
        patcher.start()
        self.addCleanup(patcher.stop)
        (self.tmp / "output.txt").write_text(FINAL_OUTPUT)
        self.build = self.tmp / "build"
        self.src = self.tmp / "src"
        self.corpus = self.src / "corpus" / "wire_x"
        (self.corpus / "regressions").mkdir(parents=True)
        for n in range(3):
            (self.corpus / f"seed{n}").write_bytes(bytes([n]))
        (self.corpus / "regressions" / "fixed-bug").write_bytes(b"ok")
        (self.corpus / "regressions" / "open-bug").write_bytes(b"fails")
        (self.corpus / "regressions" / "README").write_text("what each found\n")
        (self.src / "wire_x.dict").write_text('"ab"\n')
        (self.src / "wire_x.options").write_text("[libfuzzer]\nmax_len = 64\n")

    @staticmethod
    def no_builds(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"the runner tried to build: {args}")

    def fake_target(self, name: str, runs: int, status: int = 0,
                    baseline: bool = False, replay_crashes: bool = False,
                    repeats: int = 0) -> None:
        """repeats -1: an entry point that keeps no input count."""
        ran = self.build / "ran"
        fuzzer = _script(self.build / name / name, FAKE.format(
            ran=ran, runs=runs, output=self.tmp / "output.txt", status=status,
            repeats=repeats))
        # The replay driver: over a folder it reports each failing file (or,
        # replay_crashes, dies as on a sanitizer report); over one file, its
        # exit status.
        folder_run = ("exit 134" if replay_crashes else
                      'echo "FAIL $1/regressions/open-bug: planted-bug: x"; exit 1')
        # --repeat R FOLDER (fuzz bench --per-input): the timing line of the
        # real driver, 5,000 us per input for the target, 500 for the baseline.
        us = 500 if baseline else 5000
        timed = (f'if [ "$1" = --repeat ]; then echo "{name}: timed 4 inputs x $2 '
                 f'passes: 1.000 s, {us}.000 us per input"; exit 0; fi\n')
        replay = _script(self.build / name / f"{name}_replay",
                         timed + f'if [ -d "$1" ]; then {folder_run}; fi\n'
                         'case "$1" in *open-bug) exit 1 ;; esac\nexit 0\n')
        folder = self.build / ("fairwire-baselines" if baseline else "fairwire-targets")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.json").write_text(json.dumps({
            "format": 1, "name": name, "engine": "libfuzzer", "fuzzer": str(fuzzer),
            "replay": str(replay), "corpus": str(self.corpus),
            "dict": str(self.src / "wire_x.dict"),
            "options": "" if baseline else str(self.src / "wire_x.options"),
            "source_dir": str(self.src), "build_dir": str(self.build)}))

    def bench(self, *extra: str) -> tuple[int, str, dict]:
        out = io.StringIO()
        self.err = io.StringIO()  # the runner's log
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(self.err):
            status = cli.main(["fuzz", "bench", "--time", "1", "--build-dir",
                               str(self.build), "--out", str(self.tmp / "bench"), *extra])
        folders = list((self.tmp / "bench").iterdir())
        self.assertEqual(len(folders), 1)
        summary = json.loads((folders[0] / "bench.json").read_text())
        self.assertTrue((folders[0] / "bench.md").is_file())
        return status, out.getvalue(), summary

    def test_baseline_first_then_each_target_one_at_a_time(self) -> None:
        self.fake_target("wire_x", 50670)
        self.fake_target("baseline_libprotobuf", 1386480, baseline=True)
        status, out, summary = self.bench()
        self.assertEqual(status, 0, out)
        names = [r["name"] for r in summary["runs"]]
        self.assertEqual(names, ["baseline_libprotobuf", "wire_x"])
        base, wire = summary["runs"]
        self.assertEqual((base["runs"], wire["runs"]), (1386480, 50670))
        self.assertEqual(wire["libfuzzer_execs_per_sec"], 1689)
        self.assertAlmostEqual(wire["execs_per_sec"], 50670 / wire["seconds"])
        self.assertAlmostEqual(summary["ratios"]["wire_x"],
                               wire["execs_per_sec"] / base["execs_per_sec"])
        self.assertEqual(summary["goals"][0]["target"], "wire_x")
        self.assertIn("wire_x", out)
        self.assertIn("goals (issue 12):", out)

    def test_execs_per_sec_counts_inputs_not_leak_re_runs(self) -> None:
        self.fake_target("wire_x", 50670, repeats=5670)
        self.fake_target("baseline_libprotobuf", 1386480, baseline=True)
        status, out, summary = self.bench()
        self.assertEqual(status, 0, out)
        base, wire = summary["runs"]
        self.assertEqual((wire["runs"], wire["calls"], wire["repeats"]),
                         (50670, 50670, 5670))
        self.assertAlmostEqual(wire["execs_per_sec"], 45000 / wire["seconds"])
        self.assertAlmostEqual(summary["ratios"]["wire_x"],
                               wire["execs_per_sec"] / base["execs_per_sec"])
        self.assertIn("5,670", out)
        self.assertNotIn("input count", wire["note"])
        self.assertIn("re-runs", summary["execs_per_sec_is"])

    def test_without_the_entry_points_count_it_says_so(self) -> None:
        self.fake_target("wire_x", 50670, repeats=-1)
        status, out, summary = self.bench()
        self.assertEqual(status, 0, out)
        wire = summary["runs"][0]
        self.assertIsNone(wire["repeats"])
        self.assertAlmostEqual(wire["execs_per_sec"], 50670 / wire["seconds"])
        self.assertIn("kept no input count", wire["note"])

    def test_both_baselines_run_first_and_each_target_gets_both_ratios(self) -> None:
        self.fake_target("wire_x", 50670)
        self.fake_target("baseline_libprotobuf", 1386480, baseline=True)
        self.fake_target("baseline_libprotobuf_instrumented", 462160, baseline=True)
        status, out, summary = self.bench()
        self.assertEqual(status, 0, out)
        self.assertEqual([r["name"] for r in summary["runs"]],
                         ["baseline_libprotobuf", "baseline_libprotobuf_instrumented",
                          "wire_x"])
        base, inst, wire = summary["runs"]
        self.assertAlmostEqual(summary["ratios_instrumented"]["wire_x"],
                               wire["execs_per_sec"] / inst["execs_per_sec"])
        self.assertAlmostEqual(summary["ratios"]["wire_x"],
                               wire["execs_per_sec"] / base["execs_per_sec"])
        self.assertEqual([g["against"] for g in summary["goals"]],
                         ["baseline_libprotobuf", "baseline_libprotobuf_instrumented"])
        self.assertIn("vs instrumented", out)
        self.assertIn(">= 0.33x the instrumented baseline", out)

    def test_without_the_instrumented_baseline_it_says_how_to_get_it(self) -> None:
        self.fake_target("wire_x", 50670)
        self.fake_target("baseline_libprotobuf", 1386480, baseline=True)
        status, out, summary = self.bench()
        self.assertEqual(status, 0, out)
        self.assertEqual([r["name"] for r in summary["runs"]],
                         ["baseline_libprotobuf", "wire_x"])
        self.assertIsNone(summary["ratios_instrumented"]["wire_x"])
        self.assertNotIn("vs instrumented", out)
        self.assertIn("ci/install-deps --protobuf-source", self.err.getvalue())

    def test_the_command_line_and_a_copy_of_the_corpus(self) -> None:
        self.fake_target("wire_x", 50670)
        status, _, summary = self.bench("--seed", "7")
        cmd = summary["runs"][0]["command"]
        for flag in ("-max_total_time=1", "-print_final_stats=1", "-seed=7",
                     f"-dict={self.src / 'wire_x.dict'}", "-max_len=64"):
            self.assertIn(flag, cmd)
        copy = Path(cmd[-1])
        self.assertEqual(copy.name, "corpus")
        self.assertNotEqual(copy, self.corpus)
        # Seeds and the passing regression; not the failing one, not README.
        self.assertEqual(summary["runs"][0]["inputs"], 4)
        self.assertTrue((copy / "found-by-fuzzing").is_file())
        self.assertEqual(sorted(p.name for p in self.corpus.rglob("*")),
                         ["README", "fixed-bug", "open-bug", "regressions",
                          "seed0", "seed1", "seed2"])
        self.assertEqual(summary["runs"][0]["left_out"],
                         [str(self.corpus / "regressions" / "open-bug")])
        self.assertIn("1 of its 5 corpus inputs fail its check now",
                      summary["runs"][0]["note"])
        self.assertEqual(status, 0)

    def test_failing_inputs_found_one_by_one_when_the_replay_crashes(self) -> None:
        self.fake_target("wire_x", 50670, replay_crashes=True)
        _, _, summary = self.bench()
        self.assertEqual(summary["runs"][0]["left_out"],
                         [str(self.corpus / "regressions" / "open-bug")])

    def test_a_run_that_stops_early_makes_the_exit_status_1(self) -> None:
        self.fake_target("wire_x", 1000, status=1)
        status, out, summary = self.bench()
        self.assertEqual(status, 1)
        self.assertIn("exit status 1", summary["runs"][0]["note"])
        self.assertIn("wire_x *", out)
        self.assertIsNone(summary["goals"][0]["met"])  # not a complete run
        self.assertIn("unknown", out)

    def test_without_baseline_it_measures_anyway(self) -> None:
        self.fake_target("wire_x", 50670)
        status, out, summary = self.bench("wire_x")
        self.assertEqual(status, 0)
        self.assertEqual([r["name"] for r in summary["runs"]], ["wire_x"])
        self.assertIsNone(summary["ratios"]["wire_x"])
        self.assertIn("unknown", out)

    def test_per_input_times_each_check_with_its_replay_driver(self) -> None:
        self.fake_target("wire_x", 50670)
        self.fake_target("baseline_libprotobuf", 1386480, baseline=True)
        status, out, summary = self.bench("--per-input", "6")
        self.assertEqual(status, 0, out)
        self.assertEqual(summary["per_input_runs"], 6)
        base, wire = summary["runs"]
        self.assertEqual((base["us_per_input"], wire["us_per_input"]), (500.0, 5000.0))
        self.assertAlmostEqual(summary["costs"]["wire_x"], 10.0)
        self.assertIn("us/input", out)
        self.assertIn("cost vs baseline", out)
        self.assertIn("10.0x", out)

    def test_a_baseline_without_a_replay_driver_has_a_note(self) -> None:
        self.fake_target("wire_x", 50670)
        self.fake_target("baseline_libprotobuf", 1386480, baseline=True)
        manifest = self.build / "fairwire-baselines" / "baseline_libprotobuf.json"
        fields = json.loads(manifest.read_text())
        fields["replay"] = ""  # as the baselines of earlier builds
        manifest.write_text(json.dumps(fields))
        status, _, summary = self.bench("--per-input", "3")
        self.assertEqual(status, 0)
        base, wire = summary["runs"]
        self.assertIsNone(base["us_per_input"])
        self.assertIn("no replay driver", base["note"])
        self.assertEqual(wire["us_per_input"], 5000.0)
        self.assertIsNone(summary["costs"]["wire_x"])

    def test_per_input_needs_a_positive_count(self) -> None:
        self.fake_target("wire_x", 50670)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = cli.main(["fuzz", "bench", "--per-input", "-1", "--build-dir",
                               str(self.build), "--out", str(self.tmp / "bench")])
        self.assertEqual(status, 2)
        self.assertIn("--per-input R needs a count", err.getvalue())

    def test_unknown_target(self) -> None:
        self.fake_target("wire_x", 50670)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = cli.main(["fuzz", "bench", "nope", "--build-dir", str(self.build),
                               "--out", str(self.tmp / "bench")])
        self.assertEqual(status, 2)
        self.assertIn("unknown target(s) nope", err.getvalue())


if __name__ == "__main__":
    unittest.main()
