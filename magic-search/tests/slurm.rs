//! A hunt as a Slurm job array on a one-node cluster started for the test
//! (`slurm/hunt-array.sh`): tasks preempted and one killed mid-run, every one resumed from its
//! checkpoint, the chunks merged and compared with one local run. It starts root daemons, so it
//! is ignored by default; CI runs it (`--ignored`) after installing `slurm-wlm` and `munge`.

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "starts a Slurm cluster (root, slurm-wlm, munge): CI runs it"]
fn a_hunt_array_preempted_and_killed_on_slurm_merges_into_the_local_result() {
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("slurm_hunt_array");
    let _ = std::fs::remove_dir_all(&work);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("slurm/hunt-array.sh");
    let output = Command::new(script)
        .arg(env!("CARGO_BIN_EXE_magic-search"))
        .arg(&work)
        .output()
        .expect("bash runs the script");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(3) {
        println!("skipped: {}", stderr.trim());
        return;
    }
    println!("{stdout}");
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("the merged result equals the local run's"),
        "{stdout}"
    );
    for task in [0, 1, 4] {
        assert!(
            stdout.contains(&format!("task {task}: started 2 times; resumed: ")),
            "task {task} resumed from its checkpoint: {stdout}"
        );
    }
}
