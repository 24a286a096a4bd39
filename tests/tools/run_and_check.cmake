# Runs a command and checks its exit code, and optionally that stdout equals a
# file or matches a regular expression and that stderr matches one.
#   cmake -DCOMMAND="prog@@arg@@..." -DEXPECT_RC=0 [-DEXPECT_STDOUT_FILE=f]
#         [-DEXPECT_STDOUT_REGEX=re] [-DEXPECT_STDERR_REGEX=re] -P run_and_check.cmake
string(REPLACE "@@" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${COMMAND}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(failed "")
if(NOT rc STREQUAL "${EXPECT_RC}")
  string(APPEND failed "exit code ${rc}, expected ${EXPECT_RC}\n")
endif()
if(DEFINED EXPECT_STDOUT_FILE)
  file(READ "${EXPECT_STDOUT_FILE}" expected)
  if(NOT out STREQUAL expected)
    string(APPEND failed "stdout differs from ${EXPECT_STDOUT_FILE}\n")
  endif()
endif()
if(DEFINED EXPECT_STDOUT_REGEX AND NOT out MATCHES "${EXPECT_STDOUT_REGEX}")
  string(APPEND failed "stdout does not match: ${EXPECT_STDOUT_REGEX}\n")
endif()
if(DEFINED EXPECT_STDERR_REGEX AND NOT err MATCHES "${EXPECT_STDERR_REGEX}")
  string(APPEND failed "stderr does not match: ${EXPECT_STDERR_REGEX}\n")
endif()
if(failed)
  message(FATAL_ERROR "${failed}--- stdout ---\n${out}--- stderr ---\n${err}")
endif()
