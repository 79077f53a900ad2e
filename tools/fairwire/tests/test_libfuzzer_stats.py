"""Unit tests of runner/libfuzzer.py and the live figures of a libFuzzer
session (ctest runner.unit): status lines, final statistics and -fork
progress, from libFuzzer 14 output recorded on poll_schedule and
wire_decode_diff (the lines are quoted as libFuzzer printed them; long
symbol names are shortened)."""
from __future__ import annotations

import io
import shutil
import sys
import tempfile
import time
import unittest
from pathlib import Path

TOOL_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOL_DIR))

from runner.engines import LibFuzzerSession, Sample, windowed_rate  # noqa: E402
from runner.libfuzzer import (ForkProgress, PlainProgress,  # noqa: E402
                              parse_final_stats, parse_status_line)
from runner.project import Target  # noqa: E402
from runner.status import session_line  # noqa: E402

# A -fork=2 parent's log (poll_schedule, 20 s), as the runner reads it. The
# NEW_FUNC line before job 3's line was cut by libFuzzer at 1024 bytes with
# no newline, so job 3's line follows it on the same line.
LONG_SYMBOL = ("fairwire::poll::NestedProtocols<fairwire::poll::CountingProtocols, "
               * 14)[:1000]
FORK_LOG = f"""INFO: Running with entropic power schedule (0xFF, 100).
INFO: Seed: 3172711463
INFO: Loaded 1 modules   (42429 inline 8-bit counters): 42429 [0x5614e8bf7920, 0x5614e8c01edd),
INFO: -fork=2: fuzzing in separate process(s)
INFO: -fork=2: 15 seed inputs, starting to fuzz in /nonexistent/libFuzzerTemp.FuzzWithFork23730.dir
#105: cov: 6122 ft: 6122 corp: 15 exec/s 52 oom/timeout/crash: 0/0/0 time: 2s job: 1 dft_time: 0
  NEW_FUNC: 0x55ec4d031f60 in fairwire::fuzz::(anonymous namespace)::Check /work/main/fuzz/poll_schedule/poll_schedule.cc:16
#448: cov: 9431 ft: 10037 corp: 76 exec/s 114 oom/timeout/crash: 0/0/0 time: 4s job: 2 dft_time: 0
  NEW_FUNC: 0x55ec4d0542c0 in {LONG_SYMBOL}#670: cov: 15041 ft: 21747 corp: 267 exec/s 55 oom/timeout/crash: 0/0/0 time: 8s job: 3 dft_time: 0
  NEW_FUNC: 0x55ec4d05bec0 in fairwire::poll::Recorder::~Recorder() /work/main/properties/include/fairwire/checks/poll_harness.h:43
#1293: cov: 15309 ft: 23645 corp: 342 exec/s 124 oom/timeout/crash: 0/0/1 time: 13s job: 4 dft_time: 0
==23740== ERROR: libFuzzer: deadly signal
INFO: exiting: 0 time: 22s
"""

# The start of a running job's own log (<temp dir>/3.log).
JOB_LOG = """INFO: Seed: 772662401
INFO:        0 files found in /tmp/libFuzzerTemp.FuzzWithFork23730.dir/C3
INFO: seed corpus: files: 13 min: 9b max: 24b total: 256b rss: 36Mb
#14	INITED cov: 3964 ft: 6314 corp: 13/256b exec/s: 0 rss: 45Mb
#15	NEW    cov: 3964 ft: 6358 corp: 14/280b lim: 24 exec/s: 0 rss: 45Mb L: 24/24 MS: 1 ChangeBit-
"""
JOB_LOG_LATER = """#512	pulse  cov: 5061 ft: 8890 corp: 33/610b lim: 24 exec/s: 256 rss: 52Mb
#530	NEW    cov: 5062 ft: 9037 corp: 35/653b lim: 24 exec/s: 265 rss: 52Mb L: 24/24 MS: 1 ChangeASCIIInt-
"""

# The end of a plain process's output (wire_decode_diff, -print_final_stats=1).
PLAIN_END = """#262144	pulse  cov: 9810 ft: 31002 corp: 1204/95Kb lim: 1024 exec/s: 6553 rss: 402Mb
#263911	DONE   cov: 9811 ft: 31010 corp: 1206/95Kb lim: 1024 exec/s: 6597 rss: 402Mb
Done 263911 runs in 40 second(s)
stat::number_of_executed_units: 263911
stat::average_exec_per_sec:     6597
stat::new_units_added:          1210
stat::slowest_unit_time_sec:    0
stat::peak_rss_mb:              402
"""


def feed(progress, text: str) -> None:
    for line in text.splitlines():
        progress.feed(line)


class StatusLines(unittest.TestCase):
    def test_plain_line(self) -> None:
        line = parse_status_line("#4096\tpulse  cov: 66 ft: 112 corp: 10/40b lim: 8 "
                                 "exec/s: 2048 rss: 31Mb")
        self.assertEqual((line.runs, line.event, line.cov, line.ft, line.corpus,
                          line.execs_per_sec), (4096, "pulse", 66, 112, 10, 2048))
        self.assertIsNone(line.job)

    def test_plain_line_without_coverage(self) -> None:
        line = parse_status_line("#2\tINITED exec/s: 0 rss: 30Mb")
        self.assertEqual((line.runs, line.event, line.cov, line.ft, line.corpus),
                         (2, "INITED", None, None, None))

    def test_fork_line_of_libfuzzer_14_and_later(self) -> None:
        for eps in ("exec/s 124", "exec/s: 124"):
            line = parse_status_line(
                f"#1293: cov: 15309 ft: 23645 corp: 342 {eps} oom/timeout/crash: "
                f"1/0/2 time: 13s job: 4 dft_time: 0")
            self.assertEqual((line.runs, line.event, line.job, line.seconds, line.ft,
                              line.corpus, line.execs_per_sec, line.crashes),
                             (1293, "job", 4, 13, 23645, 342, 124, 3))

    def test_a_line_glued_after_a_cut_new_func_line_is_found(self) -> None:
        lines = FORK_LOG.splitlines()
        glued = next(x for x in lines if "job: 3" in x)
        self.assertTrue(glued.startswith("  NEW_FUNC"))
        line = parse_status_line(glued)
        self.assertEqual((line.runs, line.job, line.ft), (670, 3, 21747))
        plain = parse_status_line("  NEW_FUNC[1/2]: 0x5 in f() a.cc:1#77\tNEW    "
                                  "cov: 5 ft: 6 corp: 2/3b exec/s: 0 rss: 1Mb")
        self.assertEqual((plain.runs, plain.event, plain.cov), (77, "NEW", 5))

    def test_other_lines_are_not_status_lines(self) -> None:
        for text in ("INFO: Seed: 2426607945", "    #7 0x5 in LLVMFuzzerTestOneInput",
                     "Done 263911 runs in 40 second(s)", "MS: 1 ChangeBit-; base unit: 0a"):
            self.assertIsNone(parse_status_line(text), text)

    def test_final_stats(self) -> None:
        stats = parse_final_stats(PLAIN_END)
        self.assertEqual(stats["number_of_executed_units"], 263911)
        self.assertEqual(stats["average_exec_per_sec"], 6597)
        self.assertEqual(stats["peak_rss_mb"], 402)
        self.assertEqual(parse_final_stats("no stats here"), {})


class Plain(unittest.TestCase):
    def test_figures_of_the_latest_line_then_the_final_runs(self) -> None:
        p = PlainProgress()
        self.assertIsNone(p.figures(True).runs)
        feed(p, PLAIN_END.split("#263911")[0])
        f = p.figures(True)
        self.assertEqual((f.runs, f.execs_per_sec, f.cov, f.ft), (262144, 6553, 9810, 31002))
        feed(p, "#263911" + PLAIN_END.split("#263911", 1)[1])
        f = p.figures(False)
        self.assertEqual((f.runs, f.cov), (263911, 9811))
        self.assertIsNone(f.execs_per_sec)  # not running: no current rate

    def test_a_zero_rate_in_the_first_second_is_unknown(self) -> None:
        p = PlainProgress()
        feed(p, JOB_LOG)
        self.assertEqual(p.figures(True).runs, 15)
        self.assertIsNone(p.figures(True).execs_per_sec)


class Fork(unittest.TestCase):
    def test_every_job_line_counts_even_glued_ones(self) -> None:
        p = ForkProgress()
        feed(p, FORK_LOG)
        self.assertEqual(p.job_dir,
                         Path("/nonexistent/libFuzzerTemp.FuzzWithFork23730.dir"))
        self.assertEqual(p.merged, {1, 2, 3, 4})
        f = p.figures(True)
        self.assertEqual(f.runs, 1293)
        self.assertEqual(f.ft, 23645)
        # The parent's cov is not edges; no running job: no current rate.
        self.assertIsNone(f.cov)
        self.assertIsNone(f.execs_per_sec)

    def test_running_jobs_add_their_runs_and_rates(self) -> None:
        p = ForkProgress()
        feed(p, FORK_LOG)
        p.job_text(5, JOB_LOG)
        p.job_text(6, JOB_LOG + JOB_LOG_LATER)
        f = p.figures(True)
        self.assertEqual(f.runs, 1293 + 15 + 530)
        self.assertEqual(f.execs_per_sec, 265)  # job 5 has no rate yet
        p.job_text(5, JOB_LOG_LATER.replace("exec/s: 265", "exec/s: 300"))
        self.assertEqual(p.figures(True).execs_per_sec, 565)
        # Job 5 ends: its runs move into the parent's total, nothing twice.
        p.feed("#1900: cov: 15400 ft: 24000 corp: 350 exec/s 290 oom/timeout/crash: "
               "0/0/1 time: 15s job: 5 dft_time: 0")
        f = p.figures(True)
        self.assertEqual((f.runs, f.ft, f.execs_per_sec), (1900 + 530, 24000, 265))
        self.assertEqual(p.job_text(5, JOB_LOG_LATER), False)  # merged: ignored
        # Job 6 is killed at the end: its runs stay, its rate goes.
        p.job_gone(6)
        f = p.figures(True)
        self.assertEqual((f.runs, f.execs_per_sec), (2430, None))
        self.assertIsNone(p.figures(False).execs_per_sec)

    def test_job_logs_are_read_from_the_parents_temp_dir(self) -> None:
        tmp = Path(tempfile.mkdtemp(prefix="fairwire-fork-"))
        self.addCleanup(shutil.rmtree, tmp)
        p = ForkProgress()
        p.feed(f"INFO: -fork=2: 15 seed inputs, starting to fuzz in {tmp}")
        (tmp / "7.log").write_text(JOB_LOG)
        (tmp / "7.seeds").write_text("a,b")
        (tmp / "dft.log").write_text(JOB_LOG_LATER)  # not a job's log
        with open(tmp / "8.log", "w") as f:
            f.write(JOB_LOG + "#40\tNEW    cov: 1")  # a line still being written
        self.assertTrue(p.read_job_logs())
        self.assertEqual(p.figures(True).runs, 30)
        with open(tmp / "7.log", "a") as f:
            f.write(JOB_LOG_LATER)
        p.read_job_logs()
        self.assertEqual((p.figures(True).runs, p.figures(True).execs_per_sec),
                         (545, 265))
        (tmp / "7.log").unlink()
        self.assertTrue(p.read_job_logs())  # gone: runs kept, rate dropped
        self.assertEqual((p.figures(True).runs, p.figures(True).execs_per_sec),
                         (545, None))


class Window(unittest.TestCase):
    def test_rate_over_the_last_seconds(self) -> None:
        samples = [Sample(t, runs, None, 1, None) for t, runs in
                   ((1.0, 100), (5.0, 300), (9.0, 700), (12.0, 900))]
        # From the sample at 5 s (the earliest within 10 s of 14 s): 700 runs in 9 s.
        self.assertAlmostEqual(windowed_rate(samples, 14.0, 1000, 10.0), 700 / 9)
        self.assertIsNone(windowed_rate(samples, 13.0, 1000, 0.5))  # too short
        self.assertIsNone(windowed_rate([], 13.0, 1000, 10.0))


def _fake_libfuzzer(root: Path, body: str) -> Target:
    fuzzer = root / "fake_fuzzer"
    fuzzer.write_text("#!/bin/sh\n" + body)
    fuzzer.chmod(0o755)
    return Target("fake", "libfuzzer", fuzzer=fuzzer, replay=None)


class LiveLines(unittest.TestCase):
    """A session over a fake libFuzzer that prints recorded output."""

    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="fairwire-live-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.seeds = self.tmp / "seeds"
        self.seeds.mkdir()
        for n in range(3):
            (self.seeds / f"s{n}").write_bytes(bytes([n]))

    def session(self, body: str, jobs: int) -> LibFuzzerSession:
        log = self.tmp / "output.txt"
        target = _fake_libfuzzer(self.tmp, body.replace("LOG", str(log)))
        work = self.tmp / "work"
        work.mkdir()
        return LibFuzzerSession(target=target, engine="libfuzzer", work=work,
                                jobs=jobs, seeds=[self.seeds], dict_file=None)

    def run_to_end(self, s: LibFuzzerSession) -> None:
        s.start(1)  # under 2 s: a process that ends is not restarted
        end = time.time() + 10
        while s.running() and time.time() < end:
            s.poll()
            time.sleep(0.05)
        s.poll()

    def test_fork_lines_move_and_unknown_figures_show_a_dash(self) -> None:
        (self.tmp / "output.txt").write_text(FORK_LOG)
        s = self.session('case "$*" in *-fork=2*) ;; *) exit 3 ;; esac\n'
                         'cat "LOG"\n', jobs=2)
        self.assertIn("-", session_line(s, 0, 5).split("runs")[1].split()[0])
        self.run_to_end(s)
        self.assertEqual(s.progress.merged, {1, 2, 3, 4})  # job 3's glued line too
        self.assertEqual(s.last().execs, 1293)
        self.assertEqual(s.last().features, 23645)
        line = session_line(s, 0, 5)
        self.assertIn("runs       1,293", line)
        self.assertIn("cov      -", line)
        self.assertIn("ft  23,645", line)
        self.assertIn("corpus      3", line)  # the three seeds; nothing added

    def test_edges_after_a_fork_run_come_from_a_replay(self) -> None:
        (self.tmp / "output.txt").write_text(FORK_LOG)
        (self.tmp / "replay.txt").write_text(
            "#4\tINITED cov: 3946 ft: 6122 corp: 3/3b exec/s: 0 rss: 42Mb\n"
            "#4\tDONE   cov: 3946 ft: 6122 corp: 3/3b lim: 4 exec/s: 0 rss: 42Mb\n")
        s = self.session(f'case "$*" in *-runs=0*) cat "{self.tmp}/replay.txt"; exit 0 ;; '
                         f'esac\ncat "LOG"\n', jobs=2)
        self.run_to_end(s)
        s.measure_coverage(10)
        self.assertEqual(s.samples[0].coverage, 3946)
        self.assertEqual(s.samples[0].elapsed, 0.0)
        self.assertEqual(s.last().coverage, 3946)
        self.assertEqual(s.last().execs, 1293)
        self.assertIn("cov  3,946", session_line(s, 0, 5))

    def test_plain_lines(self) -> None:
        (self.tmp / "output.txt").write_text(PLAIN_END)
        s = self.session('cat "LOG"\n', jobs=1)
        self.run_to_end(s)
        self.assertEqual((s.last().execs, s.last().coverage, s.last().features),
                         (263911, 9811, 31010))
        self.assertIsNone(s.last().execs_per_sec)  # it stopped
        s.measure_coverage(10)  # plain: nothing to measure
        self.assertEqual(s.last().coverage, 9811)

    def test_a_sample_with_unknown_figures_prints_dashes(self) -> None:
        s = self.session("exit 0\n", jobs=2)
        s.started = time.time()
        s.samples.append(Sample(1.0, None, None, 3, None, None))
        line = session_line(s, 0, 60)
        for name in ("runs", "execs/s", "cov", "ft"):
            self.assertEqual(line.split(name + " ")[1].split()[0], "-", name)


if __name__ == "__main__":
    unittest.main()
