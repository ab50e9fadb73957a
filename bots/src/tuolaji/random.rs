//! A Tuolaji player that picks uniformly among legal actions from a seeded generator: the
//! strength benchmark's foil. It never bids or throws.

use qipai_games::cards::Suit;
use qipai_games::tuolaji::candidate_follows;
use qipai_games::tuolaji::suggest::candidate_leads;
use qipai_protocol::tuolaji::{Phase, TuolajiAction, TuolajiEvent};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::read;
use super::table::SeatView;
use crate::strategy::Strategy;

/// How many legal follows to choose among.
const FOLLOWS: usize = 32;

/// Random legal play.
pub struct RandomTuolaji {
    rng: ChaCha8Rng,
}

impl RandomTuolaji {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomTuolaji {
        RandomTuolaji {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            return None;
        }
        items.get(self.rng.random_range(0..items.len())).cloned()
    }
}

impl Strategy for RandomTuolaji {
    type View = SeatView;
    type Event = TuolajiEvent;
    type Action = TuolajiAction;

    fn decide(&mut self, seat: u8, view: &SeatView) -> Option<TuolajiAction> {
        let v = &view.view;
        if read::to_act(&v.phase) != Some(seat) {
            return None;
        }
        let hand = read::holding(v)?;
        match v.phase {
            Phase::NamingTrump { .. } => {
                let suit = self.pick(&Suit::ALL)?;
                Some(TuolajiAction::NameTrump { suit })
            }
            Phase::Bottom { .. } => {
                let mut cards = hand.to_vec();
                cards.shuffle(&mut self.rng);
                cards.truncate(6);
                Some(TuolajiAction::PutBack { cards })
            }
            Phase::Leading { .. } => {
                let leads = candidate_leads(&read::order(v)?, &hand, 400);
                let cards = self.pick(&leads)?;
                Some(TuolajiAction::Lead {
                    cards,
                    declared: None,
                })
            }
            Phase::Following { .. } => {
                let order = read::order(v)?;
                let lead = read::lead_units(&order, v)?;
                let follows = candidate_follows(&order, &lead, &hand, FOLLOWS);
                let cards = self.pick(&follows)?;
                Some(TuolajiAction::Follow { cards })
            }
            _ => None,
        }
    }
}
