//! Chinese move notation (中文纵线记谱, 第1条1.1, 第7条7.5): 炮二平五, 马８进７.
//!
//! Four characters: the piece and the file it stands on, then 进 (forward), 退 (back) or 平
//! (sideways), then a number. Files are counted from each side's own right: Red's with
//! Chinese numerals 一–九 (file `i` is 一), Black's with numerals 1–9 (file `a` is 1),
//! written full-width (１–９) as printed records and xqbase do, so every move is four
//! characters wide (the source's 7.5 prints them half-width: 马8进7). A rook, cannon, king or
//! pawn going forward or back counts the ranks it moves; going sideways, and every move of a
//! horse, advisor or elephant, names the file it arrives on.
//!
//! Two pieces of one kind on one file are told apart by 前 (the one nearer the opponent)
//! and 后, which take the file number's place: 前炮平五. Advisors and elephants never need
//! it (the direction tells them apart: 仕四进五). Pawns: three on a file are 前/中/后, four
//! or five are 一/二/三/四/五 counted from the front (Chinese numerals for both sides, as
//! they are ranks in a queue, not files); when two files each hold two or more pawns, the
//! file number replaces the piece name (前七平六, 后７平６).

use super::super::board::{Kind, Piece, Side, Square, FILES};
use super::super::moves::Move;
use super::super::position::Position;

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_NUMERALS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The character of a piece: Red 帅仕相马车炮兵, Black 将士象马车炮卒 (第1条1.2).
pub fn piece_char(piece: Piece) -> char {
    match (piece.side, piece.kind) {
        (Side::Red, Kind::King) => '帅',
        (Side::Black, Kind::King) => '将',
        (Side::Red, Kind::Advisor) => '仕',
        (Side::Black, Kind::Advisor) => '士',
        (Side::Red, Kind::Elephant) => '相',
        (Side::Black, Kind::Elephant) => '象',
        (_, Kind::Horse) => '马',
        (_, Kind::Rook) => '车',
        (_, Kind::Cannon) => '炮',
        (Side::Red, Kind::Pawn) => '兵',
        (Side::Black, Kind::Pawn) => '卒',
    }
}

/// The number 1–9 in `side`'s numerals (Red 一–九, Black １–９).
fn numeral(side: Side, n: u8) -> char {
    let table = match side {
        Side::Red => &RED_NUMERALS,
        Side::Black => &BLACK_NUMERALS,
    };
    table
        .get(usize::from(n.saturating_sub(1)))
        .copied()
        .unwrap_or('?')
}

/// A file's number from `side`'s right (第1条1.1).
fn file_number(side: Side, file: u8) -> u8 {
    match side {
        Side::Red => FILES - file,
        Side::Black => file + 1,
    }
}

/// How far forward a rank is for `side` (0 = its own back rank).
fn forwardness(side: Side, rank: u8) -> u8 {
    match side {
        Side::Red => rank,
        Side::Black => 9 - rank,
    }
}

/// `mv` in Chinese notation, as played in `before`. A move with no piece on its starting
/// point has no Chinese form; its ICCS text is returned instead.
pub fn chinese(before: &Position, mv: Move) -> String {
    let Some(piece) = before.piece_at(mv.from) else {
        return mv.to_string();
    };
    let side = piece.side;
    let mut out = String::with_capacity(12);
    let (first, second) = designation(before, piece, mv.from);
    out.push(first);
    out.push(second);
    let ahead = forwardness(side, mv.to.rank());
    let now = forwardness(side, mv.from.rank());
    let action = match ahead.cmp(&now) {
        std::cmp::Ordering::Greater => '进',
        std::cmp::Ordering::Less => '退',
        std::cmp::Ordering::Equal => '平',
    };
    out.push(action);
    let straight = matches!(
        piece.kind,
        Kind::King | Kind::Rook | Kind::Cannon | Kind::Pawn
    );
    let number = if straight && action != '平' {
        ahead.abs_diff(now)
    } else {
        file_number(side, mv.to.file())
    };
    out.push(numeral(side, number));
    out
}

/// The first two characters: the piece and its file, or a tandem label.
fn designation(before: &Position, piece: Piece, from: Square) -> (char, char) {
    let side = piece.side;
    let name = piece_char(piece);
    let own_file = numeral(side, file_number(side, from.file()));
    if matches!(piece.kind, Kind::King | Kind::Advisor | Kind::Elephant) {
        return (name, own_file);
    }
    let mut on_file = same_file(before, piece, from.file());
    if on_file.len() < 2 {
        return (name, own_file);
    }
    // Front first: the piece nearest the opponent's back rank.
    on_file.sort_by_key(|sq| std::cmp::Reverse(forwardness(side, sq.rank())));
    let place = on_file.iter().position(|&sq| sq == from).unwrap_or(0);
    let label = match (on_file.len(), place) {
        (2, 0) | (3, 0) => '前',
        (3, 1) => '中',
        (2, _) | (3, _) => '后',
        (_, n) => RED_NUMERALS.get(n).copied().unwrap_or('?'),
    };
    let tandem_files = (0..FILES)
        .filter(|&file| same_file(before, piece, file).len() >= 2)
        .count();
    if piece.kind == Kind::Pawn && tandem_files >= 2 {
        (label, own_file)
    } else {
        (label, name)
    }
}

/// The points on `file` holding `piece`'s side and kind.
fn same_file(before: &Position, piece: Piece, file: u8) -> Vec<Square> {
    (0..10)
        .filter_map(|rank| Square::new(file, rank))
        .filter(|&sq| before.piece_at(sq) == Some(piece))
        .collect()
}
