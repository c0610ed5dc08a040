//! The CPU features this build was compiled to use, checked against the CPU it runs on.
//!
//! `.cargo/config.toml` builds x86-64 code for the CPU that compiles it (AVX2, BMI1/2, LZCNT,
//! POPCNT, FMA on any x86-64 since 2013, AVX-512 where there is one), so the compiler may use
//! those instructions anywhere in the crate. A binary copied to a CPU without them would die on
//! the first such instruction with an illegal-instruction signal; the binaries call
//! [`missing_features`] first thing and print a one-line explanation instead.

/// The instruction-set features compiled into this build that the running CPU lacks (empty on
/// a suitable CPU, and always empty on other architectures).
pub fn missing_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut missing = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! check {
            ($($feature:tt),*) => {$(
                if cfg!(target_feature = $feature)
                    && !std::arch::is_x86_feature_detected!($feature)
                {
                    missing.push($feature);
                }
            )*};
        }
        check!("popcnt", "lzcnt", "bmi1", "bmi2", "avx", "avx2", "fma");
        check!("avx512f", "avx512vl", "avx512cd", "avx512bw", "avx512dq");
    }
    missing
}

/// `Err` with a one-line message when the running CPU lacks a feature this build uses.
pub fn check() -> Result<(), String> {
    explain(&missing_features())
}

fn explain(missing: &[&str]) -> Result<(), String> {
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "this build uses CPU features this processor lacks ({}); rebuild for it with \
         RUSTFLAGS=\"-C target-cpu=native\" cargo build --release",
        missing.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_feature_is_named_in_one_line_with_the_way_out() {
        assert_eq!(explain(&[]), Ok(()));
        let e = explain(&["avx2", "bmi2"]).unwrap_err();
        assert!(
            e.contains("(avx2, bmi2)") && e.contains("target-cpu=native"),
            "{e}"
        );
        assert!(!e.contains('\n'));
    }
}
