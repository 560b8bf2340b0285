#include "CMallocControl.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>

int phototimer_malloc_single_arena(void) { return mallopt(M_ARENA_MAX, 1); }
int phototimer_malloc_trim(void) { return malloc_trim(0); }
#else
int phototimer_malloc_single_arena(void) { return 0; }
int phototimer_malloc_trim(void) { return 0; }
#endif
