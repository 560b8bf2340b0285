import CGTK
import PhotoTimer

/// The window's intents as GActions (`win.start`, `win.take-now`, …) and the keys that
/// trigger them.
///
/// Buttons name the action they trigger, so their sensitivity follows whether it is enabled
/// now: one place (``setEnabled(_:_:)``) says what can be done. A key is looked up in
/// ``shortcuts`` and triggers the first of its actions that is enabled, so one key serves
/// two intents in turn (space starts the count, then takes it now). Keys are read in the
/// capture phase: they are the timer's even when a button has the focus.
@MainActor
final class WindowActions {
  /// An intent of the window: one of the presentation's actions (its GAction is named by the
  /// action's wire name, `win.take-now`), or one only the window has.
  enum Name: Hashable, CaseIterable {
    /// An action every front end has: enabled exactly when the presentation allows it.
    case intent(PhotoTimerPresentation.Action)
    /// Back from the photo to the preview.
    case back
    /// The photo's folder in the file manager.
    case openFolder

    static let allCases: [Name] =
      PhotoTimerPresentation.Action.allCases.map(Name.intent) + [.back, .openFolder]

    static var start: Name { .intent(.start) }
    static var takeNow: Name { .intent(.takeNow) }
    static var cancel: Name { .intent(.cancel) }
    static var restart: Name { .intent(.restart) }
    static var quit: Name { .intent(.quit) }

    /// The GAction's name: `take-now`, `open-folder`.
    var rawValue: String {
      switch self {
      case .intent(let action): action.rawValue
      case .back: "back"
      case .openFolder: "open-folder"
      }
    }

    /// The name a button's `action-name` takes.
    var detailed: String { "win.\(rawValue)" }
  }

  /// A key and the actions it triggers, the first enabled one.
  struct Shortcut {
    var key: Int32
    var control = false
    var actions: [Name]
  }

  /// Every key of the window. Space and Enter take it now while counting, else start; Esc
  /// cancels a run, else goes back from the photo; r counts again from the top, else starts;
  /// w turns the count that starts by itself on or off.
  static let shortcuts: [Shortcut] = [
    Shortcut(key: GDK_KEY_space, actions: [.intent(.keep), .takeNow, .start]),
    Shortcut(key: GDK_KEY_Return, actions: [.intent(.keep), .takeNow, .start]),
    Shortcut(key: GDK_KEY_KP_Enter, actions: [.intent(.keep), .takeNow, .start]),
    Shortcut(key: GDK_KEY_Escape, actions: [.cancel, .back]),
    Shortcut(key: GDK_KEY_r, actions: [.intent(.retake), .restart, .start]),
    Shortcut(key: GDK_KEY_R, actions: [.intent(.retake), .restart, .start]),
    Shortcut(key: GDK_KEY_w, actions: [.intent(.autoStart)]),
    Shortcut(key: GDK_KEY_W, actions: [.intent(.autoStart)]),
    Shortcut(key: GDK_KEY_p, actions: [.intent(.print)]),
    Shortcut(key: GDK_KEY_P, actions: [.intent(.print)]),
    Shortcut(key: GDK_KEY_u, actions: [.intent(.resume)]),
    Shortcut(key: GDK_KEY_U, actions: [.intent(.resume)]),
    Shortcut(key: GDK_KEY_q, control: true, actions: [.quit]),
    Shortcut(key: GDK_KEY_Q, control: true, actions: [.quit]),
  ]

  private let group = made(g_simple_action_group_new())
  private var actions: [Name: OpaquePointer] = [:]

  /// Makes the actions, each calling `perform` with its name, in `window`'s `win` group,
  /// with the window's keys.
  /// Asks for `name` itself, enabled or not (Print and Resume: a refusal is said).
  private let ask: @MainActor (Name) -> Void

  /// Whether a key asks for `name` even when it is off (the print desk says why not).
  private func asks(_ name: Name) -> Bool {
    printing && (name == .intent(.print) || name == .intent(.resume))
  }

  /// Whether the window prints (`--print`).
  var printing = false

  init(window: Widget, perform: @escaping @MainActor (Name) -> Void) {
    ask = perform
    for name in Name.allCases {
      let action = made(g_simple_action_new(name.rawValue, nil))
      Signal.activated(raw(action)) { perform(name) }
      g_action_map_add_action(OpaquePointer(group), action)
      // NB: the group keeps its own reference.
      g_object_unref(raw(action))
      actions[name] = action
    }
    gtk_widget_insert_action_group(window, "win", OpaquePointer(group))
    let keys = made(gtk_event_controller_key_new())
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
    Signal.keyPressed(raw(keys)) { [weak self] key, modifiers in
      self?.pressed(key: key, modifiers: modifiers) ?? false
    }
    gtk_widget_add_controller(window, keys)
    g_object_unref(raw(group))
  }

  /// Whether `name` can be triggered now (a button for it is sensitive when it can).
  /// Enables what the presentation allows now (quit stays enabled: closing the window is
  /// always possible, it cancels a run), going back to the preview when `back`, opening the
  /// photo's folder when `openFolder`.
  func enable(allowed: [PhotoTimerPresentation.Action], back: Bool, openFolder: Bool) {
    for action in PhotoTimerPresentation.Action.allCases where action != .quit {
      setEnabled(.intent(action), allowed.contains(action))
    }
    setEnabled(.back, back)
    setEnabled(.openFolder, openFolder)
  }

  func setEnabled(_ name: Name, _ on: Bool) {
    guard let action = actions[name] else { return }
    if (g_action_get_enabled(action) != 0) != on { g_simple_action_set_enabled(action, on ? 1 : 0) }
  }

  /// Whether `name` can be triggered now.
  func isEnabled(_ name: Name) -> Bool {
    actions[name].map { g_action_get_enabled($0) != 0 } ?? false
  }

  /// Makes `button` trigger `name`.
  static func bind(_ button: Widget, to name: Name) {
    gtk_actionable_set_action_name(OpaquePointer(button), name.detailed)
  }

  /// Looks at each key first (a booth's screen): `true` or `false` when it handled it or
  /// refused it, `nil` to leave it to the shortcuts.
  var intercept: ((_ key: UInt32, _ modifiers: GdkModifierType) -> Bool?)?

  /// Triggers the first of `names` that is enabled; whether one was.
  @discardableResult
  func trigger(_ names: [Name]) -> Bool {
    guard let name = names.first(where: isEnabled), let action = actions[name] else {
      return false
    }
    g_action_activate(action, nil)
    return true
  }

  /// Whether `key` is one of the window's shortcuts (with or without Control).
  static func isShortcut(_ key: UInt32) -> Bool { shortcuts.contains { Int32(key) == $0.key } }

  private func pressed(key: UInt32, modifiers: GdkModifierType) -> Bool {
    if let handled = intercept?(key, modifiers) { return handled }
    let control = modifiers.rawValue & GDK_CONTROL_MASK.rawValue != 0
    // NB: Alt with a letter is a mnemonic (Alt+R opens the Remote popover), never a timer key.
    let other = GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue | GDK_META_MASK.rawValue
    guard modifiers.rawValue & other == 0,
      let shortcut = Self.shortcuts.first(where: { Int32(key) == $0.key && control == $0.control }),
      let name = shortcut.actions.first(where: isEnabled) ?? shortcut.actions.first(where: asks),
      let action = actions[name]
    else { return false }
    // NB: Print and Resume are asked even when off: the print desk says why not.
    if !isEnabled(name) {
      ask(name)
      return true
    }
    g_action_activate(action, nil)
    return true
  }
}
