"""A real HTTP server on 127.0.0.1 (python's http.server in a thread) that answers a script of
responses in order, then its last one again; it records each request's arrival. `running` is the
thread and lifetime around any handler (the Memorystore stand-in uses it too)."""

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
def running(handler, **state):
    """Serves `handler` (a BaseHTTPRequestHandler) on 127.0.0.1 in a thread until the block ends;
    yields the server, which carries `state` as attributes and a `lock` for the handler's updates."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.lock = threading.Lock()
    for name, value in state.items():
        setattr(server, name, value)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextlib.contextmanager
def serve(script):
    """Yields (url, server); `script` is a list of (status, headers)."""
    with running(_Handler, script=script, count=0, arrivals=[]) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}/items", server
