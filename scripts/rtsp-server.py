#!/usr/bin/python3
"""An RTSP camera for the tests: GStreamer's RTSP server on 127.0.0.1, a moving test
pattern as Motion JPEG over RTP at /cam, behind HTTP basic authentication when a user is
given. Prints `ready PORT` once it listens; runs until killed.

    rtsp-server.py [--port N] [--user NAME --password SECRET]

Debian: gstreamer1.0-rtsp, gir1.2-gst-rtsp-server-1.0, python3-gst-1.0 (python3-gi).
"""

import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--user")
    parser.add_argument("--password")
    options = parser.parse_args()
    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(str(options.port))
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_launch(
        "( videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=320,height=240,"
        "framerate=15/1 ! jpegenc quality=80 ! rtpjpegpay name=pay0 pt=26 )")
    factory.set_shared(True)
    if options.user:
        auth = GstRtspServer.RTSPAuth()
        token = GstRtspServer.RTSPToken()
        token.set_string(GstRtspServer.RTSP_TOKEN_MEDIA_FACTORY_ROLE, "camera")
        auth.add_basic(GstRtspServer.RTSPAuth.make_basic(options.user, options.password), token)
        server.set_auth(auth)
        permissions = GstRtspServer.RTSPPermissions()
        permissions.add_permission_for_role(
            "camera", GstRtspServer.RTSP_PERM_MEDIA_FACTORY_ACCESS, True)
        permissions.add_permission_for_role(
            "camera", GstRtspServer.RTSP_PERM_MEDIA_FACTORY_CONSTRUCT, True)
        factory.set_permissions(permissions)
    server.get_mount_points().add_factory("/cam", factory)
    if server.attach(None) == 0:
        sys.stderr.write("rtsp-server: cannot listen\n")
        return 1
    print(f"ready {server.get_bound_port()}", flush=True)
    GLib.MainLoop().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
