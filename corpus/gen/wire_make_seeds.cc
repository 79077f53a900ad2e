// wire_make_seeds: the committed generator of the wire targets' seed corpora
// and dictionaries. Every seed is named for what it holds.
//
//   wire_make_seeds --write CORPUS_DIR   (re)writes the seeds and dictionaries
//   wire_make_seeds --check CORPUS_DIR   exit 1 unless the committed files
//                                        equal what this program makes now
//                                        (regressions/ and README are not
//                                        seeds)
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fairwire/checks/wire_oracle.h"
#include "fairwire/models/wire_model.h"
#include "fairwire/scenarios/wire_case.h"
#include "fairwire/scenarios/wire_records.h"
#include "fairwire/scenarios/wire_schema_case.h"
#include "seed_files.h"

namespace fairwire::wire::seeds {
namespace {

using oracle::Fixed;

// Files to make: path relative to the corpus folder -> contents.
using fairwire::seeds::Files;

std::string V(std::uint64_t v) {
  std::string s;
  records::PutVarint(v, s);
  return s;
}
std::string T(std::uint32_t number, int wt) {
  std::string s;
  records::PutTag(number, wt, s);
  return s;
}
std::string L(std::uint32_t number, const std::string& payload) {
  return T(number, 2) + V(payload.size()) + payload;
}
std::string Fixed32(std::uint32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
  return s;
}
std::string Fixed64(std::uint64_t v) {
  std::string s;
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
  return s;
}
std::string Hexs(const char* hex) {
  std::string s;
  for (const char* p = hex; p[0] != 0 && p[1] != 0; p += 2) {
    if (*p == ' ') {
      --p;
      continue;
    }
    unsigned v = 0;
    std::sscanf(p, "%2x", &v);
    s.push_back(static_cast<char>(v));
  }
  return s;
}

const model::Schema& SchemaOf(Fixed f) { return oracle::FixedSubject(f).model; }

std::uint64_t SignExtend(std::int32_t v) {
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
}

// Representative values for every kind: small, edge, negative.
std::vector<std::uint64_t> Values(const model::Schema& s,
                                  const model::Field& f) {
  using K = model::Kind;
  switch (f.kind) {
    case K::kInt32:
      return {1, SignExtend(-1), 0x7fffffff};
    case K::kEnum: {
      const auto& vals = s.enums[f.enum_index].values;
      return {SignExtend(vals.back()), SignExtend(vals.front()),
              SignExtend(vals[vals.size() / 2])};
    }
    case K::kUint32:
    case K::kFixed32:
      return {1, 300, 0xffffffffu};
    case K::kSint32:
      return {1, 2, 0xffffffffu};  // zigzag: -1, 1, INT32_MIN
    case K::kSfixed32:
      return {1, 0x80000000u, 0xfffffffeu};
    case K::kFloat:
      return {0x3fc00000u, 0x80000000u, 0x7f800000u};  // 1.5, -0, inf
    case K::kDouble:
      return {0x3ff8000000000000u, 0x8000000000000000u, 0x7ff8000000000001u};
    case K::kBool:
      return {1, 0, 1};
    default:
      return {150, 0xffffffffffffffffu, 0x8000000000000000u};
  }
}

model::Message EveryField(const model::Schema& s, int type, int depth) {
  model::Message m = model::EmptyMessage(s, type);
  const auto& fields = s.messages[type].fields;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const model::Field& f = fields[i];
    model::FieldValues& fv = m.fields[i];
    const std::size_t count = f.repeated ? 3 : 1;
    if (f.kind == model::Kind::kMessage) {
      if (depth >= 1) continue;
      for (std::size_t k = 0; k < (f.repeated ? 2u : 1u); ++k) {
        fv.messages.push_back(EveryField(s, f.message_index, depth + 1));
      }
    } else if (f.kind == model::Kind::kString ||
               f.kind == model::Kind::kBytes) {
      const char* const kStrings[] = {"fairwire", "",
                                      "h\xc3\xa9llo \xe2\x82\xac"};
      for (std::size_t k = 0; k < count; ++k) fv.strings.push_back(kStrings[k]);
      if (f.kind == model::Kind::kBytes)
        fv.strings.back() = std::string("\0\xff\x80", 3);
    } else {
      const auto vals = Values(s, f);
      for (std::size_t k = 0; k < count; ++k) fv.scalars.push_back(vals[k]);
    }
  }
  model::UnknownRecord u;
  u.number = 19;
  u.wire_type = 0;
  u.value = 7;
  m.unknown.push_back(u);
  return m;
}

std::string Seed(Fixed root, const std::string& payload) {
  return std::string(1, static_cast<char>(root)) + payload;
}

// Bits 6-7 of byte 0 choose the kernel level of fairwire's decodes in every
// wire target (wire::oracle::KernelChoiceOf: the process's, portable, avx2,
// avx512): the seeds of `dir` take the four in turn, in name order, each
// choice for `stride` seeds running, so that with a stride of the number of
// comparisons every comparison meets every level.
void RotateKernelChoice(Files& files, const std::string& dir,
                        std::size_t stride) {
  std::size_t next = 0;
  for (auto& [path, bytes] : files) {
    if (!path.starts_with(dir) || bytes.empty()) continue;
    const auto choice = static_cast<unsigned>((next++ / stride) % 4);
    bytes[0] = static_cast<char>(
        (static_cast<unsigned char>(bytes[0]) & 0x3Fu) | (choice << 6));
  }
}

void DecodeDiffSeeds(Files& files) {
  const std::string dir = "wire_decode_diff/";
  // Every field of every fixed root, in every encoding variant.
  const std::pair<Fixed, const char*> roots[] = {
      {Fixed::kAllKinds, "allkinds"},
      {Fixed::kAllKinds3, "allkinds3"},
      {Fixed::kNested, "nested"},
      {Fixed::kNested3, "nested3"}};
  for (const auto& [root, name] : roots) {
    const model::Schema& s = SchemaOf(root);
    const model::Message m = EveryField(s, 0, 0);
    for (const scenario::Variant& v : scenario::AllVariants()) {
      files[dir + name + "_every_field_" + v.name] =
          Seed(root, scenario::EncodeVariant(s, m, v));
    }
  }
  const Fixed p2 = Fixed::kAllKinds;
  const Fixed p3 = Fixed::kAllKinds3;
  // One seed per rule of docs/design.md "Decoding rules" (AllKinds: f_int32 =
  // 1, f_uint64 = 4, f_sint32 = 5, f_bool = 7, f_enum = 8, f_fixed32 = 9,
  // f_string = 15, f_nested = 17, f_self = 18, r_enum = 28, p_int32 = 41,
  // p_enum = 48, p_fixed32 = 49, p_double = 54).
  const std::map<std::string, std::string> rules = {
      {"rule_packed_and_unpacked_concatenate",
       Seed(p2, L(41, V(1) + V(2)) + T(41, 0) + V(3) + L(41, V(4)))},
      {"rule_empty_packed_record", Seed(p2, L(41, "") + L(49, ""))},
      {"rule_tenth_varint_byte_drops_high_bits",
       Seed(p2, T(4, 0) + Hexs("ffffffffffffffffff7f"))},
      {"rule_eleven_byte_varint_is_error",
       Seed(p2, T(4, 0) + Hexs("ffffffffffffffffffff01"))},
      {"rule_int32_keeps_low_32_bits", Seed(p2, T(1, 0) + V(0x100000005u))},
      {"rule_uint32_keeps_low_32_bits", Seed(p2, T(3, 0) + V(0x1fffffffeu))},
      {"rule_sint32_truncates_then_zigzag",
       Seed(p2, T(5, 0) + V(0x100000003u))},
      {"rule_bool_is_any_nonzero",
       Seed(p2,
            T(7, 0) + V(2) + L(47, V(0x8000000000000000u) + V(0) + V(300)))},
      {"rule_negative_int32_is_ten_bytes",
       Seed(p2, T(1, 0) + V(SignExtend(-2)))},
      {"rule_packed_fixed_not_multiple_is_error",
       Seed(p2, L(49, "\x01\x02\x03"))},
      {"rule_packed_double_not_multiple_is_error",
       Seed(p2, L(54, Fixed64(1) + "\x01"))},
      {"rule_length_past_end_is_error", Seed(p2, T(15, 2) + V(10) + "abc")},
      {"rule_packed_varint_past_record_is_error",
       Seed(p2, T(41, 2) + V(2) + "\x01\x80" + T(1, 0) + V(1))},
      {"rule_length_varint_of_six_bytes_is_error",
       Seed(p2, T(15, 2) + Hexs("818080808000") + "a")},
      {"rule_length_of_2pow31_is_error", Seed(p2, T(15, 2) + V(0x80000000u))},
      {"rule_tiny_input_claiming_2gib_packed_field",
       Seed(p2, T(41, 2) + V(0x7fffffffu) + "\x01")},
      {"rule_closed_enum_unknown_unpacked",
       Seed(p2, T(28, 0) + V(7) + T(28, 0) + V(1))},
      {"rule_closed_enum_unknown_packed",
       Seed(p2, L(48, V(1) + V(7) + V(2) + V(SignExtend(-7))))},
      {"rule_closed_enum_2pow32_unpacked",
       Seed(p2, T(8, 0) + V(0x100000005u) + T(28, 0) + V(0x100000001u))},
      {"rule_closed_enum_2pow32_packed",
       Seed(p2, L(48, V(0x100000005u) + V(0x100000002u)))},
      {"rule_closed_enum_validity_uses_int32",
       Seed(p2, T(8, 0) + V(0xffffffffu))},
      {"rule_open_enum_keeps_unknown_values",
       Seed(p3, T(8, 0) + V(77) + L(48, V(1) + V(99)) + T(28, 0) +
                    V(SignExtend(-9)))},
      {"rule_wrong_wire_type_is_unknown",
       Seed(p2, T(1, 1) + Fixed64(5) + T(15, 0) + V(3) + T(9, 0) + V(1) +
                    T(17, 5) + Fixed32(2) + T(1, 0) + V(1))},
      {"rule_field_number_zero_is_error", Seed(p2, T(0, 0) + V(1))},
      {"rule_wire_type_6_is_error", Seed(p2, T(1, 6) + V(1))},
      {"rule_wire_type_7_is_error", Seed(p2, T(1, 7) + V(1))},
      {"rule_end_group_without_start_is_error", Seed(p2, T(19, 4))},
      {"rule_mismatched_end_group_is_error", Seed(p2, T(19, 3) + T(20, 4))},
      {"rule_unterminated_group_is_error", Seed(p2, T(19, 3) + T(1, 0) + V(1))},
      {"rule_unknown_group_kept",
       Seed(p2, T(19, 3) + T(1, 0) + V(1) + T(20, 3) + L(2, "x") + T(20, 4) +
                    T(19, 4) + T(1, 0) + V(2))},
      {"rule_end_group_inside_nested_message_is_error",
       Seed(p2, L(17, T(19, 4)))},
      {"rule_proto3_invalid_utf8_is_error", Seed(p3, L(15, "\xc3\x28"))},
      {"rule_proto3_surrogate_is_error", Seed(p3, L(15, "\xed\xa0\x80"))},
      {"rule_proto3_overlong_is_error", Seed(p3, L(15, "\xc0\xaf"))},
      {"rule_proto3_repeated_string_checked",
       Seed(p3, L(35, "ok") + L(35, "\xff"))},
      {"rule_proto3_bytes_not_checked", Seed(p3, L(16, "\xff\xfe"))},
      {"rule_proto2_strings_not_checked",
       Seed(p2, L(15, "\xff\xfe") + L(35, "\xc0\xaf"))},
      {"rule_implicit_presence_zero_not_serialized",
       Seed(p3, T(1, 0) + V(0) + T(13, 5) + Fixed32(0) + L(15, "") + T(7, 0) +
                    V(0))},
      {"rule_implicit_presence_negative_zero_float",
       Seed(p3, T(13, 5) + Fixed32(0x80000000u) + T(14, 1) +
                    Fixed64(0x8000000000000000u))},
      {"rule_singular_last_value_wins",
       Seed(p2, T(1, 0) + V(1) + T(1, 0) + V(2) + L(15, "a") + L(15, "b"))},
      {"rule_singular_message_merges",
       Seed(p2, L(17, T(1, 0) + V(1) + L(2, V(2))) +
                    L(17, L(2, V(4)) + L(3, "x")))},
      {"rule_largest_field_number",
       Seed(p2, L(536870911, V(1) + V(2)) + T(536870910, 0) + V(3))},
      {"rule_padded_tag", Seed(p2, Hexs("8880808000") + V(5))},
      {"rule_tag_of_six_bytes_is_error", Seed(p2, Hexs("888080808000") + V(5))},
  };
  for (const auto& [name, bytes] : rules) files[dir + name] = bytes;
  // Depth: 100 nested messages are accepted, 101 are not; groups too.
  for (int depth : {100, 101}) {
    std::string inner;
    for (int i = 0; i < depth; ++i) inner = L(18, inner);
    files[dir + "rule_depth_" + std::to_string(depth) + "_nested_messages"] =
        Seed(p2, inner);
    std::string group;
    for (int i = 0; i < depth; ++i) group = T(19, 3) + group + T(19, 4);
    files[dir + "rule_depth_" + std::to_string(depth) + "_nested_groups"] =
        Seed(p2, group);
  }
  // Byte 0's bits 2-3 name the one comparison of the oracle a fuzzed input
  // runs (wire::oracle::Comparison; bits 0-1 are the root): the seeds take
  // the four in turn, in name order, so that each is fuzzed from the start.
  std::size_t next_comparison = 0;
  for (auto& [path, bytes] : files) {
    if (!path.starts_with(dir) || bytes.empty()) continue;
    const auto comparison = static_cast<int>(next_comparison++ % 4);
    bytes[0] = static_cast<char>((bytes[0] & 3) | (comparison << 2));
  }
  RotateKernelChoice(files, dir, 4);
}

void PackedUnpackedSeeds(Files& files) {
  const std::string dir = "wire_packed_unpacked/";
  // Byte 0 also names the one encoding the target checks: the seeds take
  // them in turn (as given, then each variant; fifteen seeds, fifteen
  // encodings), so that every one is checked from the start.
  std::size_t next_encoding = 0;
  const auto byte_zero = [&](int root) {
    scenario::WireCase c;
    c.root = root;
    const std::size_t e =
        next_encoding++ % (scenario::AllVariants().size() + 1);
    c.as_given = e == 0;
    c.variant = e == 0 ? 0 : e - 1;
    return std::string(1, static_cast<char>(scenario::ByteZeroOf(c)));
  };
  for (int root : {0, 1}) {
    const Fixed f = root == 0 ? Fixed::kAllKinds : Fixed::kAllKinds3;
    const model::Schema& s = SchemaOf(f);
    const std::string name = root == 0 ? "allkinds" : "allkinds3";
    const model::Message every = EveryField(s, 0, 0);
    const auto put = [&](const std::string& n, const std::string& payload) {
      files[dir + name + "_" + n] = byte_zero(root) + payload;
    };
    put("every_field_canonical", model::Serialize(s, every));
    for (const char* v :
         {"unpacked", "mixed", "packed-chunks-of-1", "everything"}) {
      for (const scenario::Variant& variant : scenario::AllVariants()) {
        if (std::string(variant.name) == v) {
          put(std::string("every_field_") + v,
              scenario::EncodeVariant(s, every, variant));
        }
      }
    }
    // Only repeated packable fields, long runs.
    model::Message rep = model::EmptyMessage(s, 0);
    for (std::size_t i = 0; i < s.messages[0].fields.size(); ++i) {
      const model::Field& fd = s.messages[0].fields[i];
      if (!fd.repeated || !model::KindPackable(fd.kind)) continue;
      const auto vals = Values(s, fd);
      for (int k = 0; k < 12; ++k) rep.fields[i].scalars.push_back(vals[k % 3]);
    }
    put("repeated_runs_of_12_canonical", model::Serialize(s, rep));
    put("empty_message", "");
  }
  // A closed-enum value of 2^32 + 5 arriving packed (kept with 64 bits).
  files[dir + "allkinds_closed_enum_2pow32_packed"] =
      byte_zero(0) + L(48, V(0x100000005u) + V(1));
  RotateKernelChoice(files, dir, 1);
}

void SchemaDiffSeeds(Files& files) {
  const std::string dir = "wire_schema_diff/";
  using scenario::FieldSpec;
  using K = model::Kind;
  for (bool proto3 : {false, true}) {
    scenario::SchemaCase c;
    c.proto3 = proto3;
    c.enums = {{0, 1, 5, -1}};
    std::vector<FieldSpec> kinds;
    // Every kind, singular then repeated (packed alternating).
    const std::uint32_t numbers[] = {1,  2,  3,  4,  5,   6,    7,    8,    9,
                                     10, 15, 16, 17, 100, 2047, 2048, 20000};
    for (int k = 0; k < model::kKindCount; ++k) {
      FieldSpec f;
      f.number = numbers[k];
      f.kind = static_cast<K>(k);
      f.repeated = k % 2 == 1;
      f.packed = f.repeated && model::KindPackable(f.kind) && k % 4 == 1;
      f.type_index = f.kind == K::kMessage ? 1 : 0;
      kinds.push_back(f);
    }
    // 7 fields per message at most: split the kinds over M0 and M1, and let
    // M1 refer back to M0 (recursion).
    c.messages = {{}, {}, {}};
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      if (c.messages[i / 7].size() < 7) c.messages[i / 7].push_back(kinds[i]);
    }
    c.messages[0].back() = {17, K::kMessage, false, false, 1};
    c.messages[1].back() = {17, K::kMessage, true, false, 2};
    c.messages[2].back() = {17, K::kMessage, false, false, 0};
    // A payload: a few records of M0's fields.
    c.payload = {};
    const std::string payload = T(1, 0) + V(SignExtend(-3)) +
                                L(2, V(1) + V(2)) + T(2, 0) + V(3) + T(3, 0) +
                                V(7) + L(4, V(1)) + T(5, 0) + V(0x100000001u) +
                                L(17, L(17, T(1, 0)));
    c.payload.assign(payload.begin(), payload.end());
    const auto bytes = scenario::EncodeSchemaCase(c);
    files[dir + (proto3 ? "proto3" : "proto2") + "_every_kind_recursive"] =
        std::string(bytes.begin(), bytes.end());
  }
  // Enum-only schemas: closed (proto2) and open (proto3) with unknown values.
  for (bool proto3 : {false, true}) {
    scenario::SchemaCase c;
    c.proto3 = proto3;
    c.enums = {{0, 3, -2}, {0, 1000000}};
    c.messages = {{{1, K::kEnum, false, false, 0},
                   {2, K::kEnum, true, true, 1},
                   {3, K::kEnum, true, false, 0}}};
    const std::string payload = T(1, 0) + V(4) + L(2, V(1000000) + V(9)) +
                                T(3, 0) + V(SignExtend(-2)) + T(3, 0) +
                                V(0x100000003u);
    c.payload.assign(payload.begin(), payload.end());
    const auto bytes = scenario::EncodeSchemaCase(c);
    files[dir + (proto3 ? "proto3" : "proto2") + "_enums_with_unknown_values"] =
        std::string(bytes.begin(), bytes.end());
  }
  // Runs of unpacked fixed-width records with one-byte tags (fields 1 to 6,
  // every fixed-width kind), proto2's default encoding of a repeated
  // fixed-width field: the decoder takes such a run in one loop
  // (ParseFixedRun). The fixed schemas have only three such fields (in
  // Nested and Nested3); here is every kind. Runs of 1 to 17 records, ended by
  // another field's record, by the payload's end, and (a second seed) by a
  // value cut short.
  for (bool proto3 : {false, true}) {
    scenario::SchemaCase c;
    c.proto3 = proto3;
    const K fixed_kinds[] = {K::kFixed32,  K::kFixed64, K::kSfixed32,
                             K::kSfixed64, K::kFloat,   K::kDouble};
    c.messages = {{}};
    std::string payload;
    std::uint32_t number = 1;
    for (K kind : fixed_kinds) {
      c.messages[0].push_back({number, kind, true, false, 0});
      const bool wide =
          kind == K::kFixed64 || kind == K::kSfixed64 || kind == K::kDouble;
      for (int run : {1, 3, 17}) {
        for (int i = 0; i < run; ++i) {
          // Values whose bytes include the tag byte and 0x80.
          const std::uint32_t low =
              (number << 3) * 0x01010101u ^ static_cast<std::uint32_t>(i) << 7;
          payload +=
              wide ? T(number, 1) + Fixed64(std::uint64_t{low} << 32 | ~low)
                   : T(number, 5) + Fixed32(low);
        }
        payload += T(7, 0) + V(1);  // another field's record ends the run
      }
      ++number;
    }
    payload += T(2, 1) + Fixed64(2) + T(2, 1) + Fixed64(3);  // ends the input
    c.messages[0].push_back({7, K::kInt32, false, false, 0});
    c.payload.assign(payload.begin(), payload.end());
    const std::string name =
        std::string(proto3 ? "proto3" : "proto2") + "_fixed_runs_one_byte_tags";
    auto bytes = scenario::EncodeSchemaCase(c);
    files[dir + name] = std::string(bytes.begin(), bytes.end());
    // The same, with the last run's last value cut after 5 of its 8 bytes:
    // rejected (truncated) at that value.
    const std::string cut = payload.substr(0, payload.size() - 3);
    c.payload.assign(cut.begin(), cut.end());
    bytes = scenario::EncodeSchemaCase(c);
    files[dir + name + "_value_cut"] = std::string(bytes.begin(), bytes.end());
  }
  // Runs of unpacked varint records with one-byte tags (fields 1 to 7, every
  // varint kind but bool), which the run kernels of each level take
  // (run_blocks.h, run_shapes.h, run_avx512.h): runs of 1 to 40 records of
  // values of 1 to 10 bytes, so that a run spans 64-byte windows. The fixed
  // schemas number AllKinds' repeated fields from 21; of the varint kinds
  // only Nested's and Nested3's few have one-byte tags. Made three times
  // below, one per kernel level.
  std::string varint_runs;
  {
    scenario::SchemaCase c;
    c.enums = {{0, 1, 5}};
    const K varint_kinds[] = {K::kInt32,  K::kInt64,  K::kUint32, K::kUint64,
                              K::kSint32, K::kSint64, K::kEnum};
    const std::uint64_t values[] = {
        1, 5, 0x7f, 0x80, 300, 70000, SignExtend(-5), 1ull << 35, 0, 0x3fff};
    c.messages = {{}};
    std::string payload;
    std::uint32_t number = 1;
    for (K kind : varint_kinds) {
      c.messages[0].push_back({number, kind, true, false, 0});
      std::size_t next = number;
      for (int run : {1, 3, 17, 40}) {
        for (int i = 0; i < run; ++i) {
          payload += T(number, 0) + V(values[next++ % std::size(values)]);
        }
        payload += T(number == 1 ? 2 : 1, 2) + V(0);  // another field's record
      }
      ++number;
    }
    for (int i = 0; i < 20; ++i) payload += T(3, 0) + V(values[i % 10]);
    c.payload.assign(payload.begin(), payload.end());
    const auto bytes = scenario::EncodeSchemaCase(c);
    varint_runs.assign(bytes.begin(), bytes.end());
  }
  files[dir + "empty_schema_empty_payload"] = std::string(1, '\0');
  // Bit 5 of byte 0, which the schema case does not read, names the one
  // comparison a fuzzed input runs (fairwire or the model, each against
  // DynamicMessage): the seeds take the two in turn, in name order.
  std::size_t next_comparison = 0;
  for (auto& [path, bytes] : files) {
    if (!path.starts_with(dir) || bytes.empty()) continue;
    if (next_comparison++ % 2 == 1)
      bytes[0] = static_cast<char>(bytes[0] | 0x20);
  }
  RotateKernelChoice(files, dir, 2);
  // The run seeds are there for fairwire's kernels: they run its comparison
  // (bit 5 clear), the varint runs once per level, the fixed-width runs
  // (one loop at every level) at the process's.
  for (auto& [path, bytes] : files) {
    if (path.find("_fixed_runs_") != std::string::npos) {
      bytes[0] = static_cast<char>(bytes[0] & 0x1F);
    }
  }
  const std::pair<unsigned, const char*> levels[] = {
      {1, "portable"}, {2, "avx2"}, {3, "avx512"}};
  for (const auto& [choice, level] : levels) {
    std::string bytes = varint_runs;
    bytes[0] = static_cast<char>((bytes[0] & 0x1F) | (choice << 6));
    files[dir + "proto2_varint_runs_one_byte_tags_at_" + level] = bytes;
  }
}

// Dictionaries: the tags of every field of the fixed roots with each wire
// type they may arrive with, unknown and group tags, and edge varints.
void Dictionaries(Files& files) {
  std::set<std::string> common = {V(0x7fffffffu),
                                  V(0x80000000u),
                                  V(0xffffffffu),
                                  V(0x100000000u),
                                  V(0xffffffffffffffffu),
                                  Hexs("ffffffffffffffffff7f"),
                                  Hexs("8080808000"),
                                  Hexs("80"),
                                  T(19, 3),
                                  T(19, 4),
                                  T(1000, 3),
                                  T(1000, 4),
                                  T(536870911, 2)};
  auto line = [](const std::string& token) {
    std::string s = "\"";
    for (unsigned char ch : token) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", ch);
      s += buf;
    }
    return s + "\"\n";
  };
  std::set<std::string> fixed_tokens = common;
  for (Fixed f :
       {Fixed::kAllKinds, Fixed::kAllKinds3, Fixed::kNested, Fixed::kNested3}) {
    const model::Schema& s = SchemaOf(f);
    for (const model::MessageType& m : s.messages) {
      for (const model::Field& fd : m.fields) {
        fixed_tokens.insert(T(fd.number, model::KindWireType(fd.kind)));
        if (model::KindPackable(fd.kind)) fixed_tokens.insert(T(fd.number, 2));
      }
    }
  }
  std::string dict =
      "# wire_decode_diff / wire_packed_unpacked: made by wire_make_seeds\n";
  for (const std::string& t : fixed_tokens) dict += line(t);
  files["dicts/wire_decode_diff.dict"] = dict;
  files["dicts/wire_packed_unpacked.dict"] = dict;
  std::string sd = "# wire_schema_diff: made by wire_make_seeds\n";
  for (const std::string& t : common) sd += line(t);
  for (std::uint32_t n : {1u, 2u, 3u, 16u, 17u, 2047u}) {
    for (int wt : {0, 1, 2, 5}) sd += line(T(n, wt));
  }
  files["dicts/wire_schema_diff.dict"] = sd;
}

Files MakeAll() {
  Files files;
  DecodeDiffSeeds(files);
  PackedUnpackedSeeds(files);
  SchemaDiffSeeds(files);
  Dictionaries(files);
  return files;
}

}  // namespace
}  // namespace fairwire::wire::seeds

int main(int argc, char** argv) {
  return fairwire::seeds::SyncSeeds(
      "wire_make_seeds", argc, argv, fairwire::wire::seeds::MakeAll(),
      {"wire_decode_diff", "wire_packed_unpacked", "wire_schema_diff"});
}
