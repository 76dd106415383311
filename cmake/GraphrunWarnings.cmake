# graphrun_warnings(target): the project's warning set, as errors when
# GRAPHRUN_WERROR is on (CI turns it on).
function(graphrun_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${GRAPHRUN_WERROR}>>:-Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
    $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${GRAPHRUN_WERROR}>>:-Werror=all-warnings>)
endfunction()
