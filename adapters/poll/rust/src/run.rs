//! The run: plays a script through a composite and writes down what
//! happened. It judges nothing.
//!
//! For call t in 0..calls:
//! 1. CallBegin(t, id(fresh caller waker t));
//! 2. poll the composite once inside `catch_unwind` (children record their
//!    polls and self-wakes);
//! 3. CallEnd(result, tag, event, done); after a caught panic the run stops;
//! 4. after a Pending call of a probe composite, wake the latest waker of
//!    every live child, in index order (cause: probe);
//! 5. the script's external wakes after call t, in script order (cause:
//!    external; a child never polled has no waker and nothing is recorded).

use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::task::{Context, Poll};

use crate::children::ScriptedChild;
use crate::composites::{self, CompositeEntry};
use crate::observation::{CallResult, Observation, WakeCause};
use crate::recorder::Recorder;
use crate::script::{Script, ScriptError};

/// Why a run could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// No composite has that name.
    UnknownComposite,
    /// The script bytes are invalid.
    InvalidScript(ScriptError),
    /// The script's child count is outside the composite's range.
    ChildCount {
        /// The script's child count.
        children: usize,
        /// The composite's fewest.
        min: usize,
        /// The composite's most.
        max: usize,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::UnknownComposite => write!(f, "no composite of that name"),
            RunError::InvalidScript(e) => write!(f, "invalid script: {}", e),
            RunError::ChildCount { children, min, max } => write!(
                f,
                "{} children; the composite takes {} to {}",
                children, min, max
            ),
        }
    }
}

impl std::error::Error for RunError {}

/// Plays the script `bytes` through the composite named `name` and returns
/// the observation's bytes.
pub fn play(name: &str, bytes: &[u8]) -> Result<Vec<u8>, RunError> {
    let entry = composites::find(name).ok_or(RunError::UnknownComposite)?;
    let script = Script::decode(bytes).map_err(RunError::InvalidScript)?;
    Ok(run(entry, &script)?.encode())
}

/// Plays `script` through `entry`'s composite.
pub fn run(entry: &CompositeEntry, script: &Script) -> Result<Observation, RunError> {
    let n = script.children.len();
    let wrong_count = RunError::ChildCount {
        children: n,
        min: entry.min_children,
        max: entry.max_children,
    };
    if !entry.accepts(n) {
        return Err(wrong_count);
    }
    let recorder = Recorder::new(n);
    let children = script
        .children
        .iter()
        .enumerate()
        .map(|(i, c)| ScriptedChild::new(i, c.clone(), recorder.clone()))
        .collect();
    let mut composite = (entry.build)(children).ok_or(wrong_count)?;

    for call in 0..script.calls {
        let caller = recorder.begin_call(call);
        let polled = panic::catch_unwind(AssertUnwindSafe(|| {
            let mut cx = Context::from_waker(&caller);
            composite.poll_call(&mut cx)
        }));
        let done = composite.is_done();
        let (result, tag, event) = match &polled {
            Ok(Poll::Ready(Some(item))) => (CallResult::Ready, item.child, item.event),
            Ok(Poll::Pending) => (CallResult::Pending, 0, 0),
            Ok(Poll::Ready(None)) => (CallResult::Done, 0, 0),
            Err(_) => (CallResult::Threw, 0, 0),
        };
        recorder.end_call(result, tag, event, done);
        // A panic's payload is dropped; the composite may be poisoned, so
        // the run stops.
        drop(polled);
        if result == CallResult::Threw {
            break;
        }
        if entry.probe && result == CallResult::Pending {
            for child in 0..n {
                recorder.wake_latest(child, WakeCause::Probe, true);
            }
        }
        for wake in script.wakes.iter().filter(|w| w.after_call == call) {
            recorder.wake_latest(wake.child, WakeCause::External, false);
        }
    }

    // Dropping a composite that a panic may have poisoned is not part of the
    // observation; a panic there is the composite's, not the crate's, so it
    // is contained here and not reported as one.
    let _ = panic::catch_unwind(AssertUnwindSafe(move || drop(composite)));
    Ok(Observation {
        composite: entry.name.to_string(),
        children: u32::try_from(n).unwrap_or(u32::MAX),
        child_kind: entry.child_kind,
        events: recorder.finish(),
    })
}
