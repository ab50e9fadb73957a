//! Behind a reverse proxy (`deploy/`, docs/deployment.md) every player reaches the server
//! from the proxy's address. With `server.trusted_proxies` naming the proxy, the
//! per-address budgets count the client its `X-Forwarded-For` names; without it the header
//! is ignored and the proxy's own address is counted, as anyone can write the header.

mod common;

use common::{Client, TestServer};
use qipai_protocol::{ClientMsg, ErrorCode, ServerMsg, PROTOCOL_VERSION};

/// Connects "through the proxy" for `client` and says hello: `true` when welcomed (the
/// connection then stays open in `open`: the budget counts open connections), `false` when
/// refused with `too_many_connections`.
async fn welcomed(server: &TestServer, open: &mut Vec<Client>, client: &str) -> bool {
    let mut c = Client::connect_forwarded(server, client).await;
    c.try_send(&ClientMsg::Hello {
        protocol_version: PROTOCOL_VERSION,
        name: "Proxied".into(),
        resume_token: None,
        account_token: None,
    })
    .await;
    match c.recv().await {
        ServerMsg::Welcome { .. } => {
            open.push(c);
            true
        }
        ServerMsg::Error { code, .. } => {
            assert_eq!(code, ErrorCode::TooManyConnections);
            false
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_trusted_proxy_s_clients_are_counted_by_their_own_address() {
    let server = TestServer::start(|c| {
        c.limits.max_connections_per_addr = 2;
        c.server.trusted_proxies = vec!["127.0.0.1/32".parse().expect("network")];
    })
    .await;
    let mut open = Vec::new();
    assert!(welcomed(&server, &mut open, "203.0.113.1").await);
    assert!(welcomed(&server, &mut open, "203.0.113.1").await);
    assert!(
        !welcomed(&server, &mut open, "203.0.113.1").await,
        "a third connection of the same client is over its budget"
    );
    // Another client behind the same proxy has its own budget; a hop the client wrote
    // itself on the left is not believed.
    assert!(welcomed(&server, &mut open, "203.0.113.2").await);
    assert!(welcomed(&server, &mut open, "203.0.113.1, 203.0.113.3").await);
}

#[tokio::test]
async fn without_the_setting_the_header_is_ignored() {
    let server = TestServer::start(|c| c.limits.max_connections_per_addr = 2).await;
    let mut open = Vec::new();
    assert!(welcomed(&server, &mut open, "203.0.113.1").await);
    assert!(welcomed(&server, &mut open, "203.0.113.2").await);
    assert!(
        !welcomed(&server, &mut open, "203.0.113.3").await,
        "every connection counts as the peer, 127.0.0.1"
    );
}
