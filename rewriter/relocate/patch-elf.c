/*
 * patch-elf.c: patch references in ELF files.
 *
 * Only what is known to be safe is written: a path string is replaced in
 * place when the new path is not longer (padded with slashes, see
 * patch_pad_path), and RUNPATH/RPATH entries naming the package's own
 * directories become $ORIGIN-relative, written where the file has room
 * (elf-dynamic.c); one for which it has none is handed back for patchelf.
 * Every other reference is reported with its offset.
 */
#include <elf.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/varbuf.h>

#include "relocate/elf-dynamic.h"
#include "relocate/elf-read.h"
#include "relocate/patch.h"

/*
 * RP (a RUNPATH, or NULL for none) with an $ORIGIN-relative entry added
 * for each namespace directory holding a library among the NEEDED names
 * of D that RP does not name yet.  A new string, or NULL when nothing is
 * to be added.
 */
static char *
add_library_dirs(const struct patch_context *ctx, const char *file,
                 const struct elf_dynamic *d, const char *rp)
{
	char dir[PATH_MAX], rel[PATH_MAX], entry[PATH_MAX + 8];
	struct varbuf out = VARBUF_INIT;
	const char *slash;
	bool added = false;
	size_t i;

	if (ctx->libs == NULL || pathmap_count(ctx->libs) == 0)
		return NULL;
	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	dir[slash && slash != dir ? (size_t)(slash - dir) : 1] = '\0';
	if (rp != NULL)
		varbuf_add_str(&out, rp);
	varbuf_end_str(&out);
	for (i = 0; i < d->nneeded; i++) {
		const char *libdir = pathmap_lookup(ctx->libs, d->needed[i],
		                                    strlen(d->needed[i]));
		const char *p;
		size_t n;
		bool named = false;

		if (libdir == NULL)
			continue;
		patch_relative_path(dir, libdir, rel, sizeof(rel));
		snprintf(entry, sizeof(entry), "$ORIGIN%s%s",
		         strcmp(rel, ".") ? "/" : "", strcmp(rel, ".") ? rel : "");
		/* Already there, by $ORIGIN or by its absolute path. */
		for (p = out.used ? out.buf : ""; *p; p += n + (p[n] == ':')) {
			n = strcspn(p, ":");
			if ((n == strlen(entry) && memcmp(p, entry, n) == 0) ||
			    (n == strlen(libdir) && memcmp(p, libdir, n) == 0))
				named = true;
		}
		if (named)
			continue;
		if (out.used)
			varbuf_add_char(&out, ':');
		varbuf_add_str(&out, entry);
		varbuf_end_str(&out);
		added = true;
	}
	if (!added) {
		varbuf_destroy(&out);
		return NULL;
	}
	varbuf_end_str(&out);
	return varbuf_detach(&out);
}

/*
 * The new RUNPATH for OLD: entries naming moved directories become
 * $ORIGIN-relative to the file's directory.  NULL when nothing changes.
 */
static char *
new_rpath(const struct patch_context *ctx, const char *file, const char *old,
          size_t oldlen)
{
	char dir[PATH_MAX], entry[PATH_MAX], rel[PATH_MAX];
	struct varbuf out = VARBUF_INIT;
	size_t pos = 0;
	bool changed = false;
	const char *slash;

	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	dir[slash && slash != dir ? (size_t)(slash - dir) : 1] = '\0';
	/* Entries may grow ($ORIGIN/../..): the result grows with them. */
	while (pos <= oldlen) {
		const char *colon = memchr(old + pos, ':', oldlen - pos);
		size_t elen = colon ? (size_t)(colon - (old + pos)) : oldlen - pos;
		struct pathmap_match m;

		if (out.used)
			varbuf_add_char(&out, ':');
		snprintf(entry, sizeof(entry), "%.*s", (int)elen, old + pos);
		if (elen < sizeof(entry) && entry[0] == '/' &&
		    pathmap_resolve(ctx->paths, entry, &m)) {
			char target[PATH_MAX];

			snprintf(target, sizeof(target), "%s%s", m.new,
			         entry + m.len);
			patch_relative_path(dir, target, rel, sizeof(rel));
			varbuf_add_str(&out, "$ORIGIN");
			if (strcmp(rel, ".") != 0)
				varbuf_printf(&out, "/%s", rel);
			changed = true;
		} else {
			varbuf_add_buf(&out, old + pos, elen);
		}
		if (colon == NULL)
			break;
		pos += elen + 1;
	}
	if (!changed) {
		varbuf_destroy(&out);
		return NULL;
	}
	varbuf_end_str(&out);
	return varbuf_detach(&out);
}

/* The new RUNPATH of FILE (D read), reported; NULL when it keeps its own. */
static char *
new_runpath(const struct patch_context *ctx, const char *file,
            const struct elf_dynamic *d, struct report *report)
{
	char *rp = NULL, *current, *grown;

	if (d->rpath != NULL)
		rp = new_rpath(ctx, file, d->rpath, d->rp_len);
	/* The namespace's libraries it needs: their directories too. */
	current = rp != NULL ? rp : d->rpath != NULL ? m_strdup(d->rpath) : NULL;
	grown = add_library_dirs(ctx, file, d, current);
	if (grown != NULL) {
		free(current);
		rp = grown;
	} else if (current != rp) {
		free(current);
	}
	if (rp != NULL)
		report_patch(report, file, "rpath", 0, (long long)d->rp_off,
		             d->rpath != NULL ? d->rpath : "", d->rp_len, rp);
	return rp;
}

int
patch_elf_runpath(const struct patch_context *ctx, const char *file,
                  const struct elf_reader *r, const struct elf_dynamic *d,
                  struct elf_edits *edits, char **rpath,
                  struct report *report)
{
	char *rp = new_runpath(ctx, file, d, report);
	int rc;

	memset(edits, 0, sizeof(*edits));
	*rpath = NULL;
	if (rp == NULL)
		return 0;
	rc = elf_runpath_edits(r, d, rp, edits);
	if (rc == 1) {
		/* No room: patchelf makes some. */
		*rpath = rp;
		report->n_rpath_patchelf++;
		return 0;
	}
	free(rp);
	return rc;
}

int
patch_elf(const struct patch_context *ctx, struct pathmap_scanner *sc,
          const char *file, const unsigned char *buf, size_t len,
          struct patch_result *res, struct report *report)
{
	struct elf_buffer eb = { buf, len };
	struct elf_reader r = elf_reader_buffer(&eb);
	struct elf_dynamic d;
	size_t pos = 0;
	bool rpath_done;
	struct pathmap_match m;
	bool go;

	memset(res, 0, sizeof(*res));
	/* The header is read unchecked below: too short, it is no ELF. */
	if (!elf_is_elf(buf, len))
		return patch_blob(sc, file, buf, len, report);
	/* A program built by Go's linker: its build information is there. */
	go = elf_has_section(buf, len, ".go.buildinfo");
	if (elf_dynamic_read(&r, &d) < 0 ||
	    patch_elf_runpath(ctx, file, &r, &d, &res->edits, &res->rpath,
	                      report) < 0) {
		elf_dynamic_free(&d);
		return -1;
	}
	/* The old RUNPATH's references are its business. */
	rpath_done = d.rpath != NULL &&
	             (res->edits.n > 0 || res->rpath != NULL);
	/* Strings are written after the RUNPATH's edits, over them where
	 * they meet: the edits are applied in order. */
	while (go ? pathmap_next_packed(sc, buf, len, pos, &m) :
	            pathmap_next(sc, buf, len, pos, &m)) {
		size_t newlen = strlen(m.new);
		unsigned char *p;

		pos = m.start + m.len;
		if (rpath_done && m.start >= d.rp_off &&
		    m.start < d.rp_off + d.rp_len)
			continue;
		/* An export, left where it is: nothing to patch. */
		if (!m.bounded && strcmp(m.old, m.new) == 0)
			continue;
		if (!m.bounded && newlen <= m.len) {
			report_unpatched(report, file, (long long)m.start,
			                 (const char *)buf + m.start, m.len,
			                 "a Go string with no terminator, run on "
			                 "into other bytes: it may be part of a "
			                 "longer path, and is not patched");
			continue;
		}
		if (newlen > m.len) {
			char reason[160];

			snprintf(reason, sizeof(reason),
			         go ? "a Go string (its length is compiled into "
			              "the code): the new path is %zu bytes longer "
			              "and cannot be patched in place" :
			         "the new path is %zu bytes longer and cannot be "
			         "patched in place", newlen - m.len);
			report_unpatched(report, file, (long long)m.start,
			                 (const char *)buf + m.start, m.len, reason);
			continue;
		}
		p = elf_edits_add(&res->edits, m.start, m.len);
		if (p == NULL) {
			elf_dynamic_free(&d);
			patch_result_free(res);
			return -1;
		}
		patch_pad_path(m.old, m.len, m.new, (char *)p);
		report_patch(report, file, "elf-string", 0, (long long)m.start,
		             m.old, m.len, m.new);
	}
	elf_dynamic_free(&d);
	patch_report_utf16(sc, file, buf, len, report);
	return 0;
}
