// Minimising a divergence of a decoder under test, so that it is classified
// by the rules its smallest input touches rather than by everything the
// input happened to hold. Records first (the scenario level): the payload is
// read as a tree of records, nested messages parsed by the schema and
// groups' records too, also past a record whose tag the spec forbids (such
// as field 0). Each record may be removed, replaced by its same-field child,
// spliced into its parent (a message of the parent's own type, or a group:
// one level less), emptied, written with its shortest tag, length and varint
// value, or, for strings and bytes, lose single bytes, every length
// recomputed; then chunks of bytes, halves first. Deterministic, and
// bounded.
#ifndef FAIRWIRE_CHECKS_WIRE_ADAPTER_MINIMISE_H_
#define FAIRWIRE_CHECKS_WIRE_ADAPTER_MINIMISE_H_

#include <cstddef>

#include "fairwire/checks/wire_adapter_compare.h"

namespace fairwire::wire::kit {

// A divergence at its smallest input.
struct MinimalDivergence {
  Bytes input;             // the payload
  Comparison comparison;   // of `input`: kDiverge, the same parting
  std::size_t trials = 0;  // comparisons it took
  // Candidate inputs written, each in time linear in the input: the
  // trials, and those not compared (equal to the input so far, or longer).
  std::size_t candidates = 0;
};

// Shrinks `input`, on which `diverged` (its comparison: kDiverge) was found,
// keeping every step that still diverges with the same parting; at most
// `max_trials` comparisons.
MinimalDivergence MinimiseDivergence(DecoderAdapter& adapter,
                                     const oracle::Subject& subject,
                                     ByteSpan input, const Comparison& diverged,
                                     std::size_t max_trials = 1000);

}  // namespace fairwire::wire::kit

#endif  // FAIRWIRE_CHECKS_WIRE_ADAPTER_MINIMISE_H_
