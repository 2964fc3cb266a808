/*
 * patch-maps.h: the moved paths, programs, icons and libraries the patching
 * harnesses rewrite references to: new paths shorter, as long and longer
 * than the old ones, so that ELF strings are patched in place, padded or
 * refused; libraries an ELF input may need (RUNPATH added); catalogues
 * moved (the locale directory followed).
 */
#ifndef DH_EXTRAS_FUZZ_PATCH_MAPS_H
#define DH_EXTRAS_FUZZ_PATCH_MAPS_H

#include "relocate/patch.h"

static struct patch_context patch_ctx;
static struct pathmap_scanner *patch_scanner;

static void
patch_maps_init(void)
{
	static const char *const paths[][2] = {
		{ "/usr/share/foo", "/opt/extras.ubuntu.com/foo/share/foo" },
		{ "/usr/lib/foo", "/o/f/lib/foo" },
		{ "/usr/lib/x86_64-linux-gnu/foo",
		  "/opt/extras.ubuntu.com/foo/lib/x86_64-linux-gnu/foo" },
		{ "/usr/local/share/foo", "/o/ab/share/foo" },
		{ "/usr/bin/foo", "/opt/extras.ubuntu.com/foo/bin/foo" },
		{ "/etc/foo", "/opt/extras.ubuntu.com/foo/etc/foo" },
		{ "/usr/share/foo/data/x", "/o/x" },
	};
	struct pathmap *p = pathmap_new(), *prog = pathmap_new(),
	               *icons = pathmap_new(), *libs = pathmap_new();
	struct dpkg_error err = DPKG_ERROR_INIT;
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (pathmap_add(p, paths[i][0], paths[i][1]) < 0)
			abort();
	if (pathmap_add(prog, "foo", "/opt/extras.ubuntu.com/foo/bin/foo") < 0 ||
	    pathmap_add(prog, "bar", "/opt/extras.ubuntu.com/foo/bin/bar") < 0 ||
	    pathmap_add(libs, "libfoo.so.1",
	                "/opt/extras.ubuntu.com/foo/lib/x86_64-linux-gnu") < 0 ||
	    pathmap_add(libs, "libc.so.6", "/opt/extras.ubuntu.com/foo/lib") < 0 ||
	    pathmap_add(icons, "foo", "extras-foo") < 0 ||
	    pathmap_add(icons, "org.example.Foo", "extras-foo") < 0)
		abort();
	if (pathmap_compile(p, &err) < 0 ||
	    pathmap_compile(prog, &err) < 0 ||
	    pathmap_compile(icons, &err) < 0) {
		fprintf(stderr, "%s\n", err.str);
		abort();
	}
	patch_ctx.paths = p;
	patch_ctx.programs = prog;
	patch_ctx.icons = icons;
	patch_ctx.libs = libs;
	/* The catalogues moved: the shared locale directory follows. */
	patch_ctx.localedir = "/opt/extras.ubuntu.com/foo/share/locale";
	/* Claims a .desktop file may not make: dropped from MimeType=. */
	{
		static const char *const unclaimable[] = {
			"x-scheme-handler/https", "x-scheme-handler/irc",
			"inode/directory",
		};

		patch_ctx.unclaimable = unclaimable;
		patch_ctx.n_unclaimable = 3;
	}
	patch_scanner = pathmap_scanner_new(p);
	if (patch_scanner == NULL)
		abort();
}

#endif
