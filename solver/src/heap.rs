//! A binary max-heap of variables keyed by activity (EVSIDS), with a position index so that a
//! bumped variable moves up in O(log n). Ties keep insertion order stable: the heap is a pure
//! function of the sequence of operations, which is what determinism needs.
//!
//! Invariants (owned here): `heap` is a max-heap under the activity array it is given (every
//! caller passes the same one, `decide.rs`'s `Vsids::activity`); `pos[heap[i]] == i` for
//! every slot, and `pos[v] == ABSENT` exactly for the variables not in `heap`. What the heap
//! must contain is `decide.rs`'s invariant.

#![forbid(unsafe_code)]

/// Position of a variable that is not in the heap.
const ABSENT: u32 = u32::MAX;

/// Max-heap of variable indices ordered by an external activity array.
#[derive(Default, Clone)]
pub(crate) struct VarHeap {
    heap: Vec<u32>,
    /// `pos[v]` = index of `v` in `heap`, or `ABSENT`.
    pos: Vec<u32>,
}

impl VarHeap {
    /// Makes room for variables `0..n`.
    pub(crate) fn grow(&mut self, n: usize) {
        if self.pos.len() < n {
            self.pos.resize(n, ABSENT);
        }
    }

    #[inline]
    pub(crate) fn contains(&self, v: usize) -> bool {
        self.pos[v] != ABSENT
    }

    /// Inserts `v` if absent.
    pub(crate) fn insert(&mut self, v: usize, act: &[f64]) {
        if self.contains(v) {
            return;
        }
        self.pos[v] = self.heap.len() as u32;
        self.heap.push(v as u32);
        self.sift_up(self.heap.len() - 1, act);
    }

    /// Restores the heap after `act[v]` increased.
    #[inline]
    pub(crate) fn increased(&mut self, v: usize, act: &[f64]) {
        if self.contains(v) {
            self.sift_up(self.pos[v] as usize, act);
        }
    }

    /// The variable of highest activity, without removing it.
    pub(crate) fn top(&self) -> Option<usize> {
        self.heap.first().map(|&v| v as usize)
    }

    /// Removes and returns the variable of highest activity.
    pub(crate) fn pop(&mut self, act: &[f64]) -> Option<usize> {
        let top = *self.heap.first()?;
        let last = self.heap.pop()?;
        self.pos[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last as usize] = 0;
            self.sift_down(0, act);
        }
        Some(top as usize)
    }

    fn sift_up(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        let a = act[v as usize];
        while i > 0 {
            let parent = (i - 1) / 2;
            let pv = self.heap[parent];
            if act[pv as usize] >= a {
                break;
            }
            self.place(i, pv);
            i = parent;
        }
        self.place(i, v);
    }

    fn sift_down(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        let a = act[v as usize];
        let n = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child =
                if right < n && act[self.heap[right] as usize] > act[self.heap[left] as usize] {
                    right
                } else {
                    left
                };
            let cv = self.heap[child];
            if act[cv as usize] <= a {
                break;
            }
            self.place(i, cv);
            i = child;
        }
        self.place(i, v);
    }

    /// Puts `v` in slot `i` and records its position.
    #[inline(always)]
    fn place(&mut self, i: usize, v: u32) {
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_come_out_in_activity_order_with_ties_broken_deterministically() {
        let act = vec![3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0];
        let mut h = VarHeap::default();
        h.grow(act.len());
        for v in 0..act.len() {
            h.insert(v, &act);
        }
        let mut out = vec![];
        while let Some(v) = h.pop(&act) {
            out.push(v);
        }
        let mut expected: Vec<usize> = (0..act.len()).collect();
        expected.sort_by(|&a, &b| act[b].partial_cmp(&act[a]).unwrap());
        let got: Vec<f64> = out.iter().map(|&v| act[v]).collect();
        let want: Vec<f64> = expected.iter().map(|&v| act[v]).collect();
        assert_eq!(got, want);
    }
}
