//! Helpers shared by the integration tests: a peer process driven line by line, with a reader
//! thread so a protocol test can wait for an answer with a time limit; a fresh scratch directory
//! ([`scratch_dir`]); and weight files for the Othello evaluation's tests ([`weights`]).

#![allow(dead_code)]

pub mod weights;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A fresh, empty scratch directory for one test, `xorboard-<name>-<pid>` in the system's
/// temporary directory (anything left there by an earlier run is removed first).
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xorboard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// A running engine process.
pub struct Peer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received, for failure messages.
    pub log: Vec<String>,
}

impl Peer {
    /// Start `program` with `args`; stderr is discarded.
    pub fn spawn(program: &str, args: &[&str]) -> Peer {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Peer {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    /// The xorboard binary under test with these arguments.
    pub fn xorboard(args: &[&str]) -> Peer {
        Peer::spawn(env!("CARGO_BIN_EXE_xorboard"), args)
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the engine");
        stdin.flush().expect("flush");
    }

    /// Close the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, within `limit`.
    pub fn next(&mut self, limit: Duration) -> Option<String> {
        match self.lines.recv_timeout(limit) {
            Ok(l) => {
                self.log.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Skip lines until one satisfies `pred`; panics with the log after `limit`.
    pub fn expect(&mut self, limit: Duration, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next(left) {
                Some(l) if pred(&l) => return l,
                Some(_) => {}
                None => panic!("no {what} within {limit:?}; received {:?}", self.log),
            }
        }
    }

    /// Peak resident memory of the process so far, in KiB (Linux `VmHWM`).
    pub fn peak_rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Wait for the process to exit within `limit`; returns whether it did.
    pub fn wait_exit(&mut self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.stdin = None;
        if !self.wait_exit(Duration::from_secs(2)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
