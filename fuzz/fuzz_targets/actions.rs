//! Every game's actions, applied to states reached by play: the bytes choose a game and a
//! seed, then a sequence of steps — a legal move (xiangqi, draughts: picked from the list the
//! side to move's seat is shown, made from that seat), a raw action (MessagePack from the bytes, as a hostile client would send it, for
//! any seat), or the clock running to the game's next deadline (Tuolaji's auto-play walks a
//! whole hand this way). Whatever happens nothing panics, and a refused action changes
//! nothing any viewer sees (the rule every `Game::apply` promises).
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipai_games::draughts::{DraughtsGame, DraughtsSettings};
use qipai_games::tuolaji::{TuolajiGame, TuolajiSettings};
use qipai_games::xiangqi::{XiangqiGame, XiangqiSettings};
use qipai_games::{Game, Millis, Received, Seat, Viewer};
use qipai_protocol::draughts::{self, DraughtsAction};
use qipai_protocol::xiangqi::{self, XiangqiAction};

/// The bytes, read one step at a time.
struct Script<'a>(&'a [u8]);

impl Script<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }

    fn take(&mut self, n: usize) -> &[u8] {
        let n = n.min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head
    }
}

/// What every viewer sees, to compare before and after a refused action.
fn views<G: Game>(game: &G, now: Millis) -> Vec<String>
where
    G::View: std::fmt::Debug,
{
    let mut out = vec![format!("{:?}", game.view(Viewer::Spectator, now))];
    out.extend((0..G::SEATS).map(|s| format!("{:?}", game.view(Viewer::Seat(Seat(s)), now))));
    out
}

/// Plays `script` on `game`; `legal` gives a legal action for the side to move and its seat,
/// picked by a byte, where the game's view lists them.
fn play<G: Game + Clone>(
    mut game: G,
    script: &mut Script<'_>,
    legal: impl Fn(&G, u8) -> Option<(Seat, G::Action)>,
) where
    G::View: std::fmt::Debug,
    G::Action: serde::de::DeserializeOwned,
{
    let mut now = Millis(0);
    game.start(now);
    while let Some(op) = script.byte() {
        if game.is_over() {
            return;
        }
        let mut seat = Seat(script.byte().unwrap_or(0) % G::SEATS);
        now = Millis(now.0 + u64::from(script.byte().unwrap_or(0)));
        let action = match op % 3 {
            0 => legal(&game, script.byte().unwrap_or(0)).map(|(to_move, action)| {
                seat = to_move;
                action
            }),
            1 => {
                let len = usize::from(script.byte().unwrap_or(0) % 48);
                rmp_serde::from_slice(script.take(len)).ok()
            }
            _ => {
                if let Some(deadline) = game.deadline() {
                    now = Millis(now.0.max(deadline.0));
                    game.on_deadline(now);
                }
                None
            }
        };
        let Some(action) = action else {
            continue;
        };
        // The views are compared only when the action is refused: a copy of the game is
        // cheaper than every viewer's view before each action (most are accepted).
        let before = game.clone();
        if game.apply(seat, action, Received::at(now)).is_err() {
            assert_eq!(
                views(&before, now),
                views(&game, now),
                "a refused action changed the game"
            );
        } else {
            game.sent(now);
        }
    }
}

fuzz_target!(|bytes: &[u8]| {
    let mut script = Script(bytes);
    let game = script.byte().unwrap_or(0);
    let seed = u64::from_le_bytes(script.take(8).try_into().unwrap_or([0; 8]));
    match game % 3 {
        0 => play(
            XiangqiGame::new(&XiangqiSettings::default(), seed),
            &mut script,
            |g, pick| {
                // Only the side to move's seat is shown its legal moves (seat 0 is red).
                let side = g.view(Viewer::Spectator, Millis(0)).side_to_move;
                let seat = Seat(u8::from(side == xiangqi::Side::Black));
                let moves = g.view(Viewer::Seat(seat), Millis(0)).legal_moves;
                let iccs = moves.get(usize::from(pick) % moves.len().max(1))?;
                let iccs = iccs.to_string();
                Some((seat, XiangqiAction::Move { iccs }))
            },
        ),
        1 => play(
            DraughtsGame::new(&DraughtsSettings::default(), seed),
            &mut script,
            |g, pick| {
                // Only the side to move's seat is shown its legal moves (seat 0 is white).
                let side = g.view(Viewer::Spectator, Millis(0)).side_to_move;
                let seat = Seat(u8::from(side == draughts::Side::Black));
                let moves = g.view(Viewer::Seat(seat), Millis(0)).to_move.legal_moves;
                let notation = moves.get(usize::from(pick) % moves.len().max(1))?.clone();
                Some((seat, DraughtsAction::Move { notation }))
            },
        ),
        _ => play(
            TuolajiGame::new(&TuolajiSettings::default(), seed),
            &mut script,
            |_, _| None,
        ),
    }
});
