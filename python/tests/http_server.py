"""A real HTTP server on 127.0.0.1 (python's http.server in a thread) that answers a script of
responses in order, then its last one again; it records each request's arrival."""

import contextlib
import http.server
import threading
import time


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's naming)
        server = self.server
        with server.lock:
            status, headers = server.script[min(server.count, len(server.script) - 1)]
            server.count += 1
            server.arrivals.append(time.monotonic())
        body = b"ok" if status < 400 else b"busy"
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # the test output stays readable
        pass


@contextlib.contextmanager
def serve(script):
    """Yields (url, server); `script` is a list of (status, headers)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.script, server.count, server.arrivals, server.lock = script, 0, [], threading.Lock()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/items", server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
