// The ten poll properties of DESIGN.md ("Poll core"), each one RapidCheck
// property per composite (Select, SelectAll), each run over every policy
// (Select also over the Nested baseline) against the reference model.
// Also the scenario codec as properties.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "fairwire/checks/poll_checks.h"
#include "fairwire/generators/poll_generators.h"
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
