# dereth_add_module(NAME <module> SOURCES ... [PUBLIC_LINKS ...] [PRIVATE_LINKS ...])
# Creates the static library dereth_<module> with public headers under
# include/dereth/<module>/ and private headers beside the sources.
function(dereth_add_module)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;PUBLIC_LINKS;PRIVATE_LINKS" ${ARGN})
  set(target dereth_${ARG_NAME})
  add_library(${target} STATIC ${ARG_SOURCES})
  add_library(dereth::${ARG_NAME} ALIAS ${target})
  target_include_directories(${target}
    PUBLIC ${PROJECT_SOURCE_DIR}/include
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_LINKS} PRIVATE ${ARG_PRIVATE_LINKS})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  dereth_set_warnings(${target})
  # The standard headers most sources use, compiled once per module (a clean
  # build's share of parsing them; -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON builds
  # without, which checks that each file includes what it uses).
  list(LENGTH ARG_SOURCES source_count)
  if(source_count GREATER_EQUAL 8)
    target_precompile_headers(${target} PRIVATE
      <algorithm> <array> <cmath> <cstdint> <cstring> <expected> <functional> <map>
      <memory> <optional> <span> <string> <vector>)
  endif()
  set_property(GLOBAL APPEND PROPERTY DERETH_MODULES ${ARG_NAME})
endfunction()

# dereth_add_header_module(NAME <module> [PUBLIC_LINKS ...]): a header-only
# module dereth_<module> (an INTERFACE library) with the same include root.
function(dereth_add_header_module)
  cmake_parse_arguments(ARG "" "NAME" "PUBLIC_LINKS" ${ARGN})
  set(target dereth_${ARG_NAME})
  add_library(${target} INTERFACE)
  add_library(dereth::${ARG_NAME} ALIAS ${target})
  target_include_directories(${target} INTERFACE ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(${target} INTERFACE ${ARG_PUBLIC_LINKS})
  set_property(GLOBAL APPEND PROPERTY DERETH_MODULES ${ARG_NAME})
endfunction()

# dereth_add_tool(NAME <exe> SOURCES ... LINKS ...): a developer executable in build/bin.
function(dereth_add_tool)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;LINKS" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE ${ARG_LINKS})
  dereth_set_warnings(${ARG_NAME})
endfunction()
