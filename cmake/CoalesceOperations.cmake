# The lists the operation table and the built-in registration are generated from, so that a new
# operation or a new kernels file is one line in one list (cmake/operations.cmake,
# kernels/CMakeLists.txt), never a hand-kept table in C++.

# An operation: its descriptor is engine/src/ops/<name>.cpp, defining
# `const OpDesc& coalesce::ops::describe_<name>()`; its kernels, if it has any, are
# kernels/<name>.cu, defining `void coalesce::register_<name>(Registry&)`.
function(coalesce_operation name)
  set_property(GLOBAL APPEND PROPERTY COALESCE_OPERATIONS ${name})
endfunction()

# A further kernels file kernels/<stem>.cu (tuned variants, say), defining
# `void coalesce::register_<stem>(Registry&)`; registered after every operation's own file.
function(coalesce_kernel_file stem)
  set_property(GLOBAL APPEND PROPERTY COALESCE_KERNEL_FILES ${stem})
endfunction()

# Configures `template` into `out` with @COALESCE_DECLARATIONS@ and @COALESCE_ENTRIES@ replaced by
# one line per name of ARGN, from the patterns (@NAME@ stands for the name).
function(coalesce_configure_list template out declaration_pattern entry_pattern)
  set(COALESCE_DECLARATIONS "")
  set(COALESCE_ENTRIES "")
  foreach(name IN LISTS ARGN)
    string(REPLACE "@NAME@" "${name}" declaration "${declaration_pattern}")
    string(REPLACE "@NAME@" "${name}" entry "${entry_pattern}")
    string(APPEND COALESCE_DECLARATIONS "${declaration}\n")
    string(APPEND COALESCE_ENTRIES "    ${entry}\n")
  endforeach()
  configure_file(${template} ${out} @ONLY)
endfunction()
