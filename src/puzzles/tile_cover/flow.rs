//! A maximum flow with small capacities (Dinic's algorithm, without
//! recursion, for rooms of any size): the degree matching of the presolve
//! and the constructive route both solve one.

/// How many phases the callers allow a flow; see [`Flow::max_flow`].
pub(super) const MAX_PHASES: usize = 32;

use std::collections::VecDeque;

/// A flow network with small integer capacities (Dinic's algorithm).
pub(super) struct Flow {
    head: Vec<usize>,
    next: Vec<usize>,
    to: Vec<usize>,
    cap: Vec<u8>,
    level: Vec<u32>,
    cursor: Vec<usize>,
}

pub(super) const NONE: usize = usize::MAX;

impl Flow {
    pub(super) fn new(nodes: usize) -> Flow {
        Flow {
            head: vec![NONE; nodes],
            next: Vec::new(),
            to: Vec::new(),
            cap: Vec::new(),
            level: Vec::new(),
            cursor: Vec::new(),
        }
    }

    /// Adds an arc; returns its number, for [`Flow::carries`].
    pub(super) fn add(&mut self, from: usize, to: usize, cap: u8) -> usize {
        for (a, b, c) in [(from, to, cap), (to, from, 0)] {
            self.to.push(b);
            self.cap.push(c);
            self.next.push(self.head[a]);
            self.head[a] = self.to.len() - 1;
        }
        self.to.len() - 2
    }

    /// How much flow an arc carries.
    pub(super) fn carries(&self, arc: usize) -> u8 {
        self.cap[arc ^ 1]
    }

    fn levels(&mut self, source: usize, sink: usize) -> bool {
        self.level = vec![u32::MAX; self.head.len()];
        self.level[source] = 0;
        let mut queue = VecDeque::from([source]);
        while let Some(v) = queue.pop_front() {
            let mut e = self.head[v];
            while e != NONE {
                let w = self.to[e];
                if self.cap[e] > 0 && self.level[w] == u32::MAX {
                    self.level[w] = self.level[v] + 1;
                    queue.push_back(w);
                }
                e = self.next[e];
            }
        }
        self.level[sink] != u32::MAX
    }

    /// One augmenting path in the level graph, pushed; its amount, or 0.
    fn augment(&mut self, source: usize, sink: usize) -> u32 {
        let mut path: Vec<usize> = Vec::new();
        let mut v = source;
        loop {
            if v == sink {
                let amount = path.iter().map(|&e| self.cap[e]).min().unwrap_or(0);
                for &e in &path {
                    self.cap[e] -= amount;
                    self.cap[e ^ 1] += amount;
                }
                return amount as u32;
            }
            let mut advanced = false;
            while self.cursor[v] != NONE {
                let e = self.cursor[v];
                let w = self.to[e];
                if self.cap[e] > 0 && self.level[w] == self.level[v] + 1 {
                    path.push(e);
                    v = w;
                    advanced = true;
                    break;
                }
                self.cursor[v] = self.next[e];
            }
            if !advanced {
                // A dead end: never try it again in this phase.
                self.level[v] = u32::MAX;
                match path.pop() {
                    Some(e) => {
                        v = self.to[e ^ 1];
                        self.cursor[v] = self.next[self.cursor[v]];
                    }
                    None => return 0,
                }
            }
        }
    }

    /// The maximum flow, or as much as reaches `wanted`; `None` when
    /// `max_phases` phases of Dinic's algorithm did not settle it. Each phase
    /// costs a pass over the network; rooms with a route need few (at most
    /// 21 on the bench's rooms), while a flow that falls short can need
    /// hundreds on a large room before it proves so, and then the callers
    /// would rather give up.
    pub(super) fn max_flow(&mut self, source: usize, sink: usize, wanted: u32, max_phases: usize) -> Option<u32> {
        let mut total = 0;
        for _ in 0..max_phases {
            if total >= wanted || !self.levels(source, sink) {
                return Some(total);
            }
            self.cursor = self.head.clone();
            loop {
                let pushed = self.augment(source, sink);
                if pushed == 0 {
                    break;
                }
                total += pushed;
            }
        }
        (total >= wanted || !self.levels(source, sink)).then_some(total)
    }

    /// The nodes the source still reaches.
    pub(super) fn reached(&self, source: usize) -> Vec<bool> {
        let mut seen = vec![false; self.head.len()];
        seen[source] = true;
        let mut queue = VecDeque::from([source]);
        while let Some(v) = queue.pop_front() {
            let mut e = self.head[v];
            while e != NONE {
                let w = self.to[e];
                if self.cap[e] > 0 && !seen[w] {
                    seen[w] = true;
                    queue.push_back(w);
                }
                e = self.next[e];
            }
        }
        seen
    }
}
