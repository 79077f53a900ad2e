// The wire kit's adapter for upb (Debian's libupb, git snapshot 2020-07-30):
// upb_decode into a message of a layout built from the kit's descriptors
// (upb_layout.h), then upb_encode of that message for the re-encoding, all
// in one arena per input.
#include <google/protobuf/descriptor.h>

#include <map>
#include <memory>
#include <string>

#include "fairwire/checks/wire_adapter.h"
#include "upb_layout.h"

// libupb's C entry points, as its upb/upb.h, upb/msg.h, upb/decode.h and
// upb/encode.h declare them at that snapshot (layouts: upb_layout.h).
extern "C" {
struct upb_arena;
struct upb_alloc;
extern upb_alloc upb_alloc_global;
upb_arena* upb_arena_init(void* mem, std::size_t n, upb_alloc* alloc);
void upb_arena_free(upb_arena* arena);
void* _upb_msg_new(const fairwire::adapters::upb::MessageLayout* layout,
                   upb_arena* arena);
bool upb_decode(const char* buf, std::size_t size, void* msg,
                const fairwire::adapters::upb::MessageLayout* layout,
                upb_arena* arena);
char* upb_encode(const void* msg,
                 const fairwire::adapters::upb::MessageLayout* layout,
                 upb_arena* arena, std::size_t* size);
}

namespace fairwire::wire::kit {
namespace {

namespace pb = google::protobuf;
using adapters::upb::Layouts;

// One arena, freed at the end of the scope.
class Arena {
 public:
  Arena() : arena_(upb_arena_init(nullptr, 0, &upb_alloc_global)) {}
  ~Arena() {
    if (arena_ != nullptr) upb_arena_free(arena_);
  }
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  upb_arena* get() const { return arena_; }

 private:
  upb_arena* arena_;
};

class UpbAdapter final : public DecoderAdapter {
 public:
  std::string name() const override { return "upb (git 2020-07-30)"; }

  Profile profile() const override {
    Profile p;
    // upb_decode does not look at enum values: any int32 stays in the field.
    p.keeps_closed_enum_unknowns = true;
    // upb_decode starts with state.depth = 64 and fails below 0.
    p.max_depth = 64;
    p.documented_at =
        "upb/decode.c at upb 5d308301 (2020-07-30): upb_decode sets depth = "
        "64; the enum case of varint_ops stores any value";
    return p;
  }

  std::optional<Decoded> Decode(std::string_view full_name,
                                std::span<const std::uint8_t> input) override {
    const Layouts* layouts = LayoutsOf(full_name);
    if (layouts == nullptr) return std::nullopt;
    Decoded out;
    Arena arena;
    void* message = _upb_msg_new(layouts->root(), arena.get());
    if (message == nullptr) {
      out.reason = "_upb_msg_new failed";
      return out;
    }
    if (!upb_decode(reinterpret_cast<const char*>(input.data()), input.size(),
                    message, layouts->root(), arena.get())) {
      out.reason = "upb_decode returned false";  // upb gives no reason
      return out;
    }
    out.accepted = true;
    std::size_t size = 0;
    const char* bytes =
        upb_encode(message, layouts->root(), arena.get(), &size);
    // An encoder failure leaves no re-encoding: the kit reports the empty
    // message's difference as a divergence of the decoded-or-re-encoded
    // message.
    if (bytes != nullptr) out.reencoded.assign(bytes, size);
    return out;
  }

 private:
  const Layouts* LayoutsOf(std::string_view full_name) {
    const std::string name(full_name);
    if (auto it = layouts_.find(name); it != layouts_.end()) {
      return it->second.get();
    }
    const pb::Descriptor* type =
        pb::DescriptorPool::generated_pool()->FindMessageTypeByName(name);
    if (type == nullptr) return nullptr;
    return layouts_.emplace(name, std::make_unique<Layouts>(type))
        .first->second.get();
  }

  std::map<std::string, std::unique_ptr<Layouts>> layouts_;
};

}  // namespace

DecoderAdapter& Adapter() {
  static UpbAdapter adapter;
  return adapter;
}

}  // namespace fairwire::wire::kit
