import CGTK
import PhotoTimerPOSIX

// libdispatch's hooks for a foreign run loop (Foundation's RunLoop uses the same two): the
// main queue's descriptor (an eventfd on Linux, readable when main-queue work is pending) and
// the call that drains it.
@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func dispatchMainQueueHandle() -> Int32
@_silgen_name("_dispatch_main_queue_callback_4CF")
private func dispatchMainQueueDrain(_ message: UnsafeMutableRawPointer?)

/// Runs the main actor inside GLib's main loop.
///
/// GTK owns the main thread (`g_application_run` never returns while the window is open), and
/// the main actor's jobs go to libdispatch's main queue. This source watches the queue's
/// descriptor and drains it from the GLib loop, so main-actor tasks and their sleeps run on
/// time, on the GTK thread, with no polling and no timer.
enum MainQueueSource {
  /// Attaches the source to the default main context; call once before `g_application_run`.
  static func install() {
    let source = made(g_unix_fd_source_new(dispatchMainQueueHandle(), G_IO_IN))
    typealias Callback = @convention(c) (Int32, GIOCondition, gpointer?) -> gboolean
    let drain: Callback = { descriptor, _, _ in
      // NB: the eventfd stays readable until read (Foundation's run loop reads it too): else
      // the loop would spin.
      FileDescriptor.resetEventCounter(descriptor)
      dispatchMainQueueDrain(nil)
      return 1  // G_SOURCE_CONTINUE
    }
    g_source_set_callback(source, unsafeBitCast(drain, to: GSourceFunc.self), nil, nil)
    // NB: the priority of input events: a tick's label change is drawn in the next frame.
    g_source_set_priority(source, G_PRIORITY_DEFAULT)
    g_source_attach(source, nil)
    g_source_unref(source)
  }
}
