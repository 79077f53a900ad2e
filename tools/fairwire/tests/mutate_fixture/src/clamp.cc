#include "clamp.h"

namespace {
int calls = 0;
}  // namespace

int Clamp(int value, int low, int high) {
  ++calls;
  if (value < low) return low;
  if (value > high) return high;
  return value;
}

int CountAbove(const int* values, int n, int threshold) {
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (values[i] > threshold && values[i] != 0) count += 1;
  }
  return count;
}

int Calls() { return calls; }
