/*
 * debfile.h: read a binary package (.deb) without unpacking it.
 *
 * The outer ar archive, control.tar.* and data.tar.* are read with
 * libarchive as streams: nothing is written to disk and data.tar is never
 * held in memory.  What a checker needs is kept: the control stanza (its
 * main fields validated with libdpkg), every control member with its text
 * (maintainer scripts, triggers, conffiles, ...), and every data.tar member
 * with its path, type, mode, link target and size.
 *
 * Usage:
 *
 *	struct debfile deb;
 *	struct dpkg_error err = DPKG_ERROR_INIT;
 *
 *	if (debfile_read(&deb, "foo_1.0_all.deb", &err) < 0)
 *		ohshit("%s", err.str);
 *	for (i = 0; i < deb.nmembers; i++)
 *		... deb.members[i].path ...
 *	debfile_destroy(&deb);
 *
 * Hostile input (not an ar archive, missing or misplaced members,
 * truncated or corrupted compression, a bad control stanza, members whose
 * path leaves the package) is refused with a one-line error naming the
 * file; no partial result is returned.
 */
#ifndef DH_EXTRAS_DEBFILE_H
#define DH_EXTRAS_DEBFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <dpkg/error.h>

#include "debian/deb822.h"

/* Control members larger than this are refused: they are text. */
#define DEBFILE_CONTROL_MEMBER_MAX (4 << 20)

enum debfile_type {
	DEBFILE_REGULAR,
	DEBFILE_DIRECTORY,
	DEBFILE_SYMLINK,
	DEBFILE_HARDLINK,
	/* Character or block device, FIFO or socket. */
	DEBFILE_SPECIAL,
};

/* One member of data.tar. */
struct debfile_member {
	/*
	 * Relative to the root, without "./" or a trailing slash, as
	 * Contents indices spell paths: "usr/bin/foo".  Every spelling dpkg
	 * takes for one path ("./x", "/x", "x/", ".//./x/.") reads as one;
	 * see debfile_path.
	 */
	char *path;
	enum debfile_type type;
	/* Permission bits, with setuid, setgid and sticky (07777). */
	mode_t mode;
	/* Full file type and permission bits as in the tar header. */
	mode_t st_mode;
	/* Symlink target as written, or the hard link's path (normalised). */
	char *target;
	int64_t size;
	/* Owner and group names as in the tar header ("" when absent), and
	 * their ids: dpkg uses the name when the system knows it. */
	char *owner, *group;
	int64_t uid, gid;
	/* The content of a regular file kept by debfile_read_keep()
	 * (NUL-terminated), else NULL. */
	char *data;
};

/* One member of control.tar other than the directory itself. */
struct debfile_control_member {
	/* "control", "md5sums", "postinst", "conffiles", "triggers", ... */
	char *name;
	enum debfile_type type;
	mode_t mode;
	char *data;	/* NUL-terminated; NULL unless a regular file */
	size_t size;
};

struct debfile {
	char *filename;
	/* "2.0": the debian-binary member, without its newline. */
	char format[16];
	char *control_tar;	/* "control.tar.xz" */
	char *data_tar;		/* "data.tar.zst" */
	/* "FILE: control", the name its parse errors carry. */
	char control_name[4096 + 16];
	/* The control file; its stanza holds every field (relations...). */
	struct deb822 control_file;
	const struct deb822_stanza *control;
	/* Validated fields, pointing into control. */
	const char *package;
	const char *version;
	const char *architecture;
	/* Source name without "(version)"; Package when there is no Source. */
	char *source;
	/* The Source field's version, else Version. */
	char *source_version;
	struct debfile_control_member *control_members;
	size_t ncontrol_members;
	struct debfile_member *members;
	size_t nmembers;
	/* While reading: which data members' contents to keep. */
	bool (*keep)(const struct debfile_member *m, void *ctx);
	void *keep_ctx;
};

/*
 * NAME (a tar member's name) as dpkg installs it: leading "/" and "./"
 * skipped as path_skip_slash_dotslash does, trailing "/" and "/." trimmed
 * as path_trim_slash_slashdot does; "" for the root.  NULL, with *REASON,
 * for a name with an empty, "." or ".." component left, which dpkg would
 * resolve on the file system rather than by name.
 */
char *debfile_path(const char *name, const char **reason);

/* Read FILENAME into DEB. Returns 0, or -1 with ERR set. */
int debfile_read(struct debfile *deb, const char *filename,
                 struct dpkg_error *err);

/*
 * The same, keeping the content of every regular data.tar member M for
 * which KEEP(M, CTX) is true (its path, type, mode and size are read) and that is at most DEBFILE_CONTROL_MEMBER_MAX
 * bytes (a larger one is read but not kept: its data stays NULL).
 */
int debfile_read_keep(struct debfile *deb, const char *filename,
                      bool (*keep)(const struct debfile_member *m,
                                   void *ctx), void *ctx,
                      struct dpkg_error *err);

/*
 * Parse and validate the "control" member of DEB, whose filename and
 * control members are already set (as debfile_read does, or a reader of a
 * staged tree).  Returns 0, or -1 with ERR set.
 */
int debfile_parse_control(struct debfile *deb, struct dpkg_error *err);

/* A control member by name ("postinst"), or NULL. */
const struct debfile_control_member *
debfile_control_member(const struct debfile *deb, const char *name);

/* Whether NAME is one of the maintainer scripts dpkg runs. */
int debfile_is_maintainer_script(const char *name);

/* A relation field ("Depends", "Breaks", ...) as written, or NULL. */
const char *debfile_field(const struct debfile *deb, const char *name);

/* Release one data member's fields (debfile-control.c). */
void debfile_member_free(struct debfile_member *m);

/*
 * The data members as the reader saw them, one a line, in dpkg's order:
 * "TYPE MODE OWNER:GROUP SIZE PATH[ -> TARGET]", TYPE one of f (file),
 * d, l (symbolic link), h (hard link), s (device, FIFO); MODE in octal
 * with its set-id bits; SIZE a file's, else 0.
 */
void debfile_print_members(const struct debfile *deb, FILE *fp);

void debfile_destroy(struct debfile *deb);

#endif
