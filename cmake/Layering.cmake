# The layering of the core, declared next to its targets and enforced at build time.
#
# Every include is rooted at the repository root, so include directories cannot stop a file from
# naming any header. Instead tools/layering/layering_check reads the graph recorded here and fails
# the build on an include that crosses it (see that file for the three rules). Every concern target
# depends on the check, so building anything runs it first.

# netgraph_concern(<name> DIRECTORY <dir> [EXECUTABLE] DEPENDS <concerns...> [TESTS <dirs...>])
# Adds the static library <name> (with EXECUTABLE, the program <name>) for the sources under <dir>
# (relative to the repository root; its own CMakeLists.txt adds them), linked to the concerns it
# depends on (PUBLIC for a library), and records the concern for the check. A file belongs to the
# concern whose directory is the longest prefix of its path, so a program's folder may hold the
# folders of other concerns (fcgi/ and fcgi/pool/). Headers under <dir>/internal/ are private:
# only the concern itself and its unit tests (TESTS, directories relative to the root) may include
# them.
function(netgraph_concern name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "EXECUTABLE" "DIRECTORY" "DEPENDS;TESTS")
  if(arg_EXECUTABLE)
    add_executable(${name})
    set(scope PRIVATE)
  else()
    add_library(${name} STATIC)
    set(scope PUBLIC)
  endif()
  target_include_directories(${name} ${scope} ${PROJECT_SOURCE_DIR})
  if(arg_DEPENDS)
    target_link_libraries(${name} ${scope} ${arg_DEPENDS})
  endif()
  add_dependencies(${name} layering_check)
  set(line "concern ${name} ${arg_DIRECTORY}/ depends ${arg_DEPENDS}")
  if(arg_TESTS)
    list(TRANSFORM arg_TESTS APPEND /)
    string(APPEND line " tests ${arg_TESTS}")
  endif()
  string(REPLACE ";" " " line "${line}")
  set_property(GLOBAL APPEND PROPERTY NETGRAPH_LAYERING_SPEC "${line}")
endfunction()

# netgraph_forbid_includes(FROM <dir> TO <dirs...>): files under FROM may include nothing under TO.
function(netgraph_forbid_includes)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "FROM" "TO")
  list(TRANSFORM arg_TO APPEND /)
  string(REPLACE ";" " " to "${arg_TO}")
  set_property(GLOBAL APPEND PROPERTY NETGRAPH_LAYERING_SPEC "forbid ${arg_FROM}/ ${to}")
endfunction()

# The checker itself (a plain program: it runs before any of the core is compiled) and the
# target that runs it over the tree on every build.
set(NETGRAPH_LAYERING_SPEC_FILE ${PROJECT_BINARY_DIR}/layering.spec)
set(NETGRAPH_LAYERING_SCANNED core daemon fcgi ws cli tests bench)
add_executable(layering_check_tool ${PROJECT_SOURCE_DIR}/tools/layering/layering_check.cc)
set_target_properties(layering_check_tool PROPERTIES OUTPUT_NAME layering_check)
add_custom_target(layering_check ALL
  COMMAND layering_check_tool ${PROJECT_SOURCE_DIR} ${NETGRAPH_LAYERING_SPEC_FILE}
          ${NETGRAPH_LAYERING_SCANNED}
  COMMENT "Checking the layering of includes"
  VERBATIM)

# Writes the spec the checker reads; called once, after every concern has been declared.
function(netgraph_write_layering_spec)
  get_property(lines GLOBAL PROPERTY NETGRAPH_LAYERING_SPEC)
  list(JOIN lines "\n" content)
  file(CONFIGURE OUTPUT ${NETGRAPH_LAYERING_SPEC_FILE} CONTENT "${content}\n" @ONLY)
endfunction()
