//! The command line's reading of the crate's enums: `clap::ValueEnum` for the game kinds, the
//! Gomoku rules, the table's replacement strategies and the record formats. The types themselves
//! know nothing of clap; each names itself with `name()`, which is what the command line accepts.

use clap::ValueEnum;
use clap::builder::PossibleValue;

use crate::game::GameKind;
use crate::game::gomoku::Rule;
use crate::record::Format;
use crate::tt::Policy;
use crate::ui::app::Human;

/// `impl ValueEnum` from the type's `name()` (or the names given) and a help line per value.
macro_rules! value_enum {
    ($ty:ty { $($variant:expr => $name:literal, $help:expr),+ $(,)? }) => {
        impl ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$($variant),+]
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                let (name, help) = match *self {
                    $(v if v == $variant => ($name, $help),)+
                    _ => return None,
                };
                let value = PossibleValue::new(name);
                Some(if help.is_empty() { value } else { value.help(help) })
            }
        }
    };
    ($ty:ty { $($variant:expr => $help:expr),+ $(,)? }) => {
        impl ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$($variant),+]
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                let help = match *self {
                    $(v if v == $variant => $help,)+
                    _ => "",
                };
                let value = PossibleValue::new(self.name());
                Some(if help.is_empty() { value } else { value.help(help) })
            }
        }
    };
}

value_enum!(GameKind {
    GameKind::Othello => "",
    GameKind::Gomoku => "",
});

value_enum!(Rule {
    Rule::Freestyle => "Five or more in a row wins",
    Rule::Exact5 => "Exactly five in a row wins; six or more does not",
});

value_enum!(Policy {
    Policy::Always => "",
    Policy::Depth => "",
    Policy::TwoTier => "",
    Policy::Big => "",
    Policy::Aging => "",
});

value_enum!(Format {
    Format::Transcript => "Othello move transcript (`f5d6c3…`), with an optional OBF start line",
    Format::Ggf => "Othello GGF (`(;GM[Othello]…BO[8 …]B[F5]W[D6]…;)`)",
    Format::Psq => "Gomoku Piskvork `.psq`",
    Format::RifList => "Gomoku RIF square list (`h8 i9 h9`) with a `# gomoku 15x15 freestyle` header",
});

value_enum!(Human {
    Human::Black => "black", "",
    Human::White => "white", "",
    Human::Both => "both", "Both sides (the engine only gives hints)",
    Human::None => "none", "Neither: the engine plays itself (a demo)",
});
