/*
 * elf-section.h: what a program's ELF sections hold, for the checks that
 * look past the strings relocation patches: the names a program looks up
 * (.rodata) and the paths it builds from instruction immediates (code).
 *
 * Read through the section headers only; a file whose headers are not
 * usable has no sections here.
 */
#ifndef DH_EXTRAS_ELF_SECTION_H
#define DH_EXTRAS_ELF_SECTION_H

#include <stdbool.h>
#include <stddef.h>

struct elf_range {
	size_t off, size;	/* in the file */
};

/* The file range of the section NAME of ELF file BUF; false if none. */
bool elf_section_find(const unsigned char *buf, size_t len, const char *name,
                      struct elf_range *range);

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

#endif
