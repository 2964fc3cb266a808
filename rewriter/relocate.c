/*
 * relocate.c: move staged package trees into their namespace and patch
 * the references to what moved.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "layout.h"
#include "patch.h"
#include "pathmap.h"
#include "relocate.h"
#include "fmt.h"
#include "tree.h"

extern char **environ;

/* How an entry gets to its place. */
enum how {
	HOW_STAY,	/* already where it belongs */
	HOW_UNIT,	/* renamed to its destination, with all below it */
	HOW_CARRIED,	/* moves because a directory above it moves */
	HOW_MERGE,	/* a directory whose entries move one by one */
};

struct plan_entry {
	struct tree_entry *e;
	enum layout_kind kind;
	enum how how;
	bool blocked;		/* directory with something below that stays */
	char *dest;
};

struct plan {
	struct tree *tree;
	struct plan_entry *p;	/* parallel to tree->entries */
};

struct job {
	struct plan *plan;
	size_t index;		/* the first name of the inode */
	size_t *links;		/* the other names of a hardlinked inode */
	size_t nlinks;
	struct report report;
	char err[PATH_MAX + 128];
	int failed;
};

struct run {
	const struct relocate_options *opt;
	struct extras_namespace *ns;
	struct plan *plans;
	int nplans;
	struct pathmap *paths, *programs, *icons;
	struct patch_context ctx;
	struct job *jobs;
	size_t njobs;
	atomic_size_t next_job;
};

static bool
is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && path[n] == '/';
}

static ssize_t
parent_index(const struct tree *t, const char *path)
{
	char parent[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct tree_entry *e;

	if (slash == NULL)
		return -1;
	fmt_into(parent, sizeof(parent), "%.*s", (int)(slash - path), path);
	e = tree_find(t, parent);
	return e ? e - t->entries : -1;
}

/* Place every entry and decide how it moves; false on bad input. */
static bool
plan_tree(struct run *run, struct plan *plan, char *err, size_t errlen)
{
	struct tree *t = plan->tree;
	struct pathmap *dests = pathmap_new();
	size_t i;

	plan->p = calloc(t->count ? t->count : 1, sizeof(*plan->p));
	if (plan->p == NULL || dests == NULL)
		goto oom;
	for (i = 0; i < t->count; i++) {
		struct layout_place place;
		struct plan_entry *pe = &plan->p[i];

		pe->e = &t->entries[i];
		if (layout_place(run->ns, pe->e->path, S_ISDIR(pe->e->st.st_mode),
		                 &place) < 0) {
			fmt_into(err, errlen, "%s/%s: path too long in the "
			         "namespace", t->dir, pe->e->path);
			goto fail;
		}
		pe->kind = place.kind;
		pe->dest = strdup(place.dest);
		if (pe->dest == NULL)
			goto oom;
	}
	/* A directory with anything below it that stays is not owned. */
	for (i = 0; i < t->count; i++) {
		ssize_t up;

		if (plan->p[i].kind == LAYOUT_MOVE)
			continue;
		for (up = parent_index(t, t->entries[i].path); up >= 0;
		     up = parent_index(t, t->entries[up].path)) {
			if (plan->p[up].blocked)
				break;
			plan->p[up].blocked = true;
		}
	}
	/* Sorted order puts every directory before what it holds. */
	for (i = 0; i < t->count; i++) {
		struct plan_entry *pe = &plan->p[i];
		ssize_t up = parent_index(t, pe->e->path);
		bool is_dir = S_ISDIR(pe->e->st.st_mode);
		struct tree_entry *there;
		const char *other;

		if (up >= 0 && (plan->p[up].how == HOW_UNIT ||
		                plan->p[up].how == HOW_CARRIED)) {
			pe->how = HOW_CARRIED;
		} else if (pe->kind == LAYOUT_MOVE) {
			there = tree_find(t, pe->dest);
			if (is_dir && (pe->blocked ||
			               layout_is_shared_dir(pe->e->path) ||
			               (there && S_ISDIR(there->st.st_mode))))
				pe->how = HOW_MERGE;
			else
				pe->how = HOW_UNIT;
		} else if (pe->kind == LAYOUT_EXPORT &&
		           strcmp(pe->dest, pe->e->path) != 0) {
			pe->how = HOW_UNIT;
		} else {
			pe->how = HOW_STAY;
		}
		if (pe->how == HOW_STAY)
			continue;
		there = tree_find(t, pe->dest);
		if (pe->how != HOW_MERGE && there != NULL) {
			fmt_into(err, errlen, "%s/%s: would move onto %s, which "
			         "the package already ships", t->dir, pe->e->path,
			         pe->dest);
			goto fail;
		}
		if (pe->how == HOW_MERGE && there != NULL &&
		    !S_ISDIR(there->st.st_mode)) {
			fmt_into(err, errlen, "%s/%s: directory would merge into "
			         "%s, which is not a directory", t->dir,
			         pe->e->path, pe->dest);
			goto fail;
		}
		other = pathmap_lookup(dests, pe->dest, strlen(pe->dest));
		if (other != NULL && !(pe->how == HOW_MERGE && other[0] == 'M')) {
			fmt_into(err, errlen, "%s/%s: would move to %s, where "
			         "%s also goes", t->dir, pe->e->path, pe->dest,
			         other + 1);
			goto fail;
		}
		if (other == NULL) {
			char tag[PATH_MAX + 1];

			fmt_into(tag, sizeof(tag), "%c%s",
			         pe->how == HOW_MERGE ? 'M' : 'U', pe->e->path);
			if (pathmap_add(dests, pe->dest, tag) < 0)
				goto oom;
		}
	}
	pathmap_free(dests);
	return true;
oom:
	fmt_into(err, errlen, "%s: out of memory", t->dir);
fail:
	pathmap_free(dests);
	return false;
}

/* Where an entry is once the run is done (relative). */
static const char *
final_path(const struct plan_entry *pe)
{
	return pe->how == HOW_STAY ? pe->e->path : pe->dest;
}

static int
add_origins(struct pathmap *map, const char *ns_rel, const char *final)
{
	char origin[2][PATH_MAX], old[PATH_MAX + 1], new[PATH_MAX + 1];
	int n, k;

	n = layout_origins(final + strlen(ns_rel) + 1, origin);
	fmt_into(new, sizeof(new), "/%s", final);
	for (k = 0; k < n; k++) {
		fmt_into(old, sizeof(old), "/%s", origin[k]);
		if (pathmap_add(map, old, new) < 0)
			return -1;
	}
	return 0;
}

/* Whether the namespace directory FINAL stands for a directory of its own. */
static bool
ns_dir_is_owned(const char *ns_rel, const char *final)
{
	char origin[2][PATH_MAX];

	if (!is_under(final, ns_rel))
		return false;
	layout_origins(final + strlen(ns_rel) + 1, origin);
	return !layout_is_shared_dir(origin[0]);
}

static int
map_icon(struct pathmap *icons, const char *final)
{
	const char *base = strrchr(final, '/');
	const char *dot;
	char old[NAME_MAX + 1], new[NAME_MAX + 1];

	if (!is_under(final, "usr/share/icons") &&
	    !is_under(final, "usr/share/pixmaps"))
		return 0;
	base = base ? base + 1 : final;
	if (!layout_has_extras_prefix(base))
		return 0;
	dot = strrchr(base, '.');
	if (dot == NULL || dot - base > NAME_MAX)
		return 0;
	fmt_into(new, sizeof(new), "%.*s", (int)(dot - base), base);
	fmt_into(old, sizeof(old), "%s", new + strlen(EXTRAS_PREFIX));
	if (old[0] == '\0')
		return 0;
	return pathmap_add(icons, old, new);
}

/*
 * The export FINAL may already carry the extras- name a first run gave
 * it: map the name it had before, so a second run patches the same way.
 */
static int
map_prefixed_export(struct run *run, const char *final)
{
	const char *base = strrchr(final, '/');
	char before[PATH_MAX], old[PATH_MAX + 1], new[PATH_MAX + 1];
	struct layout_place place;

	if (base == NULL || !layout_has_extras_prefix(base + 1))
		return 0;
	fmt_into(before, sizeof(before), "%.*s%s", (int)(base + 1 - final),
	         final, base + 1 + strlen(EXTRAS_PREFIX));
	if (layout_place(run->ns, before, false, &place) < 0 ||
	    place.kind != LAYOUT_EXPORT || strcmp(place.dest, final) != 0)
		return 0;
	fmt_into(old, sizeof(old), "/%s", before);
	fmt_into(new, sizeof(new), "/%s", final);
	return pathmap_add(run->paths, old, new);
}

/* The maps of paths, program names and icon names after the run. */
static int
build_maps(struct run *run)
{
	const char *ns_rel = run->ns->rel;
	int t;
	size_t i;

	for (t = 0; t < run->nplans; t++) {
		struct plan *plan = &run->plans[t];

		for (i = 0; i < plan->tree->count; i++) {
			const struct plan_entry *pe = &plan->p[i];
			const char *final = final_path(pe);
			char parent[PATH_MAX];
			const char *slash = strrchr(final, '/');
			bool is_dir = S_ISDIR(pe->e->st.st_mode);

			if (pe->how == HOW_MERGE)
				continue;
			if (pe->kind == LAYOUT_EXPORT) {
				if (map_icon(run->icons, final) < 0 ||
				    map_prefixed_export(run, final) < 0)
					return -1;
				if (pe->how == HOW_UNIT) {
					char old[PATH_MAX + 1], new[PATH_MAX + 1];

					fmt_into(old, sizeof(old), "/%s", pe->e->path);
					fmt_into(new, sizeof(new), "/%s", final);
					if (pathmap_add(run->paths, old, new) < 0)
						return -1;
				}
				continue;
			}
			if (!is_under(final, ns_rel) || slash == NULL)
				continue;
			fmt_into(parent, sizeof(parent), "%.*s",
			         (int)(slash - final), final);
			if (is_dir) {
				if (ns_dir_is_owned(ns_rel, final) &&
				    !ns_dir_is_owned(ns_rel, parent) &&
				    add_origins(run->paths, ns_rel, final) < 0)
					return -1;
				continue;
			}
			if (!ns_dir_is_owned(ns_rel, parent) &&
			    add_origins(run->paths, ns_rel, final) < 0)
				return -1;
			if (strlen(parent) == strlen(ns_rel) + 4 &&
			    (is_under(final, run->ns->rel) &&
			     (strncmp(parent + strlen(ns_rel), "/bin", 4) == 0 ||
			      strncmp(parent + strlen(ns_rel), "/sbin", 5) == 0))) {
				char new[PATH_MAX + 1];

				fmt_into(new, sizeof(new), "/%s", final);
				if (pathmap_add(run->programs, slash + 1, new) < 0)
					return -1;
			}
		}
	}
	return 0;
}

/* mkdir -p of the parent of PATH under DIRFD. */
static int
make_parents(int dirfd, const char *path)
{
	char buf[PATH_MAX];
	char *p;

	fmt_into(buf, sizeof(buf), "%s", path);
	for (p = strchr(buf, '/'); p != NULL; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdirat(dirfd, buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

static enum relocate_status
move_entries(struct plan *plan, struct report *report, bool dry_run,
             char *err, size_t errlen)
{
	struct tree *t = plan->tree;
	int dirfd = -1;
	size_t i;

	if (!dry_run) {
		dirfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0)
			goto fail;
	}
	for (i = 0; i < t->count; i++) {
		struct plan_entry *pe = &plan->p[i];
		char from[PATH_MAX + 1], to[PATH_MAX + 1];

		fmt_into(from, sizeof(from), "/%s", pe->e->path);
		fmt_into(to, sizeof(to), "/%s", final_path(pe));
		if (pe->kind == LAYOUT_EXPORT)
			report_export(report, from, to);
		else if (pe->how != HOW_STAY && pe->how != HOW_MERGE &&
		         (!S_ISDIR(pe->e->st.st_mode) || pe->how == HOW_UNIT))
			report_move(report, from, to);
		if (dry_run || pe->how != HOW_UNIT)
			continue;
		if (make_parents(dirfd, pe->dest) < 0 ||
		    renameat(dirfd, pe->e->path, dirfd, pe->dest) < 0) {
			fmt_into(err, errlen, "%s/%s: cannot move to %s: %s", t->dir,
			         pe->e->path, pe->dest, strerror(errno));
			close(dirfd);
			return RELOCATE_FAILED;
		}
	}
	if (dry_run)
		return RELOCATE_DONE;
	/* Deepest first, so that emptied parents go too. */
	for (i = t->count; i-- > 0;) {
		struct plan_entry *pe = &plan->p[i];

		if (pe->how == HOW_MERGE && unlinkat(dirfd, pe->e->path,
		                                     AT_REMOVEDIR) < 0 &&
		    errno != ENOTEMPTY && errno != EEXIST) {
			fmt_into(err, errlen, "%s/%s: %s", t->dir, pe->e->path,
			         strerror(errno));
			close(dirfd);
			return RELOCATE_FAILED;
		}
	}
	close(dirfd);
	return RELOCATE_DONE;
fail:
	fmt_into(err, errlen, "%s: %s", t->dir, strerror(errno));
	return RELOCATE_FAILED;
}

/* Resolve "." and ".." in the absolute PATH, in place. */
static void
clean_path(char *path)
{
	char out[PATH_MAX];
	size_t n = 0;
	char *save, *comp;

	for (comp = strtok_r(path, "/", &save); comp;
	     comp = strtok_r(NULL, "/", &save)) {
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--;
			continue;
		}
		size_t len = strlen(comp);

		if (n + 1 + len >= sizeof(out))
			break;
		out[n++] = '/';
		memcpy(out + n, comp, len);
		n += len;
	}
	out[n] = '\0';
	strcpy(path, n ? out : "/");
}

static void
dir_of(const char *abs, char *out, size_t size)
{
	const char *slash = strrchr(abs, '/');

	fmt_into(out, size, "%.*s", slash && slash != abs ?
	         (int)(slash - abs) : 1, abs);
}

static bool
same_top(const char *a, const char *b)
{
	size_t la = strcspn(a + 1, "/"), lb = strcspn(b + 1, "/");

	return la == lb && strncmp(a + 1, b + 1, la) == 0;
}

/* The target a symlink needs once it and what it names have moved. */
static bool
new_link_target(const struct run *run, const struct plan_entry *pe,
                char *out, size_t size)
{
	char target[PATH_MAX * 2], final[PATH_MAX + 1], dir[PATH_MAX];
	struct pathmap_match m;
	const char *link = pe->e->link;

	fmt_into(final, sizeof(final), "/%s", final_path(pe));
	if (link[0] == '/') {
		fmt_into(target, sizeof(target), "%s", link);
	} else {
		char src[PATH_MAX + 1];

		fmt_into(src, sizeof(src), "/%s", pe->e->path);
		dir_of(src, dir, sizeof(dir));
		fmt_into(target, sizeof(target), "%s/%s", dir, link);
	}
	clean_path(target);
	if (pathmap_resolve(run->paths, target, &m)) {
		char moved[PATH_MAX * 2];

		fmt_into(moved, sizeof(moved), "%s%s", m.new, target + m.len);
		fmt_into(target, sizeof(target), "%s", moved);
	}
	if (link[0] == '/' || !same_top(final, target)) {
		fmt_into(out, size, "%s", target);
	} else {
		dir_of(final, dir, sizeof(dir));
		patch_relative_path(dir, target, out, size);
	}
	/* A relative link that did not move keeps its own spelling. */
	if (link[0] != '/' && pe->how == HOW_STAY) {
		char again[PATH_MAX * 2];

		fmt_into(again, sizeof(again), "%s/%s", dir, link);
		clean_path(again);
		if (strcmp(again, target) == 0)
			fmt_into(out, size, "%s", link);
	}
	return strcmp(out, link) != 0;
}

static enum relocate_status
retarget_symlinks(struct run *run, struct plan *plan, struct report *report,
                  char *err, size_t errlen)
{
	struct tree *t = plan->tree;
	size_t i;

	for (i = 0; i < t->count; i++) {
		struct plan_entry *pe = &plan->p[i];
		char target[PATH_MAX], file[PATH_MAX + 1], tmp[PATH_MAX * 2];
		char path[PATH_MAX * 2];

		if (pe->e->link == NULL || !new_link_target(run, pe, target,
		                                            sizeof(target)))
			continue;
		fmt_into(file, sizeof(file), "/%s", final_path(pe));
		report_patch(report, file, "symlink", 0, -1, pe->e->link,
		             strlen(pe->e->link), target);
		if (run->opt->dry_run)
			continue;
		if (fmt_into(path, sizeof(path), "%s/%s", t->dir,
		            final_path(pe)) < 0 ||
		    fmt_into(tmp, sizeof(tmp), "%s.dpkg-tmp", path) < 0) {
			fmt_into(err, errlen, "%s/%s: path too long", t->dir,
			        final_path(pe));
			return RELOCATE_FAILED;
		}
		if (symlink(target, tmp) < 0 ||
		    lchown(tmp, pe->e->st.st_uid, pe->e->st.st_gid) < 0 ||
		    rename(tmp, path) < 0) {
			fmt_into(err, errlen, "%s: cannot retarget symlink: %s",
			         path, strerror(errno));
			unlink(tmp);
			return RELOCATE_FAILED;
		}
	}
	return RELOCATE_DONE;
}

static int
run_patchelf(const char *rpath, const char *file)
{
	char *argv[] = { "patchelf", "--set-rpath", (char *)rpath,
	                 (char *)file, NULL };
	pid_t pid;
	int status;

	if (posix_spawnp(&pid, "patchelf", NULL, NULL, argv, environ) != 0)
		return -1;
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/*
 * Replace the file at PATH by DATA, atomically, with the metadata of ST;
 * then point its other hardlinked names at the new inode.
 */
static int
replace_file(struct job *job, const char *path, const struct patch_result *res,
             const struct stat *st)
{
	struct tree *t = job->plan->tree;
	char tmp[PATH_MAX * 2];
	struct timespec times[2] = { st->st_atim, st->st_mtim };
	size_t done = 0, i;
	int fd;

	if (fmt_into(tmp, sizeof(tmp), "%s.dpkg-new", path) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		goto fail;
	while (res->data && done < res->len) {
		ssize_t n = write(fd, res->data + done, res->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail_fd;
		done += (size_t)n;
	}
	if (res->data == NULL) {
		/* Only the RUNPATH changes: start from the file as it is. */
		int in = open(path, O_RDONLY | O_CLOEXEC);
		char buf[65536];
		ssize_t n;

		if (in < 0)
			goto fail_fd;
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(fd, buf, (size_t)n) != n) {
				close(in);
				goto fail_fd;
			}
		close(in);
		if (n < 0)
			goto fail_fd;
	}
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (res->rpath && run_patchelf(res->rpath, tmp) < 0) {
		fmt_into(job->err, sizeof(job->err), "%s: patchelf --set-rpath "
		         "'%s' failed", path, res->rpath);
		unlink(tmp);
		return -1;
	}
	/* chown clears set-id bits, so the mode comes after. */
	if ((lchown(tmp, st->st_uid, st->st_gid) < 0 && errno != EPERM) ||
	    chmod(tmp, st->st_mode & 07777) < 0 || rename(tmp, path) < 0 ||
	    utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) < 0)
		goto fail;
	for (i = 0; i < job->nlinks; i++) {
		char other[PATH_MAX * 2], othertmp[PATH_MAX * 2 + 16];

		if (fmt_into(other, sizeof(other), "%s/%s", t->dir,
		            final_path(&job->plan->p[job->links[i]])) < 0 ||
		    fmt_into(othertmp, sizeof(othertmp), "%s.dpkg-new", other) < 0)
			errno = ENAMETOOLONG;
		else if (link(path, othertmp) == 0 && rename(othertmp, other) == 0)
			continue;
		fmt_into(job->err, sizeof(job->err), "%s: cannot relink: %s",
		        other, strerror(errno));
		unlink(othertmp);
		return -1;
	}
	return 0;
fail_fd:
	close(fd);
fail:
	fmt_into(job->err, sizeof(job->err), "%s: cannot replace: %s", path,
	         strerror(errno));
	unlink(tmp);
	return -1;
}

/* A thread's buffer for file contents, grown as needed. */
struct readbuf {
	unsigned char *data;
	size_t alloc;
	unsigned char *chunk;	/* SCAN_CHUNK bytes */
};

/*
 * Read the whole of FD into RB.  read(2) rather than mmap(2): unmapping
 * in a threaded process costs every CPU a TLB flush, a file.
 */
static int
read_whole(int fd, size_t size, struct readbuf *rb)
{
	size_t done = 0;

	if (size + 1 > rb->alloc) {
		size_t alloc = rb->alloc ? rb->alloc : 1 << 20;
		void *v;

		while (alloc < size + 1)
			alloc *= 2;
		v = realloc(rb->data, alloc);
		if (v == NULL)
			return -1;
		rb->data = v;
		rb->alloc = alloc;
	}
	while (done < size) {
		ssize_t n = read(fd, rb->data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	if (done != size) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* Bytes read at a time when looking for a first reference. */
#define SCAN_CHUNK (1u << 20)
/* Chunks overlap by more than the longest reference, in UTF-16 too. */
#define SCAN_OVERLAP (2 * PATH_MAX + 16)

/*
 * Whether FD (SIZE bytes) may hold a reference, read in chunks through a
 * small buffer that stays in cache.  Most files hold none and are read
 * once this way; the others are read again whole.  Only false positives
 * are possible at chunk edges, and they only cost that second read.
 */
static int
may_hold_reference(int fd, size_t size, struct pathmap_scanner *sc,
                   unsigned char *chunk)
{
	size_t off = 0;
	struct pathmap_match m;

	while (off < size) {
		size_t want = size - off < SCAN_CHUNK ? size - off : SCAN_CHUNK;
		ssize_t n = pread(fd, chunk, want, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		if (pathmap_next(sc, chunk, (size_t)n, 0, &m) ||
		    pathmap_next_utf16(sc, chunk, (size_t)n, 0, &m))
			return 1;
		if (off + (size_t)n >= size)
			break;
		off += (size_t)n > SCAN_OVERLAP ? (size_t)n - SCAN_OVERLAP
		                                : (size_t)n;
	}
	return 0;
}

/*
 * Whether a file must be read whole whatever a chunked scan says: its
 * references may be compressed, or be bare names (.desktop Exec=, Icon=).
 */
static bool
needs_whole_read(const char *file, int fd)
{
	unsigned char head[16];
	size_t len = strlen(file);
	ssize_t n;

	if (len >= 8 && strcmp(file + len - 8, ".desktop") == 0)
		return true;
	n = pread(fd, head, sizeof(head), 0);
	return n > 0 && patch_is_compressed(head, (size_t)n);
}

static void
run_job(struct run *run, struct pathmap_scanner *sc, struct readbuf *rb,
        struct job *job)
{
	struct plan_entry *pe = &job->plan->p[job->index];
	char path[PATH_MAX * 2], file[PATH_MAX + 1];
	struct patch_result res;
	unsigned char *buf = NULL;
	struct stat st;
	int fd;

	if (fmt_into(path, sizeof(path), "%s/%s", job->plan->tree->dir,
	            run->opt->dry_run ? pe->e->path : final_path(pe)) < 0) {
		fmt_into(job->err, sizeof(job->err), "%s: path too long", path);
		job->failed = 1;
		return;
	}
	fmt_into(file, sizeof(file), "/%s", final_path(pe));
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		fmt_into(job->err, sizeof(job->err), "%s: %s", path,
		         strerror(errno));
		job->failed = 1;
		if (fd >= 0)
			close(fd);
		return;
	}
	if (!needs_whole_read(file, fd)) {
		int may = may_hold_reference(fd, (size_t)st.st_size, sc,
		                             rb->chunk);

		if (may <= 0) {
			if (may < 0) {
				fmt_into(job->err, sizeof(job->err), "%s: %s", path,
				         strerror(errno));
				job->failed = 1;
			}
			close(fd);
			return;
		}
	}
	if (read_whole(fd, (size_t)st.st_size, rb) < 0) {
		fmt_into(job->err, sizeof(job->err), "%s: %s", path,
		         strerror(errno));
		job->failed = 1;
		close(fd);
		return;
	}
	buf = rb->data;
	close(fd);
	if (patch_content(&run->ctx, sc, file, buf, (size_t)st.st_size, &res,
	                  &job->report) < 0) {
		fmt_into(job->err, sizeof(job->err), "%s: out of memory", path);
		job->failed = 1;
	} else if (!run->opt->dry_run && (res.data || res.rpath) &&
	           replace_file(job, path, &res, &pe->e->st) < 0) {
		job->failed = 1;
	}
	free(res.data);
	free(res.rpath);
}

static void *
worker(void *arg)
{
	struct run *run = arg;
	struct pathmap_scanner *sc = pathmap_scanner_new(run->paths);
	struct readbuf rb = { NULL, 0, malloc(SCAN_CHUNK) };
	size_t i;

	if (sc == NULL || rb.chunk == NULL) {
		pathmap_scanner_free(sc);
		free(rb.chunk);
		return (void *)1;
	}
	while ((i = atomic_fetch_add(&run->next_job, 1)) < run->njobs)
		run_job(run, sc, &rb, &run->jobs[i]);
	free(rb.data);
	free(rb.chunk);
	pathmap_scanner_free(sc);
	return NULL;
}

struct inode_ref {
	dev_t dev;
	ino_t ino;
	int plan;
	size_t index;
};

static int
inode_cmp(const void *a, const void *b)
{
	const struct inode_ref *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->plan != y->plan)
		return x->plan - y->plan;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* One job per inode among the regular files, in path order. */
static int
make_jobs(struct run *run)
{
	size_t n = 0, i, k;
	struct inode_ref *refs;
	int t;

	for (t = 0; t < run->nplans; t++)
		for (i = 0; i < run->plans[t].tree->count; i++)
			n += S_ISREG(run->plans[t].tree->entries[i].st.st_mode);
	refs = calloc(n ? n : 1, sizeof(*refs));
	run->jobs = calloc(n ? n : 1, sizeof(*run->jobs));
	if (refs == NULL || run->jobs == NULL) {
		free(refs);
		return -1;
	}
	n = 0;
	for (t = 0; t < run->nplans; t++)
		for (i = 0; i < run->plans[t].tree->count; i++) {
			const struct stat *st = &run->plans[t].tree->entries[i].st;

			if (S_ISREG(st->st_mode))
				refs[n++] = (struct inode_ref){ st->st_dev, st->st_ino,
				                                t, i };
		}
	qsort(refs, n, sizeof(*refs), inode_cmp);
	for (i = 0; i < n; i = k) {
		struct job *job = &run->jobs[run->njobs++];

		for (k = i + 1; k < n && refs[k].dev == refs[i].dev &&
		     refs[k].ino == refs[i].ino && refs[k].plan == refs[i].plan; k++)
			;
		job->plan = &run->plans[refs[i].plan];
		job->index = refs[i].index;
		report_init(&job->report);
		if (k - i > 1) {
			size_t j;

			job->links = calloc(k - i - 1, sizeof(size_t));
			if (job->links == NULL) {
				free(refs);
				return -1;
			}
			for (j = i + 1; j < k; j++)
				job->links[job->nlinks++] = refs[j].index;
		}
	}
	free(refs);
	return 0;
}

static int
job_path_cmp(const void *a, const void *b)
{
	const struct job *x = a, *y = b;

	if (x->plan != y->plan)
		return x->plan < y->plan ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static enum relocate_status
patch_files(struct run *run, struct report *report, char *err, size_t errlen)
{
	pthread_t threads[16];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int nthreads = run->opt->jobs > 0 ? run->opt->jobs : (int)cpus;
	enum relocate_status status = RELOCATE_DONE;
	int i, started = 0;
	size_t j;

	if (make_jobs(run) < 0) {
		fmt_into(err, errlen, "out of memory");
		return RELOCATE_FAILED;
	}
	qsort(run->jobs, run->njobs, sizeof(*run->jobs), job_path_cmp);
	if (nthreads < 1)
		nthreads = 1;
	/* A thread costs more than it saves on a small package. */
	if (run->njobs < 64)
		nthreads = 1;
	if (nthreads > 16)
		nthreads = 16;
	atomic_init(&run->next_job, 0);
	for (i = 1; i < nthreads; i++)
		if (pthread_create(&threads[started], NULL, worker, run) == 0)
			started++;
	if (worker(run) != NULL)
		status = RELOCATE_FAILED;
	for (i = 0; i < started; i++) {
		void *rc;

		pthread_join(threads[i], &rc);
		if (rc != NULL)
			status = RELOCATE_FAILED;
	}
	for (j = 0; j < run->njobs; j++) {
		struct job *job = &run->jobs[j];

		if (job->failed && status == RELOCATE_DONE) {
			fmt_into(err, errlen, "%s", job->err);
			status = RELOCATE_FAILED;
		}
		report_take(report, &job->report);
		free(job->links);
	}
	if (status == RELOCATE_FAILED && err[0] == '\0')
		fmt_into(err, errlen, "out of memory");
	return status;
}

static void
flag_entries(struct plan *plan, struct report *report)
{
	size_t i;

	for (i = 0; i < plan->tree->count; i++) {
		const struct plan_entry *pe = &plan->p[i];
		mode_t mode = pe->e->st.st_mode;
		char file[PATH_MAX + 1];

		fmt_into(file, sizeof(file), "/%s", final_path(pe));
		if (S_ISREG(mode) && (mode & S_ISUID))
			report_flag(report, file, "setuid");
		if (S_ISREG(mode) && (mode & S_ISGID))
			report_flag(report, file, "setgid");
		if (!S_ISLNK(mode) && (mode & S_IWOTH) && !(mode & S_ISVTX))
			report_flag(report, file, "world-writable");
		if (S_ISREG(mode) && !(mode & S_IWUSR))
			report_flag(report, file, "read-only");
		if (S_ISCHR(mode) || S_ISBLK(mode))
			report_flag(report, file, "device");
		if (S_ISFIFO(mode))
			report_flag(report, file, "fifo");
		if (S_ISSOCK(mode))
			report_flag(report, file, "socket");
	}
}

static void
run_free(struct run *run)
{
	int t;
	size_t i;

	for (t = 0; t < run->nplans; t++) {
		struct plan *plan = &run->plans[t];

		if (plan->p)
			for (i = 0; i < plan->tree->count; i++)
				free(plan->p[i].dest);
		free(plan->p);
		if (plan->tree)
			tree_free(plan->tree);
		free(plan->tree);
	}
	free(run->plans);
	free(run->jobs);
	pathmap_free(run->paths);
	pathmap_free(run->programs);
	pathmap_free(run->icons);
}

enum relocate_status
relocate_trees(const struct relocate_options *opt, char *const *dirs,
               int ndirs, struct extras_namespace *ns, struct report *report,
               char *err, size_t errlen)
{
	struct run run = { .opt = opt, .ns = ns };
	enum relocate_status status = RELOCATE_BAD_INPUT;
	const char *why;
	int t;

	err[0] = '\0';
	why = namespace_init(ns, opt->app, opt->root);
	if (why != NULL) {
		fmt_into(err, errlen, "%s '%s' %s",
		         namespace_check_app(opt->app) ? "app id" : "root",
		         namespace_check_app(opt->app) ? opt->app : opt->root, why);
		return RELOCATE_BAD_INPUT;
	}
	run.plans = calloc(ndirs, sizeof(*run.plans));
	run.paths = pathmap_new();
	run.programs = pathmap_new();
	run.icons = pathmap_new();
	if (!run.plans || !run.paths || !run.programs || !run.icons)
		goto oom;
	run.nplans = ndirs;
	for (t = 0; t < ndirs; t++) {
		run.plans[t].tree = calloc(1, sizeof(struct tree));
		if (run.plans[t].tree == NULL)
			goto oom;
		if (tree_walk(run.plans[t].tree, dirs[t], err, errlen) < 0 ||
		    !plan_tree(&run, &run.plans[t], err, errlen))
			goto out;
	}
	if (build_maps(&run) < 0)
		goto oom;
	if (pathmap_compile(run.paths, err, errlen) < 0) {
		status = RELOCATE_FAILED;
		goto out;
	}
	run.ctx = (struct patch_context){ run.paths, run.programs, run.icons };

	for (t = 0; t < ndirs; t++) {
		status = move_entries(&run.plans[t], report, opt->dry_run, err,
		                      errlen);
		if (status != RELOCATE_DONE)
			goto out;
		status = retarget_symlinks(&run, &run.plans[t], report, err,
		                           errlen);
		if (status != RELOCATE_DONE)
			goto out;
		flag_entries(&run.plans[t], report);
	}
	status = patch_files(&run, report, err, errlen);
	report_accept(report, opt->accepted, opt->n_accepted);
	if (status == RELOCATE_DONE && report->oom) {
		fmt_into(err, errlen, "out of memory");
		status = RELOCATE_FAILED;
	}
	if (status == RELOCATE_DONE && report->n_unpatched > 0)
		status = RELOCATE_UNPATCHED;
	goto out;
oom:
	fmt_into(err, errlen, "out of memory");
	status = RELOCATE_FAILED;
out:
	run_free(&run);
	return status;
}
