//! The draughts evaluation: material (a king is worth about three men), advancement (tempo),
//! the centre, the back row that stops promotions, and trading down when ahead.

use qipai_games::draughts::board::squares;
use qipai_games::draughts::{Position, Side};

/// A man's worth.
pub const MAN: i32 = 100;
/// A king's worth.
pub const KING: i32 = 320;

/// A White man's positional worth on each square (index = square number; Black's man on `n`
/// is worth White's on `51 - n`, the board turned round).
const MAN_SQUARE: [i32; 51] = {
    let mut table = [0i32; 51];
    let mut n = 1;
    while n <= 50 {
        let row = ((n - 1) / 5) as i32; // 0 = White's promotion row, 9 = White's back row
        let within = ((n - 1) % 5) as i32;
        let column = within * 2 + if row % 2 == 0 { 1 } else { 0 };
        let advance = 9 - row; // tempo: how far the man has come
        let central = if column >= 3 && column <= 6 { 6 } else { 0 };
        let edge = if column == 0 || column == 9 { -4 } else { 0 };
        let back = if row == 9 { 5 } else { 0 }; // guards the promotion row
        table[n] = advance * 3 + central + edge + back;
        n += 1;
    }
    table
};

fn men_and_kings(position: &Position, side: Side) -> (i32, i32, i32) {
    let board = position.board();
    let own = board.side(side);
    let mut placement = 0;
    for square in squares(own & !board.kings) {
        let n = usize::from(match side {
            Side::White => square.number(),
            Side::Black => 51 - square.number(),
        });
        placement += MAN_SQUARE.get(n).copied().unwrap_or(0);
    }
    let men = (own & !board.kings).count_ones() as i32;
    let kings = (own & board.kings).count_ones() as i32;
    (men, kings, placement)
}

/// The position's worth for the side to move, in hundredths of a man.
pub fn evaluate(position: &Position) -> i32 {
    let me = position.side_to_move();
    let (my_men, my_kings, my_place) = men_and_kings(position, me);
    let (their_men, their_kings, their_place) = men_and_kings(position, me.opponent());
    let mine = my_men * MAN + my_kings * KING;
    let theirs = their_men * MAN + their_kings * KING;
    let mut score = mine - theirs + my_place - their_place;
    // Trade down when ahead: the same lead weighs more with fewer pieces on the board.
    let pieces = my_men + my_kings + their_men + their_kings;
    score += (mine - theirs) * (40 - pieces).max(0) / 40;
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_even_and_symmetric() {
        assert_eq!(evaluate(&Position::start()), 0);
        let black = Position::from_fen("B:W31-50:B1-20").unwrap();
        assert_eq!(evaluate(&black), 0);
    }

    #[test]
    fn a_man_up_is_better() {
        let up = Position::from_fen("W:W31-50:B1-19").unwrap();
        assert!(evaluate(&up) > MAN / 2);
        let king = Position::from_fen("W:WK3:B28").unwrap();
        assert!(evaluate(&king) > MAN);
    }
}
