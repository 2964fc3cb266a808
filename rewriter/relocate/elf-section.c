/*
 * elf-section.c: what a program's ELF sections hold.
 */
#include <elf.h>
#include <stdint.h>
#include <string.h>

#include "relocate/elf-section.h"
#include "relocate/patch.h"

struct elf {
	const unsigned char *buf;
	size_t len;
	bool is64, big_endian;
	uint64_t shoff, shentsize, shnum;
};

static uint64_t
rd(const struct elf *e, uint64_t off, size_t size)
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

/* Whether BUF is ELF with a usable section header table. */
static bool
elf_open(struct elf *e, const unsigned char *buf, size_t len)
{
	if (!patch_is_elf(buf, len))
		return false;
	e->buf = buf;
	e->len = len;
	e->is64 = buf[4] == 2;
	e->big_endian = buf[5] == 2;
	e->shoff = rd(e, e->is64 ? 0x28 : 0x20, e->is64 ? 8 : 4);
	e->shentsize = rd(e, e->is64 ? 0x3a : 0x2e, 2);
	e->shnum = rd(e, (e->is64 ? 0x3a : 0x2e) + 2, 2);
	return e->shoff != 0 && e->shentsize >= (e->is64 ? 64u : 40u) &&
	       e->shoff <= len && e->shnum <= (len - e->shoff) / e->shentsize;
}

/* Section I's file range, if its bytes are in the file. */
static bool
section_range(const struct elf *e, uint64_t i, struct elf_range *r)
{
	uint64_t sh = e->shoff + i * e->shentsize;
	uint64_t off = rd(e, sh + (e->is64 ? 0x18 : 0x10), e->is64 ? 8 : 4);
	uint64_t size = rd(e, sh + (e->is64 ? 0x20 : 0x14), e->is64 ? 8 : 4);

	if (rd(e, sh + 4, 4) == SHT_NOBITS || off > e->len ||
	    size > e->len - off)
		return false;
	r->off = (size_t)off;
	r->size = (size_t)size;
	return true;
}

bool
elf_section_find(const unsigned char *buf, size_t len, const char *name,
                 struct elf_range *range)
{
	struct elf e;
	struct elf_range names;
	uint64_t i, shstrndx;
	size_t namelen = strlen(name) + 1;

	if (!elf_open(&e, buf, len))
		return false;
	shstrndx = rd(&e, (e.is64 ? 0x3a : 0x2e) + 4, 2);
	if (shstrndx >= e.shnum || !section_range(&e, shstrndx, &names))
		return false;
	for (i = 0; i < e.shnum; i++) {
		uint64_t at = rd(&e, e.shoff + i * e.shentsize, 4);

		if (at < names.size && names.size - at >= namelen &&
		    memcmp(buf + names.off + at, name, namelen) == 0)
			return section_range(&e, i, range);
	}
	return false;
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
	for (i = 0; i < e.shnum && n < max; i++) {
		uint64_t sh = e.shoff + i * e.shentsize;
		uint64_t flags = rd(&e, sh + 8, e.is64 ? 8 : 4);

		if (rd(&e, sh + 4, 4) == SHT_PROGBITS &&
		    (flags & SHF_EXECINSTR) && section_range(&e, i, &ranges[n]))
			n++;
	}
	return n;
}

bool
elf_is_program(const unsigned char *buf, size_t len)
{
	struct elf e = { buf, len, false, false, 0, 0, 0 };
	uint64_t type, phoff, phentsize, phnum, i;

	if (!patch_is_elf(buf, len))
		return false;
	e.is64 = buf[4] == 2;
	e.big_endian = buf[5] == 2;
	type = rd(&e, 0x10, 2);
	if (type == ET_EXEC)
		return true;
	if (type != ET_DYN)
		return false;
	phoff = rd(&e, e.is64 ? 0x20 : 0x1c, e.is64 ? 8 : 4);
	phentsize = rd(&e, e.is64 ? 0x36 : 0x2a, 2);
	phnum = rd(&e, (e.is64 ? 0x36 : 0x2a) + 2, 2);
	if (phoff == 0 || phentsize < (e.is64 ? 56u : 32u) || phoff > len ||
	    phnum > (len - phoff) / phentsize)
		return false;
	for (i = 0; i < phnum; i++)
		if (rd(&e, phoff + i * phentsize, 4) == PT_INTERP)
			return true;
	return false;
}
