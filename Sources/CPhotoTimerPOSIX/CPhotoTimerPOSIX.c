#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
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

int phototimer_spawn_closefrom(posix_spawn_file_actions_t *actions, int from) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  return posix_spawn_file_actions_addclosefrom_np(actions, from);
#else
  (void)actions;
  (void)from;
  return ENOSYS;
#endif
}
