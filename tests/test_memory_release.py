"""What a build step frees goes back to the system (``rules_kb.heap``), and Sudachi's dictionary
leaves a process that has made its tokens (``tokens.unload_dictionary``) without changing a token."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rules_kb import tokens
from rules_kb.heap import release_free_memory

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self")


def resident_anonymous_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no RssAnon in /proc/self/status")


def dictionary_mapped() -> bool:
    return any(line.rstrip().endswith("system.dic") for line in Path("/proc/self/maps").read_text().splitlines())


@linux_only
def test_freed_heap_below_live_memory_goes_back_to_the_system():
    """200 MB in 64 kB blocks (under glibc's mmap threshold: inside the heap), freed under one block
    still alive: glibc keeps the pages until ``release_free_memory`` hands them back."""
    blocks = [bytes(64 * 1024) for _ in range(3200)]
    for block in blocks:  # touch every page: counted resident whatever the allocator did
        assert block[-1] == 0
    pin = bytearray(64 * 1024)  # above them: the free space is not at the heap's top
    del blocks
    before = resident_anonymous_mb()
    release_free_memory()
    after = resident_anonymous_mb()
    assert before - after > 100, (before, after)
    assert len(pin) == 64 * 1024


@linux_only
def test_unloading_the_dictionary_unmaps_it_and_changes_no_token():
    text = "このクリーチャーがバトルに勝った時、相手のシールドを1枚ブレイクする。"
    first = tokens.tokenize(text, "ja")
    assert dictionary_mapped()
    tokens.unload_dictionary()
    assert not dictionary_mapped()  # nothing else holds it: its pages are no longer this process's
    assert tokens.tokenize(text, "ja") == first
    assert dictionary_mapped()
