// Uses the three installed libraries; exits non-zero if any misbehaves.
#include <google/protobuf/descriptor.pb.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "fairwire/poll/countdown_handler.h"
#include "fairwire/poll/select.h"
#include "fairwire/protobuf/schema_from_descriptor.h"
#include "fairwire/wire/decoder.h"

namespace {

int Fail(const char* what) {
  std::printf("consumer: %s\n", what);
  return 1;
}

}  // namespace

int main() {
  namespace poll = fairwire::poll;
  namespace wire = fairwire::wire;

  // fairwire::poll: round robin over two always-ready children alternates.
  poll::Select<poll::RoundRobin, poll::CountdownHandler, poll::CountdownHandler>
      both(poll::CountdownHandler(0, 7), poll::CountdownHandler(0, 9));
  poll::Context cx{poll::Waker()};
  std::vector<std::size_t> order;
  for (int i = 0; i < 4; ++i) {
    auto p = both.Poll(cx);
    if (!p.IsReady()) return Fail("poll: expected Ready");
    order.push_back(p.value().index());
  }
  if (order != std::vector<std::size_t>{0, 1, 0, 1}) {
    return Fail("poll: round robin did not alternate");
  }

  // fairwire::protobuf + fairwire::wire: a schema from a descriptor
  // (FieldDescriptorProto's own), then a decode with both encodings.
  const google::protobuf::Descriptor& d =
      *google::protobuf::FieldDescriptorProto::descriptor();
  std::int32_t root = -1;
  std::optional<wire::Schema> schema =
      fairwire::protobuf::SchemaFromDescriptor(d, &root);
  if (!schema) return Fail("protobuf: no schema");
  wire::Message message(*schema, root);
  // field 3 (number, int32): 150; field 1 (name): "ab".
  const std::uint8_t bytes[] = {0x18, 0x96, 0x01, 0x0a, 0x02, 'a', 'b'};
  if (!wire::Decode(bytes, message).ok()) return Fail("wire: decode failed");
  const std::uint8_t truncated[] = {0x18, 0x96};
  const wire::DecodeStatus status = wire::Decode(truncated, message);
  if (wire::ToString(status) != "truncated at byte 1") {
    std::printf("consumer: status was %s\n", wire::ToString(status).c_str());
    return Fail("wire: unexpected status");
  }
  std::puts(
      "consumer: fairwire::poll, fairwire::wire and fairwire::protobuf work");
  return 0;
}
