/*
 * arch-match.c: Debian architecture wildcards, as Dpkg::Arch matches them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/arch.h>

#include "debian/arch-match.h"

#ifndef DPKG_DATADIR
#define DPKG_DATADIR "/usr/share/dpkg"
#endif

/* Split S at '-' into at most 4 parts; returns how many. */
static int
split_tuple(char *s, char *part[4])
{
	int n = 0;
	char *p = s;

	while (n < 4) {
		part[n++] = p;
		if (n == 4)
			break;
		p = strchr(p, '-');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	return n;
}

/*
 * The tuple (abi-libc-os-cpu) of the architecture ARCH, from dpkg's
 * tupletable, whose "<cpu>" rows stand for every CPU of cputable.
 */
static bool
arch_tuple(const char *arch, char *out, size_t size)
{
	FILE *tuples = fopen(DPKG_DATADIR "/tupletable", "r");
	char line[256], tuple[128], name[128];
	bool found = false;

	if (tuples == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), tuples)) {
		char *cpu_at;

		if (line[0] == '#' ||
		    sscanf(line, "%127s %127s", tuple, name) != 2)
			continue;
		cpu_at = strstr(name, "<cpu>");
		if (cpu_at == NULL) {
			if (strcmp(name, arch) == 0) {
				snprintf(out, size, "%s", tuple);
				found = true;
			}
			continue;
		}
		/* "<prefix><cpu>": the rest of ARCH must be a known CPU. */
		if (strncmp(arch, name, (size_t)(cpu_at - name)) == 0) {
			const char *cpu = arch + (cpu_at - name);
			FILE *cpus = fopen(DPKG_DATADIR "/cputable", "r");
			char cline[256], cname[64];

			while (cpus && fgets(cline, sizeof(cline), cpus)) {
				if (cline[0] != '#' &&
				    sscanf(cline, "%63s", cname) == 1 &&
				    strcmp(cname, cpu) == 0) {
					char *t = strstr(tuple, "<cpu>");

					if (t != NULL)
						snprintf(out, size, "%.*s%s", (int)(t - tuple),
						         tuple, cpu);
					found = t != NULL;
					break;
				}
			}
			if (cpus)
				fclose(cpus);
		}
	}
	fclose(tuples);
	return found;
}

bool
arch_matches(const char *arch, const char *wildcard)
{
	char real[128], wild[128];
	char *r[4], *w[4];
	int nw, i;

	if (strcmp(wildcard, arch) == 0 || strcmp(wildcard, "any") == 0)
		return strcmp(arch, "all") != 0 || strcmp(wildcard, "any") != 0;
	if (strcmp(arch, "all") == 0 || strcmp(wildcard, "all") == 0)
		return false;
	if (!arch_tuple(arch, real, sizeof(real)) ||
	    split_tuple(real, r) != 4)
		return false;
	snprintf(wild, sizeof(wild), "%s", wildcard);
	nw = split_tuple(wild, w);
	if (strstr(wildcard, "any") == NULL) {
		char t[128];

		if (!arch_tuple(wildcard, t, sizeof(t)))
			return false;
		return strcmp(t, real) == 0;
	}
	/* "linux-any" is any-any-linux-any; "any-amd64" any-any-any-amd64. */
	for (i = 0; i < 4; i++) {
		const char *wp = i < 4 - nw ? "any" : w[i - (4 - nw)];

		if (strcmp(wp, "any") != 0 && strcmp(wp, r[i]) != 0)
			return false;
	}
	return true;
}

bool
arch_list_matches(const char *arch, const char *list)
{
	char word[128];
	const char *p = list;

	while (*p) {
		size_t n;

		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		if (n == 0)
			break;
		snprintf(word, sizeof(word), "%.*s", (int)n, p);
		if (arch_matches(arch, word))
			return true;
		p += n;
	}
	return false;
}

const char *
arch_host(void)
{
	const char *host = getenv("DEB_HOST_ARCH");

	if (host != NULL && host[0] != '\0' &&
	    dpkg_arch_name_is_illegal(host) == NULL)
		return host;
	return dpkg_arch_get(DPKG_ARCH_NATIVE)->name;
}
