#!/usr/bin/env python3
"""fairwire-decode against `protoc --decode`, input by input.

  compare.py --decode FAIRWIRE_DECODE --protoc PROTOC --source SOURCE_DIR
             [--export-schema-case EXPORT] [--cache DIR] [--jobs N]

Both must accept and print byte-for-byte the same text, or both must reject
(then only the rejection is compared). Any difference fails the test, with a
diff.

Inputs, against the fixed schemas of properties/proto (AllKinds, Nested:
fairwire_test.proto; AllKinds3, Nested3: fairwire_test3.proto) and the extra
schemas of tools/decode/tests/protos (Extra2, Extra3: maps, oneofs, ...):
  tools/decode/tests/inputs/<Type>.<what>.txt   text format, encoded here
                                                with protoc --encode
  tools/decode/tests/inputs/<Type>.<what>.bin   raw bytes (make_inputs.py)
  tools/decode/tests/inputs/<Type>.unsupported.<what>.bin
                                                inputs fairwire-decode
                                                knowingly cannot print as
                                                protoc does: it must exit 3
                                                (several members of one oneof
                                                set)
  corpus/wire_decode_diff/**       the first byte modulo 4 picks AllKinds,
                                   AllKinds3, Nested, Nested3; the rest is
                                   the payload
  corpus/wire_packed_unpacked/**   the first byte even: AllKinds, odd:
                                   AllKinds3; the rest is the payload (as the
                                   input gave it)
  corpus/wire_schema_diff/**       schema and payload exported by EXPORT
                                   (when given)

Speed: fairwire-decode answers every input in one process (--batch), and
protoc runs once per input on --jobs threads. protoc's answers are kept in
--cache, keyed by protoc's identity, the .proto files, the type and the
payload, so a second build (asan after dev) asks protoc nothing new.
"""

import argparse
import concurrent.futures
import difflib
import hashlib
import os
import pathlib
import subprocess
import sys
import tempfile

EXIT_UNSUPPORTED = 3


class Case:
    """One input: a payload, the type to decode it as, and where it came from."""

    def __init__(self, name, source, type_name, proto_dir, proto, full_type,
                 payload):
        self.name = name
        self.source = source
        self.type_name = type_name
        self.proto_dir = proto_dir
        self.proto = proto
        self.full_type = full_type
        self.payload = payload  # path of the payload file
        self.fairwire = None  # (exit status, stdout bytes, stderr bytes)
        self.protoc = None


def schema_of(src, type_name):
    """(proto_dir, proto file, full type name) of a fixed-schema type."""
    if type_name in ("Extra2", "Extra3"):
        return (src / "tools/decode/tests/protos",
                type_name.replace("E", "e", 1) + ".proto",
                "fairwire.decode." + type_name)
    if type_name.endswith("3"):
        return (src / "properties/proto", "fairwire_test3.proto",
                "fairwire.test." + type_name)
    return (src / "properties/proto", "fairwire_test.proto",
            "fairwire.test." + type_name)


def corpus_files(src, target):
    """The target's corpus files (seeds, found and regressions), sorted."""
    root = src / "corpus" / target
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*")
                  if p.is_file() and not p.name.startswith("README")
                  and p.suffix != ".md")


class ProtocCache:
    """protoc --decode answers on disk, one file per question."""

    def __init__(self, protoc, directory):
        self.protoc = protoc
        self.directory = pathlib.Path(directory) if directory else None
        self.dir_hashes = {}
        self.asked = 0
        self.reused = 0
        real = os.path.realpath(protoc)
        stat = os.stat(real)
        version = subprocess.run([protoc, "--version"], capture_output=True,
                                 check=False).stdout
        self.identity = f"{real}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode(
        ) + version
        if self.directory:
            self.directory.mkdir(parents=True, exist_ok=True)

    def _dir_hash(self, proto_dir):
        """A hash of every .proto file under proto_dir (what imports can see)."""
        if proto_dir not in self.dir_hashes:
            digest = hashlib.sha256()
            for path in sorted(pathlib.Path(proto_dir).rglob("*.proto")):
                digest.update(str(path.relative_to(proto_dir)).encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
            self.dir_hashes[proto_dir] = digest.hexdigest()
        return self.dir_hashes[proto_dir]

    def key(self, case, payload):
        digest = hashlib.sha256(self.identity)
        for part in (self._dir_hash(case.proto_dir), case.proto,
                     case.full_type):
            digest.update(part.encode() + b"\0")
        digest.update(payload)
        return digest.hexdigest()

    def decode(self, case):
        """(exit status, stdout, stderr) of protoc --decode on the case."""
        payload = pathlib.Path(case.payload).read_bytes()
        path = None
        if self.directory:
            path = self.directory / (self.key(case, payload) + ".answer")
            if path.is_file():
                self.reused += 1
                return parse_answer(path.read_bytes())
        self.asked += 1
        run = subprocess.run(
            [self.protoc, "--decode=" + case.full_type, case.proto],
            cwd=case.proto_dir, input=payload, capture_output=True,
            check=False)
        answer = (run.returncode, run.stdout, run.stderr)
        if path:
            # Written whole, then renamed: a concurrent run never reads half.
            fd, tmp = tempfile.mkstemp(dir=self.directory)
            with os.fdopen(fd, "wb") as out:
                out.write(b"%d %d\n" % (run.returncode, len(run.stdout)) +
                          run.stdout + run.stderr)
            os.replace(tmp, path)
        return answer


def parse_answer(data):
    header, _, rest = data.partition(b"\n")
    status, out_len = (int(x) for x in header.split())
    return status, rest[:out_len], rest[out_len:]


def run_fairwire_batch(decode, cases, work, jobs):
    """Answers every case with fairwire-decode --batch, in `jobs` processes."""
    chunks = [cases[i::jobs] for i in range(jobs)]

    def run_chunk(index, chunk):
        if not chunk:
            return
        listing = work / f"batch{index}.tsv"
        listing.write_text("".join(
            f"{c.proto_dir}\t{c.proto}\t{c.full_type}\t{c.payload}\n"
            for c in chunk))
        run = subprocess.run([decode, "--batch", str(listing)],
                             capture_output=True, check=False)
        data = run.stdout
        position = 0
        for expected, case in enumerate(chunk, start=1):
            end = data.find(b"\n", position)
            fields = data[position:end].split() if end >= 0 else []
            if (len(fields) != 5 or fields[0] != b"fairwire-decode-batch" or
                    int(fields[1]) != expected):
                raise RuntimeError(
                    f"fairwire-decode --batch gave no answer for "
                    f"{case.name} (exit {run.returncode}): "
                    f"{run.stderr.decode(errors='replace')[-2000:]}")
            status, out_len, err_len = (int(x) for x in fields[2:])
            start = end + 1
            case.fairwire = (status, data[start:start + out_len],
                             data[start + out_len:start + out_len + err_len])
            position = start + out_len + err_len
        if run.returncode != 0:
            raise RuntimeError(
                f"fairwire-decode --batch exited {run.returncode}: "
                f"{run.stderr.decode(errors='replace')[-2000:]}")

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for future in [pool.submit(run_chunk, i, c)
                       for i, c in enumerate(chunks)]:
            future.result()


def export_schema_cases(export, files, src, work):
    """Cases of the wire_schema_diff corpus, each with its exported schema."""
    cases, failures = [], []
    batch = 200
    for first in range(0, len(files), batch):
        pairs, dirs = [], []
        for index in range(first, min(first + batch, len(files))):
            out_dir = work / "sd" / str(index)
            out_dir.mkdir(parents=True)
            pairs += [str(files[index]), str(out_dir)]
            dirs.append(out_dir)
        run = subprocess.run([export] + pairs, capture_output=True,
                             check=False)
        names = run.stdout.decode().split("\n")
        for offset, out_dir in enumerate(dirs):
            file = files[first + offset]
            name = str(file.relative_to(src))
            full_type = names[offset] if offset < len(names) else ""
            if not full_type:
                failures.append(f"FAIL {name}: cannot export its schema")
                continue
            cases.append(Case(name, "corpus/wire_schema_diff", "SchemaCase",
                              out_dir, "fairwire_sd.proto", full_type,
                              out_dir / "payload.bin"))
        if run.returncode != 0:
            failures.append(run.stderr.decode(errors="replace")[-2000:])
    return cases, failures


def gather(args, work):
    """Every case, and the failures met while making them."""
    src = pathlib.Path(args.source)
    inputs = src / "tools/decode/tests/inputs"
    cases, failures = [], []
    encoded = work / "encoded"
    encoded.mkdir()
    for index, txt in enumerate(sorted(inputs.glob("*.txt"))):
        type_name = txt.name.split(".")[0]
        proto_dir, proto, full_type = schema_of(src, type_name)
        run = subprocess.run(
            [args.protoc, "--encode=" + full_type, proto], cwd=proto_dir,
            input=txt.read_bytes(), capture_output=True, check=False)
        if run.returncode != 0:
            failures.append(f"FAIL {txt.name}: protoc --encode refused it:\n"
                            f"{run.stderr.decode(errors='replace')}")
            continue
        payload = encoded / f"{index}.bin"
        payload.write_bytes(run.stdout)
        cases.append(Case(txt.name, "inputs/*.txt", type_name, proto_dir,
                          proto, full_type, payload))
    for binary in sorted(inputs.glob("*.bin")):
        type_name = binary.name.split(".")[0]
        cases.append(Case(binary.name, "inputs/*.bin", type_name,
                          *schema_of(src, type_name), binary))

    payloads = work / "payloads"
    payloads.mkdir()
    roots = {"wire_decode_diff": ["AllKinds", "AllKinds3", "Nested", "Nested3"],
             "wire_packed_unpacked": ["AllKinds", "AllKinds3"]}
    for target, types in roots.items():
        for index, file in enumerate(corpus_files(src, target)):
            data = file.read_bytes()
            type_name = types[(data[0] if data else 0) % len(types)]
            payload = payloads / f"{target}.{index}.bin"
            payload.write_bytes(data[1:])
            cases.append(Case(str(file.relative_to(src)), "corpus/" + target,
                              type_name, *schema_of(src, type_name), payload))

    if args.export_schema_case:
        more, more_failures = export_schema_cases(
            args.export_schema_case, corpus_files(src, "wire_schema_diff"), src,
            work)
        cases += more
        failures += more_failures
    return cases, failures


def verdict(case):
    """'accepted', 'rejected', 'unsupported', or a failure message."""
    f_status, f_out, f_err = case.fairwire
    p_status, p_out, p_err = case.protoc
    label = f"{case.name} ({case.type_name})"
    if ".unsupported." in case.name:
        if f_status == EXIT_UNSUPPORTED:
            return "unsupported"
        return f"FAIL {label}: expected exit 3 (unsupported), got {f_status}"
    if f_status > 1:
        return (f"FAIL {label}: fairwire-decode could not run (exit "
                f"{f_status}):\n{f_err.decode(errors='replace')}")
    if p_status != 0 and f_status != 0:
        return "rejected"
    if p_status != 0:
        return (f"FAIL {label}: protoc rejects "
                f"({p_err[:200].decode(errors='replace')}) but fairwire-decode "
                f"accepts")
    if f_status != 0:
        return (f"FAIL {label}: fairwire-decode rejects "
                f"({f_err.decode(errors='replace').strip()}) but protoc "
                f"accepts")
    if f_out != p_out:
        diff = difflib.unified_diff(
            p_out.decode(errors="replace").splitlines(keepends=True),
            f_out.decode(errors="replace").splitlines(keepends=True),
            "protoc", "fairwire-decode")
        return (f"FAIL {label}: outputs differ (--- protoc, +++ "
                f"fairwire-decode):\n" + "".join(list(diff)[:40]))
    return "accepted"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decode", required=True)
    parser.add_argument("--protoc", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--export-schema-case")
    parser.add_argument("--cache", help="directory for protoc's answers")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        cases, failures = gather(args, work)
        run_fairwire_batch(args.decode, cases, work, args.jobs)
        cache = ProtocCache(args.protoc, args.cache)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for case, answer in zip(cases, pool.map(cache.decode, cases)):
                case.protoc = answer

    counts = {"accepted": 0, "rejected": 0, "unsupported": 0}
    for case in cases:
        outcome = verdict(case)
        if outcome in counts:
            counts[outcome] += 1
        else:
            failures.append(outcome)
    for failure in failures:
        print(failure)

    sources = {}
    for case in cases:
        sources[case.source] = sources.get(case.source, 0) + 1
    expected = ["inputs/*.txt", "inputs/*.bin", "corpus/wire_decode_diff",
                "corpus/wire_packed_unpacked"]
    if args.export_schema_case:
        expected.append("corpus/wire_schema_diff")
    for source in expected:
        print(f"decode: {sources.get(source, 0):5d} inputs from {source}")
        if not sources.get(source):
            failures.append(f"FAIL no inputs from {source}")
            print(failures[-1])
    print(f"decode: protoc asked {cache.asked} times, "
          f"{cache.reused} answers reused from {args.cache or '(no cache)'}")
    print(f"decode: {len(cases)} inputs, {counts['accepted']} printed "
          f"identically, {counts['rejected']} rejected by both, "
          f"{counts['unsupported']} known unsupported, {len(failures)} "
          f"differences")
    return 0 if not failures and cases else 1


if __name__ == "__main__":
    sys.exit(main())
