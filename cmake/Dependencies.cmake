# Every third-party dependency comes from a Debian 12 package
# (scripts/install-deps.sh installs them). Nothing is downloaded.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(glm REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(SDL2 REQUIRED)
find_package(OpenGL REQUIRED COMPONENTS OpenGL EGL)
find_package(OpenAL REQUIRED)
pkg_check_modules(PCAP REQUIRED IMPORTED_TARGET libpcap)

# Standalone Asio is header-only (libasio-dev); no CMake package ships with it.
find_path(ASIO_INCLUDE_DIR asio.hpp REQUIRED)
add_library(dereth_asio INTERFACE)
target_include_directories(dereth_asio SYSTEM INTERFACE ${ASIO_INCLUDE_DIR})
target_compile_definitions(dereth_asio INTERFACE ASIO_STANDALONE ASIO_NO_DEPRECATED)
target_link_libraries(dereth_asio INTERFACE Threads::Threads)

# stb (libstb-dev): headers under /usr/include/stb.
find_path(STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb REQUIRED)
add_library(dereth_stb INTERFACE)
target_include_directories(dereth_stb SYSTEM INTERFACE ${STB_INCLUDE_DIR})

# OpenAL's imported target is not defined by every FindOpenAL; make one.
if(NOT TARGET OpenAL::OpenAL)
  add_library(OpenAL::OpenAL INTERFACE IMPORTED)
  set_target_properties(OpenAL::OpenAL PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${OPENAL_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${OPENAL_LIBRARY}")
endif()

if(DERETH_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
endif()
if(DERETH_BUILD_BENCHMARKS)
  find_package(benchmark QUIET)
  if(NOT benchmark_FOUND)
    message(STATUS "Google Benchmark not found: benchmarks are not built")
    set(DERETH_BUILD_BENCHMARKS OFF)
  endif()
endif()
