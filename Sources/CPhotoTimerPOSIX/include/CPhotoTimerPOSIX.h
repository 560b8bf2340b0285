#ifndef C_PHOTOTIMER_POSIX_H
#define C_PHOTOTIMER_POSIX_H

/// pipe2(fds, O_CLOEXEC): a pipe whose ends close on exec from the start, so a child spawned
/// by another thread in between can never inherit them. Glibc declares pipe2 only under
/// _GNU_SOURCE, which Swift's Glibc module does not set. Returns -1 and sets errno on failure.
int phototimer_pipe_cloexec(int fds[2]);

#endif
