# The engine's sources, listed once. Every build of the engine (the release engine, the cluster
# engine, and the ThreadSanitizer, AddressSanitizer, tuning and libFuzzer variants of the tests)
# is a library made by quadbit_core() from this list, so a new file or folder of src/ or simd/
# needs no edit anywhere. Included by the top-level CMakeLists.txt and by tests/fuzz (a clang
# project of its own).
get_filename_component(QUADBIT_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
file(GLOB_RECURSE QUADBIT_SOURCES CONFIGURE_DEPENDS ${QUADBIT_ROOT}/src/*.cpp ${QUADBIT_ROOT}/simd/*.cpp)
# An executable's own files: main.cpp, and the CPU check that must run before it (a file that
# only registers a constructor would be left out of the link from a static library).
list(REMOVE_ITEM QUADBIT_SOURCES ${QUADBIT_ROOT}/src/main.cpp ${QUADBIT_ROOT}/src/cpucheck.cpp)
set(QUADBIT_MAIN ${QUADBIT_ROOT}/src/main.cpp ${QUADBIT_ROOT}/src/cpucheck.cpp)
# The network built into the engine (src/nnue/embedded.cpp).
set(QUADBIT_DEFAULT_NETWORK ${QUADBIT_ROOT}/src/nnue/default.nnue)

find_package(Threads REQUIRED)
# hwloc places the threads on Linux; on Windows the engine asks Win32 itself (src/topology.cpp),
# and the executable is linked statically, so that it needs no DLL beside it.
# QUADBIT_STATIC (scripts/release) makes a Linux binary for other machines: the C++ runtime and
# hwloc linked in, so that it needs only the C library (glibc) and libudev, which every
# desktop and server Linux has.
option(QUADBIT_STATIC "Link the C++ runtime and hwloc statically (Linux release binaries)" OFF)
if(WIN32)
  set(QUADBIT_SYSTEM_LIBRARIES -static)
else()
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)
  if(QUADBIT_STATIC)
    list(REMOVE_ITEM HWLOC_STATIC_LIBRARIES hwloc)
    # libudev by its runtime name: the machine has it (hwloc's package needs it), not its -dev.
    list(TRANSFORM HWLOC_STATIC_LIBRARIES REPLACE "^udev$" ":libudev.so.1")
    list(TRANSFORM HWLOC_STATIC_LIBRARIES PREPEND -l)
    set(QUADBIT_SYSTEM_LIBRARIES -static-libstdc++ -static-libgcc ${HWLOC_STATIC_LDFLAGS_OTHER}
        -Wl,-Bstatic -lhwloc -Wl,-Bdynamic ${HWLOC_STATIC_LIBRARIES})
    include_directories(${HWLOC_INCLUDE_DIRS})
    foreach(dir IN LISTS HWLOC_STATIC_LIBRARY_DIRS)
      list(PREPEND QUADBIT_SYSTEM_LIBRARIES -L${dir})
    endforeach()
  else()
    set(QUADBIT_SYSTEM_LIBRARIES PkgConfig::HWLOC)
  endif()
endif()

# The commit the engine is built from (src/commit.cmake), read again at every build.
if(NOT TARGET quadbit_commit)
  add_custom_target(quadbit_commit
    COMMAND ${CMAKE_COMMAND} -DROOT=${QUADBIT_ROOT} -DOUT=${CMAKE_BINARY_DIR}/generated/commit.h
            -P ${QUADBIT_ROOT}/src/commit.cmake
    BYPRODUCTS ${CMAKE_BINARY_DIR}/generated/commit.h)
endif()

# quadbit_core(NAME [NO_IPO] [UNITY] [OPTIONS flags...] [LINK_OPTIONS flags...]
#              [DEFINITIONS defs...] [LIBRARIES libs...])
# A static library of the engine (all but main.cpp) built with the given flags. They are public,
# so an engine or a test linked with it is compiled the same way (a sanitizer, QUADBIT_MPI).
# UNITY compiles the sources eight to a file, for the test variants: less than half the compile
# time (the headers are read once a batch), while the release build keeps one file a source,
# so that each still compiles on its own includes.
function(quadbit_core name)
  cmake_parse_arguments(ARG "NO_IPO;UNITY" "" "OPTIONS;LINK_OPTIONS;DEFINITIONS;LIBRARIES" ${ARGN})
  add_library(${name} STATIC ${QUADBIT_SOURCES})
  target_include_directories(${name} PUBLIC ${QUADBIT_ROOT}/src ${QUADBIT_ROOT})
  target_compile_options(${name} PUBLIC ${ARG_OPTIONS})
  target_link_options(${name} PUBLIC ${ARG_LINK_OPTIONS})
  target_compile_definitions(${name} PUBLIC ${ARG_DEFINITIONS})
  target_link_libraries(${name} PUBLIC Threads::Threads ${QUADBIT_SYSTEM_LIBRARIES} ${ARG_LIBRARIES})
  target_compile_definitions(${name} PRIVATE QUADBIT_DEFAULT_NETWORK="${QUADBIT_DEFAULT_NETWORK}")
  target_include_directories(${name} PRIVATE ${CMAKE_BINARY_DIR}/generated)
  add_dependencies(${name} quadbit_commit)
  set_property(SOURCE ${QUADBIT_ROOT}/src/nnue/embedded.cpp TARGET_DIRECTORY ${name} APPEND
               PROPERTY OBJECT_DEPENDS ${QUADBIT_DEFAULT_NETWORK})
  if(ARG_NO_IPO)
    set_target_properties(${name} PROPERTIES INTERPROCEDURAL_OPTIMIZATION OFF)
  endif()
  if(ARG_UNITY)
    set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    # On its own, so that the network file it embeds stays its dependency.
    set_property(SOURCE ${QUADBIT_ROOT}/src/nnue/embedded.cpp TARGET_DIRECTORY ${name}
                 PROPERTY SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endfunction()

# quadbit_engine(NAME CORE): the UCI engine executable over a library made by quadbit_core().
function(quadbit_engine name core)
  add_executable(${name} ${QUADBIT_MAIN})
  target_link_libraries(${name} PRIVATE ${core})
  get_target_property(ipo ${core} INTERPROCEDURAL_OPTIMIZATION)
  if(ipo STREQUAL "OFF")
    set_target_properties(${name} PROPERTIES INTERPROCEDURAL_OPTIMIZATION OFF)
  endif()
endfunction()
