/*
 * reserved.h: app ids no app may take, because other programs keep the
 * user's files under that name.
 *
 * Every profile grants its app ~/.APP/, ~/.config/APP/, ~/.local/share/APP/
 * and ~/.cache/APP/.  An app whose id is another program's directory name
 * would reach that program's settings, keys or extensions.  The ids of
 * templates/identity/reserved-apps are refused where an id is used: at
 * the front door (extras-conflicts accept), and whenever a profile is
 * generated (every build, every review).  The front door also refuses an
 * id that names an archive program or data directory (conflicts.h).
 */
#ifndef DH_EXTRAS_RESERVED_H
#define DH_EXTRAS_RESERVED_H

#include <dpkg/error.h>

/*
 * Whether APP is reserved, by the list in TEMPLATES (NULL:
 * dh_extras_datadir()/templates).  Returns 0 when it is not; 1 when it is,
 * with what the name holds in *WHY (malloc'd: "OpenSSH's keys and
 * authorized_keys (~/.ssh)"); -1 with ERR set when the list cannot be read.
 */
int reserved_app(const char *templates, const char *app, char **why,
                 struct dpkg_error *err);

#endif
