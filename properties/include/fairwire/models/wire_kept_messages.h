// Model messages kept for decoding into again and again. model::Clear keeps
// the memory a message's vectors hold, but only while the message stays of
// one schema: cleared to a type with fewer fields, it frees the rest, and
// allocates them again when it goes back. A fuzz target whose inputs
// alternate between two roots (wire_packed_unpacked: AllKinds and
// AllKinds3) then allocates in one call what it freed in an earlier one,
// and libFuzzer re-runs every such input as a possible leak (a fifth of
// that target's executions over its corpus). KeptMessages keeps one
// message for each of the last few (schema, type) pairs it was asked for.
#ifndef FAIRWIRE_MODELS_WIRE_KEPT_MESSAGES_H_
#define FAIRWIRE_MODELS_WIRE_KEPT_MESSAGES_H_

#include <array>
#include <cstddef>

#include "fairwire/models/wire_model.h"

namespace fairwire::wire::model {

class KeptMessages {
 public:
  // An empty message of `type` of `schema` (Clear), with the memory of the
  // one handed out for the same pair before, while it is among the last
  // kSlots pairs asked for. The schema's address is only a key: a message
  // found under a reused address is cleared to the new schema all the same.
  Message& Cleared(const Schema& schema, int type);

  static constexpr std::size_t kSlots = 4;

 private:
  struct Slot {
    const Schema* schema = nullptr;
    int type = -1;
    Message message;
  };
  std::array<Slot, kSlots> slots_;
  std::size_t next_ = 0;  // the slot a new pair takes, round robin
};

}  // namespace fairwire::wire::model

#endif  // FAIRWIRE_MODELS_WIRE_KEPT_MESSAGES_H_
