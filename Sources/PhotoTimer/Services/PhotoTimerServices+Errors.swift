extension PhotoTimerServices {
  /// The same services, with every error their steps and capture throw passed through
  /// `transform` first.
  ///
  /// A library's errors say what failed in the library's terms; an application uses this
  /// to add its own advice (which option to change, which command to run) before the
  /// engine turns the error into the message a person sees.
  ///
  /// ```swift
  /// let advised = services.mapErrors { error in
  ///   error is GPSDError ? Advised(error, "or choose another gpsd in Settings") : error
  /// }
  /// ```
  ///
  /// - Parameter transform: Maps an error to the error reported; cancellation is passed
  ///   through untouched.
  /// - Returns: The wrapped services.
  public func mapErrors(
    _ transform: @escaping @Sendable (any Error) -> any Error
  ) -> PhotoTimerServices {
    @Sendable func mapped(_ error: any Error) -> any Error {
      error is CancellationError ? error : transform(error)
    }
    var services = self
    let camera = camera
    // NB: changed in place, so whatever else the camera offers (its watch) is kept.
    services.camera.prepare = {
      do { return try await camera.prepare() } catch { throw mapped(error) }
    }
    services.camera.shoot = { request in
      do { return try await camera.shoot(request) } catch { throw mapped(error) }
    }
    if let watch = camera.watch {
      services.camera.watch = {
        do { try await watch() } catch { throw mapped(error) }
      }
    }
    let location = location.perform
    services.location.perform = {
      do { return try await location() } catch { throw mapped(error) }
    }
    let filter = filter.perform
    services.filter.perform = {
      do { return try await filter() } catch { throw mapped(error) }
    }
    return services
  }
}
