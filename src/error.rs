//! The crate's error type: one line for the person who typed the input, naming the input and
//! what was wrong with it (ripgrep's habit). The binary prints it and exits with status 2; the
//! screen shows it in its message line.

use std::fmt;

/// A one-line error for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<String> for Error {
    fn from(s: String) -> Self {
        Error(s)
    }
}

impl From<&str> for Error {
    fn from(s: &str) -> Self {
        Error(s.to_string())
    }
}
