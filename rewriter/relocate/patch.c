/*
 * patch.c: one entry point over the text, ELF and blob patchers, which
 * know nothing of each other but what patch.h says (the ELF patcher
 * hands what it cannot read to the blob scanner).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "relocate/elf-read.h"
#include "relocate/patch.h"

int
patch_content(const struct patch_context *ctx, struct pathmap_scanner *sc,
              const char *file, const unsigned char *buf, size_t len,
              struct patch_result *res, struct report *report)
{
	memset(res, 0, sizeof(*res));
	if (len == 0)
		return 0;
	if (elf_is_elf(buf, len))
		return patch_elf(ctx, sc, file, buf, len, res, report);
	if (!patch_is_compressed(buf, len) &&
	    (memchr(buf, '\0', len) == NULL || patch_is_info(buf, len)))
		return patch_text(ctx, sc, file, buf, len, res, report);
	if (patch_is_mo(buf, len))
		return patch_mo(sc, file, buf, len, res, report);
	return patch_blob(sc, file, buf, len, report);
}

int
patch_result_apply(struct patch_result *res, const unsigned char *buf,
                   size_t len)
{
	uint64_t newlen = elf_edits_length(&res->edits, len);
	unsigned char *copy;

	if (res->edits.n == 0)
		return 0;
	copy = newlen <= SIZE_MAX ? calloc(1, newlen ? (size_t)newlen : 1)
	                          : NULL;
	if (copy == NULL)
		return -1;
	memcpy(copy, buf, len);
	elf_edits_apply(&res->edits, copy, (size_t)newlen);
	elf_edits_free(&res->edits);
	free(res->data);
	res->data = copy;
	res->len = (size_t)newlen;
	return 0;
}

void
patch_result_free(struct patch_result *res)
{
	free(res->data);
	free(res->rpath);
	elf_edits_free(&res->edits);
	res->data = NULL;
	res->rpath = NULL;
}

void
patch_out_append(struct patch_out *o, const void *p, size_t n)
{
	/* Nothing to add: o->data may still be NULL, memcpy must not see it. */
	if (o->oom || n == 0)
		return;
	if (o->len + n > o->alloc) {
		size_t a = o->alloc ? o->alloc : 4096;
		void *v;

		while (a < o->len + n)
			a *= 2;
		v = realloc(o->data, a);
		if (v == NULL) {
			o->oom = true;
			return;
		}
		o->data = v;
		o->alloc = a;
	}
	memcpy(o->data + o->len, p, n);
	o->len += n;
}
