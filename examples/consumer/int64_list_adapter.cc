// The consumer's own decoder (int64_list.cc) through the installed wire kit:
// a decoder of two fields, so its profile says it reads only r_int64 (22)
// and p_int64 (42) of fairwire.test.AllKinds, and skips the rest without
// looking inside. The re-encoding is this project's own: r_int64 unpacked,
// p_int64 packed.
#include <string>

#include "fairwire/checks/wire_adapter.h"
#include "int64_list.h"

namespace fairwire::wire::kit {
namespace {

void PutVarint(std::uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

class Int64ListAdapter final : public DecoderAdapter {
 public:
  std::string name() const override { return "consumer int64_list"; }

  Profile profile() const override {
    static constexpr std::uint32_t kReads[] = {22, 42};
    Profile p;
    p.reads_only = kReads;
    p.validates_skipped = false;
    p.documented_at = "examples/consumer/int64_list.h";
    return p;
  }

  std::optional<Decoded> Decode(std::string_view full_name,
                                std::span<const std::uint8_t> input) override {
    if (full_name != "fairwire.test.AllKinds") return std::nullopt;
    Decoded out;
    const std::optional<consumer::Int64Lists> lists =
        consumer::DecodeInt64Lists(input);
    if (!lists) {
      out.reason = "DecodeInt64Lists: not a valid message";
      return out;
    }
    out.accepted = true;
    for (std::int64_t v : lists->r_int64) {
      PutVarint(22 << 3, out.reencoded);
      PutVarint(static_cast<std::uint64_t>(v), out.reencoded);
    }
    if (!lists->p_int64.empty()) {
      std::string packed;
      for (std::int64_t v : lists->p_int64) {
        PutVarint(static_cast<std::uint64_t>(v), packed);
      }
      PutVarint((42 << 3) | 2, out.reencoded);
      PutVarint(packed.size(), out.reencoded);
      out.reencoded += packed;
    }
    return out;
  }
};

}  // namespace

DecoderAdapter& Adapter() {
  static Int64ListAdapter adapter;
  return adapter;
}

}  // namespace fairwire::wire::kit
