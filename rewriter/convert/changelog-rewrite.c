/*
 * changelog-rewrite.c: debian/changelog's first line names the new source.
 */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/dpkg-db.h>

#include "convert/changelog-rewrite.h"
#include "namespace/namespace.h"

#define CHANGELOG_FILE "debian/changelog"

/* " -- Name <mail>  Thu, 01 Jan 2026 12:00:00 +0000": the date's time. */
static int
parse_trailer(const char *file, int lno, const char *line, size_t n,
              time_t *when, struct dpkg_error *err)
{
	const char *date = NULL, *p;
	char buf[128];
	struct tm tm;
	long offset;
	char *end;

	for (p = line; p + 1 < line + n; p++)
		if (p[0] == '>' && p[1] == ' ' && p + 2 < line + n && p[2] == ' ')
			date = p + 3;
	if (date == NULL || (size_t)(line + n - date) >= sizeof(buf))
		return put_error_at(err, file, lno, "malformed trailer line: "
		                    "expected ' -- NAME <EMAIL>  DATE'");
	memcpy(buf, date, line + n - date);
	buf[line + n - date] = '\0';
	memset(&tm, 0, sizeof(tm));
	end = strptime(buf, "%a, %d %b %Y %H:%M:%S %z", &tm);
	if (end == NULL || *end != '\0')
		return put_error_at(err, file, lno, "malformed date '%s' in "
		                    "trailer line (expected RFC 5322)", buf);
	/* timegm() clears tm_gmtoff: read it first. */
	offset = tm.tm_gmtoff;
	*when = timegm(&tm) - offset;
	return 0;
}

/* The first line: "NAME (VERSION) DIST; OPTIONS". */
static int
check_heading(const char *file, const char *text, size_t n, size_t *name_len,
              char **version, struct dpkg_error *err)
{
	struct dpkg_version v;
	struct dpkg_error derr = DPKG_ERROR_OBJECT;
	const char *open, *close, *why;
	char name[256];

	open = memchr(text, '(', n);
	close = open ? memchr(open, ')', n - (open - text)) : NULL;
	if (open == NULL || close == NULL || open == text || open[-1] != ' ' ||
	    memchr(close, ';', n - (close - text)) == NULL)
		return put_error_at(err, file, 1, "malformed first line: expected "
		                    "'SOURCE (VERSION) DISTRIBUTION; urgency=...'");
	*name_len = open - 1 - text;
	if (*name_len == 0 || *name_len >= sizeof(name))
		return put_error_at(err, file, 1, "malformed source name");
	memcpy(name, text, *name_len);
	name[*name_len] = '\0';
	why = pkg_name_is_illegal(name);
	if (why != NULL)
		return put_error_at(err, file, 1, "invalid source name '%s': %s",
		                    name, why);
	*version = m_malloc(close - open);
	memcpy(*version, open + 1, close - open - 1);
	(*version)[close - open - 1] = '\0';
	if (parseversion(&v, *version, &derr) < 0) {
		put_error_at(err, file, 1, "invalid version '%s': %s", *version,
		             derr.str);
		dpkg_error_destroy(&derr);
		return -1;
	}
	return 0;
}

int
changelog_rewrite_text(const char *file, const char *text, size_t len,
                       const char *app, struct changelog_info *info,
                       char **out, struct dpkg_error *err)
{
	const char *nl = memchr(text, '\n', len), *p;
	size_t first = nl ? (size_t)(nl - text) : len, name_len;
	const char *name;
	int lno = 1;

	memset(info, 0, sizeof(*info));
	*out = NULL;
	if (memchr(text, '\0', len) != NULL)
		return put_error_at(err, file, 0, "contains a NUL byte");
	if (check_heading(file, text, first, &name_len, &info->version, err) < 0)
		return -1;
	name = text;
	if (strncmp(name, EXTRAS_PREFIX, strlen(EXTRAS_PREFIX)) == 0) {
		name += strlen(EXTRAS_PREFIX);
		name_len -= strlen(EXTRAS_PREFIX);
	}
	if (name_len != strlen(app) || memcmp(name, app, name_len) != 0)
		return put_error_at(err, file, 1, "source '%.*s' is not "
		                    "debian/control's '%s'", (int)(name + name_len - text),
		                    text, app);

	/* The first entry ends at its trailer, before the next heading. */
	for (p = text; p < text + len; lno++) {
		const char *eol = memchr(p, '\n', text + len - p);
		size_t n = eol ? (size_t)(eol - p) : (size_t)(text + len - p);

		if (n >= 4 && memcmp(p, " -- ", 4) == 0) {
			if (parse_trailer(file, lno, p, n, &info->timestamp,
			                  err) < 0)
				return -1;
			break;
		}
		if (p != text && n > 0 && p[0] != ' ' && p[0] != '\t')
			return put_error_at(err, file, lno, "first entry has no "
			                    "trailer line");
		p = eol ? eol + 1 : text + len;
	}
	if (p >= text + len)
		return put_error_at(err, file, 0, "first entry has no trailer line");

	*out = m_malloc(len + strlen(EXTRAS_PREFIX) + 1);
	if (name == text) {
		strcpy(*out, EXTRAS_PREFIX);
		memcpy(*out + strlen(EXTRAS_PREFIX), text, len);
		(*out)[len + strlen(EXTRAS_PREFIX)] = '\0';
	} else {
		memcpy(*out, text, len);
		(*out)[len] = '\0';
	}
	return 0;
}

int
changelog_rewrite(struct convert_plan *plan, const char *app,
                  struct changelog_info *info, struct dpkg_error *err)
{
	char *text, *out;
	size_t len;
	mode_t mode;

	memset(info, 0, sizeof(*info));
	if (convert_read(plan, CHANGELOG_FILE, &text, &len, &mode, false,
	                 err) < 0)
		return -1;
	if (changelog_rewrite_text(CHANGELOG_FILE, text, len, app, info, &out,
	                           err) < 0) {
		free(text);
		return -1;
	}
	if (strcmp(out, text) != 0)
		convert_plan_write(plan, CHANGELOG_FILE, out, strlen(out), mode);
	free(text);
	free(out);
	return 0;
}

void
changelog_info_free(struct changelog_info *info)
{
	free(info->version);
	memset(info, 0, sizeof(*info));
}
