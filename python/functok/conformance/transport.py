"""How the runner reaches an implementation: in-process through `handle`, or a child process
speaking JSON lines (conformance/PROTOCOL.md).

Both give the runner the same two calls, `start()` and `request(case, timeout)`. A transport
failure (a timeout, a crash, an answer that is not JSON) raises TransportFailure; the runner
fails that vector and calls `restart()`, so one bad vector does not sink the rest.
"""

from __future__ import annotations

import json
from typing import Callable

from .handler import PROTOCOL_VERSION

START_TIMEOUT = 30.0  # seconds a program may take to start and answer `start`


class TransportFailure(Exception):
    pass


class InProcessTransport:
    """Calls a `handle` function directly: no subprocess and no thread (works under Pyodide).

    A per-vector timeout cannot interrupt a Python call, so it is not applied here.
    """

    def __init__(self, handle: Callable[[dict], dict | None]) -> None:
        self.handle = handle
        self.seq = 0

    def start(self) -> dict:
        return self.handle(start_request()) or {}

    def request(self, case: dict, timeout: float | None = None) -> dict:
        self.seq += 1
        return self.handle({"cmd": "run", "seq": self.seq, "vector": case}) or {}

    def restart(self) -> dict:
        return self.start()

    def close(self) -> None:
        self.handle({"cmd": "stop"})


def start_request() -> dict:
    return {"cmd": "start", "protocol_version": PROTOCOL_VERSION}


class CommandTransport:
    """Runs a program and exchanges one JSON object per line with it over stdin/stdout.

    A reader thread moves answer lines into a queue, so that waiting for one can time out.
    The program's stderr is left to the terminal, where its own diagnostics belong.
    """

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.seq = 0
        self.process = None
        self.lines = None

    def start(self) -> dict:
        import queue
        import subprocess
        import threading

        try:
            self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            text=True, encoding="utf-8", errors="replace", bufsize=1)
        except OSError as error:
            raise TransportFailure(f"cannot run {self.argv[0]!r}: {error.strerror}") from None
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.process, self.lines), daemon=True).start()
        self._send(start_request())
        return self._receive(START_TIMEOUT, "start")

    @staticmethod
    def _read(process, lines) -> None:
        for line in process.stdout:
            lines.put(line)
        lines.put(None)  # end of output: the program exited or closed stdout

    def request(self, case: dict, timeout: float | None = None) -> dict:
        self.seq += 1
        self._send({"cmd": "run", "seq": self.seq, "vector": case})
        answer = self._receive(timeout, case["id"])
        if answer.get("seq") != self.seq:
            raise TransportFailure(f"answer to {case['id']} has seq {answer.get('seq')!r}, "
                                   f"expected {self.seq}")
        return answer

    def _send(self, message: dict) -> None:
        try:
            self.process.stdin.write(json.dumps(message, ensure_ascii=True) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise TransportFailure(f"the implementation exited (status {self.process.poll()})") from None

    def _receive(self, timeout: float | None, what: str) -> dict:
        import queue

        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise TransportFailure(f"timed out after {timeout:g}s waiting for the answer to {what}") from None
            if line is None:
                status = self.process.wait()
                raise TransportFailure(f"the implementation exited (status {status}) before answering {what}")
            if line.strip():
                break
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            raise TransportFailure(f"answer to {what} is not JSON: {line.strip()[:200]!r}") from None
        if not isinstance(answer, dict):
            raise TransportFailure(f"answer to {what} is not a JSON object: {line.strip()[:200]!r}")
        return answer

    def restart(self) -> dict:
        self._kill()
        return self.start()

    def close(self) -> None:
        if self.process is None:
            return
        try:
            self._send({"cmd": "stop"})
            self.process.stdin.close()
            self.process.wait(timeout=5)
        except Exception:
            pass
        self._kill()

    def _kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
