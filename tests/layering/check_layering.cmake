# Layering check (ARCHITECTURE.md section 2), run as `cmake -DENGINE=<engine dir> -P <this file>`:
# every engine module may include only the modules below it, no engine file includes Qt or VTK,
# and only engine/chem includes RDKit. Fails with one line per offending include.
cmake_minimum_required(VERSION 3.25)
if(NOT ENGINE OR NOT IS_DIRECTORY "${ENGINE}")
  message(FATAL_ERROR "check_layering: pass -DENGINE=<path to engine/>")
endif()

# module -> the engine modules its files may include (itself included).
set(_allowed_core core)
# chem turns RDKit's pharmacophore features into shape's RDKit-free model (chem/ShapeFeatures.h).
set(_allowed_chem core chem shape)
set(_allowed_score core score)
set(_allowed_minimize core score minimize)
set(_allowed_dock core score minimize dock)
set(_allowed_shape core shape)
set(_allowed_lingo core lingo)
set(_allowed_backend core score minimize dock shape lingo backend)
set(_allowed_cuda core score minimize dock shape lingo backend cuda)
set(_allowed_hits core chem lingo hits)
set(_allowed_cli core chem score minimize dock shape lingo backend cuda hits cli)
set(_modules core chem score minimize dock shape lingo backend cuda hits cli)

set(_problems "")
foreach(_module ${_modules})
  file(GLOB_RECURSE _files "${ENGINE}/${_module}/*.h" "${ENGINE}/${_module}/*.cpp"
       "${ENGINE}/${_module}/*.cu" "${ENGINE}/${_module}/*.cuh")
  foreach(_file ${_files})
    file(STRINGS "${_file}" _includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
    file(RELATIVE_PATH _rel "${ENGINE}" "${_file}")
    foreach(_line ${_includes})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*([\"<])([^\">]*)[\">].*" "\\1\\2" _inc "${_line}")
      string(SUBSTRING "${_inc}" 0 1 _delimiter) # < for a system/library header
      string(SUBSTRING "${_inc}" 1 -1 _inc)
      if(_inc MATCHES "^(core|chem|score|minimize|dock|shape|lingo|backend|cuda|hits|cli)/")
        set(_target "${CMAKE_MATCH_1}")
        if(NOT _target IN_LIST _allowed_${_module})
          list(APPEND _problems "engine/${_rel}: ${_module} includes ${_inc} (a layer above it)")
        endif()
      endif()
      if(_delimiter STREQUAL "<" AND _inc MATCHES "^(Q[A-Za-z]+|qt[A-Za-z]*/|vtk)")
        list(APPEND _problems "engine/${_rel}: includes ${_inc} (the engine never uses Qt or VTK)")
      endif()
      if(NOT _module STREQUAL "chem" AND
         _inc MATCHES "^(GraphMol|RDGeneral|DataStructs|ForceField|Geometry|Numerics)/")
        list(APPEND _problems "engine/${_rel}: includes ${_inc} (only engine/chem uses RDKit)")
      endif()
    endforeach()
  endforeach()
endforeach()

if(_problems)
  list(LENGTH _problems _n)
  string(REPLACE ";" "\n" _text "${_problems}")
  message(FATAL_ERROR "${_n} include(s) break the layering:\n${_text}")
endif()
message(STATUS "engine layering: every include points down")
