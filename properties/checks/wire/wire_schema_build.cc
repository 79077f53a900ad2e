#include "fairwire/checks/wire_schema_build.h"

namespace fairwire::wire::oracle {
namespace {

namespace pb = google::protobuf;

// prefix followed by n in decimal. Appends to the prefix rather than
// writing `"E" + std::to_string(n)`, which g++ 12 at -O3 reports as an
// overlapping memcpy (-Wrestrict, a false positive).
std::string Numbered(std::string_view prefix, std::uint64_t n) {
  std::string out(prefix);
  out += std::to_string(n);
  return out;
}

pb::FieldDescriptorProto::Type TypeOf(model::Kind kind) {
  using F = pb::FieldDescriptorProto;
  static const F::Type kTypes[model::kKindCount] = {
      F::TYPE_INT32,   F::TYPE_INT64,   F::TYPE_UINT32,   F::TYPE_UINT64,
      F::TYPE_SINT32,  F::TYPE_SINT64,  F::TYPE_BOOL,     F::TYPE_ENUM,
      F::TYPE_FIXED32, F::TYPE_FIXED64, F::TYPE_SFIXED32, F::TYPE_SFIXED64,
      F::TYPE_FLOAT,   F::TYPE_DOUBLE,  F::TYPE_STRING,   F::TYPE_BYTES,
      F::TYPE_MESSAGE};
  return kTypes[static_cast<int>(kind)];
}

class Collector : public pb::DescriptorPool::ErrorCollector {
 public:
  explicit Collector(std::string* out) : out_(out) {}
  void AddError(const std::string& filename, const std::string& element_name,
                const pb::Message*, ErrorLocation,
                const std::string& message) override {
    if (out_ != nullptr)
      *out_ += filename + ": " + element_name + ": " + message + "; ";
  }

 private:
  std::string* out_;
};

}  // namespace

pb::FileDescriptorProto ToFileDescriptorProto(const scenario::SchemaCase& c) {
  pb::FileDescriptorProto file;
  file.set_name("fairwire_sd.proto");
  file.set_package("fairwire.sd");
  file.set_syntax(c.proto3 ? "proto3" : "proto2");
  for (std::size_t e = 0; e < c.enums.size(); ++e) {
    pb::EnumDescriptorProto* en = file.add_enum_type();
    en->set_name(Numbered("E", e));
    for (std::size_t i = 0; i < c.enums[e].size(); ++i) {
      pb::EnumValueDescriptorProto* v = en->add_value();
      v->set_name(Numbered("E", e) + Numbered("_V", i));
      v->set_number(c.enums[e][i]);
    }
  }
  for (std::size_t m = 0; m < c.messages.size(); ++m) {
    pb::DescriptorProto* msg = file.add_message_type();
    msg->set_name(Numbered("M", m));
    for (const scenario::FieldSpec& f : c.messages[m]) {
      pb::FieldDescriptorProto* fd = msg->add_field();
      fd->set_name(Numbered("f", f.number));
      fd->set_number(static_cast<int>(f.number));
      fd->set_label(f.repeated ? pb::FieldDescriptorProto::LABEL_REPEATED
                               : pb::FieldDescriptorProto::LABEL_OPTIONAL);
      fd->set_type(TypeOf(f.kind));
      if (f.kind == model::Kind::kEnum) {
        fd->set_type_name(".fairwire.sd.E" + std::to_string(f.type_index));
      } else if (f.kind == model::Kind::kMessage) {
        fd->set_type_name(".fairwire.sd.M" + std::to_string(f.type_index));
      }
      if (f.repeated && model::KindPackable(f.kind)) {
        fd->mutable_options()->set_packed(f.packed);
      }
    }
  }
  return file;
}

const pb::FileDescriptor* BuildSchemaCase(const scenario::SchemaCase& c,
                                          pb::DescriptorPool& pool,
                                          std::string* error) {
  Collector collector(error);
  return pool.BuildFileCollectingErrors(ToFileDescriptorProto(c), &collector);
}

}  // namespace fairwire::wire::oracle
