//! Runs of real composites, asserting concrete facts of their observations.

use crate::composites;
use crate::observation::{decode, CallResult, ChildKind, Event, Observation, WakeCause};
use crate::run::{self, RunError};
use crate::script::{ChildScript, ExternalWake, Outcome, OutcomeKind, Script};

use Outcome::{Done, Pending as P, PendingSelfWake as W, Ready as R, Throw};

fn child(outcomes: &[Outcome], looping: bool) -> ChildScript {
    ChildScript {
        outcomes: outcomes.to_vec(),
        looping,
    }
}

fn script(calls: usize, children: Vec<ChildScript>, wakes: &[(usize, usize)]) -> Script {
    Script {
        calls,
        children,
        wakes: wakes
            .iter()
            .map(|&(after_call, child)| ExternalWake { after_call, child })
            .collect(),
    }
}

/// Runs through the public byte path and decodes the result.
fn observe(name: &str, s: &Script) -> Observation {
    let bytes = run::play(name, &s.encode()).unwrap();
    let o = decode::observation(&bytes).expect("well-formed observation");
    // The byte path and the in-memory run agree.
    let entry = composites::find(name).unwrap();
    let direct = run::run(entry, s).unwrap();
    assert_eq!(o.composite, direct.composite);
    assert_eq!(o.children as usize, s.children.len());
    o
}

/// One call's events.
#[derive(Debug)]
struct Call {
    caller: u32,
    /// (child, waker, outcome, event)
    polls: Vec<(u32, u32, OutcomeKind, u8)>,
    end: Option<(CallResult, u32, u8, bool)>,
    /// Events after CallEnd (wakes) up to the next CallBegin.
    after: Vec<Event>,
}

fn calls(o: &Observation) -> Vec<Call> {
    let mut out: Vec<Call> = Vec::new();
    for e in &o.events {
        match *e {
            Event::CallBegin { call, waker } => {
                assert_eq!(call as usize, out.len());
                out.push(Call {
                    caller: waker,
                    polls: Vec::new(),
                    end: None,
                    after: Vec::new(),
                });
            }
            Event::Poll {
                child,
                waker,
                outcome,
                event,
            } => {
                let c = out.last_mut().unwrap();
                assert!(c.end.is_none(), "poll between calls");
                c.polls.push((child, waker, outcome, event));
            }
            Event::CallEnd {
                result,
                tag,
                event,
                done,
            } => out.last_mut().unwrap().end = Some((result, tag, event, done)),
            other => {
                let c = out.last_mut().unwrap();
                if c.end.is_some() {
                    c.after.push(other);
                }
            }
        }
    }
    out
}

fn polled_children(c: &Call) -> Vec<u32> {
    c.polls.iter().map(|p| p.0).collect()
}

fn result(c: &Call) -> CallResult {
    c.end.unwrap().0
}

fn tag(c: &Call) -> u32 {
    c.end.unwrap().1
}

#[test]
fn always_left_starves_the_right_child() {
    let s = script(6, vec![child(&[R(1)], true), child(&[R(2)], true)], &[]);
    let o = observe("futures::stream::select_with_strategy(always_left)", &s);
    let cs = calls(&o);
    assert_eq!(cs.len(), 6);
    for c in &cs {
        assert_eq!(polled_children(c), vec![0]);
        assert_eq!(c.end, Some((CallResult::Ready, 0, 1, false)));
    }
}

#[test]
fn select_alternates_its_tags() {
    let s = script(6, vec![child(&[R(1)], true), child(&[R(2)], true)], &[]);
    let o = observe("futures::stream::select", &s);
    let tags: Vec<u32> = calls(&o).iter().map(tag).collect();
    assert_eq!(tags, vec![0, 1, 0, 1, 0, 1]);
    let alt = observe("futures::stream::select_with_strategy(alternate)", &s);
    assert_eq!(o.events, alt.events);
}

#[test]
fn children_are_polled_with_the_callers_waker_and_each_call_has_a_fresh_one() {
    let s = script(4, vec![child(&[R(1)], true), child(&[P], true)], &[]);
    let o = observe("futures::stream::select", &s);
    let cs = calls(&o);
    let mut callers: Vec<u32> = cs.iter().map(|c| c.caller).collect();
    callers.dedup();
    assert_eq!(callers.len(), 4);
    for c in &cs {
        for p in &c.polls {
            assert_eq!(p.1, c.caller);
        }
    }
}

#[test]
fn tokio_select_biased_polls_child_0_first_every_call() {
    let s = script(
        5,
        vec![
            child(&[P], true),
            child(&[R(2), P], true),
            child(&[R(3)], true),
        ],
        &[],
    );
    let o = observe("tokio::select!(biased)", &s);
    let cs = calls(&o);
    assert_eq!(cs.len(), 5);
    for (t, c) in cs.iter().enumerate() {
        assert_eq!(c.polls[0].0, 0, "call {}", t);
        // Child 1 is next; it is Ready on even calls, so child 2 is polled
        // only on odd ones.
        if t % 2 == 0 {
            assert_eq!(polled_children(c), vec![0, 1]);
            assert_eq!(c.end, Some((CallResult::Ready, 1, 2, false)));
        } else {
            assert_eq!(polled_children(c), vec![0, 1, 2]);
            assert_eq!(c.end, Some((CallResult::Ready, 2, 3, false)));
        }
    }
}

#[test]
fn tokio_select_fair_polls_every_child_and_ends_when_all_are_done() {
    let s = script(
        4,
        vec![child(&[P, Done], false), child(&[Done], false)],
        &[],
    );
    let o = observe("tokio::select!", &s);
    let cs = calls(&o);
    // Call 0: both polled (random order); child 1 is Done, child 0 Pending.
    let mut first = polled_children(&cs[0]);
    first.sort_unstable();
    assert_eq!(first, vec![0, 1]);
    assert_eq!(result(&cs[0]), CallResult::Pending);
    // Call 1: the fused child 1 is not polled again; child 0 is Done.
    assert_eq!(polled_children(&cs[1]), vec![0]);
    assert_eq!(cs[1].end, Some((CallResult::Done, 0, 0, true)));
    // Later calls poll no child and stay Done.
    for c in &cs[2..] {
        assert!(c.polls.is_empty());
        assert_eq!(c.end, Some((CallResult::Done, 0, 0, true)));
    }
}

#[test]
fn tokio_select_takes_one_to_four_children() {
    let entry = composites::find("tokio::select!").unwrap();
    for n in 1..=4 {
        let s = script(2, vec![child(&[R(1)], true); n], &[]);
        let o = run::run(entry, &s).unwrap();
        assert_eq!(calls(&o).len(), 2);
    }
    let s = script(1, vec![child(&[], false); 5], &[]);
    assert!(matches!(
        run::run(entry, &s),
        Err(RunError::ChildCount { children: 5, .. })
    ));
}

#[test]
fn futures_unordered_polls_an_unwoken_pending_child_exactly_once() {
    let s = script(
        5,
        vec![
            child(&[P], false),
            child(&[W, W, P], false),
            child(&[], false),
        ],
        &[(2, 1)],
    );
    let o = observe("futures::stream::FuturesUnordered", &s);
    assert_eq!(o.child_kind, ChildKind::Future);
    let polls_of = |k: u32| {
        o.events
            .iter()
            .filter(|e| matches!(e, Event::Poll { child, .. } if *child == k))
            .count()
    };
    assert_eq!(polls_of(0), 1);
    assert_eq!(polls_of(2), 1);
    // Child 1: three scripted polls, then once more after the external wake.
    assert_eq!(polls_of(1), 4);
    // Each child gets its own task waker, never the caller's.
    let cs = calls(&o);
    for c in &cs {
        for p in &c.polls {
            assert_ne!(p.1, c.caller);
        }
    }
}

#[test]
fn futures_unordered_skips_a_future_that_finished_without_an_event() {
    let s = script(
        3,
        vec![child(&[Done], false), child(&[P, R(9)], false)],
        &[(0, 1)],
    );
    let o = observe("futures::stream::FuturesUnordered", &s);
    let cs = calls(&o);
    // Call 0: child 0 finishes with no event and is skipped; child 1 Pending.
    assert_eq!(polled_children(&cs[0]), vec![0, 1]);
    assert_eq!(result(&cs[0]), CallResult::Pending);
    // The external wake of child 1 wakes the caller of call 0 through the
    // set's task waker.
    assert!(cs[0].after.contains(&Event::CallerWoken {
        waker: cs[0].caller
    }));
    assert_eq!(cs[1].end, Some((CallResult::Ready, 1, 9, false)));
    assert_eq!(cs[2].end, Some((CallResult::Done, 0, 0, true)));
}

#[test]
fn a_throw_stops_the_run() {
    let s = script(
        5,
        vec![child(&[Throw], false), child(&[R(1)], true)],
        &[(0, 0)],
    );
    let o = observe("futures::stream::select", &s);
    let cs = calls(&o);
    assert_eq!(cs.len(), 1);
    assert_eq!(cs[0].polls, vec![(0, 0, OutcomeKind::Throw, 0)]);
    assert_eq!(cs[0].end, Some((CallResult::Threw, 0, 0, false)));
    // No wakes after a panic.
    assert_eq!(o.events.len(), 3);
}

#[test]
fn a_throw_inside_futures_unordered_and_tokio_select_is_contained() {
    let s = script(3, vec![child(&[P], false), child(&[Throw], false)], &[]);
    for name in [
        "futures::stream::FuturesUnordered",
        "tokio::select!(biased)",
        "tokio_stream::StreamMap",
        "futures::stream::select_all",
    ] {
        let o = observe(name, &s);
        let cs = calls(&o);
        assert_eq!(cs.len(), 1, "{}", name);
        assert_eq!(result(&cs[0]), CallResult::Threw, "{}", name);
    }
}

#[test]
fn a_pending_probe_composite_has_its_live_children_probed() {
    let s = script(1, vec![child(&[P], false), child(&[W], false)], &[]);
    let o = observe("futures::stream::select", &s);
    let cs = calls(&o);
    let caller = cs[0].caller;
    assert_eq!(result(&cs[0]), CallResult::Pending);
    assert_eq!(
        cs[0].after,
        vec![
            Event::WakeBegin {
                child: 0,
                waker: caller,
                cause: WakeCause::Probe
            },
            Event::CallerWoken { waker: caller },
            Event::WakeEnd,
            Event::WakeBegin {
                child: 1,
                waker: caller,
                cause: WakeCause::Probe
            },
            Event::CallerWoken { waker: caller },
            Event::WakeEnd,
        ]
    );
}

#[test]
fn finished_children_are_not_probed_and_non_probe_composites_are_not() {
    let s = script(1, vec![child(&[Done], false), child(&[P], false)], &[]);
    let o = observe("futures::stream::select", &s);
    let probed: Vec<u32> = o
        .events
        .iter()
        .filter_map(|e| match e {
            Event::WakeBegin {
                child,
                cause: WakeCause::Probe,
                ..
            } => Some(*child),
            _ => None,
        })
        .collect();
    assert_eq!(probed, vec![1]);
    let o = observe("futures::stream::select_all", &s);
    assert!(!o
        .events
        .iter()
        .any(|e| matches!(e, Event::WakeBegin { .. })));
}

#[test]
fn an_external_wake_of_a_never_polled_child_records_nothing() {
    let s = script(
        2,
        vec![child(&[R(1)], true), child(&[R(2)], true)],
        &[(0, 1), (1, 0)],
    );
    let o = observe("futures::stream::select_with_strategy(always_left)", &s);
    let cs = calls(&o);
    assert!(cs[0].after.is_empty());
    assert_eq!(
        cs[1].after,
        vec![
            Event::WakeBegin {
                child: 0,
                waker: cs[1].caller,
                cause: WakeCause::External
            },
            Event::CallerWoken {
                waker: cs[1].caller
            },
            Event::WakeEnd,
        ]
    );
}

#[test]
fn select_all_polls_only_woken_children_and_ends_when_all_are_done() {
    let s = script(
        4,
        vec![child(&[R(1), Done], false), child(&[P, Done], false)],
        &[(1, 1)],
    );
    let o = observe("futures::stream::select_all", &s);
    let cs = calls(&o);
    assert_eq!(cs[0].end, Some((CallResult::Ready, 0, 1, false)));
    // Call 1: child 1 (queued since its push) is Pending; child 0 (re-pushed
    // after its item) ends.
    assert_eq!(polled_children(&cs[1]), vec![1, 0]);
    assert_eq!(result(&cs[1]), CallResult::Pending);
    // Call 2: only the externally woken child 1 is polled; it ends the set.
    assert_eq!(polled_children(&cs[2]), vec![1]);
    assert_eq!(cs[2].end, Some((CallResult::Done, 0, 0, true)));
    assert!(cs[3].polls.is_empty());
}

#[test]
fn stream_map_tags_items_by_child_and_ends_when_all_are_done() {
    let s = script(
        3,
        vec![child(&[Done], false), child(&[R(4), Done], false)],
        &[],
    );
    let o = observe("tokio_stream::StreamMap", &s);
    let cs = calls(&o);
    let results: Vec<_> = cs.iter().map(|c| c.end.unwrap()).collect();
    // Child 1's item comes out in the first or second call (random start);
    // the map ends once both are done and says so from then on.
    assert!(results.contains(&(CallResult::Ready, 1, 4, false)));
    assert_eq!(results.last(), Some(&(CallResult::Done, 0, 0, true)));
    for c in &cs {
        // A removed (done) child is never polled again.
        assert!(!c.polls.iter().any(|p| p.2 == OutcomeKind::Pending));
    }
}

#[test]
fn observations_round_trip_through_bytes() {
    let s = script(
        8,
        vec![child(&[R(3), W, P], true), child(&[W, R(31), Done], false)],
        &[(0, 0), (3, 1), (7, 0)],
    );
    for e in composites::COMPOSITES.iter().filter(|e| e.accepts(2)) {
        let direct = run::run(e, &s).unwrap();
        if e.name.starts_with("tokio::select!") && !e.name.contains("biased")
            || e.name.contains("StreamMap")
        {
            // Random start: runs differ; check the bytes of this one.
            assert_eq!(decode::observation(&direct.encode()), Some(direct));
            continue;
        }
        let bytes = run::play(e.name, &s.encode()).unwrap();
        assert_eq!(decode::observation(&bytes), Some(direct), "{}", e.name);
    }
}

#[test]
fn rejects_bad_input() {
    let s = script(1, vec![child(&[R(1)], false), child(&[], false)], &[]);
    let bytes = s.encode();
    assert!(matches!(
        run::play("futures::stream::select", &bytes[..bytes.len() - 1]),
        Err(RunError::InvalidScript(_))
    ));
    assert_eq!(run::play("nope", &bytes), Err(RunError::UnknownComposite));
}

#[test]
fn futures_unordered_repolls_a_self_woken_child_within_one_call() {
    let s = script(
        3,
        vec![
            child(&[P], false),
            child(&[P], false),
            child(&[W, W, W, R(7)], false),
        ],
        &[],
    );
    let o = observe("futures::stream::FuturesUnordered", &s);
    let cs = calls(&o);
    // Call 0: every future once; the last poll makes `polled == len`, so the
    // set wakes the caller and yields.
    assert_eq!(polled_children(&cs[0]), vec![0, 1, 2]);
    // Call 1: only child 2 is queued; after its self-wake it is dequeued
    // again in the same poll_next, and the second yield (yielded >= 2) makes
    // the set wake the caller and return.
    assert_eq!(polled_children(&cs[1]), vec![2, 2]);
    assert_eq!(result(&cs[1]), CallResult::Pending);
    let caller = cs[1].caller;
    let woken_inside_call_1 = o
        .events
        .iter()
        .skip_while(|e| !matches!(e, Event::CallBegin { call: 1, .. }))
        .take_while(|e| !matches!(e, Event::CallEnd { .. }))
        .filter(|e| **e == Event::CallerWoken { waker: caller })
        .count();
    // Twice: the first self-wake reaches the caller through the set's
    // registered waker (which a wake consumes until the next poll_next
    // registers again), and the yield wakes it directly.
    assert_eq!(woken_inside_call_1, 2);
    // Call 2: the event.
    assert_eq!(polled_children(&cs[2]), vec![2]);
    assert_eq!(cs[2].end, Some((CallResult::Ready, 2, 7, false)));
}

#[test]
fn select_all_repushes_a_stream_that_yielded_as_a_new_task() {
    let s = script(3, vec![child(&[R(1)], true), child(&[R(2)], true)], &[]);
    let o = observe("futures::stream::select_all", &s);
    let cs = calls(&o);
    // Each item re-pushes its stream at the back of the ready queue, so
    // the two children take turns.
    let tags: Vec<u32> = cs.iter().map(tag).collect();
    assert_eq!(tags, vec![0, 1, 0]);
    // The re-pushed stream is a new task: a new waker each time.
    let wakers_of_0: Vec<u32> = cs
        .iter()
        .flat_map(|c| c.polls.iter().filter(|p| p.0 == 0).map(|p| p.1))
        .collect();
    assert_eq!(wakers_of_0.len(), 2);
    assert_ne!(wakers_of_0[0], wakers_of_0[1]);
}

#[test]
fn tokio_select_and_stream_map_start_at_random_children() {
    let s = script(1, vec![child(&[R(1)], true), child(&[R(2)], true)], &[]);
    for name in ["tokio::select!", "tokio_stream::StreamMap"] {
        let mut first = [0usize; 2];
        for _ in 0..200 {
            let o = observe(name, &s);
            first[calls(&o)[0].polls[0].0 as usize] += 1;
        }
        // Each of the two starts has probability 1/2 per run.
        assert!(first[0] > 0 && first[1] > 0, "{}: {:?}", name, first);
    }
}

#[test]
fn futures_unordered_wakes_its_caller_after_polling_every_future() {
    // No child wakes anything, yet the first call (which polls every
    // future, all Pending) wakes the caller: FuturesUnordered yields when
    // `polled == len`. Later calls find the ready queue empty and poll no
    // one. SelectAll, built on it, does the same.
    let s = script(3, vec![child(&[P], false), child(&[P], false)], &[]);
    for name in [
        "futures::stream::FuturesUnordered",
        "futures::stream::select_all",
    ] {
        let o = observe(name, &s);
        assert_eq!(
            &o.events[..5],
            &[
                Event::CallBegin { call: 0, waker: 0 },
                Event::Poll {
                    child: 0,
                    waker: 1,
                    outcome: OutcomeKind::Pending,
                    event: 0
                },
                Event::Poll {
                    child: 1,
                    waker: 2,
                    outcome: OutcomeKind::Pending,
                    event: 0
                },
                Event::CallerWoken { waker: 0 },
                Event::CallEnd {
                    result: CallResult::Pending,
                    tag: 0,
                    event: 0,
                    done: false
                },
            ],
            "{}",
            name
        );
        let cs = calls(&o);
        assert!(cs[1].polls.is_empty() && cs[2].polls.is_empty(), "{}", name);
    }
}
