// The wire kit's adapter for protobuf-c: protobuf_c_message_unpack with the
// generated descriptor, then protobuf_c_message_pack for the re-encoding.
// One adapter serves every type through protobuf-c's descriptors.
#include <protobuf-c/protobuf-c.h>

#include <string>

#include "fairwire/checks/wire_adapter.h"
#include "fairwire_test.pb-c.h"

namespace fairwire::wire::kit {
namespace {

class ProtobufCAdapter final : public DecoderAdapter {
 public:
  std::string name() const override {
    return std::string("protobuf-c ") + protobuf_c_version();
  }

  Profile profile() const override {
    Profile p;
    // A value outside a closed enum stays in the field as an int32.
    p.keeps_closed_enum_unknowns = true;
    // ProtobufCWireType: "Start group" and "end group" wire types are
    // unsupported.
    p.no_groups = true;
    p.documented_at =
        "https://github.com/protobuf-c/protobuf-c/issues/738 (closed enums); "
        "protobuf-c/protobuf-c.h, ProtobufCWireType (groups)";
    return p;
  }

  std::optional<Decoded> Decode(std::string_view full_name,
                                std::span<const std::uint8_t> input) override {
    const ProtobufCMessageDescriptor* descriptor = nullptr;
    if (full_name == "fairwire.test.AllKinds") {
      descriptor = &fairwire__test__all_kinds__descriptor;
    } else if (full_name == "fairwire.test.Nested") {
      descriptor = &fairwire__test__nested__descriptor;
    } else {
      return std::nullopt;  // proto3 types: see CMakeLists.txt
    }
    Decoded out;
    ProtobufCMessage* m = protobuf_c_message_unpack(descriptor, nullptr,
                                                    input.size(), input.data());
    if (m == nullptr) {
      out.reason = "protobuf_c_message_unpack returned NULL";
      return out;
    }
    out.accepted = true;
    out.reencoded.resize(protobuf_c_message_get_packed_size(m));
    protobuf_c_message_pack(
        m, reinterpret_cast<std::uint8_t*>(out.reencoded.data()));
    protobuf_c_message_free_unpacked(m, nullptr);
    return out;
  }
};

}  // namespace

DecoderAdapter& Adapter() {
  static ProtobufCAdapter adapter;
  return adapter;
}

}  // namespace fairwire::wire::kit
