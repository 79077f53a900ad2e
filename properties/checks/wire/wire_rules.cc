// The rule walker: reads an input as records of a model schema and notes
// every rule of "Decoding rules" it touches. It stops where the bytes stop
// being records (a truncated or overlong varint, a length past the end), as
// every decoder must.
#include "fairwire/checks/wire_rules.h"

#include <algorithm>
#include <array>
#include <vector>

#include "fairwire/models/wire_model.h"
#include "fairwire/scenarios/wire_records.h"

namespace fairwire::wire::rules {
namespace {

using Bytes = std::span<const std::uint8_t>;
using records::MinimalVarintLength;

constexpr std::array<std::string_view, kRuleCount> kNames = {
    "truncated",
    "varint-over-10-bytes",
    "varint-10th-byte-above-1",
    "tag-non-minimal",
    "varint-non-minimal",
    "tag-over-5-bytes",
    "field-number-0",
    "field-number-above-2^29-1",
    "wire-type-6-or-7",
    "wrong-wire-type-on-known-field",
    "length-varint-over-5-bytes",
    "length-2^31-or-more",
    "length-past-end",
    "group",
    "group-end-unmatched",
    "unknown-field",
    "singular-field-repeated",
    "varint-above-32-bits-on-32-bit-field",
    "bool-above-1",
    "closed-enum-value-outside-enum",
    "packed-on-unpacked-field",
    "unpacked-on-packed-field",
    "packed-empty",
    "packed-fixed-length-not-a-multiple",
    "packed-varint-truncated",
    "utf8-invalid-checked",
    "utf8-invalid-unchecked",
    "string-with-nul",
    "depth-above-100",
    "field-number-above-2^28-1",
    "negative-zero-implicit",
};

enum class Read { kOk, kTruncated, kOverlong };

// A varint at bytes[pos]; `length` gets its byte count.
Read ReadVarint(Bytes bytes, std::size_t& pos, std::uint64_t& value,
                int& length) {
  value = 0;
  for (int i = 0; i < 10; ++i) {
    if (pos >= bytes.size()) return Read::kTruncated;
    const std::uint8_t b = bytes[pos++];
    if (i < 9 || b <= 1) {
      value |= std::uint64_t{b & 0x7Fu} << (7 * i);
    } else {
      value |= std::uint64_t{b & 0x01u} << 63;  // bits past 64 are dropped
    }
    if ((b & 0x80) == 0) {
      length = i + 1;
      return Read::kOk;
    }
  }
  return Read::kOverlong;  // a continuation bit on the 10th byte
}

bool FitsInt32(std::uint64_t v) {
  return v <= 0x7FFFFFFFu || v >= 0xFFFFFFFF80000000u;
}

class Walker {
 public:
  explicit Walker(const model::Schema& schema) : schema_(schema) {}

  // Walks one message; false when the bytes stopped being records.
  bool Message(int type, Bytes bytes, int depth) {
    const model::MessageType& t =
        schema_.messages[static_cast<std::size_t>(type)];
    std::vector<std::size_t> counts(t.fields.size(), 0);
    std::size_t pos = 0;
    while (pos < bytes.size()) {
      std::uint32_t number = 0;
      int wire_type = 0;
      if (depth == 0) in_payload_ = false;
      if (!Tag(bytes, pos, number, wire_type)) return Stopped(depth, 0);
      if (wire_type == 4) {
        facts_.rules.Add(Rule::kGroupUnmatched);
        return Stopped(depth, 0);
      }
      const model::Field* field = nullptr;
      std::size_t index = 0;
      for (; index < t.fields.size(); ++index) {
        if (t.fields[index].number == number) {
          field = &t.fields[index];
          break;
        }
      }
      if (field == nullptr) {
        facts_.rules.Add(Rule::kUnknownField);
        if (!Skip(bytes, pos, number, wire_type, depth)) {
          return Stopped(depth, number);
        }
        continue;
      }
      std::size_t values = 0;
      if (!Known(*field, bytes, pos, wire_type, depth, values)) {
        return Stopped(depth, number);
      }
      if (values > 0 && !field->repeated && counts[index] > 0) {
        facts_.rules.Add(Rule::kSingularRepeated);
      }
      counts[index] += values;
      if (field->repeated && counts[index] > facts_.max_count) {
        facts_.max_count = counts[index];
      }
    }
    return true;
  }

  InputFacts facts() const { return facts_; }

 private:
  // A record of field `number` at `depth` stopped the walk: noted once, at
  // the top level.
  bool Stopped(int depth, std::uint32_t number) {
    if (depth == 0 && facts_.fatal_field < 0) {
      facts_.fatal_field = in_payload_ ? std::int64_t{number} : 0;
    }
    return false;
  }

  // The current top-level record's header is read: what follows is its
  // payload.
  void InPayload(int depth) {
    if (depth == 0) in_payload_ = true;
  }

  // A varint; `tag` says whether it is a tag (whose padding is its own
  // rule).
  bool Varint(Bytes bytes, std::size_t& pos, std::uint64_t& value, int& length,
              bool tag = false) {
    switch (ReadVarint(bytes, pos, value, length)) {
      case Read::kOk:
        if (length == 10 && bytes[pos - 1] > 1) {
          facts_.rules.Add(Rule::kVarintHighBits);
        } else if (!tag && length > MinimalVarintLength(value)) {
          facts_.rules.Add(Rule::kVarintNonMinimal);
        }
        return true;
      case Read::kTruncated:
        facts_.rules.Add(Rule::kTruncated);
        return false;
      case Read::kOverlong:
        facts_.rules.Add(Rule::kVarintOverlong);
        return false;
    }
    return false;
  }

  bool Tag(Bytes bytes, std::size_t& pos, std::uint32_t& number,
           int& wire_type) {
    std::uint64_t tag = 0;
    int length = 0;
    if (!Varint(bytes, pos, tag, length, /*tag=*/true)) return false;
    if (length > 5) {
      facts_.rules.Add(Rule::kTagOver5Bytes);
      return false;
    }
    if (tag > 0xFFFFFFFFu) {
      // libprotobuf reads on with the tag modulo 2^32 (the model does too).
      facts_.rules.Add(Rule::kFieldNumberAboveMax);
      tag &= 0xFFFFFFFFu;
    }
    if (length > MinimalVarintLength(tag)) {
      facts_.rules.Add(Rule::kTagNonMinimal);
    }
    number = static_cast<std::uint32_t>(tag >> 3);
    wire_type = static_cast<int>(tag & 7);
    if (number >= (std::uint32_t{1} << 28)) {
      facts_.rules.Add(Rule::kFieldNumberAbove2To28);
    }
    if (number == 0) {
      facts_.rules.Add(Rule::kFieldNumberZero);
      return false;
    }
    if (wire_type == 6 || wire_type == 7) {
      facts_.rules.Add(Rule::kWireTypeInvalid);
      return false;
    }
    return true;
  }

  // The payload of a len record: [pos, pos + length) after this returns.
  bool Length(Bytes bytes, std::size_t& pos, std::size_t& length) {
    std::uint64_t n = 0;
    int varint_length = 0;
    if (!Varint(bytes, pos, n, varint_length)) return false;
    if (varint_length > 5) {
      facts_.rules.Add(Rule::kLengthOver5Bytes);
      return false;
    }
    if (n >= (std::uint64_t{1} << 31)) {
      facts_.rules.Add(Rule::kLengthAbove2To31);
      return false;
    }
    if (n > bytes.size() - pos) {
      facts_.rules.Add(Rule::kLengthPastEnd);
      return false;
    }
    length = static_cast<std::size_t>(n);
    return true;
  }

  bool Fixed(Bytes bytes, std::size_t& pos, std::size_t width) {
    if (bytes.size() - pos < width) {
      facts_.rules.Add(Rule::kTruncated);
      return false;
    }
    pos += width;
    return true;
  }

  bool Deeper(int depth) {
    if (depth > facts_.depth) facts_.depth = depth;
    if (depth > model::kDepthLimit) {
      facts_.rules.Add(Rule::kDepthAboveLibprotobuf);
      return false;
    }
    return true;
  }

  // A record of an unknown field (or of a known one with the wrong wire
  // type), skipped as its wire type says.
  bool Skip(Bytes bytes, std::size_t& pos, std::uint32_t number, int wire_type,
            int depth) {
    std::uint64_t value = 0;
    int length = 0;
    std::size_t n = 0;
    switch (wire_type) {
      case 0:
        return Varint(bytes, pos, value, length);
      case 1:
        return Fixed(bytes, pos, 8);
      case 5:
        return Fixed(bytes, pos, 4);
      case 2:
        if (!Length(bytes, pos, n)) return false;
        pos += n;
        return true;
      case 3:
        facts_.rules.Add(Rule::kGroup);
        InPayload(depth);
        return Group(bytes, pos, number, depth + 1);
      default:
        return false;
    }
  }

  // The records of a group, up to its end-group of `number`.
  bool Group(Bytes bytes, std::size_t& pos, std::uint32_t number, int depth) {
    if (!Deeper(depth)) return false;
    while (true) {
      if (pos >= bytes.size()) {
        facts_.rules.Add(Rule::kTruncated);
        return false;
      }
      std::uint32_t inner = 0;
      int wire_type = 0;
      if (!Tag(bytes, pos, inner, wire_type)) return false;
      if (wire_type == 4) {
        if (inner == number) return true;
        facts_.rules.Add(Rule::kGroupUnmatched);
        return false;
      }
      if (!Skip(bytes, pos, inner, wire_type, depth)) return false;
    }
  }

  void Value(const model::Field& f, std::uint64_t v) {
    switch (f.kind) {
      case model::Kind::kInt32:
        if (!FitsInt32(v)) facts_.rules.Add(Rule::kValueAbove32Bits);
        break;
      case model::Kind::kUint32:
      case model::Kind::kSint32:
        if (v > 0xFFFFFFFFu) facts_.rules.Add(Rule::kValueAbove32Bits);
        break;
      case model::Kind::kBool:
        if (v > 1) facts_.rules.Add(Rule::kBoolAbove1);
        break;
      case model::Kind::kEnum: {
        if (!FitsInt32(v)) facts_.rules.Add(Rule::kValueAbove32Bits);
        const model::EnumType& e =
            schema_.enums[static_cast<std::size_t>(f.enum_index)];
        if (!e.closed) break;
        const auto as_int32 = static_cast<std::int32_t>(v & 0xFFFFFFFFu);
        bool known = false;
        for (std::int32_t x : e.values) known = known || x == as_int32;
        if (!known) facts_.rules.Add(Rule::kClosedEnumUnknown);
        break;
      }
      default:
        break;
    }
  }

  // A packed record's payload: `values` gets the element count.
  bool Packed(const model::Field& f, Bytes payload, std::size_t& values) {
    if (!f.packed) facts_.rules.Add(Rule::kPackedOnUnpackedField);
    if (payload.empty()) facts_.rules.Add(Rule::kPackedEmpty);
    const int wt = model::KindWireType(f.kind);
    if (wt != 0) {
      const std::size_t width = wt == 1 ? 8 : 4;
      if (payload.size() % width != 0) {
        facts_.rules.Add(Rule::kPackedFixedMisaligned);
        return false;
      }
      values = payload.size() / width;
      return true;
    }
    std::size_t pos = 0;
    while (pos < payload.size()) {
      std::uint64_t v = 0;
      int length = 0;
      const Read r = ReadVarint(payload, pos, v, length);
      if (r == Read::kTruncated) {
        facts_.rules.Add(Rule::kPackedVarintTruncated);
        return false;
      }
      if (r == Read::kOverlong) {
        facts_.rules.Add(Rule::kVarintOverlong);
        return false;
      }
      if (length == 10 && payload[pos - 1] > 1) {
        facts_.rules.Add(Rule::kVarintHighBits);
      } else if (length > MinimalVarintLength(v)) {
        facts_.rules.Add(Rule::kVarintNonMinimal);
      }
      Value(f, v);
      ++values;
    }
    return true;
  }

  // -0.0 (only the sign bit set, little-endian) in an implicit-presence
  // float or double.
  void NegativeZero(const model::Field& f, Bytes value) {
    if (f.has_presence || f.repeated ||
        (f.kind != model::Kind::kFloat && f.kind != model::Kind::kDouble)) {
      return;
    }
    for (std::size_t i = 0; i + 1 < value.size(); ++i) {
      if (value[i] != 0) return;
    }
    if (value.back() == 0x80) facts_.rules.Add(Rule::kNegativeZeroImplicit);
  }

  // A record of a known field; `values` gets how many values it holds.
  bool Known(const model::Field& f, Bytes bytes, std::size_t& pos,
             int wire_type, int depth, std::size_t& values) {
    const int expected = model::KindWireType(f.kind);
    const bool packed_form =
        wire_type == 2 && f.repeated && model::KindPackable(f.kind);
    if (wire_type != expected && !packed_form) {
      facts_.rules.Add(Rule::kWireTypeMismatch);
      return Skip(bytes, pos, f.number, wire_type, depth);
    }
    if (packed_form) {
      std::size_t n = 0;
      if (!Length(bytes, pos, n)) return false;
      InPayload(depth);
      const Bytes payload = bytes.subspan(pos, n);
      pos += n;
      return Packed(f, payload, values);
    }
    if (f.repeated && f.packed) facts_.rules.Add(Rule::kUnpackedOnPackedField);
    values = 1;
    std::uint64_t v = 0;
    int length = 0;
    std::size_t n = 0;
    switch (expected) {
      case 0:
        if (!Varint(bytes, pos, v, length)) return false;
        Value(f, v);
        return true;
      case 1:
      case 5: {
        const std::size_t width = expected == 1 ? 8 : 4;
        const std::size_t at = pos;
        if (!Fixed(bytes, pos, width)) return false;
        NegativeZero(f, bytes.subspan(at, width));
        return true;
      }
      default:
        break;
    }
    if (!Length(bytes, pos, n)) return false;
    InPayload(depth);
    const Bytes payload = bytes.subspan(pos, n);
    pos += n;
    if (f.kind == model::Kind::kMessage) {
      if (!Deeper(depth + 1)) return false;
      return Message(f.message_index, payload, depth + 1);
    }
    if (n > facts_.max_length) facts_.max_length = n;
    if (f.kind == model::Kind::kString) {
      if (!model::ValidUtf8(payload)) {
        facts_.rules.Add(f.check_utf8 ? Rule::kUtf8InvalidChecked
                                      : Rule::kUtf8InvalidUnchecked);
      }
      if (std::find(payload.begin(), payload.end(), 0) != payload.end()) {
        facts_.rules.Add(Rule::kStringWithNul);
      }
    }
    return true;
  }

  const model::Schema& schema_;
  InputFacts facts_;
  bool in_payload_ = false;  // of the current top-level record
};

}  // namespace

std::string_view RuleName(Rule rule) {
  return kNames[static_cast<std::size_t>(rule)];
}

std::string RuleSet::Name() const {
  std::string out;
  for (int i = 0; i < kRuleCount; ++i) {
    const auto rule = static_cast<Rule>(i);
    if (!Has(rule)) continue;
    if (!out.empty()) out += '+';
    out += RuleName(rule);
  }
  return out.empty() ? "plain" : out;
}

InputFacts Walk(const model::Schema& schema, int type,
                std::span<const std::uint8_t> input) {
  Walker w(schema);
  w.Message(type, input, 0);
  return w.facts();
}

}  // namespace fairwire::wire::rules
