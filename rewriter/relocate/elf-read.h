/*
 * elf-read.h: reading ELF files, the one place that knows their headers.
 *
 * The ELF header is parsed here for every reader: relocation's patchers,
 * the RUNPATH writer (elf-dynamic.c, which reads through a descriptor),
 * the gate's checks of what a program's sections hold (the names it looks
 * up in .rodata, the paths it builds from instruction immediates, the
 * functions it imports).  A file whose headers are not usable has no
 * sections, no programs and no imports here.
 */
#ifndef DH_EXTRAS_ELF_READ_H
#define DH_EXTRAS_ELF_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* e_ident and the fields up to the section header table. */
#define ELF_HEADER_LEN 64

/*
 * Whether BUF starts with an ELF header of a known class and byte order,
 * ELF_HEADER_LEN bytes at least.
 */
bool elf_is_elf(const unsigned char *buf, size_t len);

/* An integer of SIZE bytes at P, in the given byte order. */
uint64_t elf_get(bool big_endian, const unsigned char *p, size_t size);

/* The fields of an ELF header that say where its tables are. */
struct elf_header {
	bool is64, big_endian;
	unsigned type;
	uint64_t phoff, shoff;
	unsigned phentsize, phnum, shentsize, shnum, shstrndx;
};

/* H read from the ELF_HEADER_LEN bytes at EH; false if they are not ELF. */
bool elf_header_parse(const unsigned char *eh, size_t len,
                      struct elf_header *h);
/* Whether H's section header table lies whole in a file of SIZE bytes. */
bool elf_header_sections_usable(const struct elf_header *h, uint64_t size);
/* Whether H's program header table lies whole in a file of SIZE bytes. */
bool elf_header_programs_usable(const struct elf_header *h, uint64_t size);

struct elf_range {
	size_t off, size;	/* in the file */
};

/* The file range of the section NAME of ELF file BUF; false if none. */
bool elf_section_find(const unsigned char *buf, size_t len, const char *name,
                      struct elf_range *range);

/* Whether BUF has a section named NAME, its bytes in the file or not. */
bool elf_has_section(const unsigned char *buf, size_t len, const char *name);

/*
 * The file ranges of BUF's sections of code (SHF_EXECINSTR, with bytes in
 * the file), at most MAX of them into RANGES; their number.
 */
size_t elf_code_sections(const unsigned char *buf, size_t len,
                         struct elf_range *ranges, size_t max);

/*
 * Whether BUF is a program the kernel runs: ET_EXEC, or ET_DYN with an
 * interpreter (a position-independent executable, not a library).
 */
bool elf_is_program(const unsigned char *buf, size_t len);

/* Whether the ELF file BUF calls the function NAME of another object: an
 * undefined symbol of its dynamic symbol table. */
bool elf_imports(const unsigned char *buf, size_t len, const char *name);

#endif
