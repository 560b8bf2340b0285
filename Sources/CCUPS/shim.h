// libcups (Debian's libcups2-dev): destinations, their media, jobs and the IPP requests that
// follow them. Debian ships no pkg-config file for it; its headers are in /usr/include.
#include <cups/cups.h>
