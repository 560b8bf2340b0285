// GStreamer core and appsink for PhotoTimerGStreamer, with small wrappers for
// the variadic functions and macros Swift cannot call.
#include <gst/app/gstappsink.h>
#include <gst/gst.h>

/// A property from its text form (strings, enums by nick, numbers): GStreamer parses it.
static inline void phototimer_gst_set_string(GstElement *element, const char *name,
                                             const char *value) {
  gst_util_set_object_arg(G_OBJECT(element), name, value);
}

/// g_object_set is variadic: one property at a time.

static inline void phototimer_gst_set_int(GstElement *element, const char *name, gint value) {
  g_object_set(element, name, value, NULL);
}

static inline void phototimer_gst_set_bool(GstElement *element, const char *name,
                                           gboolean value) {
  g_object_set(element, name, value, NULL);
}

static inline void phototimer_gst_set_caps(GstElement *element, const char *name,
                                           GstCaps *caps) {
  g_object_set(element, name, caps, NULL);
}

static inline void phototimer_gst_set_structure(GstElement *element, const char *name,
                                                GstStructure *structure) {
  g_object_set(element, name, structure, NULL);
}

/// GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_CORRUPTED).
static inline gboolean phototimer_gst_buffer_corrupted(GstBuffer *buffer) {
  return GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_CORRUPTED);
}

/// GST_MESSAGE_TYPE.
static inline GstMessageType phototimer_gst_message_type(GstMessage *message) {
  return GST_MESSAGE_TYPE(message);
}

/// GST_MESSAGE_SRC's name, or "" (owned by the element; valid while the message is).
static inline const char *phototimer_gst_message_source_name(GstMessage *message) {
  GstObject *source = GST_MESSAGE_SRC(message);
  return source != NULL && GST_OBJECT_NAME(source) != NULL ? GST_OBJECT_NAME(source) : "";
}

static void phototimer_gst_pad_added(GstElement *element, GstPad *pad, gpointer data) {
  (void)element;
  GstElement *next = GST_ELEMENT(data);
  GstPad *sink = gst_element_get_static_pad(next, "sink");
  if (sink != NULL) {
    if (!gst_pad_is_linked(sink)) gst_pad_link(pad, sink);
    gst_object_unref(sink);
  }
}

/// Links a demuxer's pad to `next` when the demuxer adds it (its pads come with the stream).
/// g_signal_connect is a macro; the pipeline holds both elements for the handler's life.
static inline void phototimer_gst_link_when_added(GstElement *demuxer, GstElement *next) {
  g_signal_connect_data(demuxer, "pad-added", G_CALLBACK(phototimer_gst_pad_added), next, NULL,
                        (GConnectFlags)0);
}
