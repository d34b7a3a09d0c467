//! What the results were measured on: CPU, memory, kernel, compiler, date.

use std::fs;
use std::process::Command;
use std::time::SystemTime;

/// The facts the results record about this machine.
pub struct Machine {
    /// The model name, with the family and model numbers (the name alone may not say which
    /// generation, as with "AMD EPYC").
    pub cpu: String,
    /// Logical cores.
    pub cores: usize,
    /// Memory, where `/proc/meminfo` says.
    pub memory_gib: Option<f64>,
    /// The kernel release.
    pub kernel: String,
    /// `rustc -V`.
    pub rustc: String,
    /// UTC, to the second.
    pub date: String,
}

impl Machine {
    /// Reads them from `/proc` and `rustc -V` (unknown where these do not exist).
    pub fn here() -> Machine {
        let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let name = field(&cpuinfo, "model name").unwrap_or_else(|| "unknown CPU".to_owned());
        let cpu = match (field(&cpuinfo, "cpu family"), field(&cpuinfo, "model")) {
            (Some(family), Some(model)) => format!("{name} (family {family}, model {model})"),
            _ => name,
        };
        let memory_gib = fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|info| field(&info, "MemTotal"))
            .and_then(|kib| kib.split_whitespace().next()?.parse::<f64>().ok())
            .map(|kib| kib / (1024.0 * 1024.0));
        let kernel = fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|release| format!("Linux {}", release.trim()))
            .unwrap_or_else(|_| std::env::consts::OS.to_owned());
        let rustc = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned()))
            .arg("-V")
            .output()
            .ok()
            .and_then(|out| String::from_utf8(out.stdout).ok())
            .map(|text| text.trim().to_owned())
            .unwrap_or_else(|| "rustc (version unknown)".to_owned());
        let date = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_gib,
            kernel,
            rustc,
            date,
        }
    }

    /// The CPU features that decide which backends run: the ones that matter here.
    pub fn features() -> String {
        #[cfg(target_arch = "x86_64")]
        {
            let names = [
                ("bmi2", std::arch::is_x86_feature_detected!("bmi2")),
                ("avx2", std::arch::is_x86_feature_detected!("avx2")),
                ("avx512f", std::arch::is_x86_feature_detected!("avx512f")),
                ("gfni", std::arch::is_x86_feature_detected!("gfni")),
            ];
            let present: Vec<&str> = names
                .iter()
                .filter(|(_, on)| *on)
                .map(|(name, _)| *name)
                .collect();
            present.join(", ")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            std::env::consts::ARCH.to_owned()
        }
    }
}

/// Which build this is, from the target features compiled in.
pub fn build_label() -> &'static str {
    if cfg!(all(target_feature = "bmi2", target_feature = "avx512f")) {
        "built for this CPU (BMI2 and AVX-512 compiled in)"
    } else if cfg!(target_feature = "bmi2") {
        "built with BMI2 compiled in"
    } else {
        "default build (baseline x86-64, BMI2 detected at run time)"
    }
}

/// The value of the first `name: value` line of a `/proc` file.
fn field(text: &str, name: &str) -> Option<String> {
    text.lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(key, _)| key.trim() == name)
        .map(|(_, value)| value.trim().to_owned())
}
