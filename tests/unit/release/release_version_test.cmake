# Checks cmake/ReleaseVersion.cmake: each `git describe` form gives the version its header says,
# and dpkg orders the versions of successive builds as the commits came (cmake -P this file).
include(${NETGRAPH_SOURCE_DIR}/cmake/ReleaseVersion.cmake)

function(expect describe count commit expected)
  netgraph_version_from_describe("${describe}" "${count}" "${commit}" 0.1.0 version)
  if(NOT version STREQUAL expected)
    message(FATAL_ERROR "'${describe}' (${count} ${commit}): expected ${expected}, got ${version}")
  endif()
endfunction()

expect(v0.1.0-0-g1a2b3c4d5e6f "" 1a2b3c4d5e6f 0.1.0)
expect(v0.1.0-5-g1a2b3c4d5e6f "" 1a2b3c4d5e6f 0.1.0+5.g1a2b3c4d5e6f)
expect(v0.3.0-rc1-2-gabcdefabcdef "" abcdefabcdef 0.3.0~rc1+2.gabcdefabcdef)
expect("" 123 1a2b3c4d5e6f 0.1.0+0~git123.g1a2b3c4d5e6f)
expect("" "" unknown 0.1.0)

# Each version must sort after the one before it (Debian revision -1 on all, as the package has;
# the first is what every build was before versions came from git).
set(ordered
    0.1.0-1
    0.1.0+0~git40.gffffffffffff-1
    0.1.0+0~git41.g000000000000-1
    0.1.0+1.gffffffffffff-1
    0.1.0+9.g000000000000-1
    0.1.0+10.gaaaaaaaaaaaa-1
    0.2.0~rc1-1
    0.2.0~rc1+3.g111111111111-1
    0.2.0-1
    0.2.0+1.g222222222222-1)
find_program(DPKG dpkg REQUIRED)
list(LENGTH ordered n)
math(EXPR last "${n} - 2")
foreach(i RANGE ${last})
  math(EXPR j "${i} + 1")
  list(GET ordered ${i} older)
  list(GET ordered ${j} newer)
  execute_process(COMMAND ${DPKG} --compare-versions ${older} lt ${newer} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "dpkg does not order ${older} before ${newer}")
  endif()
endforeach()
message(STATUS "release versions: every form as documented, in dpkg's order")
