// The Rust composites (futures, tokio, tokio-stream) as composites under
// test: each plays a script in the crate beside this file
// (adapters/poll/rust/src), which records an observation and hands its
// bytes over a C ABI; here they are decoded.
#ifndef FAIRWIRE_ADAPTERS_POLL_RUST_COMPOSITES_H_
#define FAIRWIRE_ADAPTERS_POLL_RUST_COMPOSITES_H_

#include <vector>

#include "fairwire/checks/poll_verdict.h"

namespace fairwire::poll::rust {

// Every composite the crate lists (fairwire_rust_poll_composites), in its
// order; a script outside a composite's limits is an error of the run.
std::vector<CompositeUnderTest> RustComposites();

}  // namespace fairwire::poll::rust

#endif  // FAIRWIRE_ADAPTERS_POLL_RUST_COMPOSITES_H_
