#ifndef C_PHOTOTIMER_POSIX_H
#define C_PHOTOTIMER_POSIX_H

#include <spawn.h>
#include <stddef.h>

/// pipe2(fds, O_CLOEXEC): a pipe whose ends close on exec from the start, so a child spawned
/// by another thread in between can never inherit them. Glibc declares pipe2 only under
/// _GNU_SOURCE, which Swift's Glibc module does not set. Returns -1 and sets errno on failure.
int phototimer_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addclosefrom_np(actions, from) (glibc 2.34 and later): the child
/// closes every descriptor from `from` up, whether it closes on exec or not. Declared by glibc
/// only under _GNU_SOURCE. Returns 0 or an error number, like the other posix_spawn calls;
/// ENOSYS where the C library has no such action.
int phototimer_spawn_closefrom(posix_spawn_file_actions_t *actions, int from);

/// Runs `body(context)` on a new thread whose stack is `bytes` long and returns once it has
/// returned: for code called on a thread whose stack is too small for Swift (Debian's
/// civetweb gives its workers 100 KiB). Returns 0, or the error number of
/// pthread_attr_setstacksize or pthread_create (then `body` has not run).
int phototimer_call_on_stack(size_t bytes, void (*body)(void *), void *context);

/// The size of the calling thread's stack (pthread_getattr_np, a GNU extension), or 0 when
/// it cannot be read.
size_t phototimer_stack_size(void);

/// ioctl(descriptor, request, argument): the variadic call with one pointer argument, which
/// Swift cannot call directly. Returns -1 and sets errno on failure.
int phototimer_ioctl(int descriptor, unsigned long request, void *argument);

#endif
