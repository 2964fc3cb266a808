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
 *     a GNU Info manual is text too, though its index cookies hold NUL
 *     bytes, and its tag table's offsets follow the edits;
 *   - ELF: a reference rewritten in place when the new path fits, RUNPATH
 *     and RPATH rewritten ($ORIGIN-relative), a RUNPATH entry added for
 *     each directory of the namespace holding a library the file needs
 *     (the loader looks there for no other reason), the rest reported;
 *   - a gettext catalogue (.mo): references in its translations
 *     rewritten (each new string appended, its descriptor pointed at
 *     it), those in the original messages the program looks up reported;
 *   - anything else (compressed, serialised, UTF-16): references are
 *     found and reported, never patched.
 */
#ifndef DH_EXTRAS_PATCH_H
#define DH_EXTRAS_PATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "relocate/elf-dynamic.h"
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
	/* MIME types no MimeType= of a .desktop file may claim (the
	 * reserved URL schemes, when the app is not granted them; compared
	 * without regard to case): dropped from it, each reported as a
	 * "desktop-mimetype" patch. */
	const char *const *unclaimable;
	size_t n_unclaimable;
};

/*
 * What changes in a file: new content, or for an ELF file the few bytes
 * that change (a file of hundreds of MiB is not copied for a string or a
 * RUNPATH), or neither.
 */
struct patch_result {
	unsigned char *data;	/* the new content, or NULL if unchanged */
	size_t len;
	struct elf_edits edits;	/* ELF: bytes written over the old content,
				   in order, past its end when it grows */
	char *rpath;		/* a new RUNPATH/RPATH to set with patchelf,
				   when the file has no room for it */
};

/* RES's edits applied to a copy of BUF (LEN bytes) as RES's new content:
 * 0, or -1 when out of memory. */
int patch_result_apply(struct patch_result *res, const unsigned char *buf,
                       size_t len);
void patch_result_free(struct patch_result *res);

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
/* Anything but elf_is_elf() content goes to patch_blob(). */
int patch_elf(const struct patch_context *ctx, struct pathmap_scanner *sc,
              const char *file, const unsigned char *buf, size_t len,
              struct patch_result *res, struct report *report);
/*
 * The RUNPATH FILE needs (R, read into D): EDITS that write it, or *RPATH
 * to set with patchelf when the file has no room for it; neither when it
 * keeps its own.  Reported in REPORT.  0, or -1 when out of memory.
 */
int patch_elf_runpath(const struct patch_context *ctx, const char *file,
                      const struct elf_reader *r, const struct elf_dynamic *d,
                      struct elf_edits *edits, char **rpath,
                      struct report *report);
int patch_blob(struct pathmap_scanner *sc, const char *file,
               const unsigned char *buf, size_t len, struct report *report);
/* New content as a patcher writes it; a failed allocation sticks in OOM. */
struct patch_out {
	unsigned char *data;
	size_t len, alloc;
	bool oom;
};

void patch_out_append(struct patch_out *o, const void *p, size_t n);

/* Whether BUF starts as a gettext catalogue (.mo) does. */
bool patch_is_mo(const unsigned char *buf, size_t len);
/* A catalogue's translations patched, the rest reported (patch-mo.c). */
int patch_mo(struct pathmap_scanner *sc, const char *file,
             const unsigned char *buf, size_t len, struct patch_result *res,
             struct report *report);

/* Whether BUF is a GNU Info manual: a node, and NULs only in cookies. */
bool patch_is_info(const unsigned char *buf, size_t len);

/*
 * The edits of one pass of the text patcher, in order: at AT of the
 * pass's input, OLDLEN bytes replaced; SHIFT_BEFORE is how far the
 * edits before it moved what follows them, SHIFT how far all did.
 */
struct text_edit {
	size_t at, oldlen;
	long long shift_before;
};

struct text_edits {
	struct text_edit *v;
	size_t n, alloc;
	long long shift;
};

/* Record an edit in EDITS (nothing if NULL); -1 if out of memory. */
int text_edits_add(struct text_edits *edits, size_t at, size_t oldlen,
                   size_t newlen);
void text_edits_free(struct text_edits *edits);

/*
 * BUF, the patched text of an Info manual, with each offset of its tag
 * table carried through PASSES (the edits that made BUF, pass by pass);
 * NULL if none moved or there is no tag table to mend (*OOM set if out
 * of memory).
 */
unsigned char *patch_info_retag(const unsigned char *buf, size_t len,
                                const struct text_edits *passes,
                                size_t npasses, size_t *outlen, bool *oom);

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
