# `cmake --install` into a fresh prefix, then the installed coalesce-bench must list the texture
# variants with the installed plugin as their origin: the plugin lands where the installed app
# looks (<prefix>/bin/../lib/coalesce/plugins). Run as: cmake -DBUILD_DIR=... -DPREFIX=...
#   -DBINDIR=... -DPLUGIN_DIR=... -DPLUGIN_NAME=... -P install_test.cmake
foreach(var BUILD_DIR PREFIX BINDIR PLUGIN_DIR PLUGIN_NAME)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "install_test.cmake: ${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}\n${err}")
endif()

set(plugin "${PREFIX}/${PLUGIN_DIR}/${PLUGIN_NAME}")
set(bench "${PREFIX}/${BINDIR}/coalesce-bench")
foreach(file "${plugin}" "${bench}")
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "not installed: ${file}\n${out}")
  endif()
endforeach()

# Only the installed layout may supply the plugin: no COALESCE_PLUGIN_PATH, and run from elsewhere.
execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=COALESCE_PLUGIN_PATH "${bench}" --list
                WORKING_DIRECTORY "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE list ERROR_VARIABLE list_err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "installed coalesce-bench --list failed (${rc}):\n${list}\n${list_err}")
endif()

file(REAL_PATH "${plugin}" plugin_real)
foreach(expected "copy/texture-array" "transpose/texture-pitched" "filter_y/texture-array"
                 "texture-pitched"
                 "${plugin_real}")
  string(FIND "${list}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR
      "installed coalesce-bench --list does not show '${expected}':\n${list}\n${list_err}")
  endif()
endforeach()
message(STATUS "installed plugin ${plugin_real} is listed by ${bench}")
