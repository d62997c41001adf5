# The release version of a build, from git: the nearest tag vX.Y.Z (or vX.Y.Z-rc1) before HEAD and
# the commits since it, in a form that dpkg (and apt) orders the way the commits came:
#
#   at the tag v0.2.0                       0.2.0
#   5 commits after it                      0.2.0+5.g1a2b3c4d5e6f
#   a release candidate tag v0.3.0-rc1      0.3.0~rc1   (before 0.3.0, after every 0.2.0 build)
#   no tag (a clone without tags)           0.2.0+0~git123.g1a2b3c4d5e6f   (123: commits in all;
#                                           after 0.2.0 itself, before 0.2.0+1.g... of a clone with
#                                           the tag: such a build is never taken for a newer one)
#   no git at all (a source tarball)        0.2.0, the project() version
#
# The project() version in the top-level CMakeLists.txt is the release the tree was last tagged as;
# a release commit sets it and is tagged v<that version> (docs/operations.md, "Releases").
# tests/unit/release_version_test.cmake checks these forms and their order with dpkg.

# Turns `git describe --tags --long --match "v[0-9]*" --abbrev=12` output (empty when there is no
# tag) and, without a tag, the commit count and hash, into the version above.
function(netgraph_version_from_describe describe count commit fallback out)
  if(describe MATCHES "^v([0-9]+\\.[0-9]+\\.[0-9]+)(-(rc|beta|alpha)([0-9]+))?-([0-9]+)-g([0-9a-f]+)$")
    set(base ${CMAKE_MATCH_1})
    if(CMAKE_MATCH_2)
      set(base "${base}~${CMAKE_MATCH_3}${CMAKE_MATCH_4}")
    endif()
    if(CMAKE_MATCH_5 EQUAL 0)
      set(version ${base})
      if(NOT CMAKE_MATCH_1 STREQUAL fallback)
        message(WARNING "the tag v${base} does not match project(VERSION ${fallback}): set the "
                        "project's version to the release before tagging it")
      endif()
    else()
      set(version "${base}+${CMAKE_MATCH_5}.g${CMAKE_MATCH_6}")
    endif()
  elseif(count MATCHES "^[0-9]+$" AND commit MATCHES "^[0-9a-f]+$")
    set(version "${fallback}+0~git${count}.g${commit}")
  else()
    set(version ${fallback})
  endif()
  set(${out} ${version} PARENT_SCOPE)
endfunction()

# Sets `out` to the version of the tree at `source_dir` (see above) and `commit_out` to its commit
# (12 hex digits, "unknown" outside a git checkout).
function(netgraph_release_version source_dir fallback out commit_out)
  set(describe "")
  set(count "")
  set(commit unknown)
  execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${source_dir}
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE head_result)
  if(head_result EQUAL 0 AND head MATCHES "^[0-9a-f]+$")
    set(commit ${head})
    execute_process(COMMAND git describe --tags --long --match "v[0-9]*" --abbrev=12 HEAD
                    WORKING_DIRECTORY ${source_dir} OUTPUT_VARIABLE describe
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    execute_process(COMMAND git rev-list --count HEAD WORKING_DIRECTORY ${source_dir}
                    OUTPUT_VARIABLE count OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  netgraph_version_from_describe("${describe}" "${count}" "${commit}" "${fallback}" version)
  set(${out} ${version} PARENT_SCOPE)
  set(${commit_out} ${commit} PARENT_SCOPE)
endfunction()
