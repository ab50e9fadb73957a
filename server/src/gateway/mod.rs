//! The edge: accepting TCP, HTTP on one router (`/healthz`, `/metrics`, the page, the games'
//! catalogue, the records', ratings' and competitions' APIs, refusals in one shape) and the
//! WebSocket connection with the player behind it. It is the top layer: it serves connections
//! with the [`crate::app::App`] and nothing below imports it.

pub mod account_api;
pub mod catalogue;
pub mod client;
pub mod competition_api;
pub mod competition_watch;
pub mod connection;
pub mod entry_form;
pub mod entry_links_api;
pub mod http;
pub mod listener;
pub mod player;
pub mod ratings_api;
pub mod records_api;
pub mod refusal;
pub mod socket;
pub mod static_files;
pub mod timed_body;
