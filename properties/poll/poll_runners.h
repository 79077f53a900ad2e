// Templates that build each composite over ScriptedChild children for a
// script and drive it (poll_harness.h). Select needs its child count at
// compile time, so RunSelect instantiates Select for 1..32 children and
// picks the instantiation by the script's child count.
#ifndef FAIRWIRE_PROPERTIES_POLL_POLL_RUNNERS_H_
#define FAIRWIRE_PROPERTIES_POLL_POLL_RUNNERS_H_

#include <cstddef>
#include <string>
#include <utility>
#include <variant>

#include "fairwire/poll/internal/dispatch.h"
#include "fairwire/poll/nested.h"
#include "fairwire/poll/select.h"
#include "fairwire/poll/select_all.h"
#include "poll_harness.h"

namespace fairwire::poll {
namespace internal {

template <std::size_t>
using ScriptedChildAt = ScriptedChild;

template <class P, std::size_t... I>
Observation RunSelectOf(const PollScript& s, P policy, const std::string& name,
                        std::index_sequence<I...>) {
  Recorder recorder;
  Select<P, ScriptedChildAt<I>...> select(
      std::move(policy), ScriptedChild(I, s.children[I], &recorder)...);
  return Drive(s, select, recorder, name, [](const auto& event) {
    return TagAndEvent{event.index(),
                       std::visit([](std::uint8_t e) { return e; }, event)};
  });
}

// Select<P, ScriptedChild x n> for the script's n children; make_policy()
// gives the policy object.
template <class P, class MakePolicy>
Observation RunSelect(const PollScript& s, MakePolicy make_policy,
                      const std::string& name) {
  return Dispatch<kMaxScriptChildren>(s.children.size() - 1, [&](auto k) {
    return RunSelectOf<P>(s, make_policy(), name,
                          std::make_index_sequence<decltype(k)::value + 1>());
  });
}

// SelectAll<P, ScriptedChild> with the script's children added in order.
template <class P, class MakePolicy>
Observation RunSelectAll(const PollScript& s, MakePolicy make_policy,
                         const std::string& name) {
  Recorder recorder;
  SelectAll<P, ScriptedChild> all(make_policy());
  for (std::size_t i = 0; i < s.children.size(); ++i) {
    all.Add(ScriptedChild(i, s.children[i], &recorder));
  }
  return Drive(s, all, recorder, name, [](const auto& event) {
    return TagAndEvent{event.index, event.event};
  });
}

// The script under policy P through Select or SelectAll.
template <class P, class MakePolicy>
Observation RunPolicy(const PollScript& s, CompositeKind kind,
                      MakePolicy make_policy, const std::string& policy_name) {
  if (kind == CompositeKind::kSelect) {
    return RunSelect<P>(s, make_policy, "Select<" + policy_name + ">");
  }
  return RunSelectAll<P>(s, make_policy, "SelectAll<" + policy_name + ">");
}

// One function per policy, each in its own file to spread the compile.
Observation RunPriority(const PollScript& s, CompositeKind kind);
Observation RunSticky(const PollScript& s, CompositeKind kind);
Observation RunRoundRobin(const PollScript& s, CompositeKind kind);
Observation RunBudgeted2(const PollScript& s, CompositeKind kind);
Observation RunBudgeted3(const PollScript& s, CompositeKind kind);
Observation RunRandomStart(const PollScript& s, CompositeKind kind);
Observation RunNested(const PollScript& s);

}  // namespace internal
}  // namespace fairwire::poll

#endif  // FAIRWIRE_PROPERTIES_POLL_POLL_RUNNERS_H_
