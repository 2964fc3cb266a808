/*
 * dh-packages.c: the binary packages of debian/control, as debhelper
 * sees them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>

#include "debian/arch-match.h"
#include "debian/deb822.h"
#include "dh/dh-packages.h"

/* Whether PROFILE is among the words of $DEB_BUILD_PROFILES. */
static bool
profile_active(const char *profile, size_t len)
{
	const char *active = getenv("DEB_BUILD_PROFILES");
	const char *p = active ? active : "";

	while (*p) {
		size_t n;

		p += strspn(p, " ");
		n = strcspn(p, " ");
		if (n == len && strncmp(p, profile, len) == 0)
			return true;
		p += n;
	}
	return false;
}

bool
dh_build_profiles_match(const char *formula)
{
	const char *p = formula;
	bool any_term = false;

	/* A disjunction of <terms>, each a conjunction of [!]profile. */
	while ((p = strchr(p, '<')) != NULL) {
		const char *end = strchr(p, '>');
		bool all = true;

		if (end == NULL)
			break;
		any_term = true;
		for (p++; p < end;) {
			bool negated;
			size_t n;

			p += strspn(p, " \t\n");
			if (p >= end)
				break;
			negated = *p == '!';
			if (negated)
				p++;
			n = strcspn(p, " \t\n>");
			if (profile_active(p, n) == negated)
				all = false;
			p += n;
		}
		if (all)
			return true;
		p = end + 1;
	}
	return !any_term;
}

int
dh_control_read(struct dh_control *c, const char *path, struct dpkg_error *err)
{
	struct deb822 d;
	FILE *fp;
	char *text = NULL;
	size_t len = 0, alloc = 0;
	const char *host = arch_host();
	int i, rc = -1;

	memset(c, 0, sizeof(*c));
	fp = fopen(path, "r");
	if (fp == NULL) {
		dpkg_put_error(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t n;

		if (len + 4096 > alloc) {
			void *v;

			alloc = alloc ? alloc * 2 : 8192;
			if (alloc > (1u << 22)) {
				dpkg_put_error(err, "%s: larger than 4 MiB",
				               path);
				goto out;
			}
			v = realloc(text, alloc);
			if (v == NULL)
				goto oom;
			text = v;
		}
		n = fread(text + len, 1, alloc - len - 1, fp);
		len += n;
		if (n == 0)
			break;
	}
	text[len] = '\0';
	if (deb822_parse(&d, path, text, len, err) < 0)
		goto out;
	for (i = 0; i < d.nstanzas; i++) {
		const struct deb822_stanza *s = &d.stanzas[i];
		const struct deb822_field *f;

		if (i == 0) {
			f = deb822_find(s, "Source");
			if (f == NULL) {
				dpkg_put_error(err, "%s:%d: the first stanza "
				               "has no Source field", path,
				               s->line);
				goto out_d;
			}
			c->source = strdup(f->value);
			continue;
		}
		f = deb822_find(s, "Package");
		if (f == NULL || pkg_name_is_illegal(f->value) != NULL) {
			dpkg_put_error(err, "%s:%d: %s", path, s->line, f ?
			               "illegal package name" :
			               "stanza without Package");
			goto out_d;
		}
		{
			struct dh_package *pkgs = realloc(c->packages,
			        (c->count + 1) * sizeof(*pkgs));
			struct dh_package *p;
			const struct deb822_field *arch = deb822_find(s,
			                                              "Architecture");
			const struct deb822_field *prof = deb822_find(s,
			                                              "Build-Profiles");

			if (pkgs == NULL)
				goto oom_d;
			c->packages = pkgs;
			p = &pkgs[c->count++];
			memset(p, 0, sizeof(*p));
			p->name = strdup(f->value);
			p->architecture = m_strdup(arch ? arch->value : "any");
			p->arch_all = arch && strcmp(arch->value, "all") == 0;
			p->builds = (p->arch_all ||
			             arch_list_matches(host, p->architecture)) &&
			            (prof == NULL ||
			             dh_build_profiles_match(prof->value));
		}
	}
	if (c->source == NULL) {
		dpkg_put_error(err, "%s: no stanzas", path);
		goto out_d;
	}
	rc = 0;
	goto out_d;
oom_d:
	dpkg_put_error(err, "%s: out of memory", path);
out_d:
	deb822_free(&d);
	goto out;
oom:
	dpkg_put_error(err, "%s: out of memory", path);
out:
	fclose(fp);
	free(text);
	if (rc < 0)
		dh_control_free(c);
	return rc;
}

void
dh_control_free(struct dh_control *c)
{
	size_t i;

	for (i = 0; i < c->count; i++) {
		free(c->packages[i].name);
		free(c->packages[i].architecture);
	}
	free(c->packages);
	free(c->source);
	memset(c, 0, sizeof(*c));
}
