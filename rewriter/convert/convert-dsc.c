/*
 * convert-dsc.c: convert a .dsc into a new extras source package.
 *
 * Everything is built in a staging directory inside OUTDIR and moved into
 * place only once the whole package is written; a failure removes it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>
#include <dpkg/varbuf.h>

#include "base/dpkg-catch.h"
#include "base/file-copy.h"
#include "convert/convert-dsc.h"
#include "debian/deb822.h"
#include "debian/dsc.h"
#include "namespace/namespace.h"
#include "debian/source-archive.h"
#include "dh/dh-addon.h"

enum role {
	ROLE_ORIG,		/* upstream tarball: reused */
	ROLE_ORIG_SIG,		/* its signature (.asc): reused, never read */
	ROLE_DEBIAN,		/* 3.0 (quilt) debian tarball: converted */
	ROLE_NATIVE,		/* the whole source: converted */
	ROLE_DIFF,		/* 1.0 .diff.gz: applied by dpkg-source */
};

struct part {
	const struct dsc_file *file;
	enum role role;
	const char *suffix;	/* what follows "NAME_VERSION" in its name */
	char *new_name;
};

/* An upstream part, copied under the new name as it is. */
static bool
is_upstream(const struct part *p)
{
	return p->role == ROLE_ORIG || p->role == ROLE_ORIG_SIG;
}

/* One .dsc being converted: its parts, their new names, the staging. */
struct dsc_conversion {
	struct dsc dsc;
	char *staging;
	const char *outdir;
	struct part *parts;
	int nparts;
	char *upstream;		/* the version without epoch and revision */
	char *noepoch;		/* the version without epoch */
	bool diff;		/* a 1.0 source with a .diff.gz */
	/* The members of the debian tarball not unpacked. */
	struct source_held *held;
};

/*
 * Remove NAME in directory DIRFD and everything below it, without
 * following symbolic links.  By descriptor, so that no path length limits
 * it, and making each directory writable first: a hostile tarball may
 * unpack a directory of mode 0500 (the member limits of source-archive.h
 * bound the depth, one descriptor a level).
 */
static void
remove_at(int dirfd, const char *name)
{
	struct dirent *de;
	DIR *dir;
	int fd;
	bool more = true;

	if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
		return;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	            O_CLOEXEC);
	if (fd < 0 && errno == EACCES && fchmodat(dirfd, name, 0700, 0) == 0)
		fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		            O_CLOEXEC);
	if (fd < 0)
		return;
	(void)fchmod(fd, 0700);
	dir = fdopendir(fd);
	if (dir == NULL) {
		close(fd);
		return;
	}
	/* Entries removed while reading may still be listed: read again
	 * until a pass removes nothing. */
	while (more) {
		more = false;
		rewinddir(dir);
		while ((de = readdir(dir)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			remove_at(fd, de->d_name);
			if (faccessat(fd, de->d_name, F_OK,
			              AT_SYMLINK_NOFOLLOW) == 0)
				continue;
			more = true;
		}
	}
	closedir(dir);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void
remove_tree(const char *path)
{
	remove_at(AT_FDCWD, path);
}

/*
 * dpkg-source -b reads debian/source/options and local-options, and so
 * does the build daemon's dpkg-buildpackage (dpkg-source --before-build):
 * they could point it at files outside the tree or override fields of the
 * .dsc.  They only steer the building of a source package, which here is
 * the converter's own: the converted source goes without them (real
 * packages carry "compression" or "extend-diff-ignore"), and nothing reads
 * them.
 */
static int
drop_source_options(const char *tree, struct convert_plan *plan,
                    struct dpkg_error *err)
{
	static const char *const names[] = {
		"debian/source/options", "debian/source/local-options",
	};
	struct stat st;
	char *path;
	size_t i;
	int ret = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]) && ret == 0; i++) {
		m_asprintf(&path, "%s/%s", tree, names[i]);
		if (lstat(path, &st) == 0) {
			if (unlink(path) < 0)
				ret = put_error_at(err, names[i], 0,
				                   "cannot remove: %s",
				                   strerror(errno));
			else
				convert_plan_note(plan, names[i], 0,
				                  "dropped: dpkg-source options "
				                  "steer only the building of a "
				                  "source package, and the "
				                  "converted source is built "
				                  "without them");
		}
		free(path);
	}
	return ret;
}

/*
 * Before the first file is moved into OUTDIR: a name there that rename()
 * could not replace (a directory, say) would fail the move halfway, with
 * some files of the new source already in place.
 */
static int
check_targets(const char *outdir, const char *const *names, int n,
              struct dpkg_error *err)
{
	struct stat st;
	char *to;
	int i, bad;

	for (i = 0; i < n; i++) {
		m_asprintf(&to, "%s/%s", outdir, names[i]);
		bad = lstat(to, &st) == 0 && !S_ISREG(st.st_mode);
		if (bad)
			put_error_at(err, to, 0, "exists and is not a regular "
			             "file; not replaced");
		free(to);
		if (bad)
			return -1;
	}
	return 0;
}

/* A compressed tarball suffix dpkg-source knows. */
static bool
tar_suffix(const char *s)
{
	return strcmp(s, ".tar.gz") == 0 || strcmp(s, ".tar.xz") == 0 ||
	       strcmp(s, ".tar.bz2") == 0 || strcmp(s, ".tar.lzma") == 0;
}

/* Sort each listed file into its role, by the names dpkg-source uses. */
static int
classify(struct dsc_conversion *job, struct dpkg_error *err)
{
	const struct dsc *d = &job->dsc;
	bool quilt = strcmp(d->format, "3.0 (quilt)") == 0;
	bool native3 = strcmp(d->format, "3.0 (native)") == 0;
	bool one = strcmp(d->format, "1.0") == 0;
	int i, norig = 0, ndebian = 0, nnative = 0, ndiff = 0;

	if (!quilt && !native3 && !one)
		return put_error_at(err, d->filename, deb822_find(d->stanza,
		                    "Format")->line, "unsupported source format "
		                    "'%s'", d->format);
	job->parts = m_malloc(sizeof(struct part) * d->nfiles);
	memset(job->parts, 0, sizeof(struct part) * d->nfiles);
	for (i = 0; i < d->nfiles; i++) {
		const struct dsc_file *f = &d->files[i];
		struct part *p = &job->parts[job->nparts++];
		char up[512], full[512];
		const char *rest;

		snprintf(up, sizeof(up), "%s_%s.orig", d->source, job->upstream);
		snprintf(full, sizeof(full), "%s_%s", d->source, job->noepoch);
		p->file = f;
		if (strncmp(f->name, up, strlen(up)) == 0 && !native3) {
			rest = f->name + strlen(up);
			p->role = ROLE_ORIG;
			p->suffix = rest;
			if (rest[0] == '-') {
				/* orig-COMPONENT.tar.*: a component tarball. */
				rest = strchr(rest, '.');
				if (rest == NULL || !quilt)
					goto unknown;
			}
			if (str_match_end(rest, ".asc")) {
				p->role = ROLE_ORIG_SIG;
				continue;
			}
			if (!tar_suffix(rest) || (one && strcmp(rest, ".tar.gz")))
				goto unknown;
			if (p->suffix[0] != '-')
				norig++;
			continue;
		}
		if (strncmp(f->name, full, strlen(full)) != 0)
			goto unknown;
		rest = f->name + strlen(full);
		p->suffix = rest;
		if (quilt && strncmp(rest, ".debian", 7) == 0 &&
		    tar_suffix(rest + 7)) {
			p->role = ROLE_DEBIAN;
			ndebian++;
			continue;
		}
		if (one && strcmp(rest, ".diff.gz") == 0) {
			p->role = ROLE_DIFF;
			job->diff = true;
			ndiff++;
			continue;
		}
		if ((native3 && tar_suffix(rest)) ||
		    (one && strcmp(rest, ".tar.gz") == 0)) {
			p->role = ROLE_NATIVE;
			nnative++;
			continue;
		}
unknown:
		return put_error_at(err, d->filename, 0, "'%s' is not a file "
		                    "of a '%s' source package %s_%s", f->name,
		                    d->format, d->source, d->version);
	}
	if ((quilt && (norig != 1 || ndebian != 1)) ||
	    (native3 && (norig != 0 || nnative != 1)) ||
	    (one && ndiff == 0 && (norig != 0 || nnative != 1)) ||
	    (one && ndiff > 0 && (norig != 1 || ndiff != 1 || nnative != 0)))
		return put_error_at(err, d->filename, 0, "does not list the "
		                    "tarballs a '%s' source package needs",
		                    d->format);
	return 0;
}

/* The tree a native tarball unpacked to: its one top directory. */
static char *
tree_of(const char *unpack)
{
	char *found = NULL;
	struct dirent *de;
	int n = 0;
	DIR *dir = opendir(unpack);

	while (dir && (de = readdir(dir)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		n++;
		free(found);
		found = m_malloc(strlen(unpack) + strlen(de->d_name) + 2);
		sprintf(found, "%s/%s", unpack, de->d_name);
	}
	if (dir)
		closedir(dir);
	if (n != 1) {
		free(found);
		return m_strdup(unpack);
	}
	return found;
}

/* A relation field of debian/control as one .dsc line. */
static void
add_relation_line(struct varbuf *vb, const char *name, const char *value)
{
	const char *p = value + strspn(value, " \t\n");
	size_t end;

	varbuf_printf(vb, "%s: ", name);
	end = vb->used;
	while (*p) {
		if (*p == '\n') {
			p += strspn(p, " \t\n");
			if (*p)
				varbuf_add_char(vb, ' ');
			continue;
		}
		varbuf_add_char(vb, *p++);
		if (p[-1] != ' ' && p[-1] != '\t')
			end = vb->used;
	}
	vb->used = end;
	if (vb->used > 0 && vb->buf[vb->used - 1] == ',')
		vb->used--;
	varbuf_add_char(vb, '\n');
}

static const char *const dsc_relation_fields[] = {
	"Build-Depends", "Build-Depends-Arch", "Build-Depends-Indep",
	"Build-Conflicts", "Build-Conflicts-Arch", "Build-Conflicts-Indep",
	NULL,
};

static void
add_checksums(struct varbuf *vb, struct dsc_conversion *job, const char *field,
              char hashes[][3][65])
{
	int i;

	varbuf_printf(vb, "%s:\n", field);
	for (i = 0; i < job->nparts; i++) {
		struct stat st;
		char path[4096];
		int k = strcmp(field, "Files") == 0 ? 0 :
		        strcmp(field, "Checksums-Sha1") == 0 ? 1 : 2;

		snprintf(path, sizeof(path), "%s/%s", job->staging,
		         job->parts[i].new_name);
		stat(path, &st);
		varbuf_printf(vb, " %s %lld %s\n", hashes[i][k],
		              (long long)st.st_size, job->parts[i].new_name);
	}
}

static bool
is_udeb_stanza(const struct deb822_stanza *st)
{
	const struct deb822_field *f = deb822_find(st, "Package-Type");

	if (f == NULL)
		f = deb822_find(st, "XC-Package-Type");
	return f != NULL && strcmp(f->value, "udeb") == 0;
}

/* The stanza of CONTROL whose Package is NAME (LEN bytes), or NULL. */
static const struct deb822_stanza *
control_package(const struct deb822 *control, const char *name, size_t len)
{
	int k;

	for (k = 1; k < control->nstanzas; k++) {
		const struct deb822_field *pf =
			deb822_find(&control->stanzas[k], "Package");

		if (pf && strlen(pf->value) == len &&
		    strncmp(pf->value, name, len) == 0)
			return &control->stanzas[k];
	}
	return NULL;
}

/*
 * One line "NAME TYPE SECTION PRIORITY [KEY=VALUE...]" of Package-List
 * (W, LEN bytes), as the converted CONTROL has the package: under its
 * extras name, the one its .deb will have (debian/control keeps the
 * maintainer's, see dh/dh-rename.h), the priority optional, and left out
 * when the conversion dropped the package (a udeb).
 */
static void
add_package_list_line(struct varbuf *vb, const struct deb822 *control,
                      const char *w, size_t len)
{
	size_t wn = strcspn(w, " \t\n"), plen = strlen(EXTRAS_PREFIX);
	const char *rest = w + wn, *word;
	const struct deb822_stanza *st;
	int k;

	st = control_package(control, w, wn);
	/* An extras source converted again: its list has the extras names. */
	if (st == NULL && wn > plen && strncmp(w, EXTRAS_PREFIX, plen) == 0)
		st = control_package(control, w + plen, wn - plen);
	/* Dropped from the build: a udeb (see control-rewrite.h). */
	if (st == NULL || is_udeb_stanza(st))
		return;
	varbuf_printf(vb, "\n %s%.*s",
	              strncmp(w, EXTRAS_PREFIX, plen) == 0 ? "" : EXTRAS_PREFIX,
	              (int)wn, w);
	/* Type and section as written; the priority normalised. */
	for (k = 0; k < 3 && rest < w + len; k++) {
		size_t blanks = strspn(rest, " \t"), n;

		word = rest + blanks;
		n = strcspn(word, " \t\n");
		if (word + n > w + len)
			n = (size_t)(w + len - word);
		varbuf_add_buf(vb, rest, blanks);
		if (k == 2 && n > 0)
			varbuf_add_str(vb, "optional");
		else
			varbuf_add_buf(vb, word, n);
		rest = word + n;
	}
	if (rest < w + len)
		varbuf_add_buf(vb, rest, (size_t)(w + len - rest));
}

/* "Binary: ..." of the converted CONTROL: the extras names of its .debs. */
static void
add_binary_field(struct varbuf *vb, const struct deb822 *control)
{
	int k, listed = 0;

	varbuf_add_str(vb, "Binary:");
	for (k = 1; k < control->nstanzas; k++) {
		const struct deb822_field *pf =
			deb822_find(&control->stanzas[k], "Package");

		if (is_udeb_stanza(&control->stanzas[k]))
			continue;
		/* The extras name each .deb will have. */
		varbuf_printf(vb, "%s %s%s", listed++ ? "," : "",
		              pf && strncmp(pf->value, EXTRAS_PREFIX,
		                            strlen(EXTRAS_PREFIX)) == 0 ?
		              "" : EXTRAS_PREFIX, pf ? pf->value : "");
	}
	varbuf_add_char(vb, '\n');
}

/* "Package-List:" with each line of VALUE as the converted CONTROL has it. */
static void
add_package_list_field(struct varbuf *vb, const struct deb822 *control,
                       const char *value)
{
	const char *p = value;

	varbuf_add_str(vb, "Package-List:");
	while (*p) {
		size_t n = strcspn(p, "\n");
		const char *w = p + strspn(p, " \t");

		if (n > 0 && w < p + n)
			add_package_list_line(vb, control, w, (size_t)(p + n - w));
		p += n + (p[n] == '\n');
	}
	varbuf_add_char(vb, '\n');
}

/*
 * The .dsc NAME in DIR that dpkg-source wrote from the converted TREE,
 * with Binary and Package-List naming the extras names of the .debs:
 * debian/control keeps the maintainer's (see dh/dh-rename.h).
 */
static int
rename_dsc_binaries(const char *dir, const char *name, const char *tree,
                    struct dpkg_error *err)
{
	char *path;
	struct convert_plan p;
	struct deb822 control, dsc;
	struct varbuf vb = VARBUF_INIT;
	char *ctext = NULL, *dtext = NULL;
	size_t clen, dlen;
	int i, fd, ret = -1;

	convert_plan_init(&p, tree);
	if (convert_read(&p, "debian/control", &ctext, &clen, NULL, false,
	                 err) < 0)
		return -1;
	if (deb822_parse(&control, "debian/control", ctext, clen, err) < 0) {
		free(ctext);
		return -1;
	}
	convert_plan_init(&p, dir);
	if (convert_read(&p, name, &dtext, &dlen, NULL, false, err) < 0 ||
	    deb822_parse(&dsc, name, dtext, dlen, err) < 0)
		goto out_control;
	for (i = 0; i < dsc.stanzas[0].nfields; i++) {
		const struct deb822_field *f = &dsc.stanzas[0].fields[i];

		if (strcasecmp(f->name, "Binary") == 0)
			add_binary_field(&vb, &control);
		else if (strcasecmp(f->name, "Package-List") == 0)
			add_package_list_field(&vb, &control, f->value);
		else
			varbuf_add_buf(&vb, dtext + f->start, f->end - f->start);
	}
	m_asprintf(&path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || write(fd, vb.buf, vb.used) != (ssize_t)vb.used ||
	    close(fd) < 0)
		put_error_at(err, name, 0, "cannot write: %s", strerror(errno));
	else
		ret = 0;
	free(path);
	deb822_free(&dsc);
out_control:
	deb822_free(&control);
	free(ctext);
	free(dtext);
	varbuf_destroy(&vb);
	return ret;
}

static int
write_dsc(struct dsc_conversion *job, const char *tree, const char *dsc_name,
          struct dpkg_error *err)
{
	const struct dsc *d = &job->dsc;
	struct varbuf vb = VARBUF_INIT;
	struct deb822 control;
	char path[4096], (*hashes)[3][65];
	char *text = NULL;
	size_t len;
	bool relations_done = false, checksums_done = false;
	int i, k, fd, ret = 0;

	snprintf(path, sizeof(path), "%s/debian/control", tree);
	{
		struct convert_plan p;

		convert_plan_init(&p, tree);
		if (convert_read(&p, "debian/control", &text, &len, NULL, false,
		                 err) < 0 ||
		    deb822_parse(&control, "debian/control", text, len, err) < 0) {
			free(text);
			return -1;
		}
	}
	hashes = m_malloc(sizeof(*hashes) * job->nparts);
	for (i = 0; i < job->nparts; i++) {
		int64_t size;

		snprintf(path, sizeof(path), "%s/%s", job->staging,
		         job->parts[i].new_name);
		if (dsc_hash_file(path, job->parts[i].new_name, &size,
		                  hashes[i][0], hashes[i][1], hashes[i][2],
		                  err) < 0) {
			ret = -1;
			goto out;
		}
	}
	for (i = 0; i < d->stanza->nfields; i++) {
		const struct deb822_field *f = &d->stanza->fields[i];
		bool relation = false;

		for (k = 0; dsc_relation_fields[k]; k++)
			if (strcasecmp(f->name, dsc_relation_fields[k]) == 0)
				relation = true;
		if (strcasecmp(f->name, "Source") == 0) {
			/* An extras source converted again keeps its name. */
			varbuf_printf(&vb, "Source: %s%s\n", EXTRAS_PREFIX,
			              namespace_app_of_package(d->source));
		} else if (strcasecmp(f->name, "Binary") == 0) {
			add_binary_field(&vb, &control);
		} else if (relation || (!relations_done &&
		           (strcasecmp(f->name, "Package-List") == 0 ||
		            strncasecmp(f->name, "Checksums-", 10) == 0 ||
		            strcasecmp(f->name, "Files") == 0))) {
			/* Relations come from the converted debian/control. */
			if (!relations_done)
				for (k = 0; dsc_relation_fields[k]; k++) {
					const struct deb822_field *cf = deb822_find(
						&control.stanzas[0],
						dsc_relation_fields[k]);

					if (cf)
						add_relation_line(&vb, cf->name,
						                  cf->value);
				}
			relations_done = true;
			if (relation)
				continue;
		}
		if (strcasecmp(f->name, "Package-List") == 0) {
			add_package_list_field(&vb, &control, f->value);
		} else if (strncasecmp(f->name, "Checksums-", 10) == 0 ||
		           strcasecmp(f->name, "Files") == 0) {
			if (!checksums_done) {
				add_checksums(&vb, job, "Checksums-Sha1", hashes);
				add_checksums(&vb, job, "Checksums-Sha256", hashes);
				add_checksums(&vb, job, "Files", hashes);
			}
			checksums_done = true;
		} else if (strcasecmp(f->name, "Dgit") == 0 ||
		           strcasecmp(f->name, "Binary") == 0 ||
		           strcasecmp(f->name, "Source") == 0) {
			/* Dgit names a commit of the original source. */
		} else {
			varbuf_add_buf(&vb, d->text + f->start, f->end - f->start);
		}
	}
	snprintf(path, sizeof(path), "%s/%s", job->staging, dsc_name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0 || write(fd, vb.buf, vb.used) != (ssize_t)vb.used ||
	    close(fd) < 0)
		ret = put_error_at(err, dsc_name, 0, "cannot write: %s",
		                   strerror(errno));
out:
	free(hashes);
	deb822_free(&control);
	free(text);
	varbuf_destroy(&vb);
	return ret;
}

/*
 * Run dpkg-source with ARGV in the directory DIR (NULL: this one), its
 * output in LOG; on failure, its last error line becomes ERR for NAME.
 */
static int
run_dpkg_source(const char *const *argv, const char *dir, const char *log,
                const char *name, struct dpkg_error *err)
{
	char line[1024], last[1024] = "";
	int status, fd;
	pid_t pid;
	FILE *fp;

	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return put_error_at(err, log, 0, "cannot create: %s",
		                    strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(fd);
		return put_error_at(err, name, 0, "cannot run dpkg-source: %s",
		                    strerror(errno));
	}
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);

		if (in < 0 || dup2(in, 0) < 0 || dup2(fd, 1) < 0 ||
		    dup2(fd, 2) < 0 || (dir && chdir(dir) < 0))
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return put_error_at(err, name, 0, "cannot wait for "
			                    "dpkg-source: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	/* Its own words say best what it refused: keep its last error. */
	fp = fopen(log, "r");
	while (fp && fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, "dpkg-source: error: ", 20) == 0)
			snprintf(last, sizeof(last), "%s", line + 20);
	if (fp)
		fclose(fp);
	last[strcspn(last, "\n")] = '\0';
	return put_error_at(err, name, 0, "dpkg-source %s failed%s%s",
	                    argv[1], last[0] ? ": " : "", last);
}

/*
 * A 1.0 source with a .diff.gz.  A diff is not a tarball: rather than apply
 * it ourselves, dpkg-source, the reference implementation, unpacks the
 * checked orig tarball and applies it (refusing a patch that leaves the
 * tree), the tree is converted in place, and dpkg-source builds the new
 * diff against the orig tarball copied byte for byte, all in the staging
 * directory.
 */
static int
build_diff(struct dsc_conversion *job, const struct convert_options *opt,
           struct convert_plan *plan, struct convert_result *res,
           struct dpkg_error *err)
{
	const struct dsc *d = &job->dsc;
	char *work = NULL, *tree = NULL, *log = NULL, *dir = NULL;
	char *control = NULL, *changelog = NULL, *path = NULL, *to = NULL;
	char *diff_name = NULL, *dsc_name = NULL;
	const char *names[8];
	struct stat st;
	int i, n = 0, ret = -1;

	for (i = 0; i < job->nparts; i++)
		if (job->parts[i].role == ROLE_ORIG &&
		    source_archive_check(job->parts[i].file->path,
		                         job->parts[i].file->name, NULL, err) < 0)
			return -1;
	m_asprintf(&work, "%s/work", job->staging);
	m_asprintf(&tree, "%s/tree", work);
	m_asprintf(&log, "%s/dpkg-source.log", job->staging);
	if (mkdir(work, 0755) < 0) {
		put_error_at(err, work, 0, "cannot create: %s", strerror(errno));
		goto out;
	}
	{
		/* dsc_load verified the checksums; the signature is the
		 * upload queue's job. */
		const char *argv[] = { "dpkg-source", "-x", "--no-check",
		                       d->filename, tree, NULL };

		if (run_dpkg_source(argv, NULL, log, d->filename, err) < 0)
			goto out;
	}
	if (convert_tree(tree, opt, plan, res, err) < 0)
		goto out;
	if (strcmp(res->app, namespace_app_of_package(d->source)) != 0 ||
	    strcmp(res->version, d->version) != 0) {
		put_error_at(err, d->filename, 0, "is %s %s, but its debian/ "
		             "says %s %s", d->source, d->version, res->app,
		             res->version);
		goto out;
	}
	if (drop_source_options(tree, plan, err) < 0)
		goto out;
	/* The directory name dpkg-source expects: the diff's labels. */
	m_asprintf(&dir, "%s-%s", res->source, job->upstream);
	free(path);
	m_asprintf(&path, "%s/%s", work, dir);
	if (rename(tree, path) < 0) {
		put_error_at(err, path, 0, "cannot create: %s", strerror(errno));
		goto out;
	}
	for (i = 0; i < job->nparts; i++) {
		struct part *p = &job->parts[i];

		if (!is_upstream(p))
			continue;
		m_asprintf(&p->new_name, "%s_%s.orig%s", res->source,
		           job->upstream, p->suffix);
		free(path);
		m_asprintf(&path, "%s/%s", work, p->new_name);
		if (file_copy(p->file->path, path, 0644, false, err) < 0)
			goto out;
		if (n < 6)
			names[n++] = p->new_name;
	}
	m_asprintf(&control, "-c%s/debian/control", dir);
	m_asprintf(&changelog, "-l%s/debian/changelog", dir);
	{
		/* The format is given: debian/source/format comes from the
		 * upload and could ask for another. */
		const char *argv[] = { "dpkg-source", "-b", "--format=1.0",
		                       control, changelog, dir, NULL };

		if (run_dpkg_source(argv, work, log, d->filename, err) < 0)
			goto out;
	}
	m_asprintf(&diff_name, "%s_%s.diff.gz", res->source, job->noepoch);
	m_asprintf(&dsc_name, "%s_%s.dsc", res->source, job->noepoch);
	names[n++] = diff_name;
	names[n++] = dsc_name;
	for (i = 0; i < n; i++) {
		free(path);
		m_asprintf(&path, "%s/%s", work, names[i]);
		if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
			put_error_at(err, names[i], 0, "dpkg-source did not "
			             "write it");
			goto out;
		}
	}
	free(to);
	m_asprintf(&to, "%s/%s", work, dir);
	if (rename_dsc_binaries(work, dsc_name, to, err) < 0)
		goto out;
	if (check_targets(job->outdir, names, n, err) < 0)
		goto out;
	/* Everything is written: move it into place, the .dsc last. */
	for (i = 0; i < n; i++) {
		free(path);
		free(to);
		m_asprintf(&path, "%s/%s", work, names[i]);
		m_asprintf(&to, "%s/%s", job->outdir, names[i]);
		if (rename(path, to) < 0) {
			put_error_at(err, to, 0, "cannot create: %s",
			             strerror(errno));
			goto out;
		}
	}
	ret = 0;
out:
	free(work);
	free(tree);
	free(log);
	free(dir);
	free(control);
	free(changelog);
	free(path);
	free(to);
	free(diff_name);
	free(dsc_name);
	return ret;
}

/*
 * What the conversion of a debian tarball opens or changes (convert.h's
 * steps, drop_source_options(), write_dsc()): debian/ and what lies
 * directly in it (the debhelper files, judged by name; a directory there
 * is only seen to be one), and debian/source/.  The rest, debian/patches/
 * say, is held aside and written back as it came.
 */
bool
convert_debian_unpacked(const char *name)
{
	const char *rest;

	if (strncmp(name, "debian/", 7) != 0)
		return true;
	rest = name + 7;
	if (strncmp(rest, "source", 6) == 0 &&
	    (rest[6] == '\0' || rest[6] == '/'))
		return true;
	return strchr(rest, '/') == NULL;
}

/*
 * Check the debian tarball P and unpack it into UNPACK, all but the
 * members held; or whole, when they cannot be held (see
 * source-archive.h).
 */
static int
unpack_debian(const struct part *p, const char *unpack,
              struct source_held **held, struct dpkg_error *err)
{
	int ret = source_archive_extract_held(p->file->path, p->file->name,
	                                      "debian", unpack,
	                                      convert_debian_unpacked, held,
	                                      err);

	if (ret <= 0)
		return ret;
	remove_tree(unpack);
	if (mkdir(unpack, 0755) < 0)
		return put_error_at(err, unpack, 0, "cannot create: %s",
		                    strerror(errno));
	return source_archive_extract(p->file->path, p->file->name, unpack,
	                              err);
}

static int
build(struct dsc_conversion *job, const struct convert_options *opt,
      struct convert_plan *plan, struct convert_result *res,
      struct dpkg_error *err)
{
	const struct dh_addon *addon = dh_addon_data(err);
	const struct dh_buildsystem *ac;
	const struct dsc *d = &job->dsc;
	struct convert_options tree_opt = *opt;
	bool native = false;
	char unpack[4096], path[4096], dsc_name[1024], *tree;
	int i;

	if (job->diff)
		return build_diff(job, opt, plan, res, err);
	if (addon == NULL)
		return -1;
	ac = dh_addon_buildsystem(addon, "autoconf");

	snprintf(unpack, sizeof(unpack), "%s/unpack", job->staging);
	if (mkdir(unpack, 0755) < 0)
		return put_error_at(err, unpack, 0, "cannot create: %s",
		                    strerror(errno));
	/* Every tarball checked, in the order of the .dsc, before the
	 * others are unpacked; the debian tarball checked as it is read. */
	for (i = 0; i < job->nparts; i++) {
		struct part *p = &job->parts[i];

		if (p->role == ROLE_ORIG_SIG)
			continue;
		if (p->role == ROLE_DEBIAN ?
		    unpack_debian(p, unpack, &job->held, err) < 0 :
		    source_archive_check(p->file->path, p->file->name, NULL,
		                         err) < 0)
			return -1;
	}
	for (i = 0; i < job->nparts; i++) {
		const struct part *p = &job->parts[i];

		if (p->role != ROLE_NATIVE)
			continue;
		native = true;
		if (source_archive_extract(p->file->path, p->file->name, unpack,
		                           err) < 0)
			return -1;
	}
	tree = native ? tree_of(unpack) : m_strdup(unpack);
	/* The upstream tarball is not unpacked: ask it whether ./configure
	 * comes from autoconf. */
	for (i = 0; ac && i < job->nparts && !tree_opt.autoconf; i++)
		if (job->parts[i].role == ROLE_ORIG &&
		    source_archive_has_top_file(job->parts[i].file->path,
		                                job->parts[i].file->name,
		                                (const char *const *)ac->detect,
		                                &tree_opt.autoconf, err) < 0) {
			free(tree);
			return -1;
		}
	if (convert_tree(tree, &tree_opt, plan, res, err) < 0 ||
	    drop_source_options(tree, plan, err) < 0) {
		free(tree);
		return -1;
	}
	if (strcmp(res->app, namespace_app_of_package(d->source)) != 0 ||
	    strcmp(res->version, d->version) != 0) {
		free(tree);
		return put_error_at(err, d->filename, 0, "is %s %s, but its "
		                    "debian/ says %s %s", d->source, d->version,
		                    res->app, res->version);
	}
	for (i = 0; i < job->nparts; i++) {
		struct part *p = &job->parts[i];
		int ret;

		p->new_name = m_malloc(strlen(res->source) +
		                       strlen(job->upstream) +
		                       strlen(job->noepoch) +
		                       strlen(p->suffix) + 16);
		sprintf(p->new_name, "%s_%s%s%s", res->source,
		        is_upstream(p) ? job->upstream : job->noepoch,
		        is_upstream(p) ? ".orig" : "",
		        is_upstream(p) ? p->suffix :
		        p->role == ROLE_DEBIAN ? ".debian.tar.xz" :
		        strcmp(d->format, "1.0") == 0 ? ".tar.gz" : ".tar.xz");
		snprintf(path, sizeof(path), "%s/%s", job->staging, p->new_name);
		if (is_upstream(p)) {
			ret = file_copy(p->file->path, path, 0644, false, err);
		} else if (p->role == ROLE_DEBIAN) {
			ret = source_archive_pack(path, tree, "debian",
			                          job->held, NULL,
			                          res->timestamp, SOURCE_XZ_FAST,
			                          err);
		} else {
			char top[1024];

			snprintf(top, sizeof(top), "%s-%s", res->source,
			         job->upstream);
			ret = source_archive_pack(path, tree, NULL, NULL, top,
			                          res->timestamp,
			                          strcmp(d->format, "1.0") == 0 ?
			                          SOURCE_GZIP : SOURCE_XZ, err);
		}
		if (ret < 0) {
			free(tree);
			return -1;
		}
	}
	snprintf(dsc_name, sizeof(dsc_name), "%s_%s.dsc", res->source,
	         job->noepoch);
	if (write_dsc(job, tree, dsc_name, err) < 0) {
		free(tree);
		return -1;
	}
	free(tree);

	{
		const char **names = m_malloc(sizeof(*names) *
		                              (job->nparts + 1));

		for (i = 0; i < job->nparts; i++)
			names[i] = job->parts[i].new_name;
		names[i] = dsc_name;
		i = check_targets(job->outdir, names, job->nparts + 1, err);
		free(names);
		if (i < 0)
			return -1;
	}
	/* Everything is written: move it into place, the .dsc last. */
	for (i = 0; i <= job->nparts; i++) {
		const char *name = i < job->nparts ? job->parts[i].new_name :
		                   dsc_name;
		char to[4096];

		snprintf(path, sizeof(path), "%s/%s", job->staging, name);
		snprintf(to, sizeof(to), "%s/%s", job->outdir, name);
		if (rename(path, to) < 0)
			return put_error_at(err, to, 0, "cannot create: %s",
			                    strerror(errno));
	}
	return 0;
}

struct build_run {
	struct dsc_conversion *job;
	const struct convert_options *opt;
	struct convert_plan *plan;
	struct convert_result *res;
	struct dpkg_error *err;
	int ret;
};

static void
build_run(void *arg)
{
	struct build_run *b = arg;

	b->ret = build(b->job, b->opt, b->plan, b->res, b->err);
}

/* libdpkg's ohshit() while building (a pattern too large, say): caught,
 * so that the staging directory goes too and OUTDIR stays as it was. */
static int
build_caught(struct dsc_conversion *job, const struct convert_options *opt,
             struct convert_plan *plan, struct convert_result *res,
             struct dpkg_error *err)
{
	struct build_run b = { job, opt, plan, res, err, -1 };
	char msg[ERROR_AT_MAX];

	if (dpkg_catch(build_run, &b, msg, sizeof(msg)) < 0) {
		dpkg_error_destroy(err);
		return dpkg_put_error(err, "%s", msg);
	}
	return b.ret;
}

int
convert_dsc(const char *dsc, const char *outdir,
            const struct convert_options *opt, struct convert_plan *plan,
            struct convert_result *res, struct dpkg_error *err)
{
	struct dsc_conversion job;
	const char *colon, *dash;
	bool made_outdir = false;
	int ret = -1, i;

	memset(&job, 0, sizeof(job));
	memset(res, 0, sizeof(*res));
	convert_plan_init(plan, outdir);
	job.outdir = outdir;
	if (dsc_load(&job.dsc, dsc, err) < 0)
		goto out;
	colon = strchr(job.dsc.version, ':');
	job.noepoch = m_strdup(colon ? colon + 1 : job.dsc.version);
	job.upstream = m_strdup(job.noepoch);
	dash = strrchr(job.upstream, '-');
	if (dash && strcmp(job.dsc.format, "3.0 (native)") != 0)
		job.upstream[dash - job.upstream] = '\0';
	if (classify(&job, err) < 0)
		goto out;
	if (mkdir(outdir, 0755) == 0)
		made_outdir = true;
	else if (errno != EEXIST) {
		put_error_at(err, outdir, 0, "cannot create: %s", strerror(errno));
		goto out;
	}
	job.staging = m_malloc(strlen(outdir) + 32);
	sprintf(job.staging, "%s/.extras-convert.XXXXXX", outdir);
	if (mkdtemp(job.staging) == NULL) {
		put_error_at(err, outdir, 0, "cannot create a staging "
		             "directory: %s", strerror(errno));
		free(job.staging);
		job.staging = NULL;
		goto out;
	}
	ret = build_caught(&job, opt, plan, res, err);
	source_held_free(job.held);
	remove_tree(job.staging);
out:
	/* A failure leaves OUTDIR as it was: absent, if it was. */
	if (ret < 0 && made_outdir)
		rmdir(outdir);
	for (i = 0; i < job.nparts; i++)
		free(job.parts[i].new_name);
	free(job.parts);
	free(job.staging);
	free(job.noepoch);
	free(job.upstream);
	dsc_free(&job.dsc);
	return ret;
}
