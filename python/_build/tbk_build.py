"""A PEP 517 build backend for the tbk package, in the standard library
alone: `pip install ./python` needs no setuptools or wheel (nothing beyond
pip and, for a virtual environment, venv) and writes nothing into the
source tree. The wheel is the package's files and the metadata of
pyproject.toml, written straight into the directory pip gives."""
import base64
import hashlib
import os
import re
import tarfile
import zipfile

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_TAG = "py3-none-any"


def _project():
    text = open(os.path.join(_HERE, "pyproject.toml"), encoding="utf-8").read()
    section = text.split("[project]", 1)[1].split("\n[", 1)[0]
    get = lambda key: re.search(r'^%s = "([^"]*)"' % key, section, re.M).group(1)
    return get("name"), get("version"), get("description"), get("requires-python")


def _metadata():
    name, version, summary, requires = _project()
    readme = open(os.path.join(_HERE, "README.md"), encoding="utf-8").read()
    return (f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {summary}\n"
            f"Requires-Python: {requires}\nDescription-Content-Type: text/markdown\n\n{readme}")


def _files():
    pkg = os.path.join(_HERE, "tbk")
    for f in sorted(os.listdir(pkg)):
        if f.endswith(".py"):
            yield "tbk/" + f, os.path.join(pkg, f)


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def _dist_info(name, version):
    return f"{name}-{version}.dist-info"


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    name, version = _project()[:2]
    d = os.path.join(metadata_directory, _dist_info(name, version))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    with open(os.path.join(d, "WHEEL"), "w", encoding="utf-8") as f:
        f.write(f"Wheel-Version: 1.0\nGenerator: tbk_build\nRoot-Is-Purelib: true\nTag: {_TAG}\n")
    return os.path.basename(d)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name, version = _project()[:2]
    whl = f"{name}-{version}-{_TAG}.whl"
    di = _dist_info(name, version)
    entries = [(arc, open(path, "rb").read()) for arc, path in _files()]
    entries.append((di + "/METADATA", _metadata().encode("utf-8")))
    entries.append((di + "/WHEEL", f"Wheel-Version: 1.0\nGenerator: tbk_build\nRoot-Is-Purelib: true\n"
                                   f"Tag: {_TAG}\n".encode()))
    record = []
    with zipfile.ZipFile(os.path.join(wheel_directory, whl), "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data in entries:
            z.writestr(arc, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{arc},sha256={digest},{len(data)}")
        record.append(di + "/RECORD,,")
        z.writestr(di + "/RECORD", "\n".join(record) + "\n")
    return whl


def build_sdist(sdist_directory, config_settings=None):
    name, version = _project()[:2]
    base = f"{name}-{version}"
    out = os.path.join(sdist_directory, base + ".tar.gz")
    with tarfile.open(out, "w:gz") as t:
        for rel in ["pyproject.toml", "README.md", "_build/tbk_build.py"] + [a for a, _ in _files()]:
            t.add(os.path.join(_HERE, rel), arcname=f"{base}/{rel}")
        info = f"{_metadata()}".encode("utf-8")
        ti = tarfile.TarInfo(f"{base}/PKG-INFO")
        ti.size = len(info)
        import io
        t.addfile(ti, io.BytesIO(info))
    return os.path.basename(out)
