//! The five transposition-table replacement strategies, switchable at any moment.
//!
//! A [`Policy`] only decides *where a new result goes* and *whom it evicts*; probes look at every
//! slot of a bucket whatever the policy, so entries written under one policy stay findable after a
//! switch. The rules (Breuker, Uiterwijk and van den Herik 1994/1996, and modern engines):
//!
//! | policy     | slots used per key                  | victim                                     |
//! |------------|-------------------------------------|--------------------------------------------|
//! | `always`   | one (direct-mapped)                 | whatever is there (Breuker's *New*)        |
//! | `depth`    | one (direct-mapped)                 | only if the new depth ≥ the stored one     |
//! | `two-tier` | a pair: depth-preferred + always    | deep slot if deeper (old deep demoted), else the always slot (*TwoDeep*) |
//! | `big`      | a pair: size-preferred + always     | as `two-tier`, comparing searched subtree sizes (*TwoBig1*) |
//! | `aging`    | all four                            | the empty slot, else lowest `depth − 8·age` |

use std::fmt;
use std::str::FromStr;

/// A replacement strategy of the transposition table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    Always,
    Depth,
    TwoTier,
    Big,
    Aging,
}

impl Policy {
    /// Every policy, in the order the UI cycles through them.
    pub const ALL: [Policy; 5] = [
        Policy::Always,
        Policy::Depth,
        Policy::TwoTier,
        Policy::Big,
        Policy::Aging,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Always => "always",
            Policy::Depth => "depth",
            Policy::TwoTier => "two-tier",
            Policy::Big => "big",
            Policy::Aging => "aging",
        }
    }

    /// The rule in one line.
    pub fn describe(self) -> &'static str {
        match self {
            Policy::Always => "one slot per position; a new result always overwrites it",
            Policy::Depth => {
                "one slot per position; overwrite only if the new depth is at least the stored one"
            }
            Policy::TwoTier => {
                "two slots: depth-preferred and always-replace; a deeper result demotes the deep entry"
            }
            Policy::Big => {
                "two slots: keep the entry whose searched subtree is bigger, the other slot always replaces"
            }
            Policy::Aging => {
                "four slots; evict the empty slot, else the lowest depth minus 8 per search of age"
            }
        }
    }

    /// The next policy, cycling (the `s` key).
    pub fn next(self) -> Policy {
        Self::ALL[(self.index() + 1) % Self::ALL.len()]
    }

    /// The previous policy, cycling (the `S` key).
    pub fn prev(self) -> Policy {
        Self::ALL[(self.index() + Self::ALL.len() - 1) % Self::ALL.len()]
    }

    /// Position in [`Policy::ALL`] (also the value stored in the table's atomic).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Inverse of [`Policy::index`]; out-of-range values give `Aging`.
    pub fn from_index(i: usize) -> Policy {
        Self::ALL.get(i).copied().unwrap_or(Policy::Aging)
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Policy {
    type Err = String;

    fn from_str(s: &str) -> Result<Policy, String> {
        let t = s.trim().to_ascii_lowercase();
        Self::ALL
            .iter()
            .copied()
            .find(|p| p.name() == t || (t == "twotier" && *p == Policy::TwoTier))
            .ok_or_else(|| {
                format!("unknown strategy '{s}': expected always, depth, two-tier, big or aging")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_cycle() {
        for p in Policy::ALL {
            assert_eq!(p.name().parse::<Policy>(), Ok(p));
            assert_eq!(p.next().prev(), p);
            assert_eq!(Policy::from_index(p.index()), p);
        }
        assert_eq!(Policy::Aging.next(), Policy::Always);
        assert!("lru".parse::<Policy>().is_err());
    }
}
