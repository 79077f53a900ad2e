// FirstOfFour copies its four values into a heap buffer and returns the
// first. Its loop bound flipped (`<` to `<=`, or 4 to 5) reads one value past
// the input and writes one past the buffer: the result is the same, so only
// a sanitizer tells these two mutants apart (fairwire mutate --sanitize).
// The buffer's size 4 to 5 changes nothing at all (equivalent).
#include "first_of.h"

#include <vector>

int FirstOfFour(const int* values) {
  std::vector<int> copy(4);
  for (int i = 0; i < 4; ++i) copy[i] = values[i];
  return copy[0];
}
