#!/usr/bin/env python3
"""Writes the hand-made binary inputs of the decode test (inputs/*.bin).

Each input is named <Type>.<what it holds>.bin, Type one of the fixed test
messages of properties/proto (AllKinds, AllKinds3, Nested, Nested3) or of
protos/ (Extra2, Extra3; see compare.py). They hold
what protoc --encode cannot make from text: unknown fields, closed-enum values
outside the enum, packed records for fields declared unpacked and the reverse,
overlong varints, wrong wire types, and inputs that must be rejected.

  make_inputs.py           rewrite inputs/*.bin
  make_inputs.py --check   exit 1 if inputs/*.bin differ from what it makes
"""
import os
import struct
import sys

VARINT, I64, LEN, SGROUP, EGROUP, I32 = 0, 1, 2, 3, 4, 5


def varint(value, pad_to=0):
    value &= (1 << 64) - 1 if value < 0 else (1 << 70) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value or len(out) + 1 < pad_to:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def tag(number, wire_type):
    return varint(number << 3 | wire_type)


def zigzag(value, bits=64):
    return (value << 1) ^ (value >> (bits - 1))


def v(number, value, pad_to=0):
    return tag(number, VARINT) + varint(value, pad_to)


def ld(number, payload):
    return tag(number, LEN) + varint(len(payload)) + payload


def f32(number, raw):
    return tag(number, I32) + raw


def f64(number, raw):
    return tag(number, I64) + raw


def group(number, payload):
    return tag(number, SGROUP) + payload + tag(number, EGROUP)


def packed_varints(number, values):
    return ld(number, b"".join(varint(x) for x in values))


def nest(field, levels, leaf):
    payload = leaf
    for _ in range(levels):
        payload = ld(field, payload)
    return payload


def nest_groups(levels, leaf=b"\x08\x01"):
    payload = leaf
    for level in range(levels):
        payload = group(100 + level % 3, payload)
    return payload


U = struct.pack

INPUTS = {
    # --- proto2 (AllKinds, Nested): accepted -------------------------------
    "AllKinds.unknown_field_of_every_wire_type": b"".join([
        v(100, 150), f64(101, U("<Q", 0xFEDCBA9876543210)),
        f32(102, U("<I", 0xDEADBEEF)), ld(103, b"not a message"),
        ld(104, v(1, 1) + ld(2, b"inner")), ld(105, b""),
        group(106, v(1, 5) + group(2, f32(3, b"\0\0\0\0"))),
        v(536870911, 1),
    ]),
    "AllKinds.unknown_length_delimited_eleven_levels_deep":
        ld(200, nest(1, 11, v(1, 7))),
    "AllKinds.unknown_length_delimited_that_almost_parses": b"".join([
        ld(300, b"\x0c\x00"), ld(301, b"\x00\x01"), ld(302, b"\x08"),
        ld(303, b"\x0b\x14"), ld(304, b"\x0a\x05ab"),
        ld(305, b"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f"),
        ld(306, b"\x88\x80\x80\x80\x80\x80\x80\x80\x80\x01\x05"),
    ]),
    "AllKinds.closed_enum_values_outside_enum_go_to_unknown": b"".join([
        v(8, 5), v(8, 2), v(28, 7), v(28, 1), v(28, (1 << 64) - 1),
        packed_varints(48, [1, 99, 2, (1 << 64) - 7, 1000000]),
        ld(17, v(4, 3) + v(1, 1)),
    ]),
    "AllKinds.closed_enum_value_above_2_to_the_32": v(8, (1 << 32) + 1),
    "AllKinds.closed_enum_unknown_above_2_to_the_32_keeps_low_32_bits":
        v(8, (1 << 32) + 7) + v(28, (1 << 40) + 8) + v(28, (1 << 63) + 2),
    "AllKinds.closed_enum_packed_value_above_2_to_the_32":
        packed_varints(48, [(1 << 32) + 2, (1 << 33) + 99]),
    "AllKinds.packed_records_for_unpacked_fields_and_the_reverse": b"".join([
        packed_varints(21, [1, 2, 3]), v(21, 4), packed_varints(21, []),
        v(41, 5), packed_varints(41, [6, 7]), v(41, 8),
        ld(29, U("<II", 1, 2)), f32(29, U("<I", 3)),
        f64(54, U("<d", 1.5)), ld(54, U("<dd", 2.5, -0.0)),
        ld(27, b"\x00\x01\x02\x80\x01"), ld(33, U("<f", 0.25)),
        packed_varints(536870911, [1]), v(536870911, 2),
    ]),
    "AllKinds.wrong_wire_type_keeps_the_record_unknown": b"".join([
        f32(1, b"\x01\x00\x00\x00"), v(15, 3), f64(29, b"\x01" * 8),
        v(17, 1), ld(9, b"\x01\x02\x03\x04"), ld(14, b"\x00" * 4),
    ]),
    "AllKinds.overlong_varints_and_truncation": b"".join([
        v(1, 5, pad_to=10), v(1, (1 << 40) + 7),
        tag(2, VARINT) + b"\xff" * 9 + b"\x7f",
        v(3, (1 << 35) + 3), v(5, zigzag(-3) | (1 << 33)), v(7, 2),
        v(7, 1 << 40), tag(4, VARINT) + b"\x80" * 9 + b"\x01",
        b"\x88\x80\x00" + varint(6),
    ]),
    "AllKinds.singular_last_wins_and_messages_merge": b"".join([
        v(1, 1), v(1, 2), ld(15, b"first"), ld(15, b"second"),
        ld(17, v(1, 10) + packed_varints(2, [2])),
        ld(17, ld(3, b"merged") + packed_varints(2, [4])),
        ld(18, v(1, 1)), ld(18, v(2, 2)),
    ]),
    "AllKinds.proto2_string_not_checked_for_utf8":
        ld(15, b"\xff\xfe\xc3") + ld(35, b"\xed\xa0\x80") + ld(17, ld(3, b"\x80")),
    "AllKinds.unknown_fields_inside_nested_messages":
        ld(17, v(99, 1) + ld(98, v(1, 2)) + v(1, 3)) +
        ld(18, ld(17, group(77, b""))) + v(1000, 1),
    "AllKinds.self_nesting_99_levels": nest(18, 99, v(1, 1)),
    "AllKinds.self_nesting_100_levels": nest(18, 100, v(1, 1)),
    "AllKinds.many_packed_elements":
        packed_varints(42, list(range(-500, 500))) +
        ld(53, b"".join(U("<f", x / 7) for x in range(300))),
    "AllKinds.unknown_groups_nested_99_levels": nest_groups(99),
    "AllKinds.unknown_groups_nested_100_levels": nest_groups(100),
    "AllKinds.unknown_groups_nested_101_levels": nest_groups(101),
    "AllKinds.messages_and_groups_nested_100_levels":
        nest(18, 50, nest_groups(50)),
    "AllKinds.messages_and_groups_nested_101_levels":
        nest(18, 50, nest_groups(51)),
    "AllKinds.unknown_length_delimited_holding_deep_groups":
        ld(900, nest_groups(11)) + ld(901, nest_groups(10)),
    "Nested.packed_deltas_mixed_with_unpacked": b"".join([
        v(2, zigzag(-1)), packed_varints(2, [zigzag(5), zigzag(-6)]),
        v(4, 1000000), v(4, 3), ld(5, v(4, 4294967295)),
    ]),
    # --- proto3 (AllKinds3, Nested3): accepted -----------------------------
    "AllKinds3.implicit_zero_values_on_the_wire_are_not_printed": b"".join([
        v(1, 0), v(2, 5), v(2, 0), ld(15, b""), f32(13, U("<f", 0.0)),
        f64(14, U("<d", -0.0)), v(8, 0), v(7, 0), ld(16, b""),
        v(60, 0), ld(17, b""),
    ]),
    "AllKinds3.unpacked_records_for_packed_fields": b"".join([
        v(41, 1), v(41, 2), packed_varints(41, [3]), v(48, 7), v(48, 1),
        f32(49, U("<I", 9)), packed_varints(21, [1, 2]),
    ]),
    "AllKinds3.unknown_fields_and_wrong_wire_types": b"".join([
        v(99, 1), ld(15, b"ok"), v(15, 1), f32(1, b"\0\0\0\0"),
        ld(17, v(3, 5) + v(50, 1)),
    ]),
    "Nested3.open_enum_values_and_nested_unknown":
        packed_varints(3, [0, 1, 2, 3, (1 << 64) - 5, (1 << 32) + 1]) +
        ld(4, v(1, 1) + v(9, 9)),
    # --- extra schemas (tools/decode/tests/protos): maps, oneofs ----------------
    "Extra3.map_entries_with_missing_key_or_value_and_duplicates": b"".join([
        ld(1, ld(1, b"k") + v(2, 1)), ld(1, v(2, 5)), ld(1, ld(1, b"k")),
        ld(1, b""), ld(1, ld(1, b"k") + v(2, 2) + v(3, 99)),
        ld(2, v(1, 3)), ld(2, ld(2, ld(1, b"x"))), ld(2, v(1, 3) + ld(2, b"")),
        ld(3, v(1, 1)), ld(4, v(1, 1)), ld(5, f64(2, U("<d", 1.0))),
        ld(15, v(2, 1) + v(1, 5) + v(1, 6)), ld(15, v(1, 6) + v(2, 7)),
    ]),
    "Extra3.map_entry_fields_in_reverse_order_and_repeated":
        ld(1, v(2, 3) + ld(1, b"b") + ld(1, b"a")) +
        ld(7, f64(1, U("<q", -3)) + v(2, 9)),
    "Extra3.oneof_member_repeated_keeps_last_value":
        v(8, 1) + v(8, 2),
    "Extra3.oneof_message_member_merges": ld(10, ld(1, b"a")) + ld(10, v(2, 9)),
    "Extra2.closed_enum_in_map_value_and_proto3_enum_in_proto2_field":
        v(1, 1) + ld(4, ld(1, b"x") + v(2, 5)) + ld(4, ld(1, b"y") + v(2, 1)) +
        v(8, 7) + v(8, 1) + packed_varints(9, [0, 3, 2]) + v(9, 8) +
        ld(10, ld(3, v(1, 1) + v(2, 77))),
    "Extra2.enum_alias_prints_first_name_and_closed_unknowns":
        v(1, 1) + v(2, 1) + packed_varints(3, [1, 5, (1 << 64) - 2]) + v(3, 3),
    "Extra2.unsupported.oneof_two_members_set": v(1, 1) + v(6, 1) + ld(7, b""),
    "Extra2.unsupported.extension_value": v(1, 1) + v(100, 5),
    "Extra2.unknown_field_in_extended_type_prints_by_number": v(1, 1) + v(300, 5),
    "Extra2.unknown_field_in_type_with_range_but_no_extensions":
        v(1, 1) + ld(12, v(1, 1) + v(10, 3) + v(3, 4)),
    "Extra3.unsupported.oneof_member_then_another": v(8, 1) + ld(9, b"t"),
    "Extra3.unsupported.oneof_conflict_inside_map_value":
        ld(2, v(1, 1) + ld(2, v(2, 1))) + ld(13, b"") +
        ld(10, ld(1, b"a")) + v(8, 0),
    # --- rejected by both -----------------------------------------------------
    "AllKinds.reject.truncated_varint": tag(1, VARINT) + b"\x80",
    "AllKinds.reject.truncated_fixed64": tag(10, I64) + b"\x00" * 7,
    "AllKinds.reject.length_past_end": ld(15, b"abc")[:-1],
    "AllKinds.reject.field_number_zero": b"\x00\x01",
    "AllKinds.reject.wire_type_6": b"\x0e\x00",
    "AllKinds.reject.wire_type_7": b"\x0f\x00",
    "AllKinds.reject.end_group_without_start": b"\x0c",
    "AllKinds.reject.mismatched_end_group": tag(100, SGROUP) + tag(101, EGROUP),
    "AllKinds.reject.unterminated_group": tag(100, SGROUP) + v(1, 1),
    "AllKinds.reject.eleven_byte_varint": tag(1, VARINT) + b"\x80" * 10 + b"\x00",
    "AllKinds.reject.packed_fixed32_not_a_multiple": ld(49, b"\x00" * 5),
    "AllKinds.reject.packed_varint_past_record": ld(41, b"\x01\x80"),
    "AllKinds.reject.length_varint_six_bytes":
        tag(15, LEN) + b"\x81\x80\x80\x80\x80\x00" + b"x",
    "AllKinds.reject.length_two_to_the_31": tag(15, LEN) + varint(1 << 31),
    "AllKinds.reject.self_nesting_101_levels": nest(18, 101, v(1, 1)),
    "AllKinds.reject.bad_record_inside_nested": ld(17, b"\x08"),
    "AllKinds3.reject.invalid_utf8_string": ld(15, b"\xc3\x28"),
    "AllKinds3.reject.invalid_utf8_in_nested_label": ld(17, ld(2, b"\xff")),
    "AllKinds3.reject.surrogate_in_repeated_string": ld(35, b"\xed\xa0\x80"),
}


def main():
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")
    check = "--check" in sys.argv[1:]
    stale = []
    wanted = {name + ".bin" for name in INPUTS}
    for existing in os.listdir(here):
        if existing.endswith(".bin") and existing not in wanted:
            stale.append(existing)
            if not check:
                os.remove(os.path.join(here, existing))
    for name, data in sorted(INPUTS.items()):
        path = os.path.join(here, name + ".bin")
        current = open(path, "rb").read() if os.path.exists(path) else None
        if current != data:
            stale.append(name + ".bin")
            if not check:
                with open(path, "wb") as out:
                    out.write(data)
    if check and stale:
        print("inputs out of date (run tools/decode/tests/make_inputs.py):",
              " ".join(sorted(stale)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
