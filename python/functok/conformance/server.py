"""The JSON-lines transport: read requests from stdin, write `handle`'s answers to stdout.

One message per line, UTF-8, flushed after each answer; `stop` or end of input ends the loop.
Any program that does the same with its own `handle` can be checked by the runner.
"""

from __future__ import annotations

import json
import sys
from typing import Callable, TextIO

from .handler import handle as reference_handle


def serve(handle: Callable[[dict], dict | None] = reference_handle,
          stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            response = {"errored": f"request is not JSON: {error}"}
        else:
            if request.get("cmd") == "stop":
                return 0
            response = handle(request)
        if response is not None:
            # ASCII JSON: lone surrogates and private use survive any pipe encoding.
            stdout.write(json.dumps(response, ensure_ascii=True) + "\n")
            stdout.flush()
    return 0


def main() -> int:
    # Lines are ASCII JSON both ways, so the encoding only matters for malformed input.
    sys.stdin.reconfigure(encoding="utf-8", errors="surrogateescape")
    return serve()
if __name__ == "__main__":
    import sys
    sys.exit(main())
