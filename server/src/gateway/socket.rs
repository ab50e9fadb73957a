//! An accepted TCP stream that holds its descriptor's place ([`SocketTicket`]) for as long as
//! it lives: through its plain HTTP requests and, once upgraded, inside the WebSocket, so the
//! place is given back exactly when the descriptor is closed (PROTOCOL.md §13, descriptors).
//! Any other stream may stand in for the TCP one: an in-process driver's (the HTTP fuzz
//! target's in-memory pipe) is served and counted the same way.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use crate::base::sockets::SocketTicket;

/// `stream` and its place.
#[derive(Debug)]
pub struct Socket<S = TcpStream> {
    stream: S,
    _place: SocketTicket,
}

impl<S> Socket<S> {
    pub fn new(stream: S, place: SocketTicket) -> Socket<S> {
        Socket {
            stream,
            _place: place,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Socket<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Socket<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}
