//! The command line, run as a user would: good runs, bad arguments, bad files, exports, hunts,
//! interrupted and resumed work, packing and reductions. One test binary; a module per part.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use magic_search::{SearchConfig, find_set};

mod c_engine;
mod exports;
mod files;
mod hostile;
mod hunts;
mod packing;
mod proofs;
mod resumed;

pub(crate) fn magic_search(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magic-search"))
        .args(args)
        .output()
        .expect("the binary runs")
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A fresh directory under the target directory, removed and recreated per test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts that a run failed with `code` and said `expected` on standard error.
pub(crate) fn assert_fails(output: &Output, code: i32, expected: &str, context: &str) {
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(code), "{context}: {message}");
    assert!(message.contains(expected), "{context}: {message}");
}

pub(crate) fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

pub(crate) fn good_set_text() -> String {
    let (set, _) = find_set(&SearchConfig::default(), 2, &|_| {});
    set.to_text(&[])
}

/// The hunt state in `path`, comments and the time it took left out.
pub(crate) fn hunt_state(path: &Path) -> magic_search::HuntReport {
    let text = std::fs::read_to_string(path).unwrap();
    let mut report = magic_search::HuntReport::parse(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    report.elapsed_ms = 0;
    report
}

/// Runs chunks 0 to `count - 1` of the command `args` as separate processes at once, each with
/// `--chunk I/N --checkpoint DIR/partI.EXT`, and returns their state files once all succeeded.
pub(crate) fn run_chunks(dir: &Path, ext: &str, count: usize, args: &[&str]) -> Vec<PathBuf> {
    let files: Vec<PathBuf> = (0..count)
        .map(|i| dir.join(format!("part{i}.{ext}")))
        .collect();
    let children: Vec<_> = files
        .iter()
        .enumerate()
        .map(|(i, file)| {
            Command::new(env!("CARGO_BIN_EXE_magic-search"))
                .args(args)
                .args(["--chunk", &format!("{i}/{count}")])
                .args(["--checkpoint", path_str(file)])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    files
}

/// The set search state in `path`.
pub(crate) fn find_state(path: &Path) -> magic_search::FindState {
    let text = std::fs::read_to_string(path).unwrap();
    magic_search::FindState::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Sends `signal` (`INT`, `KILL`) to `child` and waits for it to end.
pub(crate) fn stop(child: std::process::Child, signal: &str) -> std::process::Output {
    let kill = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    child.wait_with_output().unwrap()
}
