// Uses both installed libraries; exits non-zero if either misbehaves.
#include <cstdio>

#include "fairwire/wire/status.h"

int main() {
  const fairwire::wire::DecodeStatus status{
      fairwire::wire::DecodeError::kTruncated, 3};
  if (fairwire::wire::ToString(status) != "truncated at byte 3") {
    std::puts("unexpected status text");
    return 1;
  }
  std::puts("consumer: fairwire::poll and fairwire::wire found and working");
  return 0;
}
