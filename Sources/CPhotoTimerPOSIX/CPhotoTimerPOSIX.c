#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <unistd.h>

#include "CPhotoTimerPOSIX.h"

#include <sys/ioctl.h>

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

struct phototimer_call {
  void (*body)(void *);
  void *context;
};

static void *phototimer_call_start(void *argument) {
  struct phototimer_call *call = argument;
  call->body(call->context);
  return NULL;
}

int phototimer_call_on_stack(size_t bytes, void (*body)(void *), void *context) {
  pthread_attr_t attributes;
  int error = pthread_attr_init(&attributes);
  if (error != 0) return error;
  error = pthread_attr_setstacksize(&attributes, bytes);
  struct phototimer_call call = {body, context};
  pthread_t thread;
  if (error == 0) error = pthread_create(&thread, &attributes, phototimer_call_start, &call);
  pthread_attr_destroy(&attributes);
  if (error != 0) return error;
  // NB: joining cannot fail here: the thread is joinable and joined once.
  return pthread_join(thread, NULL);
}

size_t phototimer_stack_size(void) {
  size_t size = 0;
#if defined(__GLIBC__)
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
  if (pthread_attr_getstacksize(&attributes, &size) != 0) size = 0;
  pthread_attr_destroy(&attributes);
#endif
  return size;
}

int phototimer_ioctl(int descriptor, unsigned long request, void *argument) {
  return ioctl(descriptor, request, argument);
}
