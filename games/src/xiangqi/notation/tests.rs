use super::super::{Move, Position};
use super::*;

/// The opening 炮二平五 马８进７ from the start position.
#[test]
fn central_cannon_and_horse() {
    let start = Position::start();
    let m1 = Move::from_iccs("h2e2").unwrap();
    assert_eq!(chinese(&start, m1), "炮二平五");
    let after = start.after(m1).unwrap();
    assert_eq!(
        chinese(&after, Move::from_iccs("h9g7").unwrap()),
        "马８进７"
    );
}

/// A move from an empty point has no Chinese form and falls back to ICCS.
#[test]
fn empty_point_falls_back_to_iccs() {
    let start = Position::start();
    let m = Move::from_iccs("e4e5").unwrap();
    assert_eq!(chinese(&start, m), "e4e5");
}
