import CGTK
import Foundation
import PhotoTimerSetup

/// A booth's screen (`--booth`): one big Start over the picture that any key, click or touch
/// fires (a USB arcade button is a key); while nobody uses it, the live picture and the last
/// collages in turn (``BoothAttract``); and with `--fullscreen`, a screen that guests cannot
/// leave: only Esc, then a confirmation.
///
/// Keys go through it before the window's shortcuts: the shortcuts keep their meaning (space
/// keeps a shot, r takes it again), every other key is the booth's one button.
@MainActor
final class BoothScreen {
  /// Whether the booth has the whole screen: it is left only by Esc and a confirmation.
  let kiosk: Bool
  private let actions: WindowActions
  private let pages: WindowPages
  private let preview: PreviewArea
  private let tracer: WindowTracer?
  private let attract: BoothAttract?
  private let leave: @MainActor () -> Void
  private let start = GTK.button("Touch the screen or press any button to start")
  private let confirmation = GTK.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
  private var confirmLimit: Task<Void, Never>?
  private var ticker: Task<Void, Never>?
  /// Whether the confirmation to leave is shown.
  private(set) var confirming = false
  /// The collages made this evening, oldest first, each with its guests' link.
  private var collages: [(file: URL, guest: String?)] = []
  private var lastActivity = ContinuousClock.now
  private var scene = BoothAttract.Scene.current

  /// The booth's screen over `preview`.
  ///
  /// - Parameters:
  ///   - kiosk: Whether the booth fills the screen (`--fullscreen`).
  ///   - idle: Seconds without a press before the idle turn (`--idle`); 0 never.
  ///   - leave: Closes the window.
  init(
    preview: PreviewArea, actions: WindowActions, pages: WindowPages, tracer: WindowTracer?,
    kiosk: Bool, idle: Int, leave: @escaping @MainActor () -> Void
  ) {
    self.kiosk = kiosk
    self.actions = actions
    self.pages = pages
    self.preview = preview
    self.tracer = tracer
    self.leave = leave
    // NB: a short idle (a test's, a busy party's) keeps the live picture as short in each turn.
    attract =
      idle > 0 ? BoothAttract(idleAfter: .seconds(idle), live: .seconds(min(idle, 10))) : nil

    gtk_widget_add_css_class(start, "big-start")
    gtk_widget_set_halign(start, GTK_ALIGN_CENTER)
    gtk_widget_set_valign(start, GTK_ALIGN_END)
    // NB: on a full screen the bar lies over the picture's foot: the Start stands above it.
    gtk_widget_set_margin_bottom(start, kiosk ? 120 : 40)
    WindowActions.bind(start, to: .start)
    preview.addOverlay(start)

    let stay = GTK.button("Stay")
    let leaving = GTK.button("Leave the booth")
    gtk_widget_add_css_class(leaving, "destructive-action")
    GTK.onClick(stay) { [weak self] in self?.stay() }
    GTK.onClick(leaving) { [weak self] in self?.leave() }
    let buttons = GTK.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [stay, leaving])
    gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
    GTK.append(confirmation, GTK.label("Leave the booth?", classes: ["heading"]))
    GTK.append(
      confirmation, GTK.label("Press Esc again to leave, or any other key to stay"))
    GTK.append(confirmation, buttons)
    gtk_widget_add_css_class(confirmation, "confirm")
    gtk_widget_set_halign(confirmation, GTK_ALIGN_CENTER)
    gtk_widget_set_valign(confirmation, GTK_ALIGN_CENTER)
    GTK.setVisible(confirmation, false)
    preview.addOverlay(confirmation)

    // NB: a click or a touch anywhere on the picture is the button (the Start button and the
    // confirmation's claim their own).
    let click = made(gtk_gesture_click_new())
    Signal.released(raw(click)) { [weak self] in self?.clicked() }
    gtk_widget_add_controller(preview.widget, click)
    actions.intercept = { [weak self] key, modifiers in self?.pressed(key, modifiers) }

    schedule()
  }

  /// Shows the big Start over the live picture while a session may start (over a collage it
  /// would hide the guests' code: a touch anywhere still starts).
  func render() {
    let shown = actions.isEnabled(.start) && !confirming && pages.page == .preview
    GTK.setVisible(start, shown)
    if preview.checklistHidden != shown { preview.checklistHidden = shown }
  }

  /// A collage was made: it joins the idle turn.
  func collageMade(_ file: URL, guest: String?) {
    collages.append((file, guest))
    if collages.count > 16 { collages.removeFirst() }
    activity()
  }

  /// Something happened (a press, a session's step): the idle turn waits again.
  func activity() {
    lastActivity = .now
    scene = .current
    schedule()
  }

  /// Wakes the idle turn when its scene next changes (``BoothAttract/nextChange(after:collages:)``),
  /// and not before: no timer that polls.
  private func schedule() {
    ticker?.cancel()
    guard let attract else { return }
    let since = lastActivity.duration(to: .now)
    guard let next = attract.nextChange(after: since, collages: collages.count) else { return }
    ticker = Task { [weak self] in
      guard (try? await Task.sleep(for: next - since)) != nil, let self else { return }
      self.tick()
    }
  }

  /// Asks whether to leave (Esc with nothing to cancel, Ctrl+Q, the window's close).
  func confirmLeaving() {
    confirming = true
    GTK.setVisible(confirmation, true)
    render()
    tracer?.booth("confirm")
    confirmLimit?.cancel()
    // NB: nobody answers (a guest pressed Esc and walked away): the booth stays.
    confirmLimit = Task { [weak self] in
      guard (try? await Task.sleep(for: .seconds(10))) != nil else { return }
      self?.stay()
    }
  }

  /// Ends every task it started.
  func close() {
    ticker?.cancel()
    confirmLimit?.cancel()
    actions.intercept = nil
  }

  private func stay() {
    guard confirming else { return }
    confirming = false
    confirmLimit?.cancel()
    GTK.setVisible(confirmation, false)
    render()
    tracer?.booth("stay")
  }

  /// A key: the confirmation's answer, a way out asked for, a shortcut (left to the window),
  /// or the booth's one button.
  private func pressed(_ key: UInt32, _ modifiers: GdkModifierType) -> Bool? {
    activity()
    let escape = Int32(key) == GDK_KEY_Escape
    if confirming {
      if escape { leave() } else { stay() }
      return true
    }
    let control = modifiers.rawValue & GDK_CONTROL_MASK.rawValue != 0
    let quit = control && (Int32(key) == GDK_KEY_q || Int32(key) == GDK_KEY_Q)
    if kiosk, quit || (escape && !actions.isEnabled(.cancel) && !actions.isEnabled(.back)) {
      confirmLeaving()
      return true
    }
    let other =
      GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue
      | GDK_META_MASK.rawValue
    // NB: Shift, Control… alone are no press; a shortcut keeps its meaning; in a window (not
    // the full screen) Tab, the arrows and the function keys still move about its controls.
    guard !Self.isModifier(key), modifiers.rawValue & other == 0, !WindowActions.isShortcut(key),
      kiosk || !Self.isNavigation(key)
    else { return nil }
    return button() ? true : nil
  }

  private func clicked() {
    activity()
    if confirming { return stay() }
    button()
  }

  /// The booth's one button: keep the shot under review, take it now, or start.
  @discardableResult
  private func button() -> Bool {
    actions.trigger([.intent(.keep), .takeNow, .start])
  }

  /// When the scene changes: the idle turn, while a session may start and nobody is here (a
  /// session under way, or the question to leave, counts as someone here).
  private func tick() {
    guard let attract, !pages.closing else { return }
    guard actions.isEnabled(.start), !confirming else { return activity() }
    let next = attract.scene(
      since: lastActivity.duration(to: .now), collages: collages.count)
    schedule()
    guard next != scene else { return }
    scene = next
    switch next {
    case .current: break
    case .live:
      pages.showPreview()
      tracer?.booth("idle live")
    case .collage(let index):
      let collage = collages[collages.count - 1 - index]
      pages.showCollage(collage.file, guest: collage.guest)
      tracer?.booth("idle collage \(index)")
    }
  }

  /// Tab, the arrows, Page Up and Down, Home, End, the function keys, the menu key.
  private static func isNavigation(_ key: UInt32) -> Bool {
    let keys = [
      GDK_KEY_Tab, GDK_KEY_ISO_Left_Tab, GDK_KEY_Left, GDK_KEY_Right, GDK_KEY_Up, GDK_KEY_Down,
      GDK_KEY_Page_Up, GDK_KEY_Page_Down, GDK_KEY_Home, GDK_KEY_End, GDK_KEY_Menu,
    ]
    return keys.contains(Int32(key))
      || (Int32(GDK_KEY_F1)...Int32(GDK_KEY_F35)).contains(Int32(key))
  }

  /// Shift, Control, Alt, Super, Caps Lock… (`GDK_KEY_Shift_L` to `GDK_KEY_Hyper_R`).
  private static func isModifier(_ key: UInt32) -> Bool {
    (UInt32(GDK_KEY_Shift_L)...UInt32(GDK_KEY_Hyper_R)).contains(key)
      || key == UInt32(GDK_KEY_ISO_Level3_Shift)
  }
}
