/*
 * elf-dynamic.h: an ELF file's dynamic section, and its RUNPATH written
 * in place.
 *
 * The file is read through a reader, a few hundred bytes of headers and
 * strings, never whole: the same code serves a file in memory and one
 * open on a descriptor.  A new RUNPATH becomes a handful of edits of the
 * file's bytes, its length unchanged but in the last case:
 *   - the entry: the DT_RUNPATH or DT_RPATH entry already there, else a
 *     spare DT_NULL at the end of the dynamic section (linkers leave
 *     some);
 *   - the string: over the old one when it is not shorter, else in the
 *     zero bytes that end .dynstr, else in the padding after .dynstr
 *     (.dynstr grows into it, and its segment when it ends there), else
 *     .dynstr is copied with the string added into the padding that ends
 *     its segment, else .dynstr grows where it is and the tables after it
 *     in its segment (symbol versions, relocations: only tables a dynamic
 *     entry points at, never code or data) move into that padding, their
 *     entries and section headers following them, else .dynstr is copied
 *     with the string added into a new read-only segment past the end
 *     of the file (which grows: elf_edits_length()), its program header
 *     in the place of a redundant one or in the program header table
 *     moved to the start of that segment.
 * The string always lies inside .dynstr as its section header and
 * DT_STRSZ say, so that objdump, dpkg-shlibdeps and strip see it.
 * Where none of these fit (no spare DT_NULL for a new entry, program
 * headers not usable) there is no room: the caller hands the file to
 * patchelf.
 */
#ifndef DH_EXTRAS_ELF_DYNAMIC_H
#define DH_EXTRAS_ELF_DYNAMIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Reads N bytes at OFF into DST: 0, or -1 when they are not all there. */
struct elf_reader {
	int (*read)(void *ctx, uint64_t off, void *dst, size_t n);
	void *ctx;
	uint64_t size;
};

/* Readers over LEN bytes in memory, and over the open file FD. */
struct elf_buffer {
	const unsigned char *buf;
	size_t len;
};
struct elf_reader elf_reader_buffer(struct elf_buffer *b);
struct elf_reader elf_reader_fd(int *fd, uint64_t size);

struct elf_dynamic {
	bool is64, big_endian;
	/* The section headers, read whole. */
	unsigned char *shdrs;
	uint64_t shoff;
	unsigned shnum, shentsize;
	/* The dynamic section: its bytes, its entries up to the first
	 * DT_NULL (that one counted), and how many it has room for. */
	unsigned char *dyn;
	uint64_t dyn_off;
	size_t dyn_used, dyn_slots;
	/* .dynstr: its section's index, file offset, address and size. */
	unsigned str_index;
	uint64_t str_off, str_addr, str_size;
	/* The RUNPATH (or RPATH) entry's index (-1: none), its string's
	 * file offset and length. */
	long rpath_entry;
	uint64_t rp_off;
	size_t rp_len;
	char *rpath;
	/* The DT_NEEDED names. */
	char **needed;
	size_t nneeded;
};

/*
 * Read R's dynamic section into D: 1 when there is one, 0 when the file
 * has none or its headers are not usable, -1 when out of memory.
 */
int elf_dynamic_read(const struct elf_reader *r, struct elf_dynamic *d);
void elf_dynamic_free(struct elf_dynamic *d);

/* LEN bytes to write at OFF. */
struct elf_edit {
	uint64_t off;
	size_t len;
	unsigned char *bytes;
};

struct elf_edits {
	struct elf_edit *v;
	size_t n;
};

/*
 * The edits that make RUNPATH the runpath of R (read into D): 0 with
 * EDITS filled, 1 when there is no room for it, -1 when out of memory.
 */
int elf_runpath_edits(const struct elf_reader *r, const struct elf_dynamic *d,
                      const char *runpath, struct elf_edits *edits);
/*
 * The length of a file of LEN bytes once EDITS are applied: more when
 * they add a segment past its end (the bytes between are zeros).
 */
uint64_t elf_edits_length(const struct elf_edits *edits, uint64_t len);
/* Apply EDITS to BUF, LEN bytes long (elf_edits_length()'s). */
void elf_edits_apply(const struct elf_edits *edits, unsigned char *buf,
                     size_t len);
/* A new edit of LEN bytes at OFF, last in EDITS: its bytes, for the caller
 * to fill; NULL when out of memory. */
unsigned char *elf_edits_add(struct elf_edits *edits, uint64_t off,
                             size_t len);
void elf_edits_free(struct elf_edits *edits);

#endif
