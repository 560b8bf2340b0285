// Pango and Cairo for the booth's text: a line laid out by Pango, drawn by Cairo into an
// image surface in memory (no display needed).
#include <pango/pangocairo.h>
