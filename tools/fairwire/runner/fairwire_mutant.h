// The run-time side of `fairwire mutate`'s mutation schemata. Every source
// file the command rewrites includes this header first; each mutation point
// in it becomes `(FAIRWIRE_MUTANT(id) ? mutated : original)`, so one build
// holds every mutant and the environment picks the one that is live:
//   FAIRWIRE_MUTANT=<id>        mutant <id> is live (none when unset)
//   FAIRWIRE_MUTANT_TRACE=<f>   append to file <f> the id of every mutation
//                               point this process reaches, once each (the
//                               tests that reach a point are the ones run
//                               against its mutant)
// Header-only (C++17 inline variables; in C, static state per translation
// unit), so a rewritten project needs no change to its build. Not part of
// any library; never included by hand.
#ifndef FAIRWIRE_MUTANT_H_
#define FAIRWIRE_MUTANT_H_

#include <fcntl.h>
#include <unistd.h>

#ifndef O_CLOEXEC  // strict ISO C modes hide it
#define O_CLOEXEC 0
#endif

#ifdef __cplusplus

#include <cstdio>
#include <cstdlib>

namespace fairwire_mutant {

// The most points one build may hold (ids 0 .. kMaxPoints - 1).
inline constexpr long kMaxPoints = 1L << 20;

struct State {
  long live = -1;          // FAIRWIRE_MUTANT, or -1
  int trace_fd = -1;       // FAIRWIRE_MUTANT_TRACE, opened for append
  unsigned char* reached;  // one flag per id, when tracing

  State() : reached(nullptr) {
    if (const char* id = std::getenv("FAIRWIRE_MUTANT")) {
      live = std::strtol(id, nullptr, 10);
    }
    if (const char* path = std::getenv("FAIRWIRE_MUTANT_TRACE")) {
      trace_fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      if (trace_fd >= 0) {
        reached = static_cast<unsigned char*>(std::calloc(kMaxPoints, 1));
      }
    }
  }
};

inline State& Get() {
  static State state;
  return state;
}

// Records the first time this process reaches point `id` (one write, so a
// process that later crashes still leaves its record).
inline void Reach(State& s, long id) {
  if (id < 0 || id >= kMaxPoints) return;
  if (__atomic_exchange_n(&s.reached[id], 1, __ATOMIC_RELAXED) != 0) return;
  char line[24];
  const int n = std::snprintf(line, sizeof line, "%ld\n", id);
  if (n > 0) {
    [[maybe_unused]] const ssize_t written =
        ::write(s.trace_fd, line, static_cast<std::size_t>(n));
  }
}

// Whether mutant `id` is live in this process.
inline bool Live(long id) {
  State& s = Get();
  if (s.reached != nullptr) Reach(s, id);
  return s.live == id;
}

}  // namespace fairwire_mutant

#define FAIRWIRE_MUTANT(id) (::fairwire_mutant::Live(id))

#else  // C: the same, with the state per translation unit (each reads the
       // environment once; a point reached by two units is recorded twice,
       // which the reader does not mind).

#include <stdio.h>
#include <stdlib.h>

#define FAIRWIRE_MUTANT_MAX_POINTS (1L << 20)

static long fairwire_mutant_live_ = -2;  // -2: not read yet
static int fairwire_mutant_fd_ = -1;
static unsigned char* fairwire_mutant_reached_ = NULL;

static inline int fairwire_mutant_live(long id) {
  if (fairwire_mutant_live_ == -2) {
    const char* live = getenv("FAIRWIRE_MUTANT");
    const char* path = getenv("FAIRWIRE_MUTANT_TRACE");
    fairwire_mutant_live_ = live != NULL ? strtol(live, NULL, 10) : -1;
    if (path != NULL) {
      fairwire_mutant_fd_ =
          open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      if (fairwire_mutant_fd_ >= 0) {
        fairwire_mutant_reached_ =
            (unsigned char*)calloc(FAIRWIRE_MUTANT_MAX_POINTS, 1);
      }
    }
  }
  if (fairwire_mutant_reached_ != NULL && id >= 0 &&
      id < FAIRWIRE_MUTANT_MAX_POINTS && !fairwire_mutant_reached_[id]) {
    char line[24];
    int n;
    fairwire_mutant_reached_[id] = 1;
    n = snprintf(line, sizeof line, "%ld\n", id);
    if (n > 0) {
      const ssize_t written = write(fairwire_mutant_fd_, line, (size_t)n);
      (void)written;  // a lost trace line only makes the run slower
    }
  }
  return fairwire_mutant_live_ == id;
}

#define FAIRWIRE_MUTANT(id) (fairwire_mutant_live(id))

#endif  // __cplusplus

#endif  // FAIRWIRE_MUTANT_H_
