"""Unit tests of the runner's parsers, crash signatures and report (ctest
runner.unit): no build, no fuzzing."""
from __future__ import annotations

import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from runner.engines import parse_afl_plot_data, parse_libfuzzer_line  # noqa: E402
from runner.report import coverage_svg, text_table, write_reports  # noqa: E402
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

    def test_reports_written(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            write_reports(Path(tmp), self.SUMMARY)
            html = (Path(tmp) / "report.html").read_text()
            self.assertIn("<svg", html)
            self.assertIn("2,058", html)
            self.assertIn("| t | libfuzzer |", (Path(tmp) / "report.md").read_text())


if __name__ == "__main__":
    unittest.main()
