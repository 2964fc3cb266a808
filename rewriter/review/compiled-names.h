/*
 * compiled-names.h: names a program carries in its read-only data.
 *
 * A toolkit call with a literal, gtk_image_new_from_icon_name(
 * "org.example.App") or QIcon::fromTheme(QStringLiteral("org.example.App")),
 * leaves the name in the program's .rodata in one of three forms: a whole
 * NUL-terminated string; the tail of a longer one, where the linker merged
 * "org.example.App" into "/usr/share/pixmaps/org.example.App" (SHF_MERGE
 * string sections share tails); or a NUL-terminated UTF-16 string, as
 * Qt's QStringLiteral stores it.  Every form is found, in one pass over the
 * data whatever the number of names.
 */
#ifndef DH_EXTRAS_COMPILED_NAMES_H
#define DH_EXTRAS_COMPILED_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* The longest name looked for, in bytes; longer ones are never found. */
#define COMPILED_NAMES_MAX 255

struct compiled_name {
	char *reversed;
	const char *name;
};

struct compiled_names {
	struct compiled_name *v;
	size_t n;
};

/* Look for each of NAMES[0..N) (kept by the caller, not copied). */
void compiled_names_init(struct compiled_names *cn, char *const *names,
                         size_t n);
void compiled_names_free(struct compiled_names *cn);

/*
 * Call FOUND(CTX, NAME, OFFSET) for each place DATA[0..LEN) holds one of
 * the names: a whole string, a tail that starts after a character other
 * than a letter or digit ("App" is not found in "MyApp"), or a UTF-16LE
 * string; OFFSET is where the name starts in DATA.
 */
void compiled_names_scan(const struct compiled_names *cn,
                         const unsigned char *data, size_t len,
                         void (*found)(void *ctx, const char *name,
                                       size_t offset),
                         void *ctx);

#endif
