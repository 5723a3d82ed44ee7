# Sourced by the shell tests: polls rather than sleeping a fixed time, since on a loaded
# 2-core CI machine a process's start-up (LibTorch, the model build) can take seconds.
#   wait_until SECONDS 'CONDITION'
# evaluates CONDITION (a shell command line, in the caller's variables) every 0.1 s until
# it succeeds (status 0) or SECONDS have passed (status 1).
wait_until() {
  local tries=$(($1 * 10))
  for _ in $(seq "$tries"); do eval "$2" && return 0; sleep 0.1; done
  return 1
}
