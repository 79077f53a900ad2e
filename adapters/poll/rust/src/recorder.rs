//! The recorder: the run's shared log, its waker table and what it knows of
//! each child (the latest waker it was polled with and whether it finished).
//!
//! Children, caller wakers and the run loop all write to it. It is behind an
//! `Arc<Mutex<..>>` because wakers must be `Send + Sync`; the lock is never
//! held while a waker is woken (a wake may come back to record), nor while a
//! waker other than a table entry's clone could be dropped.

use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::task::{Wake, Waker};

use crate::observation::{CallResult, Event, WakeCause};
use crate::script::OutcomeKind;
use crate::wakers::WakerTable;

/// What the recorder knows of one child.
#[derive(Default)]
struct ChildSlot {
    /// A clone of the waker of the child's latest poll.
    latest: Option<Waker>,
    /// Whether the child finished (a stream returned Done; a future returned
    /// Ready or Done).
    finished: bool,
}

/// The state behind the lock.
struct Journal {
    events: Vec<Event>,
    wakers: WakerTable,
    children: Vec<ChildSlot>,
}

/// A handle to the run's shared log; clones share it.
#[derive(Clone)]
pub struct Recorder {
    journal: Arc<Mutex<Journal>>,
}

/// The waker of one call: records CallerWoken(id) whenever it is woken.
///
/// It holds the journal weakly: the journal's waker table holds the waker,
/// and a strong handle would make a cycle.
struct CallerWaker {
    journal: Weak<Mutex<Journal>>,
    id: u32,
}

impl Wake for CallerWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if let Some(journal) = self.journal.upgrade() {
            lock(&journal)
                .events
                .push(Event::CallerWoken { waker: self.id });
        }
    }
}

/// Locks the journal, ignoring poison: the recorder writes plain facts and
/// a panic elsewhere does not make them wrong.
fn lock(journal: &Mutex<Journal>) -> MutexGuard<'_, Journal> {
    journal
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn index(i: usize) -> u32 {
    // Children, calls and events are bounded by the script's limits.
    u32::try_from(i).unwrap_or(u32::MAX)
}

impl Recorder {
    /// A recorder for a run with `children` children.
    pub fn new(children: usize) -> Recorder {
        Recorder {
            journal: Arc::new(Mutex::new(Journal {
                events: Vec::new(),
                wakers: WakerTable::new(),
                children: (0..children).map(|_| ChildSlot::default()).collect(),
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Journal> {
        lock(&self.journal)
    }

    /// Begins call `call`: makes its fresh caller waker, numbers it and
    /// records CallBegin(call, id).
    pub fn begin_call(&self, call: usize) -> Waker {
        let mut journal = self.lock();
        // The new waker is distinct from every entry (each entry is kept
        // alive by the table, so its address cannot be reused), so its id is
        // the table's length; `id_of` below confirms it.
        let expected = index(journal.wakers.len());
        let waker = Waker::from(Arc::new(CallerWaker {
            journal: Arc::downgrade(&self.journal),
            id: expected,
        }));
        let id = journal.wakers.id_of(&waker);
        debug_assert_eq!(id, expected);
        journal.events.push(Event::CallBegin {
            call: index(call),
            waker: id,
        });
        waker
    }

    /// Records the end of a call.
    pub fn end_call(&self, result: CallResult, tag: usize, event: u8, done: bool) {
        self.lock().events.push(Event::CallEnd {
            result,
            tag: index(tag),
            event,
            done,
        });
    }

    /// Records Poll(child, id(waker), outcome, event), remembers a clone of
    /// `waker` as the child's latest waker and marks it finished if
    /// `finishes`.
    pub fn record_poll(
        &self,
        child: usize,
        waker: &Waker,
        outcome: OutcomeKind,
        event: u8,
        finishes: bool,
    ) {
        let replaced = {
            let mut journal = self.lock();
            let id = journal.wakers.id_of(waker);
            journal.events.push(Event::Poll {
                child: index(child),
                waker: id,
                outcome,
                event,
            });
            let slot = &mut journal.children[child];
            slot.finished |= finishes;
            slot.latest.replace(waker.clone())
        };
        // The previous latest waker is dropped here, outside the lock.
        drop(replaced);
    }

    /// A child's self-wake inside its poll: WakeBegin(child, id(waker),
    /// self), `waker.wake_by_ref()`, WakeEnd.
    pub fn self_wake(&self, child: usize, waker: &Waker) {
        {
            let mut journal = self.lock();
            let id = journal.wakers.id_of(waker);
            journal.events.push(Event::WakeBegin {
                child: index(child),
                waker: id,
                cause: WakeCause::SelfWake,
            });
        }
        waker.wake_by_ref();
        self.lock().events.push(Event::WakeEnd);
    }

    /// Wakes the latest waker `child` was polled with, recording
    /// WakeBegin(child, id, cause) and WakeEnd around it. Does nothing if
    /// the child was never polled, or if `only_live` and it finished.
    /// Returns whether it woke.
    pub fn wake_latest(&self, child: usize, cause: WakeCause, only_live: bool) -> bool {
        let latest = {
            let mut journal = self.lock();
            let slot = &journal.children[child];
            if only_live && slot.finished {
                return false;
            }
            let latest = match &slot.latest {
                Some(w) => w.clone(),
                None => return false,
            };
            let id = journal.wakers.id_of(&latest);
            journal.events.push(Event::WakeBegin {
                child: index(child),
                waker: id,
                cause,
            });
            latest
        };
        latest.wake_by_ref();
        drop(latest);
        self.lock().events.push(Event::WakeEnd);
        true
    }

    /// Takes the events out and empties the journal (its wakers are
    /// dropped outside the lock).
    pub fn finish(&self) -> Vec<Event> {
        let (events, wakers, slots) = {
            let mut journal = self.lock();
            (
                std::mem::take(&mut journal.events),
                journal.wakers.take(),
                std::mem::take(&mut journal.children),
            )
        };
        drop(slots);
        drop(wakers);
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caller_wakers_are_fresh_and_record_their_wakes() {
        let r = Recorder::new(1);
        let w0 = r.begin_call(0);
        let w1 = r.begin_call(1);
        assert!(!w0.will_wake(&w1));
        w1.wake_by_ref();
        // Wake by value, through a clone.
        let by_value = w0.clone();
        by_value.wake();
        r.record_poll(0, &w1, OutcomeKind::Pending, 0, false);
        assert!(r.wake_latest(0, WakeCause::External, true));
        assert_eq!(
            r.finish(),
            vec![
                Event::CallBegin { call: 0, waker: 0 },
                Event::CallBegin { call: 1, waker: 1 },
                Event::CallerWoken { waker: 1 },
                Event::CallerWoken { waker: 0 },
                Event::Poll {
                    child: 0,
                    waker: 1,
                    outcome: OutcomeKind::Pending,
                    event: 0
                },
                Event::WakeBegin {
                    child: 0,
                    waker: 1,
                    cause: WakeCause::External
                },
                Event::CallerWoken { waker: 1 },
                Event::WakeEnd,
            ]
        );
    }

    #[test]
    fn finished_or_never_polled_children_are_not_probed() {
        let r = Recorder::new(2);
        let w = r.begin_call(0);
        r.record_poll(0, &w, OutcomeKind::Done, 0, true);
        assert!(!r.wake_latest(0, WakeCause::Probe, true));
        assert!(!r.wake_latest(1, WakeCause::Probe, true));
        // An external wake does not ask whether the child finished.
        assert!(r.wake_latest(0, WakeCause::External, false));
    }

    #[test]
    fn a_dropped_recorder_leaves_caller_wakers_harmless() {
        let r = Recorder::new(1);
        let w = r.begin_call(0);
        drop(r.finish());
        drop(r);
        w.wake_by_ref();
    }
}
