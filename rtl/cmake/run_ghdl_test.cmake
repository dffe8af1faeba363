# Runs one GHDL testbench (called by l3vp_ghdl_test through cmake -P).
# -DGHDL -DWORK -DTOP -DSOURCES (;-list) -DARGS (;-list of run options)
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${GHDL} -a --std=08 --workdir=${WORK} ${SOURCES}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ghdl -a failed:\n${out}")
endif()
execute_process(COMMAND ${GHDL} --elab-run --std=08 --workdir=${WORK} ${TOP} ${ARGS}
  WORKING_DIRECTORY ${WORK}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "testbench ${TOP}: ghdl exit ${rc}")
endif()
if(NOT out MATCHES "(^|\n|: )PASS(\n|$)")
  message(FATAL_ERROR "testbench ${TOP}: no PASS line")
endif()
