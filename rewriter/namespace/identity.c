/*
 * identity.c: who an upload is, decided once by the store.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>
#include <dpkg/fdio.h>

#include "base/error-at.h"
#include "base/strings.h"
#include "debian/deb822.h"
#include "namespace/identity.h"
#include "namespace/namespace.h"

static const char *const fields[] = {
	"App", "Source", "Version", "Uploader", "Packages", NULL,
};

void
identity_add_package(struct identity *id, const char *name)
{
	id->packages = m_realloc(id->packages, (id->npackages + 1) *
	                         sizeof(*id->packages));
	id->packages[id->npackages++] = m_strdup(name);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
identity_sort(struct identity *id)
{
	size_t i, n = 0;

	if (id->npackages == 0)
		return;
	qsort(id->packages, id->npackages, sizeof(*id->packages), cmp_str);
	for (i = 0; i < id->npackages; i++) {
		if (n > 0 && strcmp(id->packages[n - 1], id->packages[i]) == 0)
			free(id->packages[i]);
		else
			id->packages[n++] = id->packages[i];
	}
	id->npackages = n;
}

bool
identity_has_package(const struct identity *id, const char *name)
{
	return bsearch(&name, id->packages, id->npackages,
	               sizeof(*id->packages), cmp_str) != NULL;
}

const char *
identity_check_package(const char *name)
{
	const char *why = pkg_name_is_illegal(name), *p;

	if (why != NULL)
		return why;
	/* libdpkg lets upper case and '_' through: Debian policy does not,
	 * and dpkg would fold the case where the registry does not. */
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      ((*p == '+' || *p == '-' || *p == '.') && p > name)))
			return "may hold only a-z, 0-9, '+', '-' and '.', "
			       "starting with a letter or a digit";
	if (strlen(name) < 2)
		return "is shorter than 2 characters";
	return NULL;
}

void
identity_free(struct identity *id)
{
	free(id->app);
	free(id->source);
	free(id->version);
	free(id->uploader);
	strings_free(id->packages, id->npackages);
	memset(id, 0, sizeof(*id));
}

char *
identity_renamed(const char *name)
{
	char *out;

	if (strncmp(name, EXTRAS_PREFIX, strlen(EXTRAS_PREFIX)) == 0)
		return m_strdup(name);
	m_asprintf(&out, "%s%s", EXTRAS_PREFIX, name);
	return out;
}

bool
identity_in_space(const char *app, const char *name)
{
	size_t n = strlen(app);

	return strncmp(name, app, n) == 0 &&
	       (name[n] == '\0' || name[n] == '-' || name[n] == '.');
}

void
identity_space_owners(const char *name,
                      void (*each)(void *ctx, const char *app), void *ctx)
{
	char app[EXTRAS_APP_MAX + 1];
	size_t i;

	for (i = 1; i <= EXTRAS_APP_MAX; i++) {
		if (name[i] != '\0' && name[i] != '-' && name[i] != '.')
			continue;
		memcpy(app, name, i);
		app[i] = '\0';
		if (namespace_check_app(app) == NULL)
			each(ctx, app);
		if (name[i] == '\0')
			break;
	}
}

/* Whether S holds a byte that has no place in one line of a name. */
static bool
has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static int
parse_packages(struct identity *id, const char *file, int line,
               const char *value, struct dpkg_error *err)
{
	const char *p = value;

	while (*p) {
		size_t n;
		char *name;
		const char *why;

		p += strspn(p, ", \t\n");
		n = strcspn(p, ", \t\n");
		if (n == 0)
			break;
		if (id->npackages == IDENTITY_PACKAGES_MAX)
			return put_error_at(err, file, line, "more than %d "
			                    "packages", IDENTITY_PACKAGES_MAX);
		name = m_strndup(p, n);
		why = identity_check_package(name);
		if (why != NULL) {
			put_error_at(err, file, line, "package name '%s': %s",
			             name, why);
			free(name);
			return -1;
		}
		id->packages = m_realloc(id->packages, (id->npackages + 1) *
		                         sizeof(*id->packages));
		id->packages[id->npackages++] = name;
		p += n;
	}
	if (id->npackages == 0)
		return put_error_at(err, file, line, "lists no package");
	identity_sort(id);
	return 0;
}

static int
parse_stanza(struct identity *id, const struct deb822 *d,
             struct dpkg_error *err)
{
	const struct deb822_stanza *s;
	const char *file = d->filename, *why;
	struct dpkg_version v;
	struct dpkg_error verr = DPKG_ERROR_INIT;
	char **slot[4] = { &id->app, &id->source, &id->version,
	                   &id->uploader };
	int i, k;

	if (d->nstanzas != 1)
		return put_error_at(err, file, d->nstanzas ?
		                    d->stanzas[1].line : 0, "expected one "
		                    "stanza");
	s = &d->stanzas[0];
	if ((why = deb822_duplicate_field(s)) != NULL)
		return put_error_at(err, file, s->line, "field %s is repeated",
		                    why);
	for (i = 0; i < s->nfields; i++) {
		const struct deb822_field *f = &s->fields[i];

		for (k = 0; fields[k]; k++)
			if (strcasecmp(f->name, fields[k]) == 0)
				break;
		if (fields[k] == NULL)
			return put_error_at(err, file, f->line, "unknown field "
			                    "%s", f->name);
		if (k == 4) {
			if (parse_packages(id, file, f->line, f->value,
			                   err) < 0)
				return -1;
			continue;
		}
		if (f->value[0] == '\0' || has_control(f->value) ||
		    strchr(f->value, '\n') != NULL)
			return put_error_at(err, file, f->line, "field %s is "
			                    "not one line of text", f->name);
		*slot[k] = m_strdup(f->value);
	}
	for (k = 0; fields[k]; k++)
		if (k == 4 ? id->npackages == 0 : *slot[k] == NULL)
			return put_error_at(err, file, s->line, "field %s is "
			                    "missing", fields[k]);
	if ((why = namespace_check_app(id->app)) != NULL)
		return put_error_at(err, file, deb822_find(s, "App")->line,
		                    "app id '%s' %s", id->app, why);
	if (identity_check_package(id->source) != NULL ||
	    strcmp(namespace_app_of_package(id->source), id->app) != 0)
		return put_error_at(err, file, deb822_find(s, "Source")->line,
		                    "source '%s' is not a source of app %s",
		                    id->source, id->app);
	if (parseversion(&v, id->version, &verr) < 0) {
		put_error_at(err, file, deb822_find(s, "Version")->line,
		             "version '%s': %s", id->version, verr.str);
		dpkg_error_destroy(&verr);
		return -1;
	}
	return 0;
}

int
identity_parse(struct identity *id, const char *file, const char *text,
               size_t len, struct dpkg_error *err)
{
	struct deb822 d;
	int ret;

	memset(id, 0, sizeof(*id));
	if (memchr(text, '\0', len) != NULL)
		return put_error_at(err, file, 0, "holds a NUL byte");
	if (deb822_parse(&d, file, text, len, err) < 0)
		return -1;
	ret = parse_stanza(id, &d, err);
	deb822_free(&d);
	if (ret < 0)
		identity_free(id);
	return ret;
}

int
identity_read(struct identity *id, const char *file, struct dpkg_error *err)
{
	struct stat st;
	char *buf;
	ssize_t len;
	int fd, ret;

	memset(id, 0, sizeof(*id));
	fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return put_error_at(err, file, 0, "cannot open: %s",
		                    errno == ELOOP ? "is a symbolic link" :
		                    strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return put_error_at(err, file, 0, "is not a regular file");
	}
	buf = m_malloc(IDENTITY_FILE_MAX + 1);
	len = fd_read(fd, buf, IDENTITY_FILE_MAX + 1);
	close(fd);
	if (len < 0)
		ret = put_error_at(err, file, 0, "cannot read: %s",
		                   strerror(errno));
	else if (len > IDENTITY_FILE_MAX)
		ret = put_error_at(err, file, 0, "is larger than %d bytes",
		                   IDENTITY_FILE_MAX);
	else
		ret = identity_parse(id, file, buf, (size_t)len, err);
	free(buf);
	return ret;
}

void
identity_write(FILE *fp, const struct identity *id)
{
	size_t i;

	fprintf(fp, "App: %s\nSource: %s\nVersion: %s\nUploader: %s\n"
	        "Packages:", id->app, id->source, id->version, id->uploader);
	for (i = 0; i < id->npackages; i++)
		fprintf(fp, "%s %s", i ? "," : "", id->packages[i]);
	fputc('\n', fp);
}
