/*
 * maintscript-generate.c: the maintainer scripts of an extras package,
 * from templates/snippets/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>
#include <dpkg/pkg-spec.h>

#include "apparmor/apparmor-install.h"
#include "base/template.h"
#include "scripts/maintscript-generate.h"

const char *const maintscript_names[MAINTSCRIPT_KINDS] = {
	"preinst", "postinst", "prerm", "postrm", "config",
};

/* The scripts that load and unload a profile: the others stay absent. */
static const enum maintscript_kind profile_scripts[] = {
	MAINTSCRIPT_POSTINST, MAINTSCRIPT_POSTRM,
};

void
maintscripts_free(struct maintscripts *s)
{
	int k;

	for (k = 0; k < MAINTSCRIPT_KINDS; k++)
		free(s->text[k]);
	free(s->depends);
	memset(s, 0, sizeof(*s));
}

/* The script template T around BODY: a new string, or NULL with ERR. */
static char *
wrap(const struct template *t, const char *script, const char *package,
     const char *body, struct dpkg_error *err)
{
	const struct template_subst subst[] = {
		{ "SCRIPT", script }, { "PACKAGE", package }, { "BODY", body },
	};
	unsigned long lineno = t->body_line;
	size_t outlen = 0;
	char *out = NULL;
	const char *p;
	FILE *fp = open_memstream(&out, &outlen);

	if (fp == NULL) {
		dpkg_put_error(err, "%s: out of memory", t->path);
		return NULL;
	}
	for (p = t->body; *p; lineno++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = template_expand_line(t, lineno, p, len, subst,
		                                  sizeof(subst) / sizeof(*subst),
		                                  err);

		if (line == NULL) {
			fclose(fp);
			free(out);
			return NULL;
		}
		fprintf(fp, "%s\n", line);
		free(line);
		p += len + (nl != NULL);
	}
	if (fclose(fp) != 0) {
		free(out);
		dpkg_put_error(err, "%s: out of memory", t->path);
		return NULL;
	}
	return out;
}

int
maintscripts_generate(struct maintscripts *s, const char *templates,
                      const char *package, const char *profile,
                      struct dpkg_error *err)
{
	struct template t;
	const char *why;
	char path[4096];
	size_t i;
	int rc;

	memset(s, 0, sizeof(*s));
	/* Written into a comment of each script: a valid name only. */
	if ((why = pkg_name_is_illegal(package)) != NULL) {
		dpkg_put_error(err, "package name '%s': %s", package, why);
		return -1;
	}
	if (profile == NULL)
		return 0;
	snprintf(path, sizeof(path), "%s/snippets/script", templates);
	rc = template_load(&t, path, err);
	if (rc == 1)
		dpkg_put_error(err, "%s: no such template", path);
	if (rc != 0)
		return -1;
	for (i = 0; i < sizeof(profile_scripts) / sizeof(*profile_scripts);
	     i++) {
		enum maintscript_kind k = profile_scripts[i];
		struct apparmor_snippet snippet;

		if (apparmor_snippet_load(&snippet, templates,
		                          maintscript_names[k], profile,
		                          err) < 0)
			goto fail;
		s->text[k] = wrap(&t, maintscript_names[k], package,
		                  snippet.text, err);
		if (s->depends == NULL && snippet.depends != NULL)
			s->depends = m_strdup(snippet.depends);
		apparmor_snippet_free(&snippet);
		if (s->text[k] == NULL)
			goto fail;
	}
	template_free(&t);
	return 0;
fail:
	template_free(&t);
	maintscripts_free(s);
	return -1;
}
