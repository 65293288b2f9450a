#!/usr/bin/env bash
# One device call for the AD4 maps (helper ad4maps): the gpu tests, autogrid4 4.2.6 (Debian's
# binary, carried) for the reference maps and its one-core times, then `bench ad4maps` on 1stp,
# 3ce3 and the 30 dock30 complexes (CPU one core for a few, all cores, GPU, agreement with
# autogrid4), from a build made on the dev machine and carried in CARRY:
#   CARRY/bin/{posewright-cli,gpu_test_ad4_maps_gpu,gpu_test_ad4_map_kernel_math,autogrid4}
#   CARRY/libs.tgz (tools/bundle-libs.sh of those), CARRY/testdata (tests/data subset),
#   CARRY/complexes/<name>/{receptor.pdbqt,<name>.gpf}, CARRY/dock30/<id>/{protein.pdbqt,protein.gpf}
# usage: ad4maps-device-run.sh CARRY TESTDATA_PATH_COMPILED_IN OUT
set -uo pipefail
carry=$(cd "$1" && pwd); compiled=$2; out=$3
mkdir -p "$out" "$(dirname "$compiled")"
[ -e "$compiled" ] || ln -sfn "$carry/testdata" "$compiled" # the tests read data from the build's path
tar xzf "$carry/libs.tgz" -C /tmp && export LD_LIBRARY_PATH=/tmp/libs
nvidia-smi -L | tee "$out/device.txt"
cli=$carry/bin/posewright-cli
ag=$carry/bin/autogrid4
timeout 120 "$carry/bin/gpu_test_ad4_maps_gpu" > "$out/gpu_test.txt" 2>&1; echo "gpu_test_ad4_maps_gpu rc=$?"
grep -E "QINFO|FAIL|Totals|SKIP" "$out/gpu_test.txt"
timeout 60 "$carry/bin/gpu_test_ad4_map_kernel_math" 2>&1 | grep -E "Totals"

# autogrid4 reference maps, 16 at a time (one core each).
run=/tmp/agrun; mkdir -p $run
for d in "$carry"/dock30/*/; do c=$(basename "$d"); mkdir -p $run/$c; cp "$d"/protein.* $run/$c/; done
for c in 1stp 3ce3; do mkdir -p $run/$c; cp "$carry"/complexes/$c/* $run/$c/; done
export ag
ls -d $run/* | timeout 150 xargs -P 16 -I{} bash -c 'cd {} && s=$(date +%s.%N) && "$ag" -p *.gpf -l ag.glg > /dev/null 2>&1; e=$(date +%s.%N); echo "$(basename {}) parallel16 $s $e"' > "$out/autogrid_times.txt"
# One-core figures side by side, alone on the machine: autogrid4 and posewright's CPU builder.
single="1stp 3ce3 1r55 2bsm 5wlo"
for c in $single; do
  ( cd $run/$c && s=$(date +%s.%N) && "$ag" -p *.gpf -l ag2.glg > /dev/null 2>&1; e=$(date +%s.%N); echo "$c alone $s $e" ) >> "$out/autogrid_times.txt"
done
for c in $(ls $run); do
  gpf=$(ls $run/$c/*.gpf); prefix=$run/$c/protein.; [ -e $run/$c/${c}_protein.e.map ] && prefix=$run/$c/${c}_protein.
  opt="--no-single-core"; [[ " $single " == *" $c "* ]] && opt=""
  rec=$run/$c/protein.pdbqt; [ -e $rec ] || rec=$run/$c/receptor.pdbqt
  timeout 60 "$cli" bench ad4maps --gpf "$gpf" --receptor "$rec" --reference "$prefix" --repeat 10 --threads 16 $opt >> "$out/bench.jsonl" 2>> "$out/bench.err"
done
python3 - "$out" <<'PY'
import json, sys, collections
out = sys.argv[1]
ag = collections.defaultdict(dict)
for l in open(out + "/autogrid_times.txt"):
    c, mode, s, e = l.split(); ag[c][mode] = float(e) - float(s)
rows = [json.loads(l) for l in open(out + "/bench.jsonl")]
print(f"{'id':5s} {'atoms':>5s} {'points':>7s} {'maps':>4s} {'ag1 s':>6s} {'ag1|16':>6s} {'cpu1 s':>6s} {'cpu16':>6s} {'prep ms':>7s} {'gpu ms':>7s} {'kern ms':>7s} {'refout':>6s} {'gpuout':>6s}")
for r in rows:
    c = r['receptor'].split('/')[-2]
    print(f"{c:5s} {r['atoms']:5d} {r['points']:7d} {r['maps']:4d} {ag[c].get('alone', float('nan')):6.2f} {ag[c].get('parallel16', float('nan')):6.2f} "
          f"{r.get('cpu_1thread_s', float('nan')):6.2f} {r['cpu_all_s']:6.3f} {r['prepare_s']*1e3:7.2f} {r.get('gpu_s', float('nan'))*1e3:7.2f} "
          f"{r.get('gpu_kernel_s', float('nan'))*1e3:7.2f} {r.get('reference_outside_tolerance', -1):6d} {r.get('gpu_vs_cpu_outside', -1):6d}")
tot = sum(r.get('reference_values', 0) for r in rows); bad = sum(r.get('reference_outside_tolerance', 0) for r in rows)
print(f"complexes {len(rows)}; values vs autogrid4 {tot}, outside tolerance {bad}; GPU vs CPU outside {sum(r.get('gpu_vs_cpu_outside', 0) for r in rows)}")
PY
