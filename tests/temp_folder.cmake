# The tests' own temporary folder (TMPDIR of every test ctest runs):
#   -DDIR=<folder> -DMODE=prepare  empties it before the first test;
#   -DDIR=<folder> -DMODE=check    fails, naming what is there, when a test left anything in it.
if(NOT DIR)
  message(FATAL_ERROR "temp_folder.cmake needs -DDIR=<folder>")
endif()
if(MODE STREQUAL "prepare")
  file(REMOVE_RECURSE "${DIR}")
  file(MAKE_DIRECTORY "${DIR}")
elseif(MODE STREQUAL "check")
  file(GLOB left LIST_DIRECTORIES true RELATIVE "${DIR}" "${DIR}/*" "${DIR}/.*")
  # Qt makes runtime-<user> there when XDG_RUNTIME_DIR is unset and keeps it for every later
  # program of that user: not a test's folder.
  list(REMOVE_ITEM left "." "..")
  list(FILTER left EXCLUDE REGEX "^runtime-")
  if(left)
    list(JOIN left ", " names)
    message(FATAL_ERROR "the tests left these in their temporary folder ${DIR}: ${names}")
  endif()
  message(STATUS "nothing left in ${DIR}")
else()
  message(FATAL_ERROR "temp_folder.cmake: MODE is prepare or check, not '${MODE}'")
endif()
