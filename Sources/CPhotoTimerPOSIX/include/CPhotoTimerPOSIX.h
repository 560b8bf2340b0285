#ifndef C_PHOTOTIMER_POSIX_H
#define C_PHOTOTIMER_POSIX_H

#include <spawn.h>

/// pipe2(fds, O_CLOEXEC): a pipe whose ends close on exec from the start, so a child spawned
/// by another thread in between can never inherit them. Glibc declares pipe2 only under
/// _GNU_SOURCE, which Swift's Glibc module does not set. Returns -1 and sets errno on failure.
int phototimer_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addclosefrom_np(actions, from) (glibc 2.34 and later): the child
/// closes every descriptor from `from` up, whether it closes on exec or not. Declared by glibc
/// only under _GNU_SOURCE. Returns 0 or an error number, like the other posix_spawn calls;
/// ENOSYS where the C library has no such action.
int phototimer_spawn_closefrom(posix_spawn_file_actions_t *actions, int from);

#endif
