//! FEN in the de-facto xiangqi dialect: round trips and one refusal per malformed field.

use qipai_games::xiangqi::{Kind, Position, Side, XiangqiError, START_FEN};

/// Round trips: what is written reads back to the same position and the same text.
#[test]
fn fen_round_trips() {
    for fen in [
        START_FEN,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        "3ak4/4a4/4b4/9/4c4/9/4R4/9/4A4/3K5 b - - 12 40",
    ] {
        let position = Position::from_fen(fen).unwrap();
        assert_eq!(position.to_fen(), fen);
        assert_eq!(Position::from_fen(&position.to_fen()).unwrap(), position);
    }
}

/// Short forms and other writers' spellings are read; output is always the full form.
#[test]
fn lenient_input_strict_output() {
    let short = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(Position::from_fen(short).unwrap().to_fen(), START_FEN);
    let red_r = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1";
    assert_eq!(Position::from_fen(red_r).unwrap().to_fen(), START_FEN);
    let he = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1";
    assert_eq!(Position::from_fen(he).unwrap().to_fen(), START_FEN);
    let black = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 3 7").unwrap();
    assert_eq!(black.side_to_move(), Side::Black);
    assert_eq!((black.halfmoves(), black.fullmoves()), (3, 7));
}

/// Each malformed FEN gets the variant naming its problem.
#[test]
fn malformed_fen_is_rejected_with_its_reason() {
    let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let cases: Vec<(String, XiangqiError)> = vec![
        (String::new(), XiangqiError::FenFields { found: 0 }),
        (board.to_string(), XiangqiError::FenFields { found: 1 }),
        (
            format!("{board} w - - 0 1 extra"),
            XiangqiError::FenFields { found: 7 },
        ),
        ("9/9/9 w".to_string(), XiangqiError::FenRanks { found: 3 }),
        (
            board.replacen("rnbakabnr", "rnbakabnrr", 1) + " w",
            XiangqiError::FenRankWidth { rank: 9, width: 10 },
        ),
        (
            board.replacen("1c5c1", "1c5c", 1) + " w",
            XiangqiError::FenRankWidth { rank: 7, width: 8 },
        ),
        (
            board.replacen("1c5c1", "1c5x1", 1) + " w",
            XiangqiError::FenPiece { found: 'x' },
        ),
        (
            format!("{board} x"),
            XiangqiError::FenSide {
                found: "x".to_string(),
            },
        ),
        (
            format!("{board} w KQ - 0 1"),
            XiangqiError::FenUnusedField {
                field: 3,
                found: "KQ".to_string(),
            },
        ),
        (
            format!("{board} w - - x 1"),
            XiangqiError::FenCounter {
                field: 5,
                found: "x".to_string(),
            },
        ),
        (
            format!("{board} w - - 0 0"),
            XiangqiError::FenCounter {
                field: 6,
                found: "0".to_string(),
            },
        ),
        (
            "9/9/9/9/9/9/9/9/9/4K4 w".to_string(),
            XiangqiError::FenKings {
                side: Side::Black,
                count: 0,
            },
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/3KK4 w".to_string(),
            XiangqiError::FenKings {
                side: Side::Red,
                count: 2,
            },
        ),
        (
            "3k5/9/9/9/9/9/9/1CCC5/9/4K4 w".to_string(),
            XiangqiError::FenTooMany {
                side: Side::Red,
                kind: Kind::Cannon,
                count: 3,
                max: 2,
            },
        ),
        (
            "3k5/9/9/9/9/9/9/9/9/3RK4 w".to_string(),
            XiangqiError::FenOpponentInCheck,
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/4K4 w".to_string(),
            XiangqiError::FenOpponentInCheck,
        ),
    ];
    for (fen, expected) in cases {
        assert_eq!(Position::from_fen(&fen), Err(expected), "{fen:?}");
    }
}

/// Pieces on points they can never reach are refused.
#[test]
fn unreachable_points_are_refused() {
    for (fen, kind) in [
        ("3k5/9/9/9/9/9/9/9/9/K8 w", Kind::King),
        ("3k5/9/9/9/9/9/9/9/3A5/4K4 w", Kind::Advisor),
        ("3k5/9/9/9/9/4B4/9/9/9/4K4 w", Kind::Elephant),
        ("3k5/9/9/9/9/9/1P7/9/9/4K4 w", Kind::Pawn),
        ("3k5/9/9/9/9/9/9/9/P8/4K4 w", Kind::Pawn),
    ] {
        let err = Position::from_fen(fen).unwrap_err();
        assert!(
            matches!(err, XiangqiError::FenUnreachable { kind: k, .. } if k == kind),
            "{fen}: {err:?}"
        );
    }
}
