/*
 * dh-rename.c: the binary packages take their extras names at the
 * package's edge.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>
#include <dpkg/parsedump.h>
#include <dpkg/varbuf.h>

#include "base/dpkg-catch.h"
#include "base/file-rewrite.h"
#include "debian/deb822.h"
#include "dh/dh-rename.h"
#include "namespace/identity.h"
#include "namespace/namespace.h"

/* The fields of a binary package that name other binary packages. */
static const char *const relation_fields[] = {
	"Pre-Depends", "Depends", "Recommends", "Suggests", "Enhances",
	"Breaks", "Conflicts", "Replaces", "Provides", NULL,
};

#define DBGSYM_SUFFIX "-dbgsym"

/* Whether NAME (LEN bytes) is a package of SET, or its -dbgsym. */
static bool
in_set(const struct dh_rename_set *set, const char *name, size_t len)
{
	size_t i, n, d = strlen(DBGSYM_SUFFIX);

	for (i = 0; i < set->n; i++) {
		n = strlen(set->names[i]);
		if (n > len || memcmp(set->names[i], name, n) != 0)
			continue;
		if (n == len || (len == n + d &&
		                 memcmp(name + n, DBGSYM_SUFFIX, d) == 0))
			return true;
	}
	return false;
}

static bool
has_prefix(const char *name)
{
	return strncmp(name, EXTRAS_PREFIX, strlen(EXTRAS_PREFIX)) == 0;
}

/* One replacement of the bytes [start, end) of the original. */
struct edit {
	size_t start, end;
	char *text;
};

struct edits {
	struct edit v[16];
	int n;
};

static void
edit_add(struct edits *ed, size_t start, size_t end, char *text)
{
	int i = ed->n++;

	/* Kept in order of START: fields are met in order. */
	while (i > 0 && ed->v[i - 1].start > start) {
		ed->v[i] = ed->v[i - 1];
		i--;
	}
	ed->v[i] = (struct edit){ start, end, text };
}

static char *
edits_apply(struct edits *ed, const char *text, size_t len)
{
	struct varbuf vb = VARBUF_INIT;
	size_t pos = 0;
	int i;

	for (i = 0; i < ed->n; i++) {
		varbuf_add_buf(&vb, text + pos, ed->v[i].start - pos);
		varbuf_add_str(&vb, ed->v[i].text);
		pos = ed->v[i].end;
		free(ed->v[i].text);
	}
	varbuf_add_buf(&vb, text + pos, len - pos);
	varbuf_end_str(&vb);
	ed->n = 0;
	return varbuf_detach(&vb);
}

/* Whether field NAME lists alternatives a package needs or may use. */
static bool
is_dependency_field(const char *name)
{
	static const char *const fields[] = {
		"Pre-Depends", "Depends", "Recommends", "Suggests", "Enhances",
		NULL,
	};
	int i;

	for (i = 0; fields[i]; i++)
		if (strcasecmp(name, fields[i]) == 0)
			return true;
	return false;
}

/* The package of SET that provides VIRTUAL, or NULL. */
static const char *
provider(const struct dh_rename_set *set, const char *virtual)
{
	size_t i;

	for (i = 0; i < set->n_virtuals; i++)
		if (strcmp(set->virtuals[i], virtual) == 0)
			return set->providers[i];
	return NULL;
}

struct relations_run {
	const struct fieldinfo *fip;
	struct pkginfo *pkg;
	struct parsedb_state *ps;
	const char *value;
};

/* libdpkg's field parser reports through ohshit(). */
static void
parse_relations_field(void *arg)
{
	struct relations_run *r = arg;

	r->fip->rcall(r->pkg, &r->pkg->available, r->ps, r->value, r->fip);
}

/*
 * Relation field F (of FILE) parsed by libdpkg into PKG; -1 with ERR set
 * when it does not parse.
 */
static int
parse_relations(const char *file, const struct deb822_field *f,
                struct pkginfo *pkg, struct dpkg_error *err)
{
	struct relations_run r = {
		find_field_info(fieldinfos, f->name), pkg, NULL, f->value,
	};
	char msg[ERROR_AT_MAX];
	int ret = 0;

	pkg_blank(pkg);
	r.ps = parsedb_new(file, -1, pdb_parse_binary);
	r.ps->lno = f->line;
	if (dpkg_catch(parse_relations_field, &r, msg, sizeof(msg)) < 0)
		ret = put_error_at(err, file, f->line, "%s",
		                   dpkg_catch_reason(msg));
	parsedb_close(r.ps);
	return ret;
}

/*
 * The value of relation field F (of FILE) as libdpkg parses it, with the
 * packages of SET renamed and written back as dpkg writes relations, in
 * *OUT; NULL there when none of them is named.  A name outside the
 * source that Provides lists (a substitution variable gave it, as
 * pkg-kde-tools' ${ABI:VirtualPackage}) goes; where a sibling needs it,
 * unversioned, it names the package of SET that provided it.
 */
static int
rename_relations(const char *file, const struct deb822_field *f,
                 const struct dh_rename_set *set, char **out,
                 struct dpkg_error *err)
{
	struct pkginfo pkg;
	struct dependency *dep;
	struct deppossi *alt;
	struct varbuf vb = VARBUF_INIT;
	bool renamed = false, first = true;
	bool provides = strcasecmp(f->name, "Provides") == 0;
	bool needs = is_dependency_field(f->name);

	*out = NULL;
	if (parse_relations(file, f, &pkg, err) < 0)
		return -1;
	for (dep = pkg.available.depends; dep; dep = dep->next) {
		if (provides && dep->list != NULL &&
		    !has_prefix(dep->list->ed->name) &&
		    !in_set(set, dep->list->ed->name,
		            strlen(dep->list->ed->name))) {
			renamed = true;
			continue;
		}
		for (alt = dep->list; alt; alt = alt->next) {
			const char *name = alt->ed->name, *by;
			char *new_name;

			if (has_prefix(name))
				continue;
			if (in_set(set, name, strlen(name)))
				new_name = identity_renamed(name);
			else if (needs && alt->verrel == DPKG_RELATION_NONE &&
			         (by = provider(set, name)) != NULL)
				new_name = identity_renamed(by);
			else
				continue;
			alt->ed = pkg_hash_find_set(new_name);
			free(new_name);
			renamed = true;
		}
		if (!first)
			varbuf_add_str(&vb, ", ");
		first = false;
		varbufdependency(&vb, dep);
	}
	varbuf_end_str(&vb);
	if (renamed)
		*out = varbuf_detach(&vb);
	else
		varbuf_destroy(&vb);
	return 0;
}

int
dh_rename_virtuals(const char *file, const char *text, size_t len,
                   struct dh_rename_set *set, struct dpkg_error *err)
{
	const struct deb822_field *package, *f;
	struct deb822 d;
	struct pkginfo pkg;
	struct dependency *dep;
	int ret = -1;

	if (deb822_parse(&d, file, text, len, err) < 0)
		return -1;
	if (d.nstanzas != 1) {
		put_error_at(err, file, 0, "holds %d stanzas, not one binary "
		             "package's", d.nstanzas);
		goto out;
	}
	package = deb822_find(&d.stanzas[0], "Package");
	f = deb822_find(&d.stanzas[0], "Provides");
	ret = 0;
	if (package == NULL || f == NULL)
		goto out;
	if (parse_relations(file, f, &pkg, err) < 0) {
		ret = -1;
		goto out;
	}
	for (dep = pkg.available.depends; dep; dep = dep->next) {
		const char *name = dep->list ? dep->list->ed->name : NULL;
		size_t n = set->n_virtuals;

		if (name == NULL || has_prefix(name) ||
		    in_set(set, name, strlen(name)) || provider(set, name))
			continue;
		set->virtuals = m_realloc(set->virtuals,
		                          (n + 1) * sizeof(*set->virtuals));
		set->providers = m_realloc(set->providers,
		                           (n + 1) * sizeof(*set->providers));
		set->virtuals[n] = m_strdup(name);
		set->providers[n] = m_strdup(package->value);
		set->n_virtuals = n + 1;
	}
out:
	deb822_free(&d);
	return ret;
}

/* NAME (LEN bytes) given its extras name, as "NAME\n" for a field. */
static char *
renamed_line(const char *name, size_t len, const char *rest)
{
	char *line;

	m_asprintf(&line, "%s%.*s%s\n", has_prefix(name) ? "" : EXTRAS_PREFIX,
	           (int)len, name, rest);
	return line;
}

int
dh_rename_control(const char *file, const char *text, size_t len,
                  const char *source, const struct dh_rename_set *set,
                  char **out, struct dpkg_error *err)
{
	const struct deb822_field *package, *src;
	const struct deb822_stanza *st;
	struct edits ed = { .n = 0 };
	struct deb822 d;
	char *new_name;
	int i, ret = -1;

	*out = NULL;
	if (deb822_parse(&d, file, text, len, err) < 0)
		return -1;
	if (d.nstanzas != 1) {
		put_error_at(err, file, 0, "holds %d stanzas, not one binary "
		             "package's", d.nstanzas);
		goto out;
	}
	st = &d.stanzas[0];
	package = deb822_find(st, "Package");
	if (package == NULL) {
		put_error_at(err, file, st->line, "has no Package field");
		goto out;
	}
	new_name = identity_renamed(package->value);
	edit_add(&ed, package->value_start, package->end,
	         renamed_line(package->value, strlen(package->value), ""));
	src = deb822_find(st, "Source");
	if (src != NULL) {
		/* "NAME" or "NAME (VERSION)", as dpkg-gencontrol writes it. */
		const char *version = strchr(src->value, ' ');
		char *line;

		if (version == NULL && strcmp(source, new_name) == 0) {
			line = m_strdup("");
			edit_add(&ed, src->start, src->end, line);
		} else {
			m_asprintf(&line, "%s%s\n", source, version ? version : "");
			edit_add(&ed, src->value_start, src->end, line);
		}
	} else if (strcmp(source, new_name) != 0) {
		char *line;

		m_asprintf(&line, "Source: %s\n", source);
		edit_add(&ed, package->end, package->end, line);
	}
	free(new_name);
	for (i = 0; relation_fields[i]; i++) {
		const struct deb822_field *f = deb822_find(st, relation_fields[i]);
		char *value, *line;

		if (f == NULL)
			continue;
		if (rename_relations(file, f, set, &value, err) < 0) {
			while (ed.n > 0)
				free(ed.v[--ed.n].text);
			goto out;
		}
		if (value == NULL)
			continue;
		if (*value == '\0') {
			/* Nothing of it stays: no field. */
			free(value);
			edit_add(&ed, f->start, f->end, m_strdup(""));
			continue;
		}
		m_asprintf(&line, "%s\n", value);
		free(value);
		edit_add(&ed, f->value_start, f->end, line);
	}
	*out = edits_apply(&ed, text, len);
	ret = 0;
out:
	deb822_free(&d);
	return ret;
}

int
dh_rename_files_list(const char *file, const char *text, size_t len,
                     const struct dh_rename_set *set, char **out,
                     struct dpkg_error *err)
{
	struct varbuf vb = VARBUF_INIT;
	size_t pos = 0;

	*out = NULL;
	if (memchr(text, '\0', len) != NULL)
		return put_error_at(err, file, 0, "contains a NUL byte");
	while (pos < len) {
		const char *l = text + pos;
		const char *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) + 1 : len - pos;
		/* "NAME_VERSION_ARCH.deb SECTION PRIORITY [KEY=VALUE...]" */
		size_t word = strcspn(l, " \t\n");
		const char *under = memchr(l, '_', word < n ? word : n);

		if (under != NULL && !has_prefix(l) &&
		    in_set(set, l, (size_t)(under - l)))
			varbuf_add_str(&vb, EXTRAS_PREFIX);
		varbuf_add_buf(&vb, l, n);
		pos += n;
	}
	varbuf_end_str(&vb);
	*out = varbuf_detach(&vb);
	return 0;
}

/* Move what directory FROM holds into TO, which exists; then remove FROM. */
static int
merge_dir(const char *from, const char *to, struct dpkg_error *err)
{
	DIR *d = opendir(from);
	struct dirent *e;
	int ret = 0;

	if (d == NULL)
		return put_error_at(err, from, 0, "cannot open: %s",
		                    strerror(errno));
	while (ret == 0 && (e = readdir(d)) != NULL) {
		char *src, *dst;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		m_asprintf(&src, "%s/%s", from, e->d_name);
		m_asprintf(&dst, "%s/%s", to, e->d_name);
		if (renameat2(AT_FDCWD, src, AT_FDCWD, dst,
		              RENAME_NOREPLACE) < 0)
			ret = put_error_at(err, src, 0, "cannot move to %s: %s",
			                   dst, strerror(errno));
		free(src);
		free(dst);
	}
	closedir(d);
	if (ret == 0 && rmdir(from) < 0)
		ret = put_error_at(err, from, 0, "cannot remove: %s",
		                   strerror(errno));
	return ret;
}

char *
dh_rename_override_lines(const char *text, size_t len, size_t *outlen,
                         void *name)
{
	struct varbuf vb = VARBUF_INIT;
	size_t n = strlen(name), pos = 0;
	bool changed = false;

	while (pos < len) {
		const char *l = text + pos;
		const char *nl = memchr(l, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - l) + 1 : len - pos;

		/* "NAME: tag", "NAME binary: tag", "NAME [amd64]: tag". */
		if (ll > n && memcmp(l, name, n) == 0 &&
		    strchr(": [", l[n]) != NULL && memchr(l, ':', ll) != NULL) {
			varbuf_add_str(&vb, EXTRAS_PREFIX);
			changed = true;
		}
		varbuf_add_buf(&vb, l, ll);
		pos += ll;
	}
	if (!changed) {
		varbuf_destroy(&vb);
		return NULL;
	}
	*outlen = vb.used;
	return varbuf_detach(&vb);
}

/* DIR/NAME as DIR/extras-NAME (see dh_rename_doc_dirs()). */
static int
rename_one(const char *dir, const char *name, const struct dh_rename_set *set,
           bool overrides, struct dpkg_error *err)
{
	char *from, *to, *renamed = identity_renamed(name);
	struct stat st, there;
	int ret = 0;

	m_asprintf(&from, "%s/%s", dir, name);
	m_asprintf(&to, "%s/%s", dir, renamed);
	if (strcmp(from, to) == 0 || lstat(from, &st) < 0) {
		/* Nothing under that name. */
	} else if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlink(from, target, sizeof(target) - 1);

		if (n < 0) {
			ret = put_error_at(err, from, 0, "cannot read link: %s",
			                   strerror(errno));
		} else {
			char *new_target;

			target[n] = '\0';
			new_target = strchr(target, '/') == NULL &&
			             in_set(set, target, strlen(target)) ?
			             identity_renamed(target) : m_strdup(target);
			if (lstat(to, &there) == 0)
				ret = put_error_at(err, from, 0, "cannot take its "
				                   "extras name: %s exists", to);
			else if (symlink(new_target, to) < 0 || unlink(from) < 0)
				ret = put_error_at(err, from, 0, "cannot link as "
				                   "%s: %s", to, strerror(errno));
			free(new_target);
		}
	} else if (S_ISDIR(st.st_mode) && lstat(to, &there) == 0 &&
	           S_ISDIR(there.st_mode)) {
		ret = merge_dir(from, to, err);
	} else if (renameat2(AT_FDCWD, from, AT_FDCWD, to,
	                     RENAME_NOREPLACE) < 0) {
		ret = put_error_at(err, from, 0, "cannot rename to %s: %s", to,
		                   strerror(errno));
	} else if (S_ISREG(st.st_mode) && overrides) {
		/* lintian matches an override's package name too. */
		if (file_rewrite(to, dh_rename_override_lines, (void *)name,
		                 false, err) < 0)
			ret = -1;
	}
	free(from);
	free(to);
	free(renamed);
	return ret;
}

int
dh_rename_doc_dirs(const char *pkgdir, const struct dh_rename_set *set,
                   struct dpkg_error *err)
{
	static const char *const dirs[] = {
		"usr/share/doc", "usr/share/lintian/overrides", NULL,
	};
	size_t i;
	int k;

	for (k = 0; dirs[k]; k++) {
		char *dir;
		struct stat st;
		int ret = 0;

		m_asprintf(&dir, "%s/%s", pkgdir, dirs[k]);
		/* Not through a link: the staging tree is the package's. */
		if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			for (i = 0; i < set->n && ret == 0; i++)
				ret = rename_one(dir, set->names[i], set,
				                 k == 1, err);
		free(dir);
		if (ret < 0)
			return -1;
	}
	return 0;
}

#define FILES_LIST "debian/files"
/* Far more than a control file or debian/files of an app holds. */
#define RENAME_FILE_MAX (4 * 1024 * 1024)

/* PATH's text in *TEXT, or NULL when it does not exist; 0, or -1 with ERR. */
static int
read_text(const char *path, char **text, size_t *len, struct dpkg_error *err)
{
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW);

	*text = NULL;
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return dpkg_put_error(err, "cannot open %s: %s", path,
		                      strerror(errno));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return dpkg_put_error(err, "%s is not a regular file", path);
	}
	if (st.st_size > RENAME_FILE_MAX) {
		close(fd);
		return dpkg_put_error(err, "%s is larger than %d bytes", path,
		                      RENAME_FILE_MAX);
	}
	*text = m_malloc(st.st_size + 1);
	n = read(fd, *text, st.st_size);
	if (n != st.st_size) {
		dpkg_put_error(err, "cannot read %s: %s", path,
		               strerror(errno));
		close(fd);
		free(*text);
		*text = NULL;
		return -1;
	}
	close(fd);
	(*text)[n] = '\0';
	*len = (size_t)n;
	return 0;
}

/* What each package's walk needs. */
struct renaming {
	struct dh_rename_set set;
	bool acted;	/* on some package */
	struct dpkg_error *err;
};

/*
 * PATH, when it exists, renamed: a DEBIAN/control, else debian/files.
 * 0, or -1 with ERR.
 */
static int
rename_file(const struct dh_helper *h, const char *path, bool control,
            const struct dh_rename_set *set, struct dpkg_error *err)
{
	char *text, *out;
	size_t len;
	int rc;

	if (read_text(path, &text, &len, err) < 0)
		return -1;
	if (text == NULL)
		return 0;
	if (control)
		rc = dh_rename_control(path, text, len, h->control.source, set,
		                       &out, err);
	else
		rc = dh_rename_files_list(path, text, len, set, &out, err);
	if (rc < 0) {
		free(text);
		return -1;
	}
	if (strcmp(text, out) != 0) {
		dh_helper_show(h, "rename the package%s in %s",
		               control ? "" : "s", path);
		if (!h->no_act)
			rc = file_install(path, out, strlen(out), 0644, err);
	}
	free(text);
	free(out);
	return rc;
}

/* Add to SET the names outside the source PKGDIR's control provides. */
static int
add_virtuals(const struct dh_helper *h, size_t index, const char *pkgdir,
             void *ctx)
{
	struct renaming *r = ctx;
	char path[1024], *text;
	size_t len;
	int rc;

	(void)h;
	(void)index;
	snprintf(path, sizeof(path), "%s/DEBIAN/control", pkgdir);
	if (read_text(path, &text, &len, r->err) < 0)
		return -1;
	rc = text == NULL ? 0 :
	     dh_rename_virtuals(path, text, len, &r->set, r->err);
	free(text);
	return rc;
}

/* The package's control, and its -dbgsym's, renamed. */
static int
rename_package(const struct dh_helper *h, size_t index, const char *pkgdir,
               void *ctx)
{
	struct renaming *r = ctx;
	char path[1024];

	snprintf(path, sizeof(path), "%s/DEBIAN/control", pkgdir);
	if (rename_file(h, path, true, &r->set, r->err) < 0)
		return -1;
	snprintf(path, sizeof(path),
	         "debian/.debhelper/%s/dbgsym-root/DEBIAN/control",
	         h->control.packages[index].name);
	if (rename_file(h, path, true, &r->set, r->err) < 0)
		return -1;
	r->acted = true;
	return 0;
}

int
dh_rename(const struct dh_helper *h, struct dpkg_error *err)
{
	struct renaming r = { .err = err };
	const char **names;
	size_t i;
	int rc;

	names = m_malloc((h->control.count + 1) * sizeof(*names));
	for (i = 0; i < h->control.count; i++)
		names[i] = h->control.packages[i].name;
	r.set = (struct dh_rename_set){ .names = names,
	                                .n = h->control.count };
	/*
	 * First the names outside the source that each package provides:
	 * a sibling's need of one names the provider (all packages, acted
	 * on or not, as their controls are).
	 */
	rc = dh_helper_each_package(h, DH_EACH_LISTED, add_virtuals, &r);
	if (rc == 0)
		rc = dh_helper_each_package(h, DH_EACH_ACTED_ON,
		                            rename_package, &r);
	if (rc == 0 && r.acted)
		rc = rename_file(h, FILES_LIST, false, &r.set, err);
	for (i = 0; i < r.set.n_virtuals; i++) {
		free(r.set.virtuals[i]);
		free(r.set.providers[i]);
	}
	free(r.set.virtuals);
	free(r.set.providers);
	free(names);
	return rc;
}
