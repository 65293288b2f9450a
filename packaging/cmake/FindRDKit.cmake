# FindRDKit: Debian's RDKit ships no CMake config; locate headers and the libraries we use.
# Defines RDKit_FOUND and the imported target RDKit::RDKit.
find_path(RDKit_INCLUDE_DIR GraphMol/ROMol.h PATH_SUFFIXES rdkit HINTS /usr/include /usr/local/include)
set(_rdkit_libs
  SmilesParse FileParsers DistGeomHelpers ForceFieldHelpers ForceField PartialCharges
  MolChemicalFeatures ChemicalFeatures Depictor Descriptors ChemTransforms Fingerprints Subgraphs SubstructMatch MolTransforms DistGeometry
  Alignment Optimizer EigenSolvers GraphMol RDGeometryLib DataStructs RingDecomposerLib RDGeneral)
set(RDKit_LIBRARIES)
set(_rdkit_missing)
foreach(_lib ${_rdkit_libs})
  find_library(RDKit_${_lib}_LIBRARY NAMES RDKit${_lib} HINTS /usr/lib /usr/local/lib)
  if(RDKit_${_lib}_LIBRARY)
    list(APPEND RDKit_LIBRARIES ${RDKit_${_lib}_LIBRARY})
  else()
    list(APPEND _rdkit_missing ${_lib})
  endif()
endforeach()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(RDKit REQUIRED_VARS RDKit_INCLUDE_DIR RDKit_GraphMol_LIBRARY
  REASON_FAILURE_MESSAGE "install librdkit-dev (missing: ${_rdkit_missing})")
if(RDKit_FOUND AND NOT TARGET RDKit::RDKit)
  find_package(Boost REQUIRED)
  add_library(RDKit::RDKit INTERFACE IMPORTED)
  set_target_properties(RDKit::RDKit PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${RDKit_INCLUDE_DIR};${Boost_INCLUDE_DIRS}"
    INTERFACE_LINK_LIBRARIES "${RDKit_LIBRARIES}")
endif()
