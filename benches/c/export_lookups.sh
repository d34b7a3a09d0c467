#!/usr/bin/env bash
# Lookup speed through magic-search's C exports: the core's three sets and the PEXT tables (the
# u64 table with PEXT, the u16 one with PEXT and PDEP, and the portable fallback), each built
# with gcc -O2 and run in interleaved rounds; prints the median ns per lookup.
# Usage: benches/c/export_lookups.sh [ROUNDS]   (default 11; needs gcc and a BMI2 CPU)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-11}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cargo build --release -q -p magic-search
names=()
for set in black-packed fancy fancy-combined; do
    target/release/magic-search export "core/magics/$set.magics" --format c --out "$dir/$set.h"
    gcc -O2 -DHEADER="\"$set.h\"" -DROOK=bitforge_rook_attacks -DBISHOP=bitforge_bishop_attacks \
        -I"$dir" benches/c/export_lookups.c -o "$dir/$set"
    names+=("$set")
done
target/release/magic-search export --pext --format c --out "$dir/pext.h"
build_pext() {
    gcc -O2 "$2" -DHEADER='"pext.h"' -DROOK="bitforge_rook_attacks$3" \
        -DBISHOP="bitforge_bishop_attacks$3" -I"$dir" benches/c/export_lookups.c -o "$dir/$1"
    names+=("$1")
}
build_pext pext -mbmi2 ""
build_pext pext-pdep -mbmi2 _pdep
build_pext pext-portable -mno-bmi2 ""
for ((round = 1; round <= rounds; round++)); do
    for name in "${names[@]}"; do
        echo "$name $("$dir/$name")"
    done
done > "$dir/runs"
python3 - "$dir/runs" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, throughput, latency, checksum = line.split()
    runs.setdefault(name, []).append((float(throughput), float(latency), checksum))
if len({r[2] for rs in runs.values() for r in rs}) != 1:
    sys.exit("the builds disagree on the checksum")
print("| export | throughput (ns/lookup) | latency (ns/lookup) |")
print("| --- | --- | --- |")
for name, rs in runs.items():
    print(f"| {name} | {statistics.median(r[0] for r in rs):.2f} | {statistics.median(r[1] for r in rs):.2f} |")
PY
