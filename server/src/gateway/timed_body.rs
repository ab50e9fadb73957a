//! A request body that must arrive whole by a deadline (`[limits] http_body_timeout_ms`,
//! counted from the request's head): past it, reading fails, the handler refuses the request
//! and hyper closes the connection, so a body sent a byte at a time cannot hold a
//! descriptor (PROTOCOL.md §13).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body, Frame, SizeHint};
use tokio::time::Sleep;
use tokio_tungstenite::tungstenite::Bytes;

/// The body was not whole by its deadline.
#[derive(Debug, thiserror::Error)]
#[error("the body did not arrive within {0} ms")]
pub struct TooSlow(u128);

/// `inner`, failing once `limit` has passed since it was made.
pub struct TimedBody<B> {
    inner: B,
    deadline: Pin<Box<Sleep>>,
    limit: Duration,
}

impl<B> TimedBody<B> {
    pub fn new(inner: B, limit: Duration) -> TimedBody<B> {
        TimedBody {
            inner,
            deadline: Box::pin(tokio::time::sleep(limit)),
            limit,
        }
    }
}

impl<B> Body for TimedBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        match this.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(TooSlow(this.limit.as_millis()).into()))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
