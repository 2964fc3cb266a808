/*
 * reserved.c: app ids no app may take (templates/identity/reserved-apps).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>

#include "base/datadir.h"
#include "base/strings.h"
#include "base/template.h"
#include "namespace/reserved.h"

int
reserved_app(const char *templates, const char *app, char **why,
             struct dpkg_error *err)
{
	char path[4096], **lines;
	size_t n, i, len = strlen(app);
	int found = 0;

	*why = NULL;
	if (templates != NULL)
		snprintf(path, sizeof(path), "%s/identity/reserved-apps",
		         templates);
	else
		snprintf(path, sizeof(path), "%s/templates/identity/"
		         "reserved-apps", dh_extras_datadir());
	if (template_list_load(path, &lines, &n, err) < 0)
		return -1;
	/* "ID  what it holds": the id, then blanks, then the text; in any
	 * case, as the profile grants the app's directories in any case. */
	for (i = 0; i < n && !found; i++) {
		const char *text = lines[i] + len;

		if (strncasecmp(lines[i], app, len) != 0 ||
		    (*text != '\0' && *text != ' ' && *text != '\t'))
			continue;
		text += strspn(text, " \t");
		*why = m_strdup(*text ? text : "another program's files");
		found = 1;
	}
	strings_free(lines, n);
	return found;
}
