#!/usr/bin/env bash
# Profile-guided optimisation of a perft built on bitforge, measured against the same build
# without it. Optional: bitforge never needs PGO; this is the path for the last percent, and
# what it buys on this machine.
#
#   1. the perft command built with -Cprofile-generate, run on the ROCE suite (training: other
#      positions than the ones measured);
#   2. the profiles merged with llvm-profdata (rustup's llvm-tools component);
#   3. the perft command built with -Cprofile-use, and built plainly, both --release;
#   4. both run on the five standard positions in interleaved rounds (counts checked), the
#      median Mnps of each printed per position and in total.
#
# Usage: benches/pgo/run.sh [ROUNDS] [BACKEND]   (default 5 rounds, the best backend here)
# For your own engine: the same three steps with your binary and your training run, or
# `cargo pgo` (cargo install cargo-pgo), which wraps them.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
backend=${2:-}
work=$PWD/target/pgo
rm -rf "$work/profiles"
mkdir -p "$work/profiles"

rustup component add llvm-tools >/dev/null 2>&1 || true
profdata=$(find "$(rustc --print sysroot)" -name llvm-profdata -type f | head -n 1)
[[ -x $profdata ]] || { echo "no llvm-profdata: rustup component add llvm-tools" >&2; exit 2; }

# With --target, RUSTFLAGS reach the perft command's crates only, not the build scripts and
# proc macros (whose runs would otherwise write profiles too).
host=$(rustc -vV | sed -n 's/^host: //p')
build() { # target dir, extra RUSTFLAGS
    RUSTFLAGS="${RUSTFLAGS:-} $2" cargo build --release --quiet -p bitforge-benches --bin perft \
        --target "$host" --target-dir "$1"
}
backend_args=()
[[ -n $backend ]] && backend_args=(--backend "$backend")

echo "== training build (-Cprofile-generate) and run on the ROCE suite"
build "$work/generate" "-Cprofile-generate=$work/profiles"
"$work/generate/$host/release/perft" --epd core/tests/perft/roce.epd --max-nodes 20000000 \
    "${backend_args[@]}" | tail -n 3
"$profdata" merge -o "$work/merged.profdata" "$work/profiles"

echo "== the optimised build (-Cprofile-use) and the plain one"
build "$work/use" "-Cprofile-use=$work/merged.profdata"
build "$work/plain" ""

positions=(
    "6 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "5 r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    "6 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
    "5 r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
    "5 rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
)
names=("start d6" "Kiwipete d5" "position 3 d6" "position 4 d5" "position 5 d5")
expected=(119060324 193690690 11030083 15833292 89941194)
runs=$work/runs
: > "$runs"
echo "== $rounds interleaved rounds"
for ((round = 1; round <= rounds; round++)); do
    for i in "${!positions[@]}"; do
        depth=${positions[$i]%% *}
        fen=${positions[$i]#* }
        # Alternate which build goes first.
        order=(plain use)
        ((round % 2 == 0)) && order=(use plain)
        for build in "${order[@]}"; do
            out=$("$work/$build/$host/release/perft" --fen "$fen" --depth "$depth" "${backend_args[@]}")
            echo "$build|$i|$(grep '^nodes' <<<"$out" | cut -d' ' -f2)|$(grep '^time:' <<<"$out" | cut -d' ' -f2)|$(grep '^backend:' <<<"$out" | cut -d' ' -f2)" >> "$runs"
        done
    done
done
python3 - "$runs" "${expected[*]}" "${names[@]}" <<'PY'
import statistics, sys
runs, expected, names = sys.argv[1], [int(n) for n in sys.argv[2].split()], sys.argv[3:]
nodes, times, backends = {}, {}, set()
for line in open(runs):
    build, i, n, t, backend = line.strip().split("|")
    i = int(i)
    backends.add(backend)
    if int(n) != expected[i]:
        sys.exit(f"{build}: {names[i]} gave {n} nodes, not {expected[i]}")
    nodes[i] = int(n)
    times.setdefault((build, i), []).append(float(t))
print(f"backend: {', '.join(sorted(backends))}")
print("| position | plain (Mnps) | PGO (Mnps) | PGO / plain |")
print("| --- | --- | --- | --- |")
total = {"plain": 0.0, "use": 0.0}
for i, name in enumerate(names):
    mnps = {b: nodes[i] / statistics.median(times[(b, i)]) / 1e6 for b in ("plain", "use")}
    for b in total:
        total[b] += statistics.median(times[(b, i)])
    print(f"| {name} | {mnps['plain']:.0f} | {mnps['use']:.0f} | {mnps['use'] / mnps['plain']:.3f} |")
all_nodes = sum(nodes.values())
t = {b: all_nodes / total[b] / 1e6 for b in total}
print(f"| total | {t['plain']:.0f} | {t['use']:.0f} | {t['use'] / t['plain']:.3f} |")
PY
