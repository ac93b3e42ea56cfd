#!/usr/bin/env python3
"""Many idle counter sessions on one node, each with its socket open, and what they cost.

Starts `tether-bench --serve counter-scale` (the getting-started counter with room for 20,000
sessions and connections), then opens N visitors, each from a loopback address of its own
(127.x.y.z; on Linux all of 127.0.0.0/8 is this machine): the page, its socket, the hello,
the app's first message. With them all sitting idle it reads the node's heap (glibc's
mallinfo2, at /bench/heap) and RSS, and times /health and a new visitor's click (page,
socket, hello, then one click until its answer) while they sit.

Usage: python3 Benchmarks/Scale/idle_sessions.py [--sessions 10000] [--bench PATH]
Build first: swift build --package-path Benchmarks -c release --product tether-bench
Descriptors: the node and this script each hold one per socket; both raise their soft limit to
the hard one (`ulimit -Hn`), which must exceed the sessions by a few hundred.
"""

import argparse
import os
import re
import resource
import socket
import statistics
import struct
import subprocess
import sys
import time

KEY = b"dGhlIHNhbXBsZSBub25jZQ=="


def source_address(index):
    # 127.1.0.2 upwards, 250 addresses per last octet: never 127.0.0.1, never .0 or .255.
    return "127.%d.%d.%d" % (1 + index // 62500, (index // 250) % 250, 2 + index % 250)


def connect(port, source):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((source, 0))
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    return sock


def http_get(port, path, source):
    sock = connect(port, source)
    sock.sendall(
        ("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % (path, port)).encode()
    )
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    cookie = None
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"set-cookie":
            cookie = value.strip().split(b";")[0].decode()
    return status, cookie, body.decode("utf-8", "replace")


def attribute(name, html):
    match = re.search(r'%s="([^"]*)"' % re.escape(name), html)
    if not match:
        raise RuntimeError("no %s in the page" % name)
    return match.group(1)


def frame(text):
    payload = text.encode()
    mask = b"\x01\x02\x03\x04"
    if len(payload) < 126:
        header = bytes([0x81, 0x80 | len(payload)])
    else:
        header = bytes([0x81, 0x80 | 126]) + struct.pack(">H", len(payload))
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class Socket:
    """A page's socket: upgraded, its hello sent."""

    def __init__(self, port, source, html, cookie):
        self.buffer = b""
        self.sock = connect(port, source)
        session = attribute("data-session", html)
        request = (
            "GET /ws?session=%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nOrigin: http://127.0.0.1:%d\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
            "Sec-WebSocket-Version: 13\r\n" % (session, port, port, KEY.decode())
        )
        if cookie:
            request += "Cookie: %s\r\n" % cookie
        self.sock.sendall((request + "\r\n").encode())
        while b"\r\n\r\n" not in self.buffer:
            self.fill()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError("not upgraded: %r" % head[:60])
        hello = '{"type":"hello","secret":"%s","token":"%s"}' % (
            attribute("data-secret", html),
            attribute("data-resume", html),
        )
        self.sock.sendall(frame(hello))

    def fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise RuntimeError("closed by the server")
        self.buffer += chunk

    def next_text(self):
        while True:
            while len(self.buffer) < 2:
                self.fill()
            length = self.buffer[1] & 0x7F
            start = 2
            if length == 126:
                while len(self.buffer) < 4:
                    self.fill()
                length = struct.unpack(">H", self.buffer[2:4])[0]
                start = 4
            elif length == 127:
                while len(self.buffer) < 10:
                    self.fill()
                length = struct.unpack(">Q", self.buffer[2:10])[0]
                start = 10
            while len(self.buffer) < start + length:
                self.fill()
            opcode = self.buffer[0] & 0x0F
            payload = self.buffer[start : start + length]
            self.buffer = self.buffer[start + length :]
            if opcode == 0x8:
                raise RuntimeError("closed: %r" % payload[:40])
            if opcode == 0x1:
                return payload.decode()


def visit(port, index):
    source = source_address(index)
    status, cookie, html = http_get(port, "/", source)
    if status != 200:
        raise RuntimeError("visitor %d: page %d" % (index, status))
    page_socket = Socket(port, source, html, cookie)
    page_socket.next_text()
    return page_socket, html


def heap(port):
    return int(http_get(port, "/bench/heap", "127.0.0.1")[2])


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--bench", default="Benchmarks/.build/release/tether-bench")
    arguments = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < arguments.sessions + 500:
        sys.exit("error: the descriptor limit (%d) is too low for %d sessions" % (hard, arguments.sessions))

    server = subprocess.Popen([arguments.bench, "--serve", "counter-scale"], stdout=subprocess.PIPE)
    try:
        line = server.stdout.readline().decode()
        port = int(line.split()[1])
        # First-use caches: ten visitors whose sessions stay, like every later one.
        warm = [visit(port, arguments.sessions + index)[0] for index in range(10)]
        time.sleep(1)
        heap_before = heap(port)
        rss_before = rss_kb(server.pid)
        started = time.time()
        sockets = []
        for index in range(arguments.sessions):
            sockets.append(visit(port, index)[0])
            if (index + 1) % 1000 == 0:
                print("  %d sessions open (%.0f s)" % (index + 1, time.time() - started), flush=True)
        opened = time.time() - started
        time.sleep(6)
        heap_after = heap(port)
        rss_after = rss_kb(server.pid)

        health = []
        for _ in range(200):
            begin = time.perf_counter()
            status, _, body = http_get(port, "/health", "127.0.0.1")
            health.append((time.perf_counter() - begin) * 1000)
            if status != 200 or body != "ok":
                raise RuntimeError("/health answered %d" % status)
        clicks = []
        for index in range(50):
            page_socket, html = visit(port, arguments.sessions + 100 + index)
            button = re.search(r'<button[^>]*\bid="([^"]+)"', html).group(1)
            begin = time.perf_counter()
            page_socket.sock.sendall(frame('{"type":"click","id":"%s"}' % button))
            page_socket.next_text()
            clicks.append((time.perf_counter() - begin) * 1000)
            page_socket.sock.close()

        count = arguments.sessions
        print("idle counter sessions on one node, each with its socket open: %d (opened in %.0f s)" % (count, opened))
        print("heap per session: %.0f B (%.1f MiB in all)" % ((heap_after - heap_before) / count, (heap_after - heap_before) / 1048576))
        print("RSS per session:  %.0f B (%.1f MiB in all; the node's RSS %.1f MiB)" % ((rss_after - rss_before) * 1024 / count, (rss_after - rss_before) / 1024, rss_after / 1024))
        print("/health while they sit: median %.2f ms, p99 %.2f ms (200 requests)" % (statistics.median(health), percentile(health, 0.99)))
        print("a new visitor's click while they sit: median %.2f ms, p99 %.2f ms (50 visitors)" % (statistics.median(clicks), percentile(clicks, 0.99)))
        for page_socket in sockets + warm:
            page_socket.sock.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
