// `GPSDEndpoint` is a pure value and lives in PhotoTimerLocation, where the command line's
// grammar reads `--gpsd` without the socket code; an app that imports PhotoTimerGPSD alone
// still finds it here.
@_exported import struct PhotoTimerLocation.GPSDEndpoint
