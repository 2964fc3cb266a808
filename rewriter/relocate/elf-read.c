/*
 * elf-read.c: reading ELF files (see elf-read.h).
 */
#include <elf.h>
#include <string.h>

#include "relocate/elf-read.h"

bool
elf_is_elf(const unsigned char *buf, size_t len)
{
	return len >= ELF_HEADER_LEN &&
	       memcmp(buf, "\x7f" "ELF", 4) == 0 &&
	       (buf[EI_CLASS] == ELFCLASS32 || buf[EI_CLASS] == ELFCLASS64) &&
	       (buf[EI_DATA] == ELFDATA2LSB || buf[EI_DATA] == ELFDATA2MSB);
}

uint64_t
elf_get(bool big_endian, const unsigned char *p, size_t size)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < size; i++)
		v = v << 8 | p[big_endian ? i : size - 1 - i];
	return v;
}

bool
elf_header_parse(const unsigned char *eh, size_t len, struct elf_header *h)
{
	bool be;
	unsigned ph, sh;

	if (!elf_is_elf(eh, len))
		return false;
	h->is64 = eh[EI_CLASS] == ELFCLASS64;
	h->big_endian = be = eh[EI_DATA] == ELFDATA2MSB;
	/* e_phentsize and e_shentsize, each followed by its count. */
	ph = h->is64 ? 0x36 : 0x2a;
	sh = h->is64 ? 0x3a : 0x2e;
	h->type = elf_get(be, eh + 0x10, 2);
	h->phoff = elf_get(be, eh + (h->is64 ? 0x20 : 0x1c), h->is64 ? 8 : 4);
	h->shoff = elf_get(be, eh + (h->is64 ? 0x28 : 0x20), h->is64 ? 8 : 4);
	h->phentsize = elf_get(be, eh + ph, 2);
	h->phnum = elf_get(be, eh + ph + 2, 2);
	h->shentsize = elf_get(be, eh + sh, 2);
	h->shnum = elf_get(be, eh + sh + 2, 2);
	h->shstrndx = elf_get(be, eh + sh + 4, 2);
	return true;
}

bool
elf_header_sections_usable(const struct elf_header *h, uint64_t size)
{
	return h->shoff != 0 && h->shnum != 0 &&
	       h->shentsize >= (h->is64 ? 64u : 40u) && h->shoff <= size &&
	       h->shnum <= (size - h->shoff) / h->shentsize;
}

bool
elf_header_programs_usable(const struct elf_header *h, uint64_t size)
{
	return h->phentsize >= (h->is64 ? 56u : 32u) && h->phoff <= size &&
	       h->phnum <= (size - h->phoff) / h->phentsize;
}

/* A file in memory and its header. */
struct elf {
	const unsigned char *buf;
	size_t len;
	struct elf_header h;
};

/* An integer of SIZE bytes at OFF, 0 when they are not all in the file. */
static uint64_t
rd(const struct elf *e, uint64_t off, size_t size)
{
	if (off > e->len || size > e->len - off)
		return 0;
	return elf_get(e->h.big_endian, e->buf + off, size);
}

/* A word of the file's class. */
static uint64_t
rd_word(const struct elf *e, uint64_t off)
{
	return rd(e, off, e->h.is64 ? 8 : 4);
}

/* Whether BUF is ELF with a usable section header table. */
static bool
elf_open(struct elf *e, const unsigned char *buf, size_t len)
{
	e->buf = buf;
	e->len = len;
	return elf_header_parse(buf, len, &e->h) &&
	       elf_header_sections_usable(&e->h, len);
}

/* Where section I's header is. */
static uint64_t
shdr(const struct elf *e, uint64_t i)
{
	return e->h.shoff + i * e->h.shentsize;
}

/* Section I's file range, if its bytes are in the file. */
static bool
section_range(const struct elf *e, uint64_t i, struct elf_range *r)
{
	uint64_t sh = shdr(e, i);
	uint64_t off = rd_word(e, sh + (e->h.is64 ? 0x18 : 0x10));
	uint64_t size = rd_word(e, sh + (e->h.is64 ? 0x20 : 0x14));

	if (rd(e, sh + 4, 4) == SHT_NOBITS || off > e->len ||
	    size > e->len - off)
		return false;
	r->off = (size_t)off;
	r->size = (size_t)size;
	return true;
}

/* The index of the section named NAME, or -1. */
static long
section_named(const struct elf *e, const char *name)
{
	struct elf_range names;
	size_t namelen = strlen(name) + 1;
	uint64_t i;

	if (e->h.shstrndx >= e->h.shnum ||
	    !section_range(e, e->h.shstrndx, &names))
		return -1;
	for (i = 0; i < e->h.shnum; i++) {
		uint64_t at = rd(e, shdr(e, i), 4);

		if (at < names.size && names.size - at >= namelen &&
		    memcmp(e->buf + names.off + at, name, namelen) == 0)
			return (long)i;
	}
	return -1;
}

bool
elf_section_find(const unsigned char *buf, size_t len, const char *name,
                 struct elf_range *range)
{
	struct elf e;
	long i;

	if (!elf_open(&e, buf, len))
		return false;
	i = section_named(&e, name);
	return i >= 0 && section_range(&e, (uint64_t)i, range);
}

bool
elf_has_section(const unsigned char *buf, size_t len, const char *name)
{
	struct elf e;

	return elf_open(&e, buf, len) && section_named(&e, name) >= 0;
}

size_t
elf_code_sections(const unsigned char *buf, size_t len,
                  struct elf_range *ranges, size_t max)
{
	struct elf e;
	uint64_t i;
	size_t n = 0;

	if (!elf_open(&e, buf, len))
		return 0;
	for (i = 0; i < e.h.shnum && n < max; i++) {
		uint64_t flags = rd_word(&e, shdr(&e, i) + 8);

		if (rd(&e, shdr(&e, i) + 4, 4) == SHT_PROGBITS &&
		    (flags & SHF_EXECINSTR) && section_range(&e, i, &ranges[n]))
			n++;
	}
	return n;
}

bool
elf_is_program(const unsigned char *buf, size_t len)
{
	struct elf e = { buf, len, { 0 } };
	uint64_t i;

	if (!elf_header_parse(buf, len, &e.h))
		return false;
	if (e.h.type == ET_EXEC)
		return true;
	if (e.h.type != ET_DYN || e.h.phoff == 0 ||
	    !elf_header_programs_usable(&e.h, len))
		return false;
	for (i = 0; i < e.h.phnum; i++)
		if (rd(&e, e.h.phoff + i * e.h.phentsize, 4) == PT_INTERP)
			return true;
	return false;
}

bool
elf_imports(const unsigned char *buf, size_t len, const char *name)
{
	struct elf e;
	uint64_t i, entsize;
	size_t namelen = strlen(name);

	if (!elf_open(&e, buf, len))
		return false;
	entsize = e.h.is64 ? 24 : 16;
	for (i = 0; i < e.h.shnum; i++) {
		uint64_t sh = shdr(&e, i), j, link;
		struct elf_range syms, strs;

		if (rd(&e, sh + 4, 4) != SHT_DYNSYM)
			continue;
		link = rd(&e, sh + (e.h.is64 ? 0x28 : 0x18), 4);
		if (link >= e.h.shnum || !section_range(&e, i, &syms) ||
		    !section_range(&e, link, &strs))
			return false;
		for (j = 0; j + entsize <= syms.size; j += entsize) {
			uint64_t at = syms.off + j;
			uint64_t sym = rd(&e, at, 4);
			uint64_t shndx = rd(&e, at + (e.h.is64 ? 6 : 14), 2);

			if (shndx == SHN_UNDEF && sym < strs.size &&
			    namelen < strs.size - sym &&
			    memcmp(buf + strs.off + sym, name, namelen + 1) == 0)
				return true;
		}
	}
	return false;
}
