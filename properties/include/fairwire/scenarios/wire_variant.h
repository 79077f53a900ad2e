// The encoding variants of a message: the ways of writing one typed message
// that every conforming decoder reads as the same value (packed, unpacked,
// chunks, interleaved, padded varints, ...), and the writer of each. The
// wire_packed_unpacked target and the encoding-variant properties check
// fairwire::wire and libprotobuf on them (fairwire/scenarios/wire_case.h).
#ifndef FAIRWIRE_SCENARIOS_WIRE_VARIANT_H_
#define FAIRWIRE_SCENARIOS_WIRE_VARIANT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "fairwire/models/wire_model.h"

namespace fairwire::wire::scenario {

// How a message is written: every variant decodes to the same value.
struct Variant {
  enum class Packing : std::uint8_t {
    kDeclared,  // as the schema declares
    kPacked,    // every packable repeated field packed
    kUnpacked,  // every packable repeated field unpacked
    kMixed,     // runs of `chunk` (or 2) elements, packed and unpacked in turn
  };
  const char* name = "declared";
  Packing packing = Packing::kDeclared;
  int chunk = 0;  // packed records of at most `chunk` elements (0: one)
  bool empty_packed = false;  // an empty packed record before each packed field
  bool interleave = false;    // fields' records round-robin
  int pad = 0;                // extra bytes on every varint value and length
  bool pad_tags = false;      // tags padded to 5 bytes
  bool unknown_first = false;  // unknown records before the known fields
};

// Every variant the checks use.
const std::vector<Variant>& AllVariants();

// The message written in `variant`.
std::string EncodeVariant(const model::Schema& schema,
                          const model::Message& message,
                          const Variant& variant);

}  // namespace fairwire::wire::scenario

#endif  // FAIRWIRE_SCENARIOS_WIRE_VARIANT_H_
