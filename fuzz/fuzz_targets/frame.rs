//! A client's frame, as the server decodes it (gateway/connection.rs): any bytes either
//! decode into a `ClientMsg` of a known type or give a decode error with its code; nothing
//! panics. A decoded message encodes and decodes back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipai_protocol::{decode, ClientMsg};

fuzz_target!(|bytes: &[u8]| {
    if let Ok(msg) = decode::<ClientMsg>(bytes, ClientMsg::TYPES) {
        let again = rmp_serde::to_vec_named(&msg).expect("a decoded message encodes");
        let back = decode::<ClientMsg>(&again, ClientMsg::TYPES).expect("and decodes again");
        assert_eq!(format!("{msg:?}"), format!("{back:?}"));
    }
});
