"""A stand-in of the Memorystore v1 REST API on 127.0.0.1: `GET
/v1/projects/*/locations/*/instances/*` answers a script of responses in order, then its last one
again. Errors are Google's JSON error body, `{"error": {"code", "message", "status"}}`; a 200 is an
Instance. Every request's path is recorded."""

import contextlib
import http.server
import json
import re

from http_server import running

INSTANCE_PATH = re.compile(r"^/v1/projects/[^/]+/locations/[^/]+/instances/[^/?]+(\?.*)?$")
STATUS_NAMES = {429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 404: "NOT_FOUND"}


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802 (http.server's naming)
        server = self.server
        if not INSTANCE_PATH.match(self.path):
            self._send(404, {}, {"error": {"code": 404, "message": "no such path", "status": "NOT_FOUND"}})
            return
        with server.lock:
            status, headers = server.script[min(len(server.paths), len(server.script) - 1)]
            server.paths.append(self.path)
        if status == 200:
            name = self.path.split("?", 1)[0][len("/v1/"):]
            body = {"name": name, "state": "ACTIVE", "shardCount": 1}
        else:
            body = {"error": {"code": status, "message": f"scripted {status}", "status": STATUS_NAMES[status]}}
        self._send(status, headers, body)

    def _send(self, status, headers, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):  # the test output stays readable
        pass


@contextlib.contextmanager
def memorystore(script):
    """Yields (endpoint "http://127.0.0.1:PORT", server); `script` is a list of (status, headers);
    `server.paths` lists the requests' paths."""
    with running(_Handler, script=script, paths=[]) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}", server
