/*
 * relocate-map.c: the maps of old paths, program names and icon names
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fmt.h"
#include "relocate/relocate-run.h"

/* Whether PARENT is NS_REL/bin, /sbin or /games: where usr/bin,
 * usr/sbin and usr/games land, whose programs .desktop files name. */
static bool
is_program_dir(const char *parent, const char *ns_rel)
{
	static const char *const dirs[] = { "/bin", "/sbin", "/games", NULL };
	size_t n = strlen(ns_rel);
	int i;

	if (strncmp(parent, ns_rel, n) != 0)
		return false;
	for (i = 0; dirs[i]; i++)
		if (strcmp(parent + n, dirs[i]) == 0)
			return true;
	return false;
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
	/* Entries come sorted, so most ask about the same directory as
	 * the one before; the table of shared directories is long. */
	static _Thread_local char last[PATH_MAX];
	static _Thread_local bool last_owned;
	char origin[2][PATH_MAX];

	if (!path_is_under(final, ns_rel))
		return false;
	if (strcmp(final, last) == 0)
		return last_owned;
	layout_origins(final + strlen(ns_rel) + 1, origin);
	last_owned = !layout_is_shared_dir(origin[0]);
	snprintf(last, sizeof(last), "%s", final);
	return last_owned;
}

/* Whether FINAL is a gettext catalogue in the namespace's locale
 * directory: NS/share/locale/LANG/LC_MESSAGES/DOMAIN.mo. */
static bool
is_catalogue(const char *ns_rel, const char *final)
{
	char dir[PATH_MAX];
	size_t n = strlen(final);

	fmt_into(dir, sizeof(dir), "%s/share/locale", ns_rel);
	return path_is_under(final, dir) && n > 3 &&
	       strcmp(final + n - 3, ".mo") == 0 &&
	       strstr(final + strlen(dir), "/LC_MESSAGES/") != NULL;
}

/* Whether NAME in the namespace directory PARENT is a shared library the
 * loader may look for: "libfoo.so.1" in NS/lib or below it. */
static bool
is_shared_library(const char *ns_rel, const char *parent, const char *name)
{
	char lib[PATH_MAX];

	fmt_into(lib, sizeof(lib), "%s/lib", ns_rel);
	return (strcmp(parent, lib) == 0 || path_is_under(parent, lib)) &&
	       (strstr(name, ".so.") != NULL ||
	        (strlen(name) > 3 && strcmp(name + strlen(name) - 3, ".so") == 0));
}

static int
map_icon(struct pathmap *icons, const char *final)
{
	const char *base = strrchr(final, '/');
	const char *dot;
	char old[NAME_MAX + 1], new[NAME_MAX + 1];

	if (!path_is_under(final, "usr/share/icons") &&
	    !path_is_under(final, "usr/share/pixmaps"))
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
map_prefixed_export(struct relocation *run, const char *final)
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

int
relocate_build_maps(struct relocation *run)
{
	const char *ns_rel = run->ns->rel;
	int t;
	size_t i;

	for (t = 0; t < run->nplans; t++) {
		struct tree_plan *plan = &run->plans[t];

		for (i = 0; i < plan->tree->count; i++) {
			const struct plan_entry *pe = &plan->p[i];
			const char *final = relocate_final_path(pe);
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
					char old[PATH_MAX + 1],
					        new[PATH_MAX + 1];

					fmt_into(old, sizeof(old), "/%s",
					         pe->e->path);
					fmt_into(new, sizeof(new), "/%s",
					         final);
					if (pathmap_add(run->paths, old, new) <
					    0)
						return -1;
				}
				continue;
			}
			if (!path_is_under(final, ns_rel) || slash == NULL)
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
			if (is_catalogue(ns_rel, final))
				fmt_into(run->localedir, sizeof(run->localedir),
				         "/%s/share/locale", ns_rel);
			if (is_shared_library(ns_rel, parent, slash + 1)) {
				char dir[PATH_MAX + 1];

				fmt_into(dir, sizeof(dir), "/%s", parent);
				if (pathmap_lookup(run->libs, slash + 1,
				                   strlen(slash + 1)) == NULL &&
				    pathmap_add(run->libs, slash + 1, dir) < 0)
					return -1;
			}
			if (path_is_under(final, run->ns->rel) &&
			    is_program_dir(parent, ns_rel)) {
				char new[PATH_MAX + 1];

				fmt_into(new, sizeof(new), "/%s", final);
				if (pathmap_add(run->programs, slash + 1, new) <
				    0)
					return -1;
			}
		}
	}
	return 0;
}
