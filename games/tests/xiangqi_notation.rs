//! Golden tests of Chinese move notation (第1条1.1, 第7条7.5) and ICCS.
//!
//! Red counts files from its right in Chinese numerals, Black from its right in full-width
//! numerals; 进/退/平; 前/后 for two pieces on a file, 前/中/后 and 一二三四 for pawns.

use qipai_games::xiangqi::notation::chinese;
use qipai_games::xiangqi::{Move, Position};

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
