"""A replays storage that fails its first ``FlakyStorage.failures`` saves (tests only)."""

from __future__ import annotations

from django.core.files.storage import FileSystemStorage


class FlakyStorage(FileSystemStorage):
    failures = 0  # saves still to fail; set by the test
    attempts = 0  # saves tried

    def _save(self, name, content):
        type(self).attempts += 1
        if type(self).failures > 0:
            type(self).failures -= 1
            raise ConnectionError("the object store is not answering")
        return super()._save(name, content)
