# Time to interactive, side by side: Tether binaries (each started here with PORT=0) and the
# Python peers of ../shared/peers (its bench.Server), every load in a fresh Chromium profile
# with the harness's own hook and ready condition, loads interleaved across the servers.
#
#   SE_OFFLINE=true python3 Benchmarks/tti.py BIN[,BIN...] REPS [--peers=reactpy,pyview,...] [-v]
#
# Prints, per server, the medians (ms since navigation start) of: request sent, response
# start and end, DOMContentLoaded, socket open, and ready (the harness's TTI), with its range.
import os
import re
import statistics
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "shared", "peers"))
os.environ.setdefault("SE_OFFLINE", "true")
import bench  # noqa: E402

binaries = sys.argv[1].split(",")
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 7
peers = next((a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith("--peers=")), [])
processes, urls, servers = [], {}, {}
for binary in binaries:
    process = subprocess.Popen([binary], env=dict(os.environ, PORT="0"),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    processes.append(process)
    for _ in range(200):
        found = re.search(r"http://127\.0\.0\.1:\d+", process.stdout.readline())
        if found:
            urls[binary] = found.group(0)
            break
logs = "/tmp/tti-logs"
os.makedirs(logs, exist_ok=True)
for peer in peers:
    servers[peer] = bench.Server(peer, bench.FRAMEWORKS[peer], logs)
    urls[peer] = servers[peer].url
rows = {name: [] for name in urls}
try:
    for _ in range(reps):
        for name, url in urls.items():
            spec = bench.FRAMEWORKS.get(name, dict(ready="true"))
            driver = bench.make_driver()
            try:
                bench.hook(driver, spec)
                driver.get(url + "/")
                bench.wait_ready(driver)
                rows[name].append(driver.execute_script(
                    "const n = performance.getEntriesByType('navigation')[0];"
                    "return {ready: window.__bench.readyAt, wsOpen: window.__bench.firstOpenAt,"
                    " reqStart: n.requestStart, respStart: n.responseStart, resp: n.responseEnd,"
                    " dcl: n.domContentLoadedEventEnd};"))
                if "-v" in sys.argv:
                    print(name, rows[name][-1], flush=True)
            finally:
                bench.quit_driver(driver)
finally:
    for process in processes:
        process.terminate()
    for server in servers.values():
        server.stop()
for name in urls:
    samples = rows[name]
    medians = " ".join(f"{key} {statistics.median(s[key] for s in samples):6.1f}"
                       for key in ("reqStart", "respStart", "resp", "dcl", "wsOpen", "ready"))
    ready = [s["ready"] for s in samples]
    print(f"{os.path.basename(name):24} {medians} | ready {min(ready):.1f}-{max(ready):.1f}")
