// GTK 4, GLib's unix sources and libcanberra for phototimer-gtk, with small wrappers for the
// macros and variadic functions Swift cannot call.
#include <canberra.h>
#include <glib-unix.h>
#include <gtk/gtk.h>

/// g_signal_connect is a macro; `destroy` releases `data` when the handler goes.
static inline gulong phototimer_signal_connect(gpointer instance, const char *signal,
                                               GCallback handler, gpointer data,
                                               GClosureNotify destroy) {
  return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

/// ca_context_play takes a NULL-terminated list of properties.
static inline int phototimer_play_event(ca_context *context, const char *event,
                                        const char *description) {
  return ca_context_play(context, 0, CA_PROP_EVENT_ID, event, CA_PROP_EVENT_DESCRIPTION,
                         description, NULL);
}
