# RTL flow helpers (rtl/README.md "The flow"): VHDL -> GHDL testbench ->
# Verilog (ghdl synth) -> Verilator C++ model.
#
#   l3vp_ghdl_test(NAME <test> TOP <tb entity> SOURCES <vhdl...> [ARGS <run args...>]
#                  [LABELS <labels...>] [TIMEOUT <s>])
#       A CTest test that analyses SOURCES (VHDL-2008) in a private work
#       library, elaborates TOP and runs it. The testbench passes when GHDL
#       exits 0 and its output holds a line "PASS" (or a `report "PASS"` note); a failed `assert ...
#       severity failure` or a missing PASS line fails the test.
#
#   l3vp_rtl_verilate(<target> TOP <entity> SOURCES <vhdl...> [TRACE]
#                     [VERILATOR_ARGS <args...>])
#       A static library <target> holding the Verilator C++ model of TOP
#       (class V<TOP>, header V<TOP>.h), made from the Verilog that
#       `ghdl synth --out=verilog` writes for TOP. TRACE adds Verilator's VCD
#       tracing (--trace). The Verilog lands in the build tree as
#       <target>_gen/<TOP>.v; it is made at configure time (verilate() needs
#       it then), and a change of a source re-runs the configuration.
#       VERILATOR_ARGS are added to Verilator's command line (e.g. --savable
#       for a model whose state is copied by serialisation).
#
# GHDL and Verilator are required (scripts/setup installs them): without
# either, configuring fails with a message naming the Debian package. The
# RTL tests never skip.

find_program(GHDL_EXECUTABLE ghdl)
if(NOT GHDL_EXECUTABLE)
  message(FATAL_ERROR "ghdl not found: install the Debian package 'ghdl' (scripts/setup)")
endif()
find_package(verilator HINTS /usr/share/verilator $ENV{VERILATOR_ROOT})
if(NOT verilator_FOUND)
  message(FATAL_ERROR "Verilator not found: install the Debian package 'verilator' (scripts/setup)")
endif()

set(L3VP_RTL_RUN_GHDL_TEST ${CMAKE_CURRENT_LIST_DIR}/run_ghdl_test.cmake)

function(l3vp_ghdl_test)
  cmake_parse_arguments(A "" "NAME;TOP;TIMEOUT" "SOURCES;ARGS;LABELS" ${ARGN})
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 300)
  endif()
  set(work ${CMAKE_CURRENT_BINARY_DIR}/ghdl-${A_NAME})
  add_test(NAME ${A_NAME}
    COMMAND ${CMAKE_COMMAND} -DGHDL=${GHDL_EXECUTABLE} -DWORK=${work} -DTOP=${A_TOP}
      "-DSOURCES=${A_SOURCES}" "-DARGS=${A_ARGS}" -P ${L3VP_RTL_RUN_GHDL_TEST})
  set_tests_properties(${A_NAME} PROPERTIES LABELS "rtl;${A_LABELS}" TIMEOUT ${A_TIMEOUT})
endfunction()

function(l3vp_rtl_verilate target)
  cmake_parse_arguments(A "TRACE" "TOP" "SOURCES;VERILATOR_ARGS" ${ARGN})
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/${target}_gen)
  set(vlog ${gen}/${A_TOP}.v)
  # verilate() runs Verilator at configure time (to learn the generated
  # files), so the Verilog is made at configure time too; a change of a VHDL
  # source re-runs the configuration.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${A_SOURCES})
  file(MAKE_DIRECTORY ${gen}/work)
  execute_process(COMMAND ${GHDL_EXECUTABLE} -a --std=08 --workdir=${gen}/work ${A_SOURCES}
    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ghdl -a (${A_TOP}) failed:\n${err}")
  endif()
  execute_process(COMMAND ${GHDL_EXECUTABLE} synth --std=08 --workdir=${gen}/work --out=verilog ${A_TOP}
    RESULT_VARIABLE rc OUTPUT_FILE ${vlog}.tmp ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ghdl synth ${A_TOP} failed:\n${err}")
  endif()
  # GHDL 2.0 writes a constant of a record type (e.g. a reset aggregate) as a
  # quoted bit string, which Verilog reads as ASCII text: refuse such a
  # netlist (rtl/gptimer/README.md "GHDL 2.0 synthesis pitfalls").
  file(STRINGS ${vlog}.tmp quoted REGEX "= [^;]*\"[01]+\"")
  if(quoted)
    message(FATAL_ERROR "ghdl synth ${A_TOP}: the netlist holds a bit string in quotes (GHDL 2.0 writes "
      "record constants that way, and Verilog reads it as text): assign the record's fields one by one")
  endif()
  # Rewritten only when it changed: an unchanged netlist rebuilds nothing.
  file(COPY_FILE ${vlog}.tmp ${vlog} ONLY_IF_DIFFERENT)
  add_library(${target} STATIC)
  set(trace)
  if(A_TRACE)
    set(trace TRACE)
  endif()
  # -Wno-fatal: GHDL's netlist style (unused intermediate wires, widths of
  # constants) gives lint warnings that are not errors.
  verilate(${target} SOURCES ${vlog} TOP_MODULE ${A_TOP} PREFIX V${A_TOP} ${trace}
    DIRECTORY ${gen}/obj VERILATOR_ARGS -Wno-fatal -Wno-lint -Wno-style -O3 ${A_VERILATOR_ARGS})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  # Verilator's generated code is not -Wextra clean.
  target_compile_options(${target} PRIVATE -w)
endfunction()
