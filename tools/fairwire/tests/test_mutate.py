"""`fairwire mutate` on a small project with known mutants
(tests/mutate_fixture/): the points clang's parser finds (and those it must
not: constant expressions), the schemata's rewriting, and a whole run whose
killed mutants and survivors are known in advance. Needs cmake, ninja, g++
and python3-clang-14 (ci/install-deps); fails, never skips, without them."""
from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

TOOL_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOL_DIR))

from runner import cli  # noqa: E402
from runner.mutation_points import Edit, Point, find_points  # noqa: E402
from runner.mutation_schemata import rewrite  # noqa: E402
from runner.mutate import failure_summary, repeated_stems  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / "mutate_fixture"

# The survivors of the fixture's test: (line in src/clamp.cc, description).
SURVIVORS = {(8, "remove `++calls`"), (9, "< -> <="), (10, "> -> >=")}


def make_project(where: Path) -> Path:
    """The fixture as a git work tree (the command copies git's files)."""
    root = where / "project"
    shutil.copytree(FIXTURE, root)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    return root


def run_cli(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = cli.main(argv)
    return status, out.getvalue()


class RepeatedLines(unittest.TestCase):
    """A resumed run takes a previous outcome by key; a key tells apart the
    mutants of one line text repeated in a function only by occurrence
    number, which an added or removed line of that text shifts."""

    def point(self, line, text, description="remove"):
        return Point(path="f.cc", line=line, column=1, operator="remove",
                     description=description, start=line, end=line + 1,
                     edits=(), function="f", source_line=text)

    def numbered(self, points):
        seen = {}
        for p in points:
            stem = (p.source_line, p.description)
            p.occurrence = seen.get(stem, 0)
            seen[stem] = p.occurrence + 1
        return points

    def test_a_line_repeated_now_or_before_is_not_taken_from_the_past(self):
        # Before: `stop = true;` once (occurrence 0, killed). Now a second
        # `stop = true;` is added above it: the old key names the new line.
        now = self.numbered([self.point(1, "stop = true;"),
                             self.point(5, "stop = true;"),
                             self.point(9, "x = 1;")])
        previous = {now[0].key: {"status": "killed"},
                    now[2].key: {"status": "killed"}}
        stems = repeated_stems(now, previous)
        self.assertIn(now[0].key.rsplit(" | ", 1)[0], stems)
        self.assertNotIn(now[2].key.rsplit(" | ", 1)[0], stems)
        # Before: twice (occurrences 0 and 1); now one was removed, and the
        # one left has the key of occurrence 0, maybe the removed line's.
        one = self.numbered([self.point(5, "stop = true;")])
        previous = {one[0].key: {"status": "killed"},
                    one[0].key[:-1] + "1": {"status": "equivalent"}}
        self.assertIn(one[0].key.rsplit(" | ", 1)[0],
                      repeated_stems(one, previous))
        # A line that was and is alone is taken.
        self.assertEqual(repeated_stems(one, {one[0].key: {}}), set())


class Schemata(unittest.TestCase):
    def point(self, id_, start, end, operator, edits):
        return Point(path="f.cc", line=1, column=1, operator=operator,
                     description="d", start=start, end=end,
                     edits=tuple(edits), function="f", source_line="",
                     id=id_)

    def test_nested_mutants_keep_their_own_switches(self):
        text = b"return a < b + 1;"
        # `a < b + 1`: < -> <= on [7, 16); the literal 1 -> 2 on [15, 16).
        ror = self.point(0, 7, 16, "ror", [Edit(9, 10, "<=")])
        lit = self.point(1, 15, 16, "constant", [Edit(15, 16, "2")])
        out = rewrite(text, [ror, lit], "/h.h").text.decode()
        self.assertEqual(
            out, '#include "/h.h"\nreturn (FAIRWIRE_MUTANT(0) ? '
            'a <= b + (FAIRWIRE_MUTANT(1) ? 2 : 1) : '
            'a < b + (FAIRWIRE_MUTANT(1) ? 2 : 1));')

    def test_negation_and_removal(self):
        text = b"if (ready) f(x);"
        neg = self.point(0, 4, 9, "negate", [Edit(4, 4, "!("), Edit(9, 9, ")")])
        rem = self.point(1, 11, 15, "remove", [])
        out = rewrite(text, [neg, rem], "/h.h").text.decode()
        self.assertEqual(out, '#include "/h.h"\nif ((FAIRWIRE_MUTANT(0) ? '
                         '!(ready) : !!(ready))) if (!FAIRWIRE_MUTANT(1)) f(x);')

    def test_a_key_is_one_line(self):
        # A swapped argument written over two lines: the key (one line of
        # the settled and equivalents files) has the break as one space.
        p = Point(path="f.cc", line=1, column=1, operator="swap",
                  description='swap arguments 2 and 3 ("a "\n    "b", v)',
                  start=0, end=1, edits=(), function="f",
                  source_line="g(x,", id=0)
        self.assertEqual(p.key, 'f.cc | f | g(x, | swap arguments 2 and 3 '
                         '("a " "b", v) | 0')

    def test_lines_name_their_mutants(self):
        text = b"int f() {\n  return a < b;\n}\n"
        ror = self.point(4, 19, 24, "ror", [Edit(21, 22, "<=")])
        rewritten = rewrite(text, [ror], "/h.h")
        self.assertEqual(rewritten.line_points, {3: {4}})


class TemplateArguments(unittest.TestCase):
    """A template argument written in an expression is a constant
    expression: a mutant there does not compile, so it holds no point. The
    expression around it keeps its points."""

    SOURCE = """#include <cstddef>
#include <utility>
template <std::size_t L> int Take(int x) { return x + static_cast<int>(L); }
struct S {
  template <std::size_t L> int Take(int x) const { return x - static_cast<int>(L); }
};
template <std::size_t... Index>
int Of(std::size_t length, std::index_sequence<Index...>) {
  int taken = 0;
  static_cast<void>(((length == Index + 1 && (taken = Take<Index + 1>(3), true)) || ...));
  return taken;
}
template <typename T> int M(const T& s, int v) {
  return s.template Take<2 + 1>(v) + Take<(3 > 1) + 1>(v);
}
int g(int v) {
  return Of(2, std::make_index_sequence<3 + 1>()) + Take<4 + 1>(v) + M(S{}, v + 7);
}
"""

    def test_no_point_in_a_template_argument(self):
        with tempfile.TemporaryDirectory() as tmp:
            where = Path(tmp)
            src = where / "a.cc"
            src.write_text(self.SOURCE)
            (where / "compile_commands.json").write_text(json.dumps([{
                "directory": str(where), "file": "a.cc",
                "command": "g++ -std=c++20 -c a.cc -o a.o"}]))
            points = find_points(where, where / "compile_commands.json",
                                 [src])
        text = self.SOURCE.encode()
        arguments = [(m, text.index(b">", m)) for m in (
            text.index(b"Take<Index"), text.index(b"Take<2"),
            text.index(b"Take<(3"), text.index(b"sequence<3"),
            text.index(b"Take<4"))]
        for p in points:
            for a, b in arguments:
                self.assertFalse(a < p.start < b + 2,
                                 f"{p.description} at {p.line}:{p.column}")
        described = {(p.line, p.description) for p in points}
        # The fold's comparison and the sum's literal keep their points.
        self.assertIn((10, "== -> !="), described)
        self.assertIn((17, "7 -> 8"), described)


class BuildFailures(unittest.TestCase):
    def test_summary_names_the_failed_step_and_its_error_not_the_tail(self):
        # A failed step's error, then another step's long warning backtrace
        # that fills the tail of the output on its own.
        output = "\n".join(
            ["[1/3] Building CXX object a.o",
             "FAILED: a.o ",
             "/usr/bin/g++ -c a.cc",
             "b.h:224:27: error: 'P != 0' is not a constant expression",
             "  224 |     if constexpr (P != nullptr) {",
             "[2/3] Building CXX object c.o"] +
            ["  required from 'T<%d>'" % i for i in range(2000)] +
            ["c.h:102:63: warning: conversion changes the value",
             "ninja: build stopped: subcommand failed."])
        summary = failure_summary(output)
        self.assertIn("FAILED: a.o", summary)
        self.assertIn("b.h:224:27: error: 'P != 0'", summary)
        self.assertNotIn("required from", summary)

    def test_a_killed_compiler_is_named(self):
        output = ("FAILED: a.o \ng++: fatal error: Killed signal terminated "
                  "program cc1plus\ncompilation terminated.\n")
        self.assertIn("Killed signal", failure_summary(output))

    def test_output_without_errors_keeps_its_tail(self):
        self.assertEqual(failure_summary("x" * 10 + "y" * 5, limit=5), "yyyyy")


class CSources(unittest.TestCase):
    """A C file: points found by libclang as C, its schemata compiled by a C
    compiler, each mutant switched on at run time."""

    def test_c_schemata_compile_and_switch(self):
        from runner.mutation_points import find_points
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            src = root / "sign.c"
            src.write_text("int sign(int x) {\n"
                           "  if (x < 0) return -1;\n"
                           "  return x > 0;\n"
                           "}\n")
            (root / "compile_commands.json").write_text(json.dumps([{
                "directory": str(root), "file": str(src),
                "command": f"cc -std=c11 -c {src} -o sign.o"}]))
            points = find_points(root, root / "compile_commands.json", [src])
            self.assertEqual({p.description for p in points},
                             {"negate if condition", "< -> <=", "0 -> 1",
                              "1 -> 2", "> -> >="})
            header = TOOL_DIR / "runner" / "fairwire_mutant.h"
            src.write_bytes(rewrite(src.read_bytes(), points,
                                    str(header)).text)
            main = root / "main.c"
            main.write_text('#include <stdio.h>\nint sign(int);\n'
                            'int main(void) { printf("%d %d %d", sign(-2), '
                            'sign(0), sign(3)); return 0; }\n')
            subprocess.run(["cc", "-std=c11", "-Wall", "-o", str(root / "t"),
                            str(src), str(main)], check=True)
            def run(env):
                return subprocess.run([str(root / "t")], env=env, check=True,
                                      capture_output=True, text=True).stdout
            self.assertEqual(run({}), "-1 0 1")
            ror = next(p for p in points if p.description == "< -> <=")
            self.assertEqual(run({"FAIRWIRE_MUTANT": str(ror.id)}), "-1 -1 1")
            gt = next(p for p in points if p.description == "> -> >=")
            self.assertEqual(run({"FAIRWIRE_MUTANT": str(gt.id)}), "-1 1 1")


class WholeRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        where = Path(cls.tmp.name)
        cls.root = make_project(where)
        cls.out = where / "run"
        cls.status, cls.log = run_cli([
            "mutate", "--root", str(cls.root), "--out", str(cls.out),
            "--labels", "unit", "--jobs", "2", "--fail-on-survivor", "src"])
        cls.report = json.loads((cls.out / "report.json").read_text())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def outcomes(self):
        return self.report["outcomes"]

    def test_constant_expressions_hold_no_points(self):
        header = [o for o in self.outcomes() if o["path"] == "src/clamp.h"]
        # Only Sum's loop (a template, seen as written): none in kLimit or
        # Twice, none in the template argument.
        self.assertTrue(header)
        self.assertTrue(all(o["function"] == "Sum" for o in header), header)

    def test_every_operator_is_found(self):
        operators = {o["operator"] for o in self.outcomes()}
        self.assertEqual(operators, {"ror", "lcr", "negate", "constant",
                                     "remove"})

    def test_exactly_the_known_survivors(self):
        survivors = {(o["line"], o["description"]) for o in self.outcomes()
                     if o["status"] == "survived" and o["path"] == "src/clamp.cc"}
        self.assertEqual(survivors, SURVIVORS, self.log)
        others = [o for o in self.outcomes() if o["status"] not in (
            "killed", "timeout", "survived")]
        self.assertEqual(others, [])
        self.assertEqual(self.status, 1, "a survivor must fail the run")

    def test_killed_mutants_name_the_failing_test(self):
        killed = [o for o in self.outcomes() if o["status"] == "killed"]
        self.assertGreater(len(killed), 15)
        self.assertTrue(all(o["test"] == "clamp" for o in killed))

    def test_report_shows_each_survivor_with_its_diff(self):
        text = (self.out / "report.md").read_text()
        self.assertIn("- if (value < low) return low;", text)
        self.assertIn("+ if (value <= low) return low;", text)

    def test_equivalents_pass_the_run(self):
        keys = [o["key"] for o in self.outcomes() if o["status"] == "survived"]
        listed = self.out.parent / "equivalent.txt"
        listed.write_text("".join(f"{k}\tno input tells it apart\n"
                                  for k in keys))
        status, log = run_cli([
            "mutate", "--root", str(self.root), "--out",
            str(self.out.parent / "again"), "--labels", "unit", "--jobs", "2",
            "--fail-on-survivor", "--equivalent", str(listed), "src"])
        self.assertEqual(status, 0, log)
        self.assertIn("score 100.0%", log)

    def test_resume_takes_the_kills_and_reruns_the_rest(self):
        again = self.out.parent / "resumed"
        again.mkdir()
        # A stopped run: its partial report holds half the kills only.
        kept = dict(self.report)
        killed = [o for o in self.outcomes() if o["status"] == "killed"]
        kept["outcomes"] = killed[: len(killed) // 2]
        (again / "report.json").write_text(json.dumps(kept))
        status, log = run_cli([
            "mutate", "--root", str(self.root), "--out", str(again),
            "--labels", "unit", "--jobs", "2", "--resume", "src"])
        self.assertEqual(status, 0, log)
        report = json.loads((again / "report.json").read_text())
        reused = {o["key"] for o in report["outcomes"] if o["reused"]}
        self.assertEqual(reused, {o["key"] for o in kept["outcomes"]})
        self.assertEqual(
            {(o["key"], o["status"]) for o in report["outcomes"]},
            {(o["key"], o["status"]) for o in self.outcomes()},
            "a resumed run must end where a whole one does")
        self.assertIn(f"Resumed: {len(reused)} mutants settled",
                      (again / "report.md").read_text())

    def test_a_settled_list_resumes_another_folder(self):
        settled = self.out.parent / "settled.tsv"
        again = self.out.parent / "from-settled"
        status, log = run_cli([
            "mutate", "--root", str(self.root), "--out", str(again),
            "--labels", "unit", "--jobs", "2", "--resume-from",
            str(self.out / "report.json"), "--export-settled", str(settled),
            "src"])
        self.assertEqual(status, 0, log)
        lines = [l for l in settled.read_text().splitlines()
                 if not l.startswith("#")]
        killed = {o["key"] for o in self.outcomes()
                  if o["status"] in ("killed", "timeout")}
        self.assertEqual({l.split("\t", 2)[2] for l in lines}, killed)
        # And that list, in turn, resumes a third folder: nothing killed
        # runs again.
        third = self.out.parent / "from-tsv"
        status, log = run_cli([
            "mutate", "--root", str(self.root), "--out", str(third),
            "--labels", "unit", "--jobs", "2", "--resume-from",
            str(settled), "src"])
        self.assertEqual(status, 0, log)
        report = json.loads((third / "report.json").read_text())
        self.assertEqual({o["key"] for o in report["outcomes"] if o["reused"]},
                         killed)

    def test_resume_keeps_equivalents_only_while_listed(self):
        survivors = [o for o in self.outcomes() if o["status"] == "survived"]
        listed = self.out.parent / "equivalent-resume.txt"
        listed.write_text(f"{survivors[0]['key']}\tno input tells it apart\n")
        again = self.out.parent / "resumed-equivalents"
        again.mkdir()
        kept = dict(self.report)
        kept["outcomes"] = [dict(o, status="equivalent") for o in survivors]
        (again / "report.json").write_text(json.dumps(kept))
        status, log = run_cli([
            "mutate", "--root", str(self.root), "--out", str(again),
            "--labels", "unit", "--jobs", "2", "--resume", "--equivalent",
            str(listed), "src"])
        self.assertEqual(status, 0, log)
        report = json.loads((again / "report.json").read_text())
        by_key = {o["key"]: o for o in report["outcomes"]}
        first = by_key[survivors[0]["key"]]
        self.assertEqual((first["status"], first["reused"]),
                         ("equivalent", True))
        for o in survivors[1:]:
            # No longer listed: it runs again, and survives again.
            self.assertEqual((by_key[o["key"]]["status"],
                              by_key[o["key"]]["reused"]), ("survived", False))

    def test_tests_from_an_unbuilt_build_is_refused(self):
        unbuilt = self.out.parent / "unbuilt"
        subprocess.run(["cmake", "-S", str(self.root), "-B", str(unbuilt),
                        "-G", "Ninja"], check=True, capture_output=True)
        status, log = run_cli([
            "mutate", "--root", str(self.root), "--out",
            str(self.out.parent / "refused"), "--labels", "unit",
            "--tests-from", str(unbuilt), "src"])
        self.assertNotEqual(status, 0)
        self.assertIn("no built test executable", log)


class HungTests(unittest.TestCase):
    """A mutant that hangs a test whose TIMEOUT property outlasts ctest's
    --timeout: the run's own budget ends it, and nothing it started is left
    running."""

    def test_a_hang_is_a_timeout_and_leaves_no_process(self):
        from runner.mutate import run_ctest
        with tempfile.TemporaryDirectory() as tmp:
            src, build = Path(tmp) / "src", Path(tmp) / "build"
            src.mkdir()
            (src / "CMakeLists.txt").write_text(
                "cmake_minimum_required(VERSION 3.20)\n"
                "project(hang NONE)\nenable_testing()\n"
                "add_test(NAME hang COMMAND sh -c \"sleep 317 & sleep 318\")\n"
                "set_tests_properties(hang PROPERTIES TIMEOUT 600)\n")
            subprocess.run(["cmake", "-S", str(src), "-B", str(build)],
                           check=True, capture_output=True)
            start = time.monotonic()
            status, test, _ = run_ctest(build, [("hang", 1)], {}, timeout=1,
                                        stop_on_failure=True, budget=3)
            self.assertEqual((status, test), ("timeout", "hang"))
            self.assertLess(time.monotonic() - start, 30)
            left = subprocess.run(["pgrep", "-f", "sleep 31[78]"],
                                  capture_output=True, text=True).stdout
            self.assertEqual(left, "", "processes of the hung test remain")


class Sanitize(unittest.TestCase):
    """--sanitize: survivors of the plain build run again under ASan and
    UBSan, where a mutant that only breaks memory safety dies."""

    def test_memory_mutants_die_only_under_sanitizers(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = make_project(Path(tmp))
            out = Path(tmp) / "run"
            status, log = run_cli([
                "mutate", "--root", str(root), "--out", str(out),
                "--labels", "unit", "--jobs", "2", "--sanitize",
                "src/first_of.cc"])
            self.assertEqual(status, 0, log)
            report = json.loads((out / "report.json").read_text())
            by = {(o["line"], o["description"]): o
                  for o in report["outcomes"]}
            # The loop bound, flipped or one more: one past both buffers.
            for key in ((12, "< -> <="), (12, "4 -> 5")):
                self.assertEqual(by[key]["status"], "killed", log)
                self.assertEqual(by[key]["test"], "clamp (under ASan+UBSan)")
            # The buffer one bigger: equivalent, under sanitizers too.
            self.assertEqual(by[(11, "4 -> 5")]["status"], "survived")
            plain = [o for o in report["outcomes"]
                     if o["status"] == "killed" and o["line"] != 12]
            self.assertTrue(plain)
            self.assertTrue(all(o["test"] == "clamp" for o in plain))
            self.assertEqual(report["meta"]["sanitizer_kills"], 2)
            self.assertIn("Killed only under ASan+UBSan", (
                out / "report.md").read_text())


if __name__ == "__main__":
    unittest.main()
