//! A process's resident memory and CPU time, its threads' CPU time by name, and the whole
//! machine's busy and idle time, read from `/proc` (Linux).

use std::collections::BTreeMap;
use std::path::Path;
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
    Some(ProcSample {
        rss_bytes: rss_kb * 1024,
        cpu_secs: cpu_secs(Path::new(&format!("{dir}/stat")))?,
        at: Instant::now(),
    })
}

/// User plus system CPU seconds from a `/proc/<pid>/stat` or `/proc/<pid>/task/<tid>/stat`.
fn cpu_secs(path: &Path) -> Option<f64> {
    let stat = std::fs::read_to_string(path).ok()?;
    // The command name may hold spaces: the fields that follow it start after its ')'.
    let after = stat.rsplit_once(')')?.1;
    let mut fields = after.split_whitespace();
    // After ')': state is field 3; utime and stime are fields 14 and 15.
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((utime + stime) as f64 / TICKS_PER_SEC)
}

/// CPU seconds so far of process `pid`'s threads, summed by thread name (`qipai-sqlite`,
/// `tokio-rt-worker`, …); empty when the process cannot be read.
pub fn threads(pid: u32) -> BTreeMap<String, f64> {
    let mut by_name = BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return by_name;
    };
    for task in tasks.flatten() {
        let dir = task.path();
        let (Ok(name), Some(secs)) = (
            std::fs::read_to_string(dir.join("comm")),
            cpu_secs(&dir.join("stat")),
        ) else {
            continue;
        };
        *by_name.entry(name.trim().to_owned()).or_insert(0.0) += secs;
    }
    by_name
}

/// The CPU seconds a thread name used between two [`threads`] readings (a thread that ended
/// in between is left out: its time cannot be read any more).
pub fn threads_used(
    from: &BTreeMap<String, f64>,
    to: &BTreeMap<String, f64>,
) -> BTreeMap<String, f64> {
    to.iter()
        .map(|(name, secs)| {
            (
                name.clone(),
                (secs - from.get(name).unwrap_or(&0.0)).max(0.0),
            )
        })
        .collect()
}

/// The whole machine's CPU time so far, from `/proc/stat`'s first line, in clock ticks.
#[derive(Clone, Copy, Debug)]
pub struct MachineSample {
    /// Idle and waiting for IO.
    pub idle: u64,
    /// Everything.
    pub total: u64,
    /// The machine's cores (`/proc/stat`'s `cpuN` lines).
    pub cores: usize,
}

/// Reads `/proc/stat`; `None` when it cannot be read.
pub fn machine() -> Option<MachineSample> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cores = stat
        .lines()
        .filter(|l| {
            l.strip_prefix("cpu")
                .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count();
    let ticks: Vec<u64> = stat
        .lines()
        .next()?
        .strip_prefix("cpu ")?
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal (guest times are inside user already).
    let idle = ticks.get(3)? + ticks.get(4)?;
    let total = ticks.iter().take(8).sum();
    Some(MachineSample { idle, total, cores })
}

/// The share of the machine's CPU time that was idle between two readings (0 to 1).
pub fn idle_share(from: &MachineSample, to: &MachineSample) -> f64 {
    let total = to.total.saturating_sub(from.total);
    if total == 0 {
        return 0.0;
    }
    to.idle.saturating_sub(from.idle) as f64 / total as f64
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

    /// A thread that spins shows under its name, with the time it spun (read by itself from
    /// its own `stat`, so a busy machine only makes the test longer).
    #[test]
    fn reads_its_threads_by_name() {
        let pid = std::process::id();
        let from = threads(pid);
        let started = Instant::now();
        let spinner = std::thread::Builder::new()
            .name("procfs-spin".into())
            .spawn(move || {
                let mut n = 0u64;
                while cpu_secs(Path::new("/proc/thread-self/stat")).unwrap() < 0.2 {
                    n = std::hint::black_box(n.wrapping_add(1));
                }
                threads(pid)
            })
            .unwrap();
        let to = spinner.join().unwrap();
        let wall = started.elapsed().as_secs_f64();
        let spun = threads_used(&from, &to)["procfs-spin"];
        assert!(spun >= 0.2 && spun <= wall + 0.02, "{spun} s in {wall} s");
    }

    /// The machine's counters move forward, and its idle share is a share.
    #[test]
    fn reads_the_machine() {
        let from = machine().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        let to = machine().unwrap();
        assert!(to.total >= from.total && to.idle >= from.idle);
        assert!(to.cores >= 1);
        let share = idle_share(&from, &to);
        assert!((0.0..=1.0).contains(&share), "{share}");
    }
}
