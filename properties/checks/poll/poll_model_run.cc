// The model's run of a script (poll_checks.h ModelRun): its prediction per
// call and, before each call, which children were ready and how many live.
#include "fairwire/checks/poll_checks.h"

namespace fairwire::poll {

ModelRun RunModel(const PollScript& script, PolicyKind policy) {
  return RunModel(script, PolicyModelOf(policy));
}

ModelRun RunModel(const PollScript& script, const PolicyModel& policy) {
  ModelRun run;
  RunModel(script, policy, run);
  return run;
}

void RunModel(const PollScript& script, PolicyKind policy, ModelRun& run) {
  RunModel(script, PolicyModelOf(policy), run);
}

void RunModel(const PollScript& script, const PolicyModel& policy,
              ModelRun& run) {
  // This thread's model, kept for its memory (RunModel does not call
  // itself): no copy of the script's outcomes is allocated per run.
  thread_local PollModel model(PolicyModelOf(PolicyKind::kPriority), {}, {});
  model.Reset(policy, script.children, script.draws);
  const std::size_t n = model.size();
  run.children = n;
  run.calls.clear();
  run.polled.clear();
  run.polled_begin.clear();
  run.live_before.clear();
  run.calls.reserve(script.calls);
  run.polled.reserve(std::size_t{script.calls} * n);
  run.polled_begin.reserve(std::size_t{script.calls} + 1);
  run.live_before.reserve(script.calls);
  run.ready_before.assign(std::size_t{script.calls} * n, 0);
  for (std::size_t t = 0; t < script.calls; ++t) {
    for (std::size_t i = 0; i < n; ++i) {
      run.ready_before[t * n + i] = model.IsReady(i) ? 1 : 0;
    }
    run.live_before.push_back(model.live());
    run.polled_begin.push_back(run.polled.size());
    run.calls.push_back(model.CallInto(run.polled));
  }
  run.polled_begin.push_back(run.polled.size());
}

}  // namespace fairwire::poll
