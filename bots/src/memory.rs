//! An in-memory WebSocket: two ends that pass [`Message`]s through bounded channels. The
//! server seats its own bots over one of these, so a bot is a connection like any other
//! (DESIGN: "a bot is a seat whose connection is an in-memory channel and a strategy task").

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_channel::mpsc;
use futures_util::{Sink, Stream};
use tokio_tungstenite::tungstenite::{Error, Message};

/// One end of an in-memory connection.
pub struct MemorySocket {
    tx: mpsc::Sender<Message>,
    rx: mpsc::Receiver<Message>,
}

/// Two connected ends; each holds at most `capacity` unread messages before its writer waits.
pub fn duplex(capacity: usize) -> (MemorySocket, MemorySocket) {
    let (a_tx, b_rx) = mpsc::channel(capacity);
    let (b_tx, a_rx) = mpsc::channel(capacity);
    (
        MemorySocket { tx: a_tx, rx: a_rx },
        MemorySocket { tx: b_tx, rx: b_rx },
    )
}

impl Stream for MemorySocket {
    type Item = Result<Message, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Pin::new(&mut self.rx).poll_next(cx).map(|m| m.map(Ok))
    }
}

/// The other end gone reads as a closed connection.
fn closed(_: mpsc::SendError) -> Error {
    Error::ConnectionClosed
}

impl Sink<Message> for MemorySocket {
    type Error = Error;

    fn poll_ready(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        self.tx.poll_ready(cx).map_err(closed)
    }

    fn start_send(mut self: Pin<&mut Self>, item: Message) -> Result<(), Error> {
        self.tx.start_send(item).map_err(closed)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        Pin::new(&mut self.tx).poll_flush(cx).map_err(closed)
    }

    fn poll_close(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        Pin::new(&mut self.tx).poll_close(cx).map_err(closed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::{SinkExt, StreamExt};

    #[tokio::test]
    async fn messages_cross_and_a_dropped_end_closes() {
        let (mut a, mut b) = duplex(4);
        a.send(Message::Binary(vec![1, 2].into())).await.unwrap();
        assert_eq!(
            b.next().await.unwrap().unwrap(),
            Message::Binary(vec![1, 2].into())
        );
        drop(a);
        assert!(b.next().await.is_none());
        assert!(b.send(Message::Ping(vec![].into())).await.is_err());
    }
}
