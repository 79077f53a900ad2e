#include "fairwire/models/wire_kept_messages.h"

namespace fairwire::wire::model {

Message& KeptMessages::Cleared(const Schema& schema, int type) {
  Slot* slot = nullptr;
  for (Slot& s : slots_) {
    if (s.schema == &schema && s.type == type) slot = &s;
  }
  if (slot == nullptr) {
    slot = &slots_[next_];
    next_ = (next_ + 1) % kSlots;
    slot->schema = &schema;
    slot->type = type;
  }
  Clear(schema, type, slot->message);
  return slot->message;
}

}  // namespace fairwire::wire::model
