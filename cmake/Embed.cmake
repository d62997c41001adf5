# netgraph_embed(<output.cc> <namespace> <function> <files...>)
# Generates a C++ source defining
#   const std::vector<netgraph::EmbeddedFile>& <namespace>::<function>();
# that returns the files' names (without directory) and bytes, in name order. The files are read at
# build time, so a binary carries its SQL migrations and its schema with it.
function(netgraph_embed output namespace function)
  set(files ${ARGN})
  list(SORT files)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DNAMESPACE=${namespace} -DFUNCTION=${function}
            "-DFILES=${files}" -P ${PROJECT_SOURCE_DIR}/cmake/EmbedScript.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/EmbedScript.cmake
    COMMENT "Embedding ${function}"
    VERBATIM)
  # The consuming target may live in another directory, which does not see this directory's custom
  # commands: a custom target carries the dependency across.
  add_custom_target(embed_${function} DEPENDS ${output})
endfunction()
