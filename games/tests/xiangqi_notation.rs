//! Golden tests of Chinese move notation (第1条1.1, 第7条7.5) and ICCS.
//!
//! Red counts files from its right in Chinese numerals, Black from its right in full-width
//! numerals; 进/退/平; 前/后 for two pieces on a file, 前/中/后 and 一二三四 for pawns.

use qipai_games::xiangqi::notation::chinese;
use qipai_games::xiangqi::notation::chinese::piece_char;
use qipai_games::xiangqi::{Move, Position, Side, Square};

/// The Chinese notation of each ICCS move, each played in `fen` (not one after another).
fn each(fen: &str, moves: &[(&str, &str)]) {
    let position = Position::from_fen(fen).unwrap();
    for (iccs, expected) in moves {
        let mv = Move::from_iccs(iccs).unwrap();
        assert!(position.is_legal(mv), "{iccs} is illegal in {fen}");
        assert_eq!(chinese(&position, mv), *expected, "{iccs} in {fen}");
    }
}

/// 第7条7.5: 炮二平五, 马8进7 (written 马８进７ here), and the other opening moves.
#[test]
fn opening_moves() {
    let start = Position::start().to_fen();
    each(
        &start,
        &[
            ("h2e2", "炮二平五"),
            ("b0c2", "马八进七"),
            ("h0g2", "马二进三"),
            ("a0a1", "车九进一"),
            ("e3e4", "兵五进一"),
            ("b2b9", "炮八进七"),
            ("e0e1", "帅五进一"),
        ],
    );
    let after = Position::start()
        .after(Move::from_iccs("h2e2").unwrap())
        .unwrap()
        .to_fen();
    each(
        &after,
        &[
            ("h9g7", "马８进７"),
            ("b7e7", "炮２平５"),
            ("i9i8", "车９进１"),
            ("c6c5", "卒３进１"),
            ("e9e8", "将５进１"),
        ],
    );
}

/// 第1条1.1: advisors and elephants name the file they arrive on: 仕四进五, 相三进五.
#[test]
fn advisors_and_elephants() {
    let start = Position::start().to_fen();
    each(
        &start,
        &[
            ("f0e1", "仕四进五"),
            ("g0e2", "相三进五"),
            ("c0a2", "相七进九"),
        ],
    );
    let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    each(black, &[("d9e8", "士４进５"), ("c9e7", "象３进５")]);
    // Two advisors on one file need no 前/后: the direction tells them apart.
    each(
        "3k5/9/9/9/9/9/9/3A5/9/3A1K3 w",
        &[("d0e1", "仕六进五"), ("d2e1", "仕六退五")],
    );
}

/// Backward moves: 车一退二, a horse going back names its file.
#[test]
fn backward_moves() {
    each(
        "3k5/9/9/9/9/8R/9/6N2/9/5K3 w",
        &[
            ("i4i2", "车一退二"),
            ("g2h0", "马三退二"),
            ("i4a4", "车一平九"),
        ],
    );
}

/// Two rooks (or horses) on one file: 前车/后车, the front one nearer the opponent.
#[test]
fn tandem_pieces_front_and_rear() {
    each(
        "3k5/9/9/9/9/4R4/9/4R4/9/5K3 w",
        &[
            ("e4e5", "前车进一"),
            ("e2d2", "后车平六"),
            ("e4e3", "前车退一"),
        ],
    );
    // Black's front is the lower rank.
    each(
        "3k5/9/4n4/9/4n4/9/9/9/9/5K3 b",
        &[("e5d3", "前马进４"), ("e7f9", "后马退６")],
    );
}

/// Three pawns on one file: 前兵, 中兵, 后兵.
#[test]
fn three_pawns_on_a_file() {
    each(
        "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w",
        &[
            ("e7e8", "前兵进一"),
            ("e6d6", "中兵平六"),
            ("e5f5", "后兵平四"),
        ],
    );
}

/// Four pawns on one file are counted from the front: 一兵, 二兵, 三兵, 四兵.
#[test]
fn four_pawns_on_a_file() {
    each(
        "3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w",
        &[
            ("e8e9", "一兵进一"),
            ("e7d7", "二兵平六"),
            ("e6f6", "三兵平四"),
            ("e5d5", "四兵平六"),
        ],
    );
}

/// Pawns doubled on two files: the file number takes the piece's place (前五, 后七).
#[test]
fn pawns_doubled_on_two_files() {
    each(
        "3k5/9/9/2P1P4/2P1P4/9/9/9/9/5K3 w",
        &[("e6e7", "前五进一"), ("c5b5", "后七平八")],
    );
    each(
        "3k5/9/9/9/9/2p1p4/2p1p4/9/9/5K3 b",
        &[("e3e2", "前５进１"), ("c4b4", "后３平２")],
    );
}

/// ICCS is what `Move` prints and parses.
#[test]
fn iccs_is_the_wire_form() {
    let mv = Move::from_iccs("h2e2").unwrap();
    assert_eq!(mv.to_string(), "h2e2");
    assert_eq!("b9c7".parse::<Move>().unwrap().to_string(), "b9c7");
}

/// WXF digit for a Chinese or full-width numeral.
fn wxf_digit(c: char) -> Option<char> {
    let red = "一二三四五六七八九";
    let black = "１２３４５６７８９";
    red.chars()
        .position(|n| n == c)
        .or_else(|| black.chars().position(|n| n == c))
        .and_then(|i| char::from_digit(i as u32 + 1, 10))
}

/// WXF letter for a piece character.
fn wxf_letter(c: char) -> Option<char> {
    Some(match c {
        '车' => 'R',
        '马' => 'H',
        '相' | '象' => 'E',
        '仕' | '士' => 'A',
        '帅' | '将' => 'K',
        '炮' => 'C',
        '兵' | '卒' => 'P',
        _ => return None,
    })
}

/// Our Chinese notation of `mv`, spelled in WXF as Fairy-Stockfish writes it: the piece
/// letter and file (`C2`), or letter and `+`/`-` for a front/rear piece (`R+`), or for
/// tandem pawns their place from the front and their file (`15`, `23`).
fn as_wxf(position: &Position, mv: Move) -> String {
    let text: Vec<char> = chinese(position, mv).chars().collect();
    let [first, second, action, number] = text[..] else {
        panic!("not four characters: {text:?}");
    };
    let mut out = String::new();
    if let Some(letter) = wxf_letter(first) {
        out.push(letter);
        out.push(wxf_digit(second).unwrap());
    } else if wxf_letter(second).is_some_and(|l| l != 'P') {
        out.push(wxf_letter(second).unwrap());
        out.push(if first == '前' { '+' } else { '-' });
    } else {
        let piece = position.piece_at(mv.from).unwrap();
        let on_file = (0..10)
            .filter(|&rank| {
                let sq = Square::new(mv.from.file(), rank).unwrap();
                position.piece_at(sq) == Some(piece)
            })
            .count();
        let place = match first {
            '前' => 1,
            '中' => 2,
            '后' => on_file,
            n => wxf_digit(n).unwrap().to_digit(10).unwrap() as usize,
        };
        out.push(char::from_digit(place as u32, 10).unwrap());
        let file = match piece.side {
            Side::Red => 9 - mv.from.file(),
            Side::Black => mv.from.file() + 1,
        };
        out.push(char::from_digit(u32::from(file), 10).unwrap());
    }
    out.push(match action {
        '进' => '+',
        '退' => '-',
        _ => '=',
    });
    out.push(wxf_digit(number).unwrap());
    out
}

/// Every legal move of 51 positions (random play from the start, plus tandem pieces and
/// pawns), compared with Fairy-Stockfish's WXF (`data/xiangqi_wxf.txt`, made by
/// `data/xiangqi_wxf.py`).
#[test]
fn matches_fairy_stockfish_wxf() {
    let text = include_str!("data/xiangqi_wxf.txt");
    let mut position = Position::start();
    let mut compared = 0;
    let mut tandem_differences = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        if let Some(fen) = line.strip_prefix("fen ") {
            position = Position::from_fen(fen).unwrap();
            continue;
        }
        let (iccs, wxf) = line.split_once(' ').unwrap();
        let mv = Move::from_iccs(iccs).unwrap();
        assert!(position.is_legal(mv), "{iccs} in {position}");
        let ours = as_wxf(&position, mv);
        if ours != wxf {
            // Fairy-Stockfish marks front/rear only when the plain form would be ambiguous
            // (SAN-style); the Chinese convention marks every tandem. Then its form must be
            // the plain one: piece letter and file.
            let plain = plain_wxf(&position, mv);
            assert!(
                ours[..2] != plain[..2] && wxf == plain,
                "{iccs} in {position}: ours {ours}, Fairy-Stockfish {wxf}"
            );
            tandem_differences += 1;
        }
        compared += 1;
    }
    assert!(compared > 1_000);
    assert!(tandem_differences < compared / 10);
}

/// WXF without tandem marks: piece letter, its file, action, number.
fn plain_wxf(position: &Position, mv: Move) -> String {
    let ours = as_wxf(position, mv);
    let piece = position.piece_at(mv.from).unwrap();
    let letter = wxf_letter(piece_char(piece)).unwrap();
    let file = match piece.side {
        Side::Red => 9 - mv.from.file(),
        Side::Black => mv.from.file() + 1,
    };
    format!("{letter}{file}{}", &ours[2..])
}

/// Three pawns on one file and two on another: 前/中/后 with the file number.
#[test]
fn three_and_two_pawns_on_two_files() {
    each(
        "3k5/9/4P4/2P1P4/2P1P4/9/9/9/9/5K3 w",
        &[
            ("e7e8", "前五进一"),
            ("e6d6", "中五平六"),
            ("e5f5", "后五平四"),
            ("c6c7", "前七进一"),
            ("c5b5", "后七平八"),
        ],
    );
}

/// Black's four pawns on one file, counted from Black's front (the lowest rank).
#[test]
fn four_black_pawns_on_a_file() {
    each(
        "3k5/9/9/9/9/4p4/4p4/4p4/4p4/5K3 b",
        &[
            ("e1d1", "一卒平４"),
            ("e2f2", "二卒平６"),
            ("e4d4", "四卒平４"),
        ],
    );
}
