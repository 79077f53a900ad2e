// poll_make_seeds: the committed generator of the poll_schedule seed corpus
// and dictionary. Every seed is a PollScript named for the schedule it holds,
// with _select_all for its run through SelectAll.
//
//   poll_make_seeds --write CORPUS_DIR   (re)writes corpus/poll_schedule/*
//                                        and corpus/dicts/poll_schedule.dict
//   poll_make_seeds --check CORPUS_DIR   exit 1 unless the committed files
//                                        equal what this program makes now
//                                        (regressions/ is not seeds)
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "fairwire/scenarios/poll_script_codec.h"
#include "seed_files.h"

namespace fairwire::poll::seeds {
namespace {

// Path relative to the corpus folder -> contents.
using fairwire::seeds::Files;

Outcome R(std::uint8_t e) { return {OutcomeKind::kReady, e}; }
Outcome P() { return {OutcomeKind::kPending, 0}; }
Outcome W() { return {OutcomeKind::kPendingSelfWake, 0}; }
Outcome D() { return {OutcomeKind::kDone, 0}; }
Outcome T() { return {OutcomeKind::kThrow, 0}; }

ChildScript Child(std::vector<Outcome> outcomes, bool loop = false,
                  std::vector<std::uint8_t> protocols = {}) {
  return ChildScript{std::move(outcomes), loop, std::move(protocols)};
}

PollScript Script(PolicyKind policy, int calls,
                  std::vector<ChildScript> children,
                  std::vector<ExternalWake> wakes = {},
                  std::vector<std::uint8_t> draws = {}) {
  PollScript s;
  s.policy = policy;
  s.calls = static_cast<std::uint8_t>(calls);
  s.children = std::move(children);
  s.wakes = std::move(wakes);
  s.draws = std::move(draws);
  return s;
}

// The script's bytes with the composite bit `composite` (0: Select,
// 1: SelectAll; see poll_script_codec.h).
std::string Bytes(const PollScript& s, std::uint8_t composite) {
  const std::vector<std::uint8_t> b =
      WithCompositeBit(EncodePollScript(s), composite);
  return std::string(b.begin(), b.end());
}

Files MakeFiles() {
  Files f;
  auto seed = [&](const std::string& name, const PollScript& s) {
    if (!IsValid(s)) {
      std::fprintf(stderr, "poll_make_seeds: %s is not valid\n", name.c_str());
      std::exit(2);
    }
    // Each schedule through Select and through SelectAll (Nested has one
    // composite).
    f["poll_schedule/" + name] = Bytes(s, 0);
    if (s.policy != PolicyKind::kNested) {
      f["poll_schedule/" + name + "_select_all"] = Bytes(s, 1);
    }
  };
  using K = PolicyKind;
  seed("sticky_always_ready_starves_waiting_sibling",
       Script(K::kSticky, 8, {Child({R(0)}, true), Child({R(1)})}));
  seed("priority_pending_child0_lets_child1_through",
       Script(K::kPriority, 6,
              {Child({P(), R(1), P()}, true), Child({R(2), R(3)}, true)}));
  seed("round_robin_three_always_ready",
       Script(K::kRoundRobin, 9,
              {Child({R(0)}, true), Child({R(1)}, true), Child({R(2)}, true)}));
  seed("budgeted2_bursts_of_three_move_on",
       Script(K::kBudgeted2, 12,
              {Child({R(1), R(2), R(3), P()}, true), Child({R(4), P()}, true),
               Child({W(), R(5)}, true)}));
  seed("budgeted3_finite_bursts_sticky_bound",
       Script(K::kBudgeted3, 20,
              {Child({R(1), R(2), R(3), R(4), P()}, true),
               Child({R(5), R(6), P(), P()}, true), Child({R(7)}),
               Child({P(), P(), R(8), R(9), R(10)}, true)}));
  seed("sticky_drains_bursts_then_moves_on",
       Script(K::kSticky, 16,
              {Child({R(1), R(2), P()}, true), Child({R(3), R(4), R(5), P()}),
               Child({P(), R(6)}, true)}));
  seed("all_children_finish_then_composite_done",
       Script(K::kRoundRobin, 8,
              {Child({R(1), D()}), Child({P(), D()}), Child({D()})}));
  seed("self_wake_yields_every_call",
       Script(K::kSticky, 6, {Child({W()}, true), Child({W(), R(1)}, true)}));
  seed("external_wakes_after_pending_calls",
       Script(K::kRoundRobin, 6, {Child({P(), P(), R(1)}), Child({P(), R(2)})},
              {{0, 0}, {0, 1}, {2, 1}, {5, 0}}));
  seed("throwing_child_mid_call_then_ready",
       Script(
           K::kRoundRobin, 6,
           {Child({P(), R(1)}), Child({T(), R(2), T()}), Child({R(3), D()})}));
  seed("random_start_cycles_draws",
       Script(K::kRandomStart, 10,
              {Child({R(0)}, true), Child({R(1), P()}, true),
               Child({P(), W(), R(2)}, true), Child({D()})},
              {}, {3, 1, 250, 7, 0}));
  seed("nested_left_done_then_right_served",
       Script(
           K::kNested, 6,
           {Child({P(), D()}), Child({R(1), P()}, true), Child({R(2)}, true)}));
  seed("protocols_with_empty_children_between",
       Script(K::kPriority, 2,
              {Child({}, false, {0, 1}), Child({}), Child({}, false, {2}),
               Child({}), Child({}, false, {3, 4, 5, 6, 7, 0, 1})}));
  {
    std::vector<ChildScript> many;
    for (int i = 0; i < 32; ++i) {
      const auto e = static_cast<std::uint8_t>(i);
      switch (i % 5) {
        case 0:
          many.push_back(
              Child({R(e)}, true, {static_cast<std::uint8_t>(i % 8)}));
          break;
        case 1:
          many.push_back(Child({P(), R(e), W()}, true));
          break;
        case 2:
          many.push_back(Child({R(e), R(e), D()}));
          break;
        case 3:
          many.push_back(Child({}));
          break;
        default:
          many.push_back(Child({W(), P(), R(e)}, false, {1, 2}));
          break;
      }
    }
    seed("thirty_two_children_mixed_round_robin",
         Script(K::kRoundRobin, 64, many, {{10, 3}, {40, 31}}));
  }
  seed("single_idle_child_one_call", Script(K::kPriority, 1, {Child({})}));

  // Dictionary: the bytes of common child shapes (header + outcomes).
  f["dicts/poll_schedule.dict"] =
      "# poll_schedule: child headers and outcome bytes (see "
      "properties/scenarios/poll_script.cc)\n"
      "ready_forever=\"\\x11\\x01\"\n"
      "ready_once=\"\\x01\\x01\"\n"
      "pending_then_ready=\"\\x12\\x00\\x01\"\n"
      "self_wake=\"\\x02\"\n"
      "done=\"\\x03\"\n"
      "throw=\"\\x04\"\n"
      "burst_of_three=\"\\x14\\x01\\x09\\x11\\x00\"\n"
      "two_protocols=\"\\x40\\x00\\x01\"\n";
  return f;
}

}  // namespace
}  // namespace fairwire::poll::seeds

int main(int argc, char** argv) {
  return fairwire::seeds::SyncSeeds("poll_make_seeds", argc, argv,
                                    fairwire::poll::seeds::MakeFiles(),
                                    {"poll_schedule"});
}
