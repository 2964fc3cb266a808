/* deb822 stanzas (debian/control, .dsc) located in their text. */
#include "fuzz.h"
#include "debian/deb822.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct deb822 d;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text = fuzz_string(data, size);
	int i, j;

	memset(&d, 0, sizeof(d));
	if (deb822_parse(&d, "debian/control", text, size, &err) == 0) {
		for (i = 0; i < d.nstanzas; i++) {
			const struct deb822_stanza *s = &d.stanzas[i];

			(void)deb822_duplicate_field(s);
			(void)deb822_find(s, "package");
			for (j = 0; j < s->nfields; j++) {
				const struct deb822_field *f = &s->fields[j];

				if (f->start > f->value_start ||
				    f->value_start > f->end || f->end > size)
					abort();
				(void)deb822_line_of(&d, f->start);
			}
		}
		deb822_free(&d);
	}
	free(text);
	dpkg_error_destroy(&err);
	return 0;
}
