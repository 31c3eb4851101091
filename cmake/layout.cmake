# Rules of the layout (README.md, "Layout"), checked when CMake configures, so that breaking one
# fails the build: the play side, hane_gtp with everything it links and hane_match, links
# neither the corpus reader (hane_corpus) nor the trainers (hane_train); hane_engine_process
# links no hane library at all.

# Every hane_* target that `target` links, directly or through others (PUBLIC, PRIVATE and
# INTERFACE alike), into `out`.
function(hane_link_closure target out)
  set(seen "")
  set(todo ${target})
  while(todo)
    list(POP_FRONT todo t)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" t "${t}")
    if(NOT t MATCHES "^hane_" OR NOT TARGET ${t} OR t IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(direct ${t} LINK_LIBRARIES)
    get_target_property(interface ${t} INTERFACE_LINK_LIBRARIES)
    foreach(lib IN LISTS direct interface)
      if(lib)
        list(APPEND todo ${lib})
      endif()
    endforeach()
  endwhile()
  list(REMOVE_ITEM seen ${target})
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# Fails the configuration when `target` links any of the targets after FORBIDDEN.
function(hane_forbid_links target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "FORBIDDEN")
  hane_link_closure(${target} closure)
  foreach(lib IN LISTS ARG_FORBIDDEN)
    if(lib IN_LIST closure)
      message(FATAL_ERROR "layout rule broken: ${target} links ${lib} (its link closure: ${closure}); "
                          "see README.md, \"Layout\"")
    endif()
  endforeach()
endfunction()

foreach(play_side IN ITEMS hane_gtp hane_match)
  hane_forbid_links(${play_side} FORBIDDEN hane_corpus hane_train)
endforeach()
hane_link_closure(hane_engine_process engine_process_links)
if(engine_process_links)
  message(FATAL_ERROR "layout rule broken: hane_engine_process links ${engine_process_links}; it must link no hane "
                      "library (README.md, \"Layout\")")
endif()
