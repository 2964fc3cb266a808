"""debar.py: a .deb's ar members as a list of [name, bytes], read and
written again, for the tests that forge packages dpkg-deb would not make
(tests/review-bad.t).  Only what dpkg-deb writes is read: no long names."""


def read_ar(path):
    raw = open(path, "rb").read()
    assert raw[:8] == b"!<arch>\n"
    pos, ar = 8, []
    while pos < len(raw):
        h = raw[pos:pos + 60]
        size = int(h[48:58])
        ar.append([h[:16].decode().strip(), raw[pos + 60:pos + 60 + size]])
        pos += 60 + size + (size & 1)
    return ar


def write_ar(path, ar):
    with open(path, "wb") as f:
        f.write(b"!<arch>\n")
        for name, data in ar:
            f.write(("%-16s%-12d%-6d%-6d%-8o%-10d`\n" % (
                name, 0, 0, 0, 0o100644, len(data))).encode())
            f.write(data + (b"\n" if len(data) & 1 else b""))


def _norm(path):
    """A member's path as dpkg takes it: no "./", "/" or trailing "/"."""
    while path.startswith("./"):
        path = path[2:]
    path = path.lstrip("/").rstrip("/")
    return "" if path == "." else path


def fsys_members(deb):
    """The data members of DEB as `extras-review --members` prints them,
    read from `dpkg-deb --fsys-tarfile` by Python's own tar reader."""
    import io
    import subprocess
    import tarfile

    raw = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb],
                         capture_output=True, check=True).stdout
    lines = []
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as t:
        for ti in t.getmembers():
            path = _norm(ti.name)
            if path == "":
                continue
            kind = ("f" if ti.isreg() else "d" if ti.isdir() else
                    "l" if ti.issym() else "h" if ti.islnk() else "s")
            target = (ti.linkname if kind == "l" else
                      _norm(ti.linkname) if kind == "h" else "")
            lines.append("%s %04o %s:%s %d %s%s" % (
                kind, ti.mode & 0o7777, ti.uname, ti.gname,
                ti.size if kind == "f" else 0, path,
                " -> " + target if target else ""))
    return lines
