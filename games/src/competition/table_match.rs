//! What a table's games decide (2.6, 2.9; tournaments.md "Xiangqi rounds", "Knockout"): one
//! game, or a best-of-three match, and in a knockout a result that is never a draw.

use super::standings::lot_rng;
use super::{best_of_three, Format, GameResult, MatchState, Settings};
use rand::Rng;

/// What a table does after the games played at it so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableNext {
    /// Another game, with colours changed (the first-named entry plays Black in the even
    /// games) **\[D\]**.
    Play,
    /// The table's result, from the first-named entry's side.
    Decided(GameResult),
}

/// Decides a table from its games (each from the first-named entry's side); `lot_first`
/// is the lot drawn for the table ([`table_lot`]), used only when the games cannot decide:
/// - a forfeit (absence) decides the table at once;
/// - best of three (2.6): decided as soon as the remaining games cannot change the winner;
///   three games with equal points are a draw in a Swiss (which scores draws) and, in a
///   knockout, get an extra game;
/// - one game: its result; in a knockout (2.9 needs a winner) a drawn game gets an extra
///   game, and a drawn extra game goes to lots (2.6: 加赛一局或以抽签方式) **\[D\]**.
pub fn table_next(settings: &Settings, games: &[GameResult], lot_first: bool) -> TableNext {
    use GameResult as R;
    if let Some(f) = games
        .iter()
        .find(|g| matches!(g, R::FirstForfeits | R::SecondForfeits | R::BothForfeit))
    {
        return TableNext::Decided(*f);
    }
    let knockout = settings.format == Format::Knockout;
    let (regular, extra) = if settings.best_of_three {
        match best_of_three(games) {
            MatchState::Undecided => return TableNext::Play,
            MatchState::Decided(r) => return TableNext::Decided(r),
            MatchState::Tied if !knockout => return TableNext::Decided(R::Draw),
            MatchState::Tied => (3, games.get(3)),
        }
    } else {
        match games.first() {
            None => return TableNext::Play,
            Some(R::Draw) if knockout => (1, games.get(1)),
            Some(r) => return TableNext::Decided(*r),
        }
    };
    debug_assert!(games.len() >= regular);
    match extra {
        None => TableNext::Play,
        Some(R::Draw) if lot_first => TableNext::Decided(R::FirstWins),
        Some(R::Draw) => TableNext::Decided(R::SecondWins),
        Some(r) => TableNext::Decided(*r),
    }
}

/// The lot of table `table` of a round seeded `round_seed`: whether the first-named entry
/// wins it (drawn from the recorded seed, so it replays).
pub fn table_lot(round_seed: u64, table: u32) -> bool {
    lot_rng(round_seed, 0x200 + u64::from(table)).random()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::competition::Event;
    use GameResult::{Draw, FirstForfeits, FirstWins, SecondWins};

    fn settings(format: Format, best_of_three: bool) -> Settings {
        let mut s = Settings::new(Event::XiangqiSingles, 1);
        s.format = format;
        s.best_of_three = best_of_three;
        s
    }

    /// 2.6: two wins decide a best of three; a tied match is a Swiss draw, a knockout's
    /// extra game, then lots.
    #[test]
    fn best_of_three_then_extra_game_then_lots() {
        let swiss = settings(Format::Swiss, true);
        let ko = settings(Format::Knockout, true);
        assert_eq!(table_next(&swiss, &[FirstWins], true), TableNext::Play);
        assert_eq!(
            table_next(&swiss, &[FirstWins, FirstWins], true),
            TableNext::Decided(FirstWins)
        );
        assert_eq!(
            table_next(&swiss, &[FirstWins, SecondWins, Draw], true),
            TableNext::Decided(Draw)
        );
        assert_eq!(
            table_next(&ko, &[FirstWins, SecondWins, Draw], true),
            TableNext::Play
        );
        assert_eq!(
            table_next(&ko, &[FirstWins, SecondWins, Draw, SecondWins], true),
            TableNext::Decided(SecondWins)
        );
        assert_eq!(
            table_next(&ko, &[FirstWins, SecondWins, Draw, Draw], false),
            TableNext::Decided(SecondWins)
        );
    }

    /// 2.9: a drawn knockout game gets an extra game, then lots; a Swiss draw stands; a
    /// forfeit decides at once.
    #[test]
    fn a_knockout_draw_gets_an_extra_game_then_lots() {
        let ko = settings(Format::Knockout, false);
        let swiss = settings(Format::Swiss, false);
        assert_eq!(table_next(&swiss, &[Draw], true), TableNext::Decided(Draw));
        assert_eq!(table_next(&ko, &[Draw], true), TableNext::Play);
        assert_eq!(
            table_next(&ko, &[Draw, FirstWins], false),
            TableNext::Decided(FirstWins)
        );
        assert_eq!(
            table_next(&ko, &[Draw, Draw], true),
            TableNext::Decided(FirstWins)
        );
        assert_eq!(
            table_next(&ko, &[FirstForfeits], true),
            TableNext::Decided(FirstForfeits)
        );
        assert_eq!(table_lot(9, 1), table_lot(9, 1));
    }
}
