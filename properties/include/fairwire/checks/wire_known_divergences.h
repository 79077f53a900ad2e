// An adapter's known-divergences file, as the conformance suite keeps its
// failure lists: one block per divergence class, with its minimal input, a
// one-line explanation and a verdict. The kit's fuzz target passes a
// divergence whose class is listed and fails on any other; the
// known-divergences test replays every entry and fails when one no longer
// diverges as listed, so that a fix upstream shows.
//
// The format: blocks of "key: value" lines, separated by blank lines; '#'
// starts a comment line.
//
//   class: accepts-rejected/varint-over-10-bytes
//   type: fairwire.test.AllKinds
//   input: 08 80 80 80 80 80 80 80 80 80 80 01
//   verdict: likely bug
//   why: an 11-byte varint is accepted; the encoding spec allows 10
//
// `verdict` is "likely bug" or "documented design choice: <where>" (the doc
// or issue that says so). `input` is the payload in hex, for `type`.
//
// An optional `match: includes` line widens an entry from its exact class to
// every class of the same parting whose rules include all of the entry's:
// for a decoder that rejects (or accepts) every input touching a rule,
// whatever else the input touches. Its class may then name fewer rules than
// its input touches (a tag beyond 32 bits always comes with another rule);
// the test replays the input and checks that the entry covers its class.
// Use it only where the listed rules decide the outcome alone: it also
// covers any other cause on such inputs.
#ifndef FAIRWIRE_CHECKS_WIRE_KNOWN_DIVERGENCES_H_
#define FAIRWIRE_CHECKS_WIRE_KNOWN_DIVERGENCES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fairwire/scenarios/bytes.h"

namespace fairwire::wire::kit {

// One entry.
struct KnownDivergence {
  std::string class_name;
  std::string type;  // the message type's full name
  Bytes input;       // the payload
  std::string verdict;
  std::string why;
  bool includes = false;  // `match: includes`
  int line = 0;           // of its `class:` line

  // Whether a divergence of class `seen` is this entry's.
  bool Covers(std::string_view seen) const;
};

// A parsed file.
struct KnownDivergences {
  std::vector<KnownDivergence> entries;
  // The entry of class `class_name`, else an entry with `match: includes`
  // that covers it, or null.
  const KnownDivergence* Find(std::string_view class_name) const;
};

// Parses a file's text. On a malformed file, nullopt and `*error` says which
// line and why (a missing field, a bad verdict or hex, a class twice).
std::optional<KnownDivergences> ParseKnownDivergences(std::string_view text,
                                                      std::string* error);

// The known-divergences text of the adapter under test: defined by the
// source that fairwire_add_decoder_kit generates from the adapter's file.
std::string_view KnownDivergencesText();

}  // namespace fairwire::wire::kit

#endif  // FAIRWIRE_CHECKS_WIRE_KNOWN_DIVERGENCES_H_
