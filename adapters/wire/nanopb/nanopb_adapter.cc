// The wire kit's adapter for nanopb: pb_decode into the generated struct
// (every field allocated, see fairwire_test.options), then pb_encode of that
// struct for the re-encoding, and pb_release.
#include <pb_decode.h>
#include <pb_encode.h>

#include <limits>
#include <string>

#include "fairwire/checks/wire_adapter.h"
#include "nanopb/fairwire_test.pb.h"
#include "nanopb/fairwire_test3.pb.h"

namespace fairwire::wire::kit {
namespace {

// p_max (536870911): Debian's nanopb has 16-bit field numbers, see
// fairwire_test.options.
constexpr std::uint32_t kOmitted[] = {536870911};

std::string ErrorOf(const char* what, const char* message, std::size_t offset) {
  return std::string(what) + ": " +
         (message != nullptr ? message : "(no message)") + " at byte " +
         std::to_string(offset);
}

// Decodes `input` as Message, described by `fields`.
template <typename Message>
Decoded DecodeAs(const pb_msgdesc_t* fields,
                 std::span<const std::uint8_t> input) {
  Decoded out;
  Message message{};
  pb_istream_t in = pb_istream_from_buffer(input.data(), input.size());
  if (!pb_decode(&in, fields, &message)) {  // released by pb_decode
    out.reason =
        ErrorOf("pb_decode", PB_GET_ERROR(&in), input.size() - in.bytes_left);
    return out;
  }
  out.accepted = true;
  std::size_t size = 0;
  if (pb_get_encoded_size(&size, fields, &message)) {
    out.reencoded.resize(size);
    pb_ostream_t os = pb_ostream_from_buffer(
        reinterpret_cast<pb_byte_t*>(out.reencoded.data()), size);
    // An encoder failure leaves a short re-encoding, which the kit reports
    // as a divergence of the decoded-or-re-encoded message.
    if (!pb_encode(&os, fields, &message))
      out.reencoded.resize(os.bytes_written);
  }
  pb_release(fields, &message);
  return out;
}

class NanopbAdapter final : public DecoderAdapter {
 public:
  std::string name() const override { return NANOPB_VERSION; }

  Profile profile() const override {
    Profile p;
    p.drops_unknown_fields = true;
    // An enum field is a C enum: any int32 value is kept.
    p.keeps_closed_enum_unknowns = true;
    // Built without PB_VALIDATE_UTF8, nanopb's default.
    p.no_utf8_check = true;
    // pb_skip_field knows no group wire type: "invalid wire_type".
    p.no_groups = true;
    // pb_size_t is 16 bits (no PB_FIELD_32BIT): array counts and bytes
    // lengths stop at 65535.
    p.max_count = std::numeric_limits<std::uint16_t>::max();
    p.max_length = std::numeric_limits<std::uint16_t>::max();
    p.omits = kOmitted;
    p.documented_at =
        "https://jpa.kapsi.fi/nanopb/docs/reference.html (compilation "
        "options: PB_FIELD_32BIT, PB_VALIDATE_UTF8); "
        "https://jpa.kapsi.fi/nanopb/docs/ (features and limitations: "
        "unknown fields are ignored, enums are C enums)";
    return p;
  }

  std::optional<Decoded> Decode(std::string_view full_name,
                                std::span<const std::uint8_t> input) override {
    if (full_name == "fairwire.test.AllKinds") {
      return DecodeAs<fairwire_test_AllKinds>(fairwire_test_AllKinds_fields,
                                              input);
    }
    if (full_name == "fairwire.test.Nested") {
      return DecodeAs<fairwire_test_Nested>(fairwire_test_Nested_fields, input);
    }
    if (full_name == "fairwire.test.AllKinds3") {
      return DecodeAs<fairwire_test_AllKinds3>(fairwire_test_AllKinds3_fields,
                                               input);
    }
    if (full_name == "fairwire.test.Nested3") {
      return DecodeAs<fairwire_test_Nested3>(fairwire_test_Nested3_fields,
                                             input);
    }
    return std::nullopt;
  }
};

}  // namespace

DecoderAdapter& Adapter() {
  static NanopbAdapter adapter;
  return adapter;
}

}  // namespace fairwire::wire::kit
