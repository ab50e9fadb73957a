//! Precomputed per-point move tables (第2条2.2), built at compile time.
//!
//! Move generation and the check test only look things up here: where a horse can go from a
//! point and which leg (马腿) it needs free, where an elephant goes and its eye (象眼), the
//! palace steps of kings and advisors, the pawn steps per side, and the rook/cannon rays.

use super::board::{FILES, POINTS, RANKS};

/// Up, down, right, left (rank +1, rank −1, file +1, file −1).
const DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// All the tables; one static instance, [`TABLES`].
pub(crate) struct Tables {
    /// Points along each of the four rays from a point, nearest first.
    pub ray: [[[u8; 9]; 4]; POINTS],
    pub ray_len: [[u8; 4]; POINTS],
    /// Horse moves: (destination, leg).
    pub horse: [[(u8, u8); 8]; POINTS],
    pub horse_len: [u8; POINTS],
    /// Horses that would attack a point: (horse's point, its leg).
    pub horse_attack: [[(u8, u8); 8]; POINTS],
    pub horse_attack_len: [u8; POINTS],
    /// Elephant moves on the same side of the river: (destination, eye).
    pub elephant: [[(u8, u8); 4]; POINTS],
    pub elephant_len: [u8; POINTS],
    /// Advisor moves inside the palace the point is in.
    pub advisor: [[u8; 4]; POINTS],
    pub advisor_len: [u8; POINTS],
    /// King moves inside the palace the point is in.
    pub king: [[u8; 4]; POINTS],
    pub king_len: [u8; POINTS],
    /// Pawn moves per side (Red index 0): forward, and sideways once over the river.
    pub pawn: [[[u8; 3]; POINTS]; 2],
    pub pawn_len: [[u8; POINTS]; 2],
    /// Points from which a pawn of the side would attack the point.
    pub pawn_attack: [[[u8; 3]; POINTS]; 2],
    pub pawn_attack_len: [[u8; POINTS]; 2],
}

/// The tables, computed by the compiler.
pub(crate) static TABLES: Tables = build();

/// The point `(file + df, rank + dr)` if on the board.
const fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let file = (sq % FILES as usize) as i8 + df;
    let rank = (sq / FILES as usize) as i8 + dr;
    if file < 0 || file >= FILES as i8 || rank < 0 || rank >= RANKS as i8 {
        None
    } else {
        Some(rank as usize * FILES as usize + file as usize)
    }
}

/// Which palace a point is in: 0 Red, 1 Black, 2 none.
const fn palace(sq: usize) -> u8 {
    let file = sq % FILES as usize;
    let rank = sq / FILES as usize;
    if file < 3 || file > 5 {
        2
    } else if rank <= 2 {
        0
    } else if rank >= 7 {
        1
    } else {
        2
    }
}

/// Whether a point is on Red's half (ranks 0–4).
const fn red_half(sq: usize) -> bool {
    sq / (FILES as usize) <= 4
}

/// Horse steps: (file, rank) offsets of the destination and of its leg.
const HORSE_STEPS: [(i8, i8, i8, i8); 8] = [
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

const DIAGONALS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn build() -> Tables {
    let mut t = Tables {
        ray: [[[0; 9]; 4]; POINTS],
        ray_len: [[0; 4]; POINTS],
        horse: [[(0, 0); 8]; POINTS],
        horse_len: [0; POINTS],
        horse_attack: [[(0, 0); 8]; POINTS],
        horse_attack_len: [0; POINTS],
        elephant: [[(0, 0); 4]; POINTS],
        elephant_len: [0; POINTS],
        advisor: [[0; 4]; POINTS],
        advisor_len: [0; POINTS],
        king: [[0; 4]; POINTS],
        king_len: [0; POINTS],
        pawn: [[[0; 3]; POINTS]; 2],
        pawn_len: [[0; POINTS]; 2],
        pawn_attack: [[[0; 3]; POINTS]; 2],
        pawn_attack_len: [[0; POINTS]; 2],
    };
    let mut sq = 0;
    while sq < POINTS {
        // Rays, and king steps (one point along a ray, same palace).
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            let mut cur = sq;
            let mut n = 0;
            while let Some(next) = offset(cur, df, dr) {
                t.ray[sq][d][n] = next as u8;
                n += 1;
                cur = next;
            }
            t.ray_len[sq][d] = n as u8;
            if let Some(to) = offset(sq, df, dr) {
                if palace(sq) != 2 && palace(to) == palace(sq) {
                    t.king[sq][t.king_len[sq] as usize] = to as u8;
                    t.king_len[sq] += 1;
                }
            }
            d += 1;
        }
        // Horse moves and, seen from the destination, horse attacks.
        let mut h = 0;
        while h < 8 {
            let (df, dr, lf, lr) = HORSE_STEPS[h];
            if let (Some(to), Some(leg)) = (offset(sq, df, dr), offset(sq, lf, lr)) {
                t.horse[sq][t.horse_len[sq] as usize] = (to as u8, leg as u8);
                t.horse_len[sq] += 1;
                t.horse_attack[to][t.horse_attack_len[to] as usize] = (sq as u8, leg as u8);
                t.horse_attack_len[to] += 1;
            }
            h += 1;
        }
        // Diagonal pieces: elephants (two points, same half), advisors (one, same palace).
        let mut g = 0;
        while g < 4 {
            let (df, dr) = DIAGONALS[g];
            if let (Some(to), Some(eye)) = (offset(sq, 2 * df, 2 * dr), offset(sq, df, dr)) {
                if red_half(to) == red_half(sq) {
                    t.elephant[sq][t.elephant_len[sq] as usize] = (to as u8, eye as u8);
                    t.elephant_len[sq] += 1;
                }
            }
            if let Some(to) = offset(sq, df, dr) {
                if palace(sq) != 2 && palace(to) == palace(sq) {
                    t.advisor[sq][t.advisor_len[sq] as usize] = to as u8;
                    t.advisor_len[sq] += 1;
                }
            }
            g += 1;
        }
        // Pawns: Red moves up (rank +1), Black down; sideways once on the far half.
        let mut side = 0;
        while side < 2 {
            let forward: i8 = if side == 0 { 1 } else { -1 };
            let crossed = if side == 0 {
                !red_half(sq)
            } else {
                red_half(sq)
            };
            let steps: [(i8, i8); 3] = [(0, forward), (1, 0), (-1, 0)];
            let count = if crossed { 3 } else { 1 };
            let mut s = 0;
            while s < count {
                if let Some(to) = offset(sq, steps[s].0, steps[s].1) {
                    t.pawn[side][sq][t.pawn_len[side][sq] as usize] = to as u8;
                    t.pawn_len[side][sq] += 1;
                    t.pawn_attack[side][to][t.pawn_attack_len[side][to] as usize] = sq as u8;
                    t.pawn_attack_len[side][to] += 1;
                }
                s += 1;
            }
            side += 1;
        }
        sq += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 第2条2.2: the horse in the corner has two moves, in the middle eight.
    #[test]
    fn horse_moves_like_the_character_ri() {
        assert_eq!(TABLES.horse_len[0], 2);
        assert_eq!(TABLES.horse_len[4 * 9 + 4], 8);
    }

    /// 第2条2.2: the king has four steps from the palace centre, two from a corner; the
    /// advisor four from the centre, one from a corner.
    #[test]
    fn palace_steps() {
        let e1 = 9 + 4;
        let d0 = 3;
        assert_eq!((TABLES.king_len[e1], TABLES.king_len[d0]), (4, 2));
        assert_eq!((TABLES.advisor_len[e1], TABLES.advisor_len[d0]), (4, 1));
    }

    /// 第2条2.2: an elephant on the river bank cannot step over it.
    #[test]
    fn elephant_stays_on_its_half() {
        let c4 = 4 * 9 + 2;
        assert_eq!(TABLES.elephant_len[c4], 2);
    }

    /// 第2条2.2: a pawn before the river only goes forward, after it also sideways.
    #[test]
    fn pawn_steps() {
        let e3 = 3 * 9 + 4;
        let e5 = 5 * 9 + 4;
        assert_eq!(TABLES.pawn_len[0][e3], 1);
        assert_eq!(TABLES.pawn_len[0][e5], 3);
        assert_eq!(TABLES.pawn_len[1][e5], 1);
    }
}
