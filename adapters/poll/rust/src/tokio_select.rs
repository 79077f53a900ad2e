//! `tokio::select!` as a composite: a stream whose every poll builds a fresh
//! future running one `select!` over `next()` of each child (each wrapped in
//! `StreamExt::fuse()`) and polls it exactly once.
//!
//! `select!` takes a fixed list of branches, so one stream type is written
//! per child count (1 to 4) by `select_stream!`.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures::stream::{Fuse, Stream, StreamExt};
use futures::FutureExt;

use crate::children::{ScriptedChild, ScriptedStream, Yield};

/// The fewest children a select composite takes.
pub const MIN_CHILDREN: usize = 1;
/// The most children a select composite takes.
pub const MAX_CHILDREN: usize = 4;

/// Defines `$name`, a stream of `Yield`s over one fused scripted stream per
/// listed field, whose `poll_next` runs `tokio::select!` once (with
/// `biased;` first if the stream was made biased).
macro_rules! select_stream {
    ($(#[$doc:meta])* $name:ident { $($field:ident),+ }) => {
        $(#[$doc])*
        pub struct $name {
            biased: bool,
            $($field: Fuse<ScriptedStream>,)+
        }

        impl $name {
            /// Takes exactly one child per branch, in order; None if the
            /// count differs.
            pub fn new(biased: bool, children: Vec<ScriptedChild>) -> Option<$name> {
                let mut children = children.into_iter();
                $(let $field = ScriptedStream::new(children.next()?).fuse();)+
                if children.next().is_some() {
                    return None;
                }
                Some($name { biased, $($field,)+ })
            }
        }

        impl Stream for $name {
            type Item = Yield;

            fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Yield>> {
                let this = self.get_mut();
                $(let $field = &mut this.$field;)+
                if this.biased {
                    Box::pin(async move {
                        tokio::select! {
                            biased;
                            $(Some(item) = $field.next() => Some(item),)+
                            else => None,
                        }
                    })
                    .poll_unpin(cx)
                } else {
                    Box::pin(async move {
                        tokio::select! {
                            $(Some(item) = $field.next() => Some(item),)+
                            else => None,
                        }
                    })
                    .poll_unpin(cx)
                }
            }
        }
    };
}

select_stream!(
    /// `tokio::select!` over one child.
    Select1 { c0 }
);
select_stream!(
    /// `tokio::select!` over two children.
    Select2 { c0, c1 }
);
select_stream!(
    /// `tokio::select!` over three children.
    Select3 { c0, c1, c2 }
);
select_stream!(
    /// `tokio::select!` over four children.
    Select4 { c0, c1, c2, c3 }
);

/// The select composite for `children` (1 to 4 of them), wrapped for the run
/// loop; None for any other count.
pub fn build(
    biased: bool,
    children: Vec<ScriptedChild>,
) -> Option<Box<dyn crate::adapters::Composite>> {
    use crate::adapters::EndTracking;
    Some(match children.len() {
        1 => Box::new(EndTracking::new(Select1::new(biased, children)?)),
        2 => Box::new(EndTracking::new(Select2::new(biased, children)?)),
        3 => Box::new(EndTracking::new(Select3::new(biased, children)?)),
        4 => Box::new(EndTracking::new(Select4::new(biased, children)?)),
        _ => return None,
    })
}
