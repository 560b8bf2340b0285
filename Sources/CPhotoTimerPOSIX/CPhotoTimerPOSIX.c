#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>

#include "CPhotoTimerPOSIX.h"

int phototimer_pipe_cloexec(int fds[2]) {
#if defined(__linux__)
  return pipe2(fds, O_CLOEXEC);
#else
  if (pipe(fds) != 0) return -1;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  return 0;
#endif
}
