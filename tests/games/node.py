"""Run a game's Play board module under Node.js with a test script: the script gets the
module's file URL as ``process.argv[1]`` and the JSON payload as ``process.argv[2]``, and
prints JSON, which comes back parsed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any


def run_board(script: str, module: Path, payload: Any) -> Any:
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script, module.as_uri(), json.dumps(payload)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)
