//! TEMPORARY: the shapes of `crate::tt`, `crate::search` and `crate::engine` from
//! notes/ENGINE_API.md, so the UI compiles and its panels can be tested before the engine lands.
//! Deleted when the real engine is on main; nothing here searches.

use std::time::Duration;

use crate::commands::AnyGame;
use crate::game::{GameKind, Move};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    Always,
    Depth,
    TwoTier,
    Big,
    Aging,
}

impl Policy {
    pub const ALL: [Policy; 5] = [
        Policy::Always,
        Policy::Depth,
        Policy::TwoTier,
        Policy::Big,
        Policy::Aging,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Policy::Always => "always",
            Policy::Depth => "depth",
            Policy::TwoTier => "two-tier",
            Policy::Big => "big",
            Policy::Aging => "aging",
        }
    }
    pub fn describe(self) -> &'static str {
        self.name()
    }
    pub fn next(self) -> Policy {
        let i = Self::ALL.iter().position(|&p| p == self).unwrap_or(0);
        Self::ALL[(i + 1) % 5]
    }
    pub fn prev(self) -> Policy {
        let i = Self::ALL.iter().position(|&p| p == self).unwrap_or(0);
        Self::ALL[(i + 4) % 5]
    }
}

impl std::str::FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Policy, String> {
        Self::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown strategy '{s}'"))
    }
}

#[derive(Clone, Debug, Default)]
pub struct TtStats {
    pub probes: u64,
    pub hits: u64,
    pub usable_hits: u64,
    pub misses: u64,
    pub clashes: u64,
    pub false_matches: u64,
    pub fills: u64,
    pub updates: u64,
    pub replacements: u64,
    pub rejected: u64,
    pub torn: u64,
    pub hashfull: u32,
    pub policy_switches: u64,
    pub events: Vec<ReplacementEvent>,
}

#[derive(Clone, Debug)]
pub struct ReplacementEvent {
    pub bucket: usize,
    pub policy: Policy,
    pub victim_key: u64,
    pub victim_depth: u8,
    pub victim_age: u8,
    pub new_key: u64,
    pub new_depth: u8,
    pub new_age: u8,
    pub reason: &'static str,
}

#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub nps: u64,
    pub score: i32,
    pub best: Option<Move>,
    pub pv: Vec<Move>,
    pub exact: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

pub fn score_text(_kind: GameKind, score: i32) -> String {
    format!("{score:+}")
}

pub enum Report {
    Progress {
        id: u64,
        search: SearchStats,
        tt: TtStats,
    },
    Done {
        id: u64,
        search: SearchStats,
        tt: TtStats,
    },
    Error(String),
}

pub struct Engine {
    policy: std::cell::Cell<Policy>,
    mib: std::cell::Cell<usize>,
    bits: std::cell::Cell<u32>,
}

impl Engine {
    pub fn spawn(tt_mib: usize, policy: Policy, check_bits: u32) -> Engine {
        Engine {
            policy: policy.into(),
            mib: tt_mib.into(),
            bits: check_bits.into(),
        }
    }
    pub fn search(&self, _id: u64, _position: AnyGame, _limits: Limits) {}
    pub fn stop(&self) {}
    pub fn set_policy(&self, p: Policy) {
        self.policy.set(p)
    }
    pub fn set_tt_mib(&self, mib: usize) {
        self.mib.set(mib)
    }
    pub fn set_check_bits(&self, bits: u32) {
        self.bits.set(bits)
    }
    pub fn clear(&self) {}
    pub fn try_recv(&self) -> Option<Report> {
        None
    }
    pub fn tt_info(&self) -> (Policy, usize, u32) {
        (self.policy.get(), self.mib.get(), self.bits.get())
    }
}
