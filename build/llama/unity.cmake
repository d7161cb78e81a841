# The few sources of llama.cpp that cannot share a translation unit, for
# build/llama/build.sh's unity builds (Linux and Windows): build.sh passes
# -DCMAKE_UNITY_BUILD=ON, so cmake compiles each target's sources in
# batches of 8 files to one unit, and the headers they share (the C++
# standard library, nlohmann/json, cpp-httplib, ggml's and llama's) are
# parsed once a batch instead of once a file: the Linux build compiles in
# 41 % less CPU time, the Windows one in 35 % less (README.md). build.sh
# includes this file right after llama.cpp's top project()
# (-DCMAKE_PROJECT_llama.cpp_INCLUDE=...), before any target exists, so the
# exceptions are set once the top directory is processed (DEFER), when every
# target is there:
#   - mtmd-helper.cpp and mtmd-helper-gen.cpp refuse (#error) to see mtmd's
#     internal headers, which the other files of their batch include;
#   - common/json.cpp specializes common_json::get<T>, which an earlier file
#     of its batch has already instantiated.
# Each is compiled alone, as without unity. A file added upstream that
# breaks a batch fails the build with a compiler error naming it: add it
# here.
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL switchboard_unity_exceptions)

function(switchboard_unity_exceptions)
    # TARGET_DIRECTORY: the property is set where the target was made. The
    # Linux build takes llama-common prebuilt (an imported target): its
    # sources are not compiled there.
    if (TARGET mtmd)
        set_source_files_properties(
            ${CMAKE_SOURCE_DIR}/tools/mtmd/mtmd-helper.cpp
            ${CMAKE_SOURCE_DIR}/tools/mtmd/mtmd-helper-gen.cpp
            TARGET_DIRECTORY mtmd PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
    if (TARGET llama-common)
        get_target_property(_imported llama-common IMPORTED)
        if (NOT _imported)
            set_source_files_properties(${CMAKE_SOURCE_DIR}/common/json.cpp
                TARGET_DIRECTORY llama-common PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
        endif()
    endif()
endfunction()
