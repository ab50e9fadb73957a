//! The registry of games on the server. Each game's [`OnWire`] impl — its configuration
//! section, its bot, how long its seats wait — lives in its own file here, and [`dispatch`]
//! is the one place that lists them: adding a game is a file here and one line there.

mod draughts;
mod tuolaji;
mod xiangqi;

use qipai_games::draughts::DraughtsGame;
use qipai_games::tuolaji::TuolajiGame;
use qipai_games::xiangqi::XiangqiGame;
use qipai_protocol::GameKind;

use super::wire::OnWire;

/// Something done with a game's type, chosen at run time by [`dispatch`].
pub trait Visit {
    type Out;
    /// Does it with the game `G`.
    fn visit<G: OnWire>(self) -> Self::Out;
}

/// Does `visit` with the game `kind` names.
pub fn dispatch<V: Visit>(kind: GameKind, visit: V) -> V::Out {
    match kind {
        GameKind::Xiangqi => visit.visit::<XiangqiGame>(),
        GameKind::Tuolaji => visit.visit::<TuolajiGame>(),
        GameKind::Draughts => visit.visit::<DraughtsGame>(),
    }
}
