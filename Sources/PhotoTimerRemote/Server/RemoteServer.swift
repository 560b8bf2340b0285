import CCivetWeb
import Foundation
import PhotoTimer
import PhotoTimerConcurrency

/// The remote's HTTP server: the page, the preview, the events, the intents and the photos,
/// served by civetweb's threads from a ``RemoteHub``.
///
/// Each connection is served on a thread of civetweb's own (never the cooperative pool); it
/// waits in the hub for something newer and writes it. The limits are civetweb's and ours:
/// request headers of at most 8 KiB, read within 10 s of connecting (a client that sends one
/// byte a second is dropped), a write that does not move for 10 s ends its connection (a
/// viewer that never reads), a preview viewer silent for 15 s is closed (the page asks at
/// least every 2.5 s; a viewer that never asks again is dropped), at most ``RemoteHub/maximumViewers`` preview viewers and
/// ``RemoteHub/maximumStreams`` event streams, 64 connections served at once.
///
/// ```swift
/// let hub = RemoteHub(camera: "scene camera", mirrored: false)
/// let server = try RemoteServer(hub: hub, address: RemoteAddress(host: "127.0.0.1", port: 0))
/// print(server.links[0])            // http://127.0.0.1:40123/?t=3f…
/// server.stop()                     // closes the listener and every connection, then returns
/// ```
public final class RemoteServer: Sendable {
  /// The token in the links.
  public let token: RemoteToken
  /// The token in the guests' links, or `nil` when they are turned off.
  public let guestToken: RemoteToken?
  /// The page's links, one per address listened on, the token in each.
  public let links: [String]
  /// The port listened on.
  public let port: Int
  /// `http://host:port` of each address listened on.
  private let origins: [String]
  /// What the connections' threads call into; it lives as long as the server.
  private let handlers: RemoteHandlers
  private let context = Locked<Handle?>(nil)

  /// civetweb's context. NB: @unchecked: it is only stopped, once, under `context`'s lock
  /// taken out (`stop()`), and read for its ports before it is shared.
  private struct Handle: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  /// Starts serving `hub` on `address`.
  ///
  /// - Parameters:
  ///   - hub: What to serve.
  ///   - address: Where to listen.
  ///   - token: The pairing token; a fresh one by default.
  ///   - answerLimit: How long a request waits for the program to take its intent on before
  ///     it is told the program did not answer (and the intent is dropped).
  /// - Throws: `RemoteError` when there is nowhere to listen or the address is taken.
  public convenience init(
    hub: RemoteHub, address: RemoteAddress, token: RemoteToken = RemoteToken(),
    answerLimit: Duration = .seconds(10)
  ) throws(RemoteError) {
    try self.init(
      hub: hub, address: address, token: token, guestToken: nil, answerLimit: answerLimit)
  }

  /// Starts serving `hub` on `address`, with the guests' pages (``guestLink(session:)``)
  /// open to `guestToken`.
  ///
  /// - Parameters:
  ///   - hub: What to serve.
  ///   - address: Where to listen.
  ///   - token: The pairing token; a fresh one by default.
  ///   - guestToken: The guests' token, which only reads the sessions the hub published
  ///     (``RemoteHub/publishSession(number:collage:shots:event:link:date:)``); `nil` turns the
  ///     guests' links off.
  ///   - answerLimit: How long a request waits for the program to take its intent on before
  ///     it is told the program did not answer (and the intent is dropped).
  /// - Throws: `RemoteError` when there is nowhere to listen or the address is taken.
  public init(
    hub: RemoteHub, address: RemoteAddress, token: RemoteToken = RemoteToken(),
    guestToken: RemoteToken?, answerLimit: Duration = .seconds(10)
  ) throws(RemoteError) {
    self.token = token
    self.guestToken = guestToken
    handlers = RemoteHandlers(
      hub: hub, router: RemoteRouter(token: token, guestToken: guestToken),
      answerLimit: answerLimit)
    let hosts = try address.hosts()
    let ports = hosts.map { host in
      host.contains(":") ? "[\(host)]:\(address.port)" : "\(host):\(address.port)"
    }
    Self.initializeLibrary
    // NB: civetweb's threads reach the handlers through this pointer; the server keeps them
    // alive, and stops civetweb (joining every thread) before it lets them go.
    let unmanaged = Unmanaged.passUnretained(handlers)
    let (started, failure) = Self.start(
      options: [
        "listening_ports", ports.joined(separator: ","),
        "num_threads", "64",
        "listen_backlog", "128",
        "connection_queue", "64",
        "max_request_size", "8192",
        "request_timeout_ms", "10000",
        "websocket_timeout_ms", "15000",
        "enable_keep_alive", "no",
        "enable_directory_listing", "no",
        "enable_auth_domain_check", "no",
      ], data: unmanaged.toOpaque())
    guard let started else {
      throw .cannotListen(
        ports.joined(separator: ", "),
        reason: failure.isEmpty ? "civetweb did not start" : failure)
    }
    var listening = [mg_server_port](repeating: mg_server_port(), count: 8)
    let count = mg_get_server_ports(started, Int32(listening.count), &listening)
    port = count > 0 ? Int(listening[0].port) : address.port
    let listened = listening.first.map { Int($0.port) } ?? address.port
    origins = hosts.map { host in
      "http://\(host.contains(":") ? "[\(host)]" : host):\(listened)"
    }
    links = origins.map { "\($0)/?t=\(token)" }
    context.withLock { $0 = Handle(pointer: started) }
    RemoteHandlers.register(started, handlers: unmanaged.toOpaque())
  }

  /// A guest's link to session `session`'s page, on the first address listened on (the one
  /// the QR code shows), or `nil` when the guests' links are off.
  public func guestLink(session: Int) -> String? {
    guard let guestToken, let origin = origins.first else { return nil }
    return "\(origin)/guest/session/\(session)?t=\(guestToken)"
  }

  /// A guest's link to the event's gallery, or `nil` when the guests' links are off.
  public var galleryLink: String? {
    guard let guestToken, let origin = origins.first else { return nil }
    return "\(origin)/guest?t=\(guestToken)"
  }

  /// Stops serving: the hub says goodbye to every page, the listener closes, every
  /// connection's thread ends and its socket closes; returns when all of that is done. It
  /// blocks: call it off the cooperative pool (`OffPool.blocking`).
  public func stop() {
    handlers.hub.close()
    // NB: civetweb refuses every write once it is stopping: the event streams say goodbye
    // first (they end as soon as they have written it; only a client that stopped reading
    // makes this wait its limit).
    handlers.hub.waitForStreamsToEnd(timeout: .seconds(3))
    guard
      let running = context.withLock({ context -> Handle? in
        defer { context = nil }
        return context
      })
    else { return }
    mg_stop(running.pointer)
  }

  deinit {
    stop()
  }

  /// The preview's latency, capture to paint, of each frame the pages reported, oldest
  /// first (the last 1,000).
  package var paintLatencies: [Duration] { handlers.latencies.withLock { $0 } }

  /// Starts civetweb with `options`; the context, or civetweb's words for why not.
  private static func start(
    options: [String], data: UnsafeMutableRawPointer
  )
    -> (OpaquePointer?, String)
  {
    withCStrings(options) { pointers in
      var callbacks = mg_callbacks()
      // NB: civetweb's own log goes nowhere: failures reach the caller as errors.
      callbacks.log_message = { _, _ in 1 }
      var text = [CChar](repeating: 0, count: 256)
      var code: UInt32 = 0
      let started = withUnsafeMutablePointer(to: &callbacks) { callbacks in
        withUnsafeMutablePointer(to: &code) { code in
          text.withUnsafeMutableBufferPointer { buffer in
            var setup = mg_init_data(
              callbacks: callbacks, user_data: data, configuration_options: pointers.baseAddress)
            var error = mg_error_data(
              code: code, text: buffer.baseAddress, text_buffer_size: buffer.count)
            return mg_start2(&setup, &error)
          }
        }
      }
      let words = String(
        decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return (started, words)
    }
  }

  private static let initializeLibrary: Void = {
    _ = mg_init_library(0)
  }()
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings.
private func withCStrings<Result>(
  _ strings: [String], _ body: (UnsafeMutableBufferPointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
  let copies = strings.map { strdup($0) }
  defer { copies.forEach { free($0) } }
  var pointers = copies.map { UnsafePointer<CChar>($0) } + [nil]
  return pointers.withUnsafeMutableBufferPointer { body($0) }
}
