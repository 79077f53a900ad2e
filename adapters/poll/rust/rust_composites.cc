// The crate's C ABI (documented at the top of src/lib.rs) behind
// CompositeUnderTest.
#include "rust_composites.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fairwire/scenarios/poll_script_codec.h"

extern "C" {
std::int32_t fairwire_rust_poll_run(const char* composite,
                                    const std::uint8_t* script,
                                    std::size_t script_len, std::uint8_t** out,
                                    std::size_t* out_len);
void fairwire_rust_poll_free(std::uint8_t* out, std::size_t out_len);
const char* fairwire_rust_poll_composites(void);
}

namespace fairwire::poll::rust {
namespace {

CompositeRun Run(const std::string& name, const PollScript& script) {
  const std::vector<std::uint8_t> bytes = EncodePollScript(script);
  std::uint8_t* out = nullptr;
  std::size_t out_len = 0;
  const std::int32_t code = fairwire_rust_poll_run(
      name.c_str(), bytes.data(), bytes.size(), &out, &out_len);
  if (code != 0) {
    return {std::nullopt, name + ": fairwire_rust_poll_run returned " +
                              std::to_string(code) +
                              (code == 1   ? " (no such composite)"
                               : code == 2 ? " (script refused)"
                                           : " (the crate panicked)")};
  }
  DecodedObservation decoded =
      DecodeObservation(std::span<const std::uint8_t>(out, out_len));
  fairwire_rust_poll_free(out, out_len);
  if (!decoded.observation) {
    return {std::nullopt,
            name + ": undecodable observation: " + decoded.error.reason +
                " at byte " + std::to_string(decoded.error.offset)};
  }
  return {std::move(decoded.observation), {}};
}

}  // namespace

std::vector<CompositeUnderTest> RustComposites() {
  std::vector<CompositeUnderTest> out;
  std::istringstream lines(fairwire_rust_poll_composites());
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name, min, max, kind, probe;
    if (!std::getline(fields, name, '\t') || !std::getline(fields, min, '\t') ||
        !std::getline(fields, max, '\t')) {
      continue;
    }
    CompositeUnderTest c;
    c.name = name;
    c.min_children = std::stoul(min);
    c.max_children = std::stoul(max);
    c.run = [name](const PollScript& s) { return Run(name, s); };
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace fairwire::poll::rust
