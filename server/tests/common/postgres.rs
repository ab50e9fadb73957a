//! A PostgreSQL of the test's own, which the test stops and starts again under a running
//! server (what `.ci/postgres.sh` does for the shared one: `initdb` in a temporary folder,
//! started on a free loopback port, as the `postgres` user when run as root). It is stopped
//! and its folder deleted when the value is dropped.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use tokio::process::Command;

/// A private PostgreSQL cluster.
pub struct OwnPostgres {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    user: String,
    /// Root runs PostgreSQL's commands as `postgres` (it refuses to run as root).
    as_postgres: bool,
}

/// Tells the clusters of one test process apart.
static NEXT: AtomicU32 = AtomicU32::new(0);

impl OwnPostgres {
    /// Makes and starts a cluster; `None` (saying why) when PostgreSQL is not installed
    /// (`.ci/postgres.sh` installs it).
    pub async fn start() -> Option<OwnPostgres> {
        let Some(bin) = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(Result::ok)
            .map(|d| d.path().join("bin"))
            .find(|bin| bin.join("initdb").is_file())
        else {
            eprintln!("skipped: PostgreSQL is not installed (.ci/postgres.sh installs it)");
            return None;
        };
        let as_postgres = Command::new("id")
            .arg("-u")
            .output()
            .await
            .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
        let user = if as_postgres {
            "postgres".to_owned()
        } else {
            std::env::var("USER").unwrap_or_else(|_| "postgres".into())
        };
        let dir = std::env::temp_dir().join(format!(
            "qipai-own-pg-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("the cluster's folder");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let pg = OwnPostgres {
            bin,
            dir,
            port,
            user,
            as_postgres,
        };
        if as_postgres {
            let chown = Command::new("chown")
                .arg("postgres")
                .arg(&pg.dir)
                .status()
                .await;
            assert!(chown.is_ok_and(|s| s.success()), "chown postgres");
        }
        let data = pg.dir.join("data");
        pg.run(
            "initdb",
            &[
                "-D",
                &data.to_string_lossy(),
                "-U",
                &pg.user,
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        )
        .await;
        pg.resume().await;
        Some(pg)
    }

    /// The URL the server is given.
    pub fn url(&self) -> String {
        format!("postgres://{}@127.0.0.1:{}/postgres", self.user, self.port)
    }

    /// Starts the cluster (again), on the same port, and waits until it takes connections.
    pub async fn resume(&self) {
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -k {} -c fsync=off",
            self.port,
            self.dir.display()
        );
        let data = self.dir.join("data").to_string_lossy().into_owned();
        let log = self.dir.join("log").to_string_lossy().into_owned();
        self.run(
            "pg_ctl",
            &["-D", &data, "-l", &log, "-w", "-o", &options, "start"],
        )
        .await;
    }

    /// Stops the cluster at once (`-m fast`: its connections are cut, as in a crash or a
    /// failover) and waits until it is down.
    pub async fn stop(&self) {
        let data = self.dir.join("data").to_string_lossy().into_owned();
        self.run("pg_ctl", &["-D", &data, "-m", "fast", "-w", "stop"])
            .await;
    }

    /// PostgreSQL's program `name`, as the user that runs the cluster.
    fn command(&self, name: &str) -> std::process::Command {
        let program = self.bin.join(name);
        if self.as_postgres {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(program);
            c
        } else {
            std::process::Command::new(program)
        }
    }

    /// Runs PostgreSQL's program `name` with `args`; the test fails if it does.
    async fn run(&self, name: &str, args: &[&str]) {
        let out = Command::from(self.command(name))
            .args(args)
            .output()
            .await
            .expect(name);
        assert!(
            out.status.success(),
            "{name} {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let _ = self
            .command("pg_ctl")
            .arg("-D")
            .arg(self.dir.join("data"))
            .args(["-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
