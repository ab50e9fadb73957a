//! The plainest use of the load generator, exactly as README gives it: the real
//! `qipai-loadtest` binary with `--spawn-server --tables 20` (think 0, no config file), only
//! shorter. It must measure something: actions accepted and no error of any kind (
//! it once reported 0 actions per second after rate-limited errors).
//!
//! `--spawn-server` starts the `qipai-server` binary beside `qipai-loadtest` in the target
//! folder: `cargo test --workspace` builds both; alone, build the server first
//! (`cargo build -p qipai-server`).

use std::path::PathBuf;
use std::process::Command;

fn server_binary() -> PathBuf {
    let loadtest = PathBuf::from(env!("CARGO_BIN_EXE_qipai-loadtest"));
    let server = loadtest.with_file_name(format!("qipai-server{}", std::env::consts::EXE_SUFFIX));
    assert!(
        server.exists(),
        "{} is missing: build it first with `cargo build -p qipai-server`",
        server.display()
    );
    server
}

#[test]
fn spawn_server_with_20_tables_measures_actions_and_no_errors() {
    // What `--spawn-server` starts by itself; checked only for a clear message.
    server_binary();
    let out = Command::new(env!("CARGO_BIN_EXE_qipai-loadtest"))
        .args(["--spawn-server", "--tables", "20"])
        .args([
            "--warmup",
            "0.5",
            "--duration",
            "2",
            "--quiet",
            "--json-only",
        ])
        .output()
        .expect("qipai-loadtest runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "qipai-loadtest failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout.lines().last().expect("one JSON line");
    let report: serde_json::Value = serde_json::from_str(line).expect("the JSON report");
    println!("{line}");
    let count = |key: &str| {
        report[key]
            .as_u64()
            .unwrap_or_else(|| panic!("{key} in {line}"))
    };
    assert!(count("actions") > 0, "no action measured: {line}");
    assert_eq!(count("conn_errors"), 0, "{line}");
    assert_eq!(count("protocol_errors"), 0, "{line}");
    assert_eq!(count("tables"), 20);
    assert_eq!(count("welcomed"), count("connections"), "{line}");
}
