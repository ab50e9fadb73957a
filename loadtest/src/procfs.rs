//! A process's resident memory and CPU time, read from `/proc/<pid>` (Linux).

use std::time::Instant;

/// Clock ticks per second of `/proc/<pid>/stat` times (`getconf CLK_TCK`, 100 on Linux).
const TICKS_PER_SEC: f64 = 100.0;

/// One reading of a process.
#[derive(Clone, Copy, Debug)]
pub struct ProcSample {
    /// `VmRSS`, in bytes.
    pub rss_bytes: u64,
    /// User plus system CPU time so far, in seconds.
    pub cpu_secs: f64,
    pub at: Instant,
}

/// Reads process `pid` (`None` for this process); `None` when it is gone or unreadable.
pub fn sample(pid: Option<u32>) -> Option<ProcSample> {
    let dir = pid.map_or_else(|| "/proc/self".to_owned(), |p| format!("/proc/{p}"));
    let status = std::fs::read_to_string(format!("{dir}/status")).ok()?;
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let stat = std::fs::read_to_string(format!("{dir}/stat")).ok()?;
    // The command name may hold spaces: the fields that follow it start after its ')'.
    let after = stat.rsplit_once(')')?.1;
    let mut fields = after.split_whitespace();
    // After ')': state is field 3; utime and stime are fields 14 and 15.
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(ProcSample {
        rss_bytes: rss_kb * 1024,
        cpu_secs: (utime + stime) as f64 / TICKS_PER_SEC,
        at: Instant::now(),
    })
}

/// CPU cores used between two readings of the same process.
pub fn cores(from: &ProcSample, to: &ProcSample) -> f64 {
    let wall = to.at.duration_since(from.at).as_secs_f64();
    if wall > 0.0 {
        (to.cpu_secs - from.cpu_secs) / wall
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This very process can be read, and it has some memory.
    #[test]
    fn reads_itself() {
        let s = sample(None).unwrap();
        assert!(s.rss_bytes > 0);
        assert!(s.cpu_secs >= 0.0);
    }
}
