# graphrun_warnings(target): the project's warning set, as errors when
# GRAPHRUN_WERROR is on (CI turns it on).
#
# In a unity build (CMAKE_UNITY_BUILD, as CI builds) each .cpp is #included
# into a batch file, so GCC takes it for a header and warns wherever an
# anonymous-namespace type meets a template (-Wsubobject-linkage): the
# warning guards headers shared between translation units, which these are
# not, so it is turned off there.
function(graphrun_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${GRAPHRUN_WERROR}>>:-Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
    $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${GRAPHRUN_WERROR}>>:-Werror=all-warnings>)
  if(CMAKE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-subobject-linkage>)
  endif()
endfunction()
