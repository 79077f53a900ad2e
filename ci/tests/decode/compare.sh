#!/usr/bin/env bash
# Runs fairwire-decode and `protoc --decode` over the same inputs and fails on
# any difference, printing a diff. Both must accept and print byte-for-byte
# the same text, or both must reject (then only the rejection is compared).
#
#   compare.sh FAIRWIRE_DECODE PROTOC SOURCE_DIR
#
# Inputs, all against the fixed schemas of properties/proto:
#   ci/tests/decode/inputs/<Type>.<what>.txt  text format, encoded here with
#                                             protoc --encode=fairwire.test.<Type>
#   ci/tests/decode/inputs/<Type>.<what>.bin  raw bytes (make_inputs.py)
#   corpus/wire_decode_diff/**                the first byte modulo 4 picks
#                                             AllKinds, AllKinds3, Nested,
#                                             Nested3; the rest is the payload
set -u
decode=$1
protoc=$2
src=$3
proto_dir=$src/properties/proto
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

total=0
accepted=0
rejected=0
failures=0

proto_of() {
  case $1 in
    *3) echo fairwire_test3.proto ;;
    *) echo fairwire_test.proto ;;
  esac
}

# compare NAME TYPE FILE: decode FILE as fairwire.test.TYPE with both tools.
compare() {
  local name=$1 type=$2 file=$3 proto
  proto=$(proto_of "$type")
  total=$((total + 1))
  (cd "$proto_dir" && "$protoc" --decode="fairwire.test.$type" "$proto" \
      < "$file" > "$work/protoc.out" 2> "$work/protoc.err")
  local protoc_rc=$?
  "$decode" --proto "$proto_dir/$proto" -I "$proto_dir" \
      --type "fairwire.test.$type" < "$file" \
      > "$work/fairwire.out" 2> "$work/fairwire.err"
  local fairwire_rc=$?
  if [ $fairwire_rc -gt 1 ]; then
    echo "FAIL $name ($type): fairwire-decode could not run (exit $fairwire_rc):"
    cat "$work/fairwire.err"
    failures=$((failures + 1))
    return
  fi
  if [ $protoc_rc -ne 0 ] && [ $fairwire_rc -ne 0 ]; then
    rejected=$((rejected + 1))
    return
  fi
  if [ $protoc_rc -ne 0 ]; then
    echo "FAIL $name ($type): protoc rejects ($(head -c 200 "$work/protoc.err")) but fairwire-decode accepts"
    failures=$((failures + 1))
    return
  fi
  if [ $fairwire_rc -ne 0 ]; then
    echo "FAIL $name ($type): fairwire-decode rejects ($(cat "$work/fairwire.err")) but protoc accepts"
    failures=$((failures + 1))
    return
  fi
  if ! cmp -s "$work/protoc.out" "$work/fairwire.out"; then
    echo "FAIL $name ($type): outputs differ (--- protoc, +++ fairwire-decode):"
    diff -u --label protoc --label fairwire-decode \
        "$work/protoc.out" "$work/fairwire.out" | head -40
    failures=$((failures + 1))
    return
  fi
  accepted=$((accepted + 1))
}

shopt -s nullglob
for txt in "$src"/ci/tests/decode/inputs/*.txt; do
  base=$(basename "$txt")
  type=${base%%.*}
  if ! (cd "$proto_dir" && "$protoc" --encode="fairwire.test.$type" \
          "$(proto_of "$type")" < "$txt" > "$work/encoded.bin" \
          2> "$work/encode.err"); then
    echo "FAIL $base: protoc --encode refused it:"
    cat "$work/encode.err"
    failures=$((failures + 1))
    continue
  fi
  compare "$base" "$type" "$work/encoded.bin"
done
for bin in "$src"/ci/tests/decode/inputs/*.bin; do
  base=$(basename "$bin")
  compare "$base" "${base%%.*}" "$bin"
done

types=(AllKinds AllKinds3 Nested Nested3)
if [ -d "$src/corpus/wire_decode_diff" ]; then
  while IFS= read -r -d '' file; do
    case $(basename "$file") in README* | *.md | *.txt) continue ;; esac
    if [ ! -s "$file" ]; then
      first=0
    else
      first=$(od -An -tu1 -N1 "$file" | tr -d ' ')
    fi
    tail -c +2 "$file" > "$work/payload.bin"
    compare "${file#"$src"/}" "${types[$((first % 4))]}" "$work/payload.bin"
  done < <(find "$src/corpus/wire_decode_diff" -type f -print0 | sort -z)
fi

echo "decode: $total inputs, $accepted printed identically, $rejected rejected by both, $failures differences"
[ $failures -eq 0 ] && [ $total -gt 0 ]
