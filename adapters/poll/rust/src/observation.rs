//! The observation: the raw facts of one run and their bytes (version 1).
//!
//! ```text
//! bytes 0-3: "FWOB"; byte 4: version 1
//! varint name length, name bytes (UTF-8)
//! varint children; child-kind byte (0 streams, 1 futures)
//! varint event count; per event a kind byte and:
//!   1 CallBegin   varint call, varint waker
//!   2 Poll        varint child, varint waker, outcome byte, event byte
//!   3 CallEnd     result byte, varint tag, event byte, done byte
//!   4 WakeBegin   varint child, varint waker, cause byte
//!   5 WakeEnd     nothing
//!   6 CallerWoken varint waker
//! ```
//!
//! Varints are protobuf's base-128 (low 7 bits first), below 2^32.

use crate::script::OutcomeKind;

/// The magic the bytes start with.
pub const MAGIC: [u8; 4] = *b"FWOB";
/// The format version written.
pub const VERSION: u8 = 1;
/// The longest composite name the format allows.
pub const MAX_NAME: usize = 256;

/// What the composite's children are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ChildKind {
    /// Scripted streams.
    Stream = 0,
    /// Scripted futures.
    Future = 1,
}

/// How one call of the composite ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CallResult {
    /// Ready(Some(item)).
    Ready = 0,
    /// Pending.
    Pending = 1,
    /// Ready(None).
    Done = 2,
    /// The poll panicked.
    Threw = 3,
}

/// Who woke a child's waker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum WakeCause {
    /// The child itself, inside its poll (PendingSelfWake).
    SelfWake = 0,
    /// The script's external wake after a call.
    External = 1,
    /// The harness's probe after a Pending call.
    Probe = 2,
}

/// One recorded fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Call `call` begins with a fresh caller waker.
    CallBegin {
        /// The 0-based call index.
        call: u32,
        /// The caller waker's id.
        waker: u32,
    },
    /// A child was polled.
    Poll {
        /// The child index.
        child: u32,
        /// The id of the waker in the Context the child got.
        waker: u32,
        /// What the child did.
        outcome: OutcomeKind,
        /// The Ready event, else 0.
        event: u8,
    },
    /// The call ended.
    CallEnd {
        /// How it ended.
        result: CallResult,
        /// The child index of a Ready item, else 0.
        tag: u32,
        /// The Ready item's event, else 0.
        event: u8,
        /// Whether the composite says it is finished after this call.
        done: bool,
    },
    /// A child's waker is about to be woken.
    WakeBegin {
        /// The child index.
        child: u32,
        /// The id of the latest waker that child was polled with.
        waker: u32,
        /// Who wakes it.
        cause: WakeCause,
    },
    /// The wake begun by the last WakeBegin returned.
    WakeEnd,
    /// A caller waker was woken.
    CallerWoken {
        /// The caller waker's id.
        waker: u32,
    },
}

impl Event {
    /// The event's kind byte.
    pub fn kind_byte(&self) -> u8 {
        match self {
            Event::CallBegin { .. } => 1,
            Event::Poll { .. } => 2,
            Event::CallEnd { .. } => 3,
            Event::WakeBegin { .. } => 4,
            Event::WakeEnd => 5,
            Event::CallerWoken { .. } => 6,
        }
    }
}

/// The facts of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The composite's name (at most 256 bytes).
    pub composite: String,
    /// How many children the script has.
    pub children: u32,
    /// What the children are.
    pub child_kind: ChildKind,
    /// The events in the order they happened.
    pub events: Vec<Event>,
}

/// Appends `v` as a base-128 varint.
pub fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Appends the length of a slice or list as a varint.
fn put_len(out: &mut Vec<u8>, len: usize) {
    // Lengths here are bounded far below 2^32 (names by MAX_NAME, events by
    // the script's limits); saturate rather than wrap if that ever changes.
    put_varint(out, u32::try_from(len).unwrap_or(u32::MAX));
}

impl Observation {
    /// The observation's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + self.composite.len() + 6 * self.events.len());
        out.extend_from_slice(&MAGIC);
        out.push(VERSION);
        let name = self.composite.as_bytes();
        let name = &name[..name.len().min(MAX_NAME)];
        put_len(&mut out, name.len());
        out.extend_from_slice(name);
        put_varint(&mut out, self.children);
        out.push(self.child_kind as u8);
        put_len(&mut out, self.events.len());
        for e in &self.events {
            out.push(e.kind_byte());
            match *e {
                Event::CallBegin { call, waker } => {
                    put_varint(&mut out, call);
                    put_varint(&mut out, waker);
                }
                Event::Poll {
                    child,
                    waker,
                    outcome,
                    event,
                } => {
                    put_varint(&mut out, child);
                    put_varint(&mut out, waker);
                    out.push(outcome as u8);
                    out.push(event);
                }
                Event::CallEnd {
                    result,
                    tag,
                    event,
                    done,
                } => {
                    out.push(result as u8);
                    put_varint(&mut out, tag);
                    out.push(event);
                    out.push(u8::from(done));
                }
                Event::WakeBegin {
                    child,
                    waker,
                    cause,
                } => {
                    put_varint(&mut out, child);
                    put_varint(&mut out, waker);
                    out.push(cause as u8);
                }
                Event::WakeEnd => {}
                Event::CallerWoken { waker } => put_varint(&mut out, waker),
            }
        }
        out
    }
}

/// A decoder of the bytes for tests (the real reader is the C++ side's).
#[cfg(test)]
pub mod decode {
    use super::*;

    struct Reader<'a> {
        bytes: &'a [u8],
        pos: usize,
    }

    impl<'a> Reader<'a> {
        fn byte(&mut self) -> Option<u8> {
            let b = *self.bytes.get(self.pos)?;
            self.pos += 1;
            Some(b)
        }
        fn varint(&mut self) -> Option<u32> {
            let mut v: u64 = 0;
            for shift in (0..35).step_by(7) {
                let b = self.byte()?;
                v |= u64::from(b & 0x7F) << shift;
                if b & 0x80 == 0 {
                    return u32::try_from(v).ok();
                }
            }
            None
        }
    }

    /// Reads a varint at the start of `bytes`: (value, bytes used).
    pub fn varint(bytes: &[u8]) -> Option<(u32, usize)> {
        let mut r = Reader { bytes, pos: 0 };
        let v = r.varint()?;
        Some((v, r.pos))
    }

    fn outcome(b: u8) -> Option<OutcomeKind> {
        Some(match b {
            0 => OutcomeKind::Pending,
            1 => OutcomeKind::Ready,
            2 => OutcomeKind::PendingSelfWake,
            3 => OutcomeKind::Done,
            4 => OutcomeKind::Throw,
            _ => return None,
        })
    }

    /// Decodes observation bytes; None if they are malformed.
    pub fn observation(bytes: &[u8]) -> Option<Observation> {
        let mut r = Reader { bytes, pos: 0 };
        for m in MAGIC {
            if r.byte()? != m {
                return None;
            }
        }
        if r.byte()? != VERSION {
            return None;
        }
        let len = r.varint()? as usize;
        let name = bytes.get(r.pos..r.pos + len)?;
        r.pos += len;
        let composite = String::from_utf8(name.to_vec()).ok()?;
        let children = r.varint()?;
        let child_kind = match r.byte()? {
            0 => ChildKind::Stream,
            1 => ChildKind::Future,
            _ => return None,
        };
        let count = r.varint()?;
        let mut events = Vec::new();
        for _ in 0..count {
            let e = match r.byte()? {
                1 => Event::CallBegin {
                    call: r.varint()?,
                    waker: r.varint()?,
                },
                2 => Event::Poll {
                    child: r.varint()?,
                    waker: r.varint()?,
                    outcome: outcome(r.byte()?)?,
                    event: r.byte()?,
                },
                3 => Event::CallEnd {
                    result: match r.byte()? {
                        0 => CallResult::Ready,
                        1 => CallResult::Pending,
                        2 => CallResult::Done,
                        3 => CallResult::Threw,
                        _ => return None,
                    },
                    tag: r.varint()?,
                    event: r.byte()?,
                    done: match r.byte()? {
                        0 => false,
                        1 => true,
                        _ => return None,
                    },
                },
                4 => Event::WakeBegin {
                    child: r.varint()?,
                    waker: r.varint()?,
                    cause: match r.byte()? {
                        0 => WakeCause::SelfWake,
                        1 => WakeCause::External,
                        2 => WakeCause::Probe,
                        _ => return None,
                    },
                },
                5 => Event::WakeEnd,
                6 => Event::CallerWoken { waker: r.varint()? },
                _ => return None,
            };
            events.push(e);
        }
        if r.pos != bytes.len() {
            return None;
        }
        Some(Observation {
            composite,
            children,
            child_kind,
            events,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        let values = [
            0u32,
            1,
            127,
            128,
            255,
            300,
            16_383,
            16_384,
            2_097_151,
            2_097_152,
            268_435_455,
            268_435_456,
            u32::MAX,
        ];
        for v in values {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            assert_eq!(decode::varint(&out), Some((v, out.len())), "{}", v);
        }
    }

    #[test]
    fn varints_are_protobuf_base_128() {
        let mut out = Vec::new();
        put_varint(&mut out, 300);
        assert_eq!(out, vec![0xAC, 0x02]);
        out.clear();
        put_varint(&mut out, u32::MAX);
        assert_eq!(out, vec![0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
    }

    #[test]
    fn observation_bytes_round_trip() {
        let o = Observation {
            composite: "x::y".to_string(),
            children: 3,
            child_kind: ChildKind::Future,
            events: vec![
                Event::CallBegin { call: 0, waker: 0 },
                Event::Poll {
                    child: 2,
                    waker: 200,
                    outcome: OutcomeKind::Ready,
                    event: 31,
                },
                Event::WakeBegin {
                    child: 1,
                    waker: 0,
                    cause: WakeCause::Probe,
                },
                Event::CallerWoken { waker: 0 },
                Event::WakeEnd,
                Event::CallEnd {
                    result: CallResult::Ready,
                    tag: 2,
                    event: 31,
                    done: true,
                },
            ],
        };
        let bytes = o.encode();
        assert_eq!(&bytes[..5], b"FWOB\x01");
        assert_eq!(bytes[5], 4);
        assert_eq!(&bytes[6..10], b"x::y");
        assert_eq!(decode::observation(&bytes), Some(o));
    }
}
