# cmake -DROOT=<checkout> -DOUT=<header> -P commit.cmake: writes the header's one line,
#   #define QUADBIT_COMMIT "<short hash>[-modified]"
# ("unknown" outside a git checkout), and only when it changes, so that a build always names the
# commit it was made from (buildinfo.h, the network files the trainer writes) and rebuilds
# nothing when the commit is the same.
execute_process(COMMAND git -C "${ROOT}" rev-parse --short=7 HEAD OUTPUT_VARIABLE commit
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C "${ROOT}" status --porcelain --untracked-files=no OUTPUT_VARIABLE changes ERROR_QUIET)
  if(NOT changes STREQUAL "")
    set(commit "${commit}-modified")
  endif()
endif()
set(text "#define QUADBIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
