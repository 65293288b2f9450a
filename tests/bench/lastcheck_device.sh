#!/usr/bin/env bash
# A short device check (lead, third session): gpu_test_lingo_cuda with a backtrace if it crashes
# (gdb when the machine has it; else its verbose log), and the docking suites after the fix of
# the device map caches (keyed by the maps' InstanceId, not their address).
# C (default .carry-d): bin.tar.xz (bin/gpu_test_*), libs.tar.xz, ad4.tar.xz (ad4/<id>/),
# shared/smiles/nci_first_5k.smi, BUILT_AT.
set -uo pipefail
C=$(cd "${C:-.carry-d}" && pwd)
for t in bin libs ad4; do [ -d "$C/$t" ] || tar -C "$C" -xJf "$C/$t.tar.xz"; done
export LD_LIBRARY_PATH=$C/libs CUDA_VISIBLE_DEVICES=${GPU:-0}
B=$(cat "$C/BUILT_AT")
mkdir -p "$B/tests" "$B/../shared/data/complexes/1stp" "$B/../shared/data/complexes/3ce3"
[ -e "$B/tests/data" ] || ln -s "$PWD/tests/data" "$B/tests/data"
[ -e "$B/../shared/data/smiles" ] || ln -s "$C/shared/smiles" "$B/../shared/data/smiles"
for id in 1stp 3ce3; do
    [ -e "$B/../shared/data/complexes/$id/ad4maps" ] || ln -s "$C/ad4/$id" "$B/../shared/data/complexes/$id/ad4maps"
done
ls -la "$B/../shared/data/smiles/" | tail -2
timeout 90 "$C/bin/gpu_test_lingo_cuda" -v2 > /tmp/lingo.log 2>&1
echo "gpu_test_lingo_cuda rc=$?"
grep -E "^(PASS|FAIL|QINFO|Totals)|Start testing|Signal|Received" /tmp/lingo.log | tail -15
tail -5 /tmp/lingo.log
if command -v gdb > /dev/null; then
    timeout 120 gdb -batch -ex run -ex bt --args "$C/bin/gpu_test_lingo_cuda" 2>&1 | grep -A25 "SIGSEGV" | head -30
fi
for t in ${SUITES:-gpu_test_dock_gpu_ad4 gpu_test_dock_gpu}; do
    timeout 150 "$C/bin/$t" > /tmp/$t.log 2>&1
    echo "$t rc=$? $(grep -E '^Totals' /tmp/$t.log)"
    grep -E "^FAIL|QINFO.*(AD4:|top cluster)" -A1 /tmp/$t.log | cut -c1-250 | head -10
done
