/* Facts about finding references to moved paths. */
#include <string.h>

#include "../tests/tap.h"
#include "relocate/pathmap.h"

static struct pathmap *map;
static struct pathmap_scanner *sc;

/* The first reference in S, as "old->new@start", or "" for none. */
static const char *
first(const char *s)
{
	static char out[512];
	struct pathmap_match m;

	if (!pathmap_next(sc, (const unsigned char *)s, strlen(s), 0, &m))
		return "";
	snprintf(out, sizeof(out), "%s->%s@%zu", m.old, m.new, m.start);
	return out;
}

/* The same in packed strings, "old->new@start", "+" when bounded. */
static const char *
packed(const char *s)
{
	static char out[512];
	struct pathmap_match m;

	if (!pathmap_next_packed(sc, (const unsigned char *)s, strlen(s), 0,
	                         &m))
		return "";
	snprintf(out, sizeof(out), "%s->%s@%zu%s", m.old, m.new, m.start,
	         m.bounded ? "+" : "");
	return out;
}

int
main(void)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct pathmap_match m;
	const unsigned char utf16[] = "x\0/\0u\0s\0r\0/\0s\0h\0a\0r\0e\0/\0a\0p\0p\0\0\0";

	test_plan(32);

	map = pathmap_new();
	pathmap_add(map, "/usr/share/app", "/o/app/share/app");
	pathmap_add(map, "/usr/share/app/data/x", "/o/app/share/app/data/x2");
	pathmap_add(map, "/etc/app.conf", "/o/app/etc/app.conf");
	test_int(pathmap_count(map), ==, 3);
	test_int(pathmap_compile(map, &err), ==, 0);
	sc = pathmap_scanner_new(map);

	test_str(first("/usr/share/app"), ==,
	         "/usr/share/app->/o/app/share/app@0");
	test_str(first("x=/usr/share/app/icons/a.png"), ==,
	         "/usr/share/app->/o/app/share/app@2");
	test_str(first("/usr/share/application"), ==, "");
	test_str(first("/usr/share/app2"), ==, "");
	test_str(first("/usr/share/app.conf"), ==, "");
	test_str(first("/usr/share/app-data"), ==, "");
	test_str(first("debian/tmp/usr/share/app"), ==, "");
	test_str(first("\"/usr/share/app\""), ==,
	         "/usr/share/app->/o/app/share/app@1");
	test_str(first("PATH=/bin:/usr/share/app:/x"), ==,
	         "/usr/share/app->/o/app/share/app@10");
	test_str(first("/usr/share/app/data/x"), ==,
	         "/usr/share/app/data/x->/o/app/share/app/data/x2@0");
	test_str(first("/usr/share/app/data/xy"), ==,
	         "/usr/share/app->/o/app/share/app@0");
	test_str(first("/etc/app.conf\n"), ==,
	         "/etc/app.conf->/o/app/etc/app.conf@0");
	test_str(first("/etc/app.conf.d"), ==, "");
	test_str(first("//usr/share/app"), ==,
	         "/usr/share/app->/o/app/share/app@1");

	test_ok(pathmap_resolve(map, "/usr/share/app/x/y", &m));
	test_int(m.len, ==, strlen("/usr/share/app"));
	test_ok(pathmap_next_utf16(sc, utf16, sizeof(utf16) - 1, 0, &m));
	test_int(m.start, ==, 2);

	/* A Go program's strings follow each other with no terminator. */
	test_str(packed("dataDir = /usr/share/app0123456789abcdef"), ==,
	         "/usr/share/app->/o/app/share/app@10");
	test_str(packed("searchAddr/usr/share/app/data/x"), ==,
	         "/usr/share/app/data/x->/o/app/share/app/data/x2@10");
	test_str(packed("/usr/share/app/data/xy"), ==,
	         "/usr/share/app/data/x->/o/app/share/app/data/x2@0");
	test_str(packed("x /usr/share/app/icons"), ==,
	         "/usr/share/app->/o/app/share/app@2+");
	test_str(packed("/usr/share/ap"), ==, "");
	/* Whatever pathmap_next finds, it finds too. */
	test_str(packed("PATH=/bin:/usr/share/app:/x"), ==,
	         "/usr/share/app->/o/app/share/app@10+");

	/* The one-pass search finds what those find, and no more. */
#define HOLDS(s, packed) pathmap_holds_any(sc, (const unsigned char *)(s), \
                                           sizeof(s) - 1, packed)
	test_ok(HOLDS("x=/usr/share/app/icons", false));
	test_ok(!HOLDS("searchAddr/usr/share/app", false));
	test_ok(HOLDS("searchAddr/usr/share/app", true));
	test_ok(HOLDS("x\0/\0u\0s\0r\0/\0s\0h\0a\0r\0e\0/\0a\0p\0p\0", false));
	test_ok(!HOLDS("/usr/share/application /usr/share/ap\0p /etc/app.confx",
	               false));
	/* A candidate past the vector search's last 16 bytes. */
	test_ok(HOLDS("................................................"
	              "..................... /etc/app.conf", false));

	pathmap_scanner_free(sc);
	pathmap_free(map);
	return test_done();
}
