/*
 * debfile-control.c: a binary package's control data, whatever it was read
 * from (a .deb by debfile.c, a build tree by review-tree.c): the stanza
 * checked, fields looked up, the whole released.  No libarchive here, so
 * that what reads only trees does not load it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>
#include <dpkg/arch.h>

#include "debian/debfile.h"


void
debfile_member_free(struct debfile_member *m)
{
	free(m->path);
	free(m->target);
	free(m->owner);
	free(m->group);
	free(m->data);
}

void
debfile_print_members(const struct debfile *deb, FILE *fp)
{
	/* One letter a type, in enum debfile_type's order. */
	static const char letters[] = "fdlhs";
	size_t i;

	for (i = 0; i < deb->nmembers; i++) {
		const struct debfile_member *m = &deb->members[i];

		fprintf(fp, "%c %04o %s:%s %lld %s%s%s\n", letters[m->type],
		        (unsigned)m->mode, m->owner, m->group,
		        m->type == DEBFILE_REGULAR ? (long long)m->size : 0,
		        m->path, m->target ? " -> " : "",
		        m->target ? m->target : "");
	}
}

static int
parse_source(struct debfile *deb, const char *value, struct dpkg_error *err)
{
	const char *paren = strchr(value, '(');
	size_t len = paren ? (size_t)(paren - value) : strlen(value);
	struct dpkg_version v;
	struct dpkg_error verr = DPKG_ERROR_INIT;
	const char *reason;

	while (len > 0 && (value[len - 1] == ' ' || value[len - 1] == '\t'))
		len--;
	deb->source = strndup(value, len);
	if (deb->source == NULL)
		abort();
	if ((reason = pkg_name_is_illegal(deb->source)) != NULL)
		return dpkg_put_error(err, "%s: control: Source '%s': %s",
		                      deb->filename, deb->source, reason);
	if (paren == NULL) {
		deb->source_version = m_strdup(deb->version);
		return 0;
	}
	len = strcspn(paren + 1, ")");
	if (paren[1 + len] != ')' || paren[2 + len] != '\0')
		return dpkg_put_error(err, "%s: control: Source field '%s' "
		                      "is not 'name (version)'",
		                      deb->filename, value);
	deb->source_version = strndup(paren + 1, len);
	if (deb->source_version == NULL)
		abort();
	if (parseversion(&v, deb->source_version, &verr) < 0) {
		dpkg_put_error(err, "%s: control: Source version '%s': %s",
		               deb->filename, deb->source_version, verr.str);
		dpkg_error_destroy(&verr);
		return -1;
	}
	return 0;
}

int
debfile_parse_control(struct debfile *deb, struct dpkg_error *err)
{
	const struct debfile_control_member *c;
	struct dpkg_version v;
	struct dpkg_error verr = DPKG_ERROR_INIT;
	const char *reason, *source;

	c = debfile_control_member(deb, "control");
	if (c == NULL || c->data == NULL)
		return dpkg_put_error(err, "%s: %s has no control file",
		                      deb->filename, deb->control_tar);
	snprintf(deb->control_name, sizeof(deb->control_name), "%s: control",
	         deb->filename);
	if (deb822_parse(&deb->control_file, deb->control_name, c->data,
	                 c->size, err) < 0)
		return -1;
	if (deb->control_file.nstanzas != 1)
		return dpkg_put_error(err, "%s: control: %s", deb->filename,
		                      "is not exactly one stanza");
	deb->control = &deb->control_file.stanzas[0];
	if ((reason = deb822_duplicate_field(deb->control)) != NULL)
		return dpkg_put_error(err, "%s: control: duplicate field %s",
		                      deb->filename, reason);
	deb->package = debfile_field(deb, "Package");
	deb->version = debfile_field(deb, "Version");
	deb->architecture = debfile_field(deb, "Architecture");
	if (deb->package == NULL || deb->version == NULL ||
	    deb->architecture == NULL)
		return dpkg_put_error(err, "%s: control: missing %s field",
		                      deb->filename,
		                      deb->package == NULL ? "Package" :
		                      deb->version == NULL ? "Version" :
		                      "Architecture");
	if ((reason = pkg_name_is_illegal(deb->package)) != NULL)
		return dpkg_put_error(err, "%s: control: Package '%s': %s",
		                      deb->filename, deb->package, reason);
	if (parseversion(&v, deb->version, &verr) < 0) {
		dpkg_put_error(err, "%s: control: Version '%s': %s",
		               deb->filename, deb->version, verr.str);
		dpkg_error_destroy(&verr);
		return -1;
	}
	if ((reason = dpkg_arch_name_is_illegal(deb->architecture)) != NULL)
		return dpkg_put_error(err, "%s: control: Architecture '%s': %s",
		                      deb->filename, deb->architecture, reason);
	source = debfile_field(deb, "Source");
	return parse_source(deb, source ? source : deb->package, err);
}

const struct debfile_control_member *
debfile_control_member(const struct debfile *deb, const char *name)
{
	size_t i;

	for (i = 0; i < deb->ncontrol_members; i++)
		if (strcmp(deb->control_members[i].name, name) == 0)
			return &deb->control_members[i];
	return NULL;
}

int
debfile_is_maintainer_script(const char *name)
{
	static const char *const scripts[] = {
		"preinst", "postinst", "prerm", "postrm", "config", NULL,
	};
	int i;

	for (i = 0; scripts[i]; i++)
		if (strcmp(name, scripts[i]) == 0)
			return 1;
	return 0;
}

const char *
debfile_field(const struct debfile *deb, const char *name)
{
	const struct deb822_field *f;

	if (deb->control == NULL)
		return NULL;
	f = deb822_find(deb->control, name);
	return f ? f->value : NULL;
}

void
debfile_destroy(struct debfile *deb)
{
	size_t i;

	for (i = 0; i < deb->nmembers; i++)
		debfile_member_free(&deb->members[i]);
	free(deb->members);
	for (i = 0; i < deb->ncontrol_members; i++) {
		free(deb->control_members[i].name);
		free(deb->control_members[i].data);
	}
	free(deb->control_members);
	deb822_free(&deb->control_file);
	free(deb->source);
	free(deb->source_version);
	free(deb->control_tar);
	free(deb->data_tar);
	free(deb->filename);
	memset(deb, 0, sizeof(*deb));
}
