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
