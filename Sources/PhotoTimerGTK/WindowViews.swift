/// The widgets the window's controller fills.
@MainActor
struct WindowViews {
  var window: Widget
  var preview: PreviewArea
  var controls: ControlBar
  var cameras: CameraMenu
  var photo: PhotoPage
  var actions: WindowActions
  var remote: RemotePanel
}
