// The poll harness's runner for the nested baseline
// Nested<C0, Nested<C1, ... Nested<Cn-1, FinishedHandler>>>.
#include <cstdint>
#include <variant>

#include "fairwire/checks/poll_runners.h"

namespace fairwire::poll::internal {
namespace {

template <std::size_t N>
struct NestedChain {
  using Type = Nested<ScriptedChild, typename NestedChain<N - 1>::Type>;
  static Type Make(const PollScript& s, Recorder& recorder, std::size_t id) {
    return Type(ScriptedChild(id, &s.children[id], &recorder),
                NestedChain<N - 1>::Make(s, recorder, id + 1));
  }
};

template <>
struct NestedChain<0> {
  using Type = FinishedHandler;
  static Type Make(const PollScript&, Recorder&, std::size_t) { return {}; }
};

// The flat child index of a nested event: alternative 0 is this level's
// child, alternative 1 the next level.
TagAndEvent Flatten(std::uint8_t event) { return {0, event}; }

template <class Rest>
TagAndEvent Flatten(const std::variant<std::uint8_t, Rest>& event) {
  if (event.index() == 0) return {0, std::get<0>(event)};
  TagAndEvent inner = Flatten(std::get<1>(event));
  inner.tag += 1;
  return inner;
}

template <std::size_t N>
Observation RunNestedOf(const PollScript& s) {
  Recorder recorder;
  auto nested = NestedChain<N>::Make(s, recorder, 0);
  return Drive(s, nested, recorder, "Nested",
               [](const auto& event) { return Flatten(event); });
}

}  // namespace

Observation RunNested(const PollScript& s) {
  return Dispatch<kMaxScriptChildren>(s.children.size() - 1, [&](auto k) {
    return RunNestedOf<decltype(k)::value + 1>(s);
  });
}

}  // namespace fairwire::poll::internal
