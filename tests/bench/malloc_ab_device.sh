#!/bin/bash
# Fourteenth session: A/B of posewright-cli's allocator policy (engine/cli/main.cpp,
# keepFreedMemoryForReuse) on a 2-GPU machine: `bench minimize` (2M 1iep poses) and the `minimize`
# command (200k poses SDF to ranked SDF) on cuda:0 and cuda:all, old binary against new, with
# /usr/bin/time's system CPU, and the four ranked outputs' checksums (they must be equal).
# Carried folder .carry14 (session14_device.sh's) with bin/ holding the build without the policy
# and new.xz the build with it (`xz -9 -c posewright-cli > .carry14/new.xz`, stripped).
# Usage, from the repository root on the device: bash tests/bench/malloc_ab_device.sh
export C=.carry14; bash tests/bench/session14_device.sh >/dev/null 2>&1; C=$PWD/.carry14; export LD_LIBRARY_PATH=$C/libs
xz -dc $C/new.xz > /tmp/new-cli && chmod +x /tmp/new-cli
D=tests/data/complexes/1iep; T="--receptor $D/receptor.pdbqt --box $D/box.txt"
$C/bin/posewright-cli bench minimize $T --ligand $D/ligand_xtal.pdbqt --poses 200000 --seed 1 --device cuda:0 --write-poses /tmp/poses.sdf >/dev/null 2>&1
for bin in old new; do B=$C/bin/posewright-cli; [ $bin = new ] && B=/tmp/new-cli
  for dev in cuda:0 cuda:all; do
    /usr/bin/time -f "wall %e user %U sys %S" timeout 100 $B bench minimize $T --ligand $D/ligand_xtal.pdbqt --poses 2000000 --seed 1 --repeat 1 --timings --device $dev > /tmp/o.txt 2> /tmp/e.txt
    echo "bench $bin $dev: $(grep -oE '"poses_per_second":[0-9.]*' /tmp/o.txt | tail -1) $(tail -1 /tmp/e.txt) unpack $(grep -E ' unpack ' /tmp/e.txt | awk '{print $3}' | tr '\n' ' ')"
    /usr/bin/time -f "wall %e user %U sys %S" timeout 100 $B minimize $T --ligands /tmp/poses.sdf --device $dev --out /tmp/min_${bin}_${dev}.sdf > /dev/null 2> /tmp/e2.txt
    echo "minimize $bin $dev: $(tail -1 /tmp/e2.txt)"
  done
done
for f in /tmp/min_*.sdf; do echo "$(md5sum < $f | cut -c1-12) $f"; done
