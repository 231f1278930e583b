# Renders the Graphviz output of `declone opt --dot` for the examples and every corpus dump with
# Debian's dot, and fails unless each run succeeds and yields an SVG document.
# Usage: cmake -DDECLONE=... -DDOT=... -DOUT=dir -DINPUTS="a;b;..." -P RenderDot.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(count 0)
foreach(input IN LISTS INPUTS)
  get_filename_component(name ${input} NAME_WE)
  set(dot_file ${OUT}/${count}-${name}.dot)
  set(svg_file ${OUT}/${count}-${name}.svg)
  math(EXPR count "${count} + 1")
  execute_process(COMMAND ${DECLONE} opt ${input} --dot ${dot_file}
    OUTPUT_QUIET ERROR_VARIABLE declone_error RESULT_VARIABLE declone_status)
  if(NOT declone_status EQUAL 0)
    message(FATAL_ERROR "declone opt --dot failed (${declone_status}) on ${input}: ${declone_error}")
  endif()
  execute_process(COMMAND ${DOT} -Tsvg ${dot_file} -o ${svg_file}
    ERROR_VARIABLE dot_error RESULT_VARIABLE dot_status)
  if(NOT dot_status EQUAL 0 OR NOT dot_error STREQUAL "")
    message(FATAL_ERROR "dot -Tsvg failed (${dot_status}) on ${dot_file}: ${dot_error}")
  endif()
  file(READ ${svg_file} svg LIMIT 4096)
  if(NOT svg MATCHES "<svg")
    message(FATAL_ERROR "${svg_file} is not an SVG document")
  endif()
endforeach()
message(STATUS "rendered ${count} pictures in ${OUT}")
