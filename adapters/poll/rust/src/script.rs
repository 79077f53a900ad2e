//! The poll script: what each child does when polled, how many calls to make
//! and which wakes happen between calls, decoded from the canonical bytes the
//! C++ side writes.
//!
//! ```text
//! byte 0: policy (ignored)
//! byte 1: calls - 1            (calls = 1..64)
//! byte 2: children - 1         (children = 1..32)
//! per child:
//!   header: bits 0-3 outcome count, bit 4 loop, bits 5-7 protocol count
//!   one byte per outcome: bits 0-2 kind (0..4), bits 3-7 event
//!                         (0..31; 0 unless the kind is Ready)
//!   one byte per protocol id (ignored)
//! wake count (0..8), then per wake: after_call (< calls), child (< children)
//! draw count (0..8), then one byte per draw (ignored)
//! ```
//!
//! Bytes that end early, hold an out-of-range value or go on past the draws
//! are rejected.

use std::fmt;

/// The largest number of calls a script makes.
pub const MAX_CALLS: usize = 64;
/// The largest number of children a script has.
pub const MAX_CHILDREN: usize = 32;
/// The largest number of external wakes a script holds.
pub const MAX_WAKES: usize = 8;
/// The largest number of draws a script holds.
pub const MAX_DRAWS: usize = 8;

/// The kind of a scripted outcome, numbered as on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum OutcomeKind {
    /// Return Pending and keep the waker.
    Pending = 0,
    /// Return Ready with an event.
    Ready = 1,
    /// Wake the context's waker at once, then return Pending (a yield).
    PendingSelfWake = 2,
    /// Finish: a stream returns Ready(None), a future finishes with no event.
    Done = 3,
    /// Panic.
    Throw = 4,
}

/// What a scripted child does when polled once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Return Pending and keep the waker; someone may wake it later.
    Pending,
    /// Return Ready with this event (0..31).
    Ready(u8),
    /// Wake the context's waker at once, then return Pending.
    PendingSelfWake,
    /// Finish: Ready(None) for a stream, no event for a future.
    Done,
    /// Panic with a `ScriptedThrow` payload.
    Throw,
}

impl Outcome {
    /// The outcome's kind.
    pub fn kind(self) -> OutcomeKind {
        match self {
            Outcome::Pending => OutcomeKind::Pending,
            Outcome::Ready(_) => OutcomeKind::Ready,
            Outcome::PendingSelfWake => OutcomeKind::PendingSelfWake,
            Outcome::Done => OutcomeKind::Done,
            Outcome::Throw => OutcomeKind::Throw,
        }
    }

    /// The Ready event, else 0.
    pub fn event(self) -> u8 {
        match self {
            Outcome::Ready(event) => event,
            _ => 0,
        }
    }
}

/// One child's script: outcomes in poll order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildScript {
    /// Outcomes in poll order (at most 15).
    pub outcomes: Vec<Outcome>,
    /// Whether the outcomes repeat after the last one; if not, the child
    /// returns Pending forever after it.
    pub looping: bool,
}

/// After call `after_call`, wake the latest waker child `child` was polled
/// with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExternalWake {
    /// The 0-based call after which the wake happens.
    pub after_call: usize,
    /// The child whose latest waker is woken.
    pub child: usize,
}

/// A decoded poll script (the policy, protocol ids and draws are dropped:
/// the composite under test decides its own schedule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    /// How many times the composite is polled (1..64).
    pub calls: usize,
    /// The children's scripts (1..32).
    pub children: Vec<ChildScript>,
    /// External wakes in script order (at most 8).
    pub wakes: Vec<ExternalWake>,
}

/// Why script bytes were rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptError {
    /// The bytes ended while reading the named field.
    Truncated(&'static str),
    /// The named field at this offset holds an out-of-range value.
    OutOfRange {
        /// Which field.
        field: &'static str,
        /// Its byte offset.
        offset: usize,
        /// The byte found there.
        value: u8,
    },
    /// Bytes are left after the last draw.
    TrailingBytes {
        /// How many bytes are left.
        count: usize,
    },
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptError::Truncated(field) => write!(f, "script truncated at {}", field),
            ScriptError::OutOfRange {
                field,
                offset,
                value,
            } => write!(
                f,
                "{} {} at offset {} is out of range",
                field, value, offset
            ),
            ScriptError::TrailingBytes { count } => {
                write!(f, "{} trailing bytes after the script", count)
            }
        }
    }
}

impl std::error::Error for ScriptError {}

/// Reads bytes in order.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self, field: &'static str) -> Result<u8, ScriptError> {
        let b = *self
            .bytes
            .get(self.pos)
            .ok_or(ScriptError::Truncated(field))?;
        self.pos += 1;
        Ok(b)
    }

    /// A byte that must be below `limit`.
    fn below(&mut self, limit: usize, field: &'static str) -> Result<usize, ScriptError> {
        let offset = self.pos;
        let value = self.byte(field)?;
        if usize::from(value) < limit {
            Ok(usize::from(value))
        } else {
            Err(ScriptError::OutOfRange {
                field,
                offset,
                value,
            })
        }
    }
}

impl Script {
    /// Decodes canonical script bytes.
    pub fn decode(bytes: &[u8]) -> Result<Script, ScriptError> {
        let mut r = Reader { bytes, pos: 0 };
        r.byte("policy")?;
        let calls = r.below(MAX_CALLS, "calls - 1")? + 1;
        let n = r.below(MAX_CHILDREN, "children - 1")? + 1;
        let mut children = Vec::with_capacity(n);
        for _ in 0..n {
            let header = r.byte("child header")?;
            let outcome_count = usize::from(header & 0x0F);
            let looping = header & 0x10 != 0;
            let protocol_count = usize::from(header >> 5);
            let mut outcomes = Vec::with_capacity(outcome_count);
            for _ in 0..outcome_count {
                let offset = r.pos;
                let b = r.byte("outcome")?;
                let event = b >> 3;
                let outcome = match b & 0x07 {
                    0 => Outcome::Pending,
                    1 => Outcome::Ready(event),
                    2 => Outcome::PendingSelfWake,
                    3 => Outcome::Done,
                    4 => Outcome::Throw,
                    _ => {
                        return Err(ScriptError::OutOfRange {
                            field: "outcome kind",
                            offset,
                            value: b,
                        })
                    }
                };
                if event != 0 && outcome.kind() != OutcomeKind::Ready {
                    return Err(ScriptError::OutOfRange {
                        field: "event of a non-Ready outcome",
                        offset,
                        value: b,
                    });
                }
                outcomes.push(outcome);
            }
            for _ in 0..protocol_count {
                r.byte("protocol id")?;
            }
            children.push(ChildScript { outcomes, looping });
        }
        let wake_count = r.below(MAX_WAKES + 1, "wake count")?;
        let mut wakes = Vec::with_capacity(wake_count);
        for _ in 0..wake_count {
            let after_call = r.below(calls, "wake after_call")?;
            let child = r.below(n, "wake child")?;
            wakes.push(ExternalWake { after_call, child });
        }
        let draw_count = r.below(MAX_DRAWS + 1, "draw count")?;
        for _ in 0..draw_count {
            r.byte("draw")?;
        }
        if r.pos != bytes.len() {
            return Err(ScriptError::TrailingBytes {
                count: bytes.len() - r.pos,
            });
        }
        Ok(Script {
            calls,
            children,
            wakes,
        })
    }

    /// Encodes the script canonically (policy 0, no protocols, no draws);
    /// used by tests to build inputs.
    #[cfg(test)]
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![0, (self.calls - 1) as u8, (self.children.len() - 1) as u8];
        for child in &self.children {
            out.push(child.outcomes.len() as u8 | if child.looping { 0x10 } else { 0 });
            for o in &child.outcomes {
                out.push(o.kind() as u8 | (o.event() << 3));
            }
        }
        out.push(self.wakes.len() as u8);
        for w in &self.wakes {
            out.push(w.after_call as u8);
            out.push(w.child as u8);
        }
        out.push(0);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2 calls; child 0: [R3 W] loop with protocols [5, 6]; child 1: [D T];
    /// one wake after call 1 of child 0; two draws.
    fn example_bytes() -> Vec<u8> {
        vec![
            6,                      // policy
            1,                      // calls - 1
            1,                      // children - 1
            0x02 | 0x10 | (2 << 5), // 2 outcomes, loop, 2 protocols
            1 | (3 << 3),           // R3
            2,                      // W
            5,
            6,
            0x02, // 2 outcomes
            3,    // D
            4,    // T
            1,    // one wake
            1,
            0,
            2, // two draws
            9,
            9,
        ]
    }

    #[test]
    fn decodes_the_example() {
        let s = Script::decode(&example_bytes()).unwrap();
        assert_eq!(s.calls, 2);
        assert_eq!(
            s.children,
            vec![
                ChildScript {
                    outcomes: vec![Outcome::Ready(3), Outcome::PendingSelfWake],
                    looping: true
                },
                ChildScript {
                    outcomes: vec![Outcome::Done, Outcome::Throw],
                    looping: false
                },
            ]
        );
        assert_eq!(
            s.wakes,
            vec![ExternalWake {
                after_call: 1,
                child: 0
            }]
        );
    }

    #[test]
    fn every_truncation_is_rejected() {
        let bytes = example_bytes();
        for len in 0..bytes.len() {
            assert!(
                matches!(
                    Script::decode(&bytes[..len]),
                    Err(ScriptError::Truncated(_))
                ),
                "prefix of {} bytes",
                len
            );
        }
    }

    #[test]
    fn trailing_bytes_are_rejected() {
        let mut bytes = example_bytes();
        bytes.push(0);
        assert_eq!(
            Script::decode(&bytes),
            Err(ScriptError::TrailingBytes { count: 1 })
        );
    }

    #[test]
    fn out_of_range_values_are_rejected() {
        let cases: &[(usize, u8)] = &[
            (1, 64),    // 65 calls
            (2, 32),    // 33 children
            (4, 5),     // outcome kind 5
            (5, 2 | 8), // an event on a PendingSelfWake
            (11, 9),    // 9 wakes
            (12, 2),    // after_call 2 of 2 calls
            (13, 2),    // child 2 of 2 children
            (14, 9),    // 9 draws
        ];
        for &(at, value) in cases {
            let mut bytes = example_bytes();
            bytes[at] = value;
            assert!(
                matches!(Script::decode(&bytes), Err(ScriptError::OutOfRange { offset, .. }) if offset == at),
                "byte {} = {}: {:?}",
                at,
                value,
                Script::decode(&bytes)
            );
        }
    }

    #[test]
    fn encode_round_trips() {
        let s = Script::decode(&example_bytes()).unwrap();
        assert_eq!(Script::decode(&s.encode()).unwrap(), s);
    }
}
