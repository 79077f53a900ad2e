#!/usr/bin/env python3
"""Checks which functions of a fuzz target carry sanitizer checks.

Those that must: the code under test and what it calls back into. Those
built without them on purpose: the harness (fairwire_fuzz_unsanitized in
cmake/FairwireOptions.cmake). A function carries them when its machine code
calls the ASan or UBSan runtime (__asan_*, __ubsan_handle_*).

    sanitized_functions.py BINARY [+GLOB | -GLOB]...

+GLOB: every function whose demangled name matches GLOB (fnmatch, e.g.
"fairwire::poll::Select<*>::Poll(*)") carries sanitizer checks; -GLOB: none
does. Each GLOB must match at least one function, so that a renamed
function fails the check instead of passing it.
"""
import fnmatch
import re
import subprocess
import sys

_FUNCTION = re.compile(r"^[0-9a-f]+ <(.*)>:$")
_RUNTIME_CALL = re.compile(r"\bcall.*<(__asan_|__ubsan_handle_)")


def sanitized_by_function(binary):
    """{demangled name: whether it calls the sanitizer runtime}."""
    listing = subprocess.run(
        ["objdump", "-d", "-C", "--no-show-raw-insn", binary],
        check=True, capture_output=True, text=True).stdout
    out = {}
    name = None
    for line in listing.splitlines():
        m = _FUNCTION.match(line)
        if m:
            name = m.group(1)
            out.setdefault(name, False)
        elif name is not None and _RUNTIME_CALL.search(line):
            out[name] = True
    return out


def main(argv):
    if len(argv) < 2 or any(s[:1] not in "+-" or len(s) < 2 for s in argv[2:]):
        print(__doc__, file=sys.stderr)
        return 2
    functions = sanitized_by_function(argv[1])
    failed = False
    for spec in argv[2:]:
        want, glob = spec[0] == "+", spec[1:]
        names = [n for n in functions if fnmatch.fnmatchcase(n, glob)]
        wrong = [n for n in names if functions[n] != want]
        if not names:
            print(f"FAIL {spec}: no such function in {argv[1]}")
        elif wrong:
            state = "without" if want else "with"
            print(f"FAIL {spec}: {len(wrong)} of {len(names)} functions "
                  f"{state} sanitizer checks, e.g. {wrong[0]}")
        else:
            print(f"ok   {spec} ({len(names)} functions)")
        failed = failed or not names or bool(wrong)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
