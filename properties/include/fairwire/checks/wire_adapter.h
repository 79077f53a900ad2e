// The wire kit's adapter contract (version 1): how a protobuf decoder that is
// not fairwire's own is checked by fairwire's oracles. docs/design.md, "The
// wire kit", explains it; this header is the contract.
//
// The decoder under test is given the kit's test message types: the .proto
// files fairwire installs (share/fairwire/proto: fairwire_test.proto with
// fairwire.test.AllKinds and fairwire.test.Nested, proto2;
// fairwire_test3.proto with fairwire.test.AllKinds3 and
// fairwire.test.Nested3, proto3), compiled by the decoder's own code
// generator. For each input the kit names
// a type and hands over bytes; the adapter decodes them and says:
//   - accepted, with the decoded message written back by the decoder's own
//     encoder (`reencoded`), or
//   - rejected, with the decoder's reason when it has one.
//
// The kit does not compare the re-encoding as bytes. It parses it with
// libprotobuf and compares the canonical forms (wire_adapter_compare.h), so
// the decoder may write fields in any order, packed or not, with unknown
// fields anywhere. What it decoded must be what the re-encoding says, so a
// bug in the decoder's encoder shows as a divergence too: the report says
// "decoded or re-encoded".
//
// A crash, a sanitizer report, a timeout or a stack overflow inside the
// decoder is a finding about the decoder (its input is saved first, like any
// finding); the adapter must not catch them. An adapter must not throw.
//
// An adapter is one class and one function: the kit's targets call
// fairwire::wire::kit::Adapter(), which the adapter's source defines.
//
//   class MyAdapter final : public fairwire::wire::kit::DecoderAdapter { ... };
//   fairwire::wire::kit::DecoderAdapter& fairwire::wire::kit::Adapter() {
//     static MyAdapter adapter;
//     return adapter;
//   }
#ifndef FAIRWIRE_CHECKS_WIRE_ADAPTER_H_
#define FAIRWIRE_CHECKS_WIRE_ADAPTER_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace fairwire::wire::kit {

// The version of this contract; an adapter states the one it was written to.
inline constexpr int kContractVersion = 1;

// What the decoder under test did with one input.
struct Decoded {
  bool accepted = false;
  std::string reencoded;  // accepted: the message, by the decoder's encoder
  std::string reason;     // rejected: the decoder's reason, "" if it has none
};

// Where the decoder differs from libprotobuf on purpose. The comparison
// masks exactly what is declared here; every other difference is a
// divergence. The defaults are libprotobuf's own behaviour.
struct Profile {
  // Unknown fields are not kept: the reference's unknown records are dropped
  // before comparing. With keeps_closed_enum_unknowns, all but the varints
  // of closed-enum fields are: an unknown closed-enum value is one the
  // decoder keeps.
  bool drops_unknown_fields = false;
  // A value outside a closed enum is kept in its field, as an int32, instead
  // of going to the unknown fields: both sides are compared with such values
  // truncated to int32 (the re-encoding's value lands in the unknown fields
  // when libprotobuf reparses it).
  bool keeps_closed_enum_unknowns = false;
  // Groups (wire types 3 and 4) are not supported: inputs with a group are
  // not compared.
  bool no_groups = false;
  // proto3 strings are not checked for UTF-8: inputs with an invalid one are
  // not compared.
  bool no_utf8_check = false;
  // The deepest nesting it accepts (root: 0); libprotobuf's is 100. Inputs
  // nested deeper than the smaller of the two are not compared.
  int max_depth = 100;
  // Fixed maximum counts: inputs with more values in one repeated field, or a
  // longer string or bytes value, are not compared.
  std::size_t max_count = std::numeric_limits<std::size_t>::max();
  std::size_t max_length = std::numeric_limits<std::size_t>::max();
  // A decoder that reads only some fields of the root message (their
  // numbers; empty: all of them): only those are compared, and the root's
  // unknown records are not.
  std::span<const std::uint32_t> reads_only;
  // With reads_only: false when the decoder does not check what it skips.
  // Then an input that libprotobuf rejects for a malformation inside the
  // payload of a root field it does not read (a nested message, a packed
  // run, a group) is not compared when the decoder accepts it.
  bool validates_skipped = true;
  // Fields that the decoder's schema leaves out (their numbers, in the type
  // being decoded, wherever that type appears inside it too): it skips them
  // as unknown records, without looking inside. They are compared in neither
  // form, and an input that libprotobuf rejects only for a malformation
  // inside one of them at the root is not compared when the decoder accepts
  // it. For a decoder whose generator cannot represent a field of the kit's
  // schema (nanopb built with 16-bit field numbers, for instance).
  std::span<const std::uint32_t> omits;
  // Where each choice above is documented (a URL, a file and line).
  std::string_view documented_at;
};

// A decoder under test.
class DecoderAdapter {
 public:
  virtual ~DecoderAdapter() = default;
  // The decoder's name and version, as reports show it: "protobuf-c 1.4.1".
  virtual std::string name() const = 0;
  // The contract version it implements (kContractVersion when written).
  virtual int contract_version() const { return kContractVersion; }
  // Its declared differences.
  virtual Profile profile() const = 0;
  // Decodes `input` as the message type `full_name` (for instance
  // "fairwire.test.AllKinds"); nullopt when it has no such type.
  virtual std::optional<Decoded> Decode(
      std::string_view full_name, std::span<const std::uint8_t> input) = 0;
};

// The adapter under test, defined by the adapter's source.
DecoderAdapter& Adapter();

}  // namespace fairwire::wire::kit

#endif  // FAIRWIRE_CHECKS_WIRE_ADAPTER_H_
