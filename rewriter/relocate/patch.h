/*
 * patch.h: patch references to moved paths in a file's content.
 *
 * One entry point classifies the content and hands it to the text, ELF or
 * blob patcher:
 *   - text (no NUL byte): every reference rewritten; in .desktop files
 *     also Exec=/TryExec= naming a program by its bare name and Icon=
 *     naming a renamed icon; renamed icons in GtkBuilder files and
 *     Python's icon_name calls; the shared locale directory itself when
 *     the package's catalogues moved into the namespace;
 *   - ELF: a reference rewritten in place when the new path fits, RUNPATH
 *     and RPATH rewritten ($ORIGIN-relative), a RUNPATH entry added for
 *     each directory of the namespace holding a library the file needs
 *     (the loader looks there for no other reason), the rest reported;
 *   - anything else (compressed, serialised, UTF-16): references are
 *     found and reported, never patched.
 */
#ifndef DH_EXTRAS_PATCH_H
#define DH_EXTRAS_PATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "relocate/pathmap.h"
#include "relocate/report.h"

struct patch_context {
	const struct pathmap *paths;	/* old path -> new path */
	const struct pathmap *programs;	/* "foo" -> "/opt/.../bin/foo" */
	const struct pathmap *icons;	/* "foo" -> "extras-foo" */
	/* The namespace's locale directory when the package's catalogues
	 * moved there ("/opt/.../share/locale"), else NULL. */
	const char *localedir;
	/* The namespace's shared libraries: "libfoo.so.1" -> its directory
	 * ("/opt/.../lib"); NULL or empty when it ships none. */
	const struct pathmap *libs;
};

struct patch_result {
	unsigned char *data;	/* the new content, or NULL if unchanged */
	size_t len;
	char *rpath;		/* a new RUNPATH/RPATH to set with patchelf,
				   when it does not fit in place */
};

/*
 * Patch BUF of the file FILE (its absolute path once installed), recording
 * what was done and what could not be done in REPORT.  Returns 0, or -1
 * on allocation failure.
 */
int patch_content(const struct patch_context *ctx,
                  struct pathmap_scanner *sc, const char *file,
                  const unsigned char *buf, size_t len,
                  struct patch_result *res, struct report *report);

int patch_text(const struct patch_context *ctx, struct pathmap_scanner *sc,
               const char *file, const unsigned char *buf, size_t len,
               struct patch_result *res, struct report *report);
/* Anything but patch_is_elf() content goes to patch_blob(). */
int patch_elf(const struct patch_context *ctx, struct pathmap_scanner *sc,
              const char *file, const unsigned char *buf, size_t len,
              struct patch_result *res, struct report *report);
int patch_blob(struct pathmap_scanner *sc, const char *file,
               const unsigned char *buf, size_t len, struct report *report);

/* e_ident and the fields up to the section header table. */
#define PATCH_ELF_HEADER_LEN 64

/*
 * Whether BUF starts with an ELF header of a known class and byte order,
 * PATCH_ELF_HEADER_LEN bytes at least: what patch_elf() reads.
 */
bool patch_is_elf(const unsigned char *buf, size_t len);

/* Whether BUF starts like compressed data or a zip archive. */
bool patch_is_compressed(const unsigned char *buf, size_t len);

/* Report every UTF-16 reference in BUF (binary content only). */
void patch_report_utf16(struct pathmap_scanner *sc, const char *file,
                        const unsigned char *buf, size_t len,
                        struct report *report);

/*
 * Write NEW into OUT as exactly OLDLEN bytes (strlen(NEW) <= OLDLEN),
 * padding with extra slashes placed so that the tail NEW shares with OLD
 * keeps its offsets: strings the linker merged into that tail stay valid.
 */
void patch_pad_path(const char *old, size_t oldlen, const char *new,
                    char *out);

/* The relative path from directory FROM to TO (both absolute, clean). */
void patch_relative_path(const char *from, const char *to, char *out,
                         size_t size);

#endif
