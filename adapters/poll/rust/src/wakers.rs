//! Waker identity: the table that numbers the distinct wakers of a run.

use std::task::Waker;

/// The distinct wakers seen in a run, numbered from 0 in order of first
/// sight.
///
/// A waker's id is the index of the first entry `e` with `e.will_wake(w)`;
/// a waker no entry will wake is appended. The table keeps a clone of every
/// entry, so no entry's allocation can be freed and reused by a later,
/// different waker while the run lasts.
#[derive(Default)]
pub struct WakerTable {
    entries: Vec<Waker>,
}

impl WakerTable {
    /// An empty table.
    pub fn new() -> WakerTable {
        WakerTable::default()
    }

    /// The id of `waker`, appending it on first sight.
    pub fn id_of(&mut self, waker: &Waker) -> u32 {
        let index = match self.entries.iter().position(|e| e.will_wake(waker)) {
            Some(index) => index,
            None => {
                self.entries.push(waker.clone());
                self.entries.len() - 1
            }
        };
        // At most one waker per call and per poll is new, so the table stays
        // far below 2^32 entries.
        u32::try_from(index).unwrap_or(u32::MAX)
    }

    /// How many distinct wakers were seen.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no waker was seen yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Takes the entries out (to drop them outside a lock).
    pub fn take(&mut self) -> Vec<Waker> {
        std::mem::take(&mut self.entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::task::Wake;

    struct Nop;
    impl Wake for Nop {
        fn wake(self: Arc<Self>) {}
    }

    #[test]
    fn ids_follow_first_sight_and_clones_share_an_id() {
        let a = Waker::from(Arc::new(Nop));
        let b = Waker::from(Arc::new(Nop));
        let mut t = WakerTable::new();
        assert!(t.is_empty());
        assert_eq!(t.id_of(&a), 0);
        assert_eq!(t.id_of(&b), 1);
        // A clone made through the waker's vtable must will_wake its
        // original: the ids of "latest wakers" rely on it.
        assert_eq!(t.id_of(&a.clone()), 0);
        assert_eq!(t.id_of(&b.clone().clone()), 1);
        assert_eq!(t.len(), 2);
    }
}
