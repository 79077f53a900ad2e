// C ABI:
//
// Plays `script` (script_len bytes) through the composite named `composite` (NUL-terminated).
// On success returns 0 and sets *out / *out_len to a buffer allocated by the crate holding the observation bytes; free it with fairwire_rust_poll_free.
// Returns 1: no composite of that name; 2: the script bytes are invalid or its child count is outside the composite's range; 3: a panic outside the composite's poll (a bug of the crate). Never unwinds into C.
// int32_t fairwire_rust_poll_run(const char* composite, const uint8_t* script, size_t script_len, uint8_t** out, size_t* out_len);
// void fairwire_rust_poll_free(uint8_t* out, size_t out_len);
// A static NUL-terminated list, one line per composite: "name\tmin_children\tmax_children\tchild_kind(stream|future)\tprobe(yes|no)\n".
// const char* fairwire_rust_poll_composites(void);
//
// (A null pointer argument to fairwire_rust_poll_run returns 2; on any
// failure *out / *out_len are set to NULL / 0 when those pointers are not
// null. fairwire_rust_poll_free ignores NULL.)

//! fairwire's Rust composites: plays a poll script through a real Rust
//! composite (futures, tokio, tokio-stream) built over scripted children,
//! records the raw facts of the run as an observation and hands its bytes
//! to C. The recorder judges nothing; the C++ side decodes and checks.
//!
//! Modules, one concept each:
//! - [`script`]: decoding the script bytes;
//! - [`observation`]: the events and their bytes;
//! - [`wakers`]: the table that numbers distinct wakers;
//! - [`recorder`]: the run's shared log and per-child waker state;
//! - [`children`]: the scripted stream and future;
//! - [`adapters`]: the interface the run drives and thin adapters to it;
//! - [`tokio_select`]: `tokio::select!` as a stream, per child count;
//! - [`composites`]: the table of composites by name;
//! - [`run`]: the run loop;
//! - [`ffi`]: the C ABI.

#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]
#![deny(rust_2018_idioms)]
#![warn(unreachable_pub)]

pub mod adapters;
pub mod children;
pub mod composites;
pub mod ffi;
pub mod observation;
pub mod recorder;
pub mod run;
pub mod script;
pub mod tokio_select;
pub mod wakers;

#[cfg(test)]
mod behaviour_tests;
