import CV4L2
import Foundation
import PhotoTimerImaging
import PhotoTimerPOSIX

/// How V4L2 requests reach a driver: the kernel's, through a descriptor, or a stand-in that
/// answers them in tests. Every request goes through the syscall funnel under its own name
/// (`ioctl(VIDIOC_ENUM_FMT)`…), so each one can be made to fail by a ``FaultPlan``.
package struct V4L2Driver: Sendable {
  /// Opens a node: the kernel's through an owned descriptor, or the stand-in's handle on it.
  let openNode: @Sendable (String) throws(SystemCallError) -> V4L2Node

  /// The kernel's drivers: each node an owned descriptor (``FileDescriptor``), its requests
  /// `ioctl`s on it through the funnel.
  package static let kernel = V4L2Driver(openNode: { path throws(SystemCallError) in
    let node = try FileDescriptor.open(path, flags: FileSystem.OpenFlags.device)
    return V4L2Node(
      send: { name, request, argument throws(SystemCallError) in
        try node.control(name, request: request, argument: argument)
      },
      close: { node.closeQuietly() })
  })

  /// A stand-in driver: `open` gives any number, `send` answers requests by filling them.
  ///
  /// - Parameters:
  ///   - open: Opens a path (throw to refuse it).
  ///   - send: Answers a request, as `ioctl` would: -1 with `errno` set on failure.
  package static func standIn(
    open: @escaping @Sendable (String) throws(SystemCallError) -> Int32,
    send: @escaping @Sendable (Int32, UInt, UnsafeMutableRawPointer) -> Int32
  ) -> V4L2Driver {
    V4L2Driver(openNode: { path throws(SystemCallError) in
      let handle = try open(path)
      return V4L2Node(
        send: { name, request, argument throws(SystemCallError) in
          try SystemCall.value(name) { send(handle, request, argument) }
        },
        close: {})
    })
  }

  /// Opens `path` for queries (not for streaming: another process may stream meanwhile).
  func open(_ path: String) throws(V4L2Error) -> V4L2Handle {
    do throws(SystemCallError) {
      return V4L2Handle(path: path, node: try openNode(path))
    } catch {
      switch error.errno {
      case .noSuchFile, Errno(rawValue: ENODEV), Errno(rawValue: ENXIO): throw .noSuchDevice(path)
      case .permissionDenied, .notPermitted: throw .permissionDenied(path)
      default: throw .request(path: path, error)
      }
    }
  }
}

/// Request numbers, by name for the funnel.
enum V4L2Request {
  static let querycap = (phototimer_vidioc_querycap, "ioctl(VIDIOC_QUERYCAP)")
  static let enumFormat = (phototimer_vidioc_enum_fmt, "ioctl(VIDIOC_ENUM_FMT)")
  static let enumSizes = (phototimer_vidioc_enum_framesizes, "ioctl(VIDIOC_ENUM_FRAMESIZES)")
  static let enumIntervals = (
    phototimer_vidioc_enum_frameintervals, "ioctl(VIDIOC_ENUM_FRAMEINTERVALS)"
  )
  static let queryControl = (phototimer_vidioc_queryctrl, "ioctl(VIDIOC_QUERYCTRL)")
  static let getControl = (phototimer_vidioc_g_ctrl, "ioctl(VIDIOC_G_CTRL)")
  static let setControl = (phototimer_vidioc_s_ctrl, "ioctl(VIDIOC_S_CTRL)")
}

/// An open node as the driver gives it: how to send it a request (under the request's name,
/// through the funnel) and how to close it.
struct V4L2Node: Sendable {
  /// Sends a request: its name, number and argument.
  let send: @Sendable (String, UInt, UnsafeMutableRawPointer) throws(SystemCallError) -> Void
  /// Closes the node.
  let close: @Sendable () -> Void
}

/// An open node, for queries; closed by its owner's `defer`.
struct V4L2Handle {
  let path: String
  let node: V4L2Node

  func close() { node.close() }

  /// Sends one request through the funnel.
  func request<Argument>(
    _ request: (UInt, String), _ argument: inout Argument
  ) throws(SystemCallError) {
    try withUnsafeMutableBytes(of: &argument) { bytes throws(SystemCallError) in
      guard let base = bytes.baseAddress else { return }
      try node.send(request.1, request.0, base)
    }
  }

  /// A request that answers `EINVAL` past the end of a list: `false` there.
  func listed<Argument>(
    _ request: (UInt, String), _ argument: inout Argument
  ) throws(V4L2Error) -> Bool {
    do throws(SystemCallError) {
      try self.request(request, &argument)
      return true
    } catch  where error.errno == .invalidArgument {
      return false
    } catch {
      throw .request(path: path, error)
    }
  }

  /// `VIDIOC_QUERYCAP`: names and whether the node captures video.
  func describe() throws(V4L2Error) -> V4L2Device {
    var capability = v4l2_capability()
    do throws(SystemCallError) {
      try request(V4L2Request.querycap, &capability)
    } catch  where error.errno == Errno(rawValue: ENOTTY) || error.errno == .invalidArgument {
      throw .notVideoDevice(path)
    } catch  where error.errno == Errno(rawValue: ENODEV) {
      throw .noSuchDevice(path)
    } catch {
      throw .request(path: path, error)
    }
    let caps =
      capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
      ? capability.device_caps : capability.capabilities
    let capture = UInt32(V4L2_CAP_VIDEO_CAPTURE) | UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE)
    return V4L2Device(
      path: path, card: Self.text(capability.card), driver: Self.text(capability.driver),
      busInfo: Self.text(capability.bus_info),
      capturesVideo: caps & capture != 0 && caps & UInt32(V4L2_CAP_STREAMING) != 0,
      modes: [], unreadFormats: [], usb: nil)
  }

  /// Every format, size and rate (`VIDIOC_ENUM_FMT`, `…_FRAMESIZES`, `…_FRAMEINTERVALS`).
  func modes() throws(V4L2Error) -> (readable: [CameraMode], unread: [PixelFormat]) {
    var modes: [CameraMode] = []
    var unread: [PixelFormat] = []
    // NB: bounded: a driver that never says EINVAL cannot keep us here.
    for index in 0..<256 {
      var format = v4l2_fmtdesc()
      format.index = UInt32(index)
      format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
      guard try listed(V4L2Request.enumFormat, &format) else { break }
      let pixel = PixelFormat(fourCC: Self.fourCC(format.pixelformat))
      guard GStreamerFormat(pixel) != nil else {
        unread.append(pixel)
        continue
      }
      for size in try sizes(format.pixelformat) {
        let rates = try rates(format.pixelformat, size)
        if !rates.isEmpty { modes.append(CameraMode(format: pixel, size: size, rates: rates)) }
      }
    }
    return (modes, unread)
  }

  private func sizes(_ code: UInt32) throws(V4L2Error) -> [FrameSize] {
    var sizes: [FrameSize] = []
    for index in 0..<256 {
      var size = v4l2_frmsizeenum()
      size.index = UInt32(index)
      size.pixel_format = code
      guard try listed(V4L2Request.enumSizes, &size) else { break }
      switch size.type {
      case V4L2_FRMSIZE_TYPE_DISCRETE.rawValue:
        let discrete = size.discrete
        guard (1...65_535).contains(discrete.width), (1...65_535).contains(discrete.height) else {
          continue
        }
        sizes.append(FrameSize(width: Int(discrete.width), height: Int(discrete.height)))
      default:
        // NB: a stepwise range (v4l2loopback, some capture cards): its ends, and the common
        // sizes inside it.
        let range = size.stepwise
        let low = FrameSize(width: Int(range.min_width), height: Int(range.min_height))
        let high = FrameSize(width: Int(range.max_width), height: Int(range.max_height))
        let common = [(640, 480), (1280, 720), (1920, 1080)].map {
          FrameSize(width: $0.0, height: $0.1)
        }
        sizes +=
          [low]
          + common.filter {
            $0.width > low.width && $0.width < high.width && $0.height > low.height
              && $0.height < high.height
          } + (high == low ? [] : [high])
        return sizes.filter { (1...65_535).contains($0.width) && (1...65_535).contains($0.height) }
      }
    }
    return sizes
  }

  private func rates(_ code: UInt32, _ size: FrameSize) throws(V4L2Error) -> [FrameRate] {
    var rates: [FrameRate] = []
    for index in 0..<256 {
      var interval = v4l2_frmivalenum()
      interval.index = UInt32(index)
      interval.pixel_format = code
      interval.width = UInt32(size.width)
      interval.height = UInt32(size.height)
      guard try listed(V4L2Request.enumIntervals, &interval) else { break }
      if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
        let fraction = interval.discrete
        guard fraction.numerator > 0, fraction.denominator > 0 else { continue }
        rates.append(
          FrameRate(frames: Int(fraction.denominator), per: Int(fraction.numerator)))
      } else {
        // A continuous or stepwise range: its fastest end (the shortest interval).
        let fastest = interval.stepwise.min
        guard fastest.numerator > 0, fastest.denominator > 0 else { break }
        rates.append(FrameRate(frames: Int(fastest.denominator), per: Int(fastest.numerator)))
        break
      }
    }
    return rates
  }

  /// One control's value (`VIDIOC_G_CTRL`), or `nil` when the device has no such control.
  func control(_ id: UInt32) -> Int? {
    var query = v4l2_queryctrl()
    query.id = id
    guard (try? request(V4L2Request.queryControl, &query)) != nil,
      query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) == 0
    else { return nil }
    var value = v4l2_control()
    value.id = id
    guard (try? request(V4L2Request.getControl, &value)) != nil else { return nil }
    return Int(value.value)
  }

  /// Writes one control's value (`VIDIOC_S_CTRL`).
  func setControl(_ id: UInt32, _ value: Int) throws(V4L2Error) {
    var control = v4l2_control()
    control.id = id
    control.value = Int32(clamping: value)
    do throws(SystemCallError) {
      try request(V4L2Request.setControl, &control)
    } catch {
      throw .request(path: path, error)
    }
  }

  static func text<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { bytes in
      let end = bytes.firstIndex(of: 0) ?? bytes.count
      return String(decoding: bytes[..<end], as: UTF8.self)
    }
  }

  static func fourCC(_ code: UInt32) -> String {
    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> ($0 * 8)) }
    return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
  }
}
