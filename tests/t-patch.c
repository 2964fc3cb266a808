/* Facts about padding paths and relative paths. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "relocate/patch.h"

static const char *
pad(const char *old, const char *new)
{
	static char out[256];

	memset(out, 0, sizeof(out));
	patch_pad_path(old, strlen(old), new, out);
	return out;
}

static const char *
rel(const char *from, const char *to)
{
	static char out[256];

	patch_relative_path(from, to, out, sizeof(out));
	return out;
}

/*
 * TEXT patched as FILE through /usr/local/share/foo -> /o/a/share/foo, the
 * icon "app" renamed "extras-app" and, with LOCALEDIR, the package's
 * catalogues moved there.
 */
static char *
text_in(const char *file, const char *in, const char *localedir)
{
	static char out[512];
	struct pathmap *paths = pathmap_new(), *none = pathmap_new();
	struct pathmap *icons = pathmap_new(), *programs = pathmap_new();
	struct patch_context ctx = {
		.paths = paths, .programs = programs, .icons = icons,
		.localedir = localedir,
	};
	struct pathmap_scanner *sc;
	struct patch_result res = { .data = NULL };
	struct report report;
	struct dpkg_error err = DPKG_ERROR_INIT;

	pathmap_add(paths, "/usr/local/share/foo", "/o/a/share/foo");
	pathmap_compile(paths, &err);
	pathmap_add(icons, "app", "extras-app");
	pathmap_add(programs, "uapp", "/o/a/bin/uapp");
	pathmap_add(programs, "app", "/o/a/bin/app");
	sc = pathmap_scanner_new(paths);
	report_init(&report);
	if (patch_text(&ctx, sc, file, (const unsigned char *)in, strlen(in),
	               &res, &report) < 0)
		snprintf(out, sizeof(out), "(failed)");
	else if (res.data == NULL)
		snprintf(out, sizeof(out), "(unchanged)");
	else
		snprintf(out, sizeof(out), "%.*s", (int)res.len,
		         (const char *)res.data);
	free(res.data);
	report_free(&report);
	pathmap_scanner_free(sc);
	pathmap_free(paths);
	pathmap_free(none);
	pathmap_free(icons);
	pathmap_free(programs);
	return out;
}

static char *
text(const char *file, const char *in)
{
	return text_in(file, in, NULL);
}

/*
 * IN (LEN bytes) patched as patch_content() patches FILE, through
 * /usr/share/foo -> /opt/app/share/foo: *RES as it returns it (the caller
 * frees its data), and how many references it left unpatched; -1 when it
 * failed.
 */
static int
patch_foo(const char *file, const unsigned char *in, size_t len,
          struct patch_result *res, size_t *unpatched)
{
	struct pathmap *paths = pathmap_new(), *none = pathmap_new();
	struct patch_context ctx = {
		.paths = paths, .programs = none, .icons = none,
	};
	struct pathmap_scanner *sc;
	struct report report;
	struct dpkg_error err = DPKG_ERROR_INIT;
	int ret;

	pathmap_add(paths, "/usr/share/foo", "/opt/app/share/foo");
	pathmap_compile(paths, &err);
	sc = pathmap_scanner_new(paths);
	report_init(&report);
	ret = patch_content(&ctx, sc, file, in, len, res, &report);
	*unpatched = report.n_unpatched;
	report_free(&report);
	pathmap_scanner_free(sc);
	pathmap_free(paths);
	pathmap_free(none);
	return ret;
}

/*
 * IN (LEN bytes, NULs allowed) as patch_content() takes it: patched text
 * (NULs shown as "@"), "(unchanged)", or "(blob: N unpatched)".
 */
static char *
content(const char *in, size_t len)
{
	static char out[1024];
	struct patch_result res = { .data = NULL };
	size_t i, unpatched;

	if (patch_foo("/o/a/share/info/a.info", (const unsigned char *)in, len,
	              &res, &unpatched) < 0)
		snprintf(out, sizeof(out), "(failed)");
	else if (res.data == NULL && unpatched > 0)
		snprintf(out, sizeof(out), "(blob: %zu unpatched)", unpatched);
	else if (res.data == NULL)
		snprintf(out, sizeof(out), "(unchanged)");
	else {
		for (i = 0; i < res.len && i < sizeof(out) - 1; i++)
			out[i] = res.data[i] ? (char)res.data[i] : '@';
		out[i] = '\0';
	}
	free(res.data);
	return out;
}

#define CONTENT(s) content(s, sizeof(s) - 1)

/*
 * A gettext catalogue of one message, ID translated as STR, in either byte
 * order, at REVISION; *LEN its size.
 */
static unsigned char *
mo_file(const char *id, const char *str, bool big, uint32_t revision,
        size_t *len)
{
	static unsigned char mo[512];
	uint32_t head[11] = {
		0x950412deu, revision, 1, 28, 36, 0, 44,
		(uint32_t)strlen(id), 44, (uint32_t)strlen(str),
		(uint32_t)(44 + strlen(id) + 1),
	};
	size_t i;

	for (i = 0; i < 11; i++) {
		uint32_t v = big ? __builtin_bswap32(head[i]) : head[i];

		memcpy(mo + i * 4, &v, 4);
	}
	memcpy(mo + 44, id, strlen(id) + 1);
	memcpy(mo + 44 + strlen(id) + 1, str, strlen(str) + 1);
	*len = 44 + strlen(id) + 1 + strlen(str) + 1;
	return mo;
}

/*
 * The translation of catalogue MO (LEN bytes) once patched, as its
 * descriptor points at it; "(unchanged: N unpatched)" when it was not.
 */
#define MO_FILE "/o/a/share/locale/fr/LC_MESSAGES/a.mo"

static const char *mo_translation(const unsigned char *mo, size_t len,
                                  bool big);

/* The catalogue MO (LEN bytes) patched once, then what a second run of the
 * patchers, as dh_extras_links makes, says of it. */
static const char *
mo_patched_again(const unsigned char *mo, size_t len)
{
	static unsigned char once[512];
	struct patch_result res = { .data = NULL };
	size_t oncelen = 0, unpatched;

	if (patch_foo(MO_FILE, mo, len, &res, &unpatched) == 0 &&
	    res.data != NULL && res.len <= sizeof(once)) {
		memcpy(once, res.data, res.len);
		oncelen = res.len;
	}
	free(res.data);
	if (oncelen == 0)
		return "(not patched)";
	return mo_translation(once, oncelen, false);
}

static const char *
mo_translation(const unsigned char *mo, size_t len, bool big)
{
	static char out[256];
	struct patch_result res = { .data = NULL };
	uint32_t tlen, toff;
	size_t unpatched;

	if (patch_foo(MO_FILE, mo, len, &res, &unpatched) < 0) {
		snprintf(out, sizeof(out), "(failed)");
	} else if (res.data == NULL) {
		snprintf(out, sizeof(out), "(unchanged: %zu unpatched)",
		         unpatched);
	} else {
		memcpy(&tlen, res.data + 36, 4);
		memcpy(&toff, res.data + 40, 4);
		if (big) {
			tlen = __builtin_bswap32(tlen);
			toff = __builtin_bswap32(toff);
		}
		if ((size_t)toff + tlen < res.len && res.data[toff + tlen] == 0)
			snprintf(out, sizeof(out), "%s (%zu unpatched)",
			         (const char *)res.data + toff, unpatched);
		else
			snprintf(out, sizeof(out), "(bad descriptor)");
	}
	free(res.data);
	return out;
}

int
main(void)
{
	unsigned char *mo;
	size_t molen;

	test_plan(47);

	test_str(pad("/usr/share/app/data", "/o/a/share/app/data"), ==,
	         "/o/a/share/app/data");
	/* The shared tail "/share/app/data" keeps its offset. */
	test_str(pad("/usr/local/share/app/data", "/o/a/share/app/data"), ==,
	         "/o/a///////share/app/data");
	test_int(strlen(pad("/usr/local/share/app/data", "/o/a/x")), ==,
	         strlen("/usr/local/share/app/data"));
	test_str(pad("/usr/lib/app", "/o/b/lib/app"), ==, "/o/b/lib/app");
	test_str(pad("/usr/lib/verylongname", "/o/b/x"), ==,
	         "/o/b////////////////x");

	test_str(rel("/opt/x/foo/bin", "/opt/x/foo/lib/foo"), ==, "../lib/foo");
	test_str(rel("/opt/x/foo/bin", "/opt/x/foo/bin/foo"), ==, "foo");
	test_str(rel("/a/b", "/a/b"), ==, ".");
	test_str(rel("/a/b/c", "/a"), ==, "../..");
	test_str(rel("/usr/share/pixmaps", "/usr/share/icons/a.png"), ==,
	         "../icons/a.png");
	test_str(rel("/", "/usr/x"), ==, "usr/x");
	test_str(rel("/a/bc", "/a/b/c"), ==, "../b/c");

	/* A match at offset 0 appends nothing before it: no memcpy from the
	 * empty buffer (UBSan's memcpy(NULL, p, 0), found by fuzzing). */
	test_str(text("/o/a/x.conf", "/usr/local/share/foo/x"), ==,
	         "/o/a/share/foo/x");
	test_str(text("/o/a/x.desktop", "\n/usr/local/share/foo\n"), ==,
	         "\n/o/a/share/foo\n");
	test_str(text("/o/a/x.conf", ""), ==, "(unchanged)");
	test_str(text("/o/a/x.conf", "nothing here"), ==, "(unchanged)");

	/* Renamed icons in GtkBuilder files and Python calls. */
	test_str(text("/o/a/w.ui", "<property name=\"icon-name\">app</property>"
	              "<property name=\"icon_name\" translatable=\"no\"> app "
	              "</property><property name=\"label\">app</property>"),
	         ==, "<property name=\"icon-name\">extras-app</property>"
	         "<property name=\"icon_name\" translatable=\"no\"> "
	         "extras-app </property><property name=\"label\">app"
	         "</property>");
	test_str(text("/o/a/w.ui", "<property name=\"icon-name\">other"
	              "</property>"), ==, "(unchanged)");
	test_str(text("/o/a/app.py", "w.set_icon_name('app')\n"
	              "Gtk.Window.set_default_icon_name( \"app\")\n"
	              "Gtk.Image(icon_name=\"app\")\nlabel = 'app'\n"), ==,
	         "w.set_icon_name('extras-app')\n"
	         "Gtk.Window.set_default_icon_name( \"extras-app\")\n"
	         "Gtk.Image(icon_name=\"extras-app\")\nlabel = 'app'\n");
	test_str(text("/o/a/bin/app", "#!/usr/bin/python3\n"
	              "w.set_icon_name('app')\n"), ==,
	         "#!/usr/bin/python3\nw.set_icon_name('extras-app')\n");
	test_str(text("/o/a/bin/app", "#!/bin/sh\nset_icon_name('app')\n"), ==,
	         "(unchanged)");

	/* The shared locale directory itself follows the catalogues. */
	test_str(text_in("/o/a/bin/app", "d = '/usr/share/locale'\n"
	                 "e = \"/usr/share/locale/\"\n", "/o/a/share/locale"),
	         ==, "d = '/o/a/share/locale'\ne = \"/o/a/share/locale/\"\n");
	test_str(text_in("/o/a/bin/app", "TEXTDOMAINDIR=/usr/share/locale\n",
	                 "/o/a/share/locale"), ==,
	         "TEXTDOMAINDIR=/o/a/share/locale\n");
	test_str(text_in("/o/a/bin/app", "d = '/usr/share/locale'\n", NULL), ==,
	         "(unchanged)");
	test_str(text_in("/o/a/bin/app", "'/usr/share/locale/fr/x.mo' "
	                 "'/usr/share/locale-langpack' '/usr/share/locale/%s' "
	                 "'/x/usr/share/locale'", "/o/a/share/locale"), ==,
	         "(unchanged)");
	test_str(text_in("/o/a/share/app/w.ui", "<property name=\"icon-name\">"
	                 "app</property><!-- /usr/share/locale -->",
	                 "/o/a/share/locale"), ==,
	         "<property name=\"icon-name\">extras-app</property>"
	         "<!-- /o/a/share/locale -->");
	test_str(text("/o/a/w.ui", "<property name=\"icon-name\"/>"), ==,
	         "(unchanged)");

	/* Icon= with an extension: the name before it is renamed. */
	test_str(text("/o/a/x.desktop", "Icon=app.png\nIcon[fr]=app\n"), ==,
	         "Icon=extras-app.png\nIcon[fr]=extras-app\n");
	test_str(text("/o/a/x.desktop", "Icon=other.png\n"), ==, "(unchanged)");

	/* A shell script of the namespace running a sibling by name. */
	test_str(text("/o/a/bin/uapp", "#!/bin/sh -e\n: \"${P=app}\"\nexec \"$P\"\n"),
	         ==, "#!/bin/sh -e\nPATH=/o/a/bin:$PATH; export PATH\n"
	         ": \"${P=app}\"\nexec \"$P\"\n");
	test_str(text("/o/a/bin/uapp", "#!/usr/bin/env bash\napp --x\n"), ==,
	         "#!/usr/bin/env bash\nPATH=/o/a/bin:$PATH; export PATH\n"
	         "app --x\n");
	/* Patched once only: the relocation's patchers run again later. */
	test_str(text("/o/a/bin/uapp", "#!/bin/sh\nPATH=/o/a/bin:$PATH; export PATH\n"
	              "app\n"), ==, "(unchanged)");
	/* Itself, a path, an option, another interpreter: nothing. */
	test_str(text("/o/a/bin/uapp", "#!/bin/sh\necho uapp /x/app --app\n"),
	         ==, "(unchanged)");
	test_str(text("/o/a/bin/uapp", "#!/usr/bin/perl\nsystem('app');\n"),
	         ==, "(unchanged)");

	/*
	 * A GNU Info manual: an index cookie's NULs do not make it binary,
	 * and its tag table's offsets follow the longer path ("Node: B" at
	 * 35 moves by 4, the anchor inside it at 81 by 8, after the second
	 * path; "Node: A" at 0 stays).
	 */
	test_str(CONTENT("\037\nFile: a,  Node: A\n/usr/share/foo\n"
	                 "\037\nFile: a,  Node: B\n/usr/share/foo\0\b[index\0\b]\n"
	                 "x\n\037\nTag Table:\nNode: A\1770\nNode: B\17735\n"
	                 "Ref: C\17781\n\037\nEnd Tag Table\n"), ==,
	         "\037\nFile: a,  Node: A\n/opt/app/share/foo\n"
	         "\037\nFile: a,  Node: B\n/opt/app/share/foo@\b[index@\b]\n"
	         "x\n\037\nTag Table:\nNode: A\1770\nNode: B\17739\n"
	         "Ref: C\17789\n\037\nEnd Tag Table\n");
	/* An offset inside a patched path goes to where the path starts. */
	test_str(CONTENT("\037\nFile: a,  Node: A\n/usr/share/foo\n"
	                 "\037\nTag Table:\nRef: X\17725\nRef: Y\17799999999999"
	                 "999999999\n\037\nEnd Tag Table\n"), ==,
	         "\037\nFile: a,  Node: A\n/opt/app/share/foo\n"
	         "\037\nTag Table:\nRef: X\17720\nRef: Y\17799999999999"
	         "999999999\n\037\nEnd Tag Table\n");
	/* A split manual's offsets span its files: left as they are. */
	test_str(CONTENT("\037\nFile: a,  Node: A\n/usr/share/foo\n"
	                 "\037\nTag Table:\n(Indirect)\nNode: B\17740\n"
	                 "\037\nEnd Tag Table\n"), ==,
	         "\037\nFile: a,  Node: A\n/opt/app/share/foo\n"
	         "\037\nTag Table:\n(Indirect)\nNode: B\17740\n"
	         "\037\nEnd Tag Table\n");
	/* Any other NUL, or no node, and it is binary data. */
	test_str(CONTENT("\037\nFile: a,  Node: A\n/usr/share/foo\0x\n"), ==,
	         "(blob: 1 unpatched)");
	test_str(CONTENT("/usr/share/foo\0\b[index\0\b]\n"), ==,
	         "(blob: 1 unpatched)");

	/* A catalogue's translation is patched, in either byte order; its
	 * message is what the program looks up: reported. */
	mo = mo_file("Data", "Dans /usr/share/foo/x", false, 0, &molen);
	test_str(mo_translation(mo, molen, false), ==,
	         "Dans /opt/app/share/foo/x (0 unpatched)");
	mo = mo_file("Data", "Dans /usr/share/foo/x", true, 1, &molen);
	test_str(mo_translation(mo, molen, true), ==,
	         "Dans /opt/app/share/foo/x (0 unpatched)");
	mo = mo_file("In /usr/share/foo", "Dans /usr/share/foo", false, 0,
	             &molen);
	test_str(mo_translation(mo, molen, false), ==,
	         "Dans /opt/app/share/foo (1 unpatched)");
	mo = mo_file("In /usr/share/foo", "Dans", false, 0, &molen);
	test_str(mo_translation(mo, molen, false), ==,
	         "(unchanged: 1 unpatched)");
	/* Patched, the old string is no string's: the next run finds
	 * nothing. */
	mo = mo_file("Data", "Dans /usr/share/foo/x", false, 0, &molen);
	test_str(mo_patched_again(mo, molen), ==, "(unchanged: 0 unpatched)");
	/* Not a catalogue gettext would load: every reference reported. */
	mo = mo_file("Data", "Dans /usr/share/foo/x", false, 2 << 16, &molen);
	test_str(mo_translation(mo, molen, false), ==,
	         "(unchanged: 1 unpatched)");
	mo = mo_file("Data", "Dans /usr/share/foo/x", false, 0, &molen);
	mo[molen - 1] = 'x';
	test_str(mo_translation(mo, molen, false), ==,
	         "(unchanged: 1 unpatched)");
	mo = mo_file("Data", "Dans /usr/share/foo/x", false, 0, &molen);
	mo[40] = 0xff;
	test_str(mo_translation(mo, molen, false), ==,
	         "(unchanged: 1 unpatched)");

	return test_done();
}
