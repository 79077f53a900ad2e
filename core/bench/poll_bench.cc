// poll/<B>x<P>/<impl>: B behaviours with P protocols each, composed by
// Select<RoundRobin | Sticky | Priority | Budgeted<4>> or by the nested
// binary baseline Nested<A, Nested<B, ...>>.
//
// One iteration builds the composite from B fresh CountdownHandlers (each
// answers Pending with a self-wake 1,000 times, then Ready once), enumerates
// every protocol of the composite once, then polls it until every child has
// produced its one event. Counters: ns_per_elem is the time per child poll
// (the steady-state figure; the child polls per iteration are exact: every
// Pending poll wakes the context's WakeCounter once), allocs_per_iter the
// calls to operator new in the timed loop per iteration (0: no allocation
// per poll).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "alloc_counter.h"
#include "bench_util.h"
#include "fairwire/poll/countdown_handler.h"
#include "fairwire/poll/nested.h"
#include "fairwire/poll/policy.h"
#include "fairwire/poll/select.h"
#include "fairwire/poll/waker.h"

namespace fairwire::bench {
namespace {

using poll::CountdownHandler;

// Pending polls before each child's one event.
constexpr std::uint32_t kPendingPerEvent = 1000;

// The protocol names of B children with P protocols each, and one
// CountdownHandler per child listing its P names.
class Behaviours {
 public:
  Behaviours(std::size_t b, std::size_t p) : p_(p) {
    names_.reserve(b * p);
    for (std::size_t i = 0; i < b; ++i) {
      for (std::size_t j = 0; j < p; ++j) {
        names_.push_back("/fairwire/bench/child" + std::to_string(i) +
                         "/proto" + std::to_string(j) + "/1.0.0");
      }
    }
    views_.assign(names_.begin(), names_.end());
  }

  // A fresh handler for child i (Pending 1,000 times, then Ready(i)).
  CountdownHandler Child(std::size_t i) const {
    return CountdownHandler(
        kPendingPerEvent, static_cast<CountdownHandler::Event>(i),
        std::span<const std::string_view>(views_).subspan(i * p_, p_));
  }

 private:
  std::size_t p_;
  std::vector<std::string> names_;
  std::vector<std::string_view> views_;
};

template <std::size_t>
using ChildAt = CountdownHandler;

// Select<Policy, CountdownHandler x B>.
template <class Policy, std::size_t B, class Seq = std::make_index_sequence<B>>
struct SelectOf;
template <class Policy, std::size_t B, std::size_t... I>
struct SelectOf<Policy, B, std::index_sequence<I...>> {
  using Type = poll::Select<Policy, ChildAt<I>...>;
  static Type Make(const Behaviours& behaviours) {
    return Type(behaviours.Child(I)...);
  }
};

// Nested<C, Nested<C, ... C>> with B leaves (the bare handler when B = 1).
template <std::size_t B>
struct NestedOf {
  using Type = poll::Nested<CountdownHandler, typename NestedOf<B - 1>::Type>;
  static Type Make(const Behaviours& behaviours, std::size_t first = 0) {
    return Type(behaviours.Child(first),
                NestedOf<B - 1>::Make(behaviours, first + 1));
  }
};
template <>
struct NestedOf<1> {
  using Type = CountdownHandler;
  static Type Make(const Behaviours& behaviours, std::size_t first = 0) {
    return behaviours.Child(first);
  }
};

// One iteration of the workload. Returns the protocols enumerated; adds the
// events polled to *events (it polls until there are B of them).
template <class Composite>
std::size_t RunOnce(Composite& composite, std::size_t b, poll::Context& cx,
                    std::size_t* events) {
  std::size_t protocols = 0;
  std::size_t name_bytes = 0;
  for (std::string_view name : composite.Protocols()) {
    ++protocols;
    name_bytes += name.size();
  }
  benchmark::DoNotOptimize(name_bytes);
  std::size_t ready = 0;
  while (ready < b) {
    auto result = composite.Poll(cx);
    // The caller's work: branch on the state, take a Ready event. (Forcing
    // the whole Poll object through memory each call, as DoNotOptimize(result)
    // did, measured a store-forwarding stall of the harness, not the poll.)
    if (result.IsReady()) {
      ++ready;
      benchmark::DoNotOptimize(result.value());
    }
    if (result.IsDone()) break;
  }
  *events += ready;
  return protocols;
}

// The benchmark body for one composite type (Factory::Type built by
// Factory::Make) on B children with P protocols each.
template <class Factory, std::size_t B>
void PollGrid(benchmark::State& state, std::size_t p) {
  const Behaviours behaviours(B, p);
  poll::WakeCounter wakes;
  poll::Context cx(wakes.waker());

  // Once, outside the timed loop: the composite sees every protocol and
  // gives every child's event; count the child polls of one iteration.
  std::size_t events = 0;
  {
    auto composite = Factory::Make(behaviours);
    if (RunOnce(composite, B, cx, &events) != B * p || events != B) {
      state.SkipWithError("the composite lost protocols or events");
      return;
    }
  }
  const double polls_per_iteration = static_cast<double>(wakes.count() + B);

  events = 0;
  const std::uint64_t before = AllocationCount();
  for (auto _ : state) {
    auto composite = Factory::Make(behaviours);
    std::size_t protocols = RunOnce(composite, B, cx, &events);
    benchmark::DoNotOptimize(protocols);
  }
  const std::uint64_t allocations = AllocationCount() - before;
  if (events != B * static_cast<std::size_t>(state.iterations())) {
    state.SkipWithError("an iteration did not produce B events");
    return;
  }
  ReportCounters(state, polls_per_iteration, 0, allocations);
  state.counters["protocols"] = static_cast<double>(B * p);
}

template <std::size_t B>
void RegisterShape(std::size_t p) {
  const std::string shape =
      "poll/" + std::to_string(B) + "x" + std::to_string(p) + "/";
  auto add = [&](const char* impl, void (*fn)(benchmark::State&, std::size_t)) {
    benchmark::RegisterBenchmark((shape + impl).c_str(), fn, p);
  };
  add("roundrobin", &PollGrid<SelectOf<poll::RoundRobin, B>, B>);
  add("sticky", &PollGrid<SelectOf<poll::Sticky, B>, B>);
  add("priority", &PollGrid<SelectOf<poll::Priority, B>, B>);
  add("budgeted", &PollGrid<SelectOf<poll::Budgeted<4>, B>, B>);
  add("nested", &PollGrid<NestedOf<B>, B>);
}

// The grid of issue 5: B behaviours x P protocols.
const bool registered = [] {
  for (std::size_t p : {10, 100, 1000}) RegisterShape<1>(p);
  for (std::size_t p : {2, 20, 200}) RegisterShape<5>(p);
  for (std::size_t p : {1, 10, 100}) RegisterShape<10>(p);
  for (std::size_t p : {1, 10, 100}) RegisterShape<20>(p);
  return true;
}();

}  // namespace
}  // namespace fairwire::bench
