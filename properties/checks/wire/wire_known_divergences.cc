// The known-divergences file's parser.
#include "fairwire/checks/wire_known_divergences.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace fairwire::wire::kit {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
    s.remove_prefix(1);
  }
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
    s.remove_suffix(1);
  }
  return s;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Hex digits, spaces between bytes allowed.
std::optional<Bytes> ParseHex(std::string_view s) {
  Bytes out;
  int high = -1;
  for (char c : s) {
    if (c == ' ') {
      if (high >= 0) return std::nullopt;  // a byte split by a space
      continue;
    }
    const int d = HexDigit(c);
    if (d < 0) return std::nullopt;
    if (high < 0) {
      high = d;
    } else {
      out.push_back(static_cast<std::uint8_t>(high * 16 + d));
      high = -1;
    }
  }
  if (high >= 0) return std::nullopt;
  return out;
}

bool ValidVerdict(std::string_view v) {
  constexpr std::string_view kDesign = "documented design choice:";
  if (v == "likely bug") return true;
  return v.substr(0, kDesign.size()) == kDesign &&
         !Trim(v.substr(kDesign.size())).empty();
}

// A class name's parting (before '/') and rule names (split at '+').
std::string_view PartingOf(std::string_view class_name) {
  return class_name.substr(0, class_name.find('/'));
}

std::vector<std::string_view> RulesOf(std::string_view class_name) {
  std::vector<std::string_view> out;
  const std::size_t slash = class_name.find('/');
  if (slash == std::string_view::npos) return out;
  std::string_view rest = class_name.substr(slash + 1);
  while (!rest.empty()) {
    const std::size_t plus = rest.find('+');
    out.push_back(rest.substr(0, plus));
    if (plus == std::string_view::npos) break;
    rest.remove_prefix(plus + 1);
  }
  return out;
}

// Whether a class `listed` with `match: includes` covers `seen`.
bool Includes(std::string_view listed, std::string_view seen) {
  if (PartingOf(listed) != PartingOf(seen)) return false;
  const std::vector<std::string_view> have = RulesOf(seen);
  for (std::string_view rule : RulesOf(listed)) {
    if (std::find(have.begin(), have.end(), rule) == have.end()) return false;
  }
  return true;
}

const KnownDivergence* FindExact(const KnownDivergences& list,
                                 std::string_view class_name) {
  for (const KnownDivergence& d : list.entries) {
    if (d.class_name == class_name) return &d;
  }
  return nullptr;
}

// Checks a finished block; "" when it is whole.
std::string Problem(const KnownDivergence& d, bool has_input,
                    const KnownDivergences& so_far) {
  if (d.class_name.empty()) return "no class";
  if (d.type.empty()) return "no type";
  if (!has_input) return "no input";
  if (d.why.empty()) return "no why";
  if (!ValidVerdict(d.verdict)) {
    return "verdict must be \"likely bug\" or \"documented design choice: "
           "<where>\"";
  }
  if (FindExact(so_far, d.class_name) != nullptr) {
    return "class " + d.class_name + " listed twice";
  }
  if (d.includes &&
      RulesOf(d.class_name) == std::vector<std::string_view>{"plain"}) {
    return "match: includes needs a class with rules, not plain";
  }
  return "";
}

}  // namespace

bool KnownDivergence::Covers(std::string_view seen) const {
  return class_name == seen || (includes && Includes(class_name, seen));
}

const KnownDivergence* KnownDivergences::Find(
    std::string_view class_name) const {
  if (const KnownDivergence* d = FindExact(*this, class_name)) return d;
  for (const KnownDivergence& d : entries) {
    if (d.Covers(class_name)) return &d;
  }
  return nullptr;
}

std::optional<KnownDivergences> ParseKnownDivergences(std::string_view text,
                                                      std::string* error) {
  KnownDivergences out;
  KnownDivergence current;
  bool open = false;
  bool has_input = false;
  int line_number = 0;
  auto fail = [&](int at, const std::string& why) {
    if (error != nullptr) *error = "line " + std::to_string(at) + ": " + why;
    return std::nullopt;
  };
  auto close = [&]() -> bool {
    if (!open) return true;
    const std::string p = Problem(current, has_input, out);
    if (!p.empty()) return false;
    out.entries.push_back(std::move(current));
    current = KnownDivergence{};
    open = false;
    has_input = false;
    return true;
  };
  while (true) {
    const std::size_t end = text.find('\n');
    const std::string_view raw = text.substr(0, end);
    ++line_number;
    const std::string_view line = Trim(raw);
    if (line.empty()) {
      if (!close()) {
        return fail(current.line, Problem(current, has_input, out));
      }
    } else if (line.front() != '#') {
      const std::size_t colon = line.find(':');
      if (colon == std::string_view::npos) {
        return fail(line_number, "expected \"key: value\"");
      }
      const std::string_view key = Trim(line.substr(0, colon));
      const std::string value(Trim(line.substr(colon + 1)));
      if (!open) {
        if (key != "class") {
          return fail(line_number, "a block starts with \"class:\"");
        }
        open = true;
        current.line = line_number;
      }
      if (key == "class") {
        if (!current.class_name.empty()) {
          return fail(line_number, "two classes in one block");
        }
        current.class_name = value;
      } else if (key == "type") {
        current.type = value;
      } else if (key == "input") {
        auto bytes = ParseHex(value);
        if (!bytes) return fail(line_number, "input is not hex bytes");
        current.input = std::move(*bytes);
        has_input = true;
      } else if (key == "verdict") {
        current.verdict = value;
      } else if (key == "why") {
        current.why = value;
      } else if (key == "match") {
        if (value != "exact" && value != "includes") {
          return fail(line_number, "match must be \"exact\" or \"includes\"");
        }
        current.includes = value == "includes";
      } else {
        return fail(line_number, "unknown key \"" + std::string(key) + "\"");
      }
    }
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  if (!close()) return fail(current.line, Problem(current, has_input, out));
  return out;
}

}  // namespace fairwire::wire::kit
