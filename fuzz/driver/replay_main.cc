// The standalone driver every fuzz target links as <target>_replay: no fuzzing
// engine, any compiler. It replays corpus files, prints an input as its typed
// scenario, and shrinks a failing input at the scenario level.
//
//   <target>_replay [--require-files] PATH...    check every file with all
//                                                 its checks (check_all;
//                                                 folders are walked, sorted)
//   <target>_replay --describe FILE...           print each scenario
//   <target>_replay --shrink FILE --out OUT      shrink a failing input
//   <target>_replay --info                       name and summary
//   <target>_replay --repeat R PATH...           check every file, then time
//                                                 R passes of the fuzzing
//                                                 check over them (fairwire
//                                                 fuzz bench --per-input)
//
// Exit status: 0 all passed, 1 a check failed, 2 usage or I/O error (or no
// file found with --require-files). libFuzzer-style flags (-runs=N, ...) are
// ignored, so the same command line works against either binary.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fairwire/fuzz/target.h"

namespace fairwire::fuzz {
namespace {

namespace fs = std::filesystem;

bool ReadFile(const fs::path& path, Bytes& out) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return false;
  const std::streamoff size = in.tellg();
  if (size < 0) return false;
  out.resize(static_cast<std::size_t>(size));
  in.seekg(0);
  in.read(reinterpret_cast<char*>(out.data()),
          static_cast<std::streamsize>(out.size()));
  return static_cast<bool>(in);
}

bool WriteFile(const fs::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

// Every regular file under the given paths, folders walked recursively,
// sorted for a stable order. Hidden files (.gitkeep, ...) are skipped.
std::vector<fs::path> CollectFiles(const std::vector<std::string>& paths,
                                   bool& io_error) {
  std::vector<fs::path> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& entry : fs::recursive_directory_iterator(p, ec)) {
        const std::string base = entry.path().filename().string();
        if (entry.is_regular_file() && !base.starts_with(".")) {
          files.push_back(entry.path());
        }
      }
    } else if (fs::is_regular_file(p, ec)) {
      files.emplace_back(p);
    } else {
      std::fprintf(stderr, "fairwire: no such file or folder: %s\n", p.c_str());
      io_error = true;
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The property a violation names: the text before its first ':'.
std::string ViolationKind(const std::string& violation) {
  return violation.substr(0, violation.find(':'));
}

enum class ReplayResult { kPass, kViolation, kCrash };

struct Result {
  ReplayResult outcome = ReplayResult::kPass;
  std::string kind;  // ViolationKind for kViolation
};

// Every check of `input`: the target's check_all where it has one (the
// replay runs all of a scenario's checks, whatever part of them the input
// chooses under fuzzing), else its check.
std::optional<std::string> CheckAll(const TargetSpec& target, ByteSpan input) {
  return target.check_all != nullptr ? target.check_all(input)
                                     : target.check(input);
}

// Runs every check in a child process, so that a crash (a sanitizer report, an
// abort, a timeout) counts as a failure instead of ending the shrink.
Result RunIsolated(const TargetSpec& target, const Bytes& input) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {ReplayResult::kCrash, "pipe"};
  const pid_t pid = fork();
  if (pid < 0) return {ReplayResult::kCrash, "fork"};
  if (pid == 0) {
    close(pipe_fds[0]);
    alarm(20);
    // Keep the child's sanitizer noise out of the shrinker's output.
    if (std::FILE* null = std::fopen("/dev/null", "w")) {
      dup2(fileno(null), STDERR_FILENO);
    }
    const std::optional<std::string> violation = CheckAll(target, input);
    if (!violation) _exit(0);
    const std::string kind = ViolationKind(*violation);
    const ssize_t written = write(pipe_fds[1], kind.data(), kind.size());
    _exit(written < 0 ? 3 : 1);
  }
  close(pipe_fds[1]);
  std::string kind;
  char buf[256];
  ssize_t n;
  while ((n = read(pipe_fds[0], buf, sizeof buf)) > 0) {
    kind.append(buf, static_cast<std::size_t>(n));
  }
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFEXITED(status) && WEXITSTATUS(status) == 1) {
    return {ReplayResult::kViolation, kind};
  }
  return {ReplayResult::kCrash, ""};
}

bool SameFailure(const Result& a, const Result& b) {
  return a.outcome == b.outcome && a.kind == b.kind;
}

int Shrink(const TargetSpec& target, const std::string& in_path,
           const std::string& out_path) {
  Bytes current;
  if (!ReadFile(in_path, current)) {
    std::fprintf(stderr, "fairwire: cannot read %s\n", in_path.c_str());
    return 2;
  }
  const Result original = RunIsolated(target, current);
  if (original.outcome == ReplayResult::kPass) {
    std::fprintf(stderr, "fairwire: %s passes; nothing to shrink\n",
                 in_path.c_str());
    return 2;
  }
  // Greedy: take the first simpler scenario that fails the same way, repeat
  // until no candidate does. Each step makes the scenario strictly simpler,
  // and the step count is bounded as a guard against a cycling shrinker.
  int steps = 0;
  for (bool progressed = true; progressed && steps < 10000;) {
    progressed = false;
    for (Bytes& candidate : target.shrink_candidates(current)) {
      if (candidate == current) continue;
      if (SameFailure(RunIsolated(target, candidate), original)) {
        current = std::move(candidate);
        progressed = true;
        ++steps;
        break;
      }
    }
  }
  if (!WriteFile(out_path, current)) {
    std::fprintf(stderr, "fairwire: cannot write %s\n", out_path.c_str());
    return 2;
  }
  std::printf("shrunk in %d steps to %zu bytes: %s\n", steps, current.size(),
              out_path.c_str());
  std::printf("%s", target.describe(current).c_str());
  if (std::optional<std::string> violation = CheckAll(target, current)) {
    std::printf("violation: %s\n", violation->c_str());
  }
  return 0;
}

int Usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--require-files] [--repeat R] PATH...\n"
               "       %s --describe FILE...\n"
               "       %s --shrink FILE --out OUT\n"
               "       %s --info\n",
               argv0, argv0, argv0, argv0);
  return 2;
}

// R passes of the check over `inputs`, timed with nothing else in the loop
// (the files were read and checked once before): the cost per input of the
// check the fuzzing engines run (`check`, not check_all), without an
// engine's bookkeeping or file reads.
void TimeChecks(const TargetSpec& target, const std::vector<Bytes>& inputs,
                long repeat) {
  const auto start = std::chrono::steady_clock::now();
  std::size_t failed = 0;
  for (long r = 0; r < repeat; ++r) {
    for (const Bytes& input : inputs) {
      if (target.check(input)) ++failed;
    }
  }
  const std::chrono::duration<double> seconds =
      std::chrono::steady_clock::now() - start;
  const double checks =
      static_cast<double>(inputs.size()) * static_cast<double>(repeat);
  std::printf(
      "%.*s: timed %zu inputs x %ld passes: %.3f s, %.3f us per input\n",
      static_cast<int>(target.name.size()), target.name.data(), inputs.size(),
      repeat, seconds.count(),
      checks > 0 ? seconds.count() * 1e6 / checks : 0.0);
  if (failed > 0) {
    std::printf("%.*s: %zu timed checks failed\n",
                static_cast<int>(target.name.size()), target.name.data(),
                failed);
  }
}

int Main(int argc, char** argv) {
  const TargetSpec& target = Target();
  bool describe = false;
  bool require_files = false;
  long repeat = 0;
  std::string shrink_in;
  std::string shrink_out;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--describe") {
      describe = true;
    } else if (arg == "--require-files") {
      require_files = true;
    } else if (arg == "--repeat" && i + 1 < argc) {
      char* end = nullptr;
      repeat = std::strtol(argv[++i], &end, 10);
      if (end == nullptr || *end != '\0' || repeat < 1) {
        std::fprintf(stderr, "fairwire: --repeat needs a count of 1 or more\n");
        return Usage(argv[0]);
      }
    } else if (arg == "--shrink" && i + 1 < argc) {
      shrink_in = argv[++i];
    } else if (arg == "--out" && i + 1 < argc) {
      shrink_out = argv[++i];
    } else if (arg == "--info") {
      std::printf("%.*s\t%.*s\n", static_cast<int>(target.name.size()),
                  target.name.data(), static_cast<int>(target.summary.size()),
                  target.summary.data());
      return 0;
    } else if (arg == "--help" || arg == "-h") {
      return Usage(argv[0]);
    } else if (arg.starts_with("--")) {
      std::fprintf(stderr, "fairwire: unknown option %s\n", arg.c_str());
      return Usage(argv[0]);
    } else if (arg.starts_with("-")) {
      std::fprintf(stderr, "fairwire: ignoring libFuzzer flag %s\n",
                   arg.c_str());
    } else {
      paths.push_back(arg);
    }
  }
  if (!shrink_in.empty()) {
    if (shrink_out.empty()) return Usage(argv[0]);
    return Shrink(target, shrink_in, shrink_out);
  }
  if (paths.empty()) return Usage(argv[0]);

  bool io_error = false;
  const std::vector<fs::path> files = CollectFiles(paths, io_error);
  int failed = 0;
  std::vector<Bytes> timed;  // --repeat: the inputs, kept for TimeChecks
  for (const fs::path& file : files) {
    Bytes input;
    if (!ReadFile(file, input)) {
      std::fprintf(stderr, "fairwire: cannot read %s\n", file.c_str());
      io_error = true;
      continue;
    }
    if (describe) {
      std::printf("== %s (%zu bytes)\n%s", file.c_str(), input.size(),
                  target.describe(input).c_str());
    }
    if (std::optional<std::string> violation = CheckAll(target, input)) {
      ++failed;
      std::printf("FAIL %s: %s\n", file.c_str(), violation->c_str());
      if (!describe) std::printf("%s", target.describe(input).c_str());
    }
    if (repeat > 0) timed.push_back(std::move(input));
  }
  std::printf("%.*s: %zu files replayed, %d failed\n",
              static_cast<int>(target.name.size()), target.name.data(),
              files.size(), failed);
  if (failed > 0) return 1;
  if (io_error) return 2;
  if (repeat > 0) TimeChecks(target, timed, repeat);
  if (require_files && files.empty()) {
    std::fprintf(stderr, "fairwire: no corpus files under the given paths\n");
    return 2;
  }
  return 0;
}

}  // namespace
}  // namespace fairwire::fuzz

int main(int argc, char** argv) { return fairwire::fuzz::Main(argc, argv); }
