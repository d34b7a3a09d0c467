//! The C twins of the slider backends (`benches/c/slider_twins.c`): each method as a plain C
//! loop over the streamed queen workload, compiled for this CPU by a C compiler the caller
//! names and run as a program, for `slider-speed --twins-cc`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use crate::runs::times_alongside;

/// The C twins, compiled for this CPU into a file that is removed when this is dropped.
pub struct CTwins {
    program: PathBuf,
    /// The compiler's own name for itself: the first line of its `--version`.
    pub compiler: String,
}

impl CTwins {
    /// Compiles `benches/c/slider_twins.c` with `compiler`; an error says why it could not.
    pub fn compile(compiler: &str) -> Result<CTwins, String> {
        let source = concat!(env!("CARGO_MANIFEST_DIR"), "/c/slider_twins.c");
        let program = std::env::temp_dir().join(format!("slider-twins-{}", std::process::id()));
        let output = Command::new(compiler)
            .args(["-O3", "-march=native", "-o"])
            .arg(&program)
            .arg(source)
            .output()
            .map_err(|error| format!("{compiler}: {error}"))?;
        if !output.status.success() {
            return Err(format!(
                "{compiler} could not compile {source}: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        let version = Command::new(compiler)
            .arg("--version")
            .output()
            .map_err(|error| format!("{compiler}: {error}"))?;
        let compiler = String::from_utf8_lossy(&version.stdout)
            .lines()
            .next()
            .unwrap_or(compiler)
            .trim()
            .to_owned();
        Ok(CTwins { program, compiler })
    }

    /// One round of the twins of `names` (those that have one) on the workload's first
    /// `occupancies`, checked against `expected`: the time of each by name.
    pub fn round(
        &self,
        names: &[&str],
        occupancies: usize,
        expected: u64,
    ) -> Result<BTreeMap<String, Duration>, String> {
        let magics = |file: &str| format!("{}/../core/magics/{file}", env!("CARGO_MANIFEST_DIR"));
        let args = [
            "--occupancies".to_owned(),
            occupancies.to_string(),
            "--one-round".to_owned(),
            expected.to_string(),
            "--only".to_owned(),
            names.join(","),
            "--fancy".to_owned(),
            magics("fancy.magics"),
            "--black".to_owned(),
            magics("black-packed.magics"),
        ];
        Ok(times_alongside(&self.program, &args)?.into_iter().collect())
    }
}

impl Drop for CTwins {
    fn drop(&mut self) {
        // Nothing else to do if it is already gone.
        let _ = std::fs::remove_file(&self.program);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::streamed_queen;
    use bitforge::slider::Reference;

    /// Each C twin, built by the system's C compiler for this CPU, gives the reference
    /// backend's checksum on the first occupancies of the workload: the same inputs, the same
    /// attacks (a twin's error or wrong checksum fails the round).
    #[test]
    fn the_c_twins_agree_with_the_reference() {
        const OCCUPANCIES: usize = 2_000;
        let workload = streamed_queen(OCCUPANCIES);
        let expected = workload.run(Reference);
        let twins = CTwins::compile("cc").unwrap_or_else(|message| panic!("{message}"));
        let mut names = vec!["fancy", "black", "hyperbola", "kogge-stone"];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            names.push("pext");
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            names.push("kogge-stone-avx2");
        }
        let times = twins
            .round(&names, OCCUPANCIES, expected)
            .unwrap_or_else(|message| panic!("{message}"));
        let mut timed: Vec<&str> = times.keys().map(String::as_str).collect();
        names.sort_unstable();
        timed.sort_unstable();
        assert_eq!(timed, names);
    }
}
