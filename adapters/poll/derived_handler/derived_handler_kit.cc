// The seed's generated handler (fuel loop) of three fields through the poll
// kit, as a user would plug in their own composite: fairwire_add_poll_kit
// gives it the properties, the model test against Sticky (which its
// verdict matches), a fuzz target and corpus replay.
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <variant>
#include <vector>

#include "derived_handler.h"
#include "fairwire/checks/poll_kit.h"

namespace fairwire::poll::derived {
namespace {

using ThreeFields =
    DerivedHandler<Loop::kFuel, ScriptedChild, ScriptedChild, ScriptedChild>;

struct ThreeFieldKit {
  static constexpr const char* kName =
      "derive(NetworkBehaviour) fuel, 3 fields";
  static constexpr std::size_t kMinChildren = 3;
  static constexpr std::size_t kMaxChildren = 3;
  // A ConnectionHandler field has no Done, and its poll does not throw.
  static constexpr bool kChildrenFinish = false;
  static constexpr bool kChildrenThrow = false;
  static std::optional<PolicyModel> Claims() { return StickyModel(); }
  static ThreeFields Make(std::vector<ScriptedChild> c) {
    if (c.size() != 3) throw std::invalid_argument("three fields");
    return ThreeFields(std::move(c[0]), std::move(c[1]), std::move(c[2]));
  }
  static TagAndEvent TagOf(const ThreeFields::Event& e) {
    return {e.index(), std::visit([](std::uint8_t v) { return v; }, e)};
  }
};

}  // namespace
}  // namespace fairwire::poll::derived

const fairwire::poll::kit::PollKitSpec& fairwire::poll::kit::Kit() {
  static const PollKitSpec spec = SpecOf<derived::ThreeFieldKit>();
  return spec;
}
