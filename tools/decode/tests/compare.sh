#!/usr/bin/env bash
# Runs fairwire-decode and `protoc --decode` over the same inputs and fails on
# any difference, printing a diff. Both must accept and print byte-for-byte
# the same text, or both must reject (then only the rejection is compared).
#
#   compare.sh FAIRWIRE_DECODE PROTOC SOURCE_DIR [EXPORT_SCHEMA_CASE]
#
# Inputs, against the fixed schemas of properties/proto (AllKinds, Nested:
# fairwire_test.proto; AllKinds3, Nested3: fairwire_test3.proto) and the
# extra schemas of tools/decode/tests/protos (Extra2, Extra3: maps, oneofs, ...):
#   tools/decode/tests/inputs/<Type>.<what>.txt  text format, encoded here with
#                                             protoc --encode
#   tools/decode/tests/inputs/<Type>.<what>.bin  raw bytes (make_inputs.py)
#   tools/decode/tests/inputs/<Type>.unsupported.<what>.bin
#                                             inputs fairwire-decode knowingly
#                                             cannot print as protoc does: it
#                                             must exit 3 (several members of
#                                             one oneof set)
#   corpus/wire_decode_diff/**                the first byte modulo 4 picks
#                                             AllKinds, AllKinds3, Nested,
#                                             Nested3; the rest is the payload
#   corpus/wire_packed_unpacked/**            the first byte even: AllKinds,
#                                             odd: AllKinds3; the rest is the
#                                             payload (as the input gave it)
#   corpus/wire_schema_diff/**                schema and payload exported by
#                                             EXPORT_SCHEMA_CASE (when given)
set -u
decode=$1
protoc=$2
src=$3
export_schema_case=${4:-}
proto_dir=$src/properties/proto
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

total=0
accepted=0
rejected=0
failures=0
unsupported=0

# schema_of TYPE: sets proto_dir, proto and full_type for a type name.
schema_of() {
  case $1 in
    SchemaCase)
      proto_dir=$work/sd
      proto=fairwire_sd.proto
      full_type=$schema_case_type ;;
    Extra2 | Extra3)
      proto_dir=$src/tools/decode/tests/protos
      proto=$(echo "$1" | tr E e).proto
      full_type=fairwire.decode.$1 ;;
    *3)
      proto_dir=$src/properties/proto
      proto=fairwire_test3.proto
      full_type=fairwire.test.$1 ;;
    *)
      proto_dir=$src/properties/proto
      proto=fairwire_test.proto
      full_type=fairwire.test.$1 ;;
  esac
}

# compare NAME TYPE FILE: decode FILE as TYPE with both tools.
compare() {
  local name=$1 type=$2 file=$3
  schema_of "$type"
  total=$((total + 1))
  (cd "$proto_dir" && "$protoc" --decode="$full_type" "$proto" \
      < "$file" > "$work/protoc.out" 2> "$work/protoc.err")
  local protoc_rc=$?
  "$decode" --proto "$proto_dir/$proto" -I "$proto_dir" \
      --type "$full_type" < "$file" \
      > "$work/fairwire.out" 2> "$work/fairwire.err"
  local fairwire_rc=$?
  case $name in
    *.unsupported.*)
      if [ $fairwire_rc -eq 3 ]; then
        unsupported=$((unsupported + 1))
      else
        echo "FAIL $name ($type): expected exit 3 (unsupported), got $fairwire_rc"
        failures=$((failures + 1))
      fi
      return ;;
  esac
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
for txt in "$src"/tools/decode/tests/inputs/*.txt; do
  base=$(basename "$txt")
  type=${base%%.*}
  schema_of "$type"
  if ! (cd "$proto_dir" && "$protoc" --encode="$full_type" \
          "$proto" < "$txt" > "$work/encoded.bin" \
          2> "$work/encode.err"); then
    echo "FAIL $base: protoc --encode refused it:"
    cat "$work/encode.err"
    failures=$((failures + 1))
    continue
  fi
  compare "$base" "$type" "$work/encoded.bin"
done
for bin in "$src"/tools/decode/tests/inputs/*.bin; do
  base=$(basename "$bin")
  compare "$base" "${base%%.*}" "$bin"
done

# corpus_files TARGET: the target's corpus files (seeds and regressions).
corpus_files() {
  [ -d "$src/corpus/$1" ] || return 0
  find "$src/corpus/$1" -type f ! -name 'README*' ! -name '*.md' -print0 |
    sort -z
}

first_byte() {
  if [ -s "$1" ]; then od -An -tu1 -N1 "$1" | tr -d ' '; else echo 0; fi
}

types=(AllKinds AllKinds3 Nested Nested3)
while IFS= read -r -d '' file; do
  tail -c +2 "$file" > "$work/payload.bin"
  compare "${file#"$src"/}" "${types[$(($(first_byte "$file") % 4))]}" \
      "$work/payload.bin"
done < <(corpus_files wire_decode_diff)

roots=(AllKinds AllKinds3)
while IFS= read -r -d '' file; do
  tail -c +2 "$file" > "$work/payload.bin"
  compare "${file#"$src"/}" "${roots[$(($(first_byte "$file") % 2))]}" \
      "$work/payload.bin"
done < <(corpus_files wire_packed_unpacked)

if [ -n "$export_schema_case" ]; then
  while IFS= read -r -d '' file; do
    rm -rf "$work/sd" && mkdir "$work/sd"
    if ! schema_case_type=$("$export_schema_case" "$file" "$work/sd"); then
      echo "FAIL ${file#"$src"/}: cannot export its schema"
      failures=$((failures + 1))
      continue
    fi
    compare "${file#"$src"/}" SchemaCase "$work/sd/payload.bin"
  done < <(corpus_files wire_schema_diff)
fi

echo "decode: $total inputs, $accepted printed identically, $rejected rejected by both, $unsupported known unsupported, $failures differences"
[ $failures -eq 0 ] && [ $total -gt 0 ]
