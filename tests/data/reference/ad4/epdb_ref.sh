#!/bin/bash
# Usage: epdb_ref.sh MAPDIR FLDNAME LIGAND LABEL  -> one TSV line of autodock4 epdb values
mapdir=$1; fld=$2; lig=$3; label=$4
w=$(mktemp -d /tmp/ad4s/run.XXXX); cp "$lig" $w/lig.pdbqt; cd $w
stem=${fld%.maps.fld}
lt=$(awk '/^label=.*-affinity/{sub("label=","");sub("-affinity.*","");printf "%s ",$0}' $mapdir/$fld)
{ echo "outlev 1"; echo "ligand_types $lt"; echo "fld $mapdir/$fld"; for t in $lt; do echo "map $mapdir/$stem.$t.map"; done
  echo "elecmap $mapdir/$stem.e.map"; echo "desolvmap $mapdir/$stem.d.map"; echo "move lig.pdbqt"; echo "epdb"; } > epdb.dpf
autodock4 -p epdb.dpf -l epdb.dlg >/dev/null 2>&1
if ! grep -q "Successful Completion" epdb.dlg; then echo "FAILED $label $w" >&2; exit 1; fi
awk -v L="$label" '
/^Total Intermolecular Interaction Energy/{inter=$(NF-1)}
/^Total Intermolecular vdW \+ Hbond \+ desolv Energy/{vdw=$(NF-1)}
/^Total Intermolecular Electrostatic Energy/{el=$(NF-1)}
/^Total Intermolecular \+ Intramolecular Energy/{ii=$(NF-1)}
/^Total Intramolecular Interaction Energy/{intra=$(NF-1)}
/^Estimated loss of torsional free energy/{tors=$(NF-1)}
/Estimated Free Energy of Binding/{feb=$(NF-2)}
/Unbound System.s Energy/{unb=$(NF-1)}
/Ligand Intramolecular Energy Analysis/{f=1}
/Per-atom Intramolecular/{f=0}
f&&/^ +[0-9]+ +[0-9]+-[0-9]+ /{nb++}
END{ if(intra=="") intra="0"; printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", L, inter, vdw, el, intra, ii, tors, unb, feb, nb}' epdb.dlg
cd /; rm -rf $w
