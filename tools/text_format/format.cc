#include "fairwire/text_format/format.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace fairwire::wire {
namespace {

// printf("%.*g", digits, value) into a std::string.
std::string PrintG(int digits, double value) {
  char buffer[48];
  const int n = std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
  return std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0);
}

// protobuf's safe_strtof: the whole text parses, without a range error.
bool ReadsBackAs(const std::string& text, float value) {
  char* end = nullptr;
  errno = 0;
  const float parsed = std::strtof(text.c_str(), &end);
  return !text.empty() && *end == '\0' && errno == 0 && parsed == value;
}

}  // namespace

std::string FormatFloat(float value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::string text = PrintG(6, static_cast<double>(value));
  if (!ReadsBackAs(text, value)) text = PrintG(9, static_cast<double>(value));
  return text;
}

std::string FormatDouble(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::string text = PrintG(15, value);
  if (std::strtod(text.c_str(), nullptr) != value) text = PrintG(17, value);
  return text;
}

std::string CEscape(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (const char c : bytes) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\"':
        out += "\\\"";
        break;
      case '\'':
        out += "\\\'";
        break;
      case '\\':
        out += "\\\\";
        break;
      default: {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < ' ' || byte > '~') {
          out += '\\';
          out += static_cast<char>('0' + (byte >> 6));
          out += static_cast<char>('0' + ((byte >> 3) & 7));
          out += static_cast<char>('0' + (byte & 7));
        } else {
          out += c;
        }
      }
    }
  }
  return out;
}

}  // namespace fairwire::wire
