#include <stddef.h>
#include <civetweb.h>
