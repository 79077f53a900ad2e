#!/usr/bin/env python3
"""ctest runner.finds_shrinks_and_saves_broken_varint: a short campaign with
tools/fairwire/fairwire against runner_selftest (a deliberately broken copy of
varint decoding, its manifest from --targets-dir), in a temporary campaign
folder and corpus root. Asserts that the
runner found the bug, saved the failing input at once, minimised and shrank
it to the one-value scenario, and wrote a regression that fails against the
broken copy and passes against the fixed one. Then a second campaign is
stopped with SIGTERM and must still write its report."""
from __future__ import annotations

import argparse
import json
import shutil
import signal
import subprocess
import sys
import time
import unittest
from pathlib import Path

ARGS: argparse.Namespace


def fairwire(*extra: str, corpus: Path, out: Path) -> list[str]:
    """The runner's command line for the self-test builds."""
    return [sys.executable, str(ARGS.repo / "tools" / "fairwire" / "fairwire"),
            "fuzz", "run", "--engine", ARGS.engine,
            "--targets-dir", str(ARGS.targets_dir), "--corpus-root", str(corpus),
            "--out", str(out), "--plain", "--status-interval", "2", *extra]


def only_campaign(out: Path) -> Path:
    """The one campaign folder under `out`."""
    folders = [p for p in out.iterdir() if p.is_dir()]
    assert len(folders) == 1, folders
    return folders[0]


class BrokenVarintCampaign(unittest.TestCase):
    """The runner on a real (planted) bug."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.work = ARGS.work / "finds"
        shutil.rmtree(cls.work, ignore_errors=True)
        cls.corpus = cls.work / "corpus"
        seeds = cls.corpus / "runner_selftest"
        seeds.mkdir(parents=True)
        # Seeds: small values, which round-trip even through the broken copy.
        (seeds / "small-values").write_bytes(bytes([1] + [0] * 7 + [0xFE] + [0xFF] * 7))
        cls.started = time.time()
        cls.result = subprocess.run(
            fairwire("runner_selftest", "--time", str(ARGS.seconds), "--jobs", "1",
                     corpus=cls.corpus, out=cls.work / "campaigns"),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=150)
        cls.output = cls.result.stdout.decode(errors="replace")
        print(cls.output)
        cls.campaign = only_campaign(cls.work / "campaigns")
        cls.summary = json.loads((cls.campaign / "summary.json").read_text())

    def test_exit_status_says_something_new_failed(self) -> None:
        self.assertEqual(self.result.returncode, 1)

    def test_failing_inputs_copied_into_campaign_folder(self) -> None:
        found = list((self.campaign / "runner_selftest" / "findings").iterdir())
        self.assertGreater(len(found), 0)
        self.assertIn("failing input saved", self.output)

    def test_duplicates_grouped_into_one_finding(self) -> None:
        self.assertEqual(len(self.summary["findings"]), 1)
        finding = self.summary["findings"][0]
        self.assertEqual(finding["kind"], "varint-roundtrip")
        self.assertTrue(finding["new"])

    def test_shrunk_to_the_single_smallest_failing_value(self) -> None:
        finding = self.summary["findings"][0]
        self.assertTrue(finding["shrunk"])
        # 2^62 is the smallest magnitude whose zigzag form needs 10 bytes.
        self.assertEqual(finding["description"],
                         "values: 1\n  [0] 4611686018427387904 "
                         "(sint64 varint, 10 bytes)\n")
        self.assertEqual(finding["final_size"], 8)

    def test_regression_fails_on_broken_copy_and_passes_on_fixed(self) -> None:
        folder = self.corpus / "runner_selftest" / "regressions"
        regs = [p for p in folder.iterdir() if p.name != "README"]
        self.assertEqual(len(regs), 1)
        readme = (folder / "README").read_text()
        self.assertIn(f"{regs[0].name}: varint-roundtrip: 4611686018427387904", readme)
        self.assertTrue(regs[0].name.startswith("varint-roundtrip-"))
        broken = subprocess.run([str(ARGS.broken_replay), str(regs[0])],
                                stdout=subprocess.DEVNULL)
        fixed = subprocess.run([str(ARGS.fixed_replay), str(regs[0])],
                               stdout=subprocess.DEVNULL)
        self.assertEqual(broken.returncode, 1)
        self.assertEqual(fixed.returncode, 0)

    def test_reproduce_command_printed_and_reports_written(self) -> None:
        self.assertIn("reproduce:", self.output)
        self.assertIn("runner_selftest_replay", self.output)
        html = (self.campaign / "report.html").read_text()
        self.assertIn("<svg", html)
        self.assertIn("varint-roundtrip", (self.campaign / "report.md").read_text())

    def test_campaign_stays_short(self) -> None:
        self.assertLess(time.time() - self.started, 120)


class InterruptedCampaign(unittest.TestCase):
    """SIGTERM stops the fuzzers and still writes the report."""

    def test_sigterm_stops_fuzzers_and_writes_report(self) -> None:
        work = ARGS.work / "sigterm"
        shutil.rmtree(work, ignore_errors=True)
        seeds = work / "corpus" / "runner_selftest_fixed"
        seeds.mkdir(parents=True)
        (seeds / "one-value").write_bytes(bytes([2] + [0] * 7))
        proc = subprocess.Popen(
            fairwire("runner_selftest_fixed", "--time", "120", "--jobs", "1",
                     corpus=work / "corpus", out=work / "campaigns"),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        time.sleep(6)
        stopped = time.time()
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=60)
        print(output.decode(errors="replace"))
        self.assertLess(time.time() - stopped, 30)
        self.assertEqual(proc.returncode, 130)
        campaign = only_campaign(work / "campaigns")
        summary = json.loads((campaign / "summary.json").read_text())
        self.assertTrue(summary["interrupted"])
        self.assertGreater(summary["sessions"][0]["execs"], 0)
        self.assertTrue((campaign / "report.html").is_file())
        self.assertGreater(summary["sessions"][0]["corpus"], 1)


def main() -> None:
    """Parses the paths ctest passes, then runs the tests."""
    global ARGS
    p = argparse.ArgumentParser()
    for name in ("repo", "targets-dir", "broken-replay", "fixed-replay", "work"):
        p.add_argument(f"--{name}", type=Path, required=True)
    p.add_argument("--engine", default="libfuzzer", choices=["libfuzzer", "afl"])
    p.add_argument("--seconds", type=int, default=10,
                   help="the campaign against the broken copy")
    ARGS, rest = p.parse_known_args()
    ARGS.work.mkdir(parents=True, exist_ok=True)
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
