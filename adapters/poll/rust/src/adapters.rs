//! The one interface the run loop drives, and the thin adapters that put
//! each library composite behind it without changing how it schedules.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures::stream::{FusedStream, FuturesUnordered, Stream, StreamExt};

use crate::children::{ScriptedFuture, Yield};

/// A composite under test, as the run loop sees it.
pub trait Composite {
    /// Polls the composite's stream once.
    fn poll_call(&mut self, cx: &mut Context<'_>) -> Poll<Option<Yield>>;

    /// Whether the composite says it is finished: its own
    /// `FusedStream::is_terminated()` where it has one, else whether it has
    /// returned Ready(None).
    fn is_done(&self) -> bool;
}

/// An item that carries a `Yield` (the composite's item type).
pub trait IntoYield {
    /// The carried `Yield`.
    fn into_yield(self) -> Yield;
}

impl IntoYield for Yield {
    fn into_yield(self) -> Yield {
        self
    }
}

/// StreamMap's items are (key, item); the tag comes from the item.
impl<K> IntoYield for (K, Yield) {
    fn into_yield(self) -> Yield {
        self.1
    }
}

/// A composite that implements `FusedStream`: done is its
/// `is_terminated()`.
pub struct Fused<S>(pub S);

impl<S> Composite for Fused<S>
where
    S: FusedStream + Unpin,
    S::Item: IntoYield,
{
    fn poll_call(&mut self, cx: &mut Context<'_>) -> Poll<Option<Yield>> {
        self.0
            .poll_next_unpin(cx)
            .map(|item| item.map(IntoYield::into_yield))
    }

    fn is_done(&self) -> bool {
        self.0.is_terminated()
    }
}

/// A composite without `FusedStream`: done once it has returned
/// Ready(None).
pub struct EndTracking<S> {
    stream: S,
    ended: bool,
}

impl<S> EndTracking<S> {
    /// Wraps `stream`.
    pub fn new(stream: S) -> EndTracking<S> {
        EndTracking {
            stream,
            ended: false,
        }
    }
}

impl<S> Composite for EndTracking<S>
where
    S: Stream + Unpin,
    S::Item: IntoYield,
{
    fn poll_call(&mut self, cx: &mut Context<'_>) -> Poll<Option<Yield>> {
        let polled = self
            .stream
            .poll_next_unpin(cx)
            .map(|item| item.map(IntoYield::into_yield));
        if let Poll::Ready(None) = polled {
            self.ended = true;
        }
        polled
    }

    fn is_done(&self) -> bool {
        self.ended
    }
}

/// A stream over a `FuturesUnordered` of scripted futures: a future that
/// finished without an event is skipped by polling the set again; an event
/// is yielded; Pending and the end pass through.
pub struct FuturesUnorderedStream {
    set: FuturesUnordered<ScriptedFuture>,
}

impl FuturesUnorderedStream {
    /// The futures, pushed in the given (child) order.
    pub fn new(futures: impl IntoIterator<Item = ScriptedFuture>) -> FuturesUnorderedStream {
        let set = FuturesUnordered::new();
        for f in futures {
            set.push(f);
        }
        FuturesUnorderedStream { set }
    }
}

impl Stream for FuturesUnorderedStream {
    type Item = Yield;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Yield>> {
        let set = &mut self.get_mut().set;
        loop {
            match set.poll_next_unpin(cx) {
                Poll::Ready(Some(Some(item))) => return Poll::Ready(Some(item)),
                Poll::Ready(Some(None)) => continue,
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

/// Done is the set's own `is_terminated()`.
impl FusedStream for FuturesUnorderedStream {
    fn is_terminated(&self) -> bool {
        self.set.is_terminated()
    }
}
