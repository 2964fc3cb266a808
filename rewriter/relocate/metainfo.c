/*
 * metainfo.c: an exported AppStream metainfo file named as its export.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relocate/metainfo.h"
#include "namespace/namespace.h"

int
metainfo_init(struct metainfo *mi, const char *basename)
{
	static const char *const suffixes[] = {
		".metainfo.xml", ".appdata.xml", ".xml", NULL,
	};
	size_t len = strlen(basename), i;

	mi->n_changes = 0;
	for (i = 0; suffixes[i]; i++) {
		size_t n = strlen(suffixes[i]);

		if (len > n && len - n < sizeof(mi->id) &&
		    strcmp(basename + len - n, suffixes[i]) == 0) {
			memcpy(mi->id, basename, len - n);
			mi->id[len - n] = '\0';
			return 0;
		}
	}
	return -1;
}

struct out {
	char *data;
	size_t len;
};

static void
put(struct out *o, const char *p, size_t n)
{
	memcpy(o->data + o->len, p, n);
	o->len += n;
}

/*
 * Whether ID (N bytes) is the component's own OWN (N_OWN bytes) under
 * another spelling AppStream knows: with or without the ".desktop" that
 * ids of the desktop-file era carried.
 */
static bool
own_former_id(const char *id, size_t n, const char *own, size_t n_own)
{
	static const char desktop[] = ".desktop";
	size_t d = sizeof(desktop) - 1;

	if (n == n_own)
		return memcmp(id, own, n) == 0;
	if (n == n_own + d)
		return memcmp(id, own, n_own) == 0 &&
		       memcmp(id + n_own, desktop, d) == 0;
	if (n_own == n + d)
		return memcmp(own, id, n) == 0 &&
		       memcmp(own + n, desktop, d) == 0;
	return false;
}

/* The end of the start tag <NAME ...> at P, or NULL if P opens none. */
static const char *
start_tag(const char *p, const char *end, const char *name)
{
	size_t n = strlen(name);

	if ((size_t)(end - p) < n + 2 || p[0] != '<' ||
	    memcmp(p + 1, name, n) != 0 ||
	    (p[n + 1] != '>' && p[n + 1] != ' ' && p[n + 1] != '\t' &&
	     p[n + 1] != '\n'))
		return NULL;
	return memchr(p, '>', (size_t)(end - p));
}

char *
metainfo_patch(const char *buf, size_t len, size_t *outlen, void *arg)
{
	struct metainfo *mi = arg;
	const char *p = buf, *end = buf + len;
	size_t prefix = strlen(EXTRAS_PREFIX);
	bool id_done = false, claim = false;
	const char *own = NULL;
	size_t n_own = 0;
	struct out o;

	const char *q;
	size_t n_prefixed = 0;

	/* Growth: one <id>, and one prefix a launchable or a former id. */
	for (q = buf; (q = memmem(q, (size_t)(end - q), "<launchable", 11));
	     q++)
		n_prefixed++;
	for (q = buf; (q = memmem(q, (size_t)(end - q), "<id", 3)); q++)
		n_prefixed++;
	o.data = malloc(len + sizeof(mi->id) + n_prefixed * prefix + 1);
	o.len = 0;
	if (o.data == NULL)
		return NULL;
	mi->n_changes = 0;
	while (p < end) {
		const char *lt = memchr(p, '<', (size_t)(end - p));
		const char *gt, *close;

		if (lt == NULL)
			break;
		put(&o, p, (size_t)(lt - p));
		p = lt;
		gt = NULL;
		if (!id_done && (gt = start_tag(p, end, "id")) != NULL &&
		    gt[-1] != '/' &&
		    (close = memmem(gt, (size_t)(end - gt), "</id>", 5)) != NULL) {
			id_done = true;
			own = gt + 1;
			n_own = (size_t)(close - own);
			/* Patched before: its former ids already are too. */
			if (n_own >= prefix && memcmp(own, EXTRAS_PREFIX,
			                              prefix) == 0)
				own = NULL;
			put(&o, p, (size_t)(gt + 1 - p));
			if ((size_t)(close - gt - 1) != strlen(mi->id) ||
			    memcmp(gt + 1, mi->id, strlen(mi->id)) != 0)
				mi->n_changes++;
			put(&o, mi->id, strlen(mi->id));
			p = close;
			continue;
		}
		/*
		 * <provides> and <replaces> name ids the component answers
		 * to: its own former ids go with it into the extras- names;
		 * another component's stay, for the review to judge.
		 */
		if (start_tag(p, end, "provides") != NULL ||
		    start_tag(p, end, "replaces") != NULL)
			claim = true;
		else if ((size_t)(end - p) >= 11 &&
		         (memcmp(p, "</provides>", 11) == 0 ||
		          memcmp(p, "</replaces>", 11) == 0))
			claim = false;
		else if (claim && own != NULL &&
		         (gt = start_tag(p, end, "id")) != NULL &&
		         gt[-1] != '/' &&
		         (close = memmem(gt, (size_t)(end - gt), "</id>",
		                         5)) != NULL &&
		         own_former_id(gt + 1, (size_t)(close - gt - 1), own,
		                       n_own)) {
			put(&o, p, (size_t)(gt + 1 - p));
			put(&o, EXTRAS_PREFIX, prefix);
			mi->n_changes++;
			p = gt + 1;
			continue;
		}
		if ((gt = start_tag(p, end, "launchable")) != NULL &&
		    memmem(p, (size_t)(gt - p), "desktop-id", 10) != NULL) {
			const char *v = gt + 1;

			while (v < end && (*v == ' ' || *v == '\n'))
				v++;
			put(&o, p, (size_t)(v - p));
			if ((size_t)(end - v) < prefix ||
			    memcmp(v, EXTRAS_PREFIX, prefix) != 0) {
				put(&o, EXTRAS_PREFIX, prefix);
				mi->n_changes++;
			}
			p = v;
			continue;
		}
		put(&o, p, 1);
		p++;
	}
	put(&o, p, (size_t)(end - p));
	if (mi->n_changes == 0) {
		free(o.data);
		return NULL;
	}
	*outlen = o.len;
	return o.data;
}
