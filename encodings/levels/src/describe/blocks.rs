//! Bridges, articulation cells, biconnected blocks and components of a class graph, by one
//! depth-first search: [`blocks`].
//!
//! The class graph of a set of cells has the cells as vertices and an edge between every two
//! 4-neighbours that both belong to it. Its **blocks** (biconnected components) are its
//! maximal subgraphs that stay connected when any one vertex is removed; every edge lies in
//! exactly one block, two blocks share at most one vertex, and the vertices shared by several
//! blocks are the **articulation cells** (removing one disconnects its component). A block of
//! one edge is a **bridge**; a block with a cycle is a loop a player can walk around; an
//! isolated cell is a block of its own (the graph-theory convention: a single vertex has no
//! cut vertex). In a level, a long chain of bridges is a corridor, an articulation cell a
//! choke point, a large block a region with alternative routes.
//!
//! Technique: Hopcroft & Tarjan, "Algorithm 447: efficient algorithms for graph
//! manipulation", CACM 16(6), 1973 (doi:10.1145/362248.362272) — discovery times, low points
//! (the earliest discovery time reachable through the subtree and one back edge), and a stack
//! of edges popped into a block whenever a child's low point does not climb above its parent.
//! `O(cells)`: each cell is discovered once and each of its four sides looked at once.
//!
//! Where ours differs: the recursion is an explicit stack of frames (cell, next side to look
//! at), so the deepest search a grid of the largest size has — on an open 256 × 256 grid the
//! N, E, S, W order walks one path through all 65,536 cells — costs a `Vec` of that many
//! frames instead of overflowing the thread's stack (a recursive search needs about 100 bytes
//! of stack per level: 6.5 MB, past a spawned thread's default 2 MiB). Sides are looked at in N, E, S, W order and roots taken row-major, so every
//! list below comes out in the same order on every run.

/// What one search finds in a class graph ([`blocks`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Blocks {
    /// Cells per connected component (4-neighbour), in the order of each component's first
    /// cell row-major.
    pub components: Vec<usize>,
    /// Edges of the class graph: 4-neighbour pairs of class cells.
    pub edges: usize,
    /// The articulation cells (cut vertices), ascending: removing one of them leaves more
    /// components than before.
    pub articulation: Vec<usize>,
    /// The bridges `(a, b)`, `a < b`, in the order the search closes them: removing one leaves
    /// one more component.
    pub bridges: Vec<(usize, usize)>,
    /// The blocks, each as its cells (in the order they left the edge stack), in the order the
    /// search closes them; isolated cells are blocks of one cell, listed after the others.
    pub blocks: Vec<Vec<usize>>,
}

/// One level of the explicit DFS stack: the cell, its parent (`NONE` for a root) and the next
/// side (0..4 = N, E, S, W) to look at.
#[derive(Clone, Copy)]
struct Frame {
    cell: u32,
    parent: u32,
    next_side: u8,
}

const NONE: u32 = u32::MAX;

/// The 4-neighbour of `c` on side `side` (N, E, S, W) in a `width × height` grid.
pub(crate) fn side_neighbour(width: usize, height: usize, c: usize, side: u8) -> Option<usize> {
    let (x, y) = (c % width, c / width);
    match side {
        0 => (y > 0).then(|| c - width),
        1 => (x + 1 < width).then(|| c + 1),
        2 => (y + 1 < height).then(|| c + width),
        3 => (x > 0).then(|| c - 1),
        _ => None,
    }
}

/// Components, bridges, articulation cells and blocks of the class graph of the cells `c`
/// with `member[c]` in a `width × height` grid (row-major), by one iterative Hopcroft–Tarjan
/// search (see the module documentation of `describe/blocks.rs`).
///
/// Total: cells past the end of `member` do not belong; grids past `u32::MAX` cells (far
/// beyond grid.json's 256 × 256) are treated as empty.
pub fn blocks(width: usize, height: usize, member: &[bool]) -> Blocks {
    let n = width.saturating_mul(height);
    let mut out = Blocks::default();
    if n >= NONE as usize {
        return out;
    }
    let is = |c: usize| member.get(c).copied().unwrap_or(false);
    // Discovery time per cell (NONE: not yet discovered) and low point.
    let mut disc = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut articulation = vec![false; n];
    // Which block last counted a cell, so a block's cells are listed once each.
    let mut seen_in = vec![NONE; n];
    let mut edge_stack: Vec<(u32, u32)> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut isolated = Vec::new();
    let mut time = 0u32;
    for root in 0..n {
        if !is(root) || disc[root] != NONE {
            continue;
        }
        disc[root] = time;
        low[root] = time;
        time += 1;
        let mut size = 1usize;
        let mut root_children = 0usize;
        stack.push(Frame {
            cell: root as u32,
            parent: NONE,
            next_side: 0,
        });
        while let Some(top) = stack.last_mut() {
            let u = top.cell as usize;
            if top.next_side < 4 {
                let side = top.next_side;
                top.next_side += 1;
                let parent = top.parent;
                let Some(v) = side_neighbour(width, height, u, side).filter(|&v| is(v)) else {
                    continue;
                };
                if disc[v] == NONE {
                    // A tree edge: descend.
                    edge_stack.push((u as u32, v as u32));
                    out.edges += 1;
                    disc[v] = time;
                    low[v] = time;
                    time += 1;
                    size += 1;
                    if u == root {
                        root_children += 1;
                    }
                    stack.push(Frame {
                        cell: v as u32,
                        parent: u as u32,
                        next_side: 0,
                    });
                } else if v as u32 != parent && disc[v] < disc[u] {
                    // A back edge to an ancestor (in an undirected DFS every non-tree edge
                    // joins an ancestor and a descendant; seen from the descendant's side
                    // first, it is pushed once). The grid graph is simple, so skipping the
                    // parent cell skips exactly the tree edge.
                    edge_stack.push((u as u32, v as u32));
                    out.edges += 1;
                    low[u] = low[u].min(disc[v]);
                }
                continue;
            }
            // Every side of `u` done: return to its parent.
            stack.pop();
            let Some(up) = stack.last() else {
                continue;
            };
            let p = up.cell as usize;
            low[p] = low[p].min(low[u]);
            if low[u] >= disc[p] {
                // No back edge from u's subtree climbs above p: p separates that subtree (an
                // articulation cell unless it is the root) and the edges pushed since (p, u)
                // form one block.
                if p != root {
                    articulation[p] = true;
                }
                if low[u] > disc[p] {
                    out.bridges.push((p.min(u), p.max(u)));
                }
                let id = out.blocks.len() as u32;
                let mut cells = Vec::new();
                while let Some((a, b)) = edge_stack.pop() {
                    for c in [a, b] {
                        if seen_in[c as usize] != id {
                            seen_in[c as usize] = id;
                            cells.push(c as usize);
                        }
                    }
                    if (a, b) == (p as u32, u as u32) {
                        break;
                    }
                }
                out.blocks.push(cells);
            }
        }
        if root_children >= 2 {
            articulation[root] = true;
        }
        if size == 1 {
            isolated.push(root);
        }
        out.components.push(size);
    }
    out.blocks.extend(isolated.into_iter().map(|c| vec![c]));
    out.articulation = (0..n).filter(|&c| articulation[c]).collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> (usize, usize, Vec<bool>) {
        let member = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '.'))
            .collect();
        (rows[0].len(), rows.len(), member)
    }

    #[test]
    fn a_ring_is_one_block_without_bridges_or_articulation_cells() {
        let (w, h, m) = grid(&["...", ".#.", "..."]);
        let b = blocks(w, h, &m);
        assert_eq!(b.components, vec![8]);
        assert_eq!(b.edges, 8);
        assert!(b.bridges.is_empty() && b.articulation.is_empty(), "{b:?}");
        assert_eq!(b.blocks.len(), 1);
        assert_eq!(b.blocks[0].len(), 8);
    }

    #[test]
    fn a_path_is_all_bridges_with_inner_cells_articulating() {
        let (w, h, m) = grid(&["...."]);
        let b = blocks(w, h, &m);
        assert_eq!(b.bridges, vec![(2, 3), (1, 2), (0, 1)]);
        assert_eq!(b.articulation, vec![1, 2]);
        assert_eq!(b.blocks.len(), 3);
    }

    #[test]
    fn an_open_grid_of_the_largest_size_is_one_block_and_one_deep_search() {
        // N, E, S, W order walks an open grid as one path through every cell: 65,536 deep.
        let (w, h) = (256, 256);
        let b = blocks(w, h, &vec![true; w * h]);
        assert_eq!(b.components, vec![w * h]);
        assert_eq!(b.edges, 2 * w * h - w - h);
        assert!(b.bridges.is_empty() && b.articulation.is_empty());
        assert_eq!(b.blocks.len(), 1);
    }

    #[test]
    fn a_serpentine_of_the_largest_grid_is_all_bridges() {
        // Every other row open, joined at alternating ends: one path of 256 × 128 + 127
        // cells.
        let (w, h) = (256, 256);
        let mut m = vec![false; w * h];
        for y in 0..h {
            for x in 0..w {
                m[y * w + x] = y % 2 == 0 || (y % 4 == 1 && x == w - 1) || (y % 4 == 3 && x == 0);
            }
        }
        let b = blocks(w, h, &m);
        let cells = m.iter().filter(|&&x| x).count();
        assert_eq!(b.components, vec![cells]);
        assert_eq!(b.bridges.len(), cells - 1);
        assert_eq!(b.articulation.len(), cells - 2);
    }
}
