// The poll properties of DESIGN.md ("Poll core") and their wake-driven
// forms, each one RapidCheck
// property per composite (Select, SelectAll), each run over every policy
// (Select also over the Nested baseline) against the reference model.
// Also the scenario codec as properties.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fairwire/checks/poll_checks.h"
#include "fairwire/checks/poll_runners.h"
#include "fairwire/generators/poll_generators.h"
#include "fairwire/models/poll_policy_model.h"
#include "fairwire/poll/policy.h"
#include "fairwire/scenarios/poll_script_codec.h"

namespace fairwire::poll {
namespace {

// Checks `property` of `script` under every policy through `kind`.
void ForEveryPolicy(PollProperty property, CompositeKind kind,
                    PollScript script) {
  for (PolicyKind policy : kAllPolicies) {
    if (policy == PolicyKind::kNested && kind == CompositeKind::kSelectAll) {
      continue;  // the nested baseline has no run-time form
    }
    script.policy = policy;
    if (const auto violation = CheckOne(property, script, policy, kind)) {
      RC_FAIL(*violation);
    }
  }
}

// Property 1.
RC_GTEST_PROP(PollSelect, P1AtMostOncePerCall, (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kAtMostOnce, CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P1AtMostOncePerCall, (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kAtMostOnce, CompositeKind::kSelectAll, s);
}

// Property 2.
RC_GTEST_PROP(PollSelect, P2ReadyEventComesFromLastChildPolled,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kProvenance, CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P2ReadyEventComesFromLastChildPolled,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kProvenance, CompositeKind::kSelectAll, s);
}

// Property 3.
RC_GTEST_PROP(PollSelect, P3PendingIffEveryLiveChildWasPending,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kPendingCompleteness, CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P3PendingIffEveryLiveChildWasPending,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kPendingCompleteness, CompositeKind::kSelectAll,
                 s);
}

// Property 4.
RC_GTEST_PROP(PollSelect, P4PendingRegistersThisCallsWakerWithNoLostWake,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kWakeRegistration, CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P4PendingRegistersThisCallsWakerWithNoLostWake,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kWakeRegistration, CompositeKind::kSelectAll, s);
}

// Property 5.
RC_GTEST_PROP(PollSelect, P5NoLossDuplicationOrReordering,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kNoLoss, CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P5NoLossDuplicationOrReordering,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kNoLoss, CompositeKind::kSelectAll, s);
}

// Property 6.
RC_GTEST_PROP(PollSelect, P6PolledChildrenMatchTheModelEveryCall,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kCursorExactness, CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P6PolledChildrenMatchTheModelEveryCall,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kCursorExactness, CompositeKind::kSelectAll, s);
}

// Property 7 (RoundRobin and Budgeted<K>; the counterexamples for
// Priority, Sticky and Nested are in poll_negative_test.cc).
RC_GTEST_PROP(PollSelect, P7ReadyChildServedWithinPolicyBound,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kBoundedWaiting, CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P7ReadyChildServedWithinPolicyBound,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kBoundedWaiting, CompositeKind::kSelectAll, s);
}

// Property 8 (Sticky, and RoundRobin and Budgeted<K>, whose bounds are
// tighter).
RC_GTEST_PROP(PollSelect, P8FiniteBurstsServeEveryReadyChild,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kFiniteBurstLiveness, CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P8FiniteBurstsServeEveryReadyChild,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kFiniteBurstLiveness, CompositeKind::kSelectAll,
                 s);
}

// Property 9.
RC_GTEST_PROP(PollSelect, P9DoneChildNeverPolledAndDoneWhenAllAre,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kTermination, CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P9DoneChildNeverPolledAndDoneWhenAllAre,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kTermination, CompositeKind::kSelectAll, s);
}

// Property 10.
RC_GTEST_PROP(PollSelect, P10ProtocolsConcatenateSkipAndResume,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kProtocolIteration, CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P10ProtocolsConcatenateSkipAndResume,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kProtocolIteration, CompositeKind::kSelectAll,
                 s);
}

// Properties 11 and 12, the wake-driven forms: they hold for composites
// that poll every live child too.
RC_GTEST_PROP(PollSelect, P11PendingLeavesNoWokenChildUnpolled,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kWokenPendingCompleteness,
                 CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P11PendingLeavesNoWokenChildUnpolled,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kWokenPendingCompleteness,
                 CompositeKind::kSelectAll, s);
}
RC_GTEST_PROP(PollSelect, P12WakeAfterPendingReachesTheCaller,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kWakeReachesCaller, CompositeKind::kSelect, s);
}
RC_GTEST_PROP(PollSelectAll, P12WakeAfterPendingReachesTheCaller,
              (const PollScript& s)) {
  ForEveryPolicy(PollProperty::kWakeReachesCaller, CompositeKind::kSelectAll,
                 s);
}

// Budgeted<K> for K that no PolicyKind names: the core's template through
// Select (at most kTypedSelectMax children) and SelectAll, against the
// model BudgetedModel(K) built as a value, and every policy-free property.
template <std::size_t K>
void BudgetedOfKMatchesItsModel(PollScript s) {
  if (s.children.size() > internal::kTypedSelectMax) {
    s.children.resize(internal::kTypedSelectMax);
    std::erase_if(s.wakes, [](const ExternalWake& w) {
      return w.child >= internal::kTypedSelectMax;
    });
  }
  const ModelRun model = RunModel(s, BudgetedModel(K));
  const auto make = [] { return Budgeted<K>(); };
  const std::string name = "Budgeted<" + std::to_string(K) + ">";
  for (const ObservedRun& o :
       {internal::RunSelect<Budgeted<K>, internal::kTypedSelectMax>(
            s, make, "Select<" + name + ">"),
        internal::RunSelectAll<Budgeted<K>>(s, make,
                                            "SelectAll<" + name + ">")}) {
    if (const auto v = CheckModelMatch(s, model, o)) RC_FAIL(*v);
    for (PollProperty p : kPolicyFreeProperties) {
      if (const auto v = CheckPolicyFree(p, s, o)) RC_FAIL(*v);
    }
  }
}
RC_GTEST_PROP(PollBudgeted, AnyKMatchesTheModelOfK, (const PollScript& s)) {
  BudgetedOfKMatchesItsModel<1>(s);
  BudgetedOfKMatchesItsModel<4>(s);
  BudgetedOfKMatchesItsModel<7>(s);
}

// Every property under every policy, through Select, SelectAll and the
// nested baseline, on scripts in which every child finishes: no throws,
// each child's script ends in Done, no loops, and (within kMaxCalls) a call
// more than there are outcomes, since every call takes an outcome of some
// live child. Random scripts rarely finish a composite's last child under
// Priority and Nested, and for Nested that child is the only scripted right
// side of the chain: a call after it finished is what would poll it again
// (PlantedNested.* in poll_checks_planted_test.cc).
RC_GTEST_PROP(PollFinishing, P1ToP12WhenEveryChildFinishes, (PollScript s)) {
  std::size_t outcomes = 0;
  for (ChildScript& c : s.children) {
    std::erase_if(c.outcomes, [](const Outcome& o) {
      return o.kind == OutcomeKind::kThrow || o.kind == OutcomeKind::kDone;
    });
    if (c.outcomes.size() >= kMaxOutcomes) c.outcomes.resize(kMaxOutcomes - 1);
    c.outcomes.push_back(Outcome{OutcomeKind::kDone, 0});
    c.loop = false;
    outcomes += c.outcomes.size();
  }
  s.calls = static_cast<std::uint8_t>(
      std::max<std::size_t>(s.calls, std::min(kMaxCalls, outcomes + 1)));
  RC_ASSERT(IsValid(s));
  if (const auto violation = CheckAllPolicies(s)) {
    RC_FAIL("as played:\n" + DescribePollScript(s) + *violation);
  }
}

// The codec: encoding then decoding gives the script back.
RC_GTEST_PROP(PollScriptCodec, EncodeThenDecodeIsIdentity,
              (const PollScript& s)) {
  RC_ASSERT(IsValid(s));
  RC_ASSERT(DecodePollScript(EncodePollScript(s)) == s);
}

// The codec: any bytes decode to a valid script, which re-encodes to bytes
// that decode to the same script.
RC_GTEST_PROP(PollScriptCodec, AnyBytesDecodeToAValidScript,
              (const std::vector<std::uint8_t>& bytes)) {
  const PollScript s = DecodePollScript(bytes);
  RC_ASSERT(IsValid(s));
  RC_ASSERT(DecodePollScript(EncodePollScript(s)) == s);
}

// The codec: a decoder kept from script to script gives what a fresh
// decode gives, with fewer children than before and with more again (the
// fuzz target keeps one for its memory).
RC_GTEST_PROP(PollScriptCodec, AKeptDecoderDecodesAsAFreshOne,
              (const std::vector<std::vector<std::uint8_t>>& inputs)) {
  PollScriptDecoder kept;
  for (const std::vector<std::uint8_t>& bytes : inputs) {
    RC_ASSERT(kept.Decode(bytes) == DecodePollScript(bytes));
  }
}

// The model: reset to a script after a run of another, and back, it
// predicts what a new model of that script does (RunModel keeps one model
// for its memory).
RC_GTEST_PROP(PollModelReset, AResetModelPredictsAsANewOne,
              (const PollScript& before, const PollScript& s)) {
  for (PolicyKind policy : kAllPolicies) {
    PollModel kept(policy, before.children, before.draws);
    for (std::size_t t = 0; t < before.calls; ++t) kept.Call();
    for (const PollScript* next : {&s, &before}) {
      kept.Reset(PolicyModelOf(policy), next->children, next->draws);
      PollModel fresh(policy, next->children, next->draws);
      for (std::size_t t = 0; t < next->calls; ++t) {
        const ModelCall got = kept.Call();
        const ModelCall want = fresh.Call();
        RC_ASSERT(got.polled == want.polled);
        RC_ASSERT(got.result == want.result);
        RC_ASSERT(got.tag == want.tag);
        RC_ASSERT(got.event == want.event);
      }
    }
  }
}

// The scenario shrinker: every candidate is valid and differs.
RC_GTEST_PROP(PollScriptCodec, ShrinkCandidatesAreValidAndSimpler,
              (const PollScript& s)) {
  for (const PollScript& c : ShrinkPollScript(s)) {
    RC_ASSERT(IsValid(c));
    RC_ASSERT(!(c == s));
    RC_ASSERT(EncodePollScript(c).size() <= EncodePollScript(s).size());
  }
}

}  // namespace
}  // namespace fairwire::poll
