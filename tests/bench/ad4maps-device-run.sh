#!/usr/bin/env bash
# One device call for the AD4 maps (helper ad4maps): the gpu test and `bench ad4maps` on 1stp,
# 3ce3 and the 30 dock30 complexes, from a build made on the dev machine and carried in CARRY:
#   CARRY/bin/{posewright-cli,gpu_test_ad4_maps_gpu,gpu_test_ad4_map_kernel_math}
#   CARRY/libs.tgz (tools/bundle-libs.sh of those), CARRY/testdata (tests/data subset),
#   CARRY/complexes/<name>/{receptor.pdbqt,<name>.gpf} and CARRY/dock30/<id>/{protein.pdbqt,protein.gpf}
# usage: ad4maps-device-run.sh CARRY TESTDATA_PATH_COMPILED_IN [OUT]
set -uo pipefail
carry=$(cd "$1" && pwd); compiled=$2; out=${3:-/tmp/ad4out}
mkdir -p "$out" "$(dirname "$compiled")"
ln -sfn "$carry/testdata" "$compiled" # the test binaries read their data from the build's path
tar xzf "$carry/libs.tgz" -C /tmp && export LD_LIBRARY_PATH=/tmp/libs
nvidia-smi -L
cli=$carry/bin/posewright-cli
"$carry/bin/gpu_test_ad4_maps_gpu" 2>&1 | tee "$out/gpu_test.txt" | grep -E "QINFO|PASS|FAIL|Totals|SKIP"
"$carry/bin/gpu_test_ad4_map_kernel_math" 2>&1 | grep -E "Totals"
for c in 1stp 3ce3; do
  "$cli" bench ad4maps --gpf "$carry/complexes/$c/$c.gpf" --receptor "$carry/complexes/$c/receptor.pdbqt" \
    --repeat 10 --threads 16 >> "$out/bench.jsonl"
done
for d in "$carry"/dock30/*/; do
  "$cli" bench ad4maps --gpf "$d/protein.gpf" --repeat 10 --threads 16 --no-single-core >> "$out/bench.jsonl"
done
python3 - "$out/bench.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"{'receptor':44s} {'pts':>7s} {'maps':>4s} {'cpu1':>7s} {'cpu16':>7s} {'prep ms':>7s} {'gpu ms':>7s} {'kern ms':>7s} {'out':>4s} {'maxabs':>8s}")
for r in rows:
    print(f"{r['receptor'][-44:]:44s} {r['points']:7d} {r['maps']:4d} {r.get('cpu_1thread_s', float('nan')):7.3f} "
          f"{r['cpu_all_s']:7.3f} {r['prepare_s']*1e3:7.2f} {r.get('gpu_s', float('nan'))*1e3:7.2f} "
          f"{r.get('gpu_kernel_s', float('nan'))*1e3:7.2f} {r.get('gpu_vs_cpu_outside', -1):4d} "
          f"{r.get('gpu_vs_cpu_max_abs_diff_below_1000', float('nan')):8.2e}")
PY
