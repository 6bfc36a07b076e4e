"""Preferences remembered between runs (QSettings, in an INI file), with a reset.

Where: ``$SVMVIZ_CONFIG_DIR`` if set (the tests set it), else the platform's configuration
folder for svmviz (``~/.config/svmviz`` on Linux). The autosaved work lives beside it, in
``autosave/``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

MAX_RECENT = 8
PACKAGE_DIR = Path(__file__).resolve().parent.parent  # the installed svmviz (its scenarios)

# every preference, with its default (whose type is the preference's type)
DEFAULTS: dict[str, Any] = {
    "autosave_seconds": 60,  # 0: no autosave
    "export_width": 1200,
    "export_height": 900,
    "export_scale": 2,  # 2× for slides
    "animation_frames": 60,
    "animation_frame_ms": 100,
    "animation_spacing": "log",  # iterations spaced "log" or "linear" over the budget
    "last_folder": "",
    # Play's speed, svmviz.core.training.pace's code: −1 log-t pace, 0 instant, N per frame
    "pace": -1,
    "speed": 0,  # the speed of older versions (N per frame, 0: full speed); see speed_code
    "warm_start": False,
    "optimum": False,
    "iterate": False,
    "suboptimality": False,
    "slack": False,
    "views": "",  # the views on (JSON: a list of svmviz.ui.views.registry' names); "": the defaults
    "companion": "",  # the view beside the plane ("": none)
    "weight_class": 0,  # the class whose weights the weight space varies
    "race": False,
    "race_runs": "",  # the last race set (JSON: runs 2–4's changes), offered by View ▸ Race…
}


def config_dir() -> Path:
    given = os.environ.get("SVMVIZ_CONFIG_DIR")
    if given:
        return Path(given)
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericConfigLocation)
    return Path(base or Path.home() / ".config") / "svmviz"


class Preferences:
    """Typed access to the settings file; ``reset()`` forgets everything."""

    def __init__(self, folder: Path | None = None):
        folder = Path(folder) if folder is not None else config_dir()
        self.path = folder / "svmviz.ini"
        self._s = QSettings(str(self.path), QSettings.Format.IniFormat)

    def get(self, key: str):
        default = DEFAULTS[key]
        value = self._s.value(key, default)
        try:
            if isinstance(default, bool):  # INI keeps "true"/"false" as text
                return value if isinstance(value, bool) else str(value).lower() == "true"
            return type(default)(value)
        except (TypeError, ValueError):
            return default  # a hand-edited file: the default, not a crash

    def speed_code(self) -> int:
        """Play's speed (a code of svmviz.core.training.pace). Older versions kept "speed" only,
        where 0 (full speed) was the default everyone had saved rather than a choice: a speed other
        than 0 is kept, 0 gives way to the new default (the log-t pace)."""
        if self._s.contains("pace"):
            return self.get("pace")
        old = self.get("speed")
        return old if old > 0 else DEFAULTS["pace"]

    def set(self, key: str, value) -> None:
        if key not in DEFAULTS:
            raise KeyError(key)
        self._s.setValue(key, value)

    def start_folder(self) -> str:
        """Where the Open, Save and Export dialogs start: the folder last used, if it still
        exists, else the user's home folder."""
        folder = self.get("last_folder")
        if folder and Path(folder).is_dir() and not _in_package(Path(folder)):
            return folder
        return str(Path.home())

    def remember_folder(self, path) -> None:
        """The folder of a file the user opened or wrote becomes the dialogs' start; the
        installed package's (File ▸ Scenarios) does not: nobody keeps work there."""
        folder = Path(path).resolve().parent
        if not _in_package(folder):
            self.set("last_folder", str(folder))

    # window geometry and dock layout: opaque bytes from Qt
    def get_bytes(self, key: str) -> QByteArray | None:
        value = self._s.value(key)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_bytes(self, key: str, value: QByteArray) -> None:
        self._s.setValue(key, value)

    def recent_files(self) -> list[str]:
        value: Any = self._s.value("recent_files", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value or []][:MAX_RECENT]

    def add_recent(self, path) -> None:
        path = str(Path(path).resolve())
        files = [path] + [f for f in self.recent_files() if f != path]
        self._s.setValue("recent_files", files[:MAX_RECENT])

    def remove_recent(self, path) -> None:
        self._s.setValue("recent_files", [f for f in self.recent_files() if f != str(path)])

    def reset(self) -> None:
        self._s.clear()

    def sync(self) -> None:
        self._s.sync()


def _in_package(folder: Path) -> bool:
    return folder.resolve().is_relative_to(PACKAGE_DIR)
