//! The registration form (附件1), as a director uploads it: any text either imports or is
//! refused with an error; nothing panics, and a refused form adds no entry.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipai_games::competition::import::import_form;
use qipai_games::competition::{Competition, Event, Settings};

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let mut tuolaji = Competition::new(Settings::new(Event::TuolajiPairs, 1));
    let mut xiangqi = Competition::new(Settings::new(Event::XiangqiSingles, 1));
    if import_form(text, &mut tuolaji, &mut xiangqi).is_err() {
        assert!(tuolaji.entries.is_empty() && xiangqi.entries.is_empty());
    }
});
