//! The server's own histograms over the measured window, read off its `/metrics` at the
//! window's start and end: how long the store's commits took (`qipai_store_commit_seconds`),
//! how many writes each carried, and how long a room took from an action to its `ok`. A
//! latency the players feel is only half the story when the store is on: these say whether
//! the wait was the commit's.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The histograms read, by their name on `/metrics`.
const READ: [&str; 3] = [
    "qipai_store_commit_seconds",
    "qipai_store_batch_items",
    "qipai_action_seconds",
];

/// How long a scrape may take before the run goes on without it.
const SCRAPE: Duration = Duration::from_secs(2);

/// One histogram's buckets at one moment: `(upper bound, cumulative count)`, then its sum
/// and count.
#[derive(Clone, Debug, Default)]
struct Buckets {
    cumulative: Vec<(f64, u64)>,
    sum: f64,
    count: u64,
}

/// Every histogram of [`READ`] at one moment.
#[derive(Clone, Debug, Default)]
pub struct Scrape(BTreeMap<String, Buckets>);

/// One histogram over the window: observations, their mean, and quantiles read off the
/// buckets (each is its bucket's upper bound, so "at most").
#[derive(Clone, Debug, Serialize)]
pub struct WindowHistogram {
    pub count: u64,
    pub mean: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    /// `(upper bound, observations in the window up to it)`, the cumulative buckets.
    pub buckets: Vec<(f64, u64)>,
}

/// Reads the server's `/metrics` at the HTTP address of `ws_url` (`ws://host:port/ws`).
/// `None` when it does not answer in time: the run's own figures do not depend on it.
pub async fn scrape(ws_url: &str) -> Option<Scrape> {
    let hostport = ws_url.trim_start_matches("ws://").split('/').next()?;
    let text = tokio::time::timeout(SCRAPE, get_metrics(hostport))
        .await
        .ok()??;
    Some(parse(&text))
}

async fn get_metrics(hostport: &str) -> Option<String> {
    let mut tcp = TcpStream::connect(hostport).await.ok()?;
    let request = format!("GET /metrics HTTP/1.0\r\nHost: {hostport}\r\n\r\n");
    tcp.write_all(request.as_bytes()).await.ok()?;
    let mut body = Vec::new();
    tcp.read_to_end(&mut body).await.ok()?;
    String::from_utf8(body).ok()
}

fn parse(text: &str) -> Scrape {
    let mut out: BTreeMap<String, Buckets> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((series, value)) = line.rsplit_once(' ') else {
            continue;
        };
        let Ok(value) = value.parse::<f64>() else {
            continue;
        };
        let (name, labels) = series.split_once('{').unwrap_or((series, ""));
        for base in READ {
            let Some(part) = name.strip_prefix(base) else {
                continue;
            };
            let entry = out.entry(base.to_owned()).or_default();
            match part {
                "_bucket" => {
                    let le = labels
                        .split("le=\"")
                        .nth(1)
                        .and_then(|rest| rest.split('"').next())
                        .map(|le| match le {
                            "+Inf" => f64::INFINITY,
                            le => le.parse().unwrap_or(f64::INFINITY),
                        });
                    if let Some(le) = le {
                        entry.cumulative.push((le, value as u64));
                    }
                }
                "_sum" => entry.sum = value,
                "_count" => entry.count = value as u64,
                _ => {}
            }
        }
    }
    for buckets in out.values_mut() {
        buckets
            .cumulative
            .sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    }
    Scrape(out)
}

/// What each histogram gained between `from` and `to`.
pub fn window(from: &Scrape, to: &Scrape) -> BTreeMap<String, WindowHistogram> {
    to.0.iter()
        .map(|(name, end)| {
            let start = from.0.get(name).cloned().unwrap_or_default();
            let buckets: Vec<(f64, u64)> = end
                .cumulative
                .iter()
                .map(|&(le, n)| {
                    let before = start
                        .cumulative
                        .iter()
                        .find(|(l, _)| *l == le)
                        .map_or(0, |(_, n)| *n);
                    (le, n.saturating_sub(before))
                })
                .collect();
            let count = end.count.saturating_sub(start.count);
            let mean = if count == 0 {
                0.0
            } else {
                (end.sum - start.sum) / count as f64
            };
            let quantile = |q: f64| {
                let rank = (q * count as f64).ceil() as u64;
                buckets
                    .iter()
                    .find(|(_, n)| *n >= rank.max(1))
                    .map_or(f64::INFINITY, |(le, _)| *le)
            };
            let histogram = WindowHistogram {
                count,
                mean,
                p50: quantile(0.5),
                p90: quantile(0.9),
                p99: quantile(0.99),
                buckets,
            };
            (name.clone(), histogram)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = "\
# TYPE qipai_store_commit_seconds histogram
qipai_store_commit_seconds_bucket{le=\"0.001\"} 10
qipai_store_commit_seconds_bucket{le=\"0.01\"} 10
qipai_store_commit_seconds_bucket{le=\"+Inf\"} 10
qipai_store_commit_seconds_sum 0.005
qipai_store_commit_seconds_count 10
qipai_rooms 3
";

    const AFTER: &str = "\
qipai_store_commit_seconds_bucket{le=\"0.001\"} 100
qipai_store_commit_seconds_bucket{le=\"0.01\"} 109
qipai_store_commit_seconds_bucket{le=\"+Inf\"} 110
qipai_store_commit_seconds_sum 0.205
qipai_store_commit_seconds_count 110
";

    #[test]
    fn the_window_is_the_difference_of_two_scrapes() {
        let w = window(&parse(BEFORE), &parse(AFTER));
        let commit = &w["qipai_store_commit_seconds"];
        assert_eq!(commit.count, 100);
        assert!((commit.mean - 0.002).abs() < 1e-12);
        assert_eq!(
            commit.buckets,
            vec![(0.001, 90), (0.01, 99), (f64::INFINITY, 100)]
        );
        assert_eq!(commit.p50, 0.001);
        assert_eq!(commit.p90, 0.001);
        assert_eq!(commit.p99, 0.01);
        assert!(!w.contains_key("qipai_rooms"));
    }
}
