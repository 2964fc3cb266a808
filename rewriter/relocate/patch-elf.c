/*
 * patch-elf.c: patch references in ELF files.
 *
 * Only what is known to be safe is written: a path string is replaced in
 * place when the new path is not longer (padded with slashes, see
 * patch_pad_path), and RUNPATH/RPATH entries naming the package's own
 * directories become $ORIGIN-relative.  A RUNPATH that does not fit is
 * handed back for patchelf, rather than editing the ELF layout here.
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

#include "relocate/patch.h"

struct elf_image {
	const unsigned char *buf;
	size_t len;
	bool is64, big_endian;
};

static uint64_t
rd(const struct elf_image *e, size_t off, size_t size)
{
	uint64_t v = 0;
	size_t i;

	if (off > e->len || size > e->len - off)
		return 0;
	for (i = 0; i < size; i++) {
		size_t b = e->big_endian ? i : size - 1 - i;

		v = (v << 8) | e->buf[off + b];
	}
	return v;
}

/*
 * The file offset and length of the RUNPATH (or RPATH) string, found
 * through the section headers; false when there is none or the headers
 * are not usable (then any reference is treated like another string).
 */
static bool
find_rpath(const struct elf_image *e, size_t *off, size_t *len)
{
	uint64_t shoff, shentsize, shnum, i;
	size_t ehdr_shoff = e->is64 ? 0x28 : 0x20;
	size_t ehdr_shentsize = e->is64 ? 0x3a : 0x2e;

	shoff = rd(e, ehdr_shoff, e->is64 ? 8 : 4);
	shentsize = rd(e, ehdr_shentsize, 2);
	shnum = rd(e, ehdr_shentsize + 2, 2);
	if (shoff == 0 || shentsize < (e->is64 ? 64u : 40u) ||
	    shoff > e->len || shnum > (e->len - shoff) / shentsize)
		return false;
	for (i = 0; i < shnum; i++) {
		size_t sh = shoff + i * shentsize;
		uint64_t type = rd(e, sh + 4, 4);
		uint64_t offset, size, link, entsize, strsh, stroff, strsize, j;

		if (type != SHT_DYNAMIC)
			continue;
		offset = rd(e, sh + (e->is64 ? 0x18 : 0x10), e->is64 ? 8 : 4);
		size = rd(e, sh + (e->is64 ? 0x20 : 0x14), e->is64 ? 8 : 4);
		link = rd(e, sh + (e->is64 ? 0x28 : 0x18), 4);
		entsize = e->is64 ? 16 : 8;
		if (link >= shnum || offset > e->len || size > e->len - offset)
			return false;
		strsh = shoff + link * shentsize;
		stroff = rd(e, strsh + (e->is64 ? 0x18 : 0x10), e->is64 ? 8 : 4);
		strsize = rd(e, strsh + (e->is64 ? 0x20 : 0x14),
		             e->is64 ? 8 : 4);
		if (stroff > e->len || strsize > e->len - stroff)
			return false;
		for (j = 0; j + entsize <= size; j += entsize) {
			uint64_t tag = rd(e, offset + j, entsize / 2);
			uint64_t val = rd(e, offset + j + entsize / 2, entsize / 2);
			const unsigned char *nul;

			if (tag == DT_NULL)
				break;
			if (tag != DT_RUNPATH && tag != DT_RPATH)
				continue;
			if (val >= strsize)
				return false;
			nul = memchr(e->buf + stroff + val, '\0', strsize - val);
			if (nul == NULL)
				return false;
			*off = stroff + val;
			*len = (size_t)(nul - (e->buf + stroff + val));
			return true;
		}
	}
	return false;
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

int
patch_elf(const struct patch_context *ctx, struct pathmap_scanner *sc,
          const char *file, const unsigned char *buf, size_t len,
          struct patch_result *res, struct report *report)
{
	struct elf_image e;
	size_t rp_off = 0, rp_len = 0, pos = 0;
	bool has_rpath, rpath_done = false;
	unsigned char *copy = NULL;
	struct pathmap_match m;

	memset(res, 0, sizeof(*res));
	/* The header is read unchecked below: too short, it is no ELF. */
	if (!patch_is_elf(buf, len))
		return patch_blob(sc, file, buf, len, report);
	e = (struct elf_image){ buf, len, buf[EI_CLASS] == ELFCLASS64,
	                        buf[EI_DATA] == ELFDATA2MSB };
	has_rpath = find_rpath(&e, &rp_off, &rp_len);
	if (has_rpath) {
		char *rp = new_rpath(ctx, file, (const char *)buf + rp_off,
		                     rp_len);

		if (rp != NULL) {
			size_t newlen = strlen(rp);

			report_patch(report, file, "rpath", 0, (long long)rp_off,
			             (const char *)buf + rp_off, rp_len, rp);
			if (newlen <= rp_len) {
				copy = malloc(len);
				if (copy == NULL) {
					free(rp);
					return -1;
				}
				memcpy(copy, buf, len);
				/* The RUNPATH string's tail may be shared too. */
				patch_pad_path((const char *)buf + rp_off, rp_len,
				               rp, (char *)copy + rp_off);
				free(rp);
			} else {
				res->rpath = rp;
			}
			rpath_done = true;
		}
	}
	while (pathmap_next(sc, buf, len, pos, &m)) {
		size_t newlen = strlen(m.new);

		pos = m.start + m.len;
		if (rpath_done && m.start >= rp_off && m.start < rp_off + rp_len)
			continue;
		if (newlen > m.len) {
			char reason[128];

			snprintf(reason, sizeof(reason),
			         "the new path is %zu bytes longer and cannot be "
			         "patched in place", newlen - m.len);
			report_unpatched(report, file, (long long)m.start,
			                 (const char *)buf + m.start, m.len, reason);
			continue;
		}
		if (copy == NULL) {
			copy = malloc(len);
			if (copy == NULL)
				return -1;
			memcpy(copy, buf, len);
		}
		patch_pad_path(m.old, m.len, m.new, (char *)copy + m.start);
		report_patch(report, file, "elf-string", 0, (long long)m.start,
		             m.old, m.len, m.new);
	}
	patch_report_utf16(sc, file, buf, len, report);
	if (copy != NULL) {
		res->data = copy;
		res->len = len;
	}
	return 0;
}
