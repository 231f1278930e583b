# Writes the man page and the bash/zsh completions with `declone generate` (a POST_BUILD step).
# Usage: cmake -DDECLONE=path/to/declone -DOUT=share-folder -P GenerateDocs.cmake
foreach(item "man;man/man1/declone.1" "bash;bash-completion/completions/declone"
             "zsh;zsh/site-functions/_declone")
  list(GET item 0 what)
  list(GET item 1 path)
  get_filename_component(folder ${OUT}/${path} DIRECTORY)
  file(MAKE_DIRECTORY ${folder})
  execute_process(COMMAND ${DECLONE} generate ${what} OUTPUT_FILE ${OUT}/${path}
                  RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "declone generate ${what} failed: ${result}")
  endif()
endforeach()
