// The poll kit for a C++ composite: a user describes how to build their
// composite from n scripted children and how to read its events, in a
// type that satisfies PollKit, and defines fairwire::poll::kit::Kit() in
// their adapter source:
//
//   struct MyKit {
//     static constexpr const char* kName = "MySelect";
//     static constexpr std::size_t kMinChildren = 1;
//     static constexpr std::size_t kMaxChildren = 8;       // at most 32
//     // Optional, true when absent: whether a child may finish (Done) or
//     // throw; a composite of children that never do says false.
//     static constexpr bool kChildrenFinish = true;
//     static constexpr bool kChildrenThrow = true;
//     static std::optional<fairwire::poll::PolicyModel> Claims() {
//       return fairwire::poll::RoundRobinModel();        // or std::nullopt
//     }
//     static MySelect<ScriptedChild> Make(std::vector<ScriptedChild> c);
//     static fairwire::poll::TagAndEvent TagOf(const MyEvent& e);
//   };
//   const fairwire::poll::kit::PollKitSpec& fairwire::poll::kit::Kit() {
//     static const auto spec = fairwire::poll::kit::SpecOf<MyKit>();
//     return spec;
//   }
//
// The composite returned by Make must have Poll(Context&) returning a
// fairwire::poll::Poll of its event, and IsDone(). fairwire_add_poll_kit
// (cmake/FairwireKit.cmake) then builds the RapidCheck properties, the
// rc::state model test, a fuzz target with its corpus replay, and the
// verdict test over it.
#ifndef FAIRWIRE_CHECKS_POLL_KIT_H_
#define FAIRWIRE_CHECKS_POLL_KIT_H_

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fairwire/checks/poll_harness.h"
#include "fairwire/checks/poll_verdict.h"
#include "fairwire/models/poll_policy_model.h"

namespace fairwire::poll::kit {

// A composite the kit can drive: polled with a Context, says when it is
// done.
template <class C>
concept DrivableComposite = requires(C& c, Context& cx) {
  { c.Poll(cx).IsReady() } -> std::convertible_to<bool>;
  { c.Poll(cx).IsPending() } -> std::convertible_to<bool>;
  c.Poll(cx).value();
  { c.IsDone() } -> std::convertible_to<bool>;
};

// See the file comment.
template <class K>
concept PollKit = requires(std::vector<ScriptedChild> children) {
  { K::kName } -> std::convertible_to<std::string>;
  { K::kMinChildren } -> std::convertible_to<std::size_t>;
  { K::kMaxChildren } -> std::convertible_to<std::size_t>;
  { K::Claims() } -> std::same_as<std::optional<PolicyModel>>;
  { K::Make(std::move(children)) } -> DrivableComposite;
  {
    K::TagOf(
        K::Make(std::move(children)).Poll(std::declval<Context&>()).value())
    } -> std::same_as<TagAndEvent>;
};

// One composite stepped call by call, for the model-based test, which
// appends outcomes to the children's scripts between calls.
class KitSession {
 public:
  virtual ~KitSession() = default;
  // One call of the composite (Observer::Call).
  virtual ObservedEvent Call() = 0;
  // The script's kind of wake of `child`'s latest waker.
  virtual void WakeExternally(std::size_t child) = 0;
  // The observation so far.
  virtual const Observation& observation() const = 0;
};

// What the kit's drivers read: the composite under test, a way to step it
// over scripts that grow, and the policy it claims (none: only the
// policy-free properties are demanded).
struct PollKitSpec {
  CompositeUnderTest composite;
  // A session over children playing `scripts` (read as they grow; the
  // deque must outlive the session).
  std::function<std::unique_ptr<KitSession>(
      const std::deque<ChildScript>& scripts)>
      open;
  std::optional<PolicyModel> claims;
};

namespace internal {

// K::TagOf as a callable type.
template <class K>
struct KitTagOf {
  template <class Event>
  TagAndEvent operator()(const Event& e) const {
    return K::TagOf(e);
  }
};

// The children of a kit's composite: ids 0..n-1 playing `scripts`.
inline std::vector<ScriptedChild> KitChildren(
    const std::deque<ChildScript>& scripts, Recorder& recorder) {
  std::vector<ScriptedChild> out;
  out.reserve(scripts.size());
  for (std::size_t i = 0; i < scripts.size(); ++i) {
    out.emplace_back(i, &scripts[i], &recorder);
  }
  return out;
}

template <class K>
class SessionOf final : public KitSession {
 public:
  explicit SessionOf(const std::deque<ChildScript>& scripts)
      : composite_(K::Make(KitChildren(scripts, recorder_))),
        observer_(composite_, recorder_, K::kName, scripts.size(),
                  KitTagOf<K>()) {}
  ObservedEvent Call() override { return observer_.Call(); }
  void WakeExternally(std::size_t child) override {
    observer_.WakeExternally(child);
  }
  const Observation& observation() const override {
    return observer_.observation();
  }

 private:
  using Composite =
      decltype(K::Make(std::declval<std::vector<ScriptedChild>>()));
  Recorder recorder_;  // before the composite: its children point here
  Composite composite_;
  Observer<Composite, KitTagOf<K>> observer_;
};

}  // namespace internal

// The spec of a PollKit type: its composite, built over the script's
// children recording into one Recorder, observed with Observe.
template <PollKit K>
PollKitSpec SpecOf() {
  PollKitSpec spec;
  spec.composite.name = K::kName;
  spec.composite.min_children = std::max<std::size_t>(K::kMinChildren, 1);
  spec.composite.max_children =
      std::min<std::size_t>(K::kMaxChildren, kMaxScriptChildren);
  if constexpr (requires { bool{K::kChildrenFinish}; }) {
    spec.composite.children_finish = K::kChildrenFinish;
  }
  if constexpr (requires { bool{K::kChildrenThrow}; }) {
    spec.composite.children_throw = K::kChildrenThrow;
  }
  spec.composite.run = [](const PollScript& s) {
    Recorder recorder;
    std::vector<ScriptedChild> children;
    children.reserve(s.children.size());
    for (std::size_t i = 0; i < s.children.size(); ++i) {
      children.emplace_back(i, &s.children[i], &recorder);
    }
    auto composite = K::Make(std::move(children));
    return CompositeRun{
        Observe(s, composite, recorder, K::kName, internal::KitTagOf<K>()), {}};
  };
  spec.open = [](const std::deque<ChildScript>& scripts) {
    return std::unique_ptr<KitSession>(
        std::make_unique<internal::SessionOf<K>>(scripts));
  };
  spec.claims = K::Claims();
  return spec;
}

// Defined by the user's adapter source (see the file comment).
const PollKitSpec& Kit();

// Checks an observation of `script`'s run, from any recorder (decoded
// from bytes, say): its shape, every policy-free property, then, if
// given, the match of `model`. nullopt, or the first violation (its
// property's name first).
std::optional<std::string> CheckObservation(
    const PollScript& script, const Observation& observation,
    const std::optional<PolicyModel>& model);

// Every policy-free property of `script`'s run through the kit's
// composite, then the claimed model's match: nullopt, or the first
// violation (its property's name first), or why the run gave no
// observation.
std::optional<std::string> CheckKitScript(const PollKitSpec& kit,
                                          const PollScript& script);

}  // namespace fairwire::poll::kit

#endif  // FAIRWIRE_CHECKS_POLL_KIT_H_
