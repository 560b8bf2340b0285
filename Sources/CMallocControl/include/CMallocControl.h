#ifndef PHOTOTIMER_CMALLOCCONTROL_H
#define PHOTOTIMER_CMALLOCCONTROL_H

/// Asks glibc's allocator for a single arena, so resident memory measures live memory rather
/// than per-thread free lists. Call before any thread starts. Returns 1 on success, 0 where
/// unsupported.
int phototimer_malloc_single_arena(void);

/// Returns free heap memory to the system. Returns 1 if memory was released, 0 otherwise.
int phototimer_malloc_trim(void);

#endif
