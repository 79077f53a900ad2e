// The code under mutation in test_mutate.py.
#ifndef CLAMP_H_
#define CLAMP_H_

#include <array>

// Constant expressions hold no mutation points.
constexpr int kLimit = 3 + 4;
constexpr int Twice(int x) { return x < 0 ? 0 : 2 * x; }

int Clamp(int value, int low, int high);
int CountAbove(const int* values, int n, int threshold);
int Calls();

template <int N>
int Sum(const std::array<int, N>& values) {
  int total = 0;
  for (int i = 0; i < N; ++i) total += values.at(i);
  return total;
}

#endif  // CLAMP_H_
