//! Maximum-weight matching in a general graph: Edmonds' blossom method with the primal-dual
//! weight updates, in the O(n³) form Galil describes ("Efficient algorithms for finding
//! maximum matching in graphs", ACM Computing Surveys, 1986).
//!
//! The pairing engine (`pairing.rs`) builds a weighted graph over the entries and asks for
//! the matching of greatest total weight among those with the most edges — the way FIDE-style
//! Swiss programs and lichess's pairing engine do it, rather than greedily.
//!
//! Weights are integers; vertex duals are kept doubled so every quantity stays integral.
//! The search is deterministic: the same edges in the same order give the same matching.

/// "No vertex / no edge / no endpoint".
const NONE: usize = usize::MAX;

/// Label of a top-level blossom during a stage.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Label {
    Free,
    /// S (outer): reached by an even alternating path from a single vertex.
    Outer,
    /// T (inner): reached by an odd path.
    Inner,
}

/// One undirected weighted edge between two distinct vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// One end.
    pub a: usize,
    /// The other end.
    pub b: usize,
    /// Its weight.
    pub weight: i128,
}

/// Computes a maximum-weight matching among the maximum-cardinality matchings of the graph
/// on `vertices` vertices with these `edges` (at most one edge per pair, no loops).
///
/// Returns `mate`: `mate[v] == Some(w)` when v is matched to w. Edges naming a vertex outside
/// `0..vertices`, loops, are ignored.
pub fn max_weight_matching(vertices: usize, edges: &[Edge]) -> Vec<Option<usize>> {
    let edges: Vec<Edge> = edges
        .iter()
        .copied()
        .filter(|e| e.a != e.b && e.a < vertices && e.b < vertices)
        .collect();
    if edges.is_empty() {
        return vec![None; vertices];
    }
    let mut m = Matcher::new(vertices, edges);
    m.solve();
    (0..vertices)
        .map(|v| (m.mate[v] != NONE).then(|| m.endpoint(m.mate[v])))
        .collect()
}

/// Which way round a blossom to walk from the sub-blossom at `index` to its base so the path
/// has even length: (start position, step, endpoint trick). An odd index goes forward (from
/// `index - len`, wrapping), an even one backward.
fn direction(index: usize, len: usize) -> (isize, isize, usize) {
    if index % 2 == 1 {
        (index as isize - len as isize, 1, 0)
    } else {
        (index as isize, -1, 1)
    }
}

/// The algorithm's state. Vertices are `0..n`; non-trivial blossoms `n..2n`. Edge k has the
/// endpoints `2k` (at `edges[k].a`) and `2k + 1` (at `edges[k].b`); `p ^ 1` is the far end.
struct Matcher {
    n: usize,
    edges: Vec<Edge>,
    /// For each vertex, the far endpoints of its edges.
    neighbours: Vec<Vec<usize>>,
    /// For each vertex, the far endpoint of its matched edge, or NONE.
    mate: Vec<usize>,
    /// Label of each top-level blossom; for a vertex inside an inner blossom, `Inner` when it
    /// is reached from an outer vertex outside that blossom (needed when it expands).
    label: Vec<Label>,
    /// Far endpoint of the edge through which the blossom (or vertex) got its label.
    label_end: Vec<usize>,
    /// Top-level blossom of each vertex.
    in_blossom: Vec<usize>,
    parent: Vec<usize>,
    /// Sub-blossoms of a non-trivial blossom, from its base round the cycle.
    children: Vec<Vec<usize>>,
    base: Vec<usize>,
    /// `ends[b][i]`: the endpoint in `children[b][i]` of the edge to `children[b][i + 1]`.
    ends: Vec<Vec<usize>>,
    /// Least-slack edge to an outer vertex (for a free vertex) or to another outer blossom.
    best_edge: Vec<usize>,
    /// For a non-trivial outer blossom: least-slack edges to neighbouring outer blossoms.
    blossom_best: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    /// Doubled vertex duals (first n), blossom duals (last n).
    dual: Vec<i128>,
    allowed: Vec<bool>,
    queue: Vec<usize>,
}

impl Matcher {
    fn new(n: usize, edges: Vec<Edge>) -> Matcher {
        let max_weight = edges.iter().map(|e| e.weight).max().unwrap_or(0).max(0);
        let mut neighbours = vec![Vec::new(); n];
        for (k, e) in edges.iter().enumerate() {
            neighbours[e.a].push(2 * k + 1);
            neighbours[e.b].push(2 * k);
        }
        let edge_count = edges.len();
        let mut dual = vec![max_weight; n];
        dual.extend(std::iter::repeat_n(0, n));
        Matcher {
            n,
            edges,
            neighbours,
            mate: vec![NONE; n],
            label: vec![Label::Free; 2 * n],
            label_end: vec![NONE; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            ends: vec![Vec::new(); 2 * n],
            best_edge: vec![NONE; 2 * n],
            blossom_best: vec![None; 2 * n],
            unused: (n..2 * n).rev().collect(),
            dual,
            allowed: vec![false; edge_count],
            queue: Vec::new(),
        }
    }

    fn endpoint(&self, p: usize) -> usize {
        let e = self.edges[p / 2];
        if p.is_multiple_of(2) {
            e.a
        } else {
            e.b
        }
    }

    /// Twice the slack of edge k (valid between different top-level blossoms).
    fn slack(&self, k: usize) -> i128 {
        let e = self.edges[k];
        self.dual[e.a] + self.dual[e.b] - 2 * e.weight
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            if t < self.n {
                out.push(t);
            } else {
                stack.extend(self.children[t].iter().rev());
            }
        }
        out
    }

    /// Gives label `t` to the top-level blossom of `w`, reached through far endpoint `p`.
    fn assign_label(&mut self, w: usize, t: Label, p: usize) {
        let mut w = w;
        let mut t = t;
        let mut p = p;
        loop {
            let b = self.in_blossom[w];
            self.label[w] = t;
            self.label[b] = t;
            self.label_end[w] = p;
            self.label_end[b] = p;
            self.best_edge[w] = NONE;
            self.best_edge[b] = NONE;
            match t {
                Label::Outer => {
                    let leaves = self.leaves(b);
                    self.queue.extend(leaves);
                    return;
                }
                Label::Inner => {
                    // The base's mate becomes outer.
                    let base = self.base[b];
                    let mp = self.mate[base];
                    w = self.endpoint(mp);
                    t = Label::Outer;
                    p = mp ^ 1;
                }
                Label::Free => return,
            }
        }
    }

    /// Traces back from v and w: the base of a new blossom, or NONE for an augmenting path.
    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut found = NONE;
        let (mut v, mut w) = (v, w);
        let mut marked = vec![];
        while v != NONE || w != NONE {
            let b = self.in_blossom[v];
            if marked.contains(&b) {
                found = self.base[b];
                break;
            }
            path.push(b);
            marked.push(b);
            if self.label_end[b] == NONE {
                v = NONE;
            } else {
                let t = self.endpoint(self.label_end[b]);
                let bt = self.in_blossom[t];
                v = self.endpoint(self.label_end[bt]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        found
    }

    /// Makes a new outer blossom with this base through edge k joining two outer vertices.
    fn add_blossom(&mut self, base: usize, k: usize) {
        let Edge {
            a: mut v, b: mut w, ..
        } = self.edges[k];
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let Some(b) = self.unused.pop() else { return };
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut ends = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            ends.push(self.label_end[bv]);
            v = self.endpoint(self.label_end[bv]);
            bv = self.in_blossom[v];
        }
        path.push(bb);
        path.reverse();
        ends.reverse();
        ends.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            ends.push(self.label_end[bw] ^ 1);
            w = self.endpoint(self.label_end[bw]);
            bw = self.in_blossom[w];
        }
        self.label[b] = Label::Outer;
        self.label_end[b] = self.label_end[bb];
        self.dual[b] = 0;
        self.children[b] = path.clone();
        self.ends[b] = ends;
        for leaf in self.leaves(b) {
            if self.label[self.in_blossom[leaf]] == Label::Inner {
                self.queue.push(leaf);
            }
            self.in_blossom[leaf] = b;
        }
        // Least-slack edges from the new blossom to each neighbouring outer blossom.
        let mut best_to = vec![NONE; 2 * self.n];
        for &sub in &path {
            let lists: Vec<Vec<usize>> = match self.blossom_best[sub].take() {
                Some(list) => vec![list],
                None => self
                    .leaves(sub)
                    .into_iter()
                    .map(|leaf| self.neighbours[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for kk in list {
                    let e = self.edges[kk];
                    let j = if self.in_blossom[e.b] == b { e.a } else { e.b };
                    let bj = self.in_blossom[j];
                    if bj != b
                        && self.label[bj] == Label::Outer
                        && (best_to[bj] == NONE || self.slack(kk) < self.slack(best_to[bj]))
                    {
                        best_to[bj] = kk;
                    }
                }
            }
            self.best_edge[sub] = NONE;
        }
        let list: Vec<usize> = best_to.into_iter().filter(|&k| k != NONE).collect();
        self.best_edge[b] = NONE;
        for &kk in &list {
            if self.best_edge[b] == NONE || self.slack(kk) < self.slack(self.best_edge[b]) {
                self.best_edge[b] = kk;
            }
        }
        self.blossom_best[b] = Some(list);
    }

    /// Dissolves top-level blossom b into its sub-blossoms.
    fn expand_blossom(&mut self, b: usize, end_of_stage: bool) {
        let children = self.children[b].clone();
        for &s in &children {
            self.parent[s] = NONE;
            if s < self.n {
                self.in_blossom[s] = s;
            } else if end_of_stage && self.dual[s] == 0 {
                self.expand_blossom(s, end_of_stage);
            } else {
                for leaf in self.leaves(s) {
                    self.in_blossom[leaf] = s;
                }
            }
        }
        if !end_of_stage && self.label[b] == Label::Inner {
            // Relabel the sub-blossoms on the even path from the entry child to the base.
            let entry = self.in_blossom[self.endpoint(self.label_end[b] ^ 1)];
            let len = children.len() as isize;
            let start = children.iter().position(|&c| c == entry).unwrap_or(0);
            let (mut j, step, trick) = direction(start, children.len());
            let at = |i: isize| -> usize { i.rem_euclid(len) as usize };
            let mut p = self.label_end[b];
            while j != 0 {
                let far = self.endpoint(p ^ 1);
                self.label[far] = Label::Free;
                let q = self.ends[b][at(j - trick as isize)] ^ trick ^ 1;
                let qv = self.endpoint(q);
                self.label[qv] = Label::Free;
                self.assign_label(far, Label::Inner, p);
                self.allowed[self.ends[b][at(j - trick as isize)] / 2] = true;
                j += step;
                p = self.ends[b][at(j - trick as isize)] ^ trick;
                self.allowed[p / 2] = true;
                j += step;
            }
            let bv = children[at(j)];
            let far = self.endpoint(p ^ 1);
            self.label[far] = Label::Inner;
            self.label[bv] = Label::Inner;
            self.label_end[far] = p;
            self.label_end[bv] = p;
            self.best_edge[bv] = NONE;
            j += step;
            while children[at(j)] != entry {
                let bv = children[at(j)];
                if self.label[bv] == Label::Outer {
                    j += step;
                    continue;
                }
                if let Some(v) = self
                    .leaves(bv)
                    .into_iter()
                    .find(|&v| self.label[v] != Label::Free)
                {
                    self.label[v] = Label::Free;
                    let mate_far = self.endpoint(self.mate[self.base[bv]]);
                    self.label[mate_far] = Label::Free;
                    self.assign_label(v, Label::Inner, self.label_end[v]);
                }
                j += step;
            }
        }
        self.label[b] = Label::Free;
        self.label_end[b] = NONE;
        self.children[b].clear();
        self.ends[b].clear();
        self.base[b] = NONE;
        self.blossom_best[b] = None;
        self.best_edge[b] = NONE;
        self.unused.push(b);
    }

    /// Swaps matched and unmatched edges on the path in blossom b from vertex v to its base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.children[b].len() as isize;
        let i = self.children[b].iter().position(|&c| c == t).unwrap_or(0);
        let (mut j, step, trick) = direction(i, self.children[b].len());
        let at = |i: isize| -> usize { i.rem_euclid(len) as usize };
        while j != 0 {
            j += step;
            let t = self.children[b][at(j)];
            let p = self.ends[b][at(j - trick as isize)] ^ trick;
            if t >= self.n {
                let ep = self.endpoint(p);
                self.augment_blossom(t, ep);
            }
            j += step;
            let t = self.children[b][at(j)];
            if t >= self.n {
                let ep = self.endpoint(p ^ 1);
                self.augment_blossom(t, ep);
            }
            let (x, y) = (self.endpoint(p), self.endpoint(p ^ 1));
            self.mate[x] = p ^ 1;
            self.mate[y] = p;
        }
        self.children[b].rotate_left(i);
        self.ends[b].rotate_left(i);
        self.base[b] = self.base[self.children[b][0]];
    }

    /// Augments along the path through edge k joining two outer vertices.
    fn augment_matching(&mut self, k: usize) {
        let Edge { a: v, b: w, .. } = self.edges[k];
        for (start, first) in [(v, 2 * k + 1), (w, 2 * k)] {
            let mut s = start;
            let mut p = first;
            loop {
                let bs = self.in_blossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.label_end[bs] == NONE {
                    break;
                }
                let t = self.endpoint(self.label_end[bs]);
                let bt = self.in_blossom[t];
                s = self.endpoint(self.label_end[bt]);
                let j = self.endpoint(self.label_end[bt] ^ 1);
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.label_end[bt];
                p = self.label_end[bt] ^ 1;
            }
        }
    }

    fn top_label(&self, v: usize) -> Label {
        self.label[self.in_blossom[v]]
    }

    fn solve(&mut self) {
        let n = self.n;
        for _stage in 0..n {
            self.label.iter_mut().for_each(|l| *l = Label::Free);
            self.best_edge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossom_best[b] = None;
            }
            self.allowed.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.top_label(v) == Label::Free {
                    self.assign_label(v, Label::Outer, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if augmented {
                        break;
                    }
                    for idx in 0..self.neighbours[v].len() {
                        let p = self.neighbours[v][idx];
                        let k = p / 2;
                        let w = self.endpoint(p);
                        if self.in_blossom[v] == self.in_blossom[w] {
                            continue;
                        }
                        let mut kslack = 0;
                        if !self.allowed[k] {
                            kslack = self.slack(k);
                            if kslack <= 0 {
                                self.allowed[k] = true;
                            }
                        }
                        if self.allowed[k] {
                            match self.top_label(w) {
                                Label::Free => self.assign_label(w, Label::Inner, p ^ 1),
                                Label::Outer => {
                                    let base = self.scan_blossom(v, w);
                                    if base != NONE {
                                        self.add_blossom(base, k);
                                    } else {
                                        self.augment_matching(k);
                                        augmented = true;
                                        break;
                                    }
                                }
                                Label::Inner => {
                                    if self.label[w] == Label::Free {
                                        self.label[w] = Label::Inner;
                                        self.label_end[w] = p ^ 1;
                                    }
                                }
                            }
                        } else if self.top_label(w) == Label::Outer {
                            let b = self.in_blossom[v];
                            if self.best_edge[b] == NONE || kslack < self.slack(self.best_edge[b]) {
                                self.best_edge[b] = k;
                            }
                        } else if self.label[w] == Label::Free
                            && (self.best_edge[w] == NONE || kslack < self.slack(self.best_edge[w]))
                        {
                            self.best_edge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with tight edges: move the duals (max-cardinality mode,
                // so no delta1).
                let mut delta: Option<(i128, u8, usize)> = None;
                let better = |d: i128, cur: &Option<(i128, u8, usize)>| match cur {
                    None => true,
                    Some((c, _, _)) => d < *c,
                };
                for v in 0..n {
                    if self.top_label(v) == Label::Free && self.best_edge[v] != NONE {
                        let d = self.slack(self.best_edge[v]);
                        if better(d, &delta) {
                            delta = Some((d, 2, self.best_edge[v]));
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.parent[b] == NONE
                        && self.label[b] == Label::Outer
                        && self.best_edge[b] != NONE
                        && (b < n || self.base[b] != NONE)
                    {
                        let d = self.slack(self.best_edge[b]) / 2;
                        if better(d, &delta) {
                            delta = Some((d, 3, self.best_edge[b]));
                        }
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE
                        && self.parent[b] == NONE
                        && self.label[b] == Label::Inner
                        && better(self.dual[b], &delta)
                    {
                        delta = Some((self.dual[b], 4, b));
                    }
                }
                let Some((d, kind, which)) = delta else {
                    break;
                };
                for v in 0..n {
                    match self.top_label(v) {
                        Label::Outer => self.dual[v] -= d,
                        Label::Inner => self.dual[v] += d,
                        Label::Free => {}
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE && self.parent[b] == NONE {
                        match self.label[b] {
                            Label::Outer => self.dual[b] += d,
                            Label::Inner => self.dual[b] -= d,
                            Label::Free => {}
                        }
                    }
                }
                match kind {
                    2 => {
                        self.allowed[which] = true;
                        let e = self.edges[which];
                        let i = if self.top_label(e.a) == Label::Free {
                            e.b
                        } else {
                            e.a
                        };
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowed[which] = true;
                        self.queue.push(self.edges[which].a);
                    }
                    _ => self.expand_blossom(which, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == Label::Outer
                    && self.dual[b] == 0
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}
