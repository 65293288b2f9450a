# Keeps the first 1000 MODELs of a 1iep multi-MODEL PDBQT whose every atom lies inside the box
# of tests/data/complexes/1iep/box.txt (Vina 1.2.3 stops a whole --batch at the first ligand outside its grid).
/^MODEL/ { buf = ""; ok = 1 }
/^(ATOM|HETATM)/ { x = substr($0,31,8)+0; y = substr($0,39,8)+0; z = substr($0,47,8)+0;
  if (x < 5.19 || x > 25.19 || y < 43.903 || y > 63.903 || z < 6.917 || z > 26.917) ok = 0 }
{ buf = buf $0 "\n" }
/^ENDMDL/ { if (ok && kept < 1000) { printf "%s", buf; kept++ } }
