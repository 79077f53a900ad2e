//! Scripted children: a stream or a future that plays its script one
//! outcome per poll and records every poll.

use std::future::Future;
use std::panic;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use futures::stream::Stream;

use crate::recorder::Recorder;
use crate::script::{ChildScript, Outcome, OutcomeKind};

/// What every composite yields: the child that produced the item and the
/// item's event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Yield {
    /// The child index.
    pub child: usize,
    /// The scripted Ready event.
    pub event: u8,
}

/// The panic payload of a Throw outcome.
#[derive(Debug)]
pub struct ScriptedThrow;

/// What one poll of a child came to (Throw panics instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Played {
    Pending,
    Ready(u8),
    Done,
}

/// A child's script and where it is in it.
pub struct ScriptedChild {
    index: usize,
    script: ChildScript,
    next: usize,
    finished: bool,
    recorder: Recorder,
}

impl ScriptedChild {
    /// Child `index` playing `script`, recording into `recorder`.
    pub fn new(index: usize, script: ChildScript, recorder: Recorder) -> ScriptedChild {
        ScriptedChild {
            index,
            script,
            next: 0,
            finished: false,
            recorder,
        }
    }

    /// The child's index.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The next scripted outcome: in order, from the start again if the
    /// script loops, else Pending forever after the last.
    fn next_outcome(&mut self) -> Outcome {
        let len = self.script.outcomes.len();
        if len == 0 {
            return Outcome::Pending;
        }
        if self.next == len {
            if !self.script.looping {
                return Outcome::Pending;
            }
            self.next = 0;
        }
        let outcome = self.script.outcomes[self.next];
        self.next += 1;
        outcome
    }

    /// Plays one poll with `waker`. `ready_finishes`: a Ready outcome
    /// finishes the child (futures).
    fn play(&mut self, waker: &Waker, ready_finishes: bool) -> Played {
        if self.finished {
            // Polled after it finished: the composite's mistake. Record it
            // as Pending, do nothing, return Pending.
            self.recorder
                .record_poll(self.index, waker, OutcomeKind::Pending, 0, false);
            return Played::Pending;
        }
        let outcome = self.next_outcome();
        let finishes = match outcome {
            Outcome::Done => true,
            Outcome::Ready(_) => ready_finishes,
            _ => false,
        };
        self.finished = finishes;
        self.recorder
            .record_poll(self.index, waker, outcome.kind(), outcome.event(), finishes);
        match outcome {
            Outcome::Pending => Played::Pending,
            Outcome::Ready(event) => Played::Ready(event),
            Outcome::PendingSelfWake => {
                self.recorder.self_wake(self.index, waker);
                Played::Pending
            }
            Outcome::Done => Played::Done,
            // resume_unwind skips the panic hook: nothing is printed.
            Outcome::Throw => panic::resume_unwind(Box::new(ScriptedThrow)),
        }
    }
}

/// A scripted child as a stream of `Yield`s: Done ends the stream.
pub struct ScriptedStream(ScriptedChild);

impl ScriptedStream {
    /// The stream playing `child`.
    pub fn new(child: ScriptedChild) -> ScriptedStream {
        ScriptedStream(child)
    }
}

impl Stream for ScriptedStream {
    type Item = Yield;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Yield>> {
        let child = &mut self.get_mut().0;
        match child.play(cx.waker(), false) {
            Played::Pending => Poll::Pending,
            Played::Ready(event) => Poll::Ready(Some(Yield {
                child: child.index,
                event,
            })),
            Played::Done => Poll::Ready(None),
        }
    }
}

/// A scripted child as a future: it finishes with its first Ready
/// (`Some(Yield)`) or Done (`None`).
pub struct ScriptedFuture(ScriptedChild);

impl ScriptedFuture {
    /// The future playing `child`.
    pub fn new(child: ScriptedChild) -> ScriptedFuture {
        ScriptedFuture(child)
    }
}

impl Future for ScriptedFuture {
    type Output = Option<Yield>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Yield>> {
        let child = &mut self.get_mut().0;
        match child.play(cx.waker(), true) {
            Played::Pending => Poll::Pending,
            Played::Ready(event) => Poll::Ready(Some(Yield {
                child: child.index,
                event,
            })),
            Played::Done => Poll::Ready(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observation::{Event, WakeCause};
    use futures::{FutureExt, StreamExt};

    fn child(outcomes: Vec<Outcome>, looping: bool, r: &Recorder) -> ScriptedChild {
        ScriptedChild::new(0, ChildScript { outcomes, looping }, r.clone())
    }

    fn poll_kinds(events: &[Event]) -> Vec<OutcomeKind> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Poll { outcome, .. } => Some(*outcome),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_looping_stream_restarts_and_a_finished_one_records_pending() {
        let r = Recorder::new(1);
        let w = r.begin_call(0);
        let mut cx = Context::from_waker(&w);
        let mut s = ScriptedStream::new(child(vec![Outcome::Ready(7)], true, &r));
        for _ in 0..3 {
            assert_eq!(
                s.poll_next_unpin(&mut cx),
                Poll::Ready(Some(Yield { child: 0, event: 7 }))
            );
        }
        let mut d = ScriptedStream::new(child(vec![Outcome::Done, Outcome::Ready(1)], true, &r));
        assert_eq!(d.poll_next_unpin(&mut cx), Poll::Ready(None));
        assert_eq!(d.poll_next_unpin(&mut cx), Poll::Pending);
        assert_eq!(
            poll_kinds(&r.finish()),
            vec![
                OutcomeKind::Ready,
                OutcomeKind::Ready,
                OutcomeKind::Ready,
                OutcomeKind::Done,
                OutcomeKind::Pending
            ]
        );
    }

    #[test]
    fn a_non_looping_script_ends_in_pending_forever() {
        let r = Recorder::new(1);
        let w = r.begin_call(0);
        let mut cx = Context::from_waker(&w);
        let mut s = ScriptedStream::new(child(vec![Outcome::Ready(2)], false, &r));
        assert!(s.poll_next_unpin(&mut cx).is_ready());
        assert!(s.poll_next_unpin(&mut cx).is_pending());
        assert!(s.poll_next_unpin(&mut cx).is_pending());
    }

    #[test]
    fn a_self_wake_is_recorded_around_the_wake() {
        let r = Recorder::new(1);
        let w = r.begin_call(0);
        let mut cx = Context::from_waker(&w);
        let mut f = ScriptedFuture::new(child(vec![Outcome::PendingSelfWake], false, &r));
        assert!(f.poll_unpin(&mut cx).is_pending());
        assert_eq!(
            r.finish()[1..],
            [
                Event::Poll {
                    child: 0,
                    waker: 0,
                    outcome: OutcomeKind::PendingSelfWake,
                    event: 0
                },
                Event::WakeBegin {
                    child: 0,
                    waker: 0,
                    cause: WakeCause::SelfWake
                },
                Event::CallerWoken { waker: 0 },
                Event::WakeEnd,
            ]
        );
    }

    #[test]
    fn a_throw_panics_with_the_scripted_payload() {
        let r = Recorder::new(1);
        let w = r.begin_call(0);
        let mut s = ScriptedStream::new(child(vec![Outcome::Throw], false, &r));
        let caught = panic::catch_unwind(panic::AssertUnwindSafe(|| {
            let mut cx = Context::from_waker(&w);
            s.poll_next_unpin(&mut cx)
        }));
        assert!(caught.unwrap_err().is::<ScriptedThrow>());
    }
}
