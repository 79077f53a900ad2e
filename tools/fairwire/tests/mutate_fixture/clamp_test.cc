// Kills every mutant of src/clamp.cc but three: Clamp's `++calls` (Calls()
// is never asked), and its `<` and `>` flipped to `<=` and `>=` (equivalent:
// at value == low both return low, at value == high both return high). Of
// src/first_of.cc, three survive a plain build: two that only a sanitizer
// sees, and one equivalent (see that file).
#include "clamp.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "first_of.h"

#define EXPECT(c)                                                  \
  do {                                                             \
    if (!(c)) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c); \
      std::exit(1);                                                \
    }                                                              \
  } while (0)

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--nothing") == 0) return 0;
  static_assert(kLimit == 7 && Twice(3) == 6);
  EXPECT(Clamp(-3, 0, 10) == 0);
  EXPECT(Clamp(0, 0, 10) == 0);
  EXPECT(Clamp(4, 0, 10) == 4);
  EXPECT(Clamp(10, 0, 10) == 10);
  EXPECT(Clamp(11, 0, 10) == 10);
  EXPECT(Clamp(1, 0, 10) == 1);
  EXPECT(Clamp(9, 0, 10) == 9);
  const int values[] = {5, 1, 7, 3, 9};
  EXPECT(CountAbove(values, 5, 4) == 3);
  EXPECT(CountAbove(values, 5, 5) == 2);
  EXPECT(CountAbove(values, 4, 0) == 4);
  EXPECT(CountAbove(values + 1, 1, 0) == 1);
  EXPECT(CountAbove(values, 0, 0) == 0);
  EXPECT((Sum<3>(std::array<int, 3>{1, 2, 4}) == 7));
  // Exactly four values on the heap: a read past them is ASan's to see.
  const std::vector<int> four = {8, 2, 3, 4};
  EXPECT(FirstOfFour(four.data()) == 8);
  return 0;
}
