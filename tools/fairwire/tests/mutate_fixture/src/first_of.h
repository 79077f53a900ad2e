#ifndef MUTATE_FIXTURE_FIRST_OF_H_
#define MUTATE_FIXTURE_FIRST_OF_H_

// The first of four values, through a copy of all four.
int FirstOfFour(const int* values);

#endif  // MUTATE_FIXTURE_FIRST_OF_H_
