/* Names looked for in a program's read-only data, as the gate's icon
 * check does: the input is the names, one a line, a blank line, then the
 * data. */
#include "fuzz.h"
#include "review/compiled-names.h"

static void
found(void *ctx, const char *name, size_t offset)
{
	size_t *size = ctx;

	if (offset + strlen(name) > *size)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *names[64], *line, *end;
	const uint8_t *body = data;
	size_t n = 0, len = size;
	struct compiled_names cn;

	end = strstr(text, "\n\n");
	if (end != NULL) {
		*end = '\0';
		body = data + (end - text) + 2;
		len = size - (size_t)(end - text) - 2;
		for (line = strtok(text, "\n"); line != NULL && n < 64;
		     line = strtok(NULL, "\n"))
			names[n++] = line;
	}
	compiled_names_init(&cn, names, n);
	compiled_names_scan(&cn, body, len, found, &len);
	compiled_names_free(&cn);
	free(text);
	return 0;
}
