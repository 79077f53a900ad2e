//! The table of composites: each name (the API string), how many children
//! it takes, what they are, whether the harness probes it, and how to build
//! it over scripted children.

use futures::stream::{self, PollNext};
use tokio_stream::StreamMap;

use crate::adapters::{Composite, EndTracking, Fused, FuturesUnorderedStream};
use crate::children::{ScriptedChild, ScriptedFuture, ScriptedStream};
use crate::observation::ChildKind;
use crate::tokio_select;

/// One composite the crate can run.
pub struct CompositeEntry {
    /// Its name, e.g. "futures::stream::select".
    pub name: &'static str,
    /// The fewest children it takes.
    pub min_children: usize,
    /// The most children it takes.
    pub max_children: usize,
    /// What its children are.
    pub child_kind: ChildKind,
    /// Whether, after a Pending call, the harness wakes every live child's
    /// latest waker (for composites that poll every child each call; not for
    /// those that poll only woken children).
    pub probe: bool,
    /// Builds it over the children (in index order); None if the count is
    /// wrong for it.
    pub build: fn(Vec<ScriptedChild>) -> Option<Box<dyn Composite>>,
}

impl CompositeEntry {
    /// Whether it takes `children` children.
    pub fn accepts(&self, children: usize) -> bool {
        (self.min_children..=self.max_children).contains(&children)
    }
}

/// Every composite, in the order of `COMPOSITE_LIST`.
pub static COMPOSITES: [CompositeEntry; 8] = [
    CompositeEntry {
        name: "futures::stream::select",
        min_children: 2,
        max_children: 2,
        child_kind: ChildKind::Stream,
        probe: true,
        build: build_select,
    },
    CompositeEntry {
        name: "futures::stream::select_with_strategy(alternate)",
        min_children: 2,
        max_children: 2,
        child_kind: ChildKind::Stream,
        probe: true,
        build: build_alternate,
    },
    CompositeEntry {
        name: "futures::stream::select_with_strategy(always_left)",
        min_children: 2,
        max_children: 2,
        child_kind: ChildKind::Stream,
        probe: true,
        build: build_always_left,
    },
    CompositeEntry {
        name: "futures::stream::select_all",
        min_children: 1,
        max_children: 32,
        child_kind: ChildKind::Stream,
        probe: false,
        build: build_select_all,
    },
    CompositeEntry {
        name: "futures::stream::FuturesUnordered",
        min_children: 1,
        max_children: 32,
        child_kind: ChildKind::Future,
        probe: false,
        build: build_futures_unordered,
    },
    CompositeEntry {
        name: "tokio::select!",
        min_children: tokio_select::MIN_CHILDREN,
        max_children: tokio_select::MAX_CHILDREN,
        child_kind: ChildKind::Stream,
        probe: true,
        build: build_tokio_select,
    },
    CompositeEntry {
        name: "tokio::select!(biased)",
        min_children: tokio_select::MIN_CHILDREN,
        max_children: tokio_select::MAX_CHILDREN,
        child_kind: ChildKind::Stream,
        probe: true,
        build: build_tokio_select_biased,
    },
    CompositeEntry {
        name: "tokio_stream::StreamMap",
        min_children: 1,
        max_children: 32,
        child_kind: ChildKind::Stream,
        probe: true,
        build: build_stream_map,
    },
];

/// One line per composite,
/// "name\tmin_children\tmax_children\tchild_kind(stream|future)\tprobe(yes|no)\n",
/// NUL-terminated for C. A test checks it against `COMPOSITES`.
pub const COMPOSITE_LIST: &str = concat!(
    "futures::stream::select\t2\t2\tstream\tyes\n",
    "futures::stream::select_with_strategy(alternate)\t2\t2\tstream\tyes\n",
    "futures::stream::select_with_strategy(always_left)\t2\t2\tstream\tyes\n",
    "futures::stream::select_all\t1\t32\tstream\tno\n",
    "futures::stream::FuturesUnordered\t1\t32\tfuture\tno\n",
    "tokio::select!\t1\t4\tstream\tyes\n",
    "tokio::select!(biased)\t1\t4\tstream\tyes\n",
    "tokio_stream::StreamMap\t1\t32\tstream\tyes\n",
    "\0"
);

/// The composite named `name`.
pub fn find(name: &str) -> Option<&'static CompositeEntry> {
    COMPOSITES.iter().find(|e| e.name == name)
}

/// Exactly two scripted streams.
fn two_streams(children: Vec<ScriptedChild>) -> Option<(ScriptedStream, ScriptedStream)> {
    let mut children = children.into_iter();
    let a = ScriptedStream::new(children.next()?);
    let b = ScriptedStream::new(children.next()?);
    match children.next() {
        Some(_) => None,
        None => Some((a, b)),
    }
}

fn build_select(children: Vec<ScriptedChild>) -> Option<Box<dyn Composite>> {
    let (a, b) = two_streams(children)?;
    Some(Box::new(Fused(stream::select(a, b))))
}

fn build_alternate(children: Vec<ScriptedChild>) -> Option<Box<dyn Composite>> {
    let (a, b) = two_streams(children)?;
    // The state starts false: Left first, then Right, Left, ...
    let alternate = |right_next: &mut bool| {
        let side = if *right_next {
            PollNext::Right
        } else {
            PollNext::Left
        };
        *right_next = !*right_next;
        side
    };
    Some(Box::new(Fused(stream::select_with_strategy(
        a, b, alternate,
    ))))
}

fn build_always_left(children: Vec<ScriptedChild>) -> Option<Box<dyn Composite>> {
    let (a, b) = two_streams(children)?;
    let always_left = |_: &mut ()| PollNext::Left;
    Some(Box::new(Fused(stream::select_with_strategy(
        a,
        b,
        always_left,
    ))))
}

fn build_select_all(children: Vec<ScriptedChild>) -> Option<Box<dyn Composite>> {
    if children.is_empty() {
        return None;
    }
    Some(Box::new(Fused(stream::select_all(
        children.into_iter().map(ScriptedStream::new),
    ))))
}

fn build_futures_unordered(children: Vec<ScriptedChild>) -> Option<Box<dyn Composite>> {
    if children.is_empty() {
        return None;
    }
    Some(Box::new(Fused(FuturesUnorderedStream::new(
        children.into_iter().map(ScriptedFuture::new),
    ))))
}

fn build_tokio_select(children: Vec<ScriptedChild>) -> Option<Box<dyn Composite>> {
    tokio_select::build(false, children)
}

fn build_tokio_select_biased(children: Vec<ScriptedChild>) -> Option<Box<dyn Composite>> {
    tokio_select::build(true, children)
}

fn build_stream_map(children: Vec<ScriptedChild>) -> Option<Box<dyn Composite>> {
    if children.is_empty() {
        return None;
    }
    let mut map = StreamMap::new();
    for child in children {
        map.insert(child.index(), ScriptedStream::new(child));
    }
    Some(Box::new(EndTracking::new(map)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_matches_the_table() {
        let mut list = String::new();
        for e in &COMPOSITES {
            list.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\n",
                e.name,
                e.min_children,
                e.max_children,
                match e.child_kind {
                    ChildKind::Stream => "stream",
                    ChildKind::Future => "future",
                },
                if e.probe { "yes" } else { "no" }
            ));
        }
        list.push('\0');
        assert_eq!(COMPOSITE_LIST, list);
        assert_eq!(COMPOSITE_LIST.find('\0'), Some(COMPOSITE_LIST.len() - 1));
    }

    #[test]
    fn names_are_unique_and_found() {
        for e in &COMPOSITES {
            assert!(std::ptr::eq(find(e.name).unwrap(), e));
        }
        assert!(find("futures::stream::Select").is_none());
    }
}
