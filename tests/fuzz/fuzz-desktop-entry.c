/* Exported .desktop and D-Bus service files, as the gate reads them. */
#include "fuzz.h"
#include "review/desktop-entry.h"

static void
each(const char *item, void *ctx)
{
	(*(size_t *)ctx) += strlen(item);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct desktop_reader rd;
	struct desktop_line l;
	size_t total = 0;

	desktop_reader_init(&rd, (const char *)data, size);
	while (desktop_reader_next(&rd, &l)) {
		struct exec_words w;
		const char *why;

		if (l.kind != DESKTOP_LINE_KEY)
			continue;
		(void)desktop_line_is_key(&l, "Exec");
		(void)desktop_line_in_group(&l, "Desktop Entry");
		exec_split(EXEC_DESKTOP, l.value, l.value_len, &w, &why);
		exec_words_free(&w);
		exec_split(EXEC_DBUS, l.value, l.value_len, &w, &why);
		exec_words_free(&w);
		desktop_string_list(l.value, l.value_len, each, &total);
	}
	return 0;
}
