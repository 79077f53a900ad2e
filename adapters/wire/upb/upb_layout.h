// upb's message layouts (upb_msglayout) for the kit's types, built at run
// time from their descriptors by the rules upb's own generator (upbc) applied
// at the snapshot Debian packages (git 2020-07-30): Debian's libupb-dev ships
// no generator, and its upb/msg.h includes headers it does not ship, so the
// few declarations the adapter needs are here, written against that
// snapshot's ABI (checked by the static_asserts in upb_layout.cc).
#ifndef FAIRWIRE_ADAPTERS_UPB_LAYOUT_H_
#define FAIRWIRE_ADAPTERS_UPB_LAYOUT_H_

#include <google/protobuf/descriptor.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace fairwire::adapters::upb {

// upb_msglayout_field.
struct FieldLayout {
  std::uint32_t number;
  std::uint16_t offset;
  std::int16_t presence;  // > 0: hasbit index; < 0: ~oneof case offset; 0: none
  std::uint16_t submsg_index;
  std::uint8_t descriptortype;  // FieldDescriptor::Type, see DescriptorType
  std::uint8_t label;           // 1, 2, 3, or kLabelPacked
};

// upb_msglayout.
struct MessageLayout {
  const MessageLayout* const* submsgs;
  const FieldLayout* fields;
  std::uint16_t size;  // of the fields, rounded up, without upb's header
  std::uint16_t field_count;
  bool extendable;
};

inline constexpr std::uint8_t kLabelPacked = 7;  // _UPB_LABEL_PACKED

// The layouts of a message type and of every type reachable from it.
class Layouts {
 public:
  explicit Layouts(const google::protobuf::Descriptor* root);
  const MessageLayout* root() const { return root_; }

 private:
  struct Built {
    MessageLayout layout{};
    std::vector<FieldLayout> fields;
    std::vector<const MessageLayout*> submsgs;
  };
  Built& For(const google::protobuf::Descriptor* type);

  std::map<const google::protobuf::Descriptor*, std::unique_ptr<Built>> built_;
  const MessageLayout* root_ = nullptr;
};

}  // namespace fairwire::adapters::upb

#endif  // FAIRWIRE_ADAPTERS_UPB_LAYOUT_H_
