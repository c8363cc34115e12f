//! Spill directories that a killed count left behind.  A count removes its
//! own directory when it ends, however it ends, but a process killed by
//! `kill -9` or the OOM killer cannot: its layers (tens of gigabytes on a
//! big board) would stay on the disk for good.  So a directory is named
//! for its host and process, `solvers-spill-<host>-<pid>-<n>`, and a count
//! that makes one first removes those in the same place whose process, on
//! this host, no longer runs.  A directory of another host (a spill
//! directory on a disk that several machines mount) is left alone, and so
//! is one whose owner cannot be told (an older name, another system).

use std::path::Path;

const PREFIX: &str = "solvers-spill-";

/// The name of this process's `n`-th spill directory.
pub(super) fn dir_name(n: u64) -> String {
    format!("{PREFIX}{}-{}-{n}", host(), std::process::id())
}

/// Remove the spill directories inside `parent` of processes of this host
/// that no longer run.  Failures are ignored: a directory another user
/// owns, or one removed meanwhile, stays as it is.
pub(super) fn remove_stale(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let (host, me) = (host(), std::process::id());
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((h, pid)) = name.to_str().and_then(owner) else {
            continue;
        };
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && h == host && pid != me && gone(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The host and the process of a spill directory's name.
fn owner(name: &str) -> Option<(&str, u32)> {
    let rest = name.strip_prefix(PREFIX)?;
    let (rest, n) = rest.rsplit_once('-')?;
    n.parse::<u64>().ok()?;
    let (host, pid) = rest.rsplit_once('-')?;
    Some((host, pid.parse().ok()?))
}

/// This machine's name as a directory name holds it: its hostname, every
/// character but a letter, a digit, `.` and `_` as `_` (a `-` separates
/// the name's fields).
fn host() -> String {
    let name = hostname().unwrap_or_default();
    let name = name.trim();
    let clean = |c: char| match c.is_ascii_alphanumeric() || c == '.' || c == '_' {
        true => c,
        false => '_',
    };
    match name.is_empty() {
        true => "unknown".into(),
        false => name.chars().map(clean).collect(),
    }
}

#[cfg(target_os = "linux")]
fn hostname() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname").ok()
}

/// Whether process `pid` of this host has ended.
#[cfg(target_os = "linux")]
fn gone(pid: u32) -> bool {
    !Path::new("/proc").join(pid.to_string()).exists()
}

#[cfg(not(target_os = "linux"))]
fn hostname() -> Option<String> {
    None
}

/// Off Linux a process is not looked up: every directory stays.
#[cfg(not(target_os = "linux"))]
fn gone(_pid: u32) -> bool {
    false
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn names_say_their_host_and_process() {
        let name = dir_name(7);
        let (host, pid) = owner(&name).unwrap();
        assert_eq!((host, pid), (self::host().as_str(), std::process::id()));
        assert_eq!(owner("solvers-spill-a-b-c-12-3"), Some(("a-b-c", 12)));
        for other in [
            "solvers-spill-12-3",
            "solvers-spill-h-x-3",
            "solvers-parts-h-1-2",
            "x",
        ] {
            assert_eq!(owner(other), None, "{other}");
        }
    }

    #[test]
    fn only_the_directories_of_ended_processes_of_this_host_go() {
        let parent = std::env::temp_dir().join(format!("stale-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&parent);
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let ended = child.id();
        child.wait().unwrap();
        let host = host();
        let names = [
            format!("{PREFIX}{host}-{ended}-0"),                // ended: goes
            format!("{PREFIX}{host}-{}-0", std::process::id()), // this process
            format!("{PREFIX}{host}-1-0"),                      // running (init)
            format!("{PREFIX}another_{host}-{ended}-0"),        // another host
            format!("{PREFIX}{ended}-0"),                       // an older name
        ];
        for name in &names {
            std::fs::create_dir_all(parent.join(name).join("inside")).unwrap();
        }
        std::fs::write(parent.join(format!("{PREFIX}{host}-{ended}-1")), b"a file").unwrap();
        remove_stale(&parent);
        let mut left: Vec<String> = std::fs::read_dir(&parent)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        let mut want: Vec<String> = names[1..].to_vec();
        want.push(format!("{PREFIX}{host}-{ended}-1"));
        want.sort();
        assert_eq!(left, want);
        std::fs::remove_dir_all(&parent).unwrap();
    }
}
