/*
 * review-tree.c: a staged tree (debian/PKG/ before dh_builddeb) read as
 * the package dpkg-deb will build from it, so that the same rules apply
 * at build time as at review time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>

#include "review/review.h"


/* Read the regular file PATH, at most DEBFILE_CONTROL_MEMBER_MAX bytes. */
static int
slurp(const char *path, char **data, size_t *size, struct dpkg_error *err)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) < 0) {
		dpkg_put_error(err, "%s: cannot read: %s", path,
		               strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (st.st_size > DEBFILE_CONTROL_MEMBER_MAX) {
		close(fd);
		*data = NULL;
		*size = 0;
		return 0;
	}
	*data = malloc(st.st_size + 1);
	if (*data == NULL)
		abort();
	n = read(fd, *data, st.st_size);
	close(fd);
	if (n != st.st_size) {
		dpkg_put_error(err, "%s: cannot read: %s", path,
		               n < 0 ? strerror(errno) : "file changed size");
		free(*data);
		*data = NULL;
		return -1;
	}
	(*data)[n] = '\0';
	*size = n;
	return 0;
}

static enum debfile_type
type_of(mode_t m)
{
	if (S_ISREG(m))
		return DEBFILE_REGULAR;
	if (S_ISDIR(m))
		return DEBFILE_DIRECTORY;
	if (S_ISLNK(m))
		return DEBFILE_SYMLINK;
	return DEBFILE_SPECIAL;
}

/*
 * The owner dpkg-deb will record: the tree's under fakeroot or root (as
 * dh_builddeb runs it unless Rules-Requires-Root is "no"), else root's
 * (it then runs with --root-owner-group).
 */
static void
set_owner(struct debfile_member *m, const struct stat *st)
{
	const struct passwd *pw;
	const struct group *gr;

	if (geteuid() == 0) {
		m->uid = st->st_uid;
		m->gid = st->st_gid;
	}
	/* Names only for the rare file not root's: a lookup each is slow. */
	pw = m->uid != 0 ? getpwuid(m->uid) : NULL;
	gr = m->gid != 0 ? getgrgid(m->gid) : NULL;
	m->owner = m_strdup(m->uid == 0 ? "root" : pw ? pw->pw_name : "");
	m->group = m_strdup(m->gid == 0 ? "root" : gr ? gr->gr_name : "");
}

/*
 * The files of the tree with more than one link: dpkg-deb packs the first
 * path of each as a file and every other as a hard link to it.
 */
struct inodes {
	struct inode {
		dev_t dev;
		ino_t ino;
		char *path;
	} *v;
	size_t n;
};

/* The path the inode of ST was first seen at, or NULL (and remembered). */
static const char *
first_link(struct inodes *seen, const struct stat *st, const char *rel)
{
	size_t i;

	for (i = 0; i < seen->n; i++)
		if (seen->v[i].dev == st->st_dev && seen->v[i].ino == st->st_ino)
			return seen->v[i].path;
	seen->v = realloc(seen->v, (seen->n + 1) * sizeof(*seen->v));
	if (seen->v == NULL)
		abort();
	seen->v[seen->n].dev = st->st_dev;
	seen->v[seen->n].ino = st->st_ino;
	seen->v[seen->n++].path = m_strdup(rel);
	return NULL;
}

static int
add_member(struct debfile *deb, struct inodes *seen, struct review_keep *keep,
           const char *full, const char *rel, const struct stat *st,
           struct dpkg_error *err)
{
	struct debfile_member m = { 0 };
	size_t n = strlen(REVIEW_PROFILE_DIR);
	const char *first;

	m.path = m_strdup(rel);
	m.type = type_of(st->st_mode);
	m.st_mode = st->st_mode;
	m.mode = st->st_mode & 07777;
	m.size = m.type == DEBFILE_REGULAR ? st->st_size : 0;
	set_owner(&m, st);
	if (m.type == DEBFILE_SYMLINK) {
		char buf[PATH_MAX];
		ssize_t len = readlink(full, buf, sizeof(buf) - 1);

		if (len < 0) {
			dpkg_put_error(err, "%s: cannot read link: %s", full,
			               strerror(errno));
			goto fail;
		}
		buf[len] = '\0';
		m.target = m_strdup(buf);
	}
	if (m.type == DEBFILE_REGULAR && st->st_nlink > 1 &&
	    (first = first_link(seen, st, rel)) != NULL) {
		m.type = DEBFILE_HARDLINK;
		m.target = m_strdup(first);
		m.size = 0;
	}
	/* What review-profile needs, the profiles' text, and what
	 * review-works reads. */
	if (m.type == DEBFILE_REGULAR &&
	    ((strncmp(rel, REVIEW_PROFILE_DIR, n) == 0 && rel[n] == '/') ||
	     (m.size <= DEBFILE_CONTROL_MEMBER_MAX &&
	      review_works_keeps(&m, keep)))) {
		size_t size;

		if (slurp(full, &m.data, &size, err) < 0)
			goto fail;
	}
	deb->members = realloc(deb->members,
	                       (deb->nmembers + 1) * sizeof(*deb->members));
	if (deb->members == NULL)
		abort();
	deb->members[deb->nmembers++] = m;
	return 0;
fail:
	free(m.path);
	free(m.owner);
	free(m.group);
	free(m.target);
	return -1;
}

/* Add what lies below FULL (REL from the root) in name order. */
static int
walk(struct debfile *deb, struct inodes *seen, struct review_keep *keep,
     const char *full, const char *rel, struct dpkg_error *err)
{
	struct dirent **names;
	int n, i, ret = 0;

	n = scandir(full, &names, NULL, alphasort);
	if (n < 0) {
		dpkg_put_error(err, "%s: cannot read: %s", full,
		               strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char *sub_full = NULL, *sub_rel = NULL;
		struct stat st;

		if (ret < 0 || strcmp(name, ".") == 0 ||
		    strcmp(name, "..") == 0 ||
		    (*rel == '\0' && strcmp(name, "DEBIAN") == 0))
			goto next;
		if (asprintf(&sub_full, "%s/%s", full, name) < 0 ||
		    asprintf(&sub_rel, "%s%s%s", rel, *rel ? "/" : "",
		             name) < 0)
			abort();
		if (lstat(sub_full, &st) < 0) {
			dpkg_put_error(err, "%s: %s", sub_full,
			               strerror(errno));
			ret = -1;
		} else if (add_member(deb, seen, keep, sub_full, sub_rel, &st,
		                      err) < 0) {
			ret = -1;
		} else if (S_ISDIR(st.st_mode)) {
			ret = walk(deb, seen, keep, sub_full, sub_rel, err);
		}
next:
		free(sub_full);
		free(sub_rel);
		free(names[i]);
	}
	free(names);
	return ret;
}

static int
read_control_dir(struct debfile *deb, const char *dir, struct dpkg_error *err)
{
	struct dirent **names;
	char *control;
	int n, i, ret = 0;

	if (asprintf(&control, "%s/DEBIAN", dir) < 0)
		abort();
	n = scandir(control, &names, NULL, alphasort);
	if (n < 0) {
		dpkg_put_error(err, "%s: cannot read: %s", control,
		               strerror(errno));
		free(control);
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct debfile_control_member c = { 0 };
		char *full = NULL;
		struct stat st;

		if (ret < 0 || names[i]->d_name[0] == '.')
			goto next;
		if (asprintf(&full, "%s/%s", control, names[i]->d_name) < 0)
			abort();
		if (lstat(full, &st) < 0) {
			dpkg_put_error(err, "%s: %s", full, strerror(errno));
			ret = -1;
			goto next;
		}
		c.name = m_strdup(names[i]->d_name);
		c.type = type_of(st.st_mode);
		c.mode = st.st_mode & 07777;
		if (c.type == DEBFILE_REGULAR &&
		    (slurp(full, &c.data, &c.size, err) < 0 ||
		     c.data == NULL)) {
			if (c.data == NULL && ret == 0)
				dpkg_put_error(err, "%s: too large", full);
			free(c.name);
			ret = -1;
			goto next;
		}
		deb->control_members = realloc(deb->control_members,
		                               (deb->ncontrol_members + 1) *
		                               sizeof(c));
		if (deb->control_members == NULL)
			abort();
		deb->control_members[deb->ncontrol_members++] = c;
next:
		free(full);
		free(names[i]);
	}
	free(names);
	free(control);
	return ret;
}

int
review_add_tree(struct review *r, const char *dir, struct dpkg_error *err)
{
	struct review_package *p;
	struct inodes seen = { 0 };
	size_t i;
	int ret;

	r->packages = realloc(r->packages,
	                      (r->npackages + 1) * sizeof(*r->packages));
	if (r->packages == NULL)
		abort();
	p = &r->packages[r->npackages];
	memset(p, 0, sizeof(*p));
	p->deb.filename = m_strdup(dir);
	p->deb.control_tar = m_strdup("DEBIAN");
	p->deb.data_tar = m_strdup("tree");
	strcpy(p->deb.format, "2.0");
	if (read_control_dir(&p->deb, dir, err) < 0)
		goto fail;
	ret = walk(&p->deb, &seen, &p->keep, dir, "", err);
	for (i = 0; i < seen.n; i++)
		free(seen.v[i].path);
	free(seen.v);
	if (ret < 0)
		goto fail;
	if (debfile_parse_control(&p->deb, err) < 0)
		goto fail;
	p->where = m_strdup(dir);
	r->npackages++;
	return 0;
fail:
	debfile_destroy(&p->deb);
	return -1;
}
