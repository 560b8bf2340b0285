import CGTK

/// A GTK widget, as GTK's functions take it.
typealias Widget = UnsafeMutablePointer<GtkWidget>

/// Reinterprets a GObject pointer as another type of the same object (GTK's `GTK_WINDOW (w)`
/// and friends, without the runtime check).
@inline(__always)
func gobject<T>(
  _ pointer: UnsafeMutableRawPointer?, as type: T.Type = T.self
) -> UnsafeMutablePointer<T> {
  // NB: every call site passes a live object it created; a nil here is a programming error.
  made(pointer).assumingMemoryBound(to: T.self)
}

/// An object a GTK constructor returned: they never return NULL (GLib aborts when memory runs
/// out), so this only states it once.
@inline(__always)
func made<T>(_ object: T?) -> T {
  guard let object else { preconditionFailure("GTK returned no object") }
  return object
}

/// A widget's pointer as the raw pointer `gobject(_:)` and the signal helpers take.
@inline(__always)
func raw<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutableRawPointer {
  UnsafeMutableRawPointer(pointer)
}

/// A signal handler's closure, retained by its connection.
private final class SignalBox<Action>: @unchecked Sendable {
  let action: Action
  init(_ action: Action) { self.action = action }
}

/// GLib's notice that a connection went: releases its closure.
private let releaseSignalBox: GClosureNotify = { data, _ in
  guard let data else { return }
  Unmanaged<AnyObject>.fromOpaque(data).release()
}

/// The closure behind a connection's user data.
private func signalAction<Action>(_ data: UnsafeMutableRawPointer?) -> Action {
  let box = Unmanaged<AnyObject>.fromOpaque(made(data)).takeUnretainedValue()
  guard let box = box as? SignalBox<Action> else {
    preconditionFailure("a handler of another type")
  }
  return box.action
}

/// An opaque GObject's pointer as a raw pointer.
@inline(__always)
func raw(_ pointer: OpaquePointer) -> UnsafeMutableRawPointer {
  UnsafeMutableRawPointer(pointer)
}

/// Connects Swift closures to GObject signals.
///
/// Each closure is boxed, retained by the connection and released by GLib when the handler
/// goes (with its object). Handlers run on the GTK main thread, which is the main actor's
/// (see ``MainQueueSource``), so each closure is main-actor isolated.
@MainActor
enum Signal {
  private static func connect<Action>(
    _ instance: UnsafeMutableRawPointer, _ name: String, _ trampoline: GCallback, _ action: Action
  ) {
    let box = Unmanaged.passRetained(SignalBox(action) as AnyObject).toOpaque()
    _ = phototimer_signal_connect(instance, name, trampoline, box, releaseSignalBox)
  }

  /// A signal whose handler takes only the instance: `clicked`, `toggled`, `activate`.
  static func on(
    _ instance: UnsafeMutableRawPointer, _ name: String, _ body: @escaping @MainActor () -> Void
  ) {
    typealias Handler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    let trampoline: Handler = { _, data in
      let body: @MainActor () -> Void = signalAction(data)
      MainActor.assumeIsolated { body() }
    }
    connect(instance, name, unsafeBitCast(trampoline, to: GCallback.self), body)
  }

  /// A signal that answers whether it handled the event: `close-request`.
  static func handled(
    _ instance: UnsafeMutableRawPointer, _ name: String, _ body: @escaping @MainActor () -> Bool
  ) {
    typealias Handler =
      @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean
    let trampoline: Handler = { _, data in
      let body: @MainActor () -> Bool = signalAction(data)
      return MainActor.assumeIsolated { body() } ? 1 : 0
    }
    connect(instance, name, unsafeBitCast(trampoline, to: GCallback.self), body)
  }

  /// A property change: `notify::selected`.
  static func notify(
    _ instance: UnsafeMutableRawPointer, _ property: String, _ body: @escaping @MainActor () -> Void
  ) {
    onWithArgument(instance, "notify::\(property)", body)
  }

  /// A `GAction`'s `activate` (its parameter is not used).
  static func activated(
    _ action: UnsafeMutableRawPointer, _ body: @escaping @MainActor () -> Void
  ) {
    onWithArgument(action, "activate", body)
  }

  /// A signal whose handler takes the instance and one pointer it does not need (a
  /// `GParamSpec`, a `GVariant`).
  private static func onWithArgument(
    _ instance: UnsafeMutableRawPointer, _ name: String, _ body: @escaping @MainActor () -> Void
  ) {
    typealias Handler =
      @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?)
      -> Void
    let trampoline: Handler = { _, _, data in
      let body: @MainActor () -> Void = signalAction(data)
      MainActor.assumeIsolated { body() }
    }
    connect(instance, name, unsafeBitCast(trampoline, to: GCallback.self), body)
  }

  /// A dialog's `response`: the response's id.
  static func response(
    _ instance: UnsafeMutableRawPointer, _ body: @escaping @MainActor (Int32) -> Void
  ) {
    typealias Handler =
      @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void
    let trampoline: Handler = { _, response, data in
      let body: @MainActor (Int32) -> Void = signalAction(data)
      MainActor.assumeIsolated { body(response) }
    }
    connect(instance, "response", unsafeBitCast(trampoline, to: GCallback.self), body)
  }

  /// A click gesture's `released` (a click or a touch let go), with the count of presses.
  ///
  /// NB: the signal passes two doubles (x, y) after the count; on x86-64 and arm64 they travel
  /// in floating-point registers, so a handler of (instance, count, data) reads the data.
  static func released(
    _ gesture: UnsafeMutableRawPointer, _ body: @escaping @MainActor () -> Void
  ) {
    typealias Handler =
      @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void
    let trampoline: Handler = { _, _, data in
      let body: @MainActor () -> Void = signalAction(data)
      MainActor.assumeIsolated { body() }
    }
    connect(gesture, "released", unsafeBitCast(trampoline, to: GCallback.self), body)
  }

  /// A key controller's `key-pressed`: the key's value and the modifiers; answers whether it
  /// handled the key.
  static func keyPressed(
    _ controller: UnsafeMutableRawPointer,
    _ body: @escaping @MainActor (_ key: UInt32, _ modifiers: GdkModifierType) -> Bool
  ) {
    typealias Handler =
      @convention(c) (
        UnsafeMutableRawPointer?, guint, guint, GdkModifierType, UnsafeMutableRawPointer?
      ) ->
      gboolean
    let trampoline: Handler = { _, key, _, modifiers, data in
      let body: @MainActor (UInt32, GdkModifierType) -> Bool = signalAction(data)
      return MainActor.assumeIsolated { body(key, modifiers) } ? 1 : 0
    }
    connect(controller, "key-pressed", unsafeBitCast(trampoline, to: GCallback.self), body)
  }
}

/// Small conveniences over GTK's C API.
@MainActor
enum GTK {
  static func label(_ text: String, classes: [String] = []) -> Widget {
    let label = made(gtk_label_new(text))
    for name in classes { gtk_widget_add_css_class(label, name) }
    return label
  }

  static func setText(_ label: Widget, _ text: String) {
    let label = OpaquePointer(label)
    if String(cString: gtk_label_get_text(label)) != text { gtk_label_set_text(label, text) }
  }

  static func box(
    _ orientation: GtkOrientation, spacing: Int32 = 6, _ children: [Widget] = []
  )
    -> Widget
  {
    let box = made(gtk_box_new(orientation, spacing))
    for child in children { append(box, child) }
    return box
  }

  static func append(_ box: Widget, _ child: Widget) {
    gtk_box_append(gobject(raw(box), as: GtkBox.self), child)
  }

  static func button(_ text: String, tooltip: String? = nil) -> Widget {
    let button = made(gtk_button_new_with_mnemonic(text))
    if let tooltip { gtk_widget_set_tooltip_text(button, tooltip) }
    // NB: the window's keys (space, Enter) are the timer's, not the focused button's.
    gtk_widget_set_focus_on_click(button, 0)
    return button
  }

  static func onClick(_ button: Widget, _ action: @escaping @MainActor () -> Void) {
    Signal.on(raw(button), "clicked", action)
  }

  static func check(_ text: String, active: Bool) -> Widget {
    let check = made(gtk_check_button_new_with_mnemonic(text))
    gtk_check_button_set_active(gobject(raw(check), as: GtkCheckButton.self), active ? 1 : 0)
    gtk_widget_set_focus_on_click(check, 0)
    return check
  }

  static func onToggle(_ check: Widget, _ action: @escaping @MainActor (Bool) -> Void) {
    let button = gobject(raw(check), as: GtkCheckButton.self)
    Signal.on(raw(check), "toggled") { action(gtk_check_button_get_active(button) != 0) }
  }

  /// A drop-down of `items`.
  static func dropDown(_ items: [String], selected: Int) -> Widget {
    let list = made(gtk_string_list_new(nil))
    for item in items { gtk_string_list_append(list, item) }
    // NB: the drop-down takes the model's reference.
    let dropDown = made(gtk_drop_down_new(list, nil))
    let typed = OpaquePointer(dropDown)
    gtk_drop_down_set_selected(typed, guint(max(0, selected)))
    gtk_widget_set_focus_on_click(dropDown, 0)
    return dropDown
  }

  /// Calls `action` with the index the user chose.
  static func onSelect(_ dropDown: Widget, _ action: @escaping @MainActor (Int) -> Void) {
    let typed = OpaquePointer(dropDown)
    Signal.notify(raw(dropDown), "selected") { action(Int(gtk_drop_down_get_selected(typed))) }
  }

  static func replaceItems(of dropDown: Widget, with items: [String], selected: Int) {
    let typed = OpaquePointer(dropDown)
    let list = gtk_drop_down_get_model(typed)
    let count = g_list_model_get_n_items(list)
    var strings = items.map { strdup($0) } + [nil]
    strings.withUnsafeMutableBufferPointer { buffer in
      made(buffer.baseAddress).withMemoryRebound(
        to: UnsafePointer<CChar>?.self, capacity: buffer.count
      ) {
        gtk_string_list_splice(list, 0, count, $0)
      }
    }
    for string in strings { free(string) }
    gtk_drop_down_set_selected(typed, guint(max(0, selected)))
  }

  static func setSensitive(_ widget: Widget, _ on: Bool) {
    if (gtk_widget_get_sensitive(widget) != 0) != on {
      gtk_widget_set_sensitive(widget, on ? 1 : 0)
    }
  }

  static func setVisible(_ widget: Widget, _ on: Bool) {
    if (gtk_widget_get_visible(widget) != 0) != on { gtk_widget_set_visible(widget, on ? 1 : 0) }
  }

  static func loadCSS(_ css: String) {
    let provider = made(gtk_css_provider_new())
    gtk_css_provider_load_from_data(provider, css, -1)
    gtk_style_context_add_provider_for_display(
      gdk_display_get_default(), OpaquePointer(provider),
      guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    g_object_unref(provider)
  }
}

/// Animation on GTK's frame clock: a closure called once per frame the widget is drawn,
/// with the time since its first frame, until it returns `false`. Nothing runs between
/// animations: the clock ticks only while a callback is registered.
@MainActor
enum FrameClock {
  private final class Animation: @unchecked Sendable {
    let step: @MainActor (Duration) -> Bool
    var start: Int?
    init(_ step: @escaping @MainActor (Duration) -> Bool) { self.step = step }
  }

  private static let release: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<Animation>.fromOpaque(data).release()
  }

  private static let tick: GtkTickCallback = { _, clock, data in
    guard let data else { return 0 }
    let animation = Unmanaged<Animation>.fromOpaque(data).takeUnretainedValue()
    let now = gdk_frame_clock_get_frame_time(clock)
    let start = animation.start ?? now
    animation.start = start
    // NB: GTK calls tick callbacks on its main thread, the main actor's.
    let more = MainActor.assumeIsolated { animation.step(.microseconds(now - start)) }
    return more ? 1 : 0
  }

  /// Calls `step` on each of `widget`'s frames, from zero, until it returns `false`.
  ///
  /// - Parameters:
  ///   - widget: The widget whose frames pace it.
  ///   - step: Draws the animation `elapsed` into it; `false` ends it.
  static func animate(_ widget: Widget, _ step: @escaping @MainActor (Duration) -> Bool) {
    let box = Unmanaged.passRetained(Animation(step)).toOpaque()
    _ = gtk_widget_add_tick_callback(widget, tick, box, release)
  }
}
