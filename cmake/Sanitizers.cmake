# DERETH_SANITIZE: ASan + UBSan for the whole build (the `debug` preset).
if(DERETH_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# Every executable target defined under `dir` (recursively).
function(_dereth_executables dir out_var)
  set(found "")
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "EXECUTABLE")
      list(APPEND found ${t})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _dereth_executables("${sub}" sub_found)
    list(APPEND found ${sub_found})
  endforeach()
  set(${out_var} ${found} PARENT_SCOPE)
endfunction()

# Called at the end of the top-level CMakeLists.txt: the runtime's default
# options (cmake/sanitizer_default_options.cpp) go into every executable, so
# a run by hand behaves as one under ctest.
function(dereth_add_sanitizer_defaults)
  if(NOT DERETH_SANITIZE)
    return()
  endif()
  _dereth_executables("${CMAKE_SOURCE_DIR}" executables)
  foreach(t IN LISTS executables)
    target_sources(${t} PRIVATE "${CMAKE_SOURCE_DIR}/cmake/sanitizer_default_options.cpp")
  endforeach()
endfunction()
