// upbc's layout rules (upbc/message_layout.cc and generator.cc at upb's
// 2020-07-30 snapshot), applied to descriptors at run time.
//
// - Hasbits (proto2 singular fields outside a oneof, index from 1: 0 means
//   "no presence") in bytes at offset 0; then the other fields sorted by
//   rank: 8-byte scalars (and enums, whose C++ type upbc sizes as 8 bytes),
//   4-byte scalars, bools, strings (upb_strview, 16 bytes), message
//   pointers, repeated-field pointers; ties broken by field number. Each is
//   aligned to its own alignment; the total is rounded up to the largest
//   field size.
// - The field table is in field-number order; submessage layouts are
//   indexed once per type, in that order.
// - A proto2 string is given to the decoder as bytes (upb checks UTF-8 only
//   for the string type); a packed field has label 7.
// - proto3 `optional` fields: upbc at this snapshot gives a field in a
//   synthetic oneof neither a hasbit nor a oneof case (it asks for the real
//   oneof), so they have no presence, as here.
#include "upb_layout.h"

#include <algorithm>
#include <cstdlib>

namespace fairwire::adapters::upb {
namespace {

namespace pb = google::protobuf;

static_assert(sizeof(FieldLayout) == 12, "upb_msglayout_field is 12 bytes");
static_assert(offsetof(FieldLayout, label) == 11);
static_assert(sizeof(MessageLayout) == 24, "upb_msglayout is 24 bytes");
static_assert(offsetof(MessageLayout, field_count) == 18);

bool HasHasbit(const pb::FieldDescriptor* f) {
  return f->file()->syntax() == pb::FileDescriptor::SYNTAX_PROTO2 &&
         !f->is_repeated() && f->containing_oneof() == nullptr;
}

struct SizeAlign {
  std::size_t size;
  std::size_t align;
};

SizeAlign SizeOf(const pb::FieldDescriptor* f) {
  if (f->is_repeated()) return {8, 8};
  switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      return {8, 8};
    case pb::FieldDescriptor::CPPTYPE_STRING:
      return {16, 8};
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      return {1, 1};
    case pb::FieldDescriptor::CPPTYPE_FLOAT:
    case pb::FieldDescriptor::CPPTYPE_INT32:
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      return {4, 4};
    default:
      return {8, 8};
  }
}

int Rank(const pb::FieldDescriptor* f) {
  if (f->is_repeated()) return 6;
  switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      return 5;
    case pb::FieldDescriptor::CPPTYPE_STRING:
      return 4;
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      return 3;
    case pb::FieldDescriptor::CPPTYPE_FLOAT:
    case pb::FieldDescriptor::CPPTYPE_INT32:
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      return 2;
    default:
      return 1;
  }
}

std::uint8_t DescriptorType(const pb::FieldDescriptor* f) {
  if (f->type() == pb::FieldDescriptor::TYPE_STRING &&
      f->file()->syntax() == pb::FileDescriptor::SYNTAX_PROTO2) {
    return pb::FieldDescriptor::TYPE_BYTES;
  }
  return static_cast<std::uint8_t>(f->type());
}

std::size_t AlignUp(std::size_t n, std::size_t align) {
  return (n + align - 1) / align * align;
}

}  // namespace

Layouts::Layouts(const pb::Descriptor* root) : root_(&For(root).layout) {}

Layouts::Built& Layouts::For(const pb::Descriptor* type) {
  if (auto it = built_.find(type); it != built_.end()) return *it->second;
  Built& built = *built_.emplace(type, std::make_unique<Built>()).first->second;

  std::vector<const pb::FieldDescriptor*> by_rank;
  std::vector<const pb::FieldDescriptor*> by_number;
  for (int i = 0; i < type->field_count(); ++i) {
    by_rank.push_back(type->field(i));
    by_number.push_back(type->field(i));
  }
  std::sort(by_rank.begin(), by_rank.end(), [](auto* a, auto* b) {
    return std::pair(Rank(a), a->number()) < std::pair(Rank(b), b->number());
  });
  std::sort(by_number.begin(), by_number.end(),
            [](auto* a, auto* b) { return a->number() < b->number(); });

  std::map<const pb::FieldDescriptor*, int> hasbit;
  for (const pb::FieldDescriptor* f : by_rank) {
    if (HasHasbit(f)) {
      const int index = static_cast<int>(hasbit.size()) + 1;
      hasbit[f] = index;
    }
  }
  // One bit more than upbc's count, which overlaps the first field when the
  // count is a multiple of 8 (not so for the kit's types).
  std::size_t size = (hasbit.size() + 1 + 7) / 8;
  std::size_t max_size = 1;
  std::map<const pb::FieldDescriptor*, std::size_t> offset;
  for (const pb::FieldDescriptor* f : by_rank) {
    const SizeAlign s = SizeOf(f);
    size = AlignUp(size, s.align);
    offset[f] = size;
    size += s.size;
    max_size = std::max(max_size, s.size);
  }
  size = AlignUp(size, max_size);

  std::map<const pb::Descriptor*, std::uint16_t> submsg_index;
  for (const pb::FieldDescriptor* f : by_number) {
    if (f->message_type() != nullptr &&
        submsg_index.count(f->message_type()) == 0) {
      submsg_index[f->message_type()] =
          static_cast<std::uint16_t>(built.submsgs.size());
      built.submsgs.push_back(&For(f->message_type()).layout);
    }
  }
  for (const pb::FieldDescriptor* f : by_number) {
    FieldLayout l{};
    l.number = static_cast<std::uint32_t>(f->number());
    l.offset = static_cast<std::uint16_t>(offset[f]);
    l.presence =
        static_cast<std::int16_t>(hasbit.count(f) != 0 ? hasbit[f] : 0);
    l.submsg_index =
        f->message_type() != nullptr ? submsg_index[f->message_type()] : 0;
    l.descriptortype = DescriptorType(f);
    l.label =
        f->is_packed() ? kLabelPacked : static_cast<std::uint8_t>(f->label());
    built.fields.push_back(l);
  }
  built.layout.submsgs = built.submsgs.empty() ? nullptr : built.submsgs.data();
  built.layout.fields = built.fields.empty() ? nullptr : built.fields.data();
  built.layout.size = static_cast<std::uint16_t>(size);
  built.layout.field_count = static_cast<std::uint16_t>(built.fields.size());
  built.layout.extendable = false;
  return built;
}

}  // namespace fairwire::adapters::upb
