# Writes tools/version.h at every build, so kCommit names the commit the binary was built from
# (not the one CMake was configured from). configure_file leaves the file alone when its text
# is unchanged, so an unchanged commit recompiles nothing.
# Inputs: SOURCE_DIR (the git checkout), IN (version.h.in), OUT (version.h), PROJECT_VERSION.
execute_process(COMMAND git -C ${SOURCE_DIR} describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE HANE_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT HANE_GIT_COMMIT)
  set(HANE_GIT_COMMIT unknown)
endif()
configure_file(${IN} ${OUT} @ONLY)
