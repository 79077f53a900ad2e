// The consumer's Ring through fairwire's installed poll kit: it claims
// RoundRobin, so fairwire_add_poll_kit checks every run against that model
// besides the policy-free properties.
#include <optional>
#include <utility>
#include <vector>

#include "fairwire/checks/poll_kit.h"
#include "ring.h"

namespace {

using fairwire::poll::ScriptedChild;

struct RingKit {
  static constexpr const char* kName = "consumer::Ring";
  static constexpr std::size_t kMinChildren = 1;
  static constexpr std::size_t kMaxChildren = 32;
  static std::optional<fairwire::poll::PolicyModel> Claims() {
    return fairwire::poll::RoundRobinModel();
  }
  static consumer::Ring<ScriptedChild> Make(std::vector<ScriptedChild> c) {
    return consumer::Ring<ScriptedChild>(std::move(c));
  }
  static fairwire::poll::TagAndEvent TagOf(
      const consumer::Ring<ScriptedChild>::Event& e) {
    return {e.child, e.event};
  }
};

}  // namespace

const fairwire::poll::kit::PollKitSpec& fairwire::poll::kit::Kit() {
  static const PollKitSpec spec = SpecOf<RingKit>();
  return spec;
}
