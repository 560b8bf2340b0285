// Declarations that moved after release 0.1.0 to a lower library, used as an app of 0.1.0
// used them: importing only the library that held them then. `GPSDEndpoint` moved from
// PhotoTimerGPSD to PhotoTimerLocation, `RemoteAddress` and `RemoteError` from
// PhotoTimerRemote to PhotoTimer (so that the command line's grammar reads `--gpsd` and
// `--remote` with no socket code); each old library re-exports them. Type-checked by
// `scripts/check-api.py` in `make lint`, like examples-0.1.0.swift. Never edit it to make it
// pass.

import PhotoTimerGPSD
import PhotoTimerRemote

func movedAfterRelease() throws(RemoteError) -> String {
  let endpoint: GPSDEndpoint = GPSDEndpoint("[::1]:2948") ?? .standard
  let defaults = GPSDEndpoint(host: "127.0.0.1", port: 2947)
  let address = try RemoteAddress(parsing: "127.0.0.1:\(RemoteAddress.defaultPort)")
  let lan = RemoteAddress(host: nil, port: 0)
  let problem: RemoteError = .badAddress("x", reason: "y")
  return [endpoint.description, defaults.description, address.description, lan.description]
    .joined() + "\(problem)"
}
