#include "fairwire/text_format/unknown_fields.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "fairwire/text_format/format.h"

namespace fairwire::wire {
namespace {

// One parsed unknown record; `group` holds a group's records.
struct Record {
  std::uint32_t number = 0;
  std::uint8_t wire_type = 0;
  std::uint64_t value = 0;  // varint, fixed32 or fixed64
  std::string_view bytes;   // length-delimited payload
  std::vector<Record> group;
};

// Reads records the way CodedInputStream-based WireFormat::SkipMessage does
// (the parser text format uses to decide whether a length-delimited unknown
// field is a message): tags and lengths are varints of up to 10 bytes
// truncated to 32 bits, a length of 2^31 or more fails, groups spend one unit
// of the budget per level.
class RecordParser {
 public:
  RecordParser(std::string_view data, int group_budget)
      : pos_(data.data()),
        end_(data.data() + data.size()),
        budget_(group_budget) {}

  // True if the whole input is a sequence of records, ending at its end.
  bool ParseAll(std::vector<Record>* out) {
    std::uint32_t last_tag = 0;
    return ParseSet(out, &last_tag) == Stop::kEndOfInput;
  }

 private:
  enum class Stop { kEndOfInput, kTag, kFail };

  bool ReadVarint(std::uint64_t* value) {
    std::uint64_t result = 0;
    for (int i = 0; i < 10; ++i) {
      if (pos_ == end_) return false;
      const auto byte = static_cast<std::uint8_t>(*pos_++);
      result |= static_cast<std::uint64_t>(byte & 0x7F) << (7 * i);
      if ((byte & 0x80) == 0) {
        *value = result;
        return true;
      }
    }
    return false;
  }

  bool ReadFixed(int size, std::uint64_t* value) {
    if (end_ - pos_ < size) return false;
    std::uint64_t result = 0;
    for (int i = 0; i < size; ++i) {
      result |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(*pos_++))
                << (8 * i);
    }
    *value = result;
    return true;
  }

  // Records until the end of input (kEndOfInput), or a zero or end-group tag
  // (kTag, the tag in *last_tag), or a malformed record (kFail).
  Stop ParseSet(std::vector<Record>* out, std::uint32_t* last_tag) {
    while (true) {
      *last_tag = 0;
      if (pos_ == end_) return Stop::kEndOfInput;
      std::uint64_t tag64 = 0;
      if (!ReadVarint(&tag64)) return Stop::kTag;
      const auto tag = static_cast<std::uint32_t>(tag64);
      *last_tag = tag;
      if (tag == 0 || (tag & 7) == 4) return Stop::kTag;
      if (!ParseField(tag, out)) return Stop::kFail;
    }
  }

  bool ParseField(std::uint32_t tag, std::vector<Record>* out) {
    Record record;
    record.number = tag >> 3;
    record.wire_type = static_cast<std::uint8_t>(tag & 7);
    if (record.number == 0) return false;
    switch (record.wire_type) {
      case 0:
        if (!ReadVarint(&record.value)) return false;
        break;
      case 1:
        if (!ReadFixed(8, &record.value)) return false;
        break;
      case 5:
        if (!ReadFixed(4, &record.value)) return false;
        break;
      case 2: {
        std::uint64_t length64 = 0;
        if (!ReadVarint(&length64)) return false;
        const auto length = static_cast<std::uint32_t>(length64);
        if (length > static_cast<std::uint32_t>(
                         std::numeric_limits<std::int32_t>::max()) ||
            length > static_cast<std::uint64_t>(end_ - pos_)) {
          return false;
        }
        record.bytes = std::string_view(pos_, length);
        pos_ += length;
        break;
      }
      case 3: {
        if (--budget_ < 0) return false;
        std::uint32_t last_tag = 0;
        if (ParseSet(&record.group, &last_tag) != Stop::kTag ||
            last_tag != ((record.number << 3) | 4)) {
          return false;
        }
        ++budget_;
        break;
      }
      default:
        return false;
    }
    out->push_back(std::move(record));
    return true;
  }

  const char* pos_;
  const char* end_;
  int budget_;
};

void AppendIndent(int indent, std::string* out) {
  out->append(static_cast<std::size_t>(indent) * 2, ' ');
}

void AppendRecords(const std::vector<Record>& records, int budget, int indent,
                   std::string* out) {
  for (const Record& record : records) {
    AppendIndent(indent, out);
    *out += std::to_string(record.number);
    switch (record.wire_type) {
      case 0:
        *out += ": ";
        *out += std::to_string(record.value);
        *out += '\n';
        break;
      case 1:
      case 5: {
        char hex[24];
        std::snprintf(hex, sizeof(hex),
                      record.wire_type == 1 ? "0x%016" PRIx64 : "0x%08" PRIx64,
                      record.value);
        *out += ": ";
        *out += hex;
        *out += "\n";
        break;
      }
      case 2: {
        std::vector<Record> nested;
        if (!record.bytes.empty() && budget > 0 &&
            RecordParser(record.bytes, budget).ParseAll(&nested)) {
          *out += " {\n";
          AppendRecords(nested, budget - 1, indent + 1, out);
          AppendIndent(indent, out);
          *out += "}\n";
        } else {
          *out += ": \"";
          *out += CEscape(record.bytes);
          *out += "\"\n";
        }
        break;
      }
      default:  // a group: text format does not spend the budget on groups
        *out += " {\n";
        AppendRecords(record.group, budget, indent + 1, out);
        AppendIndent(indent, out);
        *out += "}\n";
        break;
    }
  }
}

}  // namespace

bool AppendUnknownFieldsText(std::string_view records, int indent,
                             std::string* out) {
  std::vector<Record> parsed;
  // The decoder already bounded group nesting; no budget applies here.
  if (!RecordParser(records, std::numeric_limits<int>::max())
           .ParseAll(&parsed)) {
    return false;
  }
  AppendRecords(parsed, kUnknownFieldRecursionLimit, indent, out);
  return true;
}

bool UnknownFieldNumbers(std::string_view records,
                         std::vector<std::uint32_t>* numbers) {
  std::vector<Record> parsed;
  if (!RecordParser(records, std::numeric_limits<int>::max())
           .ParseAll(&parsed)) {
    return false;
  }
  for (const Record& record : parsed) numbers->push_back(record.number);
  return true;
}

namespace internal {

bool ParsesAsUnknownFieldSet(std::string_view bytes, int group_budget) {
  std::vector<Record> parsed;
  return RecordParser(bytes, group_budget).ParseAll(&parsed);
}

}  // namespace internal
}  // namespace fairwire::wire
