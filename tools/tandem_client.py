#!/usr/bin/env python3
"""Example client of tandem's control protocol (docs/debugger.md).

Starts `tandem debug --protocol stdio PROGRAM` (or connects to a running
`tandem debug --protocol PORT` with --port and its token, --token or
--token-file), sets a write hook on the
replica's clock word, runs until it fires, and prints the writing
instruction, the registers and the clock word; then takes a screenshot.

    python3 tools/tandem_client.py [--tandem PATH] [--port N (--token T | --token-file F)] PROGRAM [--cpu 386]
"""
import argparse
import json
import socket
import subprocess


class Tandem:
    """One JSON request per line, one response per line."""

    def __init__(self, cmd=None, port=None, token=None):
        self.next_id = 0
        if port is not None:
            self.sock = socket.create_connection(("127.0.0.1", port))
            self.r = self.sock.makefile("r")
            self.w = self.sock.makefile("w")
            self.proc = None
            # The first line proves we may talk: the token printed at start.
            self.w.write(json.dumps({"hello": "tandem", "token": token}) + "\n")
            self.w.flush()
            resp = json.loads(self.r.readline())
            if not resp.get("ok"):
                raise RuntimeError(f"hello: {resp.get('error')}")
        else:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self.r, self.w = self.proc.stdout, self.proc.stdin

    def call(self, cmd, **args):
        self.next_id += 1
        req = {"id": self.next_id, "cmd": cmd, **args}
        self.w.write(json.dumps(req) + "\n")
        self.w.flush()
        resp = json.loads(self.r.readline())
        if not resp.get("ok"):
            raise RuntimeError(f"{cmd}: {resp.get('error')}")
        return resp

    def close(self):
        try:
            self.call("quit")
        finally:
            if self.proc:
                self.proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("program")
    ap.add_argument("--tandem", default="tandem")
    ap.add_argument("--cpu", default="386")
    ap.add_argument("--port", type=int)
    ap.add_argument("--token", help="the token tandem printed with the port")
    ap.add_argument("--token-file", help="the file given to tandem's --token-file")
    ap.add_argument("--screenshot", default="tandem-shot.png")
    a = ap.parse_args()
    token = a.token
    if a.token_file:
        with open(a.token_file) as f:
            token = f.read().strip()
    t = Tandem([a.tandem, "debug", "--cpu", a.cpu, "--protocol", "stdio", a.program], a.port, token)
    regs = t.call("regs")["regs"]
    print(f"entry {regs['cs']:04X}:{regs['ip']:04X}")
    hook = t.call("hook", kind="write", addr="cs:0BF8", len=2)["hook"]
    for _ in range(2):
        stop = t.call("run", seconds=10)
        print(stop["stop"], stop.get("event"), "by", stop.get("by", {}).get("text"))
    clock = t.call("read", addr="cs:0BF8", len=2)["hex"]
    print("clock word", clock[2:4] + clock[0:2])
    t.call("unhook", hook=hook)
    t.call("run", cycles=1_000_000)
    shot = t.call("screenshot", path=a.screenshot)
    print(f"screenshot {shot['width']}x{shot['height']} in {shot['path']}")
    t.close()


if __name__ == "__main__":
    main()
