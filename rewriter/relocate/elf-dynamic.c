/*
 * elf-dynamic.c: an ELF file's dynamic section, and its RUNPATH written
 * in place (see elf-dynamic.h).
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strings.h"
#include "relocate/elf-dynamic.h"
#include "relocate/elf-read.h"
#include "relocate/patch.h"

static int
buffer_read(void *ctx, uint64_t off, void *dst, size_t n)
{
	const struct elf_buffer *b = ctx;

	if (off > b->len || n > b->len - off)
		return -1;
	memcpy(dst, b->buf + off, n);
	return 0;
}

struct elf_reader
elf_reader_buffer(struct elf_buffer *b)
{
	return (struct elf_reader){ buffer_read, b, b->len };
}

static int
fd_read_at(void *ctx, uint64_t off, void *dst, size_t n)
{
	int fd = *(int *)ctx;
	size_t done = 0;

	while (done < n) {
		ssize_t got = pread(fd, (char *)dst + done, n - done,
		                    (off_t)(off + done));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		done += (size_t)got;
	}
	return 0;
}

struct elf_reader
elf_reader_fd(int *fd, uint64_t size)
{
	return (struct elf_reader){ fd_read_at, fd, size };
}

/* An integer of SIZE bytes at P, in D's byte order. */
static uint64_t
get(const struct elf_dynamic *d, const unsigned char *p, size_t size)
{
	return elf_get(d->big_endian, p, size);
}

static void
put(const struct elf_dynamic *d, unsigned char *p, size_t size, uint64_t v)
{
	size_t i;

	for (i = 0; i < size; i++, v >>= 8)
		p[d->big_endian ? size - 1 - i : i] = v & 0xff;
}

/* A word of the file's class: 8 bytes or 4. */
#define WORD(d) ((d)->is64 ? 8u : 4u)

/* Fields of a section header, of a program header, of a dynamic entry. */
#define SH_TYPE 4
#define SH_ADDR(d) ((d)->is64 ? 0x10u : 0x0cu)
#define SH_OFFSET(d) ((d)->is64 ? 0x18u : 0x10u)
#define SH_SIZE(d) ((d)->is64 ? 0x20u : 0x14u)
#define SH_LINK(d) ((d)->is64 ? 0x28u : 0x18u)
#define PH_OFFSET(d) ((d)->is64 ? 0x08u : 0x04u)
#define PH_VADDR(d) ((d)->is64 ? 0x10u : 0x08u)
#define PH_FILESZ(d) ((d)->is64 ? 0x20u : 0x10u)
#define PH_MEMSZ(d) ((d)->is64 ? 0x28u : 0x14u)
#define PH_FLAGS(d) ((d)->is64 ? 0x04u : 0x18u)
#define PH_PADDR(d) ((d)->is64 ? 0x18u : 0x0cu)
#define PH_ALIGN(d) ((d)->is64 ? 0x30u : 0x1cu)
#define PH_SIZE(d) ((d)->is64 ? 56u : 32u)
#define DYN_SIZE(d) (2 * WORD(d))
/* Fields of the ELF header: where the program headers are, how many. */
#define EH_PHOFF(d) ((d)->is64 ? 0x20u : 0x1cu)
#define EH_PHNUM(d) ((d)->is64 ? 0x38u : 0x2cu)

static const unsigned char *
shdr(const struct elf_dynamic *d, unsigned i)
{
	return d->shdrs + (size_t)i * d->shentsize;
}

static uint64_t
sh(const struct elf_dynamic *d, unsigned i, unsigned field, size_t size)
{
	return get(d, shdr(d, i) + field, size);
}

static uint64_t
dyn_tag(const struct elf_dynamic *d, size_t i)
{
	return get(d, d->dyn + i * DYN_SIZE(d), WORD(d));
}

static uint64_t
dyn_val(const struct elf_dynamic *d, size_t i)
{
	return get(d, d->dyn + i * DYN_SIZE(d) + WORD(d), WORD(d));
}

/* The NUL-terminated string at OFF of .dynstr, LEN set to its length. */
static char *
read_string(const struct elf_reader *r, const struct elf_dynamic *d,
            uint64_t off, size_t *len)
{
	char *s = NULL;
	size_t have = 0;

	while (off + have < d->str_size) {
		size_t want = d->str_size - off - have < 256 ?
		              d->str_size - off - have : 256;
		char *v = realloc(s, have + want + 1);
		char *nul;

		if (v == NULL) {
			free(s);
			return NULL;
		}
		s = v;
		if (r->read(r->ctx, d->str_off + off + have, s + have,
		            want) < 0)
			break;
		nul = memchr(s + have, '\0', want);
		if (nul != NULL) {
			*len = (size_t)(nul - s);
			return s;
		}
		have += want;
	}
	free(s);
	errno = EINVAL;
	return NULL;
}

static int
read_headers(const struct elf_reader *r, struct elf_dynamic *d)
{
	unsigned char eh[ELF_HEADER_LEN];
	struct elf_header h;

	if (r->read(r->ctx, 0, eh, sizeof(eh)) < 0 ||
	    !elf_header_parse(eh, sizeof(eh), &h))
		return 0;
	d->is64 = h.is64;
	d->big_endian = h.big_endian;
	d->shoff = h.shoff;
	d->shentsize = h.shentsize;
	d->shnum = h.shnum;
	if (!elf_header_sections_usable(&h, r->size))
		return 0;
	d->shdrs = malloc((size_t)d->shnum * d->shentsize);
	if (d->shdrs == NULL)
		return -1;
	if (r->read(r->ctx, d->shoff, d->shdrs,
	            (size_t)d->shnum * d->shentsize) < 0)
		return 0;
	return 1;
}

/* D's strings: the RUNPATH's (or RPATH's) and the DT_NEEDED names. */
static int
read_strings(const struct elf_reader *r, struct elf_dynamic *d)
{
	size_t i, len;

	for (i = 0; i + 1 < d->dyn_used; i++) {
		uint64_t tag = dyn_tag(d, i), val = dyn_val(d, i);
		char *s, **v;

		if (tag == DT_NEEDED ||
		    ((tag == DT_RUNPATH || tag == DT_RPATH) &&
		     d->rpath_entry < 0)) {
			s = read_string(r, d, val, &len);
			if (s == NULL)
				return errno == ENOMEM ? -1 : 0;
		} else {
			continue;
		}
		if (tag != DT_NEEDED) {
			d->rpath_entry = (long)i;
			d->rpath = s;
			d->rp_off = d->str_off + val;
			d->rp_len = len;
			continue;
		}
		v = realloc(d->needed, (d->nneeded + 1) * sizeof(*v));
		if (v == NULL) {
			free(s);
			return -1;
		}
		d->needed = v;
		d->needed[d->nneeded++] = s;
	}
	return 1;
}

static int
read_dynamic(const struct elf_reader *r, struct elf_dynamic *d)
{
	unsigned i;
	int rc;

	rc = read_headers(r, d);
	if (rc <= 0)
		return rc;
	for (i = 0; i < d->shnum; i++) {
		uint64_t size, link;

		if (sh(d, i, SH_TYPE, 4) != SHT_DYNAMIC)
			continue;
		d->dyn_off = sh(d, i, SH_OFFSET(d), WORD(d));
		size = sh(d, i, SH_SIZE(d), WORD(d));
		link = sh(d, i, SH_LINK(d), 4);
		if (link >= d->shnum || d->dyn_off > r->size ||
		    size > r->size - d->dyn_off || size > 1 << 20)
			return 0;
		d->str_index = link;
		d->str_off = sh(d, link, SH_OFFSET(d), WORD(d));
		d->str_addr = sh(d, link, SH_ADDR(d), WORD(d));
		d->str_size = sh(d, link, SH_SIZE(d), WORD(d));
		if (d->str_off > r->size || d->str_size > r->size - d->str_off)
			return 0;
		d->dyn_slots = size / DYN_SIZE(d);
		d->dyn = malloc(size ? size : 1);
		if (d->dyn == NULL)
			return -1;
		if (r->read(r->ctx, d->dyn_off, d->dyn, size) < 0)
			return 0;
		while (d->dyn_used < d->dyn_slots &&
		       dyn_tag(d, d->dyn_used++) != DT_NULL)
			;
		if (d->dyn_used == 0 || dyn_tag(d, d->dyn_used - 1) != DT_NULL)
			return 0;
		return read_strings(r, d);
	}
	return 0;
}

int
elf_dynamic_read(const struct elf_reader *r, struct elf_dynamic *d)
{
	int rc;

	memset(d, 0, sizeof(*d));
	d->rpath_entry = -1;
	rc = read_dynamic(r, d);
	if (rc <= 0) {
		/* Nothing half read: a file without a dynamic section. */
		elf_dynamic_free(d);
		d->rpath_entry = -1;
	}
	return rc;
}

void
elf_dynamic_free(struct elf_dynamic *d)
{
	strings_free(d->needed, d->nneeded);
	free(d->rpath);
	free(d->dyn);
	free(d->shdrs);
	memset(d, 0, sizeof(*d));
}

/* A new edit of LEN bytes at OFF, its bytes to be filled; NULL if out of
 * memory. */
unsigned char *
elf_edits_add(struct elf_edits *e, uint64_t off, size_t len)
{
	struct elf_edit *v = realloc(e->v, (e->n + 1) * sizeof(*v));
	unsigned char *bytes = malloc(len ? len : 1);

	if (v != NULL)
		e->v = v;
	if (v == NULL || bytes == NULL) {
		free(bytes);
		return NULL;
	}
	e->v[e->n++] = (struct elf_edit){ off, len, bytes };
	return bytes;
}

static int
edit_int(struct elf_edits *e, const struct elf_dynamic *d, uint64_t off,
         size_t size, uint64_t v)
{
	unsigned char *p = elf_edits_add(e, off, size);

	if (p == NULL)
		return -1;
	put(d, p, size, v);
	return 0;
}

/* Set the value of dynamic entry I (and its tag, unless 0). */
static int
edit_entry(struct elf_edits *e, const struct elf_dynamic *d, size_t i,
           uint64_t tag, uint64_t val)
{
	uint64_t at = d->dyn_off + i * DYN_SIZE(d);

	if (tag != 0 && edit_int(e, d, at, WORD(d), tag) < 0)
		return -1;
	return edit_int(e, d, at + WORD(d), WORD(d), val);
}

/* The first entry tagged TAG, or -1. */
static long
find_entry(const struct elf_dynamic *d, uint64_t tag)
{
	size_t i;

	for (i = 0; i + 1 < d->dyn_used; i++)
		if (dyn_tag(d, i) == tag)
			return (long)i;
	return -1;
}

/* A loadable segment, and where its program header is. */
struct segment {
	uint64_t at; /* its program header's file offset */
	uint64_t offset, vaddr, filesz, memsz;
};

/* The PT_LOAD segments: 1, 0 when the program headers are not usable,
 * -1 when out of memory. */
static int
read_segments(const struct elf_reader *r, const struct elf_dynamic *d,
              struct segment **segs, size_t *nsegs)
{
	unsigned char eh[ELF_HEADER_LEN], ph[56];
	struct elf_header h;
	unsigned i;

	*segs = NULL;
	*nsegs = 0;
	if (r->read(r->ctx, 0, eh, sizeof(eh)) < 0 ||
	    !elf_header_parse(eh, sizeof(eh), &h) ||
	    !elf_header_programs_usable(&h, r->size))
		return 0;
	*segs = calloc(h.phnum ? h.phnum : 1, sizeof(**segs));
	if (*segs == NULL)
		return -1;
	for (i = 0; i < h.phnum; i++) {
		uint64_t at = h.phoff + (uint64_t)i * h.phentsize;
		struct segment *s = &(*segs)[*nsegs];

		if (r->read(r->ctx, at, ph, d->is64 ? 56 : 32) < 0)
			return 0;
		if (get(d, ph, 4) != PT_LOAD)
			continue;
		s->at = at;
		s->offset = get(d, ph + PH_OFFSET(d), WORD(d));
		s->vaddr = get(d, ph + PH_VADDR(d), WORD(d));
		s->filesz = get(d, ph + PH_FILESZ(d), WORD(d));
		s->memsz = get(d, ph + PH_MEMSZ(d), WORD(d));
		(*nsegs)++;
	}
	return 1;
}

/*
 * How many bytes from file offset AT are owned by nothing (no section,
 * no header table, no segment but SEG, which they may end) and zero, up
 * to WANT; and, past SEG's end, by no segment in memory either.
 */
static uint64_t
free_bytes(const struct elf_reader *r, const struct elf_dynamic *d,
           const struct segment *segs, size_t nsegs,
           const struct segment *seg, uint64_t at, uint64_t want)
{
	uint64_t limit = r->size, end = seg->offset + seg->filesz, i;
	unsigned char buf[4096];
	unsigned k;

	if (at > limit)
		return 0;
	for (k = 0; k < d->shnum; k++) {
		uint64_t off = sh(d, k, SH_OFFSET(d), WORD(d));
		uint64_t size = sh(d, k, SH_SIZE(d), WORD(d));

		if (sh(d, k, SH_TYPE, 4) == SHT_NOBITS || size == 0 ||
		    sh(d, k, SH_TYPE, 4) == SHT_NULL)
			continue;
		if (off < at && off + size > at)
			return 0;
		if (off >= at && off < limit)
			limit = off;
	}
	if (d->shoff >= at && d->shoff < limit)
		limit = d->shoff;
	if (d->shoff < at && d->shoff + (uint64_t)d->shnum * d->shentsize > at)
		return 0;
	for (k = 0; k < nsegs; k++) {
		const struct segment *s = &segs[k];

		if (s == seg)
			continue;
		if (s->offset < at && s->offset + s->filesz > at)
			return 0;
		if (s->offset >= at && s->offset < limit)
			limit = s->offset;
	}
	if (limit - at < want)
		return 0;
	/* Past the segment's end: its memory image grows too. */
	if (at + want > end) {
		uint64_t lo = seg->vaddr + seg->memsz;
		uint64_t hi = seg->vaddr + (at + want - seg->offset);

		if (seg->filesz != seg->memsz)
			return 0;
		for (k = 0; k < nsegs; k++)
			if (&segs[k] != seg && segs[k].vaddr < hi &&
			    segs[k].vaddr + segs[k].memsz > lo)
				return 0;
	}
	for (i = 0; i < want; i += sizeof(buf)) {
		size_t n = want - i < sizeof(buf) ? want - i : sizeof(buf);
		size_t j;

		if (r->read(r->ctx, at + i, buf, n) < 0)
			return 0;
		for (j = 0; j < n; j++)
			if (buf[j] != 0)
				return 0;
	}
	return want;
}

/* The number of zero bytes that end .dynstr (a few KiB looked at). */
static uint64_t
trailing_zeros(const struct elf_reader *r, const struct elf_dynamic *d)
{
	unsigned char buf[4096];
	uint64_t n = d->str_size < sizeof(buf) ? d->str_size : sizeof(buf);
	uint64_t z = 0;

	if (r->read(r->ctx, d->str_off + d->str_size - n, buf, n) < 0)
		return 0;
	while (z < n && buf[n - 1 - z] == 0)
		z++;
	return z;
}

/* Grow SEG (filesz and memsz) to end at file offset END. */
static int
grow_segment(struct elf_edits *e, const struct elf_dynamic *d,
             const struct segment *seg, uint64_t end)
{
	uint64_t size = end - seg->offset;

	if (size <= seg->filesz)
		return 0;
	if (edit_int(e, d, seg->at + PH_FILESZ(d), WORD(d), size) < 0 ||
	    edit_int(e, d, seg->at + PH_MEMSZ(d), WORD(d), size) < 0)
		return -1;
	return 0;
}

/* .dynstr's new place (file offset OFF, address ADDR) and size, in its
 * section header and DT_STRTAB and DT_STRSZ. */
static int
move_strtab_to(struct elf_edits *e, const struct elf_dynamic *d, uint64_t off,
               uint64_t addr, uint64_t size)
{
	uint64_t hdr = d->shoff + (uint64_t)d->str_index * d->shentsize;
	long strtab = find_entry(d, DT_STRTAB), strsz = find_entry(d, DT_STRSZ);

	if (edit_int(e, d, hdr + SH_ADDR(d), WORD(d), addr) < 0 ||
	    edit_int(e, d, hdr + SH_OFFSET(d), WORD(d), off) < 0 ||
	    edit_int(e, d, hdr + SH_SIZE(d), WORD(d), size) < 0 ||
	    (strtab >= 0 && off != d->str_off &&
	     edit_entry(e, d, strtab, 0, addr) < 0) ||
	    (strsz >= 0 && edit_entry(e, d, strsz, 0, size) < 0))
		return -1;
	return 0;
}

/* The same, in the segment .dynstr is in. */
static int
move_strtab(struct elf_edits *e, const struct elf_dynamic *d, uint64_t off,
            uint64_t size)
{
	return move_strtab_to(e, d, off, d->str_addr + (off - d->str_off),
	                      size);
}

/* Whether a dynamic entry of a tag that points at a table points at ADDR. */
static bool
pointed_at(const struct elf_dynamic *d, uint64_t addr)
{
	static const uint64_t tags[] = {
		DT_HASH, DT_GNU_HASH, DT_SYMTAB, DT_RELA, DT_REL, DT_JMPREL,
		DT_RELR, DT_VERSYM, DT_VERNEED, DT_VERDEF,
	};
	size_t i, k;

	for (i = 0; i + 1 < d->dyn_used; i++)
		for (k = 0; k < sizeof(tags) / sizeof(*tags); k++)
			if (dyn_tag(d, i) == tags[k] && dyn_val(d, i) == addr)
				return true;
	return false;
}

/*
 * Room for N bytes at the end of .dynstr, made by moving what follows it
 * in its segment into the padding that ends the segment: only tables the
 * dynamic section points at (versions, relocations), whose entries and
 * section headers follow them; never code or data.  0 with the edits in
 * E and *K, the bytes .dynstr grows by; 1 when it cannot be done.
 */
static int
shift_following(const struct elf_reader *r, const struct elf_dynamic *d,
                const struct segment *segs, size_t nsegs,
                const struct segment *seg, size_t n, struct elf_edits *e,
                uint64_t *k)
{
	uint64_t end = d->str_off + d->str_size;
	uint64_t seg_end = seg->offset + seg->filesz, align = 1;
	unsigned char *p;
	unsigned i;
	size_t j;

	for (i = 0; i < d->shnum; i++) {
		uint64_t off = sh(d, i, SH_OFFSET(d), WORD(d));
		uint64_t size = sh(d, i, SH_SIZE(d), WORD(d));
		uint64_t a = sh(d, i, d->is64 ? 0x30 : 0x20, WORD(d));

		if (sh(d, i, SH_TYPE, 4) == SHT_NOBITS || size == 0 ||
		    i == d->str_index || off + size <= end || off >= seg_end)
			continue;
		if (off < end || off + size > seg_end ||
		    sh(d, i, SH_ADDR(d), WORD(d)) - off != seg->vaddr - seg->offset ||
		    !pointed_at(d, sh(d, i, SH_ADDR(d), WORD(d))) ||
		    (a & (a - 1)) != 0)
			return 1;
		if (a > align)
			align = a;
	}
	*k = (n + align - 1) & ~(align - 1);
	if (end == seg_end ||
	    free_bytes(r, d, segs, nsegs, seg, seg_end, *k) != *k)
		return 1;
	/* The tables, K bytes further on; zeros where they began. */
	p = elf_edits_add(e, end + *k, seg_end - end);
	if (p == NULL || r->read(r->ctx, end, p, seg_end - end) < 0)
		return -1;
	p = elf_edits_add(e, end, *k);
	if (p == NULL)
		return -1;
	memset(p, 0, *k);
	for (i = 0; i < d->shnum; i++) {
		uint64_t hdr = d->shoff + (uint64_t)i * d->shentsize;
		uint64_t off = sh(d, i, SH_OFFSET(d), WORD(d));

		if (sh(d, i, SH_TYPE, 4) == SHT_NOBITS ||
		    sh(d, i, SH_SIZE(d), WORD(d)) == 0 || i == d->str_index ||
		    off < end || off >= seg_end)
			continue;
		if (edit_int(e, d, hdr + SH_OFFSET(d), WORD(d), off + *k) < 0 ||
		    edit_int(e, d, hdr + SH_ADDR(d), WORD(d),
		             sh(d, i, SH_ADDR(d), WORD(d)) + *k) < 0)
			return -1;
	}
	for (j = 0; j + 1 < d->dyn_used; j++) {
		uint64_t v = dyn_val(d, j);

		if (v >= seg->vaddr + (end - seg->offset) &&
		    v < seg->vaddr + seg->filesz && pointed_at(d, v) &&
		    edit_entry(e, d, j, 0, v + *k) < 0)
			return -1;
	}
	return grow_segment(e, d, seg, seg_end + *k) < 0 ? -1 : 0;
}

static uint64_t
round_up(uint64_t v, uint64_t align)
{
	return (v + align - 1) & ~(align - 1);
}

/*
 * Whether program header I of TAB (NUM of them) is one the file can do
 * without: a PT_NULL, or a PT_NOTE over the same bytes as a PT_GNU_PROPERTY
 * or an earlier PT_NOTE (the loader and the kernel read properties from
 * PT_GNU_PROPERTY; notes are read from their sections).
 */
static bool
spare_program_header(const struct elf_dynamic *d, const unsigned char *tab,
                     unsigned num, unsigned i)
{
	const unsigned char *p = tab + (size_t)i * PH_SIZE(d);
	uint64_t type = get(d, p, 4);
	unsigned j;

	if (type == PT_NULL)
		return true;
	if (type != PT_NOTE)
		return false;
	for (j = 0; j < num; j++) {
		const unsigned char *q = tab + (size_t)j * PH_SIZE(d);
		uint64_t t = get(d, q, 4);

		if (j != i && (t == PT_GNU_PROPERTY || (t == PT_NOTE && j < i)) &&
		    get(d, q + PH_OFFSET(d), WORD(d)) ==
		            get(d, p + PH_OFFSET(d), WORD(d)) &&
		    get(d, q + PH_FILESZ(d), WORD(d)) ==
		            get(d, p + PH_FILESZ(d), WORD(d)))
			return true;
	}
	return false;
}

/*
 * The bytes from file offset A that the program header table grows into,
 * up to *B at least: the sections there, and the segments holding them,
 * to be moved whole, their offset and address shifted alike (they lie in
 * the first segment, at DELTA from their address).  Only tables that a
 * program header or a dynamic entry points at (.interp, notes, hash
 * tables, symbols, versions, relocations) are moved, never code or data.
 * *B set to the block's end; false when it cannot be moved.
 */
static bool
block_after_table(const struct elf_dynamic *d, const unsigned char *tab,
                  unsigned num, uint64_t a, uint64_t *b, uint64_t delta)
{
	bool grew = true;
	unsigned i;

	while (grew) {
		grew = false;
		for (i = 0; i < d->shnum; i++) {
			uint64_t off = sh(d, i, SH_OFFSET(d), WORD(d));
			uint64_t size = sh(d, i, SH_SIZE(d), WORD(d));

			if (sh(d, i, SH_TYPE, 4) == SHT_NOBITS || size == 0 ||
			    sh(d, i, SH_TYPE, 4) == SHT_NULL ||
			    off >= *b || off + size <= a)
				continue;
			if (off < a || i == d->str_index ||
			    sh(d, i, SH_ADDR(d), WORD(d)) != off + delta)
				return false;
			if (off + size > *b) {
				*b = off + size;
				grew = true;
			}
		}
		for (i = 0; i < num; i++) {
			const unsigned char *p = tab + (size_t)i * PH_SIZE(d);
			uint64_t off = get(d, p + PH_OFFSET(d), WORD(d));
			uint64_t size = get(d, p + PH_FILESZ(d), WORD(d));
			uint64_t type = get(d, p, 4);

			if (type == PT_LOAD || type == PT_PHDR || size == 0 ||
			    off >= *b || off + size <= a)
				continue;
			if (off < a || (type != PT_NOTE && type != PT_INTERP &&
			                type != PT_GNU_PROPERTY))
				return false;
			if (off + size > *b) {
				*b = off + size;
				grew = true;
			}
		}
	}
	/* What moves: notes, .interp, tables the dynamic section uses. */
	for (i = 0; i < d->shnum; i++) {
		uint64_t off = sh(d, i, SH_OFFSET(d), WORD(d));
		uint64_t type = sh(d, i, SH_TYPE, 4);
		unsigned j;
		bool interp = false;

		if (type == SHT_NOBITS || type == SHT_NULL || off < a ||
		    off >= *b || sh(d, i, SH_SIZE(d), WORD(d)) == 0 ||
		    type == SHT_NOTE || pointed_at(d, off + delta))
			continue;
		for (j = 0; j < num; j++)
			if (get(d, tab + (size_t)j * PH_SIZE(d), 4) == PT_INTERP &&
			    get(d, tab + (size_t)j * PH_SIZE(d) + PH_OFFSET(d),
			        WORD(d)) == off)
				interp = true;
		if (!interp)
			return false;
	}
	return true;
}

/*
 * Room for N bytes where the file has none: a new read-only PT_LOAD
 * segment past its end, in file (no padding: its address is congruent to
 * its offset modulo the alignment, which is all the kernel and the loader
 * ask) and in memory, holding a copy of .dynstr
 * with the string added; .dynstr's section header, DT_STRTAB and DT_STRSZ
 * move to it, and the old bytes stay unused where they are (as with the
 * copy into a segment's padding).  Its program header takes the place of
 * one the file can do without; else the table grows by one entry where it
 * is, and what follows it (notes, .interp, hash and symbol tables) moves
 * to the new segment, as patchelf does.  The table stays where it is:
 * strip and objcopy (BFD) write it after the ELF header whatever e_phoff
 * said, and a segment that held it elsewhere comes out of them broken.
 * The new PT_LOAD comes right after the last one: the loader takes the
 * last as the end of the object's memory.  0 with the edits in E, 1 when
 * it cannot be done, -1 when out of memory.
 */
static int
new_segment(const struct elf_reader *r, const struct elf_dynamic *d, size_t n,
            struct elf_edits *e, uint64_t *at, uint64_t *off, uint64_t *copy)
{
	unsigned char eh[ELF_HEADER_LEN], *tab = NULL, *out, *p;
	uint64_t align = 0, end = 0, delta = 0, start, vaddr, a = 0, b = 0;
	uint64_t shift, vshift, str, first_end = 0;
	long first = -1, last = -1, slot = -1;
	struct elf_header h;
	unsigned i, num, k;
	size_t j;
	int rc = 1;

	if (r->read(r->ctx, 0, eh, sizeof(eh)) < 0 ||
	    !elf_header_parse(eh, sizeof(eh), &h) ||
	    !elf_header_programs_usable(&h, r->size) || h.phnum == 0 ||
	    h.phentsize != PH_SIZE(d) || h.phnum + 1 >= PN_XNUM)
		return 1;
	tab = malloc((size_t)h.phnum * h.phentsize);
	if (tab == NULL)
		return -1;
	if (r->read(r->ctx, h.phoff, tab, (size_t)h.phnum * h.phentsize) < 0)
		goto out;
	for (i = 0; i < h.phnum; i++) {
		p = tab + (size_t)i * h.phentsize;
		if (get(d, p, 4) != PT_LOAD) {
			if (slot < 0 && spare_program_header(d, tab, h.phnum, i))
				slot = i;
			continue;
		}
		if (first < 0) {
			first = i;
			delta = get(d, p + PH_VADDR(d), WORD(d)) -
			        get(d, p + PH_OFFSET(d), WORD(d));
			first_end = get(d, p + PH_OFFSET(d), WORD(d)) +
			            get(d, p + PH_FILESZ(d), WORD(d));
			if (h.phoff < get(d, p + PH_OFFSET(d), WORD(d)))
				first_end = 0;
		}
		last = i;
		if (get(d, p + PH_ALIGN(d), WORD(d)) > align)
			align = get(d, p + PH_ALIGN(d), WORD(d));
		if (get(d, p + PH_VADDR(d), WORD(d)) +
		    get(d, p + PH_MEMSZ(d), WORD(d)) > end)
			end = get(d, p + PH_VADDR(d), WORD(d)) +
			      get(d, p + PH_MEMSZ(d), WORD(d));
	}
	/* Segments aligned to pages, the first one's offset and address
	 * alike modulo that. */
	if (last < 0 || align < 4096 || align > (1u << 24) ||
	    (align & (align - 1)) != 0 || (delta & (align - 1)) != 0 ||
	    end > UINT64_MAX / 2)
		goto out;
	num = slot < 0 ? h.phnum + 1 : h.phnum;
	if (slot < 0) {
		/* The table grows into what follows it, in the first
		 * segment. */
		a = h.phoff + (uint64_t)h.phnum * h.phentsize;
		b = a + h.phentsize;
		if (!block_after_table(d, tab, h.phnum, a, &b, delta) ||
		    b > first_end)
			goto out;
	}
	/* Past the end of the file, and of the memory image: no padding in
	 * the file, the address congruent to the offset modulo the
	 * alignment. */
	start = round_up(r->size, 64);
	vaddr = round_up(end, align) + (start & (align - 1));
	/* The block keeps its alignment (64 bytes is more than any of
	 * these tables asks), .dynstr follows it. */
	shift = start + (a & 63) - a;
	vshift = vaddr + (a & 63) - (a + delta);
	str = a + shift + (b - a);
	if (!d->is64 && vaddr + (str - start) + d->str_size + n > UINT32_MAX)
		goto out;
	rc = -1;
	out = elf_edits_add(e, h.phoff, (size_t)num * h.phentsize);
	if (out == NULL)
		goto out;
	for (i = 0, k = 0; i < h.phnum; i++) {
		if ((long)i != slot) {
			uint64_t o;

			p = out + (size_t)k++ * h.phentsize;
			memcpy(p, tab + (size_t)i * h.phentsize, h.phentsize);
			o = get(d, p + PH_OFFSET(d), WORD(d));
			if (get(d, p, 4) == PT_PHDR && slot < 0) {
				put(d, p + PH_FILESZ(d), WORD(d),
				    (uint64_t)num * h.phentsize);
				put(d, p + PH_MEMSZ(d), WORD(d),
				    (uint64_t)num * h.phentsize);
			} else if (get(d, p, 4) != PT_LOAD && o >= a && o < b &&
			           get(d, p + PH_FILESZ(d), WORD(d)) > 0) {
				put(d, p + PH_OFFSET(d), WORD(d), o + shift);
				put(d, p + PH_VADDR(d), WORD(d),
				    get(d, p + PH_VADDR(d), WORD(d)) + vshift);
				put(d, p + PH_PADDR(d), WORD(d),
				    get(d, p + PH_PADDR(d), WORD(d)) + vshift);
			}
		}
		if ((long)i != last)
			continue;
		p = out + (size_t)k++ * h.phentsize;
		memset(p, 0, h.phentsize);
		put(d, p, 4, PT_LOAD);
		put(d, p + PH_FLAGS(d), 4, PF_R);
		put(d, p + PH_OFFSET(d), WORD(d), start);
		put(d, p + PH_VADDR(d), WORD(d), vaddr);
		put(d, p + PH_PADDR(d), WORD(d), vaddr);
		put(d, p + PH_FILESZ(d), WORD(d), str + d->str_size + n - start);
		put(d, p + PH_MEMSZ(d), WORD(d), str + d->str_size + n - start);
		put(d, p + PH_ALIGN(d), WORD(d), align);
	}
	if (slot < 0 && edit_int(e, d, EH_PHNUM(d), 2, num) < 0)
		goto out;
	/* The block, its section headers and dynamic entries following. */
	if (b > a) {
		p = elf_edits_add(e, a + shift, b - a);
		if (p == NULL || r->read(r->ctx, a, p, b - a) < 0)
			goto out;
	}
	for (i = 0; b > a && i < d->shnum; i++) {
		uint64_t hdr = d->shoff + (uint64_t)i * d->shentsize;
		uint64_t o = sh(d, i, SH_OFFSET(d), WORD(d));

		if (sh(d, i, SH_TYPE, 4) == SHT_NOBITS ||
		    sh(d, i, SH_TYPE, 4) == SHT_NULL ||
		    sh(d, i, SH_SIZE(d), WORD(d)) == 0 || o < a || o >= b)
			continue;
		if (edit_int(e, d, hdr + SH_OFFSET(d), WORD(d), o + shift) < 0 ||
		    edit_int(e, d, hdr + SH_ADDR(d), WORD(d),
		             sh(d, i, SH_ADDR(d), WORD(d)) + vshift) < 0)
			goto out;
	}
	for (j = 0; b > a && j + 1 < d->dyn_used; j++) {
		uint64_t v = dyn_val(d, j);

		if (v >= a + delta && v < b + delta && pointed_at(d, v) &&
		    edit_entry(e, d, j, 0, v + vshift) < 0)
			goto out;
	}
	p = elf_edits_add(e, str, d->str_size);
	if (p == NULL || r->read(r->ctx, d->str_off, p, d->str_size) < 0 ||
	    move_strtab_to(e, d, str, vaddr + (str - start),
	                   d->str_size + n) < 0)
		goto out;
	*at = d->str_size;
	*off = str + d->str_size;
	*copy = str;
	rc = 0;
out:
	free(tab);
	return rc;
}

/*
 * Where the string goes: at offset *AT of the string table, *OFF of the
 * file, with the edits that make room for it in E.  0, 1 when there is no
 * room, -1 when out of memory.
 */
static int
place_string(const struct elf_reader *r, const struct elf_dynamic *d,
             const char *runpath, struct elf_edits *e, uint64_t *at,
             uint64_t *off, uint64_t *copy)
{
	size_t n = strlen(runpath) + 1;
	struct segment *segs, *seg = NULL;
	uint64_t end = d->str_off + d->str_size, z, i;
	size_t nsegs;
	unsigned char *p;
	int rc;

	*copy = 0;
	/* The zero bytes ending .dynstr, but the one ending its last
	 * string. */
	z = trailing_zeros(r, d);
	if (z > n) {
		*at = d->str_size - n;
		*off = d->str_off + *at;
		return 0;
	}
	rc = read_segments(r, d, &segs, &nsegs);
	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	for (i = 0; i < nsegs; i++)
		if (segs[i].offset <= d->str_off && end <= segs[i].offset +
		    segs[i].filesz && segs[i].vaddr - segs[i].offset ==
		    d->str_addr - d->str_off)
			seg = &segs[i];
	rc = 1;
	if (seg != NULL && find_entry(d, DT_STRTAB) >= 0 &&
	    dyn_val(d, find_entry(d, DT_STRTAB)) != d->str_addr)
		seg = NULL; /* not where the loader finds it: leave it */
	if (seg == NULL) {
		/* No room. */
	} else if (free_bytes(r, d, segs, nsegs, seg, end, n) == n) {
		/* After .dynstr: it grows, and its segment if it ends there. */
		*at = d->str_size;
		*off = end;
		rc = grow_segment(e, d, seg, end + n) < 0 ||
		     move_strtab(e, d, d->str_off, d->str_size + n) < 0 ? -1 : 0;
	} else if (free_bytes(r, d, segs, nsegs, seg,
	                      seg->offset + seg->filesz, d->str_size + n) ==
	           d->str_size + n) {
		/* A copy with the string added, where the segment ends. */
		uint64_t to = seg->offset + seg->filesz;

		*at = d->str_size;
		*off = to + d->str_size;
		*copy = to;
		rc = -1;
		p = elf_edits_add(e, to, d->str_size);
		if (p != NULL && r->read(r->ctx, d->str_off, p,
		                         d->str_size) == 0 &&
		    grow_segment(e, d, seg, to + d->str_size + n) == 0 &&
		    move_strtab(e, d, to, d->str_size + n) == 0)
			rc = 0;
	}
	if (rc == 1 && seg != NULL) {
		/* Room made after .dynstr by moving the tables after it. */
		uint64_t k;

		rc = shift_following(r, d, segs, nsegs, seg, n, e, &k);
		if (rc == 0) {
			*at = d->str_size;
			*off = end;
			rc = move_strtab(e, d, d->str_off, d->str_size + k) < 0 ?
			     -1 : 0;
		}
	}
	free(segs);
	/* None in the file: a segment added at its end. */
	if (rc == 1 && seg != NULL)
		rc = new_segment(r, d, n, e, at, off, copy);
	return rc;
}

/*
 * The old RUNPATH at OFF, replaced, loses its directories: nothing reads
 * it, and no path must be left for a later scan to find.  The part after
 * its last slash stays, which a symbol's name may share.
 */
static int
blank_old(struct elf_edits *e, const struct elf_dynamic *d, uint64_t off)
{
	const char *slash = strrchr(d->rpath, '/');
	size_t n = slash ? (size_t)(slash - d->rpath) + 1 : 0;
	unsigned char *p;

	if (n == 0)
		return 0;
	p = elf_edits_add(e, off, n);
	if (p == NULL)
		return -1;
	memset(p, 'X', n);
	return 0;
}

int
elf_runpath_edits(const struct elf_reader *r, const struct elf_dynamic *d,
                  const char *runpath, struct elf_edits *e)
{
	size_t n = strlen(runpath), i;
	uint64_t at = 0, off = 0, copy = 0;
	unsigned char *p;
	int rc;

	memset(e, 0, sizeof(*e));
	if (d->rpath_entry >= 0 && n <= d->rp_len) {
		/* Over the old one, its tail kept where linkers share it. */
		p = elf_edits_add(e, d->rp_off, d->rp_len);
		if (p == NULL)
			return -1;
		patch_pad_path(d->rpath, d->rp_len, runpath, (char *)p);
		return 0;
	}
	/* An entry: the one there, else a spare DT_NULL (one stays). */
	if (d->rpath_entry < 0 && (d->dyn_used + 1 > d->dyn_slots ||
	                           dyn_tag(d, d->dyn_used) != DT_NULL))
		return 1;
	rc = place_string(r, d, runpath, e, &at, &off, &copy);
	if (rc == 0 && d->rpath != NULL &&
	    (blank_old(e, d, d->rp_off) < 0 ||
	     (copy != 0 && blank_old(e, d, copy + d->rp_off - d->str_off) < 0)))
		rc = -1;
	if (rc == 0) {
		p = elf_edits_add(e, off, n + 1);
		if (p == NULL)
			rc = -1;
		else
			memcpy(p, runpath, n + 1);
	}
	if (rc == 0 &&
	    edit_entry(e, d, d->rpath_entry >= 0 ? (size_t)d->rpath_entry :
	                                           d->dyn_used - 1,
	               d->rpath_entry >= 0 ? 0 : DT_RUNPATH, at) < 0)
		rc = -1;
	/* Old linkers wrote both an RPATH and a RUNPATH of one string. */
	for (i = d->rpath_entry + 1; rc == 0 && d->rpath_entry >= 0 &&
	     i + 1 < d->dyn_used; i++)
		if ((dyn_tag(d, i) == DT_RPATH || dyn_tag(d, i) == DT_RUNPATH) &&
		    d->str_off + dyn_val(d, i) == d->rp_off &&
		    edit_entry(e, d, i, 0, at) < 0)
			rc = -1;
	if (rc != 0)
		elf_edits_free(e);
	return rc;
}

void
elf_edits_apply(const struct elf_edits *edits, unsigned char *buf,
                size_t len)
{
	size_t i;

	for (i = 0; i < edits->n; i++)
		if (edits->v[i].off <= len &&
		    edits->v[i].len <= len - edits->v[i].off)
			memcpy(buf + edits->v[i].off, edits->v[i].bytes,
			       edits->v[i].len);
}

uint64_t
elf_edits_length(const struct elf_edits *edits, uint64_t len)
{
	size_t i;

	for (i = 0; i < edits->n; i++)
		if (edits->v[i].off + edits->v[i].len > len)
			len = edits->v[i].off + edits->v[i].len;
	return len;
}

void
elf_edits_free(struct elf_edits *edits)
{
	size_t i;

	for (i = 0; i < edits->n; i++)
		free(edits->v[i].bytes);
	free(edits->v);
	edits->v = NULL;
	edits->n = 0;
}
