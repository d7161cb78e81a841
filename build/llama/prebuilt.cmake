# llama-server and llama-bench against the prebuilt libraries of
# @node-llama-cpp/linux-x64 (build/llama/build.sh): build.sh puts this file
# in place of llama.cpp's own top CMakeLists.txt (kept as
# CMakeLists.llama.txt, whose version it reads), so the tools' and vendors'
# CMakeLists see the source tree they expect. llama.cpp's libllama and
# llama-common, and ggml's libggml and libggml-base, are the package's
# (IMPORTED here, not compiled); what the package lacks is compiled: the
# server (tools/server), its multimodal library (tools/mtmd), its HTTP
# library (vendor/cpp-httplib), llama-bench, and the empty web UI stub
# (tools/ui with the UI off). ggml's CPU backends stay the package's one
# shared library per x86-64 generation (libggml-cpu-*.so), which ggml loads
# at start from the executable's directory (GGML_BACKEND_DL): every output
# goes into one directory with the libraries beside it, found through
# RUNPATH $ORIGIN.
#
#   cmake -S SRC -B BUILD -DNLC_BINS=.../bins/linux-x64
cmake_minimum_required(VERSION 3.19)
project("llama.cpp" C CXX)

if (NOT NLC_BINS OR NOT EXISTS "${NLC_BINS}/libggml-base.so")
    message(FATAL_ERROR "NLC_BINS must name the prebuilt package's bins/linux-x64 (with libggml-base.so)")
endif()

file(STRINGS "${CMAKE_CURRENT_SOURCE_DIR}/CMakeLists.llama.txt" _llama_version REGEX "^set\\(LLAMA_VERSION_(MAJOR|MINOR|PATCH) [0-9]+\\)")
foreach (_line IN LISTS _llama_version)
    string(REGEX REPLACE "^set\\((LLAMA_VERSION_[A-Z]+) ([0-9]+)\\)$" "\\1;\\2" _kv "${_line}")
    list(GET _kv 0 _k)
    list(GET _kv 1 _v)
    set(${_k} ${_v})
endforeach()
if (NOT DEFINED LLAMA_VERSION_PATCH)
    message(FATAL_ERROR "no LLAMA_VERSION_* in CMakeLists.llama.txt")
endif()
set(LLAMA_VERSION_BASE "${LLAMA_VERSION_MAJOR}.${LLAMA_VERSION_MINOR}.${LLAMA_VERSION_PATCH}")
set(LLAMA_VERSION "${LLAMA_VERSION_BASE}")

if (NOT CMAKE_BUILD_TYPE)
    set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()
# -O1, not Release's -O3: what this file compiles is glue (HTTP, JSON, the
# server's request loop, the media decoding before an encoder runs), and
# every hot loop (ggml's kernels, the tokenizer, the samplers, the chat
# templates) is in the prebuilt libraries. A system-wide perf record over
# make bench's local model rows (a -O1 build, 2026-12-04) found 0.01 % of the
# samples in llama-server's own code against 45 % in libggml-cpu-zen4.so, and
# those rows read the same as the -O3 build's. build.sh then takes 105-112 s
# on 2 idle cores and 138-145 s of CPU, against 147-182 s and 205-240 s at
# -O3 (two runs each, alternating, fetch included): time a fresh machine's
# make run and make test wait for.
set(CMAKE_C_FLAGS_RELEASE "-O1 -DNDEBUG")
set(CMAKE_CXX_FLAGS_RELEASE "-O1 -DNDEBUG")
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_SOURCE_DIR}/cmake/")
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
# The executables find the package's libraries beside them.
set(CMAKE_SKIP_BUILD_RPATH FALSE)
set(CMAKE_BUILD_WITH_INSTALL_RPATH TRUE)
set(CMAKE_INSTALL_RPATH "$ORIGIN")
set(BUILD_SHARED_LIBS OFF)

# What llama.cpp's top CMakeLists.txt sets for the tools: no web UI (its
# prebuilt copy would be downloaded), no HTTPS, subprocesses on (the
# package's llama-common is built with them, LLAMA_SUBPROCESS).
set(LLAMA_STANDALONE ON)
set(LLAMA_BUILD_COMMON ON)
set(LLAMA_BUILD_TOOLS ON)
set(LLAMA_BUILD_SERVER ON)
set(LLAMA_BUILD_UI OFF)
set(LLAMA_USE_PREBUILT_UI OFF)
set(LLAMA_OPENSSL OFF)
set(LLAMA_SUBPROCESS ON)
set(LLAMA_TOOLS_INSTALL OFF)
set(LLAMA_ALL_WARNINGS OFF)
set(MTMD_VIDEO ON CACHE BOOL "")
include(${CMAKE_CURRENT_SOURCE_DIR}/cmake/build-info.cmake)
include(${CMAKE_CURRENT_SOURCE_DIR}/cmake/common.cmake)
include(${CMAKE_CURRENT_SOURCE_DIR}/cmake/license.cmake)
set(LLAMA_BUILD_NUMBER ${BUILD_NUMBER})
set(LLAMA_BUILD_COMMIT ${BUILD_COMMIT})
license_add_file("llama.cpp" "LICENSE")
find_package(Threads REQUIRED)

# prebuilt(TARGET GLOB INCLUDE_DIRS LINKS): one of the package's libraries.
function(prebuilt target pattern includes links)
    file(GLOB _found "${NLC_BINS}/${pattern}")
    list(LENGTH _found _n)
    if (NOT _n EQUAL 1)
        message(FATAL_ERROR "${NLC_BINS}/${pattern}: want one file, found ${_n}")
    endif()
    add_library(${target} SHARED IMPORTED GLOBAL)
    set_target_properties(${target} PROPERTIES
        IMPORTED_LOCATION "${_found}"
        INTERFACE_INCLUDE_DIRECTORIES "${includes}"
        INTERFACE_LINK_LIBRARIES "${links}")
endfunction()
set(S ${CMAKE_CURRENT_SOURCE_DIR})
prebuilt(ggml-base    libggml-base.so    "${S}/ggml/include" "")
prebuilt(ggml         "libggml.v*.so"    "${S}/ggml/include" "ggml-base")
prebuilt(llama        "libllama.v*.so"   "${S}/include"      "ggml")
prebuilt(llama-common libllama-common.so "${S}/common"       "llama;vendor::nlohmann;vendor::sheredom;Threads::Threads")
set_property(TARGET llama-common APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS LLAMA_SUBPROCESS)
set_property(TARGET llama-common APPEND PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_17)

llama_add_compile_flags()
add_subdirectory(vendor)
add_subdirectory(tools/ui)
add_subdirectory(tools/mtmd)
add_subdirectory(tools/server)
add_subdirectory(tools/llama-bench)
