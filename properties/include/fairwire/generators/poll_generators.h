// rc::Arbitrary<PollScript>: the RapidCheck generator for poll scripts.
// Only the property suites include this (the plain library has no
// RapidCheck). It shrinks towards fewer children, fewer calls, shorter
// scripts and simpler outcomes (Pending, then Ready(0)), no loops, no
// wakes, no draws.
#ifndef FAIRWIRE_GENERATORS_POLL_GENERATORS_H_
#define FAIRWIRE_GENERATORS_POLL_GENERATORS_H_

#include <rapidcheck.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::poll {

// Prints a script as DescribePollScript does (RapidCheck's counterexample).
inline void showValue(const PollScript& script, std::ostream& os) {
  os << "\n" << DescribePollScript(script);
}

// An outcome; the kinds are listed simplest first so that they shrink
// towards Pending and Ready.
inline rc::Gen<Outcome> GenOutcome() {
  return rc::gen::apply(
      [](OutcomeKind kind, std::uint8_t event) {
        return Outcome{kind,
                       kind == OutcomeKind::kReady ? event : std::uint8_t{0}};
      },
      rc::gen::weightedElement<OutcomeKind>({{4, OutcomeKind::kPending},
                                             {6, OutcomeKind::kReady},
                                             {2, OutcomeKind::kPendingSelfWake},
                                             {1, OutcomeKind::kDone},
                                             {1, OutcomeKind::kThrow}}),
      rc::gen::inRange<std::uint8_t>(0, 32));
}

// A child script: usually random outcomes, sometimes Ready forever (the
// child that starves its siblings under Priority and Sticky).
inline rc::Gen<ChildScript> GenChild() {
  return rc::gen::apply(
      [](std::vector<Outcome> outcomes, bool loop, bool always_ready,
         std::vector<std::uint8_t> protocols) {
        ChildScript c;
        if (always_ready) {
          c.outcomes = {Outcome{OutcomeKind::kReady, 0}};
          c.loop = true;
        } else {
          if (outcomes.size() > kMaxOutcomes) outcomes.resize(kMaxOutcomes);
          c.outcomes = std::move(outcomes);
          c.loop = loop;
        }
        c.protocols = std::move(protocols);
        return c;
      },
      rc::gen::scale(0.12,
                     rc::gen::container<std::vector<Outcome>>(GenOutcome())),
      rc::gen::arbitrary<bool>(),
      rc::gen::weightedElement<bool>({{5, false}, {1, true}}),
      rc::gen::container<std::vector<std::uint8_t>>(
          *rc::gen::inRange<std::size_t>(0, 4),
          rc::gen::inRange<std::uint8_t>(0, kProtocolNameCount)));
}

// A whole script (policy kPriority: the suites set the policy they test).
inline rc::Gen<PollScript> GenPollScript() {
  return rc::gen::exec([] {
    PollScript s;
    // Up to about 10 children; the container shrinks by dropping any child.
    s.children = *rc::gen::nonEmpty(rc::gen::scale(
        0.1, rc::gen::container<std::vector<ChildScript>>(GenChild())));
    if (s.children.size() > kMaxScriptChildren) {
      s.children.resize(kMaxScriptChildren);
    }
    s.calls = *rc::gen::inRange<std::uint8_t>(1, 33);
    const auto wakes = *rc::gen::inRange<std::size_t>(0, kMaxWakes + 1);
    for (std::size_t k = 0; k < wakes; ++k) {
      ExternalWake w;
      w.after_call = *rc::gen::inRange<std::uint8_t>(0, s.calls);
      w.child = static_cast<std::uint8_t>(
          *rc::gen::inRange<std::size_t>(0, s.children.size()));
      s.wakes.push_back(w);
    }
    s.draws = *rc::gen::container<std::vector<std::uint8_t>>(
        *rc::gen::inRange<std::size_t>(0, kMaxDraws + 1),
        rc::gen::arbitrary<std::uint8_t>());
    return s;
  });
}

}  // namespace fairwire::poll

namespace rc {

// rc::Arbitrary<PollScript>: see GenPollScript.
template <>
struct Arbitrary<fairwire::poll::PollScript> {
  static Gen<fairwire::poll::PollScript> arbitrary() {
    return fairwire::poll::GenPollScript();
  }
};

}  // namespace rc

#endif  // FAIRWIRE_GENERATORS_POLL_GENERATORS_H_
