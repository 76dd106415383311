# Script mode: install, build the consumer against the install, run it.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${WORK_DIR}/prefix)
# A library built with sanitizers (GRAPHRUN_SANITIZE) needs them in the
# consumer's link too.
set(sanitize_flags)
if(SANITIZE)
  set(sanitize_flags -DCMAKE_CXX_FLAGS=-fsanitize=${SANITIZE}
                     -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE})
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release ${sanitize_flags})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/top_pagerank ${DATASET})
# Zachary's karate club (ids from 0): the administrator (33) and the
# instructor (0) lead.
string(REGEX MATCH "^[0-9]+" first "${last_output}")
if(NOT (first STREQUAL "33" OR first STREQUAL "0"))
  message(FATAL_ERROR "unexpected top vertex '${first}' in:\n${last_output}")
endif()
message(STATUS "consumer output:\n${last_output}")
